/* Internals shared by the files of the geometry module (nav_geom.h): error messages into the caller's
 * buffer, whole-file reading, the mesh structure and 3-vector helpers. Not for use outside
 * src/physics/bodies/nav_geom*.c (and the module's tests). */
#ifndef NAV_GEOM_IMPL_H
#define NAV_GEOM_IMPL_H

#include <math.h>
#include <stddef.h>

#include "navier/nav_types.h"
#include "core/nav_error.h"
#include "physics/bodies/nav_geom_bvh.h"

/* Write the formatted message into msg[size] (truncated, always terminated; nothing when size is 0)
 * and return code (nav_why of core/nav_error.h). */
#define nav_geom_fail(code, msg, size, ...) ((nav_err)nav_why((int)(code), msg, size, __VA_ARGS__))
/* Read the whole file path into a new buffer *data (NUL-terminated, *len bytes without the NUL).
 * NAV_ERR_IO with "PATH: cannot read: REASON" on failure. */
nav_err nav_geom_slurp(const char *path, char **data, size_t *len, char *msg, size_t size);

/* A closed oriented triangle surface (nav_geom_mesh): built by nav_geom_stl.c, queried by nav_geom_mesh.c. */
struct nav_geom_mesh {
  int nt, nv;
  double *v;  /* 3 nv welded vertices */
  int *tri;   /* 3 nt vertex indices, counter-clockwise seen from outside */
  double *fn; /* 3 nt unit face normals */
  double *en; /* 9 nt unit pseudonormals of the edges k = (corner k, corner k+1) of each triangle */
  double *vn; /* 3 nv unit vertex pseudonormals */
  double volume, lo[3], hi[3];
  nav_geom_bvh bvh;
};

/* The welded vertices of a mesh, xyz[3 nav_geom_mesh_vertices(m)] (for the placed bounds). */
const double *nav_geom_mesh_vertex_xyz(const struct nav_geom_mesh *m);
/* The welded vertex indices of the triangles, tri[3 nav_geom_mesh_triangles(m)], outward (for tests). */
const int *nav_geom_mesh_triangle_vertices(const struct nav_geom_mesh *m);

/* 3-vectors */
static inline void nav_sub(const double *a, const double *b, double *r) {
  r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
static inline double nav_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline void nav_cross(const double *a, const double *b, double *r) {
  r[0] = a[1] * b[2] - a[2] * b[1], r[1] = a[2] * b[0] - a[0] * b[2], r[2] = a[0] * b[1] - a[1] * b[0];
}
static inline void nav_unit(double *a) {
  const double s = sqrt(nav_dot(a, a));
  if (s > 0) a[0] /= s, a[1] /= s, a[2] /= s;
}

#endif
