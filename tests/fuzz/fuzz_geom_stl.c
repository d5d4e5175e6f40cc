/* libFuzzer target: the STL reader of `stl` bodies (nav_geom_mesh_parse, src/physics/bodies/nav_geom.h), ASCII and
 * binary.
 *
 * Input: the bytes of an STL file. Properties checked beyond the sanitizers (abort on violation):
 *   - a rejected file leaves no mesh and a message that starts with the file's name;
 *   - an accepted mesh has >= 4 triangles, a positive volume, and at the 27 points of its box (corners,
 *     edge and face centres, centre) a finite signed distance d with |d| = |x - q| for the closest point q
 *     it returns, and |d| <= the distance to the first vertex (a point of the surface); and where |d| exceeds
 *     1e-6 of the box diagonal, the sign agrees with an independent parity test: a ray in an oblique
 *     direction against every triangle (Moeller-Trumbore), skipped as inconclusive when the ray passes
 *     within 1e-9 (barycentric) of an edge or is nearly parallel to a triangle.
 * Build and run: bench/fuzz.sh (a clang build with -DNAV_FUZZ=ON). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom.h"
#include "physics/bodies/nav_geom_impl.h"

/* Crossings of the ray x + s r (s > 0) with the triangles, even-odd; -1 when a hit is too close to an edge
 * or the ray too close to parallel for the count to be trusted. */
static int parity(const double *v, const int *tri, int nt, const double x[3]) {
  static const double r[3] = {0.5377, 0.8312, 0.1411};
  int odd = 0;
  for (int t = 0; t < nt; t++) {
    const double *a = v + 3 * tri[3 * t], *b = v + 3 * tri[3 * t + 1], *c = v + 3 * tri[3 * t + 2];
    double e1[3], e2[3], p[3], q[3], s[3];
    for (int d = 0; d < 3; d++)
      e1[d] = b[d] - a[d], e2[d] = c[d] - a[d], s[d] = x[d] - a[d];
    p[0] = r[1] * e2[2] - r[2] * e2[1], p[1] = r[2] * e2[0] - r[0] * e2[2], p[2] = r[0] * e2[1] - r[1] * e2[0];
    const double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    const double scale =
        sqrt((e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) * (e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]));
    if (fabs(det) <= 1e-9 * scale) return -1; /* nearly parallel to the ray */
    const double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
    q[0] = s[1] * e1[2] - s[2] * e1[1], q[1] = s[2] * e1[0] - s[0] * e1[2], q[2] = s[0] * e1[1] - s[1] * e1[0];
    const double w = (r[0] * q[0] + r[1] * q[1] + r[2] * q[2]) / det;
    const double dist = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
    if (u < -1e-9 || w < -1e-9 || u + w > 1 + 1e-9 || dist < 0) continue;
    if (u < 1e-9 || w < 1e-9 || u + w > 1 - 1e-9) return -1;
    odd = !odd;
  }
  return odd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[NAV_GEOM_MSG] = "";
  nav_geom_mesh *m = NULL;
  const nav_err err = nav_geom_mesh_parse(data, size, "fuzz.stl", &m, msg, sizeof msg);
  if (err != NAV_OK) {
    if (m || strncmp(msg, "fuzz.stl", 8) != 0) {
      fprintf(stderr, "rejected input: mesh %p, message '%s'\n", (void *)m, msg);
      abort();
    }
    return 0;
  }
  if (!m || nav_geom_mesh_triangles(m) < 4 || !(nav_geom_mesh_volume(m) > 0)) abort();
  double lo[3], hi[3];
  nav_geom_mesh_bounds(m, lo, hi);
  const double *v = nav_geom_mesh_vertex_xyz(m);
  const int *tri = nav_geom_mesh_triangle_vertices(m);
  for (int k = 0; k < 27; k++) {
    const double x[3] = {lo[0] + 0.5 * (k % 3) * (hi[0] - lo[0]), lo[1] + 0.5 * ((k / 3) % 3) * (hi[1] - lo[1]),
                         lo[2] + 0.5 * (k / 9) * (hi[2] - lo[2])};
    double q[3], n[3];
    const double d = nav_geom_mesh_distance(m, x, q, n);
    const double dq =
        sqrt((x[0] - q[0]) * (x[0] - q[0]) + (x[1] - q[1]) * (x[1] - q[1]) + (x[2] - q[2]) * (x[2] - q[2]));
    const double dv =
        sqrt((x[0] - v[0]) * (x[0] - v[0]) + (x[1] - v[1]) * (x[1] - v[1]) + (x[2] - v[2]) * (x[2] - v[2]));
    const double diag =
        sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
    const int odd = fabs(d) > 1e-6 * diag ? parity(v, tri, nav_geom_mesh_triangles(m), x) : -1;
    if (odd >= 0 && odd != (d < 0)) {
      fprintf(stderr, "sign of the distance %g disagrees with the parity test at (%g, %g, %g)\n", d, x[0], x[1], x[2]);
      abort();
    }
    if (!isfinite(d) || fabs(fabs(d) - dq) > 1e-12 * (1 + dq) || fabs(d) > dv * (1 + 1e-12)) {
      fprintf(stderr, "distance %g at (%g, %g, %g): closest point at %g, first vertex at %g\n", d, x[0], x[1], x[2], dq,
              dv);
      abort();
    }
  }
  nav_geom_mesh_destroy(m);
  return 0;
}
