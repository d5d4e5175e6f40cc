/* Point functions of a transported cell-centred scalar (the temperature) and of the Boussinesq
 * body force, on the MAC grid of nav_box.h.
 *
 * Advection-diffusion in conservative form, second-order finite volumes on the cell (p, ijk):
 *   S(T) = - sum_d [ (u_d T)_{i+1/2} - (u_d T)_{i-1/2} ] / df_i + kappa sum_d d2 T / dx_d^2,
 * the flux with the face velocity u_d (the MAC unknown itself) and the face value of T
 * interpolated between the centres with the box weights wf (central: energy conserving on
 * uniform grids); diffusion with nav_d2_centred (the spacing of the box, no constant h).
 * Boussinesq force on the face (p, ijk) of component c: -b_c (T_face - T_ref), T_face
 * interpolated with wf[c] between the cells either side of the face. */
#ifndef NAV_POINT_SCALAR_H
#define NAV_POINT_SCALAR_H

#include "backend/common/nav_point_flow.h"

/* S(T) at cell (p, ijk); u and T need filled ghosts (face slots n included). */
NAV_HD static inline nav_real nav_scalar_rhs(const nav_box *b, const nav_real *const *u, const nav_real *T,
                                             nav_real kappa, nav_idx p, const int *ijk) {
  nav_real adv = 0, lap = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int i = ijk[d];
    const nav_real wlo = b->wf[d][i], whi = b->wf[d][i + 1];
    const nav_real t_lo = (1 - wlo) * T[p - sd] + wlo * T[p];
    const nav_real t_hi = (1 - whi) * T[p] + whi * T[p + sd];
    adv += (u[d][p + sd] * t_hi - u[d][p] * t_lo) * b->rdf[d][i];
    lap += nav_d2_centred(T, p, sd, b, d, i);
  }
  return kappa * lap - adv;
}

/* The body force -b_c (T_face - T_ref) at the face (p, ijk) of component c. */
NAV_HD static inline nav_real nav_buoyancy(const nav_box *b, int c, const nav_real *T, nav_real bc, nav_real t_ref,
                                           nav_idx p, const int *ijk) {
  const nav_real w = b->wf[c][ijk[c]];
  return -bc * ((1 - w) * T[p - b->st[c]] + w * T[p] - t_ref);
}

#endif
