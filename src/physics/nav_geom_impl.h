/* Internals shared by the files of the geometry module (nav_geom.h): error messages into the caller's
 * buffer and whole-file reading. Not for use outside src/physics/nav_geom*.c. */
#ifndef NAV_GEOM_IMPL_H
#define NAV_GEOM_IMPL_H

#include <stddef.h>

#include "navier/nav_types.h"

#if defined(__GNUC__)
#define NAV_GEOM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NAV_GEOM_PRINTF(a, b)
/* The welded vertices of a mesh, xyz[3 nav_geom_mesh_vertices(m)] (for the placed bounds). */
const double *nav_geom_mesh_vertex_xyz(const struct nav_geom_mesh *m);
/* The welded vertex indices of the triangles, tri[3 nav_geom_mesh_triangles(m)], outward (for tests). */
const int *nav_geom_mesh_triangle_vertices(const struct nav_geom_mesh *m);

#endif

/* Write the formatted message into msg[size] (truncated, always terminated; nothing when size is 0)
 * and return code. */
nav_err nav_geom_fail(nav_err code, char *msg, size_t size, const char *fmt, ...) NAV_GEOM_PRINTF(4, 5);
/* Read the whole file path into a new buffer *data (NUL-terminated, *len bytes without the NUL).
 * NAV_ERR_IO with "PATH: cannot read: REASON" on failure. */
nav_err nav_geom_slurp(const char *path, char **data, size_t *len, char *msg, size_t size);

/* The welded vertices of a mesh, xyz[3 nav_geom_mesh_vertices(m)] (for the placed bounds). */
const double *nav_geom_mesh_vertex_xyz(const struct nav_geom_mesh *m);
/* The welded vertex indices of the triangles, tri[3 nav_geom_mesh_triangles(m)], outward (for tests). */
const int *nav_geom_mesh_triangle_vertices(const struct nav_geom_mesh *m);

#endif
