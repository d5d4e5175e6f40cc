/* Polylines of the geometry module (src/physics/bodies/nav_geom.h) and the rigid placement.
 *
 *   test_geom SCRATCH_DIR SNAKE_CSV SLIVER_CSV
 *
 * 1. Square [-1,1]^2 (given clockwise: stored counter-clockwise): the signed distance at 20 000 random
 *    points of [-3,3]^2 equals the exact one, outside |max(|x| - 1, 0)|, inside -min(1 - |x_i|), within
 *    1e-15; the winding number agrees with the sign; closest points and normals on the sides.
 * 2. Circle of radius 1 as a regular 1000-gon: the distance equals a brute-force minimum over all 1000
 *    segments within 1e-15 (the hierarchy is exact), and r - 1 within the polygon's sagitta 1 - cos(pi/n)
 *    (+1e-15); the normal is radial within pi/n. A 1.6e-9 rad spike (a fuzzer finding): outside above its tip.
 * 3. The snake section of Krishnan et al. (2014): 585 points, implicitly closed, accepted; area 0.2172381692
 *    (numpy shoelace of the same file, an independent computation) within 1e-9 relative; chord (x extent)
 *    0.99986 (shared/reference README, DERIVED) within 1e-9, the published c = 1 within 2e-4; an even-odd
 *    crossing test (PNPOLY, written here) agrees with the sign of the distance at 20 000 random points of
 *    its box (away from the boundary by 1e-9), brute force at 2000 of them within 1e-15; AoA 35 by the
 *    placement reproduces cuIBM's rotation (x' = x cos t - y sin t, y' = x sin t + y cos t, t = -35 deg)
 *    to 1e-15 and its bounds.
 * 4. Every bad input gives its message, naming FILE:LINE where a line is at fault.
 * 5. Placement: apply and inverse are inverse, the order R = Rz Ry Rx, 2D AoA nose up, a placed body's
 *    distance and bounds (a scaled, turned, shifted square).
 * 6. Samples (markers) of a square, a placed square and the snake: sum w = perimeter, sum w n = 0 and
 *    sum w x.n = 2 area (exact for the midpoint rule) to round-off, gaps at most h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_geom_common.h"

/* Write text into SCRATCH/name, read it; expect a failure whose message holds want (with the path). */
static void expect_bad(const char *name, const char *text, size_t len, const char *want) {
  char path[512], full[700];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  write_file(path, text, len);
  nav_geom_poly *p = NULL;
  const nav_err err = nav_geom_poly_read(path, &p, msg, sizeof msg);
  snprintf(full, sizeof full, "%s%s", path, want);
  CHECK(err == NAV_ERR_INPUT && !p && strstr(msg, full), "%s: want '%s', got (%d) '%s'", name, full, (int)err, msg);
  printf("  %-16s -> %s\n", name, msg);
  nav_geom_poly_destroy(p);
}

static double brute(const double *xy, int n, const double x[2]) {
  double best = HUGE_VAL;
  for (int i = 0; i < n; i++) {
    const double *a = xy + 2 * i, *b = xy + 2 * ((i + 1) % n);
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    double t = ((x[0] - a[0]) * dx + (x[1] - a[1]) * dy) / (dx * dx + dy * dy);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    best = fmin(best, hypot(x[0] - a[0] - t * dx, x[1] - a[1] - t * dy));
  }
  return best;
}

/* Even-odd crossing test (PNPOLY, W. R. Franklin): 1 inside, independent of the module's winding number. */
static int pnpoly(const double *xy, int n, const double x[2]) {
  int odd = 0;
  for (int i = 0, j = n - 1; i < n; j = i++) {
    const double *a = xy + 2 * i, *b = xy + 2 * j;
    if ((a[1] > x[1]) != (b[1] > x[1]) && x[0] < (b[0] - a[0]) * (x[1] - a[1]) / (b[1] - a[1]) + a[0]) odd = !odd;
  }
  return odd;
}

