/* libFuzzer target: the polyline reader of `points` bodies (nav_geom_poly_parse, src/physics/nav_geom.h).
 *
 * Input: the bytes of a points file. Properties checked beyond the sanitizers (abort on violation):
 *   - a rejected file leaves no polygon and a message that starts with the file's name;
 *   - an accepted polygon has >= 3 points, a positive area, and at its box corners, its centre and its
 *     vertices' neighbourhood the signed distance is finite and its sign agrees with the winding number
 *     wherever |d| exceeds 1e-9 of the box size.
 * Build and run: bench/fuzz.sh (a clang build with -DNAV_FUZZ=ON). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/nav_geom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[NAV_GEOM_MSG] = "";
  nav_geom_poly *p = NULL;
  const nav_err err = nav_geom_poly_parse((const char *)data, size, "fuzz.csv", &p, msg, sizeof msg);
  if (err != NAV_OK) {
    if (p || strncmp(msg, "fuzz.csv", 8) != 0) {
      fprintf(stderr, "rejected input: polygon %p, message '%s'\n", (void *)p, msg);
      abort();
    }
    return 0;
  }
  if (!p || nav_geom_poly_count(p) < 3 || !(nav_geom_poly_area(p) > 0)) abort();
  double lo[2], hi[2];
  nav_geom_poly_bounds(p, lo, hi);
  const double span = fmax(hi[0] - lo[0], hi[1] - lo[1]);
  const double *xy = nav_geom_poly_points(p);
  for (int k = 0; k < 9 + 2 * (nav_geom_poly_count(p) < 8 ? nav_geom_poly_count(p) : 8); k++) {
    double x[2];
    if (k < 9) {
      x[0] = lo[0] + 0.5 * (k % 3) * (hi[0] - lo[0]), x[1] = lo[1] + 0.5 * (k / 3) * (hi[1] - lo[1]);
    } else { /* just off a vertex, on both sides */
      const int v = (k - 9) / 2;
      x[0] = xy[2 * v] + ((k & 1) ? 1e-3 : -1e-3) * span, x[1] = xy[2 * v + 1] + 7e-4 * span;
    }
    const double d = nav_geom_poly_distance(p, x, NULL, NULL);
    if (!isfinite(d)) abort();
    if (fabs(d) > 1e-9 * span && (d < 0) != (nav_geom_poly_winding(p, x) != 0)) {
      fprintf(stderr, "sign of the distance %g disagrees with the winding number at (%g, %g)\n", d, x[0], x[1]);
      abort();
    }
  }
  nav_geom_poly_destroy(p);
  return 0;
}
