/* Poisson solver tests through the library API (include/navier/poisson.h):
 *   1. manufactured solutions: second-order convergence of the discrete solution (max norm, two
 *      grids h and h/2, observed order >= 1.8) in 2D and 3D, for Neumann, Dirichlet, periodic and
 *      mixed faces (Dirichlet on one face of a direction and Neumann on the other too), on uniform and
 *      smoothly stretched spacing;
 *   2. the multigrid V(2,2) convergence factor (relres^(1/cycles), random zero-mean b) is <= 0.1 at
 *      two or more sizes in 2D and 3D, sizes that are not powers of two and odd ones included;
 *   3. every solver (mg V and F, mgpcg, pcg, sor, jacobi) reaches the same solution;
 *   4. bad options (unknown solver, tolerance <= 0, max_iterations <= 0) are rejected;
 *   5. the direct solve of the coarsest level (solvers/poisson/mg_direct.c): on grids the multigrid
 *      cannot coarsen (odd counts, fewer than 4096 cells: one level, the coarsest) one cycle solves
 *      to round-off (relres <= 1e-12; the CG it replaces stops at 1e-10), stretched, 2D and 3D, every
 *      face type (the null space pinned, periodic wraps in the band) and mixed ones;
 *   6. mgpcg with line smoothing on a grid of cells 40 times wider than high (y clustered toward both
 *      walls, as a wall-resolved channel): CG with the multigrid cycle, which is not exactly symmetric,
 *      reaches 1e-10 in at most 40 iterations, Neumann and Dirichlet (the plain CG form stalled there:
 *      100 iterations, 1.4e-6 and 4.4e-5; pcg.c's flexible form, 15-19).
 * Prints every figure it asserts on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navier/poisson.h"

#include "nav_test.h"

static const double PI = 3.14159265358979323846;

/* Per-direction exact-solution factor and its second derivative for a face type pair (lo, hi):
 * Neumann cos(pi x), Dirichlet sin(pi x), periodic sin(2 pi x) + cos(2 pi x) / 2; two different
 * types on the two faces: Dirichlet low and Neumann high sin(pi x / 2), Neumann low and Dirichlet
 * high cos(pi x / 2). */
static double f1(nav_poisson_bc lo, nav_poisson_bc hi, double x, double *d2) {
  if (lo != hi) {
    const double a = 0.5 * PI, v = lo == NAV_POISSON_DIRICHLET ? sin(a * x) : cos(a * x);
    *d2 = -a * a * v;
    return v;
  }
  if (lo == NAV_POISSON_NEUMANN) {
    *d2 = -PI * PI * cos(PI * x);
    return cos(PI * x);
  }
  if (lo == NAV_POISSON_DIRICHLET) {
    *d2 = -PI * PI * sin(PI * x);
    return sin(PI * x);
  }
  *d2 = -4 * PI * PI * (sin(2 * PI * x) + 0.5 * cos(2 * PI * x));
  return sin(2 * PI * x) + 0.5 * cos(2 * PI * x);
}

/* Cell faces of a unit interval: uniform, or x = s + a sin(2 pi s) / (2 pi) (a = 0.5: widths vary
 * by a factor 3, smoothly and periodically). */
static void faces(int n, int stretched, double *xf) {
  for (int i = 0; i <= n; i++) {
    const double s = (double)i / n;
    xf[i] = stretched ? s + 0.5 * sin(2 * PI * s) / (2 * PI) : s;
  }
}

