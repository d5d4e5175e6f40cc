/* Point functions of Menter's k-omega SST model, the SST-2003 form of the NASA Turbulence Modeling
 * Resource (turbmodels.larc.nasa.gov/sst.html; ../shared/reference/sst_model.md section 3), for
 * incompressible flow (rho = 1, mu = nu), on the MAC grid of nav_box.h. k, omega, nu_t and the wall
 * distance d are cell-centred; the velocity lives on the faces.
 *
 *   dk/dt + div(u k) = P~ - beta* omega k + div((nu + sigma_k nu_t) grad k)
 *   dw/dt + div(u w) = gamma P~ / nu_t - beta w^2 + div((nu + sigma_w nu_t) grad w)
 *                      + 2 (1 - F1) sigma_w2 / w  grad k . grad w
 *   P = nu_t S^2 (exact for incompressible flow: the (2/3) k delta_ij part of tau_ij does no work,
 *   delta_ij du_i/dx_j = div u = 0), S = sqrt(2 S_ij S_ij),  P~ = min(P, 10 beta* omega k) in both
 *   equations,  nu_t = a1 k / max(a1 omega, S F2),
 *   F1 = tanh(arg1^4), arg1 = min(max(sqrt(k) / (beta* w d), 500 nu / (d^2 w)), 4 sigma_w2 k / (CD d^2)),
 *   CD = max(2 sigma_w2 grad k . grad w / w, 1e-10), F2 = tanh(arg2^2),
 *   arg2 = max(2 sqrt(k) / (beta* w d), 500 nu / (d^2 w)),
 *   phi = F1 phi_1 + (1 - F1) phi_2 for sigma_k, sigma_w, beta, gamma (gamma1 = 5/9, gamma2 = 0.44).
 *
 * Discretisation at the cell (p, ijk):
 *   velocity gradient G_cd = du_c/dx_d: d == c the difference of the two faces over the width; d != c
 *   the derivative of the cell-centre values (u_c at the two faces averaged) by nav_cell_gradient
 *   (second order on stretched grids; at a wall the mirror ghost of u_c makes it exact for a linear
 *   profile); grad k, grad w likewise from the cell values (ghosts filled).
 *   advection: first-order upwind in conservative form with the face velocities, split into the
 *   inflow part (explicit, q += |F| phi_neighbour / h) and the outflow part (implicit, c += |F| / h):
 *   with div u = 0 this keeps k, w positive for any step (nav_turbulence.h).
 * Each equation is returned as phi-rate = q - c phi + div(Gamma grad phi) with q >= 0, c >= 0 and the
 * diffusivity Gamma = nu + sigma nu_t at the cell: q holds the inflow advection, the limited
 * production and a positive cross-diffusion; c the outflow advection and the destruction
 * (beta* w for k, the Picard form beta w for w) and a negative cross-diffusion divided by w. */
#ifndef NAV_POINT_SST_H
#define NAV_POINT_SST_H

#include <math.h>

#include "backend/common/nav_hd.h"
#include "backend/common/nav_point_gradient.h"
#include "backend/nav_box.h"

#define NAV_SST_BETA_STAR ((nav_real)0.09)
#define NAV_SST_A1 ((nav_real)0.31)
#define NAV_SST_SIGMA_K1 ((nav_real)0.85)
#define NAV_SST_SIGMA_K2 ((nav_real)1.0)
#define NAV_SST_SIGMA_W1 ((nav_real)0.5)
#define NAV_SST_SIGMA_W2 ((nav_real)0.856)
#define NAV_SST_BETA1 ((nav_real)0.075)
#define NAV_SST_BETA2 ((nav_real)0.0828)
#define NAV_SST_GAMMA1 ((nav_real)(5.0 / 9.0))
#define NAV_SST_GAMMA2 ((nav_real)0.44)
#define NAV_SST_LIMITER ((nav_real)10)   /* P~ = min(P, 10 beta* omega k) (SST-2003) */
#define NAV_SST_CD_FLOOR ((nav_real)1e-10) /* CD_kw floor (SST-2003) */

/* Everything the model needs at one cell. */
typedef struct nav_sst_point {
  nav_real nut, f1, gk, gw; /* eddy viscosity, F1, diffusivities nu + sigma nu_t of k and omega */
  nav_real qk, qw, ck, cw;  /* explicit parts q >= 0 and implicit rates c >= 0 of k and omega */
} nav_sst_point;

/* phi = F1 phi_1 + (1 - F1) phi_2 */
NAV_HD static inline nav_real nav_sst_blend(nav_real f1, nav_real a, nav_real b) { return f1 * a + (1 - f1) * b; }

/* d q / dx_d at cell p (index i along d) of a cell-centred q (ghosts filled): the weighted mean of
 * the two one-sided differences, exact for quadratics on a stretched grid. */
NAV_HD static inline nav_real nav_cell_gradient(const nav_box *b, const nav_real *q, nav_idx p, int d, int i) {
  const nav_idx s = b->st[d];
  const nav_real rm = b->rdc[d][i], rp = b->rdc[d][i + 1]; /* 1 / centre distances below and above */
  const nav_real gm = (q[p] - q[p - s]) * rm, gp = (q[p + s] - q[p]) * rp;
  /* (hm gp + hp gm) / (hm + hp) with h = 1 / r */
  return (rp * gp + rm * gm) / (rm + rp);
}

