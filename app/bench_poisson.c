/* navier bench poisson: time one Poisson solve through the library API (include/navier/poisson.h).
 *
 *   navier bench poisson --dim D --n N [--solver S] [--tol T] [--bc neumann|dirichlet|periodic]
 *                        [--cycle v|f] [--smooth PRE,POST] [--decomposition PX,PY,PZ] [--dump FILE] [--json]
 *                        [--backend cpu|cuda] [--repeat R] [--grid NX,NY,NZ] [--cpu-cells C]
 *                        [--transport auto|mpi|cuda-aware|nccl|cuda-ipc] [--smoother auto|point|line]
 *                        [--stretch DIR:GAMMA | --aspect A] [--precision double|mixed] [--skip-residual]
 *
 * Unit box (or NX x NY x NZ cells of width 1/N with --grid, for weak scaling), uniform cells, a random right-hand side
 * (uniform in [-1/2, 1/2], fixed seed, zero mean), zero initial guess. Prints setup and solve seconds, iterations,
 * final relative residual, the mean convergence factor per iteration (relres^(1/iterations)) and unknowns solved per
 * second (N^D / solve seconds); --json prints one JSON object with the keys setup_s, solve_s, iterations, relres,
 * factor, unknowns_per_s. Under mpirun the grid is split over the ranks (automatic, or
 * --decomposition) and rank 0 prints; --dump writes the solution x (N^D doubles, x fastest) to
 * FILE from rank 0, for comparisons between rank counts. Exit status 0, or 1 when the solve did
 * not converge, 2 for bad arguments. --backend picks the backend of the solve (default cpu);
 * --repeat R solves R times from the zero initial guess and reports the median solve time (the
 * first solve of a GPU run pays for module loading and first launches).
 * Stretched grids: --stretch y:GAMMA makes the widths of direction y (or x, z) the tanh wall clustering
 * of [grid] y_spacing = tanh (grid/nav_spacing.h, both walls) over the same length; --aspect A does that
 * in y with the gamma at which the largest cell aspect ratio (1/N) / min h_y is A (bisection), the
 * wall-resolved channel grid. The output adds gamma and aspect; --smoother picks the multigrid smoother,
 * --precision mixed its float cycles in a double iteration (nav_poisson_options.precision). --skip-residual: a
 * direct (fft) solve without its residual check (nav_poisson_options.skip_residual; relres printed as -1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/nav_bench.h"
#include "app/nav_bench_rhs.h"
#include "core/nav_config.h"
#include "grid/nav_spacing.h"
#include "navier/poisson.h"

static int nav_bench_usage(void) {
  fprintf(stderr,
          "usage: navier bench poisson --dim 2|3 --n N [--solver fft|auto|mg|mgpcg|pcg|sor|jacobi] [--tol T]\n"
          "                            [--bc neumann|dirichlet|periodic] [--cycle v|f] [--smooth PRE,POST] "
          "[--json]\n"
          "                            [--decomposition PX,PY,PZ] [--dump FILE] [--backend cpu|cuda] "
          "[--repeat R] [--grid NX,NY,NZ] [--cpu-cells C]\n"
          "                            [--transport auto|mpi|cuda-aware|nccl|cuda-ipc] [--smoother auto|point|line]\n"
          "                            [--stretch x|y|z:GAMMA | --aspect A] [--precision double|mixed] "
          "[--skip-residual]\n");
  return 2;
}

/* The N widths h of a direction of length L with the tanh clustering gamma at both ends (the case-file
 * formula, grid/nav_spacing.c). Returns 0, or 1 if the spacing cannot be made. */
static int nav_bench_tanh(int N, double L, double gamma, double *h) {
  nav_config c;
  nav_config_defaults(&c);
  c.ny = N;
  c.ly = L;
  snprintf(c.spacing[1], sizeof c.spacing[1], "tanh");
  c.gamma[1] = gamma;
  double *xf = malloc(((size_t)N + 1) * sizeof *xf);
  char why[400];
  const int bad = !xf || nav_spacing_faces(&c, 1, xf, h, why, sizeof why);
  free(xf);
  return bad;
}

