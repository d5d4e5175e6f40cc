/* Closed 2D polylines of `points` bodies: reading, validation, signed distance and winding number
 * (contracts and the file format in nav_geom.h).
 *
 * Segment i runs from point i to point i+1 (mod n); the polygon is stored counter-clockwise, so its
 * outward unit normal is n_i = (dy, -dx) / |d|, d = p_{i+1} - p_i. Distance: the closest point of a
 * segment is q = p_i + t d with t = clamp((x - p_i).d / d.d, 0, 1); the normal returned there is
 * N = n_i for 0 < t < 1 and, at a vertex, N = n_{i-1} + n_i (the 2D angle-weighted pseudonormal,
 * Baerentzen & Aanaes 2005). The sign is the winding number's (robust; see nav_geom_poly_distance).
 * Winding number: Sunday's rule, an upward
 * segment (y_i <= y < y_{i+1}) with x to its left counts +1, a downward one with x to its right -1,
 * only over the segments that meet the half-line from x towards +x (a box query of the hierarchy). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom.h"
#include "physics/bodies/nav_geom_bvh.h"
#include "physics/bodies/nav_geom_impl.h"

#define NAV_GEOM_MAX_POINTS (1 << 24)

struct nav_geom_poly {
  int n;
  double *xy;  /* 2n points, counter-clockwise */
  double *en;  /* 2n outward unit normals of the segments */
  double *vn;  /* 2n outward unit pseudonormals of the vertices */
  double area; /* > 0 */
  double lo[2], hi[2];
  nav_geom_bvh bvh;
};

void nav_geom_poly_destroy(nav_geom_poly *p) {
  if (!p) return;
  free(p->xy);
  free(p->en);
  free(p->vn);
  nav_geom_bvh_free(&p->bvh);
  free(p);
}

int nav_geom_poly_count(const nav_geom_poly *p) { return p->n; }
const double *nav_geom_poly_points(const nav_geom_poly *p) { return p->xy; }
double nav_geom_poly_area(const nav_geom_poly *p) { return p->area; }
void nav_geom_poly_bounds(const nav_geom_poly *p, double lo[2], double hi[2]) {
  lo[0] = p->lo[0], lo[1] = p->lo[1], hi[0] = p->hi[0], hi[1] = p->hi[1];
}

/* ---- small 2D helpers ----------------------------------------------------------------------------- */

static double nav_orient(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Squared distance from x to segment [a, b], the parameter t of the closest point in *t. */
static double nav_seg_dist2(const double *a, const double *b, const double *x, double *t) {
  const double dx = b[0] - a[0], dy = b[1] - a[1], rx = x[0] - a[0], ry = x[1] - a[1];
  const double dd = dx * dx + dy * dy;
  double s = dd > 0 ? (rx * dx + ry * dy) / dd : 0;
  s = s < 0 ? 0 : (s > 1 ? 1 : s);
  const double ex = rx - s * dx, ey = ry - s * dy;
  if (t) *t = s;
  return ex * ex + ey * ey;
}

/* ---- validation ------------------------------------------------------------------------------------ */

typedef struct nav_poly_check {
  const double *xy;
  int n, i; /* the segment being checked against the others */
  double tol;
  int found, j; /* the offending segment, and the kind: 1 crosses, 2 touches, 3 folds back */
  double at[2];
} nav_poly_check;

static int nav_poly_check_pair(void *ctx, int j) {
  nav_poly_check *c = ctx;
  const int i = c->i, n = c->n;
  if (j <= i) return 0;
  const double *a = c->xy + 2 * i, *b = c->xy + 2 * ((i + 1) % n);
  const double *p = c->xy + 2 * j, *q = c->xy + 2 * ((j + 1) % n);
  if (j == i + 1 || (i == 0 && j == n - 1)) {
    /* neighbours share one point; they overlap only when they fold back onto each other */
    const double *s = j == i + 1 ? b : a, *u = j == i + 1 ? a : b, *w = j == i + 1 ? q : p;
    if (nav_orient(u, s, w) == 0 && (u[0] - s[0]) * (w[0] - s[0]) + (u[1] - s[1]) * (w[1] - s[1]) > 0) {
      c->found = 3, c->j = j, c->at[0] = s[0], c->at[1] = s[1];
      return 1;
    }
    return 0;
  }
  const double d1 = nav_orient(p, q, a), d2 = nav_orient(p, q, b), d3 = nav_orient(a, b, p), d4 = nav_orient(a, b, q);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    const double s = d1 / (d1 - d2);
    c->found = 1, c->j = j, c->at[0] = a[0] + s * (b[0] - a[0]), c->at[1] = a[1] + s * (b[1] - a[1]);
    return 1;
  }
  /* not crossing: touching when the segments come closer than the tolerance */
  const double *pts[4] = {a, b, p, q}, *from[4] = {p, p, a, a}, *to[4] = {q, q, b, b};
  for (int k = 0; k < 4; k++) {
    double t;
    if (nav_seg_dist2(from[k], to[k], pts[k], &t) <= c->tol * c->tol) {
      c->found = 2, c->j = j, c->at[0] = pts[k][0], c->at[1] = pts[k][1];
      return 1;
    }
  }
  return 0;
}