/* A spike of 1.6e-9 rad (a fuzzer finding, tests/fuzz/regressions/geom_points/crash-sliver-pseudonormal-sign:
 * a snake file whose point (-9415240, 0.217636) was made by the fuzzer): just above the tip the distances to
 * the spike's two sides tie to round-off, and the pseudonormal of the side found first said "inside". The
 * point is outside (the even-odd test agrees) at the distance of the tip. */
static void test_sliver(const char *path) {
  nav_geom_poly *p;
  CHECK(nav_geom_poly_read(path, &p, msg, sizeof msg) == NAV_OK, "sliver: %s", msg);
  if (!p) return;
  double lo[2], hi[2];
  nav_geom_poly_bounds(p, lo, hi);
  const double x[2] = {lo[0], lo[1] + 0.5 * (hi[1] - lo[1])}; /* as the fuzz target makes it */
  const double d = nav_geom_poly_distance(p, x, NULL, NULL);
  const int odd = pnpoly(nav_geom_poly_points(p), nav_geom_poly_count(p), x);
  printf("sliver spike: d = %.6g at (%.9g, %.9g) above its tip; even-odd test: %s\n", d, x[0], x[1],
         odd ? "inside" : "outside");
  CHECK(fabs(d - (x[1] - lo[1])) < 1e-12 && !odd, "sliver: d = %.17g", d);
  nav_geom_poly_destroy(p);
}

static void test_square(void) {
  const double cw[8] = {-1, -1, -1, 1, 1, 1, 1, -1};
  nav_geom_poly *p;
  CHECK(nav_geom_poly_create(cw, 4, "square", &p, msg, sizeof msg) == NAV_OK, "square: %s", msg);
  if (!p) return;
  const double *v = nav_geom_poly_points(p);
  double a2 = 0;
  for (int i = 0; i < 4; i++)
    a2 += v[2 * i] * v[2 * ((i + 1) % 4) + 1] - v[2 * ((i + 1) % 4)] * v[2 * i + 1];
  CHECK(a2 > 0 && fabs(nav_geom_poly_area(p) - 4) < 1e-15, "square: area %g, orientation %g", nav_geom_poly_area(p),
        a2);
  double emax = 0;
  int wrong = 0;
  for (int k = 0; k < 20000; k++) {
    const double x[2] = {urand(-3, 3), urand(-3, 3)};
    const double ox = fmax(fabs(x[0]) - 1, 0), oy = fmax(fabs(x[1]) - 1, 0);
    const double exact = (ox > 0 || oy > 0) ? hypot(ox, oy) : -fmin(1 - fabs(x[0]), 1 - fabs(x[1]));
    const double d = nav_geom_poly_distance(p, x, NULL, NULL);
    emax = fmax(emax, fabs(d - exact));
    wrong += (nav_geom_poly_winding(p, x) == 1) != (exact < 0);
  }
  printf("square: max |d - exact| = %.3g over 20000 points, %d winding mismatches\n", emax, wrong);
  CHECK(emax <= 1e-15 && wrong == 0, "square: error %g, %d mismatches", emax, wrong);
  double cp[2], n[2];
  const double x1[2] = {2, 0.5}, x2[2] = {0.25, -0.75}, x3[2] = {2, 3};
  double d = nav_geom_poly_distance(p, x1, cp, n);
  CHECK(d == 1 && cp[0] == 1 && cp[1] == 0.5 && n[0] == 1 && n[1] == 0, "square: side x = 1: d %g cp (%g,%g) n (%g,%g)",
        d, cp[0], cp[1], n[0], n[1]);
  d = nav_geom_poly_distance(p, x2, cp, n);
  CHECK(d == -0.25 && cp[0] == 0.25 && cp[1] == -1 && n[0] == 0 && n[1] == -1, "square: inside near y = -1: %g", d);
  d = nav_geom_poly_distance(p, x3, cp, n);
  CHECK(fabs(d - sqrt(5)) < 1e-15 && cp[0] == 1 && cp[1] == 1 && fabs(n[0] - sqrt(0.5)) < 1e-15,
        "square: corner: %g (%g,%g) n (%g,%g)", d, cp[0], cp[1], n[0], n[1]);
  nav_geom_poly_destroy(p);
}

