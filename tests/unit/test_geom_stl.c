/* Triangulated surfaces of the geometry module (src/physics/bodies/nav_geom.h): STL reading and signed distance.
 *
 *   test_geom_stl SCRATCH_DIR [SPHERE_STL]
 *
 * 1. Cube [-1,1]^3 written as ASCII and as binary STL (and once with every triangle turned inward):
 *    20 000 random points of [-3,3]^3: the signed distance equals the exact one (outside |max(|x|-1, 0)|,
 *    inside -min(1 - |x_i|)) within 1e-14, including points whose closest feature is an edge or a corner
 *    (the pseudonormal sign); volume 8; the inside test (winding number of a ray along +x) agrees with the
 *    exact one, also for rays through the projected edges and corners of the triangles.
 * 2. Icosphere of radius 1 (level 4: 5120 triangles, 2562 vertices after welding), binary with a header
 *    that starts with "solid", and level 2 as ASCII: the polyhedron P lies between the ball of its
 *    inscribed radius r_in (computed from the triangles) and the unit ball, so its signed distance obeys
 *    r - 1 <= d <= r - r_in exactly (monotonicity of the signed distance under inclusion); checked at
 *    20 000 random points within 1e-7 (float32 coordinates); the inside test agrees with r < 1 wherever
 *    |r - 1| > 1 - r_in; 400 (level 4, float32: within 1e-7) and 1000 (level 3 in memory: within 1e-14)
 *    points against a brute-force minimum over all triangles; rays through each vertex of the level-3
 *    sphere have winding number 0 from outside and 1 from inside.
 * 3. Placement: the sphere scaled by 0.5, turned, shifted: d = 0.5 d_file, within the same bound; the
 *    bounds of a turned cube.
 * 4. Bad files: missing, open (a triangle removed), degenerate (coincident or collinear corners),
 *    inconsistent orientation, an edge of 4 triangles, zero volume, self-intersecting (two overlapping
 *    cubes, with crossing faces and with faces in common planes), a stray coordinate (the welding cells
 *    swallow the sphere), truncated binary and ASCII, short,
 *    bad number (FILE:LINE), non-finite binary coordinate: each gives its message.
 * 5. Samples (markers) of a cube and of a placed icosphere: sum w = area, sum w n = 0, sum w x.n = 3 volume
 *    (exact for the centroid rule) to round-off.
 * 6. data/sphere_d1.stl (when given): a closed sphere of diameter 1 with the vertex count the README
 *    states (642) and radius 0.5 within its inscribed-radius bound. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_geom_common.h"

/* ---- shapes ----------------------------------------------------------------------------------------- */

static const int cube_tri[12][3] = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                                    {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};

static void cube(double *xyz) { /* 12 triangles, outward */
  for (int t = 0; t < 12; t++)
    for (int k = 0; k < 3; k++) {
      const int v = cube_tri[t][k];
      xyz[9 * t + 3 * k] = v & 1 ? 1 : -1, xyz[9 * t + 3 * k + 1] = v & 2 ? 1 : -1;
      xyz[9 * t + 3 * k + 2] = v & 4 ? 1 : -1;
    }
}

static double cube_exact(const double *x) {
  double o2 = 0, in = HUGE_VAL;
  for (int d = 0; d < 3; d++) {
    const double o = fmax(fabs(x[d]) - 1, 0);
    o2 += o * o, in = fmin(in, 1 - fabs(x[d]));
  }
  return o2 > 0 ? sqrt(o2) : -in;
}

static void unit3(double *a) {
  const double s = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  a[0] /= s, a[1] /= s, a[2] /= s;
}

/* Triangles of a sphere of radius 1: the icosahedron, each triangle split in 4 level times with the
 * new corners pushed onto the sphere (shared corners come out bitwise equal: (a+b)/2 is symmetric). */
static void ico_split(const double *a, const double *b, const double *c, int level, double **out) {
  if (level == 0) {
    memcpy(*out, a, 3 * sizeof(double)), memcpy(*out + 3, b, 3 * sizeof(double));
    memcpy(*out + 6, c, 3 * sizeof(double));
    *out += 9;
    return;
  }
  double ab[3], bc[3], ca[3];
  for (int d = 0; d < 3; d++)
    ab[d] = 0.5 * (a[d] + b[d]), bc[d] = 0.5 * (b[d] + c[d]), ca[d] = 0.5 * (c[d] + a[d]);
  unit3(ab), unit3(bc), unit3(ca);
  ico_split(a, ab, ca, level - 1, out);
  ico_split(ab, b, bc, level - 1, out);
  ico_split(ca, bc, c, level - 1, out);
  ico_split(ab, bc, ca, level - 1, out);
}

