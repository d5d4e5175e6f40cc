/* Point functions of the cell-centred pressure Poisson operator and its multigrid transfers.
 *
 *   (L x)_i = sum_d [ (x_{i+1} - x_i) / dc_{i+1} - (x_i - x_{i-1}) / dc_i ] / df_i
 * (5 points in 2D, 7 in 3D), the finite-volume Laplacian divided by the cell width. The same
 * operator in Helmholtz form (nav_box.h: shift sigma, coefficient k; implicit diffusion):
 *   (L x)_i = sum_d [ k_{i+1/2} (x_{i+1} - x_i) / dc_{i+1} - k_{i-1/2} (x_i - x_{i-1}) / dc_i ] / df_i
 *             - (sigma + s_i) x_i,      k_{i+1/2} = (k_i + k_{i+1}) / 2  (s: the variable shift, 0 unless set);
 * boundary
 * conditions enter through the ghost values (Neumann: mirror, Dirichlet: negative mirror,
 * periodic: wrap). L is symmetric in the volume-weighted inner product (x, y) = sum x y dV,
 * which every Krylov solver and norm of navier uses.
 *
 * Transfers between a fine block and the coarse block with half as many cells per direction (or the
 * same number in the directions the coarse box keeps, c->keep[d] = 1: semi-coarsening, one child):
 *   restriction: volume-weighted average of the 2^dim children (the residual of a finite-volume
 *                equation divided by volume);
 *   prolongation: (bi/tri)linear interpolation from the coarse centres to the fine centres, with
 *                weights from the actual spacing; coarse ghosts must hold the boundary values. */
#ifndef NAV_POINT_POISSON_H
#define NAV_POINT_POISSON_H

#include "backend/common/nav_hd.h"
#include "backend/common/nav_metric.h"
#include "backend/nav_box.h"

/* Coupling coefficients of cell i to its high and low neighbour along one direction:
 * ce = k_{i+1/2} / (dc_{i+1} df_i), cw = k_{i-1/2} / (dc_i df_i). The arithmetic of the Laplacian, the
 * relaxation and the transfers is in the field's type nav_field (nav_hd.h): nav_real, or float on the
 * mixed-precision multigrid's float levels (the metric values are converted as they are read).
 * NAV_LAP_SUM adds the terms of every direction and the shifts to lx (when WITH_X; x is not read
 * otherwise) and to the diagonal dg, in one order: nav_laplacian and nav_relax_from_zero. */
#define NAV_LAP_TERM(d, s, WITH_X)                                                                  \
  do {                                                                                              \
    const nav_field rf = (nav_field)nav_rdf(b, d, ijk[d]);                                          \
    nav_field ce = (nav_field)nav_rdc(b, d, ijk[d] + 1) * rf, cw = (nav_field)nav_rdc(b, d, ijk[d]) * rf; \
    if (b->kc) {                                                                                    \
      ce *= (nav_field)0.5 * (nav_field)(b->kc[p] + b->kc[p + (s)]);                                \
      cw *= (nav_field)0.5 * (nav_field)(b->kc[p] + b->kc[p - (s)]);                                \
    }                                                                                               \
    if (WITH_X) lx += ce * (x[p + (s)] - x[p]) - cw * (x[p] - x[p - (s)]);                          \
    dg -= ce + cw;                                                                                  \
  } while (0)
#define NAV_LAP_SUM(WITH_X)                                                                         \
  do {                                                                                              \
    NAV_LAP_TERM(0, 1, WITH_X);                                                                     \
    NAV_LAP_TERM(1, b->st[1], WITH_X);                                                              \
    if (b->dim == 3) NAV_LAP_TERM(2, b->st[2], WITH_X);                                             \
    if (b->shift != 0) {                                                                            \
      if (WITH_X) lx -= (nav_field)b->shift * x[p];                                                 \
      dg -= (nav_field)b->shift;                                                                    \
    }                                                                                               \
    if (b->sc) { /* the variable shift s(x) */                                                      \
      if (WITH_X) lx -= (nav_field)b->sc[p] * x[p];                                                 \
      dg -= (nav_field)b->sc[p];                                                                    \
    }                                                                                               \
  } while (0)

