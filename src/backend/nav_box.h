/* nav_box: the geometry of one local block of cells as the kernels see it.
 *
 * Storage: every field of a block (cell-centred or staggered) is one array of
 * (n0+2) x (n1+2) x (n2+2) points (n2+2 -> 1 in 2D) with one ghost layer, x fastest.
 * Point (i,j,k), i in [-1, n0], has linear index  off + i*st[0] + j*st[1] + k*st[2].
 *
 * MAC staggering: for velocity component c, point (i,j,k) is the face on the LOW side of
 * cell (i,j,k) in direction c (x_{i-1/2} for u). Owned faces are 0..n-1, like cells; the slot
 * n holds the high boundary face (or the neighbour's first face).
 *
 * Metric arrays (backend memory, one per direction d, valid for the index ranges given):
 *   df[d][i]  = width of cell i,                            i = -1..n   (ghost cells mirrored
 *                                                                       or wrapped)
 *   rdf[d][i] = 1 / df[d][i]
 *   rdc[d][i] = 1 / (centre_i - centre_{i-1}), across face i, i = 0..n
 *   wf[d][i]  = (face_i - centre_{i-1}) / (centre_i - centre_{i-1}), i = 0..n: a cell-centred
 *               q at face i is (1 - wf) q_{i-1} + wf q_i   (1/2 on uniform spacing)
 * No operator assumes constant spacing. g0 is the global index of local cell 0 (the colour of
 * red-black sweeps is the parity of the global index).
 *
 * Helmholtz form of the cell-centred operator of nav_point_poisson.h (implicit diffusion):
 *   shift = sigma >= 0 subtracts sigma x from L x;
 *   kc    = a cell-centred coefficient k (backend memory, same layout as the fields, ghosts
 *           filled): the flux through the face between cells i and i+1 is weighted by
 *           (k_i + k_{i+1}) / 2; NULL means k = 1.
 *   sc    = a cell-centred shift s(x) >= 0 subtracted as s x on top of sigma x (the linearised sink terms
 *           of the turbulence equations, nav_turbulence.h); NULL means none.
 * All are 0 / NULL (the plain Laplacian) except on the levels of an implicit diffusion solve. */
#ifndef NAV_BOX_H
#define NAV_BOX_H

#include "navier/nav_types.h"

typedef struct nav_box {
  int dim;               /* 2 or 3 */
  int n[3];              /* interior cells; n[2] = 1 in 2D */
  int g0[3];             /* global index of local cell (0,0,0) */
  nav_idx st[3];         /* strides; st[2] = 0 in 2D */
  nav_idx off;           /* linear index of cell (0,0,0) */
  nav_idx ntot;          /* points in one array, ghosts included */
  int keep[3];           /* multigrid coarse levels: 1 if direction d was not coarsened from the finer level
                            (semi-coarsening: one child per cell in d), 0 if cells were paired (the default) */
  const nav_real *df[3];
  const nav_real *rdf[3];
  const nav_real *rdc[3];
  const nav_real *wf[3];
  /* A direction of uniform width (every width of the block, its ghosts included, bit for bit the same):
   * udf[d] > 0 is that width and urdf[d], urdc[d] are the values of rdf[d], rdc[d]; the Poisson
   * operator's point functions take these instead of loading the arrays (nav_point_poisson.h: on the GPU
   * they are kernel parameters, no loads and no conversions per cell). 0 in a non-uniform direction. */
  nav_real udf[3], urdf[3], urdc[3];
  int uniform;           /* every direction uniform (udf[d] > 0, d < dim): a CUDA kernel that sets it on its own copy of
                            the box resolves nav_rdf & co. at compile time (backend/cuda/cuda_kernels.h) */
  nav_real shift;        /* Helmholtz shift sigma (0: none) */
  const nav_real *kc;    /* Helmholtz coefficient k at the cells (NULL: 1) */
  const nav_real *sc;    /* a variable Helmholtz shift s >= 0 at the cells, added to sigma (NULL: none) */
  int lo;                /* 1: the multigrid fields of this block (x, rhs, r of a level) are float, not nav_real
                            (the mixed-precision multigrid of a device backend, solvers/poisson/mg.c); the
                            metric arrays stay nav_real. 0 everywhere else */
} nav_box;

#endif