/* Solve the manufactured problem; return the max error of x - mean against phi - mean. */
static double mms_error(int dim, int n, int stretched, const nav_poisson_bc bc[3][2], int *iterations) {
  int nn[3] = {n, n, dim == 3 ? n : 1};
  double *xf[3], *h[3];
  for (int d = 0; d < 3; d++) {
    xf[d] = malloc((n + 1) * sizeof(double));
    h[d] = malloc(n * sizeof(double));
    faces(n, stretched, xf[d]);
    for (int i = 0; i < n; i++) h[d][i] = xf[d][i + 1] - xf[d][i];
  }
  const size_t count = (size_t)nn[0] * nn[1] * nn[2];
  double *x = calloc(count, sizeof *x), *b = malloc(count * sizeof *b), *ex = malloc(count * sizeof *ex),
         *vol = malloc(count * sizeof *vol);
  size_t q = 0;
  for (int k = 0; k < nn[2]; k++)
    for (int j = 0; j < nn[1]; j++)
      for (int i = 0; i < nn[0]; i++, q++) {
        const int ijk[3] = {i, j, k};
        double f[3] = {1, 1, 1}, d2[3] = {0, 0, 0};
        vol[q] = 1;
        for (int d = 0; d < dim; d++) {
          const double xc = 0.5 * (xf[d][ijk[d]] + xf[d][ijk[d] + 1]);
          f[d] = f1(bc[d][0], bc[d][1], xc, &d2[d]);
          vol[q] *= h[d][ijk[d]];
        }
        ex[q] = f[0] * f[1] * f[2];
        b[q] = d2[0] * f[1] * f[2] + f[0] * d2[1] * f[2] + (dim == 3 ? f[0] * f[1] * d2[2] : 0);
      }
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.tolerance = 1e-11;
  nav_poisson *ps = NULL;
  nav_poisson_result r;
  double err = -1;
  if (nav_poisson_create(MPI_COMM_WORLD, &opt, &ps) == NAV_OK &&
      nav_poisson_set_grid(ps, dim, nn, (const double *const *)h, bc) == NAV_OK &&
      nav_poisson_solve(ps, x, b, &r) == NAV_OK) {
    int singular = 1;
    for (int d = 0; d < dim; d++)
      singular &= bc[d][0] != NAV_POISSON_DIRICHLET && bc[d][1] != NAV_POISSON_DIRICHLET;
    double mx = 0, me = 0, v = 0;
    for (q = 0; q < count; q++) {
      mx += x[q] * vol[q];
      me += ex[q] * vol[q];
      v += vol[q];
    }
    if (!singular) mx = me = 0;
    err = 0;
    for (q = 0; q < count; q++) err = fmax(err, fabs((x[q] - mx / v) - (ex[q] - me / v)));
    *iterations = r.iterations;
  } else {
    printf("     error: %s\n", nav_poisson_error());
  }
  nav_poisson_destroy(ps);
  for (int d = 0; d < 3; d++) {
    free(xf[d]);
    free(h[d]);
  }
  free(x);
  free(b);
  free(ex);
  free(vol);
  return err;
}

static void test_mms(void) {
  const nav_poisson_bc N = NAV_POISSON_NEUMANN, D = NAV_POISSON_DIRICHLET, P = NAV_POISSON_PERIODIC;
  /* faces low, high of x, y, z; "dn-nd": Dirichlet and Neumann on the two faces of every direction */
  const struct {
    const char *name;
    nav_poisson_bc t[3][2];
  } kinds[] = {{"neumann", {{N, N}, {N, N}, {N, N}}},       {"dirichlet", {{D, D}, {D, D}, {D, D}}},
               {"periodic", {{P, P}, {P, P}, {P, P}}},      {"mixed", {{D, D}, {N, N}, {P, P}}},
               {"dn-nd", {{D, N}, {N, D}, {D, N}}}};
  for (int dim = 2; dim <= 3; dim++)
    for (int kind = 0; kind < 5; kind++)
      for (int stretched = 0; stretched < 2; stretched++) {
        nav_poisson_bc bc[3][2];
        for (int d = 0; d < 3; d++) {
          bc[d][0] = kinds[kind].t[d][0];
          bc[d][1] = kinds[kind].t[d][1];
        }
        const int n1 = dim == 2 ? 32 : 16;
        int it1 = 0, it2 = 0;
        const double e1 = mms_error(dim, n1, stretched, bc, &it1), e2 = mms_error(dim, 2 * n1, stretched, bc, &it2);
        const double order = log(e1 / e2) / log(2.0);
        NAV_TEST(e1 > 0 && e2 > 0 && order >= 1.8,
                 "manufactured %dD %-9s %-9s: max error %.3e (n=%d, %d cycles), %.3e (n=%d, %d cycles), order %.3f",
                 dim, kinds[kind].name, stretched ? "stretched" : "uniform", e1, n1, it1, e2, 2 * n1, it2, order);
      }
}

