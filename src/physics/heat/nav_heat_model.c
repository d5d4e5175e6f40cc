/* The hooks of the model "heat" (physics/nav_model.h): the Boussinesq force, the time step of the
 * temperature, its steady-state change, monitors, summary, log and state (see nav_heat.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "physics/heat/nav_heat.h"
#include "physics/nav_helmholtz.h"

static int nav_heat_active(const nav_config *cfg) { return !strcmp(cfg->model, "boussinesq"); }

/* 1 if an LES closure (the model "les") fills the flow's eddy viscosity: T then diffuses with kappa + nu_t / Pr_t. */
static int nav_heat_les(const nav_flow_view *v) {
  for (int i = 0; i < v->models->n; i++)
    if (!strcmp(v->models->m[i].ops->name, "les")) return 1;
  return 0;
}

/* Implicit diffusion: the Helmholtz solver of the increment dT, with the homogeneous boundary kinds
 * of the temperature's faces (fixed: Dirichlet, flux: Neumann; periodic wrap). */
static nav_err nav_heat_implicit_create(nav_heat *h, const nav_flow_view *v) {
  nav_scalar_bc bc[3][2];
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      if (d >= v->dim || v->pbc[d][s] == NAV_SCALAR_PERIODIC)
        bc[d][s] = d >= v->dim ? NAV_SCALAR_NEUMANN : NAV_SCALAR_PERIODIC;
      else
        bc[d][s] = v->cfg->tbc[d][s] == NAV_THERMAL_FIXED ? NAV_SCALAR_DIRICHLET : NAV_SCALAR_NEUMANN;
    }
  nav_psolver_options po;
  nav_helmholtz_options(v->cfg, &po);
  po.staggered = 0;
  NAV_CALL(nav_psolver_create(v->ops, v->dc, v->dim, v->n, v->w, (const nav_scalar_bc(*)[2])bc, &po, &h->solver));
  const size_t bytes = (size_t)v->box->ntot * sizeof(nav_real);
  nav_real **a[2] = {&h->dT, &h->rhs};
  for (int i = 0; i < 2; i++) {
    NAV_CALL(v->ops->alloc((void **)a[i], bytes));
    NAV_CALL(v->ops->set(v->box, *a[i], 0));
  }
  return NAV_OK;
}

static nav_err nav_heat_create(nav_model *m, nav_flow_view *v) {
  m->data = calloc(1, sizeof(nav_heat));
  NAV_CHECK(m->data, NAV_ERR_MEMORY, "cannot allocate the temperature model");
  nav_heat *h = m->data;
  h->k = nav_heat_kernels_of(v->ops);
  NAV_CHECK(h->k, NAV_ERR_INPUT, "backend %s has no kernels of the temperature model", v->ops->name);
  NAV_CALL(nav_heat_setup(h, v));
  if (nav_heat_les(v)) {
    /* config check (physics/turbulence/turbulence_keys.c): the Helmholtz solve of T has a constant kappa */
    NAV_CHECK(!v->implicit, NAV_ERR_INPUT, "an LES closure with a temperature needs time.diffusion = explicit");
    h->rprt = 1 / v->cfg->prandtl_t;
    h->sc->rprt = h->rprt;
    h->bnd = nav_boundary_sides(v->box, v->n, v->vbc);
  }
  return v->implicit ? nav_heat_implicit_create(h, v) : NAV_OK;
}

static void nav_heat_destroy(nav_model *m, nav_flow_view *v) {
  nav_heat *h = m->data;
  if (!h) return;
  nav_psolver_destroy(h->solver);
  if (h->dT) v->ops->free(h->dT);
  if (h->rhs) v->ops->free(h->rhs);
  nav_heat_free(h, v);
  free(h);
  m->data = NULL;
}

/* T^{n+1} = T^n + dT by Crank-Nicolson for kappa lap T (theta of the step, s->theta) and AB2 for the
 * advection: rhs = ca S^n + cb S^{n-1} + dt kappa lap T^n, then the increment's Helmholtz solve
 * (solvers/nav_diffusion.h, the temperature's part). */