static int nav_cmp_xy(const void *a, const void *b) {
  const double *p = a, *q = b;
  if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
  if (p[1] != q[1]) return p[1] < q[1] ? -1 : 1;
  return 0;
}

/* Validate the n points xy (file lines line[]) and build the polygon; takes ownership of xy and line. */
static nav_err nav_poly_build(double *xy, int *line, int n, const char *name, nav_geom_poly **out, char *msg,
                              size_t size) {
  nav_err err = NAV_OK;
  nav_geom_poly *p = NULL;
  double *seg_lo = NULL, *seg_hi = NULL, *sorted = NULL;
  if (n < 3) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: %d point%s: a closed polyline needs at least 3 distinct points",
                        name, n, n == 1 ? "" : "s");
    goto cleanup;
  }
  double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 2; d++)
      lo[d] = fmin(lo[d], xy[2 * i + d]), hi[d] = fmax(hi[d], xy[2 * i + d]);
  const double diag = hypot(hi[0] - lo[0], hi[1] - lo[1]), tol = NAV_GEOM_REL_TOL * diag;
  if (!isfinite(diag)) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: the points span more than the largest finite number", name);
    goto cleanup;
  }
  /* an explicit repeat of the first point closes the polyline */
  const int explicit_close = hypot(xy[2 * n - 2] - xy[0], xy[2 * n - 1] - xy[1]) <= tol;
  if (explicit_close) n--;
  if (n < 3) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: %d distinct point%s: a closed polyline needs at least 3", name,
                        n, n == 1 ? "" : "s");
    goto cleanup;
  }
  double longest = 0;
  for (int i = 0; i + 1 < n; i++) {
    const double len = hypot(xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]);
    if (len <= tol) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                          "%s:%d: zero-length segment: the point (%.9g, %.9g) repeats the one of line %d", name,
                          line[i + 1], xy[2 * i + 2], xy[2 * i + 3], line[i]);
      goto cleanup;
    }
    longest = fmax(longest, len);
  }
  if (hypot(xy[2 * n - 2] - xy[0], xy[2 * n - 1] - xy[1]) <= tol) { /* the first point repeated twice at the end */
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                        "%s:%d: zero-length segment: the first point (line %d) is repeated more than once at the end",
                        name, line[n - 1], line[0]);
    goto cleanup;
  }
  sorted = malloc((size_t)n * 2 * sizeof *sorted);
  if (!sorted) goto nomem;
  memcpy(sorted, xy, (size_t)n * 2 * sizeof *sorted);
  qsort(sorted, (size_t)n, 2 * sizeof *sorted, nav_cmp_xy);
  int distinct = 1;
  for (int i = 1; i < n; i++)
    distinct += nav_cmp_xy(sorted + 2 * i, sorted + 2 * i - 2) != 0;
  if (distinct < 3) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: %d distinct points: a closed polyline needs at least 3", name,
                        distinct);
    goto cleanup;
  }
  const double gap = hypot(xy[2 * n - 2] - xy[0], xy[2 * n - 1] - xy[1]);
  if (!explicit_close && gap > NAV_GEOM_GAP_FACTOR * longest) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                        "%s:%d: open polyline: the implicit closing segment from this last point to the first "
                        "(line %d) is %.6g long, more than %g times the longest other segment (%.6g); repeat the "
                        "first point at the end if the contour is meant to close along it",
                        name, line[n - 1], line[0], gap, NAV_GEOM_GAP_FACTOR, longest);
    goto cleanup;
  }
  /* segment boxes, the hierarchy, then every pair of segments whose boxes meet */
  p = calloc(1, sizeof *p);
  seg_lo = malloc((size_t)n * 3 * sizeof *seg_lo);
  seg_hi = malloc((size_t)n * 3 * sizeof *seg_hi);
  if (!p || !seg_lo || !seg_hi) goto nomem;
  for (int i = 0; i < n; i++) {
    const int k = (i + 1) % n;
    for (int d = 0; d < 2; d++) {
      seg_lo[3 * i + d] = fmin(xy[2 * i + d], xy[2 * k + d]) - tol;
      seg_hi[3 * i + d] = fmax(xy[2 * i + d], xy[2 * k + d]) + tol;
    }
    seg_lo[3 * i + 2] = seg_hi[3 * i + 2] = 0;
  }
  if (nav_geom_bvh_build(&p->bvh, n, seg_lo, seg_hi) != NAV_OK) goto nomem;
  nav_poly_check chk = {.xy = xy, .n = n, .tol = tol};
  for (chk.i = 0; chk.i < n; chk.i++) {
    if (!nav_geom_bvh_visit(&p->bvh, seg_lo + 3 * chk.i, seg_hi + 3 * chk.i, nav_poly_check_pair, &chk)) continue;
    const int i = chk.i, j = chk.j;
    static const char *const how[] = {"", "crosses", "touches", "folds back onto"};
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size,
                        "%s:%d: self-intersecting polyline: the segment from line %d to line %d %s the segment "
                        "from line %d to line %d at (%.9g, %.9g)",
                        name, line[i], line[i], line[(i + 1) % n], how[chk.found], line[j], line[(j + 1) % n],
                        chk.at[0], chk.at[1]);
    goto cleanup;
  }
  /* area (shoelace about the first point, for accuracy), then counter-clockwise order */
  double a2 = 0;
  for (int i = 1; i + 1 < n; i++)
    a2 += (xy[2 * i] - xy[0]) * (xy[2 * i + 3] - xy[1]) - (xy[2 * i + 2] - xy[0]) * (xy[2 * i + 1] - xy[1]);
  if (!(fabs(0.5 * a2) > 1e-12 * diag * diag)) {
    err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: zero area (%.3g): the points enclose no region", name, 0.5 * a2);
    goto cleanup;
  }
  if (a2 < 0) {
    for (int i = 0, k = n - 1; i < k; i++, k--)
      for (int d = 0; d < 2; d++) {
        const double t = xy[2 * i + d];
        xy[2 * i + d] = xy[2 * k + d], xy[2 * k + d] = t;
      }
    /* the segment boxes changed their numbering: rebuild the hierarchy */
    nav_geom_bvh_free(&p->bvh);
    for (int i = 0, k = n - 2; i < k; i++, k--)
      for (int d = 0; d < 3; d++) {
        double t = seg_lo[3 * i + d];
        seg_lo[3 * i + d] = seg_lo[3 * k + d], seg_lo[3 * k + d] = t;
        t = seg_hi[3 * i + d];
        seg_hi[3 * i + d] = seg_hi[3 * k + d], seg_hi[3 * k + d] = t;
      }
    if (nav_geom_bvh_build(&p->bvh, n, seg_lo, seg_hi) != NAV_OK) goto nomem;
  }
  p->n = n, p->xy = xy, p->area = 0.5 * fabs(a2);
  xy = NULL;
  p->lo[0] = lo[0], p->lo[1] = lo[1], p->hi[0] = hi[0], p->hi[1] = hi[1];
  p->en = malloc((size_t)n * 2 * sizeof *p->en);
  p->vn = malloc((size_t)n * 2 * sizeof *p->vn);
  if (!p->en || !p->vn) goto nomem;
  for (int i = 0; i < n; i++) {
    const int k = (i + 1) % n;
    const double dx = p->xy[2 * k] - p->xy[2 * i], dy = p->xy[2 * k + 1] - p->xy[2 * i + 1], len = hypot(dx, dy);
    p->en[2 * i] = dy / len, p->en[2 * i + 1] = -dx / len;
  }
  for (int i = 0; i < n; i++) {
    const int h = (i + n - 1) % n;
    const double sx = p->en[2 * h] + p->en[2 * i], sy = p->en[2 * h + 1] + p->en[2 * i + 1], len = hypot(sx, sy);
    p->vn[2 * i] = sx / len, p->vn[2 * i + 1] = sy / len;
  }
  *out = p;
  p = NULL;
  goto cleanup;
