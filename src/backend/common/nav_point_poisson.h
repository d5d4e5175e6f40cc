/* Point functions of the cell-centred pressure Poisson operator and its multigrid transfers.
 *
 *   (L x)_i = sum_d [ (x_{i+1} - x_i) / dc_{i+1} - (x_i - x_{i-1}) / dc_i ] / df_i
 * (5 points in 2D, 7 in 3D), the finite-volume Laplacian divided by the cell width. The same
 * operator in Helmholtz form (nav_box.h: shift sigma, coefficient k; implicit diffusion):
 *   (L x)_i = sum_d [ k_{i+1/2} (x_{i+1} - x_i) / dc_{i+1} - k_{i-1/2} (x_i - x_{i-1}) / dc_i ] / df_i
 *             - sigma x_i,      k_{i+1/2} = (k_i + k_{i+1}) / 2;
 * boundary
 * conditions enter through the ghost values (Neumann: mirror, Dirichlet: negative mirror,
 * periodic: wrap). L is symmetric in the volume-weighted inner product (x, y) = sum x y dV,
 * which every Krylov solver and norm of navier uses.
 *
 * Transfers between a fine block and the coarse block with half as many cells per direction:
 *   restriction: volume-weighted average of the 2^dim children (the residual of a finite-volume
 *                equation divided by volume);
 *   prolongation: (bi/tri)linear interpolation from the coarse centres to the fine centres, with
 *                weights from the actual spacing; coarse ghosts must hold the boundary values. */
#ifndef NAV_POINT_POISSON_H
#define NAV_POINT_POISSON_H

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"

/* Coupling coefficients of cell i to its high and low neighbour along one direction:
 * ce = k_{i+1/2} / (dc_{i+1} df_i), cw = k_{i-1/2} / (dc_i df_i). */
#define NAV_LAP_TERM(d, s)                                                                          \
  do {                                                                                              \
    const nav_real rf = b->rdf[d][ijk[d]];                                                          \
    nav_real ce = b->rdc[d][ijk[d] + 1] * rf, cw = b->rdc[d][ijk[d]] * rf;                          \
    if (b->kc) {                                                                                    \
      ce *= (nav_real)0.5 * (b->kc[p] + b->kc[p + (s)]);                                            \
      cw *= (nav_real)0.5 * (b->kc[p] + b->kc[p - (s)]);                                            \
    }                                                                                               \
    lx += ce * (x[p + (s)] - x[p]) - cw * (x[p] - x[p - (s)]);                                      \
    dg -= ce + cw;                                                                                  \
  } while (0)

/* (L x) at cell (p, ijk); *diag receives the coefficient of x_p (negative). */
NAV_HD static inline nav_real nav_laplacian(const nav_box *b, const nav_real *x, nav_idx p, const int *ijk,
                                            nav_real *diag) {
  nav_real lx = 0, dg = 0;
  NAV_LAP_TERM(0, 1);
  NAV_LAP_TERM(1, b->st[1]);
  if (b->dim == 3) NAV_LAP_TERM(2, b->st[2]);
  if (b->shift != 0) {
    lx -= b->shift * x[p];
    dg -= b->shift;
  }
  *diag = dg;
  return lx;
}

/* The coefficient of x_p in (L x)_p (negative). */
NAV_HD static inline nav_real nav_laplacian_diagonal(const nav_box *b, nav_idx p, const int *ijk) {
  nav_real dg = 0;
  NAV_FOR_DIM(d, b) {
    const nav_real rf = b->rdf[d][ijk[d]];
    if (!b->kc) {
      dg -= (b->rdc[d][ijk[d] + 1] + b->rdc[d][ijk[d]]) * rf;
      continue;
    }
    const nav_real ce = b->rdc[d][ijk[d] + 1] * rf * (nav_real)0.5 * (b->kc[p] + b->kc[p + b->st[d]]);
    const nav_real cw = b->rdc[d][ijk[d]] * rf * (nav_real)0.5 * (b->kc[p] + b->kc[p - b->st[d]]);
    dg -= ce + cw;
  }
  return dg - b->shift;
}

/* Gauss-Seidel/SOR update of cell p: x_p <- x_p + omega (b_p - (L x)_p) / diag_p, with the
 * stored inverse diagonal inv_diag_p = 1 / diag_p (a division per update costs more than the
 * load). */
