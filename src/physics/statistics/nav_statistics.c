/* DNS statistics: the model "statistics" (see nav_statistics.h): sampling, state, summary. */
#include "physics/statistics/nav_statistics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "physics/statistics/statistics_keys.h"

static const char *const nav_stat_names[NAV_STAT_Q] = {"stat_u",  "stat_v",  "stat_w",  "stat_p", "stat_T",
                                                        "stat_uu", "stat_vv", "stat_ww", "stat_uv", "stat_uw",
                                                        "stat_vw", "stat_pp", "stat_TT", "stat_nut"};

static int nav_stat_active(const nav_config *cfg) { return !strcmp(cfg->statistics_enabled, "true"); }

/* Quantity q is kept in fields mode: a velocity component of the case, the pressure, the temperature with
 * one (nu_t / nu: profiles only). */
static int nav_stat_kept(const nav_flow_view *v, int q) {
  static const int comps[NAV_STAT_Q][2] = {{0, 0}, {1, 1}, {2, 2}, {-1, -1}, {-2, -2}, {0, 0},  {1, 1},
                                           {2, 2}, {0, 1}, {0, 2}, {1, 2}, {-1, -1}, {-2, -2}, {-3, -3}};
  if (comps[q][0] == -3) return 0;
  if (comps[q][0] == -2) return v->scalar && v->scalar->T;
  return comps[q][0] < v->dim && comps[q][1] < v->dim;
}

static nav_err nav_stat_create(nav_model *m, nav_flow_view *v) {
  nav_statistics *s = calloc(1, sizeof *s);
  NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate the statistics");
  m->data = s;
  m->rhs_off = 1;
  s->k = nav_statistics_backend(v->ops->name);
  NAV_CHECK(s->k, NAV_ERR_INTERNAL, "no statistics kernels for backend %s", v->ops->name);
  s->e = nav_statistics_direction(v->cfg);
  const nav_box *b = v->box;
  if (s->e >= 0) {
    const int e = s->e, nl = b->n[e];
    s->ne = v->n[e];
    s->nq = v->nut ? NAV_STAT_Q : NAV_STAT_NUT;
    s->area = 1;
    for (int d = 0; d < v->dim; d++)
      if (d != e) s->area *= v->xf[d][v->n[d]] - v->xf[d][0];
    s->streamwise = strcmp(v->cfg->forcing, "none") ? v->cfg->forcing_direction[0] - 'x' : e == 0 ? 1 : 0;
    NAV_CALL(v->ops->alloc((void **)&s->dev, (size_t)NAV_STAT_Q * nl * sizeof(double)));
    s->host = malloc((size_t)NAV_STAT_Q * nl * sizeof(double));
    s->plane = malloc((size_t)s->nq * s->ne * sizeof(double));
    s->nstate = NAV_STAT_HEAD + (size_t)s->nq * s->ne;
  } else {
    for (int q = 0; q < NAV_STAT_Q; q++) {
      if (!nav_stat_kept(v, q)) continue;
      NAV_CALL(v->ops->alloc((void **)&s->sum[q], (size_t)b->ntot * sizeof(nav_real)));
      NAV_CALL(v->ops->set(b, s->sum[q], 0));
    }
    s->nstate = NAV_STAT_HEAD;
  }
  s->state = calloc(s->nstate, sizeof(double));
  NAV_CHECK(s->state && (s->e < 0 || (s->host && s->plane)), NAV_ERR_MEMORY, "cannot allocate the statistics");
  return NAV_OK;
}

static void nav_stat_destroy(nav_model *m, nav_flow_view *v) {
  nav_statistics *s = m->data;
  if (!s) return;
  if (s->dev) v->ops->free(s->dev);
  for (int q = 0; q < NAV_STAT_Q; q++)
    if (s->sum[q]) v->ops->free(s->sum[q]);
  if (s->out) v->ops->free(s->out);
  free(s->host);
  free(s->plane);
  free(s->state);
  free(s);
  m->data = NULL;
}

/* One sample of the profiles: the local plane sums on the device, one copy, one reduction of the global
 * planes, added to the host sums in index order. */