nomem:
  err = nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory (%d points)", name, n);
cleanup:
  nav_geom_poly_destroy(p);
  free(xy);
  free(line);
  free(seg_lo);
  free(seg_hi);
  free(sorted);
  return err;
}

nav_err nav_geom_poly_create(const double *xy, int n, const char *name, nav_geom_poly **out, char *msg, size_t size) {
  *out = NULL;
  if (n < 0 || n > NAV_GEOM_MAX_POINTS)
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s: %d points: at most %d", name, n, NAV_GEOM_MAX_POINTS);
  double *copy = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *copy);
  int *line = malloc((size_t)(n > 0 ? n : 1) * sizeof *line);
  if (!copy || !line) {
    free(copy);
    free(line);
    return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory (%d points)", name, n);
  }
  for (int i = 0; i < n; i++) {
    copy[2 * i] = xy[2 * i], copy[2 * i + 1] = xy[2 * i + 1], line[i] = i + 1;
    if (!isfinite(copy[2 * i]) || !isfinite(copy[2 * i + 1])) {
      free(copy);
      free(line);
      return nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: the point is not finite", name, i + 1);
    }
  }
  return nav_poly_build(copy, line, n, name, out, msg, size);
}

/* ---- the text format ------------------------------------------------------------------------------- */

