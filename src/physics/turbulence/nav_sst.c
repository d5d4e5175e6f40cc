/* RANS turbulence: the k-omega SST model as transported scalars, a model of physics/nav_model.h (see nav_sst.h). */
#include "physics/turbulence/nav_sst.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_sst.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "physics/nav_helmholtz.h"

#define NAV_TURB_NO_WALL 1e30 /* the wall distance of a case without walls: F1 = F2 = 0 */

/* k and omega of intensity I at speed U with length scale L: k = 1.5 (I U)^2, omega = sqrt(k) / (beta*^(1/4) L). */
static void nav_sst_inflow(double I, double U, double L, double *k, double *w) {
  *k = 1.5 * (I * U) * (I * U);
  *w = sqrt(*k) / (pow(NAV_SST_BETA_STAR, 0.25) * L);
}

static double nav_sst_length(const nav_config *cfg) {
  if (cfg->length_scale > 0) return cfg->length_scale;
  double l = fmin(cfg->lx, cfg->ly);
  if (cfg->dim == 3) l = fmin(l, cfg->lz);
  return 0.1 * l;
}

/* Mirror ghosts of k (q = 0) and omega (q = 1) and the kinds of their increments. */
static void nav_sst_bc(const nav_flow_view *v, nav_sst *t) {
  const nav_config *cfg = v->cfg;
  const double L = nav_sst_length(cfg);
  memset(t->bc, 0, sizeof t->bc);
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      nav_scalar_bc kind = NAV_SCALAR_NEUMANN;
      for (int q = 0; q < 2; q++) {
        t->bc[q].kind[d][s] = NAV_GHOST_MIRROR;
        t->bc[q].alpha[d][s] = 1; /* zero normal gradient: outflow, free slip */
      }
      if (d >= v->dim) {
        t->ibc[d][s] = kind;
        continue;
      }
      if (cfg->bc[d][s] == NAV_BC_PERIODIC) {
        t->bc[0].kind[d][s] = t->bc[1].kind[d][s] = NAV_GHOST_PERIODIC;
        kind = NAV_SCALAR_PERIODIC;
      } else if (cfg->bc[d][s] == NAV_BC_WALL) { /* k = 0, omega = 60 nu / (beta1 d1^2) at the face */
        const double d1 = 0.5 * (s ? v->w[d][v->n[d] - 1] : v->w[d][0]);
        t->bc[0].alpha[d][s] = t->bc[1].alpha[d][s] = -1;
        t->bc[1].beta[d][s] = (nav_real)(2 * 60 * cfg->nu / (NAV_SST_BETA1 * d1 * d1));
        kind = NAV_SCALAR_DIRICHLET;
      } else if (cfg->bc[d][s] == NAV_BC_INFLOW) {
        const double *uw = cfg->wall_velocity[d][s];
        double kin, win;
        nav_sst_inflow(cfg->intensity, sqrt(uw[0] * uw[0] + uw[1] * uw[1] + uw[2] * uw[2]), L, &kin, &win);
        t->bc[0].alpha[d][s] = t->bc[1].alpha[d][s] = -1;
        t->bc[0].beta[d][s] = (nav_real)(2 * kin);
        t->bc[1].beta[d][s] = (nav_real)(2 * win);
        kind = NAV_SCALAR_DIRICHLET;
      }
      t->ibc[d][s] = kind;
    }
}

/* The wall distance of every cell of the block (host loop, once). */
static nav_err nav_sst_wall_distance(const nav_flow_view *v, nav_sst *t) {
  const nav_box *b = v->box;
  nav_real *host = malloc((size_t)b->ntot * sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the wall distance");
  for (nav_idx q = 0; q < b->ntot; q++) host[q] = (nav_real)NAV_TURB_NO_WALL;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        double dist = NAV_TURB_NO_WALL;
        for (int d = 0; d < v->dim; d++) {
          const double x = v->xf[d][g[d]] + 0.5 * v->w[d][g[d]];
          if (v->cfg->bc[d][0] == NAV_BC_WALL) dist = fmin(dist, x - v->xf[d][0]);
          if (v->cfg->bc[d][1] == NAV_BC_WALL) dist = fmin(dist, v->xf[d][v->n[d]] - x);
        }
        host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)dist;
      }
  const nav_err e = v->ops->from_host(t->wd, host, (size_t)b->ntot * sizeof *host);
  free(host);
  return e;
}