static nav_err nav_stat_sample_planes(nav_statistics *s, const nav_flow_view *v) {
  const nav_box *b = v->box;
  const int e = s->e, nl = b->n[e], g0 = b->g0[e];
  const nav_real *T = v->scalar ? v->scalar->T : NULL;
  NAV_CALL(s->k->planes(b, v->u, v->p, T, v->nut, v->cfg->nu, e, s->dev));
  NAV_CALL(v->ops->to_host(s->host, s->dev, (size_t)s->nq * nl * sizeof(double)));
  memset(s->plane, 0, (size_t)s->nq * s->ne * sizeof(double));
  for (int q = 0; q < s->nq; q++)
    for (int j = 0; j < nl; j++) s->plane[(size_t)q * s->ne + g0 + j] = s->host[(size_t)q * nl + j];
  if (v->comm != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, s->plane, s->nq * s->ne, MPI_DOUBLE, MPI_SUM, v->comm);
  double *sum = s->state + NAV_STAT_HEAD;
  for (size_t i = 0; i < (size_t)s->nq * s->ne; i++) sum[i] += s->plane[i];
  return NAV_OK;
}

/* A sample of u^{n+1}, p, T at t^{n+1} when the window and the stride say so. */
static nav_err nav_stat_after(nav_model *m, nav_flow_view *v, const nav_step_info *si) {
  nav_statistics *s = m->data;
  const double t1 = v->t + si->dt; /* the solver's t^{n+1} (nav_flow.c: t += dt) */
  const long step1 = v->step + 1;
  if (t1 < v->cfg->statistics_start || step1 % v->cfg->statistics_every) return NAV_OK;
  if (s->e >= 0)
    NAV_CALL(nav_stat_sample_planes(s, v));
  else
    NAV_CALL(s->k->accumulate(v->box, v->u, v->p, v->scalar ? v->scalar->T : NULL, s->sum));
  if (s->state[NAV_STAT_SAMPLES] == 0) s->state[NAV_STAT_T_FIRST] = t1;
  s->state[NAV_STAT_T_LAST] = t1;
  s->state[NAV_STAT_SAMPLES] += 1;
  return NAV_OK;
}

static nav_err nav_stat_report(nav_model *m, nav_flow_view *v, const struct nav_host_fields *h, const char *dir) {
  (void)h;
  nav_statistics *s = m->data;
  if (s->e < 0 || s->state[NAV_STAT_SAMPLES] == 0) return NAV_OK;
  return nav_statistics_profiles(s, v, dir);
}

static void nav_stat_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_statistics *s = m->data;
  char a[8][32];
  const double n = s->state[NAV_STAT_SAMPLES];
  fprintf(out, ",\n  \"statistics\": {\"start\": %s, \"end\": %s, \"samples\": %.0f, \"every\": %ld",
          nav_json_real(n > 0 ? s->state[NAV_STAT_T_FIRST] : NAN, "%.12e", a[0]),
          nav_json_real(n > 0 ? s->state[NAV_STAT_T_LAST] : NAN, "%.12e", a[1]), n, v->cfg->statistics_every);
  if (s->e >= 0) {
    fprintf(out, ", \"wall_normal\": \"%c\"", "xyz"[s->e]);
    if (s->done)
      fprintf(out,
              ", \"u_tau\": %s, \"re_tau\": %s, \"cf\": %s, \"ub_plus\": %s, \"bulk_velocity\": %s, "
              "\"tau_w\": [%s, %s]",
              nav_json_real(s->u_tau, "%.12e", a[2]), nav_json_real(s->re_tau, "%.12e", a[3]),
              nav_json_real(s->cf, "%.12e", a[4]), nav_json_real(s->ub_plus, "%.12e", a[5]),
              nav_json_real(s->ub, "%.12e", a[6]), nav_json_real(s->tau_w[0], "%.12e", a[7]),
              nav_json_real(s->tau_w[1], "%.12e", a[0]));
  } else {
    fprintf(out, ", \"fields\": \"mean_*, rms_* in the snapshots\"");
  }
  fprintf(out, "}");
}

static void nav_stat_log(const nav_model *m, const nav_flow_view *v) {
  (void)v;
  const nav_statistics *s = m->data;
  printf("statistics: %.0f samples", s->state[NAV_STAT_SAMPLES]);
  if (s->state[NAV_STAT_SAMPLES] > 0)
    printf(" over t = %.6g .. %.6g", s->state[NAV_STAT_T_FIRST], s->state[NAV_STAT_T_LAST]);
  if (s->done) printf("; u_tau %.6f, Re_tau %.2f, C_f %.6e, U_b+ %.4f", s->u_tau, s->re_tau, s->cf, s->ub_plus);
  printf("\n");
}

