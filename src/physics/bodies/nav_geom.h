/* Geometry of immersed bodies given by files: closed 2D polylines (`points`, extruded along z in 3D)
 * and closed triangulated surfaces (`stl`), with exact signed distances, inside tests, and the rigid
 * placement (scale, rotation, translation) of a body in the domain. Host code, C11, libc and libm only.
 *
 * File formats and conventions (docs/bodies.md, "Body geometry from files", says the same for users):
 *
 *   points  a text file of rows `x,y` or `x y` (a comma, blanks or tabs between the two numbers); '#'
 *           starts a comment, blank lines are skipped; the first data row may be a header (e.g. `x,y`)
 *           when its first field is not a number. Closure is IMPLICIT: the last point joins the first.
 *           An explicit repeat of the first point at the end is accepted and dropped. The closing gap
 *           |p_last - p_first| may be at most NAV_GEOM_GAP_FACTOR times the longest other segment, else
 *           the file is an "open polyline" (half a contour, a truncated file): repeat the first point at
 *           the end to close a contour whose closing segment is meant to be long.
 *           Rejected: fewer than 3 distinct points, zero-length segments (consecutive points closer than
 *           NAV_GEOM_REL_TOL times the bounding-box diagonal), segments that cross or touch (other than
 *           neighbours at their shared point, which may not fold back), a zero area (|A| <= 1e-12 diag^2).
 *           The points are stored counter-clockwise (reversed when the file runs clockwise).
 *   stl     ASCII (`solid` ... `facet normal` / `outer loop` / 3 `vertex x y z` / `endloop` / `endfacet`
 *           ... `endsolid`, keywords case-insensitive, several solids allowed, the facet normals ignored)
 *           or binary (80-byte header, uint32 count n, n records of 50 bytes: normal, 3 vertices as
 *           little-endian float32, 2 attribute bytes). Binary is detected by the size: exactly 84 + 50 n
 *           bytes (a binary header may start with "solid"); else a file that starts with "solid" and holds
 *           no NUL byte is ASCII, and anything else is a binary file of the wrong size (truncated).
 *           Corners closer than NAV_GEOM_WELD_TOL times the bounding-box diagonal (in each coordinate) are
 *           welded into one vertex; more than 64 distinct corners that close together are refused.
 *           Rejected: truncated files, bad numbers, non-finite coordinates, degenerate triangles (two
 *           welded vertices equal, or |e1 x e2| <= 1e-12 max|e|^2), a surface that is not closed (every
 *           edge must belong to exactly two triangles that run along it in opposite directions), a
 *           component (triangles joined by edges) of zero volume (|V| <= 1e-12 diag^3). Each component is
 *           turned outward (flipped when its signed volume is negative): the body is the union of the
 *           solids the components enclose (voids cannot be described). Also rejected: a self-intersecting
 *           surface (two triangles without a common vertex that cross or touch; overlapping components).
 *           The checks cost O(n log n) for well-shaped input (pairs of segments or triangles whose boxes
 *           overlap), O(n^2) at worst (e.g. a fan of 10^5 long slivers around one vertex).
 *
 * Signed distance: negative inside, positive outside, |d| the exact Euclidean distance to the stored
 * segments or triangles up to round-off (a few 1e-16 times the size of the body: the foot point on a long
 * segment or triangle is rounded to its size). The closest primitive comes from a bounding-volume hierarchy
 * (nav_geom_bvh.h): a query near the surface tests O(log n) boxes and O(1) primitives on average (a point
 * far inside a large closed body, e.g. near a sphere's centre, is nearly equidistant from many primitives
 * and costs more: classify with the winding number, O(log n), and take distances in a band near the
 * surface); the costs per distance and inside test of the snake and of spheres of 1280 and 81920
 * triangles are in docs/performance.md. The sign is that of the winding number (polylines:
 * Sunday's crossing rule; surfaces: a ray along +x whose hits on edges and vertices count once), robust
 * away from round-off distances of the boundary. The normal returned is the angle-weighted pseudonormal of
 * the closest feature (face, edge or vertex; Baerentzen & Aanaes, IEEE TVCG 11 (2005) 243-253), whose
 * sign test (x - q).N is exact in exact arithmetic but flips at sliver angles where the distances to two
 * features tie to round-off (the fuzzer found a 1.6e-9 rad spike), so it is not used for the sign.
 *
 * Errors: every function that can fail returns a nav_err (NAV_ERR_IO: unreadable file; NAV_ERR_INPUT:
 * bad content; NAV_ERR_MEMORY) and writes "PATH:LINE: reason" or "PATH: reason" into the caller's
 * buffer msg[size] (NAV_GEOM_MSG bytes hold any message with a path of up to 100 characters; longer ones
 * are truncated, never overflowed; msg may be NULL when size is 0). Objects are
 * immutable after creation: queries may run concurrently from several threads. */
#ifndef NAV_GEOM_H
#define NAV_GEOM_H

#include <stddef.h>

