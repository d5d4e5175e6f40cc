/* Numeric tables read from text files (inflow profiles).
 *
 * A table is lines of `ncol` real numbers separated by spaces, tabs or commas; empty lines and
 * everything after a '#' are ignored. The first column must increase strictly from line to line.
 * Relative paths are taken from the folder of the case file (nav_table_path). */
#ifndef NAV_TABLE_H
#define NAV_TABLE_H

#include <stddef.h>

typedef struct nav_table {
  int rows, ncol;
  double *v; /* rows x ncol, row-major */
} nav_table;

/* The path of `name` as seen from the case file `source` ("(default)" or a file path): name itself
 * when it is absolute or the case has no folder, else <folder of source>/name. */
void nav_table_path(const char *source, const char *name, char *buf, size_t n);

/* Read the table at path with exactly ncol columns and at least 2 rows. Returns 0, or -1 with the
 * reason (and the line) in why; t is empty on failure. Not collective. */
int nav_table_read(const char *path, int ncol, nav_table *t, char *why, size_t n);
void nav_table_free(nav_table *t);

/* Column col (>= 1) at x by linear interpolation in the first column; constant beyond the ends. */
double nav_table_at(const nav_table *t, int col, double x);

#endif