static int nav_stat_state(nav_model *m, nav_state_array *a) {
  nav_statistics *s = m->data;
  int n = 0;
  for (int q = 0; q < NAV_STAT_Q; q++)
    if (s->sum[q]) a[n++] = (nav_state_array){nav_stat_names[q], s->sum[q]};
  return n;
}

static void nav_stat_host_state(nav_model *m, double **data, size_t *count) {
  nav_statistics *s = m->data;
  *data = s->state;
  *count = s->nstate;
}

/* Fields mode: mean_velocity, mean_pressure, rms_velocity (and mean_temperature, rms_temperature). */
static int nav_stat_snapshot_fields(const nav_model *m, const nav_flow_view *v, const char **name, int *ncomp) {
  const nav_statistics *s = m->data;
  if (s->e >= 0) return 0;
  static const char *const names[5] = {"mean_velocity", "mean_pressure", "rms_velocity", "mean_temperature",
                                       "rms_temperature"};
  static const int comps[5] = {3, 1, 3, 1, 1};
  const int n = v->scalar && v->scalar->T ? 5 : 3;
  for (int i = 0; i < n; i++) {
    name[i] = names[i];
    ncomp[i] = comps[i];
  }
  return n;
}

/* Field i of nav_stat_snapshot_fields from the running sums: mean = S_q / N, rms = sqrt(S_qq / N - mean^2)
 * (0 before the first sample). */
static nav_err nav_stat_snapshot_values(nav_model *m, nav_flow_view *v, int i, double *out) {
  nav_statistics *s = m->data;
  const nav_box *b = v->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  static const int mean_q[5][3] = {{NAV_STAT_U, NAV_STAT_V, NAV_STAT_W}, {NAV_STAT_P}, {NAV_STAT_U, NAV_STAT_V,
                                   NAV_STAT_W}, {NAV_STAT_T}, {NAV_STAT_T}};
  static const int sq_q[5][3] = {{-1}, {-1}, {NAV_STAT_UU, NAV_STAT_VV, NAV_STAT_WW}, {-1}, {NAV_STAT_TT}};
  const int nc = i == 0 || i == 2 ? 3 : 1;
  nav_real *hm = malloc(bytes), *hs = malloc(bytes);
  NAV_CHECK(hm && hs, NAV_ERR_MEMORY, "cannot allocate the statistics fields");
  const double N = s->state[NAV_STAT_SAMPLES];
  nav_err e = NAV_OK;
  for (int c = 0; c < nc && e == NAV_OK; c++) {
    const int qm = mean_q[i][c], qs = sq_q[i][0] >= 0 ? sq_q[i][c] : -1;
    const int have = s->sum[qm] != NULL;
    if (have) e = v->ops->to_host(hm, s->sum[qm], bytes);
    if (have && qs >= 0 && e == NAV_OK) e = v->ops->to_host(hs, s->sum[qs], bytes);
    size_t k = 0;
    for (int kk = 0; kk < b->n[2]; kk++)
      for (int j = 0; j < b->n[1]; j++)
        for (int ii = 0; ii < b->n[0]; ii++, k++) {
          const nav_idx p = b->off + ii * b->st[0] + j * b->st[1] + kk * b->st[2];
          const double mean = have && N > 0 ? hm[p] / N : 0;
          out[k * nc + c] = qs < 0 ? mean : have && N > 0 ? sqrt(fmax(nav_stat_moment(hs[p] / N, mean, mean), 0)) : 0;
        }
  }
  free(hm);
  free(hs);
  return e;
}

const nav_model_ops nav_model_statistics = {
    .name = "statistics",
    .sections = {"statistics", NULL},
    .plots = "statistics",
    .active = nav_stat_active,
    .create = nav_stat_create,
    .destroy = nav_stat_destroy,
    .after_projection = nav_stat_after,
    .summary = nav_stat_summary,
    .log = nav_stat_log,
    .report = nav_stat_report,
    .state = nav_stat_state,
    .host_state = nav_stat_host_state,
    .snapshot_fields = nav_stat_snapshot_fields,
    .snapshot_values = nav_stat_snapshot_values,
};
