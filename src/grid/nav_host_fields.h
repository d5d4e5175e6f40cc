/* Host copies of the fields of the GLOBAL grid (gathered on rank 0 by io/nav_validation.h's
 * nav_host_fields_fetch) and their interpolation at a point: what the validation, the output and the
 * models' end-of-run reports (the no-slip error and the wake of immersed bodies) read. */
#ifndef NAV_HOST_FIELDS_H
#define NAV_HOST_FIELDS_H

#include "backend/nav_box.h"

typedef struct nav_host_fields {
  nav_box box;          /* layout of the GLOBAL grid (no metric arrays) */
  nav_real *u[3], *p;   /* host copies of the global fields on rank 0, ghosts included (filled as
                           one block would have them); NULL on the other ranks */
  nav_real *T;          /* the temperature likewise (NULL without one) */
  nav_real *open[3][3]; /* the plane arrays of inflow and outflow faces likewise (solvers/nav_open.h) */
} nav_host_fields;

/* Position along d of the point i (ghosts -1 and n[d] included) of the global grid of n[d] cells, face
 * coordinates xf[d][0..n] and widths w[d][-1..n]: the face i if staggered, else the centre of cell i. */
double nav_host_coord(const int *n, double *const *xf, double *const *w, int d, int i, int staggered);
/* Value of the staggered component c (c < 0: pressure) of h at position x by bilinear/trilinear
 * interpolation between the points that surround it (ghosts included), on the global grid of dim
 * directions as nav_host_coord's. Not collective. */
double nav_host_interpolate_grid(int dim, const int *n, double *const *xf, double *const *w,
                                 const nav_host_fields *h, int c, const double x[3]);

#endif
