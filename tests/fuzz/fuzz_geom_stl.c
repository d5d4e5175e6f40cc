/* libFuzzer target: the STL reader of `stl` bodies (nav_geom_mesh_parse, src/physics/nav_geom.h), ASCII and
 * binary.
 *
 * Input: the bytes of an STL file. Properties checked beyond the sanitizers (abort on violation):
 *   - a rejected file leaves no mesh and a message that starts with the file's name;
 *   - an accepted mesh has >= 4 triangles, a positive volume, and at the 27 points of its box (corners,
 *     edge and face centres, centre) a finite signed distance d with |d| = |x - q| for the closest point q
 *     it returns, and |d| <= the distance to the first vertex (a point of the surface). The sign is not
 *     checked: a fuzzed surface may intersect itself, which the reader does not reject.
 * Build and run: bench/fuzz.sh (a clang build with -DNAV_FUZZ=ON). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/nav_geom.h"
#include "physics/nav_geom_impl.h"

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
  for (int k = 0; k < 27; k++) {
    const double x[3] = {lo[0] + 0.5 * (k % 3) * (hi[0] - lo[0]), lo[1] + 0.5 * ((k / 3) % 3) * (hi[1] - lo[1]),
                         lo[2] + 0.5 * (k / 9) * (hi[2] - lo[2])};
    double q[3], n[3];
    const double d = nav_geom_mesh_distance(m, x, q, n);
    const double dq =
        sqrt((x[0] - q[0]) * (x[0] - q[0]) + (x[1] - q[1]) * (x[1] - q[1]) + (x[2] - q[2]) * (x[2] - q[2]));
    const double dv =
        sqrt((x[0] - v[0]) * (x[0] - v[0]) + (x[1] - v[1]) * (x[1] - v[1]) + (x[2] - v[2]) * (x[2] - v[2]));
    if (!isfinite(d) || fabs(fabs(d) - dq) > 1e-12 * (1 + dq) || fabs(d) > dv * (1 + 1e-12)) {
      fprintf(stderr, "distance %g at (%g, %g, %g): closest point at %g, first vertex at %g\n", d, x[0], x[1], x[2], dq,
              dv);
      abort();
    }
  }
  nav_geom_mesh_destroy(m);
  return 0;
}