/* (L x) at cell (p, ijk); *diag receives the coefficient of x_p (negative). */
NAV_FIELD NAV_HD static inline nav_field nav_laplacian(const nav_box *b, const nav_field *x, nav_idx p,
                                                     const int *ijk, nav_field *diag) {
  nav_field lx = 0, dg = 0;
  NAV_LAP_SUM(1);
  *diag = dg;
  return lx;
}

/* The coefficient of x_p in (L x)_p (negative). */
NAV_HD static inline nav_real nav_laplacian_diagonal(const nav_box *b, nav_idx p, const int *ijk) {
  nav_real dg = 0;
  NAV_FOR_DIM(d, b) {
    const nav_real rf = nav_rdf(b, d, ijk[d]);
    if (!b->kc) {
      dg -= (nav_rdc(b, d, ijk[d] + 1) + nav_rdc(b, d, ijk[d])) * rf;
      continue;
    }
    const nav_real ce = nav_rdc(b, d, ijk[d] + 1) * rf * (nav_real)0.5 * (b->kc[p] + b->kc[p + b->st[d]]);
    const nav_real cw = nav_rdc(b, d, ijk[d]) * rf * (nav_real)0.5 * (b->kc[p] + b->kc[p - b->st[d]]);
    dg -= ce + cw;
  }
  return dg - b->shift - (b->sc ? b->sc[p] : (nav_real)0);
}

/* The relaxed value of a cell from its value xp, right-hand side rhsp, (L x) there and the diagonal dg:
 * xp + omega (rhsp - lx) / dg; nav_relax, nav_relax_from_zero and the CUDA wavefront sweep (which takes x
 * from shared memory) compute it here. */
NAV_FIELD NAV_HD static inline nav_field nav_relax_value(nav_field xp, nav_field rhsp, nav_field lx, nav_field dg,
                                                       nav_real omega) {
  return xp + (nav_field)omega * (rhsp - lx) / dg;
}

/* nav_relax_value with the stored inverse of the diagonal, inv = 1 / dg: xp + omega (rhsp - lx) inv. */
NAV_FIELD NAV_HD static inline nav_field nav_relax_value_inv(nav_field xp, nav_field rhsp, nav_field lx, nav_field inv,
                                                           nav_real omega) {
  return xp + (nav_field)omega * (rhsp - lx) * inv;
}

/* nav_relax (below) with the inverse diagonal given as one value inv: inv_diag[p], or a plain box's one value
 * (nav_box_plain: the diagonal is the same at every cell; the CPU's sweeps save the loads of inv_diag). */
NAV_FIELD NAV_HD static inline nav_field nav_relax_inv(const nav_box *b, const nav_field *x, const nav_field *rhs,
                                                     nav_field inv, nav_idx p, const int *ijk, nav_real omega) {
  nav_field dg;
  const nav_field lx = nav_laplacian(b, x, p, ijk, &dg);
  return nav_relax_value_inv(x[p], rhs[p], lx, inv, omega);
}

/* Gauss-Seidel/SOR update of cell p: x_p <- x_p + omega (b_p - (L x)_p) / diag_p, with the
 * stored inverse diagonal inv_diag_p = 1 / diag_p (a division per update costs more than the
 * load on a CPU), or, with inv_diag = NULL, the division by the stencil's own diagonal (equal to
 * round-off; the CUDA colour sweep is DRAM-bound and saves the load: 8 bytes per cell fewer). */
NAV_FIELD NAV_HD static inline nav_field nav_relax(const nav_box *b, const nav_field *x, const nav_field *rhs,
                                                 const nav_real *inv_diag, nav_idx p, const int *ijk, nav_real omega) {
  if (inv_diag) return nav_relax_inv(b, x, rhs, (nav_field)inv_diag[p], p, ijk, omega);
  nav_field dg;
  const nav_field lx = nav_laplacian(b, x, p, ijk, &dg);
  return nav_relax_value(x[p], rhs[p], lx, dg, omega);
}

/* nav_relax at a cell whose stencil holds zeros only (the first colour of a sweep from x = 0, where L x = 0):
 * its value there, 0 + omega (rhs_p - 0) / diag_p, in the same operations, without reading x (the CPU's
 * multigrid results came out bit for bit the same as with the zeros stored and relaxed). */
