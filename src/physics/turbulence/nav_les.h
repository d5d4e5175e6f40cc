/* LES: the eddy-viscosity closures Smagorinsky (with van Driest wall damping), WALE and Vreman, a
 * model of physics/nav_model.h ("les", key section [turbulence], model = smagorinsky | wale |
 * vreman). The formulas and their references are in backend/common/nav_point_les.h, the kernels in
 * the model's own table (backend/nav_les_kernels.h).
 *
 * Contract. The viscosity hook (after create, after every step, after a restart) writes nu_t of the
 * closure at the interior cells from the resolved velocity u^{n+1} (ghosts filled): the face
 * velocities' gradient at the cell centre (nav_point_gradient.h), the filter width Delta = (dx dy
 * dz)^(1/3) of the cell, nu_t >= 0; the solver fills nu_t's ghosts (zero normal gradient at walls:
 * the wall face sees the first cell's nu_t, which vanishes at the wall as (y+)^2 under the damping
 * for Smagorinsky, as y^3 for WALE) and the face viscosities nu + nu_t of the variable-viscosity
 * operators (explicit or implicit). nu_t is a function of u: it is not checkpoint state.
 *
 * Smagorinsky's damping: y is the distance from the cell centre to the nearest wall face of the box,
 * u_tau = sqrt(|tau_w| / rho) of that wall face with tau_w the mean over the face of nu du_t/dn (the
 * resolved wall shear at the current step, every tangential component; one reduction per step, left on
 * the device with u_tau on one rank of the CUDA backend: no host wait), so y+ = y u_tau / nu. Without
 * walls D = 1.
 *
 * Monitors (monitor.csv): dissipation_sgs, the modelled dissipation beside the resolved one: the energy
 * per unit time and volume that the discrete stress operator removes with nu_t, i.e. <2 nu_t S:S> with
 * the operator's face and edge viscosities and its centre and edge strains (backend/common/
 * nav_point_monitor.h; dissipation + dissipation_sgs = -(1/V) sum u . V(u) dV exactly); nut_max. summary.json "les":
 * the closure, its constant and the last nut_max, dissipation_sgs. Fields: "nut" (output, the channel profile's
 * nu_t/nu). */
#ifndef NAV_LES_H
#define NAV_LES_H

#include "physics/nav_model.h"

/* The model ([turbulence] model = smagorinsky | wale | vreman). */
extern const nav_model_ops nav_model_les;

#endif