static nav_err nav_heat_implicit_step(nav_heat *h, const nav_flow_view *v, const nav_step_info *s) {
  const nav_kernel_ops *ops = v->ops;
  const nav_box *b = v->box;
  const nav_config *cfg = v->cfg;
  nav_scalar_slot *sc = h->sc;
  const double dt = s->dt, sigma = 1 / (s->theta * dt);
  NAV_CALL(ops->laplacian(b, sc->T, h->rhs));
  NAV_CALL(ops->axpby(b, (nav_real)s->ca, sc->rhs_T, (nav_real)(dt * cfg->diffusivity), h->rhs));
  if (s->cb != 0) NAV_CALL(ops->axpby(b, (nav_real)s->cb, sc->rhs_T_old, 1, h->rhs));
  double tscale = sc->t_scale;
  if (tscale <= 0 && !cfg->diffusion_sweeps) NAV_CALL(nav_helmholtz_rms(ops, b, v->comm, v->volume, sc->T, &tscale));
  h->iterations = 0;
  NAV_CALL(nav_helmholtz_solve(cfg, ops, b, h->solver, sigma, cfg->diffusivity, tscale, dt, h->dT, h->rhs,
                               v->step + 1, v->t, &h->iterations));
  return ops->axpby(b, 1, h->dT, 1, sc->T);
}

/* S(T^n) with u^n, the force of T^n in N(u^n), then T^n -> T^{n+1} (explicit AB2 or implicit), the AB2
 * history swapped and the ghosts of T^{n+1} filled. */
static nav_err nav_heat_rhs(nav_model *m, nav_flow_view *v, const nav_step_info *s) {
  nav_heat *h = m->data;
  nav_scalar_slot *sc = h->sc;
  const nav_kernel_ops *ops = v->ops;
  const nav_box *b = v->box;
  const nav_config *cfg = v->cfg;
  if (s->diagnose) NAV_CALL(ops->copy(sc->T_prev, sc->T, (size_t)b->ntot * sizeof(nav_real)));
  const nav_real coef[3] = {(nav_real)cfg->buoyancy[0], (nav_real)cfg->buoyancy[1], (nav_real)cfg->buoyancy[2]};
  /* implicit: the diffusion of T is in the solve, S = -div(u T); an LES closure: kappa + nu_t^n / Pr_t */
  const nav_real *nut = h->rprt > 0 ? v->nut : NULL;
  NAV_ASSERT(h->rprt == 0 || nut);
  NAV_CALL(h->k->scalar_rhs(b, v->u, sc->T, s->implicit ? 0 : (nav_real)cfg->diffusivity, nut, (nav_real)h->rprt,
                            h->bnd, sc->rhs_T));
  NAV_CALL(h->k->buoyancy(b, sc->T, coef, (nav_real)cfg->t_ref, v->rhs));
  if (s->implicit) {
    NAV_CALL(nav_heat_implicit_step(h, v, s));
  } else { /* T^{n+1} = T^n + a S^n + c S^{n-1} */
    NAV_CALL(ops->axpby(b, (nav_real)s->ca, sc->rhs_T, 1, sc->T));
    if ((nav_real)s->cb != 0) NAV_CALL(ops->axpby(b, (nav_real)s->cb, sc->rhs_T_old, 1, sc->T));
  }
  nav_real *tmp = sc->rhs_T;
  sc->rhs_T = sc->rhs_T_old;
  sc->rhs_T_old = tmp;
  return nav_fill_temperature_ghosts(ops, b, v->halo, &sc->tbc, sc->T);
}

static nav_err nav_heat_diagnose(nav_model *m, nav_flow_view *v) { return nav_heat_measure(m->data, v); }