/* The velocity scale of the initial k (the rule of nav_config.c). */
static nav_err nav_sst_velocity_scale(const nav_flow_view *v, double *U) {
  const nav_config *cfg = v->cfg;
  double umax = 0;
  for (int c = 0; c < v->dim; c++) {
    double m;
    NAV_CALL(v->ops->max_abs_diff(v->box, v->u[c], NULL, NULL, &m, NULL));
    umax = fmax(umax, m);
  }
  nav_reduce_max(v->comm, &umax, 1);
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++)
      for (int c = 0; c < 3; c++) umax = fmax(umax, fabs(cfg->wall_velocity[d][s][c]));
  if (!strcmp(cfg->forcing, "flow_rate")) umax = fmax(umax, fabs(cfg->forcing_value));
  if (!strcmp(cfg->forcing, "pressure_gradient")) {
    double l = fmin(cfg->lx, cfg->ly);
    if (cfg->dim == 3) l = fmin(l, cfg->lz);
    umax = fmax(umax, sqrt(fabs(cfg->forcing_value) * l));
  }
  *U = umax;
  return NAV_OK;
}

static nav_err nav_sst_alloc(const nav_flow_view *v, nav_real **x) {
  NAV_CALL(v->ops->alloc((void **)x, (size_t)v->box->ntot * sizeof(nav_real)));
  return v->ops->set(v->box, *x, 0);
}

/* The ghosts of k and omega, then nu_t (and every other cell term) from u, k, omega, and the momentum
 * equation's eddy viscosity nu_t <- alpha nu_t(model) + (1 - alpha) nu_t (alpha = nut_relaxation; 1 at
 * the start, 0 after a restart: only the ghosts of k, omega); the solver
 * then refills nu_t's ghosts and the face viscosities (the viscosity hook, nav_model.h). */
static nav_err nav_sst_viscosity(nav_model *m, nav_flow_view *v, nav_viscosity_when when) {
  nav_sst *t = m->data;
  const nav_kernel_ops *ops = v->ops;
  const double alpha = when == NAV_VISCOSITY_START ? 1 : when == NAV_VISCOSITY_STEP ? v->cfg->nut_relaxation : 0;
  NAV_CALL(nav_fill_temperature_ghosts(ops, v->box, v->halo, &t->bc[0], t->k));
  NAV_CALL(nav_fill_temperature_ghosts(ops, v->box, v->halo, &t->bc[1], t->w));
  if (alpha > 0) {
    nav_real *nut_only[8] = {t->out[0], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    NAV_CALL(t->kt->sst_cells(v->box, v->u, t->k, t->w, t->wd, (nav_real)v->cfg->nu, nut_only));
    NAV_CALL(ops->axpby(v->box, (nav_real)alpha, t->out[0], (nav_real)(1 - alpha), v->nut));
  }
  return NAV_OK;
}

/* The max of nu_t over the ranks (monitor steps, after the viscosity hook: the nu_t of the next step). */
static nav_err nav_sst_diagnose(nav_model *m, nav_flow_view *v) {
  return nav_models_nut_max(v, &((nav_sst *)m->data)->nut_max);
}

static int nav_sst_active(const nav_config *cfg) { return !strcmp(cfg->turbulence_model, "k_omega_sst"); }

static nav_err nav_sst_create(nav_model *m, nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  NAV_CHECK(v->nut, NAV_ERR_INTERNAL, "nav_sst_create: no eddy viscosity to fill");
  m->data = calloc(1, sizeof(nav_sst));
  NAV_CHECK(m->data, NAV_ERR_MEMORY, "cannot allocate the turbulence model");
  nav_sst *t = m->data;
  t->kt = nav_sst_kernels_of(v->ops);
  NAV_CHECK(t->kt, NAV_ERR_INPUT, "backend %s has no kernels of the k-omega SST model", v->ops->name);
  t->change = -1;
  t->nut = v->nut;
  nav_real **arrays[] = {&t->k, &t->w, &t->dk, &t->dw, &t->wd, &t->rhs};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) NAV_CALL(nav_sst_alloc(v, arrays[i]));
  for (int i = 0; i < 8; i++) NAV_CALL(nav_sst_alloc(v, &t->out[i]));
  nav_sst_bc(v, t);
  NAV_CALL(nav_sst_wall_distance(v, t));
  /* the initial state */
  double U = 0, k0 = 0, w0 = 0;
  NAV_CALL(nav_sst_velocity_scale(v, &U));
  nav_sst_inflow(cfg->intensity, U, nav_sst_length(cfg), &k0, &w0);
  if (cfg->k_initial > 0) {
    k0 = cfg->k_initial;
    w0 = sqrt(k0) / (pow(NAV_SST_BETA_STAR, 0.25) * nav_sst_length(cfg));
  }
  if (cfg->omega_initial > 0) w0 = cfg->omega_initial;
  NAV_CHECK(w0 > 0, NAV_ERR_INPUT,
            "%s: key 'turbulence.omega_initial': the initial omega is 0 (no velocity scale: the case is at rest with "
            "no forcing, wall speed or inflow); set turbulence.k_initial or omega_initial",
            cfg->source);
  NAV_CALL(v->ops->set(v->box, t->k, (nav_real)k0));
  NAV_CALL(v->ops->set(v->box, t->w, (nav_real)w0));
  t->k_max = k0;
  t->w_max = w0;
  /* one Helmholtz solver for both increments */
  nav_psolver_options po;
  nav_helmholtz_options(cfg, &po);
  return nav_psolver_create(v->ops, v->dc, v->dim, v->n, v->w, (const nav_scalar_bc(*)[2])t->ibc, &po, &t->solver);
}

