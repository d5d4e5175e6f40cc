/* The loops over the active models that the step, the run loop and the output call, and the helpers
 * the models call (see nav_model.h). Below the registry (nav_models.c), which names the models. */
#include "physics/nav_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend/common/nav_point_open.h"
#include "core/nav_error.h"
#include "grid/nav_halo.h"
#include "grid/nav_reduce.h"

nav_err nav_models_nut_max(const nav_flow_view *v, double *nut_max) {
  NAV_CALL(v->ops->max_abs_diff(v->box, v->nut, NULL, NULL, nut_max, NULL));
  nav_reduce_max(v->comm, nut_max, 1);
  return NAV_OK;
}

/* The wall shear sums of direction d (nav_models_wall_shear): the field, side, what and component of each
 * tangential component of the wall faces of d that this block holds; their count. */
static int nav_models_wall_sums(const nav_flow_view *v, int d, const nav_real **x, int *side, int *what, int *c_of) {
  int n = 0;
  for (int s = 0; s < 2; s++) {
    if (v->cfg->bc[d][s] != NAV_BC_WALL || nav_halo_face(v->halo, d, s)) continue;
    for (int c = 0; c < v->dim; c++)
      if (c != d) {
        x[n] = v->u[c], side[n] = s, what[n] = 1 + c, c_of[n] = c;
        n++;
      }
  }
  return n;
}

nav_err nav_models_wall_shear(const nav_flow_view *v, double sh[6][3]) {
  memset(sh, 0, 6 * sizeof *sh);
  for (int d = 0; d < v->dim; d++) {
    const nav_real *x[NAV_FACE_INTEGRALS_MAX];
    int side[NAV_FACE_INTEGRALS_MAX], what[NAV_FACE_INTEGRALS_MAX], c_of[NAV_FACE_INTEGRALS_MAX];
    const int n = nav_models_wall_sums(v, d, x, side, what, c_of);
    if (!n) continue;
    double sums[NAV_FACE_INTEGRALS_MAX];
    NAV_CALL(v->ops->face_integral(v->box, d, n, x, side, what, sums));
    for (int k = 0; k < n; k++)
      sh[2 * d + side[k]][c_of[k]] = sums[k];
  }
  return NAV_OK;
}

nav_err nav_models_wall_shear_to(const nav_flow_view *v, double *sh) {
  for (int d = 0; d < v->dim; d++) {
    const nav_real *x[NAV_FACE_INTEGRALS_MAX];
    int side[NAV_FACE_INTEGRALS_MAX], what[NAV_FACE_INTEGRALS_MAX], c_of[NAV_FACE_INTEGRALS_MAX];
    const int n = nav_models_wall_sums(v, d, x, side, what, c_of);
    if (!n) continue;
    double *out[NAV_FACE_INTEGRALS_MAX];
    for (int k = 0; k < n; k++)
      out[k] = sh + 3 * (2 * d + side[k]) + c_of[k];
    NAV_CALL(v->ops->face_integral_to(v->box, d, n, x, side, what, out));
  }
  return NAV_OK;
}

double nav_models_wall_tau(const nav_flow_view *v, const double sh[3], double area) {
  return nav_wall_tau(v->cfg->nu, sh, area);
}

const char *nav_json_real(double v, const char *fmt, char buf[32]) {
  if (!isfinite(v)) return "null";
  snprintf(buf, 32, fmt, v);
  return buf;
}

int nav_models_viscous(const nav_model_set *set) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->viscosity) return 1;
  return 0;
}

int nav_models_force_reference(const nav_model_set *set) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->force_reference) return 1;
  return 0;
}

int nav_models_rhs_on(const nav_model_set *set) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->rhs && !set->m[i].rhs_off) return 1;
  return 0;
}

nav_real *nav_models_field(const nav_model_set *set, const nav_flow_view *v, const char *name) {
  for (int i = 0; i < set->n; i++) {
    if (!set->m[i].ops->fields) continue;
    nav_state_array a[NAV_STATE_MAX];
    const int n = set->m[i].ops->fields(&set->m[i], v, a);
    for (int q = 0; q < n; q++)
      if (!strcmp(a[q].name, name)) return a[q].data;
  }
  return NULL;
}

nav_err nav_models_diagnose_one(nav_model_set *set, nav_flow_view *v, const char *name) {
  for (int i = 0; i < set->n; i++)
    if (!strcmp(set->m[i].ops->name, name) && set->m[i].ops->diagnose)
      NAV_CALL(set->m[i].ops->diagnose(&set->m[i], v));
  return NAV_OK;
}

void *nav_models_data(const nav_model_set *set, const char *name) {
  for (int i = 0; i < set->n; i++)
    if (!strcmp(set->m[i].ops->name, name)) return set->m[i].data;
  return NULL;
}

