/* Point functions of the flow equations on the MAC grid (see nav_box.h for the layout).
 *
 * Incompressible Navier-Stokes, constant density 1:
 *   du_c/dt = N_c(u) - d p / d x_c,   N_c(u) = - sum_d d(u_d u_c)/dx_d + nu lap u_c,   div u = 0.
 * Second-order finite volumes on the staggered grid:
 *   - advection in divergence form, energy conserving on uniform grids: products of
 *     interpolated velocities at the faces of the u_c control volume;
 *   - diffusion: second differences with the spacing of the control volume of u_c;
 *   - divergence at cell centres and pressure gradient at faces are adjoint, so that
 *     div(grad p) is exactly the cell-centred Laplacian of nav_point_poisson.h.
 * Every function takes the point's linear index p and its local indices ijk. */
#ifndef NAV_POINT_FLOW_H
#define NAV_POINT_FLOW_H

#include "backend/common/nav_hd.h"
#include "backend/common/nav_metric.h"
#include "backend/nav_box.h"

/* Second difference along d of a quantity CENTRED in d (cell-centred in d), at local index i:
 *   [ (q_{i+1} - q_i) / dc_{i+1} - (q_i - q_{i-1}) / dc_i ] / df_i */
NAV_HD static inline nav_real nav_d2_centred(const nav_real *q, nav_idx p, nav_idx s, const nav_box *b, int d, int i) {
  return ((q[p + s] - q[p]) * nav_rdc(b, d, i + 1) - (q[p] - q[p - s]) * nav_rdc(b, d, i)) * nav_rdf(b, d, i);
}

/* Second difference along d of a quantity on the FACES of d (staggered in d), at face i:
 *   [ (q_{i+1} - q_i) / df_i - (q_i - q_{i-1}) / df_{i-1} ] / dc_i */
NAV_HD static inline nav_real nav_d2_face(const nav_real *q, nav_idx p, nav_idx s, const nav_box *b, int d, int i) {
  return ((q[p + s] - q[p]) * nav_rdf(b, d, i) - (q[p] - q[p - s]) * nav_rdf(b, d, i - 1)) * nav_rdc(b, d, i);
}

/* A_c = sum_d d(u_d u_c)/dx_d, the advection of component c at the face point (p, ijk). */
NAV_HD static inline nav_real nav_advection(const nav_box *b, int c, const nav_real *const *u, nav_idx p,
                                            const int *ijk) {
  const nav_real *uc = u[c];
  const nav_idx sc = b->st[c];
  const int ic = ijk[c];
  nav_real adv = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int id = ijk[d];
    if (d == c) {
      /* flux u_c u_c at the cell centres either side of face ic */
      const nav_real hi = (nav_real)0.5 * (uc[p] + uc[p + sc]);
      const nav_real lo = (nav_real)0.5 * (uc[p - sc] + uc[p]);
      adv += (hi * hi - lo * lo) * nav_rdc(b, c, ic);
    } else {
      /* flux u_d u_c at the edges (face ic in c) x (faces id, id+1 in d) */
      const nav_real *ud = u[d];
      const nav_real wc = nav_wf(b, c, ic);
      const nav_real wlo = nav_wf(b, d, id), whi = nav_wf(b, d, id + 1);
      const nav_real ud_hi = (1 - wc) * ud[p - sc + sd] + wc * ud[p + sd];
      const nav_real ud_lo = (1 - wc) * ud[p - sc] + wc * ud[p];
      const nav_real uc_hi = (1 - whi) * uc[p] + whi * uc[p + sd];
      const nav_real uc_lo = (1 - wlo) * uc[p - sd] + wlo * uc[p];
      adv += (ud_hi * uc_hi - ud_lo * uc_lo) * nav_rdf(b, d, id);
    }
  }
  return adv;
}

/* lap u_c at the face point (p, ijk) of component c: second differences with the spacing of the u_c control
 * volume. */
NAV_HD static inline nav_real nav_laplacian_face(const nav_box *b, int c, const nav_real *const *u, nav_idx p,
                                                 const int *ijk) {
  const nav_real *uc = u[c];
  nav_real lap = 0;
  NAV_FOR_DIM(d, b) {
    if (d == c)
      lap += nav_d2_face(uc, p, b->st[c], b, c, ijk[c]);
    else
      lap += nav_d2_centred(uc, p, b->st[d], b, d, ijk[d]);
  }
  return lap;
}

/* N_c = -A_c + nu lap u_c at the face point (p, ijk) of component c. */
NAV_HD static inline nav_real nav_momentum_rhs(const nav_box *b, int c, const nav_real *const *u, nav_real nu,
                                               nav_idx p, const int *ijk) {
  return nu * nav_laplacian_face(b, c, u, p, ijk) - nav_advection(b, c, u, p, ijk);
}

/* The variable-step AB2 update of one point (nav_flow.h): u + (a N + c N_old); with old = 0 (the
 * first step, forward Euler) u + a N, and n_old is not used. */
NAV_HD static inline nav_real nav_ab2(nav_real u, nav_real a, nav_real n, nav_real c, nav_real n_old, int old) {
  return old ? u + (a * n + c * n_old) : u + a * n;
}

/* Discrete divergence at cell (p, ijk): sum_d (u_d[i+1] - u_d[i]) / df_i. */
NAV_HD static inline nav_real nav_divergence(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk) {
  nav_real div = 0;
  NAV_FOR_DIM(d, b) div += (u[d][p + b->st[d]] - u[d][p]) * nav_rdf(b, d, ijk[d]);
  return div;
}

/* Pressure gradient in direction c at the face (p, ijk) of component c: (p_i - p_{i-1}) / dc_i. */
NAV_HD static inline nav_real nav_gradient(const nav_box *b, int c, const nav_real *q, nav_idx p, const int *ijk) {
  return (q[p] - q[p - b->st[c]]) * nav_rdc(b, c, ijk[c]);
}

/* Advective and diffusive inverse time scales at cell (p, ijk), for the time-step limits:
 *   adv  = sum_d |u_d at the centre| / df_d,   diff = sum_d 1 / df_d^2. */
NAV_HD static inline nav_real nav_advective_rate(const nav_box *b, const nav_real *const *u, nav_idx p,
                                                 const int *ijk) {
  nav_real r = 0;
  NAV_FOR_DIM(d, b) {
    nav_real uc = (nav_real)0.5 * (u[d][p] + u[d][p + b->st[d]]);
    r += (uc < 0 ? -uc : uc) * nav_rdf(b, d, ijk[d]);
  }
  return r;
}

NAV_HD static inline nav_real nav_diffusive_rate(const nav_box *b, const int *ijk) {
  nav_real r = 0;
  NAV_FOR_DIM(d, b) r += nav_rdf(b, d, ijk[d]) * nav_rdf(b, d, ijk[d]);
  return r;
}

/* Linear extrapolation in time from the values x^{n-1}, x^n of two steps to the next: x^n + r (x^n - x^{n-1}),
 * r = dt^{n+1} / dt^n (ops->extrapolate). */
NAV_HD static inline nav_real nav_extrapolated(nav_real x, nav_real x_old, nav_real r) { return x + r * (x - x_old); }

/* Volume of the control volume of the point ijk, staggered in direction c (c < 0: cell). */
NAV_HD static inline nav_real nav_volume(const nav_box *b, int c, const int *ijk) {
  nav_real v = 1;
  NAV_FOR_DIM(d, b) {
    v *= (d == c) ? (nav_real)0.5 * (nav_df(b, d, ijk[d] - 1) + nav_df(b, d, ijk[d])) : nav_df(b, d, ijk[d]);
  }
  return v;
}

#endif
