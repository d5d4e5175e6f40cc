/* Grid spacing of one direction from the [grid] keys (see nav_spacing.h). */
#include "grid/nav_spacing.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_table.h"

#define NAV_SPACING_EXTENT_TOL 1e-10 /* relative mismatch of a face file's end coordinates */


/* Shortest "%.Ng" text of v that reads back exactly (for messages). */
static const char *nav_spacing_real(double v, char *buf, size_t n) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  return buf;
}

void nav_spacing_path(const nav_config *cfg, int d, char *path, size_t n) { nav_table_path(cfg->source, cfg->file[d], path, n); }

/* Read the N + 1 faces of direction d from its file into xf. */
static int nav_spacing_read(const nav_config *cfg, int d, int N, double x0, double L, double *xf, char *why,
                            size_t n) {
  char path[2 * NAV_CONFIG_STR + 2], buf[256];
  nav_spacing_path(cfg, d, path, sizeof path);
  FILE *fp = fopen(path, "r");
  if (!fp) return nav_why(1, why, n, "cannot open the face file %s: %s", path, strerror(errno));
  int count = 0, line = 0, bad = 0;
  double prev = 0;
  char t1[32], t2[32];
  const char c = "xyz"[d];
  while (!bad && fgets(buf, sizeof buf, fp)) {
    line++;
    char *s = buf, *end;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '#') continue;
    errno = 0;
    const double v = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    s[strcspn(s, "\r\n")] = 0;
    if (end == s || *end || errno == ERANGE || !isfinite(v))
      bad = nav_why(1, why, n, "%s:%d: expected one real number (a face coordinate), got '%.60s'", path, line, s);
    else if (count > N)
      bad = nav_why(1, why, n, "%s:%d: more than n%c + 1 = %d face coordinates (the grid has %d cells)", path,
                             line, "xyz"[d], N + 1, N);
    else if (count > 0 && !(v > prev))
      bad = nav_why(1, why, n, "%s:%d: coordinate %s is not above the previous one %s: faces must increase "
                             "strictly", path, line, nav_spacing_real(v, t1, sizeof t1),
                             nav_spacing_real(prev, t2, sizeof t2));
    else if (count == 0 && fabs(v - x0) > NAV_SPACING_EXTENT_TOL * L)
      bad = nav_why(1, why, n, "%s:%d: the first face %s must be the origin %c0 = %s", path, line,
                             nav_spacing_real(v, t1, sizeof t1), c, nav_spacing_real(x0, t2, sizeof t2));
    if (bad) break;
    xf[count++] = v;
    prev = v;
  }
  fclose(fp);
  if (bad) return 1;
  if (count != N + 1)
    return nav_why(1, why, n, "%s:%d: %d face coordinates, the grid needs n%c + 1 = %d (%d cells)", path, line,
                            count, "xyz"[d], N + 1, N);
  if (fabs(xf[N] - (x0 + L)) > NAV_SPACING_EXTENT_TOL * L)
    return nav_why(1, why, n, "%s:%d: the last face %s must be the end of the domain %c0 + l%c = %s", path,
                            line, nav_spacing_real(xf[N], t1, sizeof t1), c, c,
                            nav_spacing_real(x0 + L, t2, sizeof t2));
  xf[0] = x0;
  xf[N] = x0 + L;
  return 0;
}

int nav_spacing_faces(const nav_config *cfg, int d, double *xf, double *w, char *why, size_t n) {
  const int N = d == 0 ? cfg->nx : d == 1 ? cfg->ny : cfg->nz;
  const double L = d == 0 ? cfg->lx : d == 1 ? cfg->ly : cfg->lz, x0 = d == 0 ? cfg->x0 : d == 1 ? cfg->y0 : cfg->z0;
  const char *kind = cfg->spacing[d], *cl = cfg->cluster[d];
  const int low = !strcmp(cl, "low"), high = !strcmp(cl, "high");
  if (!strcmp(kind, "uniform")) {
    xf[0] = x0;
    for (int i = 0; i < N; i++) {
      w[i] = L / N;
      xf[i + 1] = xf[i] + w[i];
    }
    return 0;
  }
  if (!strcmp(kind, "tanh")) {
    const double g = cfg->gamma[d], tg = tanh(g);
    for (int j = 0; j <= N; j++) {
      const double s = (double)j / N;
      xf[j] = low ? x0 + L * (1 + tanh(g * (s - 1)) / tg)
              : high ? x0 + L * tanh(g * s) / tg
                     : x0 + 0.5 * L * (1 + tanh(g * (2 * s - 1)) / tg);
    }
  } else if (!strcmp(kind, "geometric")) {
    double sum = 0;
    for (int i = 0; i < N; i++) {
      const int k = low ? i : high ? N - 1 - i : (i < N - 1 - i ? i : N - 1 - i);
      w[i] = pow(cfg->ratio[d], k);
      sum += w[i];
    }
    xf[0] = x0;
    for (int i = 0; i < N; i++) xf[i + 1] = xf[i] + w[i] * L / sum;
  } else if (!strcmp(kind, "file")) {
    if (nav_spacing_read(cfg, d, N, x0, L, xf, why, n)) return 1;
  } else {
    return nav_why(1, why, n, "unknown spacing '%s'", kind);
  }
  xf[0] = x0;
  xf[N] = x0 + L;
  for (int i = 0; i < N; i++) {
    w[i] = xf[i + 1] - xf[i];
    if (!(w[i] > 0))
      return nav_why(1, why, n, "cell %d has width %g: the %s spacing is too strong for %d cells in double "
                              "precision", i, w[i], kind, N);
  }
  return 0;
}
