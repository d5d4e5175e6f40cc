/* Driven periodic flows and the wall and flux monitors: the model "drive" (see nav_drive.h). */
#include "physics/drive/nav_drive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"

static int nav_drive_on(const nav_config *cfg) { return strcmp(cfg->forcing, "none") != 0; }
static int nav_drive_dir(const nav_config *cfg) { return cfg->forcing_direction[0] - 'x'; }

static nav_err nav_drive_create(nav_model *m, nav_flow_view *v) {
  m->data = calloc(1, sizeof(nav_drive_diag));
  NAV_CHECK(m->data, NAV_ERR_MEMORY, "cannot allocate the forcing monitors");
  m->rhs_off = strcmp(v->cfg->forcing, "pressure_gradient") != 0; /* only a mean pressure gradient adds to N(u) */
  return NAV_OK;
}

static void nav_drive_destroy(nav_model *m, nav_flow_view *v) {
  (void)v;
  free(m->data);
  m->data = NULL;
}

/* pressure_gradient: rhs_c += G (after N(u^n) is computed). */
static nav_err nav_drive_rhs(nav_model *m, nav_flow_view *v, const nav_step_info *s) {
  (void)s;
  nav_drive_diag *g = m->data;
  g->gradient = v->cfg->forcing_value;
  return v->ops->shift(v->box, v->rhs[nav_drive_dir(v->cfg)], (nav_real)v->cfg->forcing_value);
}

/* (1/V) sum x dV_c over the faces of component c (x staggered along c). */
static nav_err nav_drive_bulk(const nav_flow_view *v, int c, const nav_real *x, double *ub) {
  double s;
  NAV_CALL(v->ops->face_sum(v->box, x, c, &s));
  nav_reduce_sum(v->comm, &s, 1);
  *ub = s / v->volume;
  return NAV_OK;
}

/* flow_rate with implicit diffusion, on a monitor step after a change of dt (nav_step_info.ref): the same hold on
 * the reference predictor s->ref, with the response at s->dt_ref (not cached: the step's stays) in s->ref_work[c],
 * for the force report; the step's gradient is left as it is. */
static nav_err nav_drive_hold_reference(nav_flow_view *v, const nav_step_info *s, int c) {
  double ub = 0, rb;
  nav_real *r = s->ref_work[c];
  NAV_CALL(nav_drive_bulk(v, c, s->ref[c], &ub));
  NAV_CALL(v->response_into(v->solver, c, s->dt_ref, r, &rb));
  return v->ops->axpby(v->box, (nav_real)((v->cfg->forcing_value - ub) / rb), r, 1, s->ref[c]);
}

/* flow_rate: u* += G r with the G that holds the bulk velocity (nav_drive.h), after the predictor of a
 * step of dt and before the projection (u* ghosts NOT filled). */
static nav_err nav_drive_force(nav_model *m, nav_flow_view *v, const nav_step_info *s) {
  if (strcmp(v->cfg->forcing, "flow_rate")) return NAV_OK;
  nav_drive_diag *g = m->data;
  const int c = nav_drive_dir(v->cfg);
  const double dt = s->dt;
  double ub = 0, rb = dt; /* bulk velocities of u* and of the response r (explicit: r = dt e_c) */
  const nav_real *r = NULL;
  NAV_CALL(nav_drive_bulk(v, c, v->u[c], &ub));
  if (s->implicit) NAV_CALL(v->response(v->solver, c, dt, &r, &rb));
  /* U_b(u* + G r) = U_b(u*) + G U_b(r) = U */
  const double G = (v->cfg->forcing_value - ub) / rb;
  g->gradient = G;
  if (r) {
    NAV_CALL(v->ops->axpby(v->box, (nav_real)G, r, 1, v->u[c]));
    if (s->ref) NAV_CALL(nav_drive_hold_reference(v, s, c));
    return NAV_OK;
  }
  return v->ops->shift(v->box, v->u[c], (nav_real)(G * dt));
}

