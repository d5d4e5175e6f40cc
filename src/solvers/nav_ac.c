/* Artificial compressibility: the pseudo-time march to the steady state (see nav_ac.h). */
#include "solvers/nav_ac.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_ac.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_flow.h"

/* The march reuses the projection's work arrays: u_prev holds u0 (the state at the start of the
 * iteration), rhs the momentum residual N + B, div the pressure p0, T_prev and rhs_T T0 and S(T). */
typedef struct nav_ac {
  nav_ac_params a;
  double u_wall;    /* largest wall speed */
  double u_seen;    /* max |u| at the last measurement (automatic u_ref) */
} nav_ac;

/* u_ref^2 of the local beta: the case's reference speed, or the automatic one. */
static nav_real nav_ac_u_ref2(const nav_flow *f, const nav_ac *ac) {
  const double u = f->cfg->ac_u_ref > 0 ? f->cfg->ac_u_ref : fmax(ac->u_wall, ac->u_seen);
  return (nav_real)(u * u);
}

nav_err nav_ac_create(nav_flow *f) {
  const nav_config *c = f->cfg;
  if (strcmp(c->method, "artificial_compressibility")) return NAV_OK;
  nav_ac *ac = calloc(1, sizeof *ac);
  NAV_CHECK(ac, NAV_ERR_MEMORY, "cannot allocate the artificial-compressibility state");
  f->ac = ac;
  ac->a.cfl = (nav_real)c->ac_cfl;
  ac->a.beta2 = (nav_real)(c->ac_beta * c->ac_beta);
  ac->a.nu = (nav_real)fmax(c->nu, f->T ? c->diffusivity : 0);
  for (int d = 0; d < f->dim; d++) {
    ac->a.skip_low[d] = f->dc.g0[d] == 0 && c->bc[d][0] != NAV_BC_PERIODIC;
    for (int s = 0; s < 2; s++)
      if (c->bc[d][s] == NAV_BC_WALL)
        for (int k = 0; k < f->dim; k++) ac->u_wall = fmax(ac->u_wall, fabs(c->wall_velocity[d][s][k]));
  }
  double lmin = c->lx;
  lmin = fmin(lmin, c->ly);
  if (f->dim == 3) lmin = fmin(lmin, c->lz);
  ac->u_seen = ac->a.nu / lmin; /* the diffusion speed until a velocity is measured */
  /* the pressure of the projection's start is 0; p0's ghosts (div) are never read */
  return NAV_OK;
}

void nav_ac_destroy(nav_flow *f) {
  free(f->ac);
  f->ac = NULL;
}

/* max |x| over the interior of every component (or of one field), reduced over the ranks. */
static nav_err nav_ac_max(nav_flow *f, nav_real *const *x, int n, double *m) {
  double v[2] = {0, 0};
  for (int c = 0; c < n; c++) {
    double d, mx;
    int bad;
    NAV_CALL(f->ops->max_abs_diff(&f->box, x[c], NULL, &d, &mx, &bad));
    v[0] = fmax(v[0], mx);
    v[1] = fmax(v[1], bad);
  }
  nav_reduce_max(f->comm, v, 2);
  NAV_CHECK(!v[1], NAV_ERR_BLOWUP, "the artificial-compressibility iteration blew up at iteration %ld: a value is "
            "NaN or Inf; reduce [run] ac_cfl", f->step + 1);
  *m = v[0];
  return NAV_OK;
}

nav_err nav_ac_step(nav_flow *f, int diagnose) {
  const nav_kernel_ops *ops = f->ops;
  const nav_box *b = &f->box;
  const nav_config *c = f->cfg;
  nav_ac *ac = f->ac;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  for (int k = 0; k < f->dim; k++) NAV_CALL(ops->copy(f->u_prev[k], f->u[k], bytes));
  NAV_CALL(ops->copy(f->div, f->p, bytes));
  if (f->T) NAV_CALL(ops->copy(f->T_prev, f->T, bytes));
  double umax = 0;
  if (diagnose) {
    NAV_CALL(nav_ac_max(f, f->u, f->dim, &umax));
    if (umax > 0) ac->u_seen = umax;
  }
  ac->a.u_ref2 = nav_ac_u_ref2(f, ac);
  const nav_real coef[3] = {(nav_real)c->buoyancy[0], (nav_real)c->buoyancy[1], (nav_real)c->buoyancy[2]};
  const int m = c->ac_stages;
  for (int s = 0; s < m; s++) {
    const int measure = diagnose && s == 0;
    ac->a.alpha = (nav_real)(1.0 / (m - s));
    NAV_CALL(ops->momentum_rhs(b, f->u, (nav_real)c->nu, f->rhs));
    if (f->T) {
      NAV_CALL(ops->scalar_rhs(b, f->u, f->T, (nav_real)c->diffusivity, f->rhs_T));
      NAV_CALL(ops->buoyancy(b, f->T, coef, (nav_real)c->t_ref, f->rhs));
    }
    double rc[2] = {0, 0}, rm = 0;
    NAV_CALL(ops->ac_cells(b, f->u, f->u_prev, f->p, f->div, f->T, f->T_prev, f->rhs_T, &ac->a, measure ? rc : NULL));
    NAV_CALL(nav_fill_scalar_ghosts(ops, b, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->p));
    NAV_CALL(ops->ac_momentum(b, f->u, f->u_prev, f->rhs, f->p, &ac->a, measure ? &rm : NULL));
    NAV_CALL(nav_fill_velocity_ghosts(ops, b, f->halo, &f->vbc, f->u));
    if (f->T) NAV_CALL(nav_fill_temperature_ghosts(ops, b, f->halo, &f->tbc, f->T));
    if (measure) {
      double r[3] = {rm, rc[0], rc[1]};
      nav_reduce_max(f->comm, r, 3);
      NAV_CHECK(isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]), NAV_ERR_BLOWUP,
                "the artificial-compressibility iteration blew up at iteration %ld: a residual is NaN or Inf; reduce "
                "[run] ac_cfl",
                f->step + 1);
      f->res[0] = umax > 0 ? r[0] / umax : r[0];
      f->res[1] = r[1];
      f->res[2] = f->T && f->t_scale > 0 ? r[2] / f->t_scale : 0;
      f->max_div = r[1];
    }
  }
  f->step++;
  f->change = -1;
  if (diagnose) {
    double x;
    NAV_CALL(nav_ac_max(f, f->u, f->dim, &x)); /* NaN/Inf after the update */
    f->change = fmax(f->res[0], fmax(f->res[1], f->res[2]));
    if (f->T) NAV_CALL(nav_heat_diagnose(f));
  }
  return NAV_OK;
}
