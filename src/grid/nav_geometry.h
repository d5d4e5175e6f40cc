/* Block geometry: cell widths per direction and the nav_box of a block with its metric arrays.
 *
 * Widths are host arrays of the GLOBAL grid with one ghost cell each side, indexed -1..N
 * through a pointer to element 0 (nav_widths_alloc). Ghost widths mirror the first/last cell
 * (walls) or wrap (periodic), so the ghost value formulas of nav_ghost_kind are exact at the
 * boundary face. Coarse-grid widths are sums of two fine widths. */
#ifndef NAV_GEOMETRY_H
#define NAV_GEOMETRY_H

#include "backend/nav_kernels.h"

/* Host array of N+2 widths with w[-1] and w[N] valid; free with nav_widths_free. */
double *nav_widths_alloc(int N);
void nav_widths_free(double *w);
/* Set the ghost widths w[-1], w[N] from the interior (periodic: wrap, else mirror). */
void nav_widths_ghosts(double *w, int N, int periodic);
/* Coarse cell count of N fine cells: (N + 1) / 2. */
static inline int nav_coarse_count(int N) { return (N + 1) / 2; }
/* wc[I] = w[2I] + w[2I+1] (the last coarse cell of an odd N holds one fine cell), plus ghosts. */
void nav_widths_coarsen(const double *w, int N, int periodic, double *wc);

/* Create the box of a local block of n cells starting at global cell g0, in dim dimensions,
 * from the global widths w[d] (index -1..N valid); metric arrays are allocated with ops.
 * The block's ghost widths are the neighbouring global widths. Not collective. */
nav_err nav_box_create(const nav_kernel_ops *ops, int dim, const int n[3], const int g0[3], double *const w[3],
                       nav_box *b);
void nav_box_destroy(const nav_kernel_ops *ops, nav_box *b);
/* Layout only (n, g0, strides, sizes; no metric arrays): for host copies of fields. */
void nav_box_layout(int dim, const int n[3], const int g0[3], nav_box *b);

/* The cells lo[d]..hi[d]-1 of box b as a box of their own (a view: the same arrays seen from
 * cell lo, with off, g0 and the metric arrays shifted; nothing allocated, nothing to free).
 * A kernel on the part computes exactly what it computes on those cells of b. */
void nav_box_part(const nav_box *b, const int lo[3], const int hi[3], nav_box *part);
/* The cells of b as disjoint parts: the core (index 1..n-2 in every direction, so a 7-point
 * stencil there reads no ghost) and the shell around it, two slabs per direction. Returns the
 * number of shell parts (2 dim), or 0 when the core is empty (a direction with fewer than 3 cells). */
int nav_box_shell(const nav_box *b, nav_box shell[6], nav_box *core);

/* Volume of the block's interior (host computation from the global widths). */
double nav_box_volume(int dim, const int n[3], const int g0[3], double *const w[3]);

#endif