static double *icosphere(int level, int *nt) {
  const double t = (1 + sqrt(5)) / 2;
  double v[12][3] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                     {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  static const int f[20][3] = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                               {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                               {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int i = 0; i < 12; i++)
    unit3(v[i]);
  *nt = 20 << (2 * level);
  double *xyz = malloc((size_t)*nt * 9 * sizeof *xyz), *p = xyz;
  for (int i = 0; i < 20; i++)
    ico_split(v[f[i][0]], v[f[i][1]], v[f[i][2]], level, &p);
  return xyz;
}

/* ---- STL writers ------------------------------------------------------------------------------------ */

static void path_of(char *path, size_t n, const char *name) { snprintf(path, n, "%s/%s", scratch, name); }

static void write_ascii(const char *name, const double *xyz, int nt, const char *fmt) {
  char path[512];
  path_of(path, sizeof path, name);
  FILE *fp = fopen(path, "w");
  if (!fp) {
    printf("cannot write %s\n", path);
    exit(1);
  }
  fprintf(fp, "solid test\n");
  for (int t = 0; t < nt; t++) {
    fprintf(fp, "  facet normal 0 0 0\n    outer loop\n");
    for (int k = 0; k < 3; k++) {
      fprintf(fp, "      vertex");
      for (int d = 0; d < 3; d++)
        fprintf(fp, fmt, xyz[9 * t + 3 * k + d]);
      fprintf(fp, "\n");
    }
    fprintf(fp, "    endloop\n  endfacet\n");
  }
  fprintf(fp, "endsolid test\n");
  fclose(fp);
}

static void put32(FILE *fp, uint32_t u) {
  const unsigned char b[4] = {u & 255, (u >> 8) & 255, (u >> 16) & 255, u >> 24};
  fwrite(b, 1, 4, fp);
}

/* Binary STL; the header starts with "solid" on purpose (some exporters do that). cut: bytes left off. */
static void write_binary(const char *name, const double *xyz, int nt, long cut) {
  char path[512], header[80] = "solid binary file whose header starts like an ASCII one";
  path_of(path, sizeof path, name);
  FILE *fp = fopen(path, "wb");
  if (!fp) {
    printf("cannot write %s\n", path);
    exit(1);
  }
  fwrite(header, 1, 80, fp);
  put32(fp, (uint32_t)nt);
  for (int t = 0; t < nt; t++) {
    for (int c = 0; c < 12; c++) {
      const float f = c < 3 ? 0.0f : (float)xyz[9 * t + c - 3];
      uint32_t u;
      memcpy(&u, &f, 4);
      put32(fp, u);
    }
    fputc(0, fp), fputc(0, fp);
  }
  fclose(fp);
  if (cut > 0 && truncate(path, 84 + 50L * nt - cut) != 0) printf("truncate failed\n");
}

static nav_geom_mesh *read_ok(const char *name) {
  char path[512];
  path_of(path, sizeof path, name);
  nav_geom_mesh *m = NULL;
  CHECK(nav_geom_mesh_read(path, &m, msg, sizeof msg) == NAV_OK, "%s: %s", name, msg);
  return m;
}

static void expect_bad(const char *name, const char *want) {
  char path[512], full[700];
  path_of(path, sizeof path, name);
  nav_geom_mesh *m = NULL;
  const nav_err err = nav_geom_mesh_read(path, &m, msg, sizeof msg);
  snprintf(full, sizeof full, "%s%s", path, want);
  CHECK(err != NAV_OK && !m && strstr(msg, full), "%s: want '%s', got (%d) '%s'", name, full, (int)err, msg);
  printf("  %-18s -> %s\n", name, msg);
  nav_geom_mesh_destroy(m);
}

static void write_text(const char *name, const char *text) {
  char path[512];
  path_of(path, sizeof path, name);
  write_file(path, text, strlen(text));
}

/* ---- tests -------------------------------------------------------------------------------------------- */

static void check_cube(nav_geom_mesh *m, const char *what) {
  if (!m) return;
  double e = 0;
  int wrong = 0;
  for (int k = 0; k < 20000; k++) {
    const double x[3] = {urand(-3, 3), urand(-3, 3), urand(-3, 3)};
    const double d = nav_geom_mesh_distance(m, x, NULL, NULL), ex = cube_exact(x);
    e = fmax(e, fabs(d - ex));
    wrong += nav_geom_mesh_inside(m, x) != (ex < 0);
  }
  /* rays along +x through the projected edges and corners of the triangles: points with y = z (the
     diagonals of the faces x = +-1), y = -z, y or z = +-1 inside and outside */
  const double ray[8][3] = {{0.3, 0.4, 0.4}, {-2, 0.4, 0.4}, {0.3, -0.5, 0.5}, {-2, 0.5, -0.5},
                            {-2, 1, 1},      {-2, 1, 0.3},   {0.5, 0, 0},      {-3, -1, -1}};
  for (int k = 0; k < 8; k++)
    wrong += nav_geom_mesh_inside(m, ray[k]) != (cube_exact(ray[k]) < 0);
  /* points whose closest feature is an edge, a corner, a face centre; inside near a corner */
  const double probe[5][3] = {{1.5, 1.5, 0.2}, {1.5, -1.5, 1.5}, {0, 0, -2}, {0.99, 0.98, 0.97}, {-1.2, 0.999, 0.3}};
  for (int k = 0; k < 5; k++)
    e = fmax(e, fabs(nav_geom_mesh_distance(m, probe[k], NULL, NULL) - cube_exact(probe[k])));
  printf("cube %s: %d triangles, %d vertices, volume %.15g, max |d - exact| = %.3g, %d inside mismatches\n", what,
         nav_geom_mesh_triangles(m), nav_geom_mesh_vertices(m), nav_geom_mesh_volume(m), e, wrong);
  CHECK(e <= 1e-14 && wrong == 0, "cube %s: error %g, %d mismatches", what, e, wrong);
  CHECK(nav_geom_mesh_vertices(m) == 8 && fabs(nav_geom_mesh_volume(m) - 8) < 1e-14, "cube %s: vertices/volume", what);
}

static void test_cube(void) {
  double xyz[108];
  cube(xyz);
  write_ascii("cube_ascii.stl", xyz, 12, " %.17g");
  write_binary("cube_binary.stl", xyz, 12, 0);
  nav_geom_mesh *m = read_ok("cube_ascii.stl");
  check_cube(m, "ASCII");
  nav_geom_mesh_destroy(m);
  m = read_ok("cube_binary.stl");
  check_cube(m, "binary");
  nav_geom_mesh_destroy(m);
  { /* keywords in capitals */
    char path[512], text[8192];
    path_of(path, sizeof path, "cube_ascii.stl");
    FILE *fp = fopen(path, "rb");
    const size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp) fclose(fp);
    text[n] = '\0';
    for (size_t i = 0; i < n; i++)
      if (text[i] >= 'a' && text[i] <= 'z') text[i] = (char)(text[i] - 'a' + 'A');
    write_text("cube_upper.stl", text);
    m = read_ok("cube_upper.stl");
    check_cube(m, "ASCII in capitals");
    nav_geom_mesh_destroy(m);
    char marked[8192] = "\xEF\xBB\xBF"; /* a UTF-8 byte-order mark first */
    strncat(marked, text, sizeof marked - 4);
    write_text("cube_bom.stl", marked);
    m = read_ok("cube_bom.stl");
    check_cube(m, "ASCII after a byte-order mark");
    nav_geom_mesh_destroy(m);
  }
  for (int t = 0; t < 12; t++) /* every triangle inward: the reader turns them all */
    for (int d = 0; d < 3; d++) {
      const double s = xyz[9 * t + 3 + d];
      xyz[9 * t + 3 + d] = xyz[9 * t + 6 + d], xyz[9 * t + 6 + d] = s;
    }
  CHECK(nav_geom_mesh_create(xyz, 12, "inward cube", &m, msg, sizeof msg) == NAV_OK, "inward: %s", msg);
  check_cube(m, "inward");
  nav_geom_mesh_destroy(m);
  /* two disjoint cubes in one file, the first inward, the second outward and shifted by (3, 0.5, 0):
     the union, d = min(d1, d2) */
  double two[216];
  memcpy(two, xyz, sizeof xyz);
  cube(two + 108);
  for (int c = 0; c < 36; c++)
    two[108 + 3 * c] += 3, two[108 + 3 * c + 1] += 0.5;
  CHECK(nav_geom_mesh_create(two, 24, "two cubes", &m, msg, sizeof msg) == NAV_OK, "two cubes: %s", msg);
  if (m) {
    double e = 0;
    for (int k = 0; k < 5000; k++) {
      const double x[3] = {urand(-3, 6), urand(-3, 3), urand(-3, 3)}, y[3] = {x[0] - 3, x[1] - 0.5, x[2]};
      e = fmax(e, fabs(nav_geom_mesh_distance(m, x, NULL, NULL) - fmin(cube_exact(x), cube_exact(y))));
    }
    printf("two cubes (one inward): volume %g, max |d - min(d1, d2)| = %.3g\n", nav_geom_mesh_volume(m), e);
    CHECK(e <= 1e-14 && fabs(nav_geom_mesh_volume(m) - 16) < 1e-13, "two cubes: %g", e);
    nav_geom_mesh_destroy(m);
  }
}

static double inscribed(const double *xyz, int nt) {
  double r = HUGE_VAL;
  for (int t = 0; t < nt; t++) {
    const double *a = xyz + 9 * t, *b = a + 3, *c = a + 6;
    double u[3], v[3], n[3];
    for (int d = 0; d < 3; d++)
      u[d] = b[d] - a[d], v[d] = c[d] - a[d];
    n[0] = u[1] * v[2] - u[2] * v[1], n[1] = u[2] * v[0] - u[0] * v[2], n[2] = u[0] * v[1] - u[1] * v[0];
    unit3(n);
    r = fmin(r, fabs(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]));
  }
  return r;
}

