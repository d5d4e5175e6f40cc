/* Analytic solutions of the incompressible equations that the initial conditions, the inflow faces
 * and the validation share: physics, below the solvers and the output (no state, no backend). */
#ifndef NAV_ANALYTIC_H
#define NAV_ANALYTIC_H

#include "core/nav_config.h"

/* Analytic velocity of the initial condition at time t (taylor_green, abc, uniform, shear_wave, pulse,
 * kovasznay, poiseuille): *has = 0 if none. Not collective. */
void nav_flow_exact_velocity(const nav_config *cfg, int c, const double x[3], double t, double *value, int *has);

#endif
