/* Numeric tables read from text files (see nav_table.h). */
#include "core/nav_table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nav_table_path(const char *source, const char *name, char *buf, size_t n) {
  const char *slash = strrchr(source, '/');
  if (name[0] == '/' || !slash || !strcmp(source, "(default)"))
    snprintf(buf, n, "%s", name);
  else
    snprintf(buf, n, "%.*s/%s", (int)(slash - source), source, name);
}

void nav_table_free(nav_table *t) {
  free(t->v);
  memset(t, 0, sizeof *t);
}

int nav_table_read(const char *path, int ncol, nav_table *t, char *why, size_t n) {
  memset(t, 0, sizeof *t);
  FILE *in = fopen(path, "r");
  if (!in) {
    snprintf(why, n, "cannot open '%s': %s", path, strerror(errno));
    return -1;
  }
  char line[1024];
  int lineno = 0, cap = 0, fail = 0;
  while (!fail && fgets(line, sizeof line, in)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    for (char *c = line; *c; c++)
      if (*c == ',') *c = ' ';
    char *s = line;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) continue;
    if (t->rows == cap) {
      cap = cap ? 2 * cap : 64;
      double *grown = realloc(t->v, (size_t)cap * ncol * sizeof *grown);
      if (!grown) {
        snprintf(why, n, "'%s': out of memory", path);
        fail = 1;
        break;
      }
      t->v = grown;
    }
    double *row = t->v + (size_t)t->rows * ncol;
    int got = 0;
    for (;;) {
      while (isspace((unsigned char)*s)) s++;
      if (!*s) break;
      char *end;
      errno = 0;
      const double v = strtod(s, &end);
      if (end == s || errno == ERANGE || !isfinite(v) || got == ncol) {
        got = -1;
        break;
      }
      row[got++] = v;
      s = end;
    }
    if (got != ncol) {
      snprintf(why, n, "'%s' line %d: expected %d real numbers", path, lineno, ncol);
      fail = 1;
    } else if (t->rows > 0 && !(row[0] > row[-ncol])) {
      snprintf(why, n, "'%s' line %d: the first column must increase strictly (%g after %g)", path, lineno, row[0],
               row[-ncol]);
      fail = 1;
    } else {
      t->rows++;
    }
  }
  fclose(in);
  if (!fail && t->rows < 2) {
    snprintf(why, n, "'%s': a table needs at least 2 lines of %d numbers, got %d", path, ncol, t->rows);
    fail = 1;
  }
  if (fail) {
    nav_table_free(t);
    return -1;
  }
  t->ncol = ncol;
  return 0;
}

double nav_table_at(const nav_table *t, int col, double x) {
  const double *v = t->v;
  const int m = t->ncol, last = t->rows - 1;
  if (x <= v[0]) return v[col];
  if (x >= v[last * m]) return v[last * m + col];
  int lo = 0, hi = last; /* v[lo] <= x < v[hi] */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (v[mid * m] <= x)
      lo = mid;
    else
      hi = mid;
  }
  const double a = (x - v[lo * m]) / (v[hi * m] - v[lo * m]);
  return (1 - a) * v[lo * m + col] + a * v[hi * m + col];
}