static double tri_brute(const double *xyz, int nt, const double *p) {
  /* the minimum over triangles of the distance to the plane (foot inside) or to the 3 edges */
  double best = HUGE_VAL;
  for (int t = 0; t < nt; t++) {
    const double *V[3] = {xyz + 9 * t, xyz + 9 * t + 3, xyz + 9 * t + 6};
    double u[3], v[3], n[3], w[3];
    for (int d = 0; d < 3; d++)
      u[d] = V[1][d] - V[0][d], v[d] = V[2][d] - V[0][d], w[d] = p[d] - V[0][d];
    n[0] = u[1] * v[2] - u[2] * v[1], n[1] = u[2] * v[0] - u[0] * v[2], n[2] = u[0] * v[1] - u[1] * v[0];
    unit3(n);
    const double h = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
    const double f[3] = {p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]};
    int in = 1;
    for (int k = 0; k < 3; k++) { /* the foot on the inner side of each edge */
      const double *A = V[k], *B = V[(k + 1) % 3];
      double e[3], g[3], c[3];
      for (int d = 0; d < 3; d++)
        e[d] = B[d] - A[d], g[d] = f[d] - A[d];
      c[0] = e[1] * g[2] - e[2] * g[1], c[1] = e[2] * g[0] - e[0] * g[2], c[2] = e[0] * g[1] - e[1] * g[0];
      in &= c[0] * n[0] + c[1] * n[1] + c[2] * n[2] >= 0;
    }
    if (in) best = fmin(best, fabs(h));
    for (int k = 0; k < 3; k++) {
      const double *A = V[k], *B = V[(k + 1) % 3];
      double e[3], g[3], ee = 0, eg = 0;
      for (int d = 0; d < 3; d++)
        e[d] = B[d] - A[d], g[d] = p[d] - A[d], ee += e[d] * e[d], eg += e[d] * g[d];
      const double s = fmin(fmax(eg / ee, 0), 1);
      double q = 0;
      for (int d = 0; d < 3; d++)
        q += (g[d] - s * e[d]) * (g[d] - s * e[d]);
      best = fmin(best, sqrt(q));
    }
  }
  return best;
}

