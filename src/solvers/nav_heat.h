/* The temperature of Boussinesq flows: its set-up (boundaries, initial field), the analytic
 * field of the advection-diffusion verification, and the convection monitors.
 *
 * The temperature T is cell-centred (nav_flow.T, NULL when [temperature] model = off) and is
 * advanced by nav_flow_step with the velocity's variable-step AB2 (nav_flow.h). Its boundaries
 * are in nav_boundary.h, its point formulas in backend/common/nav_point_scalar.h.
 *
 * Monitors (nav_heat_diagnose, on monitor steps; collective, the same on every rank):
 *   - Nusselt number of every fixed-temperature face (d, s) whose opposite face is fixed at
 *     another temperature: Nu = mean over the face of (-dT/dx_d) l_d / (T_low - T_high), the
 *     wall gradient from the ghost and adjacent cells (the scheme's own wall flux: at steady
 *     state the discrete heat flux is the same through every plane), positive when heat flows
 *     from the hotter to the colder face;
 *   - the largest u on the plane x = x0 + lx/2 along y, and the largest v on y = y0 + ly/2 along
 *     x (z = z0 + lz/2 in 3D, interpolated linearly where the plane falls between points), each
 *     refined by the parabola through the discrete maximum and its two neighbours; velocities
 *     in the de Vahl Davis scaling u lx / kappa, positions scaled by the domain length
 *     ((y - y0)/ly, (x - x0)/lx). */
#ifndef NAV_HEAT_H
#define NAV_HEAT_H

#include "core/nav_config.h"
#include "navier/nav_types.h"

struct nav_flow;

#define NAV_HEAT_MAX_FACES 6

typedef struct nav_heat_diag {
  int nfaces;                      /* faces with a Nusselt number */
  int face[NAV_HEAT_MAX_FACES][2]; /* their (dir, side) */
  double nusselt[NAV_HEAT_MAX_FACES];
  double u_max, u_max_y; /* u lx / kappa on x = mid, at (y - y0)/ly */
  double v_max, v_max_x; /* v lx / kappa on y = mid, at (x - x0)/lx */
} nav_heat_diag;

/* Allocate T and its AB2 history (nothing when model = off), set the boundaries and the
 * initial field, fill the ghosts and measure the first monitors. Called by nav_flow_create
 * once the velocity exists. Collective. */
nav_err nav_heat_create(struct nav_flow *f);
void nav_heat_destroy(struct nav_flow *f);
/* Measure f->heat from the current T and u (filled ghosts). Collective. */
nav_err nav_heat_diagnose(struct nav_flow *f);
/* The analytic temperature at x and time t: initial = wave (every face periodic), advected by
 * the uniform velocity of physics.initial = uniform (else at rest); *has = 0 for the others. */
void nav_flow_exact_temperature(const nav_config *cfg, const double x[3], double t, double *value, int *has);

#endif