static void test_circle(void) {
  enum { N = 1000 };
  static double xy[2 * N];
  for (int i = 0; i < N; i++)
    xy[2 * i] = cos(2 * NAV_PI * i / N), xy[2 * i + 1] = sin(2 * NAV_PI * i / N);
  nav_geom_poly *p;
  CHECK(nav_geom_poly_create(xy, N, "circle", &p, msg, sizeof msg) == NAV_OK, "circle: %s", msg);
  if (!p) return;
  const double sag = 1 - cos(NAV_PI / N);
  double ebrute = 0, ecircle = 0, enormal = 0;
  int wrong = 0;
  for (int k = 0; k < 20000; k++) {
    const double x[2] = {urand(-2.5, 2.5), urand(-2.5, 2.5)};
    double n[2], cp[2];
    const double d = nav_geom_poly_distance(p, x, cp, n), r = hypot(x[0], x[1]);
    ebrute = fmax(ebrute, fabs(fabs(d) - brute(xy, N, x)));
    ecircle = fmax(ecircle, fabs(d - (r - 1)));
    enormal = fmax(enormal, acos(fmin(1, (n[0] * cp[0] + n[1] * cp[1]) / hypot(cp[0], cp[1]))));
    if (fabs(r - 1) > sag) wrong += (nav_geom_poly_winding(p, x) == 1) != (r < 1);
  }
  printf("circle (1000-gon): max |d - brute force| = %.3g, max |d - (r - 1)| = %.3g (sagitta %.3g), "
         "max normal angle %.3g (pi/n %.3g), %d inside mismatches\n",
         ebrute, ecircle, sag, enormal, NAV_PI / N, wrong);
  CHECK(ebrute <= 1e-15, "circle: hierarchy vs brute force %g", ebrute);
  CHECK(ecircle <= sag + 1e-15, "circle: %g > sagitta %g", ecircle, sag);
  CHECK(enormal <= NAV_PI / N + 1e-12, "circle: normal angle %g", enormal);
  CHECK(wrong == 0, "circle: %d inside mismatches", wrong);
  nav_geom_poly_destroy(p);
}