NAV_FIELD NAV_HD static inline nav_field nav_relax_from_zero(const nav_box *b, const nav_field *rhs,
                                                           const nav_real *inv_diag, nav_idx p, const int *ijk,
                                                           nav_real omega) {
  const nav_field zero = 0;
  if (inv_diag) return nav_relax_value_inv(zero, rhs[p], zero, (nav_field)inv_diag[p], omega);
  const nav_field *x = (const nav_field *)0; /* not read: NAV_LAP_SUM(0) */
  nav_field lx = 0, dg = 0;
  NAV_LAP_SUM(0);
  (void)x;
  (void)lx;
  return nav_relax_value(zero, rhs[p], zero, dg, omega);
}

/* Line solves along direction ld: one line of cells, cell p0 (ijk[ld] = 0) to p0 + (n - 1) st[ld]
 * with n = b->n[ld], the other indices of ijk fixed. T is the tridiagonal part of L on the line
 * (cw_i d_{i-1} + diag_i d_i + ce_i d_{i+1}; diag_i = the full diagonal of L, so the couplings to the
 * other lines are not part of T). The ends: kind +1, a Neumann boundary (ghost = x_0: d_ghost = d_0,
 * folded into the diagonal); -1, a homogeneous Dirichlet one (ghost = -x_0); 0, a ghost owned by a
 * neighbour rank or a periodic wrap (d_ghost = 0 here; nav_line_update adds the ghosts' part).
 * nav_line_solve solves T out = f by the Thomas algorithm (cp: scratch of the field layout) with
 *   mode 0: f_i = rhs_i - (L x)_i, the residual (out: the line Gauss-Seidel correction);
 *   mode 1: f = -cw_0 e_0, the response to a unit value of the low ghost's correction;
 *   mode 2: f = -ce_{n-1} e_{n-1}, the response to a unit high ghost;
 * and returns out at the first and last cell in ends[0], ends[1] (when ends is not NULL). ijk is
 * modified (ijk[ld] runs over the line). x is read in mode 0 only.
 *
 * Row i = ijk[ld] of the line system T out = f of nav_line_solve (cell p, line length n): *cw, *dg,
 * *ce receive its coefficients (the ends folded in: cw = 0 on the first row, ce = 0 on the last) and
 * the return value is f_i. The one place of the line equations: the Thomas solve below and the
 * partitioned solve of the CUDA backend (nav_point_line.h) both build their rows here. */
NAV_HD static inline nav_real nav_line_row(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_idx p,
                                           const int *ijk, int ld, int n, int lo_kind, int hi_kind, int mode,
                                           nav_real *cwo, nav_real *dgo, nav_real *ceo) {
  const nav_idx s = b->st[ld];
  const int i = ijk[ld];
  nav_real dg, f = 0;
  if (mode == 0)
    f = rhs[p] - nav_laplacian(b, x, p, ijk, &dg);
  else
    dg = nav_laplacian_diagonal(b, p, ijk);
  const nav_real rf = nav_rdf(b, ld, i);
  nav_real cw = nav_rdc(b, ld, i) * rf, ce = nav_rdc(b, ld, i + 1) * rf;
  if (b->kc) { /* Helmholtz coefficient k (the couplings of NAV_LAP_TERM) */
    cw *= (nav_real)0.5 * (b->kc[p] + b->kc[p - s]);
    ce *= (nav_real)0.5 * (b->kc[p] + b->kc[p + s]);
  }
  if (i == 0) {
    if (mode == 1 && lo_kind == 0) f = -cw;
    dg += (nav_real)lo_kind * cw;
    cw = 0;
  }
  if (i == n - 1) {
    if (mode == 2 && hi_kind == 0) f = -ce;
    dg += (nav_real)hi_kind * ce;
    ce = 0;
  }
  *cwo = cw;
  *dgo = dg;
  *ceo = ce;
  return f;
}

