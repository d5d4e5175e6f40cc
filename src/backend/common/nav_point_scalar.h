/* Point functions of a transported cell-centred scalar (the temperature) and of the Boussinesq
 * body force, on the MAC grid of nav_box.h.
 *
 * Advection-diffusion in conservative form, second-order finite volumes on the cell (p, ijk):
 *   S(T) = - sum_d [ (u_d T)_{i+1/2} - (u_d T)_{i-1/2} ] / df_i + kappa sum_d d2 T / dx_d^2,
 * the flux with the face velocity u_d (the MAC unknown itself) and the face value of T
 * interpolated between the centres with the box weights wf (central: energy conserving on
 * uniform grids); diffusion with nav_d2_centred (the spacing of the box, no constant h).
 * With an eddy viscosity nu_t (LES closures: physics/heat, physics/turbulence) the diffusion is
 *   sum_d [ k_{i+1/2} (T_{i+1} - T_i) / dc_{i+1} - k_{i-1/2} (T_i - T_{i-1}) / dc_i ] / df_i,
 *   k = kappa + nu_t,face / Pr_t,
 * nu_t,face interpolated from the cells with wf exactly as the viscous operator's face viscosity
 * (nav_face_viscosity, nav_point_viscous.h), and no eddy part on the non-periodic faces of the
 * global grid (walls, inflow, outflow): the heat flux there is kappa dT/dn, as the temperature's
 * boundaries impose it and the Nusselt monitor measures it.  * Boussinesq force on the face (p, ijk) of component c: -b_c (T_face - T_ref), T_face
 * interpolated with wf[c] between the cells either side of the face. */
#ifndef NAV_POINT_SCALAR_H
#define NAV_POINT_SCALAR_H

#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_viscous.h"

/* The eddy diffusivity nu_t,face / Pr_t (rprt = 1 / Pr_t) of the face on the side hi (0: low, 1: high)
 * along d of cell (p, ijk); nut cell-centred with filled ghosts. bnd as in nav_point_monitor.h: bit d
 * (bit 3 + d) when the block's high (low) side along d is a non-periodic face of the global grid, where
 * the eddy diffusivity is 0. */
NAV_HD static inline nav_real nav_eddy_diffusivity(const nav_box *b, int d, int hi, const nav_real *nut, nav_real rprt,
                                                   int bnd, nav_idx p, const int *ijk) {
  const int i = ijk[d] + hi;
  if ((i == 0 && ((bnd >> (3 + d)) & 1)) || (i == b->n[d] && ((bnd >> d) & 1))) return 0;
  int f[3] = {ijk[0], ijk[1], ijk[2]};
  f[d] = i;
  return rprt * nav_face_viscosity(b, d, 0, nut, p + hi * b->st[d], f);
}

/* S(T) at cell (p, ijk); u and T need filled ghosts (face slots n included). nut == NULL: the constant
 * diffusivity kappa (rprt and bnd unused); else kappa + the eddy diffusivity of nut (nav_eddy_diffusivity). */
NAV_HD static inline nav_real nav_scalar_rhs(const nav_box *b, const nav_real *const *u, const nav_real *T,
                                             nav_real kappa, const nav_real *nut, nav_real rprt, int bnd,
                                             nav_idx p, const int *ijk) {
  nav_real adv = 0, lap = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int i = ijk[d];
    const nav_real wlo = b->wf[d][i], whi = b->wf[d][i + 1];
    const nav_real t_lo = (1 - wlo) * T[p - sd] + wlo * T[p];
    const nav_real t_hi = (1 - whi) * T[p] + whi * T[p + sd];
    adv += (u[d][p + sd] * t_hi - u[d][p] * t_lo) * b->rdf[d][i];
    if (nut) { /* the fluxes k (dT/dx_d) through the faces i+1/2 and i-1/2 */
      const nav_real khi = kappa + nav_eddy_diffusivity(b, d, 1, nut, rprt, bnd, p, ijk);
      const nav_real klo = kappa + nav_eddy_diffusivity(b, d, 0, nut, rprt, bnd, p, ijk);
      lap += (khi * (T[p + sd] - T[p]) * nav_rdc(b, d, i + 1) - klo * (T[p] - T[p - sd]) * nav_rdc(b, d, i)) *
             nav_rdf(b, d, i);
    } else {
      lap += nav_d2_centred(T, p, sd, b, d, i);
    }
  }
  return nut ? lap - adv : kappa * lap - adv;
}

/* The body force -b_c (T_face - T_ref) at the face (p, ijk) of component c. */
NAV_HD static inline nav_real nav_buoyancy(const nav_box *b, int c, const nav_real *T, nav_real bc, nav_real t_ref,
                                           nav_idx p, const int *ijk) {
  const nav_real w = b->wf[c][ijk[c]];
  return -bc * ((1 - w) * T[p - b->st[c]] + w * T[p] - t_ref);
}

#endif