static void nav_sst_destroy(nav_model *m, nav_flow_view *v) {
  nav_sst *t = m->data;
  if (!t) return;
  nav_psolver_destroy(t->solver);
  nav_real *a[] = {t->k, t->w, t->dk, t->dw, t->wd, t->rhs};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
    if (a[i]) v->ops->free(a[i]);
  for (int i = 0; i < 8; i++)
    if (t->out[i]) v->ops->free(t->out[i]);
  free(t);
  m->data = NULL;
}

static nav_err nav_sst_restored(nav_model *m, nav_flow_view *v) {
  (void)v;
  ((nav_sst *)m->data)->change = -1; /* then the viscosity hook (restart): nu_t is state (its relaxation) */
  return NAV_OK;
}

/* One equation: R = q - c phi + div(Gamma grad phi) into t->rhs, then (1/dt + c) dphi - div(Gamma grad
 * dphi) = R and phi += dphi. g, q, c: the arrays of Gamma, q, c (g's ghosts filled here). The stopping
 * rule has the floor of nav_helmholtz.h: the error of dphi stays below tol F |phi|, F = dt max(1,
 * steady_tol / (10 tol)) at most 1, a tenth of steady_tol in the change per unit time. */
static nav_err nav_sst_solve(const nav_flow_view *v, nav_sst *t, double dt, nav_real *phi, nav_real *dphi,
                             nav_real *g, const nav_real *q, nav_real *c) {
  const nav_kernel_ops *ops = v->ops;
  NAV_CALL(nav_fill_scalar_ghosts(ops, v->box, v->halo, v->pbc, g));
  nav_box bx = *v->box; /* div(Gamma grad phi) - c phi: the Helmholtz operator without the 1/dt */
  bx.kc = g;
  bx.sc = c;
  NAV_CALL(ops->laplacian(&bx, phi, t->rhs));
  NAV_CALL(ops->axpby(v->box, 1, q, 1, t->rhs));
  /* div(Gamma grad dphi) - (1/dt + c) dphi = -R */
  NAV_CALL(ops->axpby(v->box, -1, t->rhs, 0, t->rhs));
  const double sigma = 1 / dt, tol = v->cfg->diffusion_tolerance;
  const double F = fmin(1, dt * fmax(1, 0.1 * v->cfg->steady_tol / tol));
  double scale = 0; /* the floor of the stopping rule: none for sweeps (nothing measured) */
  if (!v->cfg->diffusion_sweeps) NAV_CALL(nav_helmholtz_rms(ops, v->box, v->comm, v->volume, phi, &scale));
  NAV_CALL(nav_psolver_set_coefficient(t->solver, g));
  NAV_CALL(nav_psolver_set_shift_field(t->solver, c));
  NAV_CALL(nav_psolver_set_shift(t->solver, sigma));
  nav_psolver_set_floor(t->solver, sigma * scale * F);
  nav_psolver_stats st;
  NAV_CALL(nav_psolver_solve(t->solver, dphi, t->rhs, &st));
  NAV_CHECK(isfinite(st.relres), NAV_ERR_BLOWUP,
            "the turbulence model blew up at step %ld, time %.6g: the k or omega right-hand side is NaN or Inf; "
            "reduce [time] dt or cfl",
            v->step, v->t);
  NAV_CHECK(st.converged, NAV_ERR_CONVERGENCE,
            "turbulence solve did not converge at step %ld, time %.6g: relative residual %.3e after %d cycles "
            "(tolerance %.1e); raise [pressure] max_iterations or [time] diffusion_tolerance",
            v->step, v->t, st.relres, st.iterations, tol);
  if (st.iterations > t->iterations) t->iterations = st.iterations;
  return ops->axpby(v->box, 1, dphi, 1, phi);
}