/* The token at s (up to 24 characters, non-printable ones as '?') for messages. */
static const char *nav_token(const char *s, char buf[32]) {
  int k = 0;
  while (k < 24 && s[k] && s[k] != ',' && s[k] != ' ' && s[k] != '\t') {
    buf[k] = (s[k] >= 32 && s[k] < 127) ? s[k] : '?';
    k++;
  }
  buf[k] = '\0';
  return buf;
}

/* Parse one number at *s (after blanks); 1 on success, *s moved past it. */
static int nav_number(const char **s, double *v) {
  while (**s == ' ' || **s == '\t')
    (*s)++;
  char *end;
  *v = strtod(*s, &end);
  if (end == *s) return 0;
  *s = end;
  return 1;
}

nav_err nav_geom_poly_parse(const char *text, size_t len, const char *name, nav_geom_poly **out, char *msg,
                            size_t size) {
  *out = NULL;
  nav_err err = NAV_OK;
  int n = 0, cap = 0, lineno = 0, data_rows = 0;
  double *xy = NULL;
  int *line = NULL;
  char *buf = NULL, tok[32];
  size_t buf_cap = 0;
  /* a UTF-8 byte-order mark would make the first row look like a header: skip it */
  const size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  for (size_t pos = bom; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    const size_t end = nl ? (size_t)(nl - text) : len;
    size_t ll = end - pos;
    lineno++;
    if (ll + 1 > buf_cap) {
      char *grown = realloc(buf, ll + 1);
      if (!grown) goto nomem;
      buf = grown, buf_cap = ll + 1;
    }
    memcpy(buf, text + pos, ll);
    buf[ll] = '\0';
    pos = end + 1;
    if (strlen(buf) != ll) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: a NUL byte in the line (not a text file?)", name, lineno);
      goto cleanup;
    }
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0', ll = (size_t)(hash - buf);
    while (ll > 0 && (buf[ll - 1] == ' ' || buf[ll - 1] == '\t' || buf[ll - 1] == '\r'))
      buf[--ll] = '\0';
    const char *s = buf;
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s) continue;
    double v[2];
    const char *field = s;
    if (!nav_number(&s, &v[0])) {
      if (data_rows++ == 0) continue; /* a header row */
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: bad number '%s': expected a row x,y", name, lineno,
                          nav_token(field, tok));
      goto cleanup;
    }
    data_rows++;
    if (*s && *s != ' ' && *s != '\t' && *s != ',') { /* "1.5.2", "2x": the number runs on */
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: bad number '%s': expected a row x,y", name, lineno,
                          nav_token(field, tok));
      goto cleanup;
    }
    while (*s == ' ' || *s == '\t')
      s++;
    if (*s == ',') s++;
    while (*s == ' ' || *s == '\t')
      s++;
    field = s;
    if (!*s) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: one number: expected a row x,y", name, lineno);
      goto cleanup;
    }
    if (!nav_number(&s, &v[1])) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: bad number '%s': expected a row x,y", name, lineno,
                          nav_token(field, tok));
      goto cleanup;
    }
    while (*s == ' ' || *s == '\t')
      s++;
    if (*s) {
      err =
          nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: extra text '%s' after x,y", name, lineno, nav_token(s, tok));
      goto cleanup;
    }
    if (!isfinite(v[0]) || !isfinite(v[1])) {
      err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: (%g, %g) is not a finite point", name, lineno, v[0], v[1]);
      goto cleanup;
    }
    if (n == cap) {
      if (cap >= NAV_GEOM_MAX_POINTS) {
        err = nav_geom_fail(NAV_ERR_INPUT, msg, size, "%s:%d: more than %d points", name, lineno, NAV_GEOM_MAX_POINTS);
        goto cleanup;
      }
      cap = cap ? 2 * cap : 256;
      double *g = realloc(xy, (size_t)cap * 2 * sizeof *xy);
      if (g) xy = g;
      int *gl = realloc(line, (size_t)cap * sizeof *line);
      if (gl) line = gl;
      if (!g || !gl) goto nomem;
    }
    xy[2 * n] = v[0], xy[2 * n + 1] = v[1], line[n] = lineno;
    n++;
  }
  free(buf);
  if (!xy) {
    xy = malloc(2 * sizeof *xy), line = malloc(sizeof *line);
    if (!xy || !line) goto nomem;
  }
  return nav_poly_build(xy, line, n, name, out, msg, size);
