/* RANS turbulence: the k-omega SST model as transported scalars (see nav_turbulence.h). */
#include "physics/nav_turbulence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_sst.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"

#define NAV_TURB_NO_WALL 1e30 /* the wall distance of a case without walls: F1 = F2 = 0 */

/* k and omega of intensity I at speed U with length scale L: k = 1.5 (I U)^2, omega = sqrt(k) / (beta*^(1/4) L). */
static void nav_turbulence_inflow(double I, double U, double L, double *k, double *w) {
  *k = 1.5 * (I * U) * (I * U);
  *w = sqrt(*k) / (pow(NAV_SST_BETA_STAR, 0.25) * L);
}

static double nav_turbulence_length(const nav_config *cfg) {
  if (cfg->length_scale > 0) return cfg->length_scale;
  double l = fmin(cfg->lx, cfg->ly);
  if (cfg->dim == 3) l = fmin(l, cfg->lz);
  return 0.1 * l;
}

/* Mirror ghosts of k (q = 0) and omega (q = 1) and the kinds of their increments. */
static void nav_turbulence_bc(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  nav_turbulence *t = f->turb;
  const double L = nav_turbulence_length(cfg);
  memset(t->bc, 0, sizeof t->bc);
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      nav_scalar_bc kind = NAV_SCALAR_NEUMANN;
      for (int q = 0; q < 2; q++) {
        t->bc[q].kind[d][s] = NAV_GHOST_MIRROR;
        t->bc[q].alpha[d][s] = 1; /* zero normal gradient: outflow, free slip */
      }
      if (d >= f->dim) {
        t->ibc[d][s] = kind;
        continue;
      }
      if (cfg->bc[d][s] == NAV_BC_PERIODIC) {
        t->bc[0].kind[d][s] = t->bc[1].kind[d][s] = NAV_GHOST_PERIODIC;
        kind = NAV_SCALAR_PERIODIC;
      } else if (cfg->bc[d][s] == NAV_BC_WALL) { /* k = 0, omega = 60 nu / (beta1 d1^2) at the face */
        const double d1 = 0.5 * (s ? f->w[d][f->n[d] - 1] : f->w[d][0]);
        t->bc[0].alpha[d][s] = t->bc[1].alpha[d][s] = -1;
        t->bc[1].beta[d][s] = (nav_real)(2 * 60 * cfg->nu / (NAV_SST_BETA1 * d1 * d1));
        kind = NAV_SCALAR_DIRICHLET;
      } else if (cfg->bc[d][s] == NAV_BC_INFLOW) {
        const double *v = cfg->wall_velocity[d][s];
        double kin, win;
        nav_turbulence_inflow(cfg->intensity, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), L, &kin, &win);
        t->bc[0].alpha[d][s] = t->bc[1].alpha[d][s] = -1;
        t->bc[0].beta[d][s] = (nav_real)(2 * kin);
        t->bc[1].beta[d][s] = (nav_real)(2 * win);
        kind = NAV_SCALAR_DIRICHLET;
      }
      t->ibc[d][s] = kind;
    }
}

/* The wall distance of every cell of the block (host loop, once). */
static nav_err nav_turbulence_wall_distance(nav_flow *f) {
  const nav_box *b = &f->box;
  nav_real *host = malloc((size_t)b->ntot * sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the wall distance");
  for (nav_idx q = 0; q < b->ntot; q++) host[q] = (nav_real)NAV_TURB_NO_WALL;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        double dist = NAV_TURB_NO_WALL;
        for (int d = 0; d < f->dim; d++) {
          const double x = f->xf[d][g[d]] + 0.5 * f->w[d][g[d]];
          if (f->cfg->bc[d][0] == NAV_BC_WALL) dist = fmin(dist, x - f->xf[d][0]);
          if (f->cfg->bc[d][1] == NAV_BC_WALL) dist = fmin(dist, f->xf[d][f->n[d]] - x);
        }
        host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)dist;
      }
  const nav_err e = f->ops->from_host(f->turb->wd, host, (size_t)b->ntot * sizeof *host);
  free(host);
  return e;
}

