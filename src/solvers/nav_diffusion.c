/* Implicit diffusion and variable viscosity (see nav_diffusion.h). */
#include "solvers/nav_diffusion.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_viscous.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "physics/nav_helmholtz.h"
#include "solvers/nav_flow.h"
#include "solvers/nav_open.h"

/* The eddy viscosity of [physics] nu_t = linear at x: nu_t_value + nu_t_gradient . (x - origin). */
static double nav_nut_linear(const nav_config *cfg, const double x[3]) {
  const double org[3] = {cfg->x0, cfg->y0, cfg->z0};
  double v = cfg->nu_t_value;
  for (int d = 0; d < cfg->dim; d++) v += cfg->nu_t_gradient[d] * (x[d] - org[d]);
  return v;
}

/* Boundary kinds of the increment of velocity component c (the temperature's: physics/heat). */
static void nav_diffusion_bc(const nav_flow *f, int c, nav_scalar_bc bc[3][2]) {
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      if (d >= f->dim || f->pbc[d][s] == NAV_SCALAR_PERIODIC) {
        bc[d][s] = d >= f->dim ? NAV_SCALAR_NEUMANN : NAV_SCALAR_PERIODIC;
      } else if (d == c) {
        bc[d][s] = NAV_SCALAR_FACE; /* the normal velocity of the face is imposed */
      } else {
        bc[d][s] = f->vbc.type[d][s] == NAV_BC_FREE_SLIP ? NAV_SCALAR_NEUMANN : NAV_SCALAR_DIRICHLET;
      }
    }
}

static nav_err nav_diffusion_alloc(nav_flow *f, nav_real **x) {
  NAV_CALL(f->ops->alloc((void **)x, (size_t)f->box.ntot * sizeof(nav_real)));
  return f->ops->set(&f->box, *x, 0);
}

/* 1 if nu_t vanishes at face (d, s) of the block: a no-slip wall (moving or not) of this block under a turbulence
 * model's eddy viscosity (a prescribed [physics] nu_t keeps its own values up to the wall). */
static int nav_diffusion_nut_wall(const nav_flow *f, int d, int s) {
  return nav_models_viscous(&f->models) && f->vbc.type[d][s] == NAV_BC_WALL && !nav_halo_face(f->halo, d, s);
}

int nav_diffusion_cells(const nav_flow *f, int *ends) {
  *ends = 0;
  if (!f->diff || f->diff->implicit) return 0;
  for (int d = 0; d < f->dim; d++)
    for (int s = 0; s < 2; s++) {
      if (nav_halo_face(f->halo, d, s)) return 0;
      if (f->pbc[d][s] == NAV_SCALAR_PERIODIC)
        *ends |= 1 << d;
      else if (f->pbc[d][s] != NAV_SCALAR_NEUMANN)
        return 0;
      if (nav_diffusion_nut_wall(f, d, s)) *ends |= NAV_ENDS_WALL(d, s);
    }
  return 1;
}

nav_err nav_diffusion_viscosity_changed(nav_flow *f) {
  nav_diffusion *D = f->diff;
  int ends;
  D->version++; /* the cached response to a mean pressure gradient is stale */
  NAV_CALL(nav_fill_scalar_ghosts(f->ops, &f->box, f->halo, (const nav_scalar_bc(*)[2])f->pbc, D->nut));
  D->kf_stale = 1;
  if (nav_diffusion_cells(f, &ends)) return NAV_OK;
  return nav_diffusion_face_viscosities(f);
}

nav_err nav_diffusion_face_viscosities(nav_flow *f) {
  nav_diffusion *D = f->diff;
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = &f->box;
  if (!D->kf_stale) return NAV_OK;
  D->kf_stale = 0;
  NAV_CALL(D->k->face_viscosity(b, (nav_real)f->cfg->nu, D->nut, D->kf));
  for (int c = 0; c < f->dim; c++) {
    /* zero normal gradient (and even about the wall-normal face, as in the solver's levels) */
    NAV_CALL(nav_fill_scalar_ghosts(ops, b, f->halo, (const nav_scalar_bc(*)[2])f->pbc, D->kf[c]));
    if (f->pbc[c][0] != NAV_SCALAR_PERIODIC && !nav_halo_face(f->halo, c, 0))
      NAV_CALL(ops->fill_ghost(b, D->kf[c], c, 0, NAV_GHOST_REFLECT, 0, 0));
    /* nu_t = 0 at a wall across c: the ghost 2 nu - k, the mean at the wall nu (nav_face_viscosity_near) */
    for (int d = 0; d < f->dim; d++)
      for (int s = 0; s < 2; s++)
        if (d != c && nav_diffusion_nut_wall(f, d, s))
          NAV_CALL(ops->fill_ghost(b, D->kf[c], d, s, NAV_GHOST_MIRROR, -1, 2 * (nav_real)f->cfg->nu));
    if (D->solver[c]) NAV_CALL(nav_psolver_set_coefficient(D->solver[c], D->kf[c]));
  }
  return NAV_OK;
}