/* The sphere bound r - 1 <= d/s <= r - r_in at random points, for the mesh placed by xf (or not). */
static void check_sphere(const nav_geom_body *b, const double *centre, double radius, double rin, double slack,
                         const char *what) {
  double lo_err = 0, hi_err = 0;
  int wrong = 0, tested = 0;
  for (int k = 0; k < 20000; k++) {
    const double x[3] = {centre[0] + urand(-2, 2) * radius, centre[1] + urand(-2, 2) * radius,
                         centre[2] + urand(-2, 2) * radius};
    const double r = sqrt((x[0] - centre[0]) * (x[0] - centre[0]) + (x[1] - centre[1]) * (x[1] - centre[1]) +
                          (x[2] - centre[2]) * (x[2] - centre[2])) /
                     radius;
    const double d = nav_geom_body_distance(b, x, NULL, NULL) / radius;
    lo_err = fmax(lo_err, (r - 1) - d);   /* > 0 would break d >= r - 1 */
    hi_err = fmax(hi_err, d - (r - rin)); /* > 0 would break d <= r - r_in */
    if (fabs(r - 1) > 1 - rin + slack) tested++, wrong += nav_geom_body_inside(b, x) != (r < 1);
  }
  printf("sphere %s: 1 - r_in = %.3g; bound r - 1 <= d <= r - r_in broken by at most %.3g / %.3g; "
         "inside test: %d mismatches of %d\n",
         what, 1 - rin, lo_err, hi_err, wrong, tested);
  CHECK(lo_err <= slack && hi_err <= slack && wrong == 0, "sphere %s: %g %g, %d mismatches", what, lo_err, hi_err,
        wrong);
}