/* max|d| / (dt max|x|) over the grid (0 when x is 0). */
static nav_err nav_sst_measure(const nav_flow_view *v, const nav_real *x, const nav_real *d, double dt,
                               double *change, double *xmax) {
  double r[3];
  int bad;
  NAV_CALL(v->ops->max_abs_diff(v->box, d, NULL, NULL, &r[0], &bad));
  NAV_CALL(v->ops->max_abs_diff(v->box, x, NULL, NULL, &r[1], NULL));
  r[2] = bad;
  nav_reduce_max(v->comm, r, 3);
  NAV_CHECK(!r[2], NAV_ERR_BLOWUP, "k or omega is NaN or Inf after step %ld (time %.6g)", v->step, v->t);
  *change = r[1] > 0 ? r[0] / (dt * r[1]) : 0;
  *xmax = r[1];
  return NAV_OK;
}

/* k, omega by dt with u^{n+1} (ghosts filled); the change on monitor steps. nu_t follows in the
 * viscosity hook. */
static nav_err nav_sst_after_projection(nav_model *m, nav_flow_view *v, const nav_step_info *s) {
  nav_sst *t = m->data;
  const double dt = s->dt;
  t->iterations = 0;
  /* the cell terms at (u^{n+1}, k^n, omega^n) but nu_t and F1 (not read here); ghosts of k, omega are filled */
  nav_real *terms[8] = {NULL, NULL, t->out[2], t->out[3], t->out[4], t->out[5], t->out[6], t->out[7]};
  NAV_CALL(t->kt->sst_cells(v->box, v->u, t->k, t->w, t->wd, (nav_real)v->cfg->nu, terms));
  NAV_CALL(nav_sst_solve(v, t, dt, t->k, t->dk, t->out[2], t->out[4], t->out[6]));
  NAV_CALL(nav_sst_solve(v, t, dt, t->w, t->dw, t->out[3], t->out[5], t->out[7]));
  if (s->diagnose) {
    double ck, cw;
    NAV_CALL(nav_sst_measure(v, t->k, t->dk, dt, &ck, &t->k_max));
    NAV_CALL(nav_sst_measure(v, t->w, t->dw, dt, &cw, &t->w_max));
    t->change = fmax(ck, cw);
  }
  return NAV_OK;
}

static nav_err nav_sst_change(nav_model *m, nav_flow_view *v, double dt, double *change) {
  (void)v;
  (void)dt;
  *change = ((const nav_sst *)m->data)->change;
  return NAV_OK;
}

static void nav_sst_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_sst *t = m->data;
  char a[3][32];
  fprintf(out, ",\n  \"turbulence\": {\"model\": \"%s\", \"k_max\": %s, \"omega_max\": %s, \"nut_max\": %s}",
          v->cfg->turbulence_model, nav_json_real(t->k_max, "%.16e", a[0]),
          nav_json_real(t->w_max, "%.16e", a[1]), nav_json_real(t->nut_max, "%.16e", a[2]));
}

static int nav_sst_state(nav_model *m, nav_state_array *a) {
  nav_sst *t = m->data; /* k, omega and the warm starts of their solves */
  a[0] = (nav_state_array){"k", t->k};
  a[1] = (nav_state_array){"omega", t->w};
  a[2] = (nav_state_array){"dk", t->dk};
  a[3] = (nav_state_array){"domega", t->dw};
  a[4] = (nav_state_array){"nut", t->nut}; /* relaxed: not a function of the rest */
  return 5;
}

static int nav_sst_fields(const nav_model *m, const nav_flow_view *v, nav_state_array *a) {
  (void)v;
  const nav_sst *t = m->data;
  a[0] = (nav_state_array){"k", t->k};
  a[1] = (nav_state_array){"omega", t->w};
  a[2] = (nav_state_array){"nut", t->nut};
  return 3;
}

const nav_model_ops nav_model_sst = {
    .name = "sst",
    .sections = {"turbulence", NULL},
    .plots = "channel",
    .active = nav_sst_active,
    .create = nav_sst_create,
    .destroy = nav_sst_destroy,
    .viscosity = nav_sst_viscosity,
    .after_projection = nav_sst_after_projection,
    .diagnose = nav_sst_diagnose,
    .change = nav_sst_change,
    .summary = nav_sst_summary,
    .state = nav_sst_state,
    .fields = nav_sst_fields,
    .restored = nav_sst_restored,
};