static void test_snake(const char *path) {
  nav_geom_poly *p;
  CHECK(nav_geom_poly_read(path, &p, msg, sizeof msg) == NAV_OK, "snake: %s", msg);
  if (!p) return;
  double lo[2], hi[2];
  nav_geom_poly_bounds(p, lo, hi);
  const int n = nav_geom_poly_count(p);
  const double area = nav_geom_poly_area(p), chord = hi[0] - lo[0];
  printf("snake: %d points, area %.10f, chord %.6f, y in [%.6f, %.6f]\n", n, area, chord, lo[1], hi[1]);
  CHECK(n == 585, "snake: %d points", n);
  CHECK(fabs(area / 0.2172381691795 - 1) < 1e-9, "snake: area %.13g", area);
  CHECK(fabs(chord - 0.99986) < 1e-9, "snake: chord %.9g", chord);
  CHECK(fabs(chord - 1) < 2e-4, "snake: chord %.9g is not the published c = 1 (Krishnan et al. 2014)", chord);
  int wrong = 0, inside = 0;
  double ebrute = 0;
  const double *xy = nav_geom_poly_points(p);
  for (int k = 0; k < 20000; k++) {
    const double x[2] = {urand(lo[0] - 0.1, hi[0] + 0.1), urand(lo[1] - 0.1, hi[1] + 0.1)};
    const double d = nav_geom_poly_distance(p, x, NULL, NULL);
    if (k < 2000) ebrute = fmax(ebrute, fabs(fabs(d) - brute(xy, n, x)));
    if (fabs(d) < 1e-9) continue;
    inside += d < 0;
    wrong += pnpoly(xy, n, x) != (d < 0);
  }
  printf("snake: %d of 20000 random points inside; sign vs an even-odd crossing test: %d mismatches; "
         "max |d - brute force| = %.3g\n",
         inside, wrong, ebrute);
  CHECK(wrong == 0 && inside > 1000, "snake: %d mismatches, %d inside", wrong, inside);
  CHECK(ebrute <= 1e-15, "snake: hierarchy vs brute force %g", ebrute);
  /* AoA 35 about (0, 0), as cuIBM: angleOfAttack = -35 rotates counter-clockwise by -35 degrees */
  nav_geom_body b = {.poly = p};
  CHECK(nav_geom_xform_2d(&b.xf, 1, 35, NULL, NULL, msg, sizeof msg) == NAV_OK, "snake xform: %s", msg);
  const double t = -35 * NAV_PI / 180;
  double elo[2] = {HUGE_VAL, HUGE_VAL}, ehi[2] = {-HUGE_VAL, -HUGE_VAL}, erot = 0, blo[3], bhi[3];
  for (int i = 0; i < n; i++) {
    const double x[3] = {xy[2 * i], xy[2 * i + 1], 0};
    const double c[2] = {x[0] * cos(t) - x[1] * sin(t), x[0] * sin(t) + x[1] * cos(t)};
    double X[3];
    nav_geom_xform_apply(&b.xf, x, X);
    erot = fmax(erot, hypot(X[0] - c[0], X[1] - c[1]));
    for (int d = 0; d < 2; d++)
      elo[d] = fmin(elo[d], c[d]), ehi[d] = fmax(ehi[d], c[d]);
  }
  nav_geom_body_bounds(&b, blo, bhi);
  printf("snake at AoA 35: max |X - cuIBM rotation| = %.3g; bounds x [%.6f, %.6f], y [%.6f, %.6f]\n", erot, blo[0],
         bhi[0], blo[1], bhi[1]);
  CHECK(erot < 1e-15, "snake AoA: %g", erot);
  CHECK(fabs(blo[0] - elo[0]) < 1e-15 && fabs(bhi[0] - ehi[0]) < 1e-15 && fabs(blo[1] - elo[1]) < 1e-15 &&
            fabs(bhi[1] - ehi[1]) < 1e-15 && blo[2] == -HUGE_VAL && bhi[2] == HUGE_VAL,
        "snake AoA bounds");
  nav_geom_poly_destroy(p);
}