static void test_sphere(void) {
  int nt;
  double *xyz = icosphere(4, &nt);
  write_binary("ico4.stl", xyz, nt, 0);
  nav_geom_mesh *m = read_ok("ico4.stl");
  if (m) {
    const double rin = inscribed(xyz, nt), o[3] = {0, 0, 0};
    printf("icosphere level 4 (binary): %d triangles, %d vertices, volume %.6f (ball %.6f)\n",
           nav_geom_mesh_triangles(m), nav_geom_mesh_vertices(m), nav_geom_mesh_volume(m), 4 * NAV_PI / 3);
    CHECK(nav_geom_mesh_triangles(m) == 5120 && nav_geom_mesh_vertices(m) == 2562, "ico4: counts");
    nav_geom_body b = {.mesh = m};
    nav_geom_xform_identity(&b.xf);
    check_sphere(&b, o, 1, rin, 1e-7, "level 4, binary");
    double e = 0;
    for (int k = 0; k < 400; k++) {
      const double x[3] = {urand(-2, 2), urand(-2, 2), urand(-2, 2)};
      e = fmax(e, fabs(fabs(nav_geom_mesh_distance(m, x, NULL, NULL)) - tri_brute(xyz, nt, x)));
    }
    printf("icosphere level 4: max |d - brute force| = %.3g over 400 points (float32 file vs double triangles)\n", e);
    CHECK(e <= 1e-7, "ico4 brute %g", e);
    /* placed: scale 0.5, turned, shifted */
    b.xf.scale = 0.5, b.xf.angle[0] = 17, b.xf.angle[1] = 33, b.xf.angle[2] = -71;
    b.xf.shift[0] = 2, b.xf.shift[1] = 3, b.xf.shift[2] = 4;
    CHECK(nav_geom_xform_update(&b.xf, msg, sizeof msg) == NAV_OK && nav_geom_body_check(&b, msg, sizeof msg) == 0,
          "placed: %s", msg);
    const double c[3] = {2, 3, 4};
    check_sphere(&b, c, 0.5, rin, 1e-7, "level 4, placed (s 0.5, turned, shifted)");
    nav_geom_mesh_destroy(m);
  }
  free(xyz);
  /* the exact double triangles in memory against brute force, to round-off */
  xyz = icosphere(3, &nt);
  CHECK(nav_geom_mesh_create(xyz, nt, "ico3", &m, msg, sizeof msg) == NAV_OK, "ico3: %s", msg);
  if (m) {
    double e = 0;
    for (int k = 0; k < 1000; k++) {
      const double x[3] = {urand(-2, 2), urand(-2, 2), urand(-2, 2)};
      e = fmax(e, fabs(fabs(nav_geom_mesh_distance(m, x, NULL, NULL)) - tri_brute(xyz, nt, x)));
    }
    /* rays along +x through every vertex (and so along the edges that meet there): outside from x = -2,
       inside from x = 0 where the vertex lies within 0.9 of the axis */
    int wrong = 0, tested = 0;
    for (int t = 0; t < nt; t++)
      for (int k = 0; k < 3; k++) {
        const double *v = xyz + 9 * t + 3 * k;
        const double out[3] = {-2, v[1], v[2]}, in[3] = {0, v[1], v[2]};
        wrong += nav_geom_mesh_winding(m, out) != 0, tested++;
        if (v[1] * v[1] + v[2] * v[2] < 0.81) wrong += nav_geom_mesh_winding(m, in) != 1, tested++;
      }
    printf("icosphere level 3 (memory): max |d - brute force| = %.3g over 1000 points; winding number of rays "
           "through the vertices: %d wrong of %d\n",
           e, wrong, tested);
    CHECK(wrong == 0, "ico3: %d rays through vertices miscounted", wrong);
    CHECK(e <= 1e-14, "ico3 brute %g", e);
    nav_geom_mesh_destroy(m);
  }
  free(xyz);
  xyz = icosphere(2, &nt);
  write_ascii("ico2_ascii.stl", xyz, nt, " %.9g");
  m = read_ok("ico2_ascii.stl");
  if (m) {
    nav_geom_body b = {.mesh = m};
    nav_geom_xform_identity(&b.xf);
    const double o[3] = {0, 0, 0};
    CHECK(nav_geom_mesh_vertices(m) == 162, "ico2: %d vertices", nav_geom_mesh_vertices(m));
    check_sphere(&b, o, 1, inscribed(xyz, nt), 1e-8, "level 2, ASCII");
    nav_geom_mesh_destroy(m);
  }
  free(xyz);
}

