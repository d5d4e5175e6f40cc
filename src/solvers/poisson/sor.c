/* The stationary point solvers behind the front (poisson_impl.h): red-black SOR and damped Jacobi.
 *
 * The relaxation factor of red-black SOR:
 * For a consistently ordered matrix (the red-black ordering of the 5/7-point operator) the
 * optimal factor is omega = 2 / (1 + sqrt(1 - rho_J^2)), rho_J the spectral radius of the Jacobi
 * iteration. For the separable operator on a box with mean spacing h_d and n_d cells,
 *   rho_J = sum_d cos(theta_d) / h_d^2 / sum_d 1 / h_d^2,
 * theta_d = pi / n_d (Neumann: the smoothest non-constant mode), pi / (n_d + 1) (Dirichlet:
 * exact on uniform spacing) or 2 pi / n_d (periodic). On stretched spacing this is an estimate. */
#include <math.h>
#include <stdio.h>

#include "core/nav_error.h"
#include "solvers/poisson/poisson_impl.h"

double nav_sor_omega_estimate(const nav_psolver *ps) {
  const nav_level *l0 = &ps->lev[0];
  double num = 0, den = 0;
  for (int d = 0; d < l0->box.dim; d++) {
    const int n = l0->N[d];
    double len = 0;
    for (int i = 0; i < n; i++) len += l0->w[d][i];
    const double h = len / n, c = 1 / (h * h);
    double theta = NAV_PI / n;
    if (ps->bc[d][0] == NAV_SCALAR_PERIODIC) theta = 2 * NAV_PI / n;
    else if (ps->bc[d][0] == NAV_SCALAR_DIRICHLET || ps->bc[d][1] == NAV_SCALAR_DIRICHLET) theta = NAV_PI / (n + 1);
    num += c * cos(theta);
    den += c;
  }
  const double rho = num / den;
  return 2 / (1 + sqrt(fmax(1 - rho * rho, 0)));
}

/* One red-black SOR sweep: each colour relaxed, then its ghosts filled. */
static nav_err nav_sor_step(nav_psolver *ps, nav_real *x, const nav_real *b) {
  const nav_level *l0 = &ps->lev[0];
  for (int h = 0; h < 2; h++) {
    NAV_CALL(ps->ops->relax_colour(&l0->box, x, b, l0->inv_diag, h, (nav_real)ps->omega));
    NAV_CALL(nav_level_fill(l0, x));
  }
  return NAV_OK;
}

/* One damped Jacobi step: x_new in work[0], copied back. */
static nav_err nav_jacobi_step(nav_psolver *ps, nav_real *x, const nav_real *b) {
  const nav_level *l0 = &ps->lev[0];
  NAV_CALL(ps->ops->jacobi(&l0->box, x, b, l0->inv_diag, ps->work[0], (nav_real)ps->omega));
  NAV_CALL(ps->ops->copy(x, ps->work[0], (size_t)l0->box.ntot * sizeof(nav_real)));
  return nav_level_fill(l0, x);
}

static nav_err nav_sor_setup(nav_psolver *ps) {
  ps->omega = ps->opt.omega > 0 ? ps->opt.omega : nav_sor_omega_estimate(ps);
  return NAV_OK;
}

static nav_err nav_jacobi_setup(nav_psolver *ps) {
  ps->omega = ps->opt.omega > 0 ? ps->opt.omega : 0.8;
  return nav_psolver_work(ps, 1);
}

static nav_err nav_sor_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                             nav_psolver_stats *st) {
  NAV_CALL(nav_psolver_prepare(ps, b));
  return nav_psolver_stationary(ps, x, b, given, t0, nav_sor_step, st);
}

static nav_err nav_jacobi_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                nav_psolver_stats *st) {
  NAV_CALL(nav_psolver_prepare(ps, b));
  return nav_psolver_stationary(ps, x, b, given, t0, nav_jacobi_step, st);
}

static void nav_sor_describe(const nav_psolver *ps, char *text, int size) {
  char notes[96];
  nav_psolver_notes(ps, notes, sizeof notes);
  snprintf(text, (size_t)size, "red-black SOR, omega %.4f%s", ps->omega, notes);
}

static void nav_jacobi_describe(const nav_psolver *ps, char *text, int size) {
  char notes[96];
  nav_psolver_notes(ps, notes, sizeof notes);
  snprintf(text, (size_t)size, "damped Jacobi, omega %.3f%s", ps->omega, notes);
}

const nav_psolver_impl nav_psolver_sor = {
    .name = "sor",
    .iterative = 1,
    .setup = nav_sor_setup,
    .solve = nav_sor_solve,
    .describe = nav_sor_describe,
};

const nav_psolver_impl nav_psolver_jacobi = {
    .name = "jacobi",
    .iterative = 1,
    .setup = nav_jacobi_setup,
    .solve = nav_jacobi_solve,
    .describe = nav_jacobi_describe,
};
