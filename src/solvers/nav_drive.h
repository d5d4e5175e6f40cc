/* Driven periodic flows ([physics] forcing) and the monitors of wall-bounded and open flows.
 *
 * Forcing along the periodic direction c = forcing_direction:
 *   pressure_gradient: the constant body force G = forcing_value (= -dP/dx_c, the mean pressure
 *     gradient) is added to N_c(u) at every face, inside the Adams-Bashforth update;
 *   flow_rate: the mean pressure gradient G of each step is the one that makes the bulk velocity
 *     U_b = (1/V) sum u_c dV_c equal to U = forcing_value, found by linear superposition: the
 *     predictor gives u* without it, r is the response of the predictor to a unit G (the increment
 *     of a uniform force e_c over the step: r = dt e_c with explicit diffusion, r = (I - theta dt
 *     V_diag)^-1 (dt e_c) with implicit diffusion, the same Helmholtz operator and homogeneous
 *     boundary conditions, cached: nav_diffusion_response), and before the projection
 *       u* <- u* + G r,   G = (U - U_b(u*)) / U_b(r).
 *     The projection changes no bulk flux along the periodic c (the gradient telescopes), so U_b =
 *     U to round-off after every step, and at a steady state G is the force that balances the
 *     walls' shear exactly (a uniform shift of u*, not a force, would miss it next to no-slip walls
 *     with implicit diffusion). G is a monitor (forcing_gradient).
 *
 * Monitors (nav_drive_diagnose, on monitor steps):
 *   tau_w of each wall face: |mean over the face of nu du_t/dn| (t tangential, n into the fluid;
 *     the derivative between the first centre and its mirror ghost: the face value of a wall);
 *   cf = tau_w / (U_ref^2 / 2), U_ref = |bulk velocity| when the flow is driven or has an inflow,
 *     else the largest wall speed (a lid); NaN (JSON null) when U_ref = 0;
 *   bulk velocity: (1/V) sum u_c dV_c along c = the forcing direction, else the normal of the
 *     first inflow face, else x;
 *   re_tau = u_tau h / nu for a driven channel (forcing on and a direction with walls on both
 *     faces: h half its width, u_tau = sqrt(mean tau_w of its two walls)), else not reported;
 *   flux of each inflow and outflow face, outward positive (nav_open_fluxes). */
#ifndef NAV_DRIVE_H
#define NAV_DRIVE_H

#include "navier/nav_types.h"

#define NAV_DRIVE_FACES 6

typedef struct nav_drive_diag {
  int nwalls, wall[NAV_DRIVE_FACES][2];
  double tau_w[NAV_DRIVE_FACES], cf[NAV_DRIVE_FACES];
  int bulk_dir;
  double bulk_velocity, u_ref;
  int channel; /* re_tau applies */
  double re_tau;
  int nopen, open[NAV_DRIVE_FACES][2];
  double flux[NAV_DRIVE_FACES];
  double gradient; /* the mean pressure gradient G: of the last step (flow_rate) or forcing_value */
} nav_drive_diag;

struct nav_flow;

/* pressure_gradient: rhs_c += G (after N(u^n) is computed). */
nav_err nav_drive_force(struct nav_flow *f);
/* flow_rate: u* += G r with the G that holds the bulk velocity (above), after the predictor of a step
 * of dt and before the projection (u* ghosts NOT filled). Collective. */
nav_err nav_drive_hold(struct nav_flow *f, double dt);
/* forcing = flow_rate with implicit diffusion: the same hold on the reference predictor u (the velocity arrays of
 * nav_diffusion_reference, at the step dt_ref), with the response at dt_ref, for the force report after a change
 * of dt; the step's gradient is left as it is. No-op for other forcings. Collective. */
nav_err nav_drive_hold_reference(struct nav_flow *f, double dt_ref, nav_real *const *u);
/* The monitors above into f->drive. Collective. */
nav_err nav_drive_diagnose(struct nav_flow *f);

#endif