/* Area of face (d, s) of the global domain. */
static double nav_drive_area(const nav_flow_view *v, int d) {
  double a = 1;
  for (int e = 0; e < v->dim; e++)
    if (e != d) a *= v->xf[e][v->n[e]] - v->xf[e][0];
  return a;
}

/* The monitors of nav_drive.h into m->data. */
static nav_err nav_drive_diagnose(nav_model *m, nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  nav_drive_diag *g = m->data;
  const double gradient = g->gradient;
  const nav_channel_diag ch = g->ch;
  memset(g, 0, sizeof *g);
  g->gradient = gradient;
  g->ch = ch;
  /* bulk velocity and its direction */
  int inflow = 0, first_inflow = -1;
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_INFLOW) {
        inflow = 1;
        if (first_inflow < 0) first_inflow = d;
      }
  g->bulk_dir = nav_drive_on(cfg) ? nav_drive_dir(cfg) : first_inflow >= 0 ? first_inflow : 0;
  NAV_CALL(nav_drive_bulk(v, g->bulk_dir, v->u[g->bulk_dir], &g->bulk_velocity));
  double lid = 0;
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_WALL)
        for (int c = 0; c < v->dim; c++) lid = fmax(lid, fabs(cfg->wall_velocity[d][s][c]));
  g->u_ref = nav_drive_on(cfg) || inflow ? fabs(g->bulk_velocity) : lid;
  /* wall shear: sum of du_c/dn dA for every tangential c of every wall face, one reduction */
  double sh[6][3];
  NAV_CALL(nav_models_wall_shear(v, sh));
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++) {
      if (cfg->bc[d][s] != NAV_BC_WALL) continue;
      const int k = g->nwalls++;
      g->wall[k][0] = d;
      g->wall[k][1] = s;
    }
  nav_reduce_sum(v->comm, &sh[0][0], 6 * 3);
  for (int k = 0; k < g->nwalls; k++) {
    g->tau_w[k] = nav_models_wall_tau(v, sh[2 * g->wall[k][0] + g->wall[k][1]], nav_drive_area(v, g->wall[k][0]));
    g->cf[k] = g->u_ref > 0 ? g->tau_w[k] / (0.5 * g->u_ref * g->u_ref) : NAN;
  }
  /* a driven channel: the first direction other than the forcing one with walls on both faces */
  for (int e = 0; e < v->dim && nav_drive_on(cfg) && !g->channel; e++) {
    if (e == nav_drive_dir(cfg) || cfg->bc[e][0] != NAV_BC_WALL || cfg->bc[e][1] != NAV_BC_WALL) continue;
    double tau = 0;
    for (int k = 0; k < g->nwalls; k++)
      if (g->wall[k][0] == e) tau += 0.5 * g->tau_w[k];
    g->channel = 1;
    g->re_tau = sqrt(tau) * 0.5 * (v->xf[e][v->n[e]] - v->xf[e][0]) / cfg->nu;
  }
  double flux[3][2];
  NAV_CALL(v->open_fluxes(v->solver, flux));
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++)
      if (cfg->bc[d][s] == NAV_BC_INFLOW || cfg->bc[d][s] == NAV_BC_OUTFLOW) {
        g->open[g->nopen][0] = d;
        g->open[g->nopen][1] = s;
        g->flux[g->nopen++] = flux[d][s];
      }
  return NAV_OK;
}

/* The end of a run: the monitors of the final state (artificial compressibility does not measure them
 * as it goes; after a projection step they are these already), then a driven channel's profile. */
static nav_err nav_drive_report(nav_model *m, nav_flow_view *v, const struct nav_host_fields *h, const char *dir) {
  (void)h;
  nav_drive_diag *g = m->data;
  const nav_config *cfg = v->cfg;
  memset(&g->ch, 0, sizeof g->ch);
  if (nav_drive_on(cfg)) NAV_CALL(nav_drive_diagnose(m, v));
  if (!g->channel) return NAV_OK;
  const int fc = nav_drive_dir(cfg);
  int e = -1; /* the wall-normal direction (the one nav_drive_diagnose took) */
  for (int d = 0; d < v->dim && e < 0; d++)
    if (d != fc && cfg->bc[d][0] == NAV_BC_WALL && cfg->bc[d][1] == NAV_BC_WALL) e = d;
  return nav_channel_profile(v, e, g->re_tau, g->bulk_velocity, dir, &g->ch);
}