/* Random zero-mean b on a uniform unit box; returns the result of one solve (x returned). */
static int solve_random(int dim, int n, nav_poisson_bc t, const nav_poisson_options *opt, double *x,
                        nav_poisson_result *r) {
  int nn[3] = {n, n, dim == 3 ? n : 1};
  const size_t count = (size_t)nn[0] * nn[1] * nn[2];
  double *h = malloc(n * sizeof *h), *b = malloc(count * sizeof *b);
  for (int i = 0; i < n; i++) h[i] = 1.0 / n;
  const double *hh[3] = {h, h, h};
  nav_poisson_bc bc[3][2];
  for (int d = 0; d < 3; d++) bc[d][0] = bc[d][1] = t;
  srand(7);
  for (size_t q = 0; q < count; q++) {
    b[q] = rand() / (double)RAND_MAX - 0.5;
    x[q] = 0;
  }
  nav_poisson *ps = NULL;
  int rc = nav_poisson_create(MPI_COMM_WORLD, opt, &ps);
  if (rc == NAV_OK) rc = nav_poisson_set_grid(ps, dim, nn, hh, bc);
  if (rc == NAV_OK) rc = nav_poisson_solve(ps, x, b, r);
  if (rc != NAV_OK) printf("     error: %s\n", nav_poisson_error());
  nav_poisson_destroy(ps);
  free(h);
  free(b);
  return rc;
}

static void test_mg_factor(void) {
  const int sizes2[] = {64, 100, 127, 256, 512}, sizes3[] = {24, 32, 33, 48, 64};
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  opt.tolerance = 1e-10;
  for (int dim = 2; dim <= 3; dim++)
    for (int s = 0; s < 5; s++) {
      const int n = dim == 2 ? sizes2[s] : sizes3[s];
      for (int t = 0; t < 2; t++) {
        double *x = malloc(sizeof(double) * n * n * (dim == 3 ? n : 1));
        nav_poisson_result r;
        const int rc = solve_random(dim, n, t ? NAV_POISSON_DIRICHLET : NAV_POISSON_NEUMANN, &opt, x, &r);
        const double factor = pow(r.relres, 1.0 / r.iterations);
        NAV_TEST(rc == NAV_OK && factor <= 0.1, "multigrid V(2,2) %dD n=%-4d %-9s: %2d cycles to %.2e, factor %.4f <= 0.1",
                 dim, n, t ? "dirichlet" : "neumann", r.iterations, r.relres, factor);
        free(x);
      }
    }
}

static void test_solvers_agree(void) {
  const char *solvers[] = {"mg", "mg", "mgpcg", "pcg", "sor", "jacobi"};
  const char *cycles[] = {"v", "f", "v", "v", "v", "v"};
  for (int dim = 2; dim <= 3; dim++) {
    const int n = dim == 2 ? 48 : 16;
    const size_t count = (size_t)n * n * (dim == 3 ? n : 1);
    double *ref = malloc(count * sizeof *ref), *x = malloc(count * sizeof *x);
    for (int s = 0; s < 6; s++) {
      nav_poisson_options opt;
      nav_poisson_options_default(&opt);
      opt.solver = solvers[s];
      opt.cycle = cycles[s];
      opt.tolerance = 1e-10;
      opt.max_iterations = 200000;
      nav_poisson_result r;
      const int rc = solve_random(dim, n, NAV_POISSON_NEUMANN, &opt, s ? x : ref, &r);
      double diff = 0, mag = 0;
      for (size_t q = 0; q < count && s; q++) {
        diff = fmax(diff, fabs(x[q] - ref[q]));
        mag = fmax(mag, fabs(ref[q]));
      }
      if (s == 0) {
        NAV_TEST(rc == NAV_OK, "%dD n=%d reference solve mg: %d cycles, relres %.2e", dim, n, r.iterations, r.relres);
        continue;
      }
      /* both solutions have relative residual <= 1e-10; the condition number of L (~ n^2) bounds
       * their difference by ~1e-10 n^2 |x|: assert 1e-6 |x| */
      NAV_TEST(rc == NAV_OK && diff <= 1e-6 * mag, "%dD n=%d %-6s (%s): %6d iterations, relres %.2e, max |x - x_mg| / max |x_mg| = %.2e",
               dim, n, solvers[s], cycles[s], r.iterations, r.relres, diff / mag);
    }
    free(ref);
    free(x);
  }
}