#include "navier/nav_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_GEOM_MSG 512        /* message buffer size (see Errors above) */
#define NAV_GEOM_REL_TOL 1e-10  /* zero-length segment / repeated point, relative to the diagonal */
#define NAV_GEOM_GAP_FACTOR 4.0 /* implicit closing gap at most this times the longest segment */
#define NAV_GEOM_WELD_TOL 1e-6  /* STL vertex welding distance (max norm), relative to the diagonal */

typedef struct nav_geom_poly nav_geom_poly; /* a closed simple polygon, counter-clockwise */
typedef struct nav_geom_mesh nav_geom_mesh; /* a closed oriented triangle surface, outward normals */

/* ---- points: closed 2D polylines ---------------------------------------------------------------- */

/* Read a polyline file (format above) and validate it. On success *out owns the polygon (free with
 * nav_geom_poly_destroy); on error *out is NULL and msg holds "PATH:LINE: reason" or "PATH: reason".
 * Not collective; host only. */
nav_err nav_geom_poly_read(const char *path, nav_geom_poly **out, char *msg, size_t size);
/* The same from the bytes text[0..len) (need not be NUL-terminated); name stands for PATH in messages. */
nav_err nav_geom_poly_parse(const char *text, size_t len, const char *name, nav_geom_poly **out, char *msg,
                            size_t size);
/* The same from n points xy[2n] in memory (a built-in shape, tests); line numbers in messages are the
 * point indices + 1. */
nav_err nav_geom_poly_create(const double *xy, int n, const char *name, nav_geom_poly **out, char *msg, size_t size);
void nav_geom_poly_destroy(nav_geom_poly *p);

int nav_geom_poly_count(const nav_geom_poly *p);            /* number of vertices n (closing not repeated) */
const double *nav_geom_poly_points(const nav_geom_poly *p); /* xy[2n], counter-clockwise */
double nav_geom_poly_area(const nav_geom_poly *p);          /* enclosed area, > 0 */
void nav_geom_poly_bounds(const nav_geom_poly *p, double lo[2], double hi[2]);
/* Signed distance from x to the polygon (negative inside). When cp / normal are not NULL they receive
 * the closest boundary point and the outward unit pseudonormal there (for a vertex: the normalised sum
 * of the two edge normals). */
double nav_geom_poly_distance(const nav_geom_poly *p, const double x[2], double cp[2], double normal[2]);
/* Winding number of the polygon around x: 1 inside, 0 outside (points on the boundary: either). */
int nav_geom_poly_winding(const nav_geom_poly *p, const double x[2]);
/* Sample points on the boundary for surface quadrature (Lagrangian markers, force integrals): each segment
 * cut into ceil(length / h) equal pieces, one sample at the middle of each, with the outward unit normal of
 * the segment and the piece's length as weight (the midpoint rule: exact for integrands linear along a
 * segment, so sum w = perimeter, sum w n = 0, sum w x.n = 2 area). h > 0; *n samples in new arrays
 * xy[2n], normal[2n], w[n] (free them); NAV_ERR_INPUT when h is not > 0 or gives more than 2^28 samples. */
nav_err nav_geom_poly_sample(const nav_geom_poly *p, double h, int *n, double **xy, double **normal, double **w,
                             char *msg, size_t size);

/* ---- stl: closed triangulated surfaces -------------------------------------------------------------- */

/* Read an ASCII or binary STL file (format above) and validate it; contract as nav_geom_poly_read.
 * Messages: ASCII "PATH:LINE: reason" (LINE of the facet or of the bad token), binary "PATH: triangle
 * K (byte B): reason", whole-surface faults "PATH: reason" with the triangle and line where known. */
nav_err nav_geom_mesh_read(const char *path, nav_geom_mesh **out, char *msg, size_t size);
/* The same from the bytes data[0..len); name stands for PATH in messages. */
nav_err nav_geom_mesh_parse(const unsigned char *data, size_t len, const char *name, nav_geom_mesh **out, char *msg,
                            size_t size);
/* The same from n triangles xyz[9n] (x0 y0 z0 x1 y1 z1 x2 y2 z2 per triangle) in memory. */
nav_err nav_geom_mesh_create(const double *xyz, int n, const char *name, nav_geom_mesh **out, char *msg, size_t size);
void nav_geom_mesh_destroy(nav_geom_mesh *m);

int nav_geom_mesh_triangles(const nav_geom_mesh *m); /* number of triangles */
int nav_geom_mesh_vertices(const nav_geom_mesh *m);  /* number of welded vertices */
double nav_geom_mesh_volume(const nav_geom_mesh *m); /* enclosed volume, > 0 */
void nav_geom_mesh_bounds(const nav_geom_mesh *m, double lo[3], double hi[3]);
/* Signed distance from x to the surface (negative inside); cp / normal (may be NULL): the closest
 * point and the outward unit pseudonormal of its feature. */