/* The gamma whose smallest width is L / (N aspect) ... i.e. (1/n) / min h = aspect, by bisection. */
static double nav_bench_gamma(int N, double L, double hx, double aspect, double *h) {
  double lo = 1e-6, hi = 30;
  for (int it = 0; it < 200; it++) {
    const double mid = 0.5 * (lo + hi);
    if (nav_bench_tanh(N, L, mid, h)) {
      hi = mid;
      continue;
    }
    double hmin = h[0];
    for (int i = 1; i < N; i++) hmin = fmin(hmin, h[i]);
    if (hx / hmin > aspect)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

int nav_bench_poisson(int argc, char **argv) {
  nav_poisson_options opt;
  nav_poisson_options_default(&opt);
  int dim = 2, n = 0, json = 0, rank = 0, repeat = 1, grid[3] = {0, 0, 0}, sdir = -1;
  double gamma = 0, aspect = 0;
  const char *dump = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  nav_poisson_bc bct = NAV_POISSON_NEUMANN;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json")) {
      json = 1;
      continue;
    }
    if (!strcmp(a, "--skip-residual")) {
      opt.skip_residual = 1;
      continue;
    }
    if (!v) return nav_bench_usage();
    i++;
    char *end;
    if (!strcmp(a, "--dim")) dim = (int)strtol(v, &end, 10);
    else if (!strcmp(a, "--n")) n = (int)strtol(v, &end, 10);
    else if (!strcmp(a, "--solver")) opt.solver = v;
    else if (!strcmp(a, "--backend")) opt.backend = v;
    else if (!strcmp(a, "--repeat")) repeat = (int)strtol(v, &end, 10);
    else if (!strcmp(a, "--cpu-cells")) opt.cpu_coarse_cells = strtol(v, &end, 10);
    else if (!strcmp(a, "--transport")) opt.halo_transport = v;
    else if (!strcmp(a, "--smoother")) opt.smoother = v;
    else if (!strcmp(a, "--precision")) opt.precision = v;
    else if (!strcmp(a, "--aspect")) aspect = strtod(v, &end);
    else if (!strcmp(a, "--stretch")) {
      char dc;
      if (sscanf(v, "%c:%lf", &dc, &gamma) != 2 || !strchr("xyz", dc) || !(gamma > 0)) return nav_bench_usage();
      sdir = dc - 'x';
      end = (char *)v + strlen(v);
    }
    else if (!strcmp(a, "--grid")) {
      if (sscanf(v, "%d,%d,%d", &grid[0], &grid[1], &grid[2]) != 3) return nav_bench_usage();
    }
    else if (!strcmp(a, "--cycle")) opt.cycle = v;
    else if (!strcmp(a, "--dump")) dump = v;
    else if (!strcmp(a, "--decomposition")) {
      if (sscanf(v, "%d,%d,%d", &opt.decomposition[0], &opt.decomposition[1], &opt.decomposition[2]) != 3)
        return nav_bench_usage();
    }
    else if (!strcmp(a, "--tol")) opt.tolerance = strtod(v, &end);
    else if (!strcmp(a, "--smooth")) {
      if (sscanf(v, "%d,%d", &opt.pre_smooth, &opt.post_smooth) != 2) return nav_bench_usage();
    } else if (!strcmp(a, "--bc")) {
      if (!strcmp(v, "neumann")) bct = NAV_POISSON_NEUMANN;
      else if (!strcmp(v, "dirichlet")) bct = NAV_POISSON_DIRICHLET;
      else if (!strcmp(v, "periodic")) bct = NAV_POISSON_PERIODIC;
      else return nav_bench_usage();
    } else return nav_bench_usage();
  }
  if (grid[0] > 0 && n < 1) n = grid[0];
  if (grid[0] <= 0)
    for (int d = 0; d < 3; d++) grid[d] = n;
  if (dim == 2) grid[2] = 1;
  if ((dim != 2 && dim != 3) || n < 1 || grid[0] < 1 || grid[1] < 1 || grid[2] < 1 || repeat < 1 || repeat > 1000)
    return nav_bench_usage();
  opt.max_iterations = !strcmp(opt.solver, "mg") || !strcmp(opt.solver, "mgpcg") ? 100 : 1000000;
  const int nn[3] = {grid[0], grid[1], grid[2]};
  const int longest = nn[0] > nn[1] ? (nn[0] > nn[2] ? nn[0] : nn[2]) : (nn[1] > nn[2] ? nn[1] : nn[2]);
  const size_t count = (size_t)nn[0] * nn[1] * nn[2];
  double *h = malloc((size_t)longest * sizeof *h), *x = calloc(count, sizeof *x), *b = malloc(count * sizeof *b);
  double *hs = malloc((size_t)longest * sizeof *hs);
  if (!h || !x || !b || !hs) return 1;
  for (int i = 0; i < longest; i++) h[i] = 1.0 / n;
  const double *hh[3] = {h, h, h};
  if (aspect > 0) {
    if (aspect < 1 || sdir >= 0) return nav_bench_usage();
    sdir = 1;
    gamma = nav_bench_gamma(nn[1], (double)nn[1] / n, 1.0 / n, aspect, hs);
  }
  if (sdir >= dim) return nav_bench_usage();
  if (sdir >= 0) {
    if (nav_bench_tanh(nn[sdir], (double)nn[sdir] / n, gamma, hs)) return nav_bench_usage();
    double hmin = hs[0];
    for (int i = 1; i < nn[sdir]; i++) hmin = fmin(hmin, hs[i]);
    aspect = (1.0 / n) / hmin;
    hh[sdir] = hs;
  }
  nav_poisson_bc bc[3][2];
  for (int d = 0; d < 3; d++) bc[d][0] = bc[d][1] = bct;
  nav_bench_random_rhs(b, count); /* xorshift64: the same b on every machine */
  nav_poisson *ps = NULL;
  nav_poisson_result r;
  memset(&r, 0, sizeof r);
  int status = 0;
  if (nav_poisson_create(MPI_COMM_WORLD, &opt, &ps) != NAV_OK || nav_poisson_set_grid(ps, dim, nn, hh, bc) != NAV_OK) {
    if (rank == 0) fprintf(stderr, "navier bench poisson: %s\n", nav_poisson_error());
    status = 2;
  } else {
    double *solve_s = malloc((size_t)repeat * sizeof *solve_s);
    for (int k = 0; k < repeat && status == 0; k++) {
      memset(x, 0, count * sizeof *x);
      if (!solve_s || nav_poisson_solve(ps, x, b, &r) != NAV_OK) {
        if (rank == 0) fprintf(stderr, "navier bench poisson: %s\n", solve_s ? nav_poisson_error() : "out of memory");
        status = 1;
      } else {
        solve_s[k] = r.solve_s;
      }
    }
    if (status == 0) { /* the median solve: sort the few times */
      for (int k = 1; k < repeat; k++)
        for (int m = k; m > 0 && solve_s[m - 1] > solve_s[m]; m--) {
          const double t = solve_s[m];
          solve_s[m] = solve_s[m - 1];
          solve_s[m - 1] = t;
        }
      r.solve_s = solve_s[repeat / 2];
    }
    free(solve_s);
    if (dump && rank == 0) {
      FILE *f = fopen(dump, "wb");
      if (!f || fwrite(x, sizeof *x, count, f) != count) {
        fprintf(stderr, "navier bench poisson: cannot write %s\n", dump);
        status = 1;
      }
      if (f) fclose(f);
    }
    const double factor = r.iterations > 0 && r.relres >= 0 ? pow(r.relres, 1.0 / r.iterations) : 0;
    const double ups = r.solve_s > 0 ? (double)count / r.solve_s : 0;
    if (rank != 0)
      ;
    else if (json)
      printf("{\"gamma\": %.6g, \"aspect\": %.6g, \"smoother\": \"%s\", \"precision\": \"%s\", \"dim\": %d, \"n\": %d, \"grid\": [%d, %d, %d], \"ranks\": %d, \"backend\": \"%s\", \"solver\": \"%s\", \"bc\": \"%s\", \"tol\": %g, \"setup_s\": %.6f, "
             "\"solve_s\": %.6f, \"iterations\": %d, \"relres\": %.3e, \"factor\": %.4f, \"unknowns_per_s\": %.4e, "
             "\"converged\": %s}\n",
             gamma, sdir >= 0 ? aspect : 1.0, opt.smoother ? opt.smoother : "auto",
             opt.precision ? opt.precision : "double", dim, n, nn[0], nn[1], nn[2], size, opt.backend ? opt.backend : "cpu", opt.solver, bct == NAV_POISSON_NEUMANN ? "neumann" : bct == NAV_POISSON_DIRICHLET ? "dirichlet" : "periodic",
             opt.tolerance, r.setup_s, r.solve_s, r.iterations, r.relres, factor, ups, r.converged ? "true" : "false");
    else {
      if (sdir >= 0) printf("tanh stretching in %c: gamma %.6g, largest cell aspect ratio %.6g\n", "xyz"[sdir], gamma, aspect);
      printf("%s\n%-8s %6s %10s %10s %6s %10s %8s %14s\n%-8s %6d %10.4f %10.4f %6d %10.2e %8.4f %14.4e\n",
             nav_poisson_describe(ps), "solver", "N", "setup_s", "solve_s", "iter", "relres", "factor",
             "unknowns/s", opt.solver, n, r.setup_s, r.solve_s, r.iterations, r.relres, factor, ups);
    }
  }
  nav_poisson_destroy(ps);
  free(h);
  free(hs);
  free(x);
  free(b);
  return status;
}
