/* Grid spacing of one direction from the [grid] keys: the n + 1 face coordinates and n widths.
 *
 * With L the length, x0 the origin, N the cell count and s = j / N (j = 0..N):
 *   uniform    w_i = L / N
 *   tanh       both: x_j = x0 + L/2 (1 + tanh(gamma (2 s - 1)) / tanh gamma)  (clustered at both ends)
 *              low:  x_j = x0 + L (1 + tanh(gamma (s - 1)) / tanh gamma)      (clustered at x0)
 *              high: x_j = x0 + L tanh(gamma s) / tanh gamma                  (clustered at x0 + L)
 *   geometric  w_i proportional to r^i (low: smallest at x0), r^(N-1-i) (high), or r^min(i, N-1-i)
 *              (both: smallest at both ends, largest in the middle), scaled to sum to L
 *   file       the N + 1 face coordinates read from a text file, one per line (blank lines and lines
 *              starting with '#' are skipped): strictly increasing, the first x0 and the last x0 + L
 *              (within 1e-10 L; they are then set to exactly x0 and x0 + L). A relative path is taken
 *              from the folder of the case file. tools/navier-grid writes such files (a uniform block
 *              with geometrically growing outer parts).
 * Not collective; the file is read by whoever calls (every rank: it is small). */
#ifndef NAV_SPACING_H
#define NAV_SPACING_H

#include <stddef.h>

#include "core/nav_config.h"

/* Faces xf[0..N] and widths w[0..N-1] of direction d (0..2) of cfg. Returns 0, or 1 with the reason in
 * why (n bytes; a face-file problem names the face file and its line). w[i] = xf[i+1] - xf[i] except
 * for uniform spacing, where w[i] = L / N exactly and xf is the running sum. */
int nav_spacing_faces(const nav_config *cfg, int d, double *xf, double *w, char *why, size_t n);

/* The path of direction d's face file as it is opened (relative to the case file's folder). */
void nav_spacing_path(const nav_config *cfg, int d, char *path, size_t n);

#endif
