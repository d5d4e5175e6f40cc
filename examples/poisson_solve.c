/* Example: solve a Poisson problem with the navier library API, without the flow solver.
 *
 *   lap x = b on the unit square, 256 x 256 cells, Dirichlet (x = 0) on the left and right faces,
 *   Neumann (zero flux) on the bottom and top faces; exact solution sin(pi x) cos(pi y).
 *
 * Build: link with the navier_core library (see CMakeLists.txt); run: ./poisson_solve.
 * Prints the iterations, the residual and the error against the exact solution. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "navier/poisson.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int n[3] = {256, 256, 1};
  const double pi = 3.14159265358979323846;
  double *h = malloc(n[0] * sizeof *h);
  for (int i = 0; i < n[0]; i++) h[i] = 1.0 / n[0];
  const double *widths[3] = {h, h, NULL};
  const nav_poisson_bc bc[3][2] = {{NAV_POISSON_DIRICHLET, NAV_POISSON_DIRICHLET},
                                   {NAV_POISSON_NEUMANN, NAV_POISSON_NEUMANN},
                                   {NAV_POISSON_NEUMANN, NAV_POISSON_NEUMANN}};
  double *x = calloc((size_t)n[0] * n[1], sizeof *x), *b = malloc((size_t)n[0] * n[1] * sizeof *b);
  for (int j = 0; j < n[1]; j++)
    for (int i = 0; i < n[0]; i++) {
      const double xc = (i + 0.5) / n[0], yc = (j + 0.5) / n[1];
      b[i + n[0] * j] = -2 * pi * pi * sin(pi * xc) * cos(pi * yc);
    }

  nav_poisson_options opt;
  nav_poisson_options_default(&opt); /* multigrid V(2,2), tolerance 1e-8 */
  opt.tolerance = 1e-10;
  nav_poisson *ps = NULL;
  nav_poisson_result res;
  int status = 1;
  if (nav_poisson_create(MPI_COMM_WORLD, &opt, &ps) == NAV_OK && nav_poisson_set_grid(ps, 2, n, widths, bc) == NAV_OK &&
      nav_poisson_solve(ps, x, b, &res) == NAV_OK) {
    double err = 0;
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++) {
        const double xc = (i + 0.5) / n[0], yc = (j + 0.5) / n[1];
        err = fmax(err, fabs(x[i + n[0] * j] - sin(pi * xc) * cos(pi * yc)));
      }
    printf("%s\n%d iterations, relative residual %.2e, setup %.4f s, solve %.4f s, max error %.3e\n",
           nav_poisson_describe(ps), res.iterations, res.relres, res.setup_s, res.solve_s, err);
    status = err < 1e-4 ? 0 : 1; /* second order: about 2e-5 at 256^2 */
  } else {
    fprintf(stderr, "poisson_solve: %s\n", nav_poisson_error());
  }
  nav_poisson_destroy(ps);
  free(h);
  free(x);
  free(b);
  MPI_Finalize();
  return status;
}