/* The Thomas solve of one line (the contract above). */
NAV_HD static inline void nav_line_solve(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp,
                                         nav_real *out, nav_idx p0, int *ijk, int ld, int lo_kind, int hi_kind,
                                         int mode, nav_real *ends) {
  const nav_idx s = b->st[ld];
  const int n = b->n[ld];
  nav_real cprev = 0, dprev = 0;
  for (int i = 0; i < n; i++) {
    ijk[ld] = i;
    const nav_idx p = p0 + i * s;
    nav_real cw, dg, ce;
    const nav_real f = nav_line_row(b, x, rhs, p, ijk, ld, n, lo_kind, hi_kind, mode, &cw, &dg, &ce);
    const nav_real inv = 1 / (dg - cw * cprev);
    cprev = ce * inv;
    dprev = (f - cw * dprev) * inv;
    cp[p] = cprev;
    out[p] = dprev;
  }
  nav_real next = 0;
  for (int i = n - 1; i >= 0; i--) {
    const nav_idx p = p0 + i * s;
    next = out[p] - cp[p] * next;
    out[p] = next;
  }
  if (ends) {
    ends[0] = out[p0];
    ends[1] = out[p0 + (n - 1) * s];
  }
}

/* Zebra line relaxation of one line (line Gauss-Seidel for omega = 1): d = T^-1 (rhs - L x) with the
 * ghosts' corrections 0 (nav_line_solve mode 0, d in dd), then x += omega d. */
NAV_HD static inline void nav_relax_line(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp,
                                         nav_real *dd, nav_idx p0, int *ijk, int ld, int lo_kind, int hi_kind,
                                         nav_real omega) {
  nav_line_solve(b, x, rhs, cp, dd, p0, ijk, ld, lo_kind, hi_kind, 0, (nav_real *)0);
  for (int i = 0; i < b->n[ld]; i++) x[p0 + i * b->st[ld]] += omega * dd[p0 + i * b->st[ld]];
}

/* A line split over ranks: the exact correction of the whole line is, on this rank's segment,
 * d = dd + alpha v + beta w (dd: mode 0 with zero ghosts, v and w: the unit responses of modes 1
 * and 2, alpha and beta: the corrections of the neighbour segments' adjacent cells, from the reduced
 * system of the segment ends; solvers/poisson/mg_line.c); x += omega d. */
NAV_HD static inline void nav_line_update_cell(nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                                               nav_real alpha, nav_real beta, nav_idx p, nav_real omega) {
  x[p] += omega * (dd[p] + alpha * v[p] + beta * w[p]);
}

NAV_HD static inline void nav_line_update(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v,
                                          const nav_real *w, nav_real alpha, nav_real beta, nav_idx p0, int ld,
                                          nav_real omega) {
  for (int i = 0; i < b->n[ld]; i++) nav_line_update_cell(x, dd, v, w, alpha, beta, p0 + i * b->st[ld], omega);
}

/* The two directions other than ld (in 2D the second is 2, of extent 1). */
NAV_HD static inline void nav_line_others(int ld, int *oa, int *ob) {
  *oa = ld == 0 ? 1 : 0;
  *ob = ld == 2 ? 1 : 2;
}

/* Volume of cell ijk. */
NAV_HD static inline nav_real nav_cell_volume(const nav_box *b, const int *ijk) {
  nav_real v = nav_df(b, 0, ijk[0]) * nav_df(b, 1, ijk[1]);
  return b->dim == 3 ? v * nav_df(b, 2, ijk[2]) : v;
}

/* Colour (0 red, 1 black) of a cell from its global index. */
NAV_HD static inline int nav_colour(const nav_box *b, const int *ijk) {
  return (b->g0[0] + ijk[0] + b->g0[1] + ijk[1] + (b->dim == 3 ? b->g0[2] + ijk[2] : 0)) & 1;
}

/* Restriction to coarse cell IJK of the fine field r (fine block f, coarse block c): the
 * volume-weighted average of its children, b_c = sum r dV / sum dV. The last coarse cell of an odd
 * fine count has one child in that direction, and so has every cell in a kept direction.
 * With x != NULL, r is the fine right-hand side b and each child's value is its residual b - L x,
 * computed here in the field's arithmetic as the residual kernels do (the residual then its
 * restriction, bit for bit, without the fine residual stored: residual_restrict). nav_restrict_cells with
 * inside = 1 where the caller knows that every child of IJK lies inside the fine block (none cut off by an odd
 * count): the tests skipped, the same value. */
