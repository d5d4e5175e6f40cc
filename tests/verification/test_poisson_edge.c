/* The high edge of a non-periodic stretched direction, through the Poisson library API
 * (include/navier/poisson.h): the manufactured solution phi = (1 - x) e^x cos(pi y) on the unit square,
 * Neumann on x = 0 and on the y faces, Dirichlet (phi = 0) on x = 1, where phi'' = -2 e cos(pi y) is not 0
 * (so the face's flux formula is exercised at its leading order), with x cells growing geometrically
 * towards the high face, x_i = (exp(beta i / n) - 1) / (exp(beta) - 1), beta = ln 30 (the last cell 30
 * times the first; neighbours differ by a factor exp(beta / n), 7 % at n = 48), y uniform.
 *
 * Asserted, between n = 48, 96 and 192 (observed order >= 1.8 for each pair):
 *   - the max error of the discrete solution;
 *   - the max over the face x = 1 of the error of the normal gradient dphi/dx = -e cos(pi y), taken from the
 *     solution as the face flux of the finite-volume scheme, (0 - phi_{n-1}) / (w_{n-1} / 2) with the exact
 *     half width w_{n-1} / 2 from the last centre to the face: pointwise a first-order difference, but the
 *     scheme's conservative flux, of second order (a one-sided quadratic through the two last centres is of
 *     first order here: the O(h^2) error of phi_{n-1} over a distance h).
 * The solver's Dirichlet flux uses the distance from the last centre to its mirror ghost (the ghost width
 * beyond the last cell, grid/nav_geometry.c): a ghost width taken from another cell errs by O(h) relatively
 * on this grid, which puts an O(h) error between the solver's flux and the face's geometry (order 0.95
 * instead of 1.99). Prints every figure it asserts on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "navier/poisson.h"

#include "nav_test.h"

static const double PI = 3.14159265358979323846;

/* Solve on n x n cells; *esol: max error of the solution, *egrad: max error of dphi/dx at x = 1. */
static int edge_errors(int n, double *esol, double *egrad) {
  const double beta = log(30.0);
  double *xf = malloc((n + 1) * sizeof *xf), *h[3], *x = calloc((size_t)n * n, sizeof *x),
         *b = malloc((size_t)n * n * sizeof *b), *ex = malloc((size_t)n * n * sizeof *ex);
  h[0] = malloc(n * sizeof(double));
  h[1] = malloc(n * sizeof(double));
  h[2] = h[1];
  for (int i = 0; i <= n; i++) xf[i] = i == n ? 1.0 : expm1(beta * i / n) / expm1(beta);
  for (int i = 0; i < n; i++) {
    h[0][i] = xf[i + 1] - xf[i];
    h[1][i] = 1.0 / n;
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      const double xc = 0.5 * (xf[i] + xf[i + 1]), yc = (j + 0.5) / n;
      ex[j * n + i] = (1 - xc) * exp(xc) * cos(PI * yc);
      b[j * n + i] = (-(1 + xc) * exp(xc) - PI * PI * (1 - xc) * exp(xc)) * cos(PI * yc);
    }
  const nav_poisson_bc D = NAV_POISSON_DIRICHLET, N = NAV_POISSON_NEUMANN;
  const nav_poisson_bc bc[3][2] = {{N, D}, {N, N}, {N, N}};
  const int nn[3] = {n, n, 1};
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.tolerance = 1e-10;
  nav_poisson *ps = NULL;
  nav_poisson_result r;
  int ok = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps) == NAV_OK &&
           nav_poisson_set_grid(ps, 2, nn, (const double *const *)h, bc) == NAV_OK &&
           nav_poisson_solve(ps, x, b, &r) == NAV_OK;
  if (!ok) printf("     error: %s\n", nav_poisson_error());
  nav_poisson_destroy(ps);
  *esol = *egrad = 0;
  const double d1 = 0.5 * (xf[n] - xf[n - 1]); /* the last centre to the face x = 1 */
  for (int j = 0; ok && j < n; j++) {
    for (int i = 0; i < n; i++) *esol = fmax(*esol, fabs(x[j * n + i] - ex[j * n + i]));
    const double flux = (0 - x[j * n + n - 1]) / d1, exact = -exp(1.0) * cos(PI * (j + 0.5) / n);
    *egrad = fmax(*egrad, fabs(flux - exact));
  }
  free(xf);
  free(h[0]);
  free(h[1]);
  free(x);
  free(b);
  free(ex);
  return ok;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int sizes[3] = {48, 96, 192};
  double es[3], eg[3];
  int ok = 1;
  for (int k = 0; k < 3; k++) {
    ok &= edge_errors(sizes[k], &es[k], &eg[k]);
    printf("n = %3d: last/first cell width 30, max error of phi %.4e, of dphi/dx at x = 1 %.4e\n", sizes[k], es[k],
           eg[k]);
  }
  NAV_TEST(ok, "the solves succeed");
  for (int k = 0; ok && k < 2; k++) {
    const double os = log(es[k] / es[k + 1]) / log(2.0), og = log(eg[k] / eg[k + 1]) / log(2.0);
    NAV_TEST(os >= 1.8, "n = %d -> %d: observed order of the solution %.3f (>= 1.8)", sizes[k], sizes[k + 1], os);
    NAV_TEST(og >= 1.8, "n = %d -> %d: observed order of the face gradient %.3f (>= 1.8)", sizes[k], sizes[k + 1], og);
  }
  MPI_Finalize();
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