nomem:
  err = nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory", name);
cleanup:
  free(buf);
  free(xy);
  free(line);
  return err;
}

nav_err nav_geom_poly_read(const char *path, nav_geom_poly **out, char *msg, size_t size) {
  char *text;
  size_t len;
  *out = NULL;
  nav_err err = nav_geom_slurp(path, &text, &len, msg, size);
  if (err != NAV_OK) return err;
  err = nav_geom_poly_parse(text, len, path, out, msg, size);
  free(text);
  return err;
}

/* ---- queries ----------------------------------------------------------------------------------------- */

static double nav_poly_seg_dist2(const void *ctx, int i, const double x[3]) {
  const nav_geom_poly *p = ctx;
  return nav_seg_dist2(p->xy + 2 * i, p->xy + 2 * ((i + 1) % p->n), x, NULL);
}

double nav_geom_poly_distance(const nav_geom_poly *p, const double x[2], double cp[2], double normal[2]) {
  const double q3[3] = {x[0], x[1], 0};
  double d2, t;
  const int i = nav_geom_bvh_nearest(&p->bvh, q3, nav_poly_seg_dist2, p, &d2);
  const int k = (i + 1) % p->n;
  const double *a = p->xy + 2 * i, *b = p->xy + 2 * k;
  d2 = nav_seg_dist2(a, b, x, &t);
  const double q[2] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
  const double *N = t <= 0 ? p->vn + 2 * i : (t >= 1 ? p->vn + 2 * k : p->en + 2 * i);
  if (cp) cp[0] = q[0], cp[1] = q[1];
  if (normal) normal[0] = N[0], normal[1] = N[1];
  /* the sign from the winding number: the pseudonormal's sign (x - q).N is exact in exact arithmetic but
     can flip where two segments meet at a sliver angle and their distances tie to round-off (the fuzzer
     found one at 1.6e-9 rad); the crossing test only errs within round-off of the boundary */
  const double d = sqrt(d2);
  return nav_geom_poly_winding(p, x) != 0 ? -d : d;
}