NAV_FIELD NAV_HD static inline nav_field nav_restrict_cells(const nav_box *f, const nav_field *r, const nav_field *x,
                                                            const nav_box *c, const int *IJK, int inside) {
  nav_field sum = 0, vol = 0;
  const int kmax = f->dim == 3 && !c->keep[2] ? 2 : 1, jmax = c->keep[1] ? 1 : 2, imax = c->keep[0] ? 1 : 2;
  NAV_UNROLL for (int dk = 0; dk < 2; dk++)
    NAV_UNROLL for (int dj = 0; dj < 2; dj++)
      NAV_UNROLL for (int di = 0; di < 2; di++) {
        if (dk >= kmax || dj >= jmax || di >= imax) continue;
        const int ijk[3] = {c->keep[0] ? IJK[0] : 2 * IJK[0] + di, c->keep[1] ? IJK[1] : 2 * IJK[1] + dj,
                            f->dim != 3 ? 0 : c->keep[2] ? IJK[2] : 2 * IJK[2] + dk};
        if (!inside && (ijk[0] >= f->n[0] || ijk[1] >= f->n[1] || ijk[2] >= f->n[2])) continue;
        const nav_field dv = (nav_field)nav_cell_volume(f, ijk);
        const nav_idx p = f->off + ijk[0] * f->st[0] + ijk[1] * f->st[1] + ijk[2] * f->st[2];
        nav_field dg;
        const nav_field v = x ? r[p] - nav_laplacian(f, x, p, ijk, &dg) : r[p];
        sum += v * dv;
        vol += dv;
      }
  return sum / vol;
}

NAV_FIELD NAV_HD static inline nav_field nav_restrict(const nav_box *f, const nav_field *r, const nav_field *x,
                                                      const nav_box *c, const int *IJK) {
  return nav_restrict_cells(f, r, x, c, IJK, 0);
}

/* The (bi/tri)linear combination of the coarse values of block c around cell I: per direction d,
 * xc at I and at its neighbour I + step[d] with the weights 1 - w[d] and w[d]. */
NAV_FIELD NAV_HD static inline nav_field nav_interp_linear(const nav_box *c, const nav_field *xc, const int *I,
                                                         const int *step, const nav_real *w, int dim) {
  const nav_idx pc = c->off + I[0] * c->st[0] + I[1] * c->st[1] + I[2] * c->st[2];
  const nav_idx sx = step[0] * c->st[0], sy = step[1] * c->st[1];
  const nav_field wx = (nav_field)w[0], wy = (nav_field)w[1];
  nav_field v = (1 - wy) * ((1 - wx) * xc[pc] + wx * xc[pc + sx]) + wy * ((1 - wx) * xc[pc + sy] + wx * xc[pc + sx + sy]);
  if (dim == 3) {
    const nav_idx sz = step[2] * c->st[2];
    const nav_field wz = (nav_field)w[2];
    const nav_field v2 = (1 - wy) * ((1 - wx) * xc[pc + sz] + wx * xc[pc + sx + sz]) +
                        wy * ((1 - wx) * xc[pc + sy + sz] + wx * xc[pc + sx + sy + sz]);
    v = (1 - wz) * v + wz * v2;
  }
  return v;
}

/* Linear interpolation of the coarse field xc (coarse block c, ghosts filled) at the centre of
 * fine cell ijk (fine block f). Per direction the fine centre lies between its parent I and the
 * neighbour I -/+ 1 (even/odd fine index); the neighbour's weight is the distance between the
 * parent's and the fine centre, (W_I - w_i) / 2, over the coarse centre distance (1/4 on uniform
 * spacing; 0 for a lone child, whose centre is the parent's, as in a direction the coarse box keeps). */
NAV_FIELD NAV_HD static inline nav_field nav_prolong(const nav_box *c, const nav_field *xc, const nav_box *f,
                                                   const int *ijk) {
  int I[3] = {0, 0, 0}, step[3] = {0, 0, 0};
  nav_real w[3] = {0, 0, 0};
  NAV_FOR_DIM(d, f) {
    if (c->keep[d]) {
      I[d] = ijk[d];
      step[d] = 1;
      continue;
    }
    const int i = ijk[d], parent = i >> 1;
    I[d] = parent;
    step[d] = (i & 1) ? 1 : -1;
    w[d] = (nav_real)0.5 * (nav_df(c, d, parent) - nav_df(f, d, i)) * nav_rdc(c, d, (i & 1) ? parent + 1 : parent);
  }
  return nav_interp_linear(c, xc, I, step, w, f->dim);
}

#endif