double nav_geom_mesh_distance(const nav_geom_mesh *m, const double x[3], double cp[3], double normal[3]);
/* Winding number of the surface around x (a ray along +x; edges and vertices met exactly are counted
 * once): 1 inside a component, 0 outside (points on the surface: either). O(log n) per query. */
int nav_geom_mesh_winding(const nav_geom_mesh *m, const double x[3]);
/* 1 when x is inside (winding number != 0), else 0. */
int nav_geom_mesh_inside(const nav_geom_mesh *m, const double x[3]);
/* Sample points on the surface: each triangle cut into k^2 congruent triangles, k = ceil(longest edge / h),
 * one sample at the centroid of each with the face's outward unit normal and the small triangle's area as
 * weight (the centroid rule: sum w = area, sum w n = 0, sum w x.n = 3 volume). Contract as
 * nav_geom_poly_sample, with xyz[3n], normal[3n], w[n]. */
nav_err nav_geom_mesh_sample(const nav_geom_mesh *m, double h, int *n, double **xyz, double **normal, double **w,
                             char *msg, size_t size);

/* ---- placement: file coordinates -> domain coordinates ---------------------------------------------- */

/* A rigid placement with uniform scale: for a point x of the file,
 *     X = c + R (s x - c) + t
 * s = scale (> 0), c = centre (the rotation centre, in scaled file coordinates), t = shift, and
 * R = Rz(angle[2]) Ry(angle[1]) Rx(angle[0]) with right-handed rotations by angle[] DEGREES about the
 * fixed axes x, y, z: the body turns about x first, then y, then z.
 * 2D (points bodies): only angle[2] may be non-zero (the polygon turns in the x-y plane, counter-clockwise
 * for a positive angle); the angle of attack alpha of a body in a stream along +x (nose up) is
 * angle[2] = -alpha: nav_geom_xform_2d sets it so. (cuIBM writes angleOfAttack = -35 for AoA 35: the same
 * rotation.) Fill the public fields, then call nav_geom_xform_update, which checks them and sets rot. */
typedef struct nav_geom_xform {
  double scale;     /* s > 0 */
  double centre[3]; /* c */
  double angle[3];  /* degrees about x, y, z */
  double shift[3];  /* t */
  double rot[3][3]; /* R, set by nav_geom_xform_update */
} nav_geom_xform;

/* The identity (s = 1, no rotation, no shift); rot is set. */
void nav_geom_xform_identity(nav_geom_xform *xf);
/* A 2D placement: scale, angle of attack aoa_deg about centre[2] (nose up for a stream along +x: the
 * polygon turns clockwise), then shift[2]. Either pointer may be NULL (zero). */
nav_err nav_geom_xform_2d(nav_geom_xform *xf, double scale, double aoa_deg, const double centre[2],
                          const double shift[2], char *msg, size_t size);
/* Check scale > 0 and all fields finite, then set rot from angle[]. */
nav_err nav_geom_xform_update(nav_geom_xform *xf, char *msg, size_t size);
void nav_geom_xform_apply(const nav_geom_xform *xf, const double x[3], double X[3]);   /* file -> domain */
void nav_geom_xform_inverse(const nav_geom_xform *xf, const double X[3], double x[3]); /* domain -> file */

/* ---- a placed body: what the immersed-boundary code queries ----------------------------------------- */

typedef struct nav_geom_body {
  const nav_geom_poly *poly; /* exactly one of poly and mesh is set (not owned) */
  const nav_geom_mesh *mesh;
  nav_geom_xform xf;
} nav_geom_body;

/* Signed distance (domain units, negative inside) from the domain point X[3] to the placed body; a poly
 * body is the prism of the polygon along z (X[2] ignored). cp / normal (may be NULL): the closest
 * surface point and the outward unit normal there, in domain coordinates (for a poly: z = X[2], n_z = 0). */
double nav_geom_body_distance(const nav_geom_body *b, const double X[3], double cp[3], double normal[3]);
/* 1 when X is inside the placed body, else 0 (a poly body: by the winding number). */
int nav_geom_body_inside(const nav_geom_body *b, const double X[3]);
/* Bounding box of the placed body: exact (the box of the transformed vertices). A poly body has
 * lo[2] = -HUGE_VAL, hi[2] = HUGE_VAL (a prism). */
void nav_geom_body_bounds(const nav_geom_body *b, double lo[3], double hi[3]);
/* Samples of the placed body's surface at spacing at most h (domain units): nav_geom_poly_sample or
 * nav_geom_mesh_sample with h / s, placed: X[3n] (a poly body: z = 0, the samples of its cross-section),
 * normal[3n] turned with the body, w[n] scaled by s (poly: lengths) or s^2 (mesh: areas). */
nav_err nav_geom_body_sample(const nav_geom_body *b, double h, int *n, double **X, double **normal, double **w,
                             char *msg, size_t size);
/* Check the body for use: exactly one shape set, a poly body turns only about z. */
nav_err nav_geom_body_check(const nav_geom_body *b, char *msg, size_t size);

#ifdef __cplusplus
}
#endif

#endif