static void test_bad_input(void) {
  char path[512];
  nav_geom_poly *p = NULL;
  snprintf(path, sizeof path, "%s/no_such_file.csv", scratch);
  remove(path);
  nav_err err = nav_geom_poly_read(path, &p, msg, sizeof msg);
  CHECK(err == NAV_ERR_IO && strstr(msg, "no_such_file.csv: cannot read"), "missing: %s", msg);
  printf("  %-16s -> %s\n", "missing", msg);
  err = nav_geom_poly_read(scratch, &p, msg, sizeof msg);
  CHECK(err == NAV_ERR_IO && strstr(msg, "cannot read"), "directory: %s", msg);
  printf("  %-16s -> %s\n", "directory", msg);
#define BAD(name, text, want) expect_bad(name, text, sizeof text - 1, want)
  BAD("empty.csv", "", ": 0 points");
  BAD("header_only.csv", "# comment\nx,y\n\n", ": 0 points");
  BAD("bad_number.csv", "x,y\n0,0\n1,zz\n0,1\n", ":3: bad number 'zz'");
  BAD("run_on.csv", "0,0\n0.98480.866025\n0,1\n", ":2: bad number '0.98480.866025'");
  BAD("header_late.csv", "0,0\nx,y\n", ":2: bad number 'x'");
  BAD("one_number.csv", "0,0\n1\n0,1\n", ":2: one number");
  BAD("extra.csv", "0 0\n1 0 0\n0 1\n", ":2: extra text '0'");
  BAD("nan.csv", "0,0\n1,nan\n0,1\n", ":2: (1, nan) is not a finite point");
  BAD("nul.csv", "0,0\n1,0\0\n0,1\n", ":2: a NUL byte");
  BAD("two_points.csv", "0,0\n1,0\n", ": 2 points");
  BAD("closed_two.csv", "0,0\n1,0\n0,0\n", ": 2 distinct points");
  BAD("two_distinct.csv", "0,0\n1,0\n0,0\n1,0\n", ": 2 distinct points");
  BAD("closed_twice.csv", "0,0\n1,0\n0,1\n0,0\n0,0\n",
      ":4: zero-length segment: the first point (line 1) is repeated more than once at the end");
  BAD("zero_length.csv", "0,0\n1,0\n1,0\n0,1\n", ":3: zero-length segment");
  BAD("bowtie.csv", "0,0\n1,1\n1,0\n0,1\n",
      ":1: self-intersecting polyline: the segment from line 1 to line 2 crosses");
  BAD("crossing.csv", "# a square whose last two corners are swapped\n0 0\n1 0\n0 1\n1 1\n",
      ":3: self-intersecting polyline: the segment from line 3 to line 4 crosses the segment from line 5 to line 2");
  BAD("touching.csv", "0,0\n2,0\n2,2\n1,0\n0,2\n",
      ":1: self-intersecting polyline: the segment from line 1 to line 2 touches");
  BAD("fold_back.csv", "0,0\n2,0\n1,0\n",
      ":1: self-intersecting polyline: the segment from line 1 to line 2 folds back");
  BAD("zero_area.csv", "0,0\n1,0\n0.5,1e-13\n", ": zero area");
  /* half of a circle without its diameter: the implicit closing segment is 2, the arc's segments 0.17 */
  char arc[2048];
  size_t len = 0;
  for (int i = 0; i <= 18; i++)
    len += (size_t)snprintf(arc + len, sizeof arc - len, "%.6f,%.6f\n", cos(NAV_PI * i / 18), sin(NAV_PI * i / 18));
  expect_bad("open.csv", arc, len, ":19: open polyline");
  /* the same closed explicitly: accepted */
  len += (size_t)snprintf(arc + len, sizeof arc - len, "1,0\n");
  snprintf(path, sizeof path, "%s/half_disc.csv", scratch);
  write_file(path, arc, len);
  err = nav_geom_poly_read(path, &p, msg, sizeof msg);
  CHECK(err == NAV_OK && nav_geom_poly_count(p) == 19, "explicitly closed half disc: %s", err ? msg : "");
  nav_geom_poly_destroy(p);
  /* a UTF-8 byte-order mark before the first point: the point is kept (not taken for a header) */
  const char bom[] = "\xEF\xBB\xBF"
                     "0,0\n1,0\n1,1\n0,1\n";
  snprintf(path, sizeof path, "%s/bom.csv", scratch);
  write_file(path, bom, sizeof bom - 1);
  err = nav_geom_poly_read(path, &p, msg, sizeof msg);
  CHECK(err == NAV_OK && nav_geom_poly_count(p) == 4 && nav_geom_poly_area(p) == 1, "BOM: %s", err ? msg : "");
  nav_geom_poly_destroy(p);
  /* formats: blanks, tabs, commas with blanks, comments, CRLF, an explicit repeat of the first point */
  const char ok[] = "# square\r\nx y\r\n0\t0\r\n1 , 0 # corner\r\n\r\n1,1\r\n   0 1\r\n0,0\r\n";
  snprintf(path, sizeof path, "%s/formats.csv", scratch);
  write_file(path, ok, sizeof ok - 1);
  err = nav_geom_poly_read(path, &p, msg, sizeof msg);
  CHECK(err == NAV_OK && nav_geom_poly_count(p) == 4 && nav_geom_poly_area(p) == 1, "formats: %s", err ? msg : "");
  nav_geom_poly_destroy(p);
}