/* S^2 = 2 S_ij S_ij of the velocity at the centre of cell (p, ijk) (nav_point_gradient.h); u needs filled
 * ghosts (edges too). */
NAV_HD static inline nav_real nav_sst_strain2(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk) {
  nav_real g[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  nav_velocity_gradient(b, u, p, ijk, g);
  nav_real s2 = 0;
  NAV_FOR_DIM(c, b) {
    NAV_FOR_DIM(d, b) {
      const nav_real sij = g[c][d] + g[d][c]; /* 2 S_cd */
      s2 += (nav_real)0.5 * sij * sij;
    }
  }
  return s2;
}

/* The model at cell (p, ijk) from u (faces), k, w (cells), all with filled ghosts, and the wall
 * distance d (> 0); k is read as max(k, 0) and w must be > 0. */
NAV_HD static inline nav_sst_point nav_sst_cell(const nav_box *b, const nav_real *const *u, const nav_real *k,
                                                const nav_real *w, const nav_real *wd, nav_real nu, nav_idx p,
                                                const int *ijk) {
  nav_sst_point r;
  const nav_real kp = k[p] > 0 ? k[p] : (nav_real)0, wp = w[p], d = wd[p];
  nav_real kw = 0, qk = 0, qw = 0, cadv = 0;
  NAV_FOR_DIM(e, b) {
    const int i = ijk[e];
    const nav_idx s = b->st[e];
    kw += nav_cell_gradient(b, k, p, e, i) * nav_cell_gradient(b, w, p, e, i);
    /* upwind advection: F at the low face (into the cell when > 0) and the high face (out when > 0) */
    const nav_real rf = b->rdf[e][i], flo = u[e][p] * rf, fhi = u[e][p + s] * rf;
    if (flo > 0) {
      qk += flo * k[p - s];
      qw += flo * w[p - s];
    } else {
      cadv -= flo;
    }
    if (fhi < 0) {
      qk -= fhi * k[p + s];
      qw -= fhi * w[p + s];
    } else {
      cadv += fhi;
    }
  }
  const nav_real sk = sqrt(kp), s2 = nav_sst_strain2(b, u, p, ijk), S = sqrt(s2);
  const nav_real cd = 2 * NAV_SST_SIGMA_W2 * kw / wp;
  const nav_real cdkw = cd > NAV_SST_CD_FLOOR ? cd : NAV_SST_CD_FLOOR;
  const nav_real visc = 500 * nu / (d * d * wp);
  const nav_real t1 = sk / (NAV_SST_BETA_STAR * wp * d);
  const nav_real a = t1 > visc ? t1 : visc, bnd = 4 * NAV_SST_SIGMA_W2 * kp / (cdkw * d * d);
  const nav_real arg1 = a < bnd ? a : bnd;
  const nav_real f1 = tanh(arg1 * arg1 * arg1 * arg1);
  const nav_real arg2 = 2 * t1 > visc ? 2 * t1 : visc;
  const nav_real f2 = tanh(arg2 * arg2);
  const nav_real den = NAV_SST_A1 * wp > S * f2 ? NAV_SST_A1 * wp : S * f2; /* nu_t = a1 k / den */
  const nav_real nut = NAV_SST_A1 * kp / den;
  const nav_real lim = NAV_SST_LIMITER * NAV_SST_BETA_STAR * wp;
  /* P~ = min(nu_t S^2, lim k) and P~ / nu_t = min(S^2, lim den / a1) (no division by nu_t at k = 0) */
  const nav_real pk = nut * s2 < lim * kp ? nut * s2 : lim * kp;
  const nav_real pw_nut = s2 < lim * den / NAV_SST_A1 ? s2 : lim * den / NAV_SST_A1;
  const nav_real beta = nav_sst_blend(f1, NAV_SST_BETA1, NAV_SST_BETA2);
  const nav_real gamma = nav_sst_blend(f1, NAV_SST_GAMMA1, NAV_SST_GAMMA2);
  r.nut = nut;
  r.f1 = f1;
  r.gk = nu + nav_sst_blend(f1, NAV_SST_SIGMA_K1, NAV_SST_SIGMA_K2) * nut;
  r.gw = nu + nav_sst_blend(f1, NAV_SST_SIGMA_W1, NAV_SST_SIGMA_W2) * nut;
  r.qk = qk + pk;
  r.ck = cadv + NAV_SST_BETA_STAR * wp;
  const nav_real cross = (1 - f1) * cd; /* 2 (1 - F1) sigma_w2 grad k . grad w / w */
  /* the destruction beta w^2 linearised about w^n (Newton: -beta w^2 ~ beta w_n^2 - 2 beta w_n w, so q gains
   * beta w_n^2 and c is 2 beta w_n): the same residual q - c w as the Picard form (c = beta w_n), but the implicit
   * step damps a deviation by 1 / (1 + 2 beta w dt) where the Picard form's factor (1 - beta w dt) / (1 + beta w dt)
   * tends to -1 at large steps (a two-step cycle that single precision did not damp) */
  r.qw = qw + gamma * pw_nut + (cross > 0 ? cross : (nav_real)0) + beta * wp * wp;
  r.cw = cadv + 2 * beta * wp + (cross < 0 ? -cross / wp : (nav_real)0);
  return r;
}

#endif