static void test_direct(void) {
  const struct {
    int dim, n[3];
    nav_poisson_bc lo, hi; /* faces of x and z; y: the other way round */
  } cases[] = {{2, {27, 25, 1}, NAV_POISSON_NEUMANN, NAV_POISSON_NEUMANN},
               {2, {27, 25, 1}, NAV_POISSON_DIRICHLET, NAV_POISSON_DIRICHLET},
               {2, {27, 25, 1}, NAV_POISSON_PERIODIC, NAV_POISSON_PERIODIC},
               {2, {27, 25, 1}, NAV_POISSON_DIRICHLET, NAV_POISSON_NEUMANN},
               {3, {11, 9, 7}, NAV_POISSON_NEUMANN, NAV_POISSON_NEUMANN},
               {3, {11, 9, 7}, NAV_POISSON_PERIODIC, NAV_POISSON_PERIODIC},
               {3, {11, 9, 7}, NAV_POISSON_NEUMANN, NAV_POISSON_DIRICHLET}};
  const char *names[] = {"neumann", "dirichlet", "periodic"};
  for (int c = 0; c < 7; c++) {
    const int *n = cases[c].n, dim = cases[c].dim;
    const size_t count = (size_t)n[0] * n[1] * n[2];
    double *h[3], *b = malloc(count * sizeof *b), *x = calloc(count, sizeof *x);
    for (int d = 0; d < 3; d++) { /* unit cells, stretched by 1.08 per cell in y */
      h[d] = malloc((size_t)n[d] * sizeof(double));
      for (int i = 0; i < n[d]; i++) h[d][i] = d == 1 ? pow(1.08, i) : 1.0;
    }
    const nav_poisson_bc bc[3][2] = {{cases[c].lo, cases[c].hi}, {cases[c].hi, cases[c].lo}, {cases[c].lo, cases[c].hi}};
    double mean = 0;
    srand(11);
    for (size_t q = 0; q < count; q++) mean += b[q] = rand() / (double)RAND_MAX - 0.5;
    for (size_t q = 0; q < count; q++) b[q] -= mean / count; /* the solver projects out the rest (volume weights) */
    nav_poisson_options opt;
    nav_poisson_options_default(&opt);
    opt.tolerance = 1e-13;
    opt.max_iterations = 1;
    nav_poisson *ps = NULL;
    nav_poisson_result r = {0};
    const double *hh[3] = {h[0], h[1], h[2]};
    int rc = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);
    if (rc == NAV_OK) rc = nav_poisson_set_grid(ps, dim, n, hh, bc);
    const char *what = rc == NAV_OK ? nav_poisson_describe(ps) : nav_poisson_error();
    const int one_level = strstr(what, " 1 levels") != NULL;
    if (rc == NAV_OK) rc = nav_poisson_solve(ps, x, b, &r);
    NAV_TEST((rc == NAV_OK || rc == NAV_ERR_CONVERGENCE) && one_level && r.iterations == 1 && r.relres <= 1e-12,
             "direct coarsest solve %dD %dx%dx%d %s/%s, stretched y: %d cycle, relres %.2e <= 1e-12 (%s)", dim, n[0],
             n[1], n[2], names[cases[c].lo], names[cases[c].hi], r.iterations, r.relres, what);
    nav_poisson_destroy(ps);
    for (int d = 0; d < 3; d++) free(h[d]);
    free(b);
    free(x);
  }
}