/* nu_t of [physics] nu_t at the cells of the block, and the largest nu + nu_t of the grid. */
static nav_err nav_diffusion_nut(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  nav_diffusion *D = f->diff;
  const nav_box *b = &f->box;
  NAV_CALL(nav_diffusion_alloc(f, &D->nut));
  for (int c = 0; c < f->dim; c++) NAV_CALL(nav_diffusion_alloc(f, &D->kf[c]));
  nav_real *host = calloc((size_t)b->ntot, sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the eddy viscosity");
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) {
        const int ijk[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
        double x[3] = {0, 0, 0};
        for (int d = 0; d < f->dim; d++) x[d] = f->xf[d][ijk[d]] + 0.5 * f->w[d][ijk[d]];
        host[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)nav_nut_linear(cfg, x);
      }
  const nav_err e = f->ops->from_host(D->nut, host, (size_t)b->ntot * sizeof *host);
  free(host);
  NAV_CALL(e);
  /* a linear field is largest at a corner of the domain */
  const double len[3] = {cfg->lx, cfg->ly, cfg->lz}, org[3] = {cfg->x0, cfg->y0, cfg->z0};
  D->nu_max = cfg->nu;
  for (int m = 0; m < (1 << f->dim); m++) {
    double x[3] = {0, 0, 0};
    for (int d = 0; d < f->dim; d++) x[d] = org[d] + ((m >> d) & 1) * len[d];
    D->nu_max = fmax(D->nu_max, cfg->nu + nav_nut_linear(cfg, x));
  }
  return NAV_OK;
}

nav_err nav_diffusion_create(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  /* implicit diffusion is a time scheme of the projection; artificial compressibility marches its own
   * pseudo-time (nav_ac.h) and leaves the key unused */
  const int implicit = !strcmp(cfg->diffusion, "implicit") && strcmp(cfg->method, "artificial_compressibility");
  /* an eddy viscosity: prescribed, or filled by a model (its viscosity hook, nav_model.h; 0 until then) */
  const int nut = strcmp(cfg->nu_t, "none") != 0 || nav_models_viscous(&f->models);
  if (!implicit && !nut) return NAV_OK;
  f->diff = calloc(1, sizeof *f->diff);
  NAV_CHECK(f->diff, NAV_ERR_MEMORY, "cannot allocate the diffusion solver");
  nav_diffusion *D = f->diff;
  D->k = nav_viscous_kernels_of(f->ops);
  NAV_CHECK(D->k, NAV_ERR_INPUT, "backend %s has no kernels of the variable viscosity", f->ops->name);
  D->implicit = implicit;
  D->nu_max = cfg->nu;
  if (implicit) {
    nav_psolver_options po;
    nav_helmholtz_options(cfg, &po);
    nav_scalar_bc bc[3][2];
    for (int c = 0; c < f->dim; c++) {
      nav_diffusion_bc(f, c, bc);
      po.staggered = c + 1;
      NAV_CALL(nav_psolver_create(f->ops, &f->dc, f->dim, f->n, f->w, (const nav_scalar_bc(*)[2])bc, &po,
                                  &D->solver[c]));
      NAV_CALL(nav_diffusion_alloc(f, &D->du[c]));
      NAV_CALL(nav_diffusion_alloc(f, &D->rhs[c]));
    }
    NAV_CALL(nav_diffusion_alloc(f, &D->phi));
  }
  if (nut) {
    NAV_CALL(nav_diffusion_nut(f));
    NAV_CALL(nav_diffusion_viscosity_changed(f));
  }
  return NAV_OK;
}

void nav_diffusion_destroy(nav_flow *f) {
  nav_diffusion *D = f->diff;
  if (!D) return;
  for (int c = 0; c < 3; c++) {
    nav_psolver_destroy(D->solver[c]);
    nav_real *v[5] = {D->du[c], D->rhs[c], D->kf[c], D->keep[c], D->ref[c]};
    for (int i = 0; i < 5; i++)
      if (v[i]) f->ops->free(v[i]);
  }
  nav_real *v[3] = {D->phi, D->nut, D->resp};
  for (int i = 0; i < 3; i++)
    if (v[i]) f->ops->free(v[i]);
  free(D);
  f->diff = NULL;
}

double nav_diffusion_max_diffusivity(const nav_flow *f) {
  const double nu = f->diff ? f->diff->nu_max : f->cfg->nu;
  /* the transported scalars' (0 without one), with its eddy diffusivity max nu_t / Pr_t */
  const double kappa = f->scalar.rprt > 0 ? f->max_diffusivity + (nu - f->cfg->nu) * f->scalar.rprt : f->max_diffusivity;
  return fmax(nu, kappa);
}

nav_err nav_diffusion_advance_stress(nav_flow *f, nav_real a, nav_real c) {
  nav_diffusion *D = f->diff;
  int ends;
  const int cells = nav_diffusion_cells(f, &ends);
  if (!cells) NAV_CALL(nav_diffusion_face_viscosities(f));
  return D->k->advance_stress(&f->box, f->u, cells ? NULL : D->kf, D->nut, (nav_real)f->cfg->nu, ends, a, c, f->rhs,
                              f->rhs_old);
}

nav_err nav_diffusion_explicit(nav_flow *f, nav_real *const *rhs) {
  NAV_CALL(nav_diffusion_face_viscosities(f));
  return f->diff->k->stress(&f->box, f->u, f->diff->kf, NAV_STRESS_DIAG | NAV_STRESS_CROSS, 1, rhs);
}

/* The Helmholtz solve of nav_helmholtz.h for the step being computed (f->step + 1). */
static nav_err nav_diffusion_solve(nav_flow *f, nav_psolver *ps, double sigma, double kscale, double scale,
                                   double dt, nav_real *x, nav_real *rhs) {
  return nav_helmholtz_solve(f->cfg, f->ops, &f->box, ps, sigma, kscale, scale, dt, x, rhs, f->step + 1, f->t,
                             &f->diff->iterations);
}

nav_err nav_diffusion_predict(nav_flow *f, nav_flow_view *v, const nav_step_info *si) {
  const double dt = si->dt, ca = si->ca, cb = si->cb;
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = &f->box;
  const nav_config *cfg = f->cfg;
  nav_diffusion *D = f->diff;
  const double theta = si->theta, sigma = 1 / (theta * dt);
  D->iterations = 0;
  D->theta = theta;
  /* H^n = -div(u u) + V_cross(u) (+ the models' terms: - b (T - T_ref), which also advance T, nav_heat.h) */
  NAV_CALL(ops->momentum_rhs(b, f->u, 0, f->rhs));
  if (D->nut) NAV_CALL(D->k->stress(b, f->u, D->kf, NAV_STRESS_CROSS, 1, f->rhs));
  NAV_CALL(nav_models_rhs(&f->models, v, si)); /* the models' terms of H^n (nav_model.h) */
  /* rhs = ca H^n + cb H^{n-1} + dt V_diag(u^n) - dt grad p^{n-1/2} */
  for (int c = 0; c < f->dim; c++) NAV_CALL(ops->set(b, D->rhs[c], 0));
  NAV_CALL(ops->advance(b, D->rhs, f->rhs, f->rhs_old, (nav_real)ca, (nav_real)cb));
  const double kscale = D->nut ? 1 : cfg->nu;
  nav_real *const *kf = D->nut ? D->kf : NULL;
  if (!nav_open_outflow(f)) {
    NAV_CALL(D->k->stress(b, f->u, kf, NAV_STRESS_DIAG, (nav_real)(dt * kscale), D->rhs));
  } else { /* (1 - theta) V(u^n); the outflow faces to t^{n+1}; theta V(u~^n), u~^n: u^n with their ghosts */
    NAV_CALL(D->k->stress(b, f->u, kf, NAV_STRESS_DIAG, (nav_real)((1 - theta) * dt * kscale), D->rhs));
    NAV_CALL(nav_open_advance(f, dt));
    NAV_CALL(nav_fill_velocity_ghosts(ops, b, f->halo, &f->vbc, f->u));
    NAV_CALL(D->k->stress(b, f->u, kf, NAV_STRESS_DIAG, (nav_real)(theta * dt * kscale), D->rhs));
  }
  NAV_CALL(ops->correct(b, D->rhs, f->p, (nav_real)dt));
  for (int c = 0; c < f->dim; c++) { /* H^n becomes the previous step's */
    nav_real *tmp = f->rhs[c];
    f->rhs[c] = f->rhs_old[c];
    f->rhs_old[c] = tmp;
  }
  double uscale = 0; /* the floor of the stopping rule: none for sweeps (nothing measured) */
  for (int c = 0; c < f->dim && !cfg->diffusion_sweeps; c++) {
    double r = 0;
    NAV_CALL(nav_helmholtz_rms(f->ops, &f->box, f->comm, f->volume, f->u[c], &r));
    uscale = fmax(uscale, r);
  }
  D->uscale = uscale;
  for (int c = 0; c < f->dim; c++) {
    if (D->keep_rhs) {
      if (!D->keep[c]) NAV_CALL(nav_diffusion_alloc(f, &D->keep[c]));
      NAV_CALL(ops->copy(D->keep[c], D->rhs[c], (size_t)b->ntot * sizeof(nav_real)));
    }
    NAV_CALL(nav_diffusion_solve(f, D->solver[c], sigma, kscale, uscale, dt, D->du[c], D->rhs[c]));
    NAV_CALL(ops->axpby(b, 1, D->du[c], 1, f->u[c]));
  }
  return NAV_OK;
}

nav_err nav_diffusion_reference(nav_flow *f, double dt, double dt_ref) {
  nav_diffusion *D = f->diff;
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = &f->box;
  const double kscale = D->nut ? 1 : f->cfg->nu, r = dt_ref / dt;
  const int iterations = D->iterations; /* the step's figure, not the report's */
  for (int c = 0; c < f->dim; c++) {
    NAV_CHECK(D->keep[c], NAV_ERR_INTERNAL, "nav_diffusion_reference: the right-hand sides were not kept");
    if (!D->ref[c]) NAV_CALL(nav_diffusion_alloc(f, &D->ref[c]));
    /* e from r du (the increment at dt scaled to dt_ref), then u^n + e as the predictor adds them */
    NAV_CALL(ops->axpby(b, (nav_real)r, D->du[c], 0, D->ref[c]));
    NAV_CALL(ops->axpby(b, 0, D->du[c], (nav_real)r, D->keep[c]));
    NAV_CALL(nav_diffusion_solve(f, D->solver[c], 1 / (D->theta * dt_ref), kscale, D->uscale, dt_ref, D->ref[c],
                                 D->keep[c]));
    NAV_CALL(ops->axpby(b, 1, f->u_prev[c], 1, D->ref[c]));
  }
  D->iterations = iterations;
  return NAV_OK;
}

nav_err nav_diffusion_response_into(nav_flow *f, int c, double dt, nav_real *r, double *bulk) {
  nav_diffusion *D = f->diff;
  const nav_box *b = &f->box;
  const double kscale = D->nut ? 1 : f->cfg->nu;
  /* r - theta dt V_diag(r) = dt e_c from r = 0; scale 0: no floor, the plain relative rule */
  NAV_CALL(f->ops->set(b, D->rhs[c], (nav_real)dt));
  NAV_CALL(f->ops->set(b, r, 0));
  NAV_CALL(nav_diffusion_solve(f, D->solver[c], 1 / (D->theta * dt), kscale, 0, dt, r, D->rhs[c]));
  double s;
  NAV_CALL(f->ops->face_sum(b, r, c, &s));
  nav_reduce_sum(f->comm, &s, 1);
  *bulk = s / f->volume;
  return NAV_OK;
}

nav_err nav_diffusion_response(nav_flow *f, int c, double dt, const nav_real **r, double *bulk) {
  nav_diffusion *D = f->diff;
  const double key = D->theta * dt;
  if (!D->resp) NAV_CALL(nav_diffusion_alloc(f, &D->resp));
  if (D->resp_key != key || D->resp_version != D->version) {
    NAV_CALL(nav_diffusion_response_into(f, c, dt, D->resp, &D->resp_bulk));
    D->resp_key = key;
    D->resp_version = D->version;
  }
  *r = D->resp;
  *bulk = D->resp_bulk;
  return NAV_OK;
}
