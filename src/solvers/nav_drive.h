/* Driven periodic flows ([physics] forcing) and the monitors of wall-bounded and open flows.
 *
 * Forcing along the periodic direction c = forcing_direction:
 *   pressure_gradient: the constant body force G = forcing_value (= -dP/dx_c, the mean pressure
 *     gradient) is added to N_c(u) at every face, inside the Adams-Bashforth update;
 *   flow_rate: after the projection the bulk velocity U_b = (1/V) sum u_c dV_c is measured and
 *     u_c += U - U_b at every face, U = forcing_value: the bulk velocity is U to round-off after
 *     every step. A uniform u_c changes no divergence (c is periodic) and no shear; the mean
 *     pressure gradient that this amounts to, (U - U_b) / dt, is a monitor.
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
  double gradient; /* flow_rate: (U - U_b) / dt of the last step; pressure_gradient: G */
} nav_drive_diag;

struct nav_flow;

/* pressure_gradient: rhs_c += G (after N(u^n) is computed). */
nav_err nav_drive_force(struct nav_flow *f);
/* flow_rate: hold the bulk velocity after the projection of a step of dt, then refill the ghosts. Collective. */
nav_err nav_drive_hold(struct nav_flow *f, double dt);
/* The monitors above into f->drive. Collective. */
nav_err nav_drive_diagnose(struct nav_flow *f);

#endif