static void test_bounds(void) {
  double xyz[108], lo[3], hi[3];
  cube(xyz);
  nav_geom_mesh *m;
  nav_geom_mesh_create(xyz, 12, "cube", &m, msg, sizeof msg);
  nav_geom_body b = {.mesh = m};
  nav_geom_xform_identity(&b.xf);
  b.xf.scale = 2, b.xf.angle[2] = 45, b.xf.shift[2] = 1;
  nav_geom_xform_update(&b.xf, msg, sizeof msg);
  nav_geom_body_bounds(&b, lo, hi);
  const double r = 2 * sqrt(2);
  CHECK(fabs(lo[0] + r) < 1e-14 && fabs(hi[0] - r) < 1e-14 && fabs(lo[1] + r) < 1e-14 && fabs(hi[1] - r) < 1e-14 &&
            fabs(lo[2] + 1) < 1e-14 && fabs(hi[2] - 3) < 1e-14,
        "turned cube bounds [%g %g] [%g %g] [%g %g]", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
  nav_geom_mesh_destroy(m);
}

static void test_bad(void) {
  char path[512];
  double xyz[120];
  nav_geom_mesh *m = NULL;
  path_of(path, sizeof path, "no_such.stl");
  remove(path);
  CHECK(nav_geom_mesh_read(path, &m, msg, sizeof msg) == NAV_ERR_IO && strstr(msg, "no_such.stl: cannot read"),
        "missing: %s", msg);
  printf("  %-18s -> %s\n", "missing", msg);
  cube(xyz);
  write_ascii("open.stl", xyz, 11, " %g");
  expect_bad("open.stl", ":");
  CHECK(strstr(msg, "not closed") && strstr(msg, "belongs to this triangle only"), "open: %s", msg);
  write_binary("open_binary.stl", xyz, 11, 0);
  expect_bad("open_binary.stl", ": triangle ");
  CHECK(strstr(msg, "(byte ") && strstr(msg, "not closed"), "open binary: %s", msg);
  cube(xyz); /* triangle 4 (line 23 of the ASCII file) with two coincident corners */
  memcpy(xyz + 9 * 3 + 3, xyz + 9 * 3, 3 * sizeof *xyz);
  write_ascii("coincident.stl", xyz, 12, " %g");
  expect_bad("coincident.stl", ":23: degenerate triangle: two of its corners coincide");
  cube(xyz); /* a collinear triangle first, in front of the cube */
  memmove(xyz + 9, xyz, 108 * sizeof *xyz);
  const double line3[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  memcpy(xyz, line3, sizeof line3);
  write_ascii("collinear.stl", xyz, 13, " %g");
  expect_bad("collinear.stl", ":2: degenerate triangle: its corners are collinear");
  cube(xyz); /* triangle 6 turned: its edges run the same way as its neighbours' */
  for (int d = 0; d < 3; d++) {
    const double s = xyz[9 * 5 + 3 + d];
    xyz[9 * 5 + 3 + d] = xyz[9 * 5 + 6 + d], xyz[9 * 5 + 6 + d] = s;
  }
  write_ascii("inconsistent.stl", xyz, 12, " %g");
  expect_bad("inconsistent.stl", ":");
  CHECK(strstr(msg, "inconsistent orientation"), "inconsistent: %s", msg);
  /* two tetrahedra sharing the edge (0,0,0)-(0,0,1): that edge belongs to 4 triangles */
  const double P[6][3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  const int tet[8][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {0, 4, 1}, {0, 1, 5}, {0, 5, 4}, {1, 4, 5}};
  for (int t = 0; t < 8; t++)
    for (int k = 0; k < 3; k++)
      memcpy(xyz + 9 * t + 3 * k, P[tet[t][k]], 3 * sizeof *xyz);
  write_ascii("nonmanifold.stl", xyz, 8, " %g");
  expect_bad("nonmanifold.stl", ":");
  CHECK(strstr(msg, "belongs to 4 triangles"), "non-manifold: %s", msg);
  /* a tetrahedron flattened into the plane z = 0: closed, no degenerate triangle, no volume */
  const double Q[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  for (int t = 0; t < 4; t++)
    for (int k = 0; k < 3; k++)
      memcpy(xyz + 9 * t + 3 * k, Q[tet[t][k] == 0 ? 0 : tet[t][k]], 3 * sizeof *xyz);
  write_ascii("flat.stl", xyz, 4, " %g");
  expect_bad("flat.stl", ":2: zero volume");
  /* two cubes that overlap: crossing faces (shift (1, 0.5, 0.25)); faces in common planes (shift (1, 0, 0)) */
  for (int k = 0; k < 2; k++) {
    double two[216];
    cube(two);
    cube(two + 108);
    for (int c = 0; c < 36; c++)
      two[108 + 3 * c] += 1, two[108 + 3 * c + 1] += k ? 0 : 0.5, two[108 + 3 * c + 2] += k ? 0 : 0.25;
    write_ascii(k ? "overlap_coplanar.stl" : "overlap.stl", two, 24, " %g");
    expect_bad(k ? "overlap_coplanar.stl" : "overlap.stl", ":");
    CHECK(strstr(msg, "self-intersecting surface: this triangle and the one at ") && strstr(msg, ".stl:"),
          "overlap %d: %s", k, msg);
  }
  { /* a sphere of 162 vertices and one stray triangle 1e12 away: the welding cells hold the whole sphere */
    int n2;
    double *ico = icosphere(2, &n2);
    double *more = realloc(ico, (size_t)(n2 + 1) * 9 * sizeof *ico);
    if (more) {
      const double stray[9] = {1e12, 0, 0, 1e12, 1, 0, 1e12, 0, 1};
      memcpy(more + 9 * n2, stray, sizeof stray);
      write_binary("stray.stl", more, n2 + 1, 0);
      expect_bad("stray.stl", ": triangle 71 (byte 3584): more than 64 distinct corners within the welding distance");
    }
    free(more ? more : ico);
  }
  cube(xyz);
  write_binary("truncated.stl", xyz, 12, 10);
  expect_bad("truncated.stl", ": a binary STL of 12 triangles has 84 + 50 x 12 = 684 bytes, this file has 674");
  write_text("short.stl", "not an stl");
  expect_bad("short.stl", ": not an STL file: 10 bytes");
  write_text("empty.stl", "");
  expect_bad("empty.stl", ": not an STL file: 0 bytes");
  write_text("ascii_cut.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0");
  expect_bad("ascii_cut.stl", ":5: the file ends where a number should come (truncated?)");
  write_text("no_endsolid.stl", "solid x\n");
  expect_bad("no_endsolid.stl", ":2: the file ends before 'endsolid' (truncated?)");
  write_text("ascii_badnum.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0.5.5\n");
  expect_bad("ascii_badnum.stl", ":5: bad number '0.5.5'");
  write_text("ascii_keyword.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertec 1 0 0\n");
  expect_bad("ascii_keyword.stl", ":5: expected 'vertex', found 'vertec'");
  write_text("ascii_inf.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 inf\n");
  expect_bad("ascii_inf.stl", ":4: 'inf' is not a finite number");
  cube(xyz);
  xyz[9 * 7 + 4] = NAN;
  write_binary("nan.stl", xyz, 12, 0);
  expect_bad("nan.stl", ": triangle 8 (byte 434): a corner coordinate is not finite");
}

static void test_data_sphere(const char *path) {
  nav_geom_mesh *m;
  CHECK(nav_geom_mesh_read(path, &m, msg, sizeof msg) == NAV_OK, "%s: %s", path, msg);
  if (!m) return;
  double lo[3], hi[3];
  nav_geom_mesh_bounds(m, lo, hi);
  printf("%s: %d triangles, %d vertices, volume %.6f (ball of diameter 1: %.6f), box [%.4f, %.4f]\n", path,
         nav_geom_mesh_triangles(m), nav_geom_mesh_vertices(m), nav_geom_mesh_volume(m), NAV_PI / 6, lo[0], hi[0]);
  CHECK(nav_geom_mesh_vertices(m) == 642 && fabs(hi[0] - lo[0] - 1) < 1e-6, "data sphere: counts or size");
  /* level 3: 1 - r_in = 0.00453 of the radius (tools/navier-icosphere) */
  const double c[3] = {0, 0, 0}, rin = 0.9954;
  nav_geom_body b = {.mesh = m};
  nav_geom_xform_identity(&b.xf);
  check_sphere(&b, c, 0.5, rin, 1e-7, "data/sphere_d1.stl");
  nav_geom_mesh_destroy(m);
}

/* Samples (nav_geom_mesh_sample, nav_geom_body_sample): the centroid rule integrates linear functions on a
 * triangle exactly: sum w = surface area, sum w n = 0, sum w x.n = 3 volume, to round-off. */
static void check_mesh_samples(const char *what, int n, const double *x, const double *nrm, const double *w,
                               double area, double volume) {
  double sw = 0, sn[3] = {0, 0, 0}, sxn = 0;
  for (int i = 0; i < n; i++) {
    sw += w[i];
    for (int d = 0; d < 3; d++)
      sn[d] += w[i] * nrm[3 * i + d], sxn += w[i] * x[3 * i + d] * nrm[3 * i + d];
  }
  const double an = sqrt(sn[0] * sn[0] + sn[1] * sn[1] + sn[2] * sn[2]);
  printf("%s: %d samples: sum w = %.15g (area %.15g), |sum w n| = %.2g, sum w x.n = %.15g (3 volume %.15g)\n", what, n,
         sw, area, an, sxn, 3 * volume);
  CHECK(fabs(sw - area) < 1e-12 * area && an < 1e-13 * area && fabs(sxn - 3 * volume) < 1e-12 * (1 + volume),
        "%s samples", what);
}

static void test_samples(void) {
  double xyz[108];
  int n, nt;
  double *x, *nrm, *w;
  nav_geom_mesh *m;
  cube(xyz);
  nav_geom_mesh_create(xyz, 12, "cube", &m, msg, sizeof msg);
  CHECK(nav_geom_mesh_sample(m, 0.5, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_OK && n == 12 * 36, "cube: %d", n);
  check_mesh_samples("cube samples (h 0.5)", n, x, nrm, w, 24, 8);
  free(x), free(nrm), free(w);
  nav_geom_mesh_destroy(m);
  double *ico = icosphere(2, &nt);
  nav_geom_mesh_create(ico, nt, "ico2", &m, msg, sizeof msg);
  double area = 0;
  for (int t = 0; t < nt; t++) {
    const double *a = ico + 9 * t;
    double u[3], v[3];
    for (int d = 0; d < 3; d++)
      u[d] = a[3 + d] - a[d], v[d] = a[6 + d] - a[d];
    area += 0.5 * sqrt(pow(u[1] * v[2] - u[2] * v[1], 2) + pow(u[2] * v[0] - u[0] * v[2], 2) +
                       pow(u[0] * v[1] - u[1] * v[0], 2));
  }
  nav_geom_body b = {.mesh = m};
  nav_geom_xform_identity(&b.xf);
  b.xf.scale = 0.5, b.xf.angle[0] = 10, b.xf.angle[1] = 20, b.xf.angle[2] = 30, b.xf.shift[0] = 5;
  nav_geom_xform_update(&b.xf, msg, sizeof msg);
  CHECK(nav_geom_body_sample(&b, 0.02, &n, &x, &nrm, &w, msg, sizeof msg) == NAV_OK, "ico2 body: %s", msg);
  check_mesh_samples("placed icosphere samples (scale 0.5, turned, shifted; h 0.02)", n, x, nrm, w, 0.25 * area,
                     0.125 * nav_geom_mesh_volume(m));
  free(x), free(nrm), free(w), free(ico);
  nav_geom_mesh_destroy(m);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    printf("usage: test_geom_stl SCRATCH_DIR [SPHERE_STL]\n");
    return 2;
  }
  scratch = argv[1];
  srand(4321);
  test_cube();
  test_sphere();
  test_bounds();
  test_samples();
  printf("bad files:\n");
  test_bad();
  if (argc > 2) test_data_sphere(argv[2]);
  printf("%d checks, %d failures\n", checks, failures);
  return failures != 0;
}