/* The velocity scale of the initial k (the rule of nav_config.c). */
static nav_err nav_turbulence_velocity_scale(nav_flow *f, double *U) {
  const nav_config *cfg = f->cfg;
  double umax = 0;
  for (int c = 0; c < f->dim; c++) {
    double m;
    NAV_CALL(f->ops->max_abs_diff(&f->box, f->u[c], NULL, NULL, &m, NULL));
    umax = fmax(umax, m);
  }
  nav_reduce_max(f->comm, &umax, 1);
  for (int d = 0; d < f->dim; d++)
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

static nav_err nav_turbulence_alloc(nav_flow *f, nav_real **x) {
  NAV_CALL(f->ops->alloc((void **)x, (size_t)f->box.ntot * sizeof(nav_real)));
  return f->ops->set(&f->box, *x, 0);
}

/* The ghosts of k and omega, then nu_t (and every other cell term) from u, k, omega, and the momentum
 * equation's eddy viscosity nu_t <- alpha nu_t(model) + (1 - alpha) nu_t (alpha = nut_relaxation; 1 at
 * the start, relax 0: only the ghosts and the face viscosities of the current nu_t, after a restart). */
static nav_err nav_turbulence_update_nut(nav_flow *f, double alpha) {
  nav_turbulence *t = f->turb;
  const nav_kernel_ops *ops = f->ops;
  NAV_CALL(nav_fill_temperature_ghosts(ops, &f->box, f->halo, &t->bc[0], t->k));
  NAV_CALL(nav_fill_temperature_ghosts(ops, &f->box, f->halo, &t->bc[1], t->w));
  if (alpha > 0) {
    nav_real *nut_only[8] = {t->out[0], NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    NAV_CALL(ops->sst_cells(&f->box, f->u, t->k, t->w, t->wd, (nav_real)f->cfg->nu, nut_only));
    NAV_CALL(ops->axpby(&f->box, (nav_real)alpha, t->out[0], (nav_real)(1 - alpha), f->diff->nut));
  }
  double m;
  NAV_CALL(ops->max_abs_diff(&f->box, f->diff->nut, NULL, NULL, &m, NULL));
  nav_reduce_max(f->comm, &m, 1);
  t->nut_max = m;
  f->diff->nu_max = f->cfg->nu + m; /* the explicit time-step limit */
  return nav_diffusion_viscosity_changed(f);
}

nav_err nav_turbulence_create(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  if (strcmp(cfg->turbulence_model, "k_omega_sst")) return NAV_OK;
  NAV_CHECK(f->diff && f->diff->nut, NAV_ERR_INTERNAL, "nav_turbulence_create: no eddy viscosity to fill");
  f->turb = calloc(1, sizeof *f->turb);
  NAV_CHECK(f->turb, NAV_ERR_MEMORY, "cannot allocate the turbulence model");
  nav_turbulence *t = f->turb;
  t->change = -1;
  nav_real **arrays[] = {&t->k, &t->w, &t->dk, &t->dw, &t->wd, &t->rhs};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) NAV_CALL(nav_turbulence_alloc(f, arrays[i]));
  for (int i = 0; i < 8; i++) NAV_CALL(nav_turbulence_alloc(f, &t->out[i]));
  nav_turbulence_bc(f);
  NAV_CALL(nav_turbulence_wall_distance(f));
  /* the initial state */
  double U = 0, k0 = 0, w0 = 0;
  NAV_CALL(nav_turbulence_velocity_scale(f, &U));
  nav_turbulence_inflow(cfg->intensity, U, nav_turbulence_length(cfg), &k0, &w0);
  if (cfg->k_initial > 0) {
    k0 = cfg->k_initial;
    w0 = sqrt(k0) / (pow(NAV_SST_BETA_STAR, 0.25) * nav_turbulence_length(cfg));
  }
  if (cfg->omega_initial > 0) w0 = cfg->omega_initial;
  NAV_CHECK(w0 > 0, NAV_ERR_INPUT,
            "%s: key 'turbulence.omega_initial': the initial omega is 0 (no velocity scale: the case is at rest with "
            "no forcing, wall speed or inflow); set turbulence.k_initial or omega_initial",
            cfg->source);
  NAV_CALL(f->ops->set(&f->box, t->k, (nav_real)k0));
  NAV_CALL(f->ops->set(&f->box, t->w, (nav_real)w0));
  t->k_max = k0;
  t->w_max = w0;
  /* one Helmholtz solver for both increments */
  nav_psolver_options po;
  nav_diffusion_options(cfg, &po);
  NAV_CALL(nav_psolver_create(f->ops, &f->dc, f->dim, f->n, f->w, (const nav_scalar_bc(*)[2])t->ibc, &po,
                              &t->solver));
  return nav_turbulence_update_nut(f, 1);
}

void nav_turbulence_destroy(nav_flow *f) {
  nav_turbulence *t = f->turb;
  if (!t) return;
  nav_psolver_destroy(t->solver);
  nav_real *v[] = {t->k, t->w, t->dk, t->dw, t->wd, t->rhs};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    if (v[i]) f->ops->free(v[i]);
  for (int i = 0; i < 8; i++)
    if (t->out[i]) f->ops->free(t->out[i]);
  free(t);
  f->turb = NULL;
}

nav_err nav_turbulence_restored(nav_flow *f) {
  if (!f->turb) return NAV_OK;
  f->turb->change = -1;
  return nav_turbulence_update_nut(f, 0); /* nu_t is state (its relaxation) */
}

/* RMS of x over the interior, reduced over the ranks. */
static nav_err nav_turbulence_rms(nav_flow *f, const nav_real *x, double *rms) {
  double s;
  NAV_CALL(f->ops->dot(&f->box, x, x, &s));
  nav_reduce_sum(f->comm, &s, 1);
  *rms = sqrt(fmax(s, 0) / f->volume);
  return NAV_OK;
}

/* One equation: R = q - c phi + div(Gamma grad phi) into t->rhs, then (1/dt + c) dphi - div(Gamma grad
 * dphi) = R and phi += dphi. g, q, c: the arrays of Gamma, q, c (g's ghosts filled here). The stopping
 * rule has the floor of nav_diffusion.c: the error of dphi stays below tol F |phi|, F = dt max(1,
 * steady_tol / (10 tol)) at most 1, a tenth of steady_tol in the change per unit time. */
static nav_err nav_turbulence_solve(nav_flow *f, double dt, nav_real *phi, nav_real *dphi, nav_real *g,
                                    const nav_real *q, nav_real *c) {
  nav_turbulence *t = f->turb;
  const nav_kernel_ops *ops = f->ops;
  NAV_CALL(nav_fill_scalar_ghosts(ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, g));
  nav_box bx = f->box; /* div(Gamma grad phi) - c phi: the Helmholtz operator without the 1/dt */
  bx.kc = g;
  bx.sc = c;
  NAV_CALL(ops->laplacian(&bx, phi, t->rhs));
  NAV_CALL(ops->axpby(&f->box, 1, q, 1, t->rhs));
  /* div(Gamma grad dphi) - (1/dt + c) dphi = -R */
  NAV_CALL(ops->axpby(&f->box, -1, t->rhs, 0, t->rhs));
  const double sigma = 1 / dt, tol = f->cfg->diffusion_tolerance;
  const double F = fmin(1, dt * fmax(1, 0.1 * f->cfg->steady_tol / tol));
  double scale = 0; /* the floor of the stopping rule: none for sweeps (nothing measured) */
  if (!f->cfg->diffusion_sweeps) NAV_CALL(nav_turbulence_rms(f, phi, &scale));
  NAV_CALL(nav_psolver_set_coefficient(t->solver, g));
  NAV_CALL(nav_psolver_set_shift_field(t->solver, c));
  NAV_CALL(nav_psolver_set_shift(t->solver, sigma));
  nav_psolver_set_floor(t->solver, sigma * scale * F);
  nav_psolver_stats st;
  NAV_CALL(nav_psolver_solve(t->solver, dphi, t->rhs, &st));
  NAV_CHECK(isfinite(st.relres), NAV_ERR_BLOWUP,
            "the turbulence model blew up at step %ld, time %.6g: the k or omega right-hand side is NaN or Inf; "
            "reduce [time] dt or cfl",
            f->step, f->t);
  NAV_CHECK(st.converged, NAV_ERR_CONVERGENCE,
            "turbulence solve did not converge at step %ld, time %.6g: relative residual %.3e after %d cycles "
            "(tolerance %.1e); raise [pressure] max_iterations or [time] diffusion_tolerance",
            f->step, f->t, st.relres, st.iterations, tol);
  if (st.iterations > t->iterations) t->iterations = st.iterations;
  return ops->axpby(&f->box, 1, dphi, 1, phi);
}

/* max|d| / (dt max|x|) over the grid (0 when x is 0). */
static nav_err nav_turbulence_change(nav_flow *f, const nav_real *x, const nav_real *d, double dt, double *change,
                                     double *xmax) {
  double v[3];
  int bad;
  NAV_CALL(f->ops->max_abs_diff(&f->box, d, NULL, NULL, &v[0], &bad));
  NAV_CALL(f->ops->max_abs_diff(&f->box, x, NULL, NULL, &v[1], NULL));
  v[2] = bad;
  nav_reduce_max(f->comm, v, 3);
  NAV_CHECK(!v[2], NAV_ERR_BLOWUP, "k or omega is NaN or Inf after step %ld (time %.6g)", f->step, f->t);
  *change = v[1] > 0 ? v[0] / (dt * v[1]) : 0;
  *xmax = v[1];
  return NAV_OK;
}

nav_err nav_turbulence_step(nav_flow *f, double dt, int diagnose) {
  nav_turbulence *t = f->turb;
  if (!t) return NAV_OK;
  t->iterations = 0;
  /* the cell terms at (u^{n+1}, k^n, omega^n) but nu_t and F1 (not read here); ghosts of k, omega are filled */
  nav_real *terms[8] = {NULL, NULL, t->out[2], t->out[3], t->out[4], t->out[5], t->out[6], t->out[7]};
  NAV_CALL(f->ops->sst_cells(&f->box, f->u, t->k, t->w, t->wd, (nav_real)f->cfg->nu, terms));
  NAV_CALL(nav_turbulence_solve(f, dt, t->k, t->dk, t->out[2], t->out[4], t->out[6]));
  NAV_CALL(nav_turbulence_solve(f, dt, t->w, t->dw, t->out[3], t->out[5], t->out[7]));
  NAV_CALL(nav_turbulence_update_nut(f, f->cfg->nut_relaxation));
  if (diagnose) {
    double ck, cw;
    NAV_CALL(nav_turbulence_change(f, t->k, t->dk, dt, &ck, &t->k_max));
    NAV_CALL(nav_turbulence_change(f, t->w, t->dw, dt, &cw, &t->w_max));
    t->change = fmax(ck, cw);
  }
  return NAV_OK;
}
