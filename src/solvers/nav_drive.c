/* Driven periodic flows and the wall and flux monitors (see nav_drive.h). */
#include "solvers/nav_drive.h"

#include <math.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"
#include "solvers/nav_open.h"

static int nav_drive_on(const nav_flow *f) { return strcmp(f->cfg->forcing, "none") != 0; }
static int nav_drive_dir(const nav_flow *f) { return f->cfg->forcing_direction[0] - 'x'; }

nav_err nav_drive_force(nav_flow *f) {
  if (strcmp(f->cfg->forcing, "pressure_gradient")) return NAV_OK;
  f->drive.gradient = f->cfg->forcing_value;
  return f->ops->shift(&f->box, f->rhs[nav_drive_dir(f)], (nav_real)f->cfg->forcing_value);
}

/* (1/V) sum x dV_c over the faces of component c (x staggered along c). */
static nav_err nav_drive_bulk(nav_flow *f, int c, const nav_real *x, double *ub) {
  double s;
  NAV_CALL(f->ops->face_sum(&f->box, x, c, &s));
  nav_reduce_sum(f->comm, &s, 1);
  *ub = s / f->volume;
  return NAV_OK;
}

nav_err nav_drive_hold(nav_flow *f, double dt) {
  if (strcmp(f->cfg->forcing, "flow_rate")) return NAV_OK;
  const int c = nav_drive_dir(f);
  double ub = 0, rb = dt; /* bulk velocities of u* and of the response r (explicit: r = dt e_c) */
  const nav_real *r = NULL;
  NAV_CALL(nav_drive_bulk(f, c, f->u[c], &ub));
  if (f->diff && f->diff->implicit) NAV_CALL(nav_diffusion_response(f, c, dt, &r, &rb));
  /* U_b(u* + G r) = U_b(u*) + G U_b(r) = U */
  const double G = (f->cfg->forcing_value - ub) / rb;
  f->drive.gradient = G;
  if (r) return f->ops->axpby(&f->box, (nav_real)G, r, 1, f->u[c]);
  return f->ops->shift(&f->box, f->u[c], (nav_real)(G * dt));
}

nav_err nav_drive_hold_reference(nav_flow *f, double dt_ref, nav_real *const *u) {
  if (strcmp(f->cfg->forcing, "flow_rate")) return NAV_OK;
  const int c = nav_drive_dir(f);
  double ub = 0, rb;
  nav_real *r = f->diff->keep[c]; /* free after nav_diffusion_reference */
  NAV_CALL(nav_drive_bulk(f, c, u[c], &ub));
  NAV_CALL(nav_diffusion_response_into(f, c, dt_ref, r, &rb));
  return f->ops->axpby(&f->box, (nav_real)((f->cfg->forcing_value - ub) / rb), r, 1, u[c]);
}

nav_err nav_drive_diagnose(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  nav_drive_diag *g = &f->drive;
  const double gradient = g->gradient;
  memset(g, 0, sizeof *g);
  g->gradient = gradient;
  /* bulk velocity and its direction */
  int inflow = 0, first_inflow = -1;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_INFLOW) {
        inflow = 1;
        if (first_inflow < 0) first_inflow = d;
      }
  g->bulk_dir = nav_drive_on(f) ? nav_drive_dir(f) : first_inflow >= 0 ? first_inflow : 0;
  NAV_CALL(nav_drive_bulk(f, g->bulk_dir, f->u[g->bulk_dir], &g->bulk_velocity));
  double lid = 0;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_WALL)
        for (int c = 0; c < f->dim; c++) lid = fmax(lid, fabs(cfg->wall_velocity[d][s][c]));
  g->u_ref = nav_drive_on(f) || inflow ? fabs(g->bulk_velocity) : lid;
  /* wall shear: sum of du_c/dn dA for every tangential c of every wall face, one reduction */
  double v[NAV_DRIVE_FACES * 3];
  memset(v, 0, sizeof v);
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++) {
      if (cfg->bc[d][s] != NAV_BC_WALL) continue;
      const int m = g->nwalls++;
      g->wall[m][0] = d;
      g->wall[m][1] = s;
      if (nav_halo_face(f->halo, d, s)) continue;
      for (int c = 0; c < f->dim; c++)
        if (c != d) NAV_CALL(f->ops->face_integral(&f->box, f->u[c], d, s, 1 + c, &v[3 * m + c]));
    }
  nav_reduce_sum(f->comm, v, 3 * NAV_DRIVE_FACES);
  for (int m = 0; m < g->nwalls; m++) {
    const double area = nav_open_area(f, g->wall[m][0]);
    double t2 = 0;
    for (int c = 0; c < 3; c++) t2 += (cfg->nu * v[3 * m + c] / area) * (cfg->nu * v[3 * m + c] / area);
    g->tau_w[m] = sqrt(t2);
    g->cf[m] = g->u_ref > 0 ? g->tau_w[m] / (0.5 * g->u_ref * g->u_ref) : NAN;
  }
  /* a driven channel: the first direction other than the forcing one with walls on both faces */
  for (int e = 0; e < f->dim && nav_drive_on(f) && !g->channel; e++) {
    if (e == nav_drive_dir(f) || cfg->bc[e][0] != NAV_BC_WALL || cfg->bc[e][1] != NAV_BC_WALL) continue;
    double tau = 0;
    for (int m = 0; m < g->nwalls; m++)
      if (g->wall[m][0] == e) tau += 0.5 * g->tau_w[m];
    g->channel = 1;
    g->re_tau = sqrt(tau) * 0.5 * (f->xf[e][f->n[e]] - f->xf[e][0]) / cfg->nu;
  }
  double flux[3][2];
  NAV_CALL(nav_open_fluxes(f, flux));
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_INFLOW || cfg->bc[d][s] == NAV_BC_OUTFLOW) {
        g->open[g->nopen][0] = d;
        g->open[g->nopen][1] = s;
        g->flux[g->nopen++] = flux[d][s];
      }
  return NAV_OK;
}
