/* The wall-normal profile and the summary of a driven channel (nav_drive.h, the drive model's report: forcing on, walls on both
 * faces of a direction e): u_tau = sqrt(mean tau_w of the two walls), Re_tau = u_tau h / nu (h half
 * the width), U_b the bulk velocity, C_f = tau_w / (U_b^2 / 2) = 2 (u_tau / U_b)^2, U_b+ = U_b / u_tau,
 * U_c+ = the centre-line velocity / u_tau (linear between the two cells either side of the centre,
 * or the middle cell). DIR/channel_profile.csv holds, per cell along e, the mean over the other
 * directions of: y (distance from the low wall), y+ = y u_tau / nu, U+ = u / u_tau (u: the forcing
 * component at the cell centre), with the SST model k+ = k / u_tau^2 and omega+ = omega nu / u_tau^2, and
 * with an eddy viscosity (SST, an LES closure: a model's field "nut") nu_t / nu. */
#ifndef NAV_CHANNEL_H
#define NAV_CHANNEL_H

#include "physics/nav_model.h"

typedef struct nav_channel_diag {
  int on; /* a driven channel */
  double u_tau, re_tau, cf, ub_plus, uc_plus;
} nav_channel_diag;

/* Measure *c and write DIR/channel_profile.csv (rank 0) of the driven channel whose wall-normal
 * direction is e (the drive model's monitors of the final state: re_tau, bulk velocity ub); a
 * turbulence model's fields "k", "omega", "nut" (nav_model.h fields hook) join the profile. Collective. */
nav_err nav_channel_profile(const nav_flow_view *v, int e, double re_tau, double ub, const char *dir,
                            nav_channel_diag *c);

#endif