static void test_xform(void) {
  nav_geom_xform xf;
  nav_geom_xform_identity(&xf);
  xf.scale = 0.7, xf.angle[0] = 20, xf.angle[1] = -35, xf.angle[2] = 110;
  xf.centre[0] = 0.3, xf.centre[1] = -0.2, xf.centre[2] = 1, xf.shift[0] = 2, xf.shift[1] = 3, xf.shift[2] = -1;
  CHECK(nav_geom_xform_update(&xf, msg, sizeof msg) == NAV_OK, "xform: %s", msg);
  double e = 0;
  for (int k = 0; k < 100; k++) {
    const double x[3] = {urand(-2, 2), urand(-2, 2), urand(-2, 2)};
    double X[3], y[3];
    nav_geom_xform_apply(&xf, x, X);
    nav_geom_xform_inverse(&xf, X, y);
    for (int d = 0; d < 3; d++)
      e = fmax(e, fabs(y[d] - x[d]));
  }
  CHECK(e < 1e-14, "xform: inverse error %g", e);
  /* order: x first, then y: angles (90, 90, 0) take e_y to e_z (about x), then to e_x (about y) */
  nav_geom_xform_identity(&xf);
  xf.angle[0] = 90, xf.angle[1] = 90;
  nav_geom_xform_update(&xf, msg, sizeof msg);
  const double ey[3] = {0, 1, 0};
  double r[3];
  nav_geom_xform_apply(&xf, ey, r);
  CHECK(fabs(r[0] - 1) < 1e-15 && fabs(r[1]) < 1e-15 && fabs(r[2]) < 1e-15, "order: e_y -> (%g, %g, %g)", r[0], r[1],
        r[2]);
  /* 2D AoA 30 about (0.25, 0): the leading edge (-0.5, 0) goes up */
  const double c2[2] = {0.25, 0};
  nav_geom_xform_2d(&xf, 1, 30, c2, NULL, msg, sizeof msg);
  const double le[3] = {-0.5, 0, 0};
  nav_geom_xform_apply(&xf, le, r);
  CHECK(fabs(r[0] - (0.25 - 0.75 * cos(NAV_PI / 6))) < 1e-15 && fabs(r[1] - 0.75 * sin(NAV_PI / 6)) < 1e-15,
        "AoA: leading edge at (%g, %g)", r[0], r[1]);
  CHECK(nav_geom_xform_2d(&xf, 0, 0, NULL, NULL, msg, sizeof msg) == NAV_ERR_INPUT && strstr(msg, "scale"),
        "scale 0 accepted");
  /* a placed square: [-1,1]^2 scaled by 0.5, turned 45 degrees about (0,0), shifted by (3, 1) */
  const double sq[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
  nav_geom_poly *p;
  nav_geom_poly_create(sq, 4, "square", &p, msg, sizeof msg);
  nav_geom_body b = {.poly = p};
  const double sh[2] = {3, 1};
  nav_geom_xform_2d(&b.xf, 0.5, -45, NULL, sh, msg, sizeof msg);
  CHECK(nav_geom_body_check(&b, msg, sizeof msg) == NAV_OK, "body check: %s", msg);
  double lo[3], hi[3], cp[3], n[3];
  nav_geom_body_bounds(&b, lo, hi);
  const double s2 = sqrt(0.5);
  CHECK(fabs(lo[0] - (3 - s2)) < 1e-15 && fabs(hi[0] - (3 + s2)) < 1e-15 && fabs(lo[1] - (1 - s2)) < 1e-15 &&
            fabs(hi[1] - (1 + s2)) < 1e-15,
        "placed bounds [%g, %g] x [%g, %g]", lo[0], hi[0], lo[1], hi[1]);
  const double X[3] = {3 + 2, 1, 7}; /* on the diagonal beyond the corner (3 + sqrt(1/2), 1) */
  const double d = nav_geom_body_distance(&b, X, cp, n);
  CHECK(fabs(d - (2 - s2)) < 1e-14 && fabs(cp[0] - (3 + s2)) < 1e-14 && fabs(cp[1] - 1) < 1e-14 && cp[2] == 7 &&
            fabs(n[0] - 1) < 1e-14 && fabs(n[1]) < 1e-14,
        "placed distance %g, cp (%g, %g, %g), n (%g, %g)", d, cp[0], cp[1], cp[2], n[0], n[1]);
  const double Xin[3] = {3.1, 1.1, 0};
  CHECK(nav_geom_body_inside(&b, Xin) && nav_geom_body_distance(&b, Xin, NULL, NULL) < 0, "placed inside");
  b.xf.angle[0] = 10;
  CHECK(nav_geom_body_check(&b, msg, sizeof msg) == NAV_ERR_INPUT, "a tilted prism accepted");
  nav_geom_poly_destroy(p);
}

/* Samples (nav_geom_poly_sample, nav_geom_body_sample): the midpoint rule integrates linear functions along
 * each segment exactly, so sum w = perimeter, sum w n = 0, sum w x.n = 2 area (divergence theorem), to
 * round-off; neighbouring samples at most h apart. */
static void check_samples(const char *what, int n, const double *x, const double *nrm, const double *w, int stride,
                          double h, double perimeter, double area) {
  double sw = 0, sn[2] = {0, 0}, sxn = 0, gap = 0;
  for (int i = 0; i < n; i++) {
    const double *a = x + stride * i, *b = x + stride * ((i + 1) % n);
    sw += w[i], sn[0] += w[i] * nrm[stride * i], sn[1] += w[i] * nrm[stride * i + 1];
    sxn += w[i] * (a[0] * nrm[stride * i] + a[1] * nrm[stride * i + 1]);
    gap = fmax(gap, hypot(b[0] - a[0], b[1] - a[1]));
  }
  printf("%s: %d samples (h %g): sum w = %.15g (perimeter %.15g), |sum w n| = %.2g, sum w x.n = %.15g "
         "(2 area %.15g), largest gap %.4g\n",
         what, n, h, sw, perimeter, hypot(sn[0], sn[1]), sxn, 2 * area, gap);
  CHECK(fabs(sw - perimeter) < 1e-13 * perimeter && hypot(sn[0], sn[1]) < 1e-14 * perimeter &&
            fabs(sxn - 2 * area) < 1e-12 * fmax(1, area) && gap <= h * (1 + 1e-12),
        "%s samples", what);
}

static void test_samples(const char *snake) {
  const double sq[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
  nav_geom_poly *p;
  int n;
  double *x, *nrm, *w;
  nav_geom_poly_create(sq, 4, "square", &p, msg, sizeof msg);
  CHECK(nav_geom_poly_sample(p, 0.3, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_OK && n == 28, "square: %d", n);
  check_samples("square samples", n, x, nrm, w, 2, 0.3, 8, 4);
  free(x), free(nrm), free(w);
  CHECK(nav_geom_poly_sample(p, 0, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_ERR_INPUT, "h = 0 accepted");
  nav_geom_body b = {.poly = p};
  const double sh[2] = {3, 1};
  nav_geom_xform_2d(&b.xf, 0.5, 30, NULL, sh, msg, sizeof msg);
  CHECK(nav_geom_body_sample(&b, 0.1, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_OK, "body samples: %s", msg);
  check_samples("placed square samples (scale 0.5, AoA 30, shift)", n, x, nrm, w, 3, 0.1, 4, 1);
  free(x), free(nrm), free(w);
  nav_geom_poly_destroy(p);
  CHECK(nav_geom_poly_read(snake, &p, msg, sizeof msg) == NAV_OK, "snake: %s", msg);
  if (!p) return;
  const double *v = nav_geom_poly_points(p);
  double perimeter = 0;
  for (int i = 0; i < nav_geom_poly_count(p); i++) {
    const int k = (i + 1) % nav_geom_poly_count(p);
    perimeter += hypot(v[2 * k] - v[2 * i], v[2 * k + 1] - v[2 * i + 1]);
  }
  CHECK(nav_geom_poly_sample(p, 0.002, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_OK, "snake samples: %s", msg);
  check_samples("snake samples", n, x, nrm, w, 2, 0.002, perimeter, nav_geom_poly_area(p));
  free(x), free(nrm), free(w);
  nav_geom_poly_destroy(p);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    printf("usage: test_geom SCRATCH_DIR SNAKE_CSV SLIVER_CSV\n");
    return 2;
  }
  scratch = argv[1];
  srand(12345);
  test_square();
  test_circle();
  test_sliver(argv[3]);
  test_snake(argv[2]);
  printf("bad input:\n");
  test_bad_input();
  test_xform();
  test_samples(argv[2]);
  printf("%d checks, %d failures\n", checks, failures);
  return failures != 0;
}
