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
 *   flux of each inflow and outflow face, outward positive (the solver's open_fluxes service).
 * At the end of a run of a driven channel: DIR/channel_profile.csv and the summary entry "channel"
 * (nav_channel.h).
 *
 * A model of physics/nav_model.h ("drive", key section [physics] forcing_*; always active: the wall
 * and flux monitors serve every flow): rhs (pressure_gradient), force (flow_rate), diagnose,
 * monitor columns (tau_w_*, cf_*, bulk_velocity, re_tau, forcing_gradient, flux_*), summary entries
 * (walls, bulk_velocity, re_tau, forcing_gradient, flux, channel), report (the channel profile). */
#ifndef NAV_DRIVE_H
#define NAV_DRIVE_H

#include "physics/drive/nav_channel.h"
#include "physics/nav_model.h"

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
  nav_channel_diag ch; /* the driven channel's profile summary of the end of a run (ch.on = 0: none) */
} nav_drive_diag;

/* The model (always active). */
extern const nav_model_ops nav_model_drive;

#endif