/* max|T^{n+1} - T^n| / (dt t_scale), t_scale the spread of the fixed temperatures (else max |T|). */
static nav_err nav_heat_change(nav_model *m, nav_flow_view *v, double dt, double *change) {
  const nav_scalar_slot *sc = ((const nav_heat *)m->data)->sc;
  double d, mx;
  int bad;
  NAV_CALL(v->ops->max_abs_diff(v->box, sc->T, sc->T_prev, &d, &mx, &bad));
  double r[3] = {d, mx, bad};
  nav_reduce_max(v->comm, r, 3);
  NAV_CHECK(!r[2], NAV_ERR_BLOWUP, "the temperature is NaN or Inf after step %ld (time %.6g)", v->step, v->t);
  const double scale = sc->t_scale > 0 ? sc->t_scale : r[1];
  *change = scale > 0 ? r[0] / (dt * scale) : -1;
  return NAV_OK;
}

static void nav_heat_monitor_header(const nav_model *m, const nav_flow_view *v, FILE *out) {
  (void)v;
  const nav_heat_diag *h = &((const nav_heat *)m->data)->diag;
  for (int k = 0; k < h->nfaces; k++) fprintf(out, ",nusselt_%s", nav_face_name(h->face[k][0], h->face[k][1]));
  fprintf(out, ",u_max,u_max_y,v_max,v_max_x");
}

static void nav_heat_monitor_row(const nav_model *m, const nav_flow_view *v, FILE *out) {
  (void)v;
  const nav_heat_diag *h = &((const nav_heat *)m->data)->diag;
  for (int k = 0; k < h->nfaces; k++) fprintf(out, ",%.8e", h->nusselt[k]);
  fprintf(out, ",%.8e,%.6e,%.8e,%.6e", h->u_max, h->u_max_y, h->v_max, h->v_max_x);
}

static void nav_heat_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_heat_diag *h = &((const nav_heat *)m->data)->diag;
  fprintf(out, ",\n  \"convection\": {\"ra\": %.10g, \"pr\": %.10g, \"nusselt\": {", v->cfg->ra, v->cfg->pr);
  for (int k = 0; k < h->nfaces; k++)
    fprintf(out, "%s\"%s\": %.8g", k ? ", " : "", nav_face_name(h->face[k][0], h->face[k][1]), h->nusselt[k]);
  fprintf(out, "}, \"u_max\": %.8g, \"u_max_y\": %.6g, \"v_max\": %.8g, \"v_max_x\": %.6g}", h->u_max, h->u_max_y,
          h->v_max, h->v_max_x);
}

static void nav_heat_log(const nav_model *m, const nav_flow_view *v) {
  (void)v;
  const nav_heat_diag *h = &((const nav_heat *)m->data)->diag;
  printf("convection:");
  for (int k = 0; k < h->nfaces; k++)
    printf(" Nu %s %.5f,", nav_face_name(h->face[k][0], h->face[k][1]), h->nusselt[k]);
  printf(" u_max %.4f at y = %.4f, v_max %.4f at x = %.4f (u lx / kappa)\n", h->u_max, h->u_max_y, h->v_max,
         h->v_max_x);
}

static int nav_heat_state(nav_model *m, nav_state_array *a) {
  const nav_heat *h = m->data; /* the temperature, its AB2 history, the implicit solve's warm start */
  int n = 0;
  a[n++] = (nav_state_array){"T", h->sc->T};
  a[n++] = (nav_state_array){"rhs_T_old", h->sc->rhs_T_old};
  if (h->dT) a[n++] = (nav_state_array){"dT", h->dT};
  return n;
}

static nav_err nav_heat_restored(nav_model *m, nav_flow_view *v) {
  const nav_scalar_slot *sc = ((const nav_heat *)m->data)->sc;
  return nav_fill_temperature_ghosts(v->ops, v->box, v->halo, &sc->tbc, sc->T);
}

const nav_model_ops nav_model_heat = {
    .name = "heat",
    .sections = {"temperature", NULL},
    .plots = "convection",
    .pseudo_time_diagnose = 1,
    .active = nav_heat_active,
    .create = nav_heat_create,
    .destroy = nav_heat_destroy,
    .rhs = nav_heat_rhs,
    .diagnose = nav_heat_diagnose,
    .change = nav_heat_change,
    .monitor_header = nav_heat_monitor_header,
    .monitor_row = nav_heat_monitor_row,
    .summary = nav_heat_summary,
    .log = nav_heat_log,
    .state = nav_heat_state,
    .restored = nav_heat_restored,
};