static void nav_drive_monitor_header(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_drive_diag *g = m->data;
  for (int k = 0; k < g->nwalls; k++) fprintf(out, ",tau_w_%s", nav_face_name(g->wall[k][0], g->wall[k][1]));
  for (int k = 0; k < g->nwalls; k++) fprintf(out, ",cf_%s", nav_face_name(g->wall[k][0], g->wall[k][1]));
  fprintf(out, ",bulk_velocity");
  if (g->channel) fprintf(out, ",re_tau");
  if (nav_drive_on(v->cfg)) fprintf(out, ",forcing_gradient");
  for (int k = 0; k < g->nopen; k++) fprintf(out, ",flux_%s", nav_face_name(g->open[k][0], g->open[k][1]));
}

static void nav_drive_monitor_row(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_drive_diag *g = m->data;
  for (int k = 0; k < g->nwalls; k++) fprintf(out, ",%.8e", g->tau_w[k]);
  for (int k = 0; k < g->nwalls; k++) fprintf(out, ",%.8e", g->cf[k]);
  fprintf(out, ",%.10e", g->bulk_velocity);
  if (g->channel) fprintf(out, ",%.8e", g->re_tau);
  if (nav_drive_on(v->cfg)) fprintf(out, ",%.8e", g->gradient);
  for (int k = 0; k < g->nopen; k++) fprintf(out, ",%.16e", g->flux[k]);
}

static void nav_drive_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_drive_diag *g = m->data;
  char num[32];
  fprintf(out, ",\n  \"walls\": {");
  for (int k = 0; k < g->nwalls; k++) {
    fprintf(out, "%s\"%s\": {\"tau_w\": %s", k ? ", " : "", nav_face_name(g->wall[k][0], g->wall[k][1]),
            nav_json_real(g->tau_w[k], "%.16e", num));
    fprintf(out, ", \"cf\": %s}", nav_json_real(g->cf[k], "%.16e", num));
  }
  fprintf(out, "},\n  \"bulk_velocity\": %s", nav_json_real(g->bulk_velocity, "%.16e", num));
  if (g->channel) fprintf(out, ",\n  \"re_tau\": %s", nav_json_real(g->re_tau, "%.16e", num));
  if (g->ch.on) {
    const nav_channel_diag *ch = &g->ch;
    char a[5][32];
    fprintf(out, ",\n  \"channel\": {\"u_tau\": %s, \"re_tau\": %s, \"cf\": %s, \"ub_plus\": %s, \"uc_plus\": %s}",
            nav_json_real(ch->u_tau, "%.12e", a[0]), nav_json_real(ch->re_tau, "%.12e", a[1]),
            nav_json_real(ch->cf, "%.12e", a[2]), nav_json_real(ch->ub_plus, "%.12e", a[3]),
            nav_json_real(ch->uc_plus, "%.12e", a[4]));
  }
  if (nav_drive_on(v->cfg)) fprintf(out, ",\n  \"forcing_gradient\": %s", nav_json_real(g->gradient, "%.16e", num));
  if (g->nopen) {
    fprintf(out, ",\n  \"flux\": {");
    for (int k = 0; k < g->nopen; k++)
      fprintf(out, "%s\"%s\": %s", k ? ", " : "", nav_face_name(g->open[k][0], g->open[k][1]),
              nav_json_real(g->flux[k], "%.16e", num));
    fprintf(out, "}");
  }
}

const nav_model_ops nav_model_drive = {
    .name = "drive",
    .sections = {"physics", NULL},
    .plots = "channel",
    .create = nav_drive_create,
    .destroy = nav_drive_destroy,
    .rhs = nav_drive_rhs,
    .force = nav_drive_force,
    .diagnose = nav_drive_diagnose,
    .monitor_header = nav_drive_monitor_header,
    .monitor_row = nav_drive_monitor_row,
    .summary = nav_drive_summary,
    .report = nav_drive_report,
};