NAV_HD static inline nav_real nav_relax(const nav_box *b, const nav_real *x, const nav_real *rhs,
                                        const nav_real *inv_diag, nav_idx p, const int *ijk, nav_real omega) {
  nav_real dg;
  const nav_real lx = nav_laplacian(b, x, p, ijk, &dg);
  return x[p] + omega * (rhs[p] - lx) * inv_diag[p];
}

/* Volume of cell ijk. */
NAV_HD static inline nav_real nav_cell_volume(const nav_box *b, const int *ijk) {
  nav_real v = b->df[0][ijk[0]] * b->df[1][ijk[1]];
  return b->dim == 3 ? v * b->df[2][ijk[2]] : v;
}

/* Colour (0 red, 1 black) of a cell from its global index. */
NAV_HD static inline int nav_colour(const nav_box *b, const int *ijk) {
  return (b->g0[0] + ijk[0] + b->g0[1] + ijk[1] + (b->dim == 3 ? b->g0[2] + ijk[2] : 0)) & 1;
}

/* Restriction to coarse cell IJK of the fine field r (fine block f): the volume-weighted
 * average of its children, b_c = sum r dV / sum dV. The last coarse cell of an odd fine count
 * has one child in that direction. */
NAV_HD static inline nav_real nav_restrict(const nav_box *f, const nav_real *r, const int *IJK) {
  nav_real sum = 0, vol = 0;
  const int kmax = f->dim == 3 ? 2 : 1;
  for (int dk = 0; dk < kmax; dk++)
    for (int dj = 0; dj < 2; dj++)
      for (int di = 0; di < 2; di++) {
        const int ijk[3] = {2 * IJK[0] + di, 2 * IJK[1] + dj, f->dim == 3 ? 2 * IJK[2] + dk : 0};
        if (ijk[0] >= f->n[0] || ijk[1] >= f->n[1] || ijk[2] >= f->n[2]) continue;
        const nav_real dv = nav_cell_volume(f, ijk);
        sum += r[f->off + ijk[0] * f->st[0] + ijk[1] * f->st[1] + ijk[2] * f->st[2]] * dv;
        vol += dv;
      }
  return sum / vol;
}

/* Linear interpolation of the coarse field xc (coarse block c, ghosts filled) at the centre of
 * fine cell ijk (fine block f). Per direction the fine centre lies between its parent I and the
 * neighbour I -/+ 1 (even/odd fine index); the neighbour's weight is the distance between the
 * parent's and the fine centre, (W_I - w_i) / 2, over the coarse centre distance (1/4 on uniform
 * spacing; 0 for a lone child, whose centre is the parent's). */
NAV_HD static inline nav_real nav_prolong(const nav_box *c, const nav_real *xc, const nav_box *f, const int *ijk) {
  int I[3] = {0, 0, 0}, step[3] = {0, 0, 0};
  nav_real w[3] = {0, 0, 0};
  NAV_FOR_DIM(d, f) {
    const int i = ijk[d], parent = i >> 1;
    I[d] = parent;
    step[d] = (i & 1) ? 1 : -1;
    w[d] = (nav_real)0.5 * (c->df[d][parent] - f->df[d][i]) * c->rdc[d][(i & 1) ? parent + 1 : parent];
  }
  const nav_idx pc = c->off + I[0] * c->st[0] + I[1] * c->st[1] + I[2] * c->st[2];
  const nav_idx sx = step[0] * c->st[0], sy = step[1] * c->st[1];
  const nav_real wx = w[0], wy = w[1];
  nav_real v = (1 - wy) * ((1 - wx) * xc[pc] + wx * xc[pc + sx]) + wy * ((1 - wx) * xc[pc + sy] + wx * xc[pc + sx + sy]);
  if (f->dim == 3) {
    const nav_idx sz = step[2] * c->st[2];
    const nav_real wz = w[2];
    const nav_real v2 = (1 - wy) * ((1 - wx) * xc[pc + sz] + wx * xc[pc + sx + sz]) +
                        wy * ((1 - wx) * xc[pc + sy + sz] + wx * xc[pc + sx + sy + sz]);
    v = (1 - wz) * v + wz * v2;
  }
  return v;
}

#endif