nav_err nav_models_create(nav_model_set *set, nav_flow_view *v) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->create) NAV_CALL(set->m[i].ops->create(&set->m[i], v));
  return NAV_OK;
}

void nav_models_destroy(nav_model_set *set, nav_flow_view *v) {
  for (int i = set->n - 1; i >= 0; i--) { /* the reverse order of create */
    if (set->m[i].ops->destroy) set->m[i].ops->destroy(&set->m[i], v);
    set->m[i].data = NULL;
  }
}

/* The loop of one step hook (rhs, force, after_projection). */
#define NAV_MODELS_STEP_LOOP(hook)                                                                                     \
  for (int i = 0; i < set->n; i++)                                                                                     \
    if (set->m[i].ops->hook) NAV_CALL(set->m[i].ops->hook(&set->m[i], v, s));                                          \
  return NAV_OK

nav_err nav_models_rhs(nav_model_set *set, nav_flow_view *v, const nav_step_info *s) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->rhs && !set->m[i].rhs_off) NAV_CALL(set->m[i].ops->rhs(&set->m[i], v, s));
  return NAV_OK;
}
nav_err nav_models_force(nav_model_set *set, nav_flow_view *v, const nav_step_info *s) { NAV_MODELS_STEP_LOOP(force); }
nav_err nav_models_after_projection(nav_model_set *set, nav_flow_view *v, const nav_step_info *s) {
  NAV_MODELS_STEP_LOOP(after_projection);
}

nav_err nav_models_viscosity(nav_model_set *set, nav_flow_view *v, nav_viscosity_when when, int *any) {
  *any = 0;
  for (int i = 0; i < set->n; i++) {
    if (!set->m[i].ops->viscosity) continue;
    NAV_CALL(set->m[i].ops->viscosity(&set->m[i], v, when));
    *any = 1;
  }
  return NAV_OK;
}

nav_err nav_models_diagnose(nav_model_set *set, nav_flow_view *v) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->diagnose) NAV_CALL(set->m[i].ops->diagnose(&set->m[i], v));
  return NAV_OK;
}

nav_err nav_models_diagnose_pseudo(nav_model_set *set, nav_flow_view *v) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->diagnose && set->m[i].ops->pseudo_time_diagnose)
      NAV_CALL(set->m[i].ops->diagnose(&set->m[i], v));
  return NAV_OK;
}

nav_err nav_models_change(nav_model_set *set, nav_flow_view *v, double dt, double *change) {
  for (int i = 0; i < set->n; i++) {
    if (!set->m[i].ops->change) continue;
    double c = -1;
    NAV_CALL(set->m[i].ops->change(&set->m[i], v, dt, &c));
    if (c >= 0) *change = fmax(*change, c);
  }
  return NAV_OK;
}

void nav_models_monitor_header(const nav_model_set *set, const nav_flow_view *v, FILE *out) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->monitor_header) set->m[i].ops->monitor_header(&set->m[i], v, out);
}

void nav_models_monitor_row(const nav_model_set *set, const nav_flow_view *v, FILE *out) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->monitor_row) set->m[i].ops->monitor_row(&set->m[i], v, out);
}

void nav_models_summary(const nav_model_set *set, const nav_flow_view *v, FILE *out) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->summary) set->m[i].ops->summary(&set->m[i], v, out);
}

void nav_models_log(const nav_model_set *set, const nav_flow_view *v) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->log) set->m[i].ops->log(&set->m[i], v);
}

nav_err nav_models_report(nav_model_set *set, nav_flow_view *v, const struct nav_host_fields *h, const char *dir) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->report) NAV_CALL(set->m[i].ops->report(&set->m[i], v, h, dir));
  return NAV_OK;
}

int nav_models_snapshot_fields(const nav_model_set *set, const nav_flow_view *v, const char **name, int *ncomp,
                               int *model, int *index) {
  int n = 0;
  for (int i = 0; i < set->n; i++) {
    if (!set->m[i].ops->snapshot_fields) continue;
    const char *nm[NAV_MODEL_SNAPSHOT_MAX];
    int nc[NAV_MODEL_SNAPSHOT_MAX];
    const int k = set->m[i].ops->snapshot_fields(&set->m[i], v, nm, nc);
    for (int q = 0; q < k && n < NAV_MODEL_SNAPSHOT_MAX; q++, n++) {
      name[n] = nm[q];
      ncomp[n] = nc[q];
      model[n] = i;
      index[n] = q;
    }
  }
  return n;
}

int nav_models_state(nav_model_set *set, nav_state_array *a, int n) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->state) n += set->m[i].ops->state(&set->m[i], a + n);
  return n;
}

nav_err nav_models_restored(nav_model_set *set, nav_flow_view *v) {
  for (int i = 0; i < set->n; i++)
    if (set->m[i].ops->restored) NAV_CALL(set->m[i].ops->restored(&set->m[i], v));
  return NAV_OK;
}