typedef struct nav_poly_wind {
  const nav_geom_poly *p;
  const double *x;
  int w;
} nav_poly_wind;

static int nav_poly_wind_seg(void *ctx, int i) {
  nav_poly_wind *c = ctx;
  const double *a = c->p->xy + 2 * i, *b = c->p->xy + 2 * ((i + 1) % c->p->n), *x = c->x;
  if (a[1] <= x[1]) {
    if (b[1] > x[1] && nav_orient(a, b, x) > 0) c->w++;
  } else if (b[1] <= x[1] && nav_orient(a, b, x) < 0) {
    c->w--;
  }
  return 0;
}

int nav_geom_poly_winding(const nav_geom_poly *p, const double x[2]) {
  const double lo[3] = {x[0], x[1], -HUGE_VAL}, hi[3] = {HUGE_VAL, x[1], HUGE_VAL};
  nav_poly_wind c = {p, x, 0};
  nav_geom_bvh_visit(&p->bvh, lo, hi, nav_poly_wind_seg, &c);
  return c.w;
}

/* ---- samples ------------------------------------------------------------------------------------------ */

nav_err nav_geom_poly_sample(const nav_geom_poly *p, double h, int *n, double **xy, double **normal, double **w,
                             char *msg, size_t size) {
  *n = 0, *xy = *normal = *w = NULL;
  if (!(h > 0) || !isfinite(h)) return nav_geom_fail(NAV_ERR_INPUT, msg, size, "sample spacing %g: must be > 0", h);
  double total = 0;
  for (int i = 0; i < p->n; i++) {
    const int k = (i + 1) % p->n;
    total += fmax(1, ceil(hypot(p->xy[2 * k] - p->xy[2 * i], p->xy[2 * k + 1] - p->xy[2 * i + 1]) / h));
  }
  if (total > (1 << 28))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "sample spacing %g: %.3g samples, more than 2^28", h, total);
  const int m = (int)total;
  *xy = malloc((size_t)m * 2 * sizeof **xy), *normal = malloc((size_t)m * 2 * sizeof **normal);
  *w = malloc((size_t)m * sizeof **w);
  if (!*xy || !*normal || !*w) {
    free(*xy), free(*normal), free(*w);
    *xy = *normal = *w = NULL;
    return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "out of memory (%d samples)", m);
  }
  int s = 0;
  for (int i = 0; i < p->n; i++) {
    const int k = (i + 1) % p->n;
    const double *a = p->xy + 2 * i, *b = p->xy + 2 * k, len = hypot(b[0] - a[0], b[1] - a[1]);
    const int pieces = (int)fmax(1, ceil(len / h));
    for (int j = 0; j < pieces; j++, s++) {
      const double t = (j + 0.5) / pieces;
      (*xy)[2 * s] = a[0] + t * (b[0] - a[0]), (*xy)[2 * s + 1] = a[1] + t * (b[1] - a[1]);
      (*normal)[2 * s] = p->en[2 * i], (*normal)[2 * s + 1] = p->en[2 * i + 1];
      (*w)[s] = len / pieces;
    }
  }
  *n = m;
  return NAV_OK;
}