static void test_bad_options(void) {
  const struct {
    const char *solver;
    double tol;
    int maxit;
    const char *expect;
  } bad[] = {{"amg", 1e-8, 10, "unknown"}, {"mg", 0, 10, "tolerance"}, {"mg", -1, 10, "tolerance"},
             {"mg", 1e-8, 0, "max_iterations"}, {"pcg", 1e-8, -5, "max_iterations"}};
  for (int i = 0; i < 5; i++) {
    nav_poisson_options opt;
    nav_poisson_options_default(&opt);
    opt.solver = bad[i].solver;
    opt.tolerance = bad[i].tol;
    opt.max_iterations = bad[i].maxit;
    nav_poisson *ps = NULL;
    const int n[3] = {8, 8, 1};
    double h[8] = {0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    const double *hh[3] = {h, h, h};
    const nav_poisson_bc bc[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    int rc = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);
    if (rc == NAV_OK) rc = nav_poisson_set_grid(ps, 2, n, hh, bc);
    NAV_TEST(rc == NAV_ERR_INPUT && strstr(nav_poisson_error(), bad[i].expect),
             "bad option solver=%s tolerance=%g max_iterations=%d rejected: %s", bad[i].solver, bad[i].tol, bad[i].maxit,
             nav_poisson_error());
    nav_poisson_destroy(ps);
  }
}

static void test_stretched_pcg(void) {
  const int n = 256;
  const int nn[3] = {n, n, 1};
  double *hx = malloc(n * sizeof *hx), *hy = malloc(n * sizeof *hy), *b = malloc((size_t)n * n * sizeof *b),
         *x = malloc((size_t)n * n * sizeof *x);
  const double g = pow(40, 1.0 / (n / 2 - 1)); /* hy from hx / 40 at the walls to hx in the middle */
  for (int i = 0; i < n; i++) {
    hx[i] = 1.0 / n;
    hy[i] = hx[i] / 40 * pow(g, i < n - 1 - i ? i : n - 1 - i);
  }
  const double *hh[3] = {hx, hy, hx};
  for (int t = 0; t < 2; t++) {
    nav_poisson_bc bc[3][2];
    for (int d = 0; d < 3; d++) bc[d][0] = bc[d][1] = t ? NAV_POISSON_DIRICHLET : NAV_POISSON_NEUMANN;
    srand(5);
    double sum = 0;
    for (int q = 0; q < n * n; q++) sum += b[q] = rand() / (double)RAND_MAX - 0.5;
    for (int q = 0; q < n * n; q++) b[q] -= t ? 0 : sum / (n * n), x[q] = 0;
    nav_poisson_options opt;
    nav_poisson_options_default(&opt);
    opt.solver = "mgpcg";
    opt.smoother = "line";
    opt.tolerance = 1e-10;
    opt.max_iterations = 100;
    nav_poisson *ps = NULL;
    nav_poisson_result r;
    memset(&r, 0, sizeof r);
    int rc = nav_poisson_create(MPI_COMM_WORLD, &opt, &ps);
    if (rc == NAV_OK) rc = nav_poisson_set_grid(ps, 2, nn, hh, bc);
    if (rc == NAV_OK) rc = nav_poisson_solve(ps, x, b, &r);
    NAV_TEST(rc == NAV_OK && r.relres <= 1e-10 && r.iterations <= 40,
             "mgpcg, line smoothing, 2D %dx%d, cells 40 times wider than high, %-9s: %d iterations, relres %.2e (<= 40, "
             "<= 1e-10)%s%s",
             n, n, t ? "dirichlet" : "neumann", r.iterations, r.relres, rc == NAV_OK ? "" : ": ",
             rc == NAV_OK ? "" : nav_poisson_error());
    nav_poisson_destroy(ps);
  }
  free(hx);
  free(hy);
  free(b);
  free(x);
}

/* Environment NAV_TEST_POISSON_PARTS (e.g. "mms,factor"): run only those parts (options, mms, factor,
 * solvers, direct, pcg_lines; the mutation check uses it to skip the slow ones); unset: all. */
static int part(const char *name) {
  const char *only = getenv("NAV_TEST_POISSON_PARTS");
  return !only || strstr(only, name) != NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (part("options")) test_bad_options();
  if (part("mms")) test_mms();
  if (part("factor")) test_mg_factor();
  if (part("solvers")) test_solvers_agree();
  if (part("direct")) test_direct();
  if (part("pcg_lines")) test_stretched_pcg();
  printf("test_poisson: %d failed\n", failures);
  MPI_Finalize();
  return failures > 0;
}
