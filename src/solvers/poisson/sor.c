/* The relaxation factor of red-black SOR.
 *
 * For a consistently ordered matrix (the red-black ordering of the 5/7-point operator) the
 * optimal factor is omega = 2 / (1 + sqrt(1 - rho_J^2)), rho_J the spectral radius of the Jacobi
 * iteration. For the separable operator on a box with mean spacing h_d and n_d cells,
 *   rho_J = sum_d cos(theta_d) / h_d^2 / sum_d 1 / h_d^2,
 * theta_d = pi / n_d (Neumann: the smoothest non-constant mode), pi / (n_d + 1) (Dirichlet:
 * exact on uniform spacing) or 2 pi / n_d (periodic). On stretched spacing this is an estimate. */
#include <math.h>

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
