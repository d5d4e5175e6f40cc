/* libFuzzer target: the polyline reader of `points` bodies (nav_geom_poly_parse, src/physics/bodies/nav_geom.h).
 *
 * Input: the bytes of a points file. Properties checked beyond the sanitizers (abort on violation):
 *   - a rejected file leaves no polygon and a message that starts with the file's name;
 *   - an accepted polygon has >= 3 points, a positive area, and at the 9 points of its box (corners, edge
 *     centres, centre) and near its first 8 vertices the signed distance is finite, its size equals the
 *     brute-force minimum over all segments (to 1e-12 relative plus 1e-14 of the box size: the foot point on
 *     a long segment is rounded to its length), and its sign agrees with an independent
 *     even-odd crossing test (PNPOLY) wherever |d| exceeds 1e-9 of the box size.
 * Build and run: bench/fuzz.sh (a clang build with -DNAV_FUZZ=ON). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom.h"

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
  const int n = nav_geom_poly_count(p);
  for (int k = 0; k < 9 + 2 * (n < 8 ? n : 8); k++) {
    double x[2];
    if (k < 9) {
      x[0] = lo[0] + 0.5 * (k % 3) * (hi[0] - lo[0]), x[1] = lo[1] + 0.5 * (k / 3) * (hi[1] - lo[1]);
    } else { /* just off a vertex, on both sides */
      const int v = (k - 9) / 2;
      x[0] = xy[2 * v] + ((k & 1) ? 1e-3 : -1e-3) * span, x[1] = xy[2 * v + 1] + 7e-4 * span;
    }
    const double d = nav_geom_poly_distance(p, x, NULL, NULL);
    double best = HUGE_VAL;
    int odd = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
      const double *a = xy + 2 * i, *b = xy + 2 * j, ex = b[0] - a[0], ey = b[1] - a[1];
      double t = ((x[0] - a[0]) * ex + (x[1] - a[1]) * ey) / (ex * ex + ey * ey);
      t = t < 0 ? 0 : (t > 1 ? 1 : t);
      best = fmin(best, hypot(x[0] - a[0] - t * ex, x[1] - a[1] - t * ey));
      if ((a[1] > x[1]) != (b[1] > x[1]) && x[0] < ex * (x[1] - a[1]) / ey + a[0]) odd = !odd;
    }
    /* both sides round the foot point on a segment to about 1e-16 of the segment's length */
    if (!isfinite(d) || fabs(fabs(d) - best) > 1e-12 * best + 1e-14 * span) {
      fprintf(stderr, "distance %.17g at (%g, %g), brute force %.17g\n", d, x[0], x[1], best);
      abort();
    }
    if (fabs(d) > 1e-9 * span && (d < 0) != odd) {
      fprintf(stderr, "sign of the distance %g disagrees with the crossing test at (%g, %g)\n", d, x[0], x[1]);
      abort();
    }
  }
  nav_geom_poly_destroy(p);
  return 0;
}
