/* A whole run on the CUDA backend against the CPU backend: the same case (argument 1, or the
 * default case; further arguments are --set style overrides "section.key=value"), both backends
 * stepped with their own time steps, then u, v, w, p (and T with a temperature) compared in the relative max norm
 *     max |x_cuda - x_cpu| / max(max |x_cpu|, S)   over every point (ghosts included), per field,
 * with S the scale of the flow for the velocity components (U = the largest max |u_c|) and the pressure (U^2),
 * so that a field that is round-off in the run (v of a channel, the pressure of a parallel flow) is
 * measured against the flow and not against its own noise; S = 0 for T. It must stay <= the tolerance (environment NAV_TEST_TOL, default 1e-10), and the pressure
 * iterations of the two runs must be equal at every step (a step where they differ fails the
 * test; the first one is printed). Prints the time per step of each.
 * Exit status 77 (ctest: skipped) when no CUDA device is visible or CUDA is not built.
 * One MPI rank (the solver's set-up asks MPI for its decomposition). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "io/nav_validation.h"
#include "solvers/nav_flow.h"

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_flow_backends: %s failed (line %d)\n", #call, __LINE__);                               \
      return 1;                                                                                                      \
    }                                                                                                                \
  } while (0)

static int run(int argc, char **argv) {
  if (nav_backend_device_count("cuda") == 0) {
    printf("test_flow_backends: no CUDA device visible (or CUDA not built): skipped\n");
    return 77;
  }
  const nav_kernel_ops *ops[2] = {nav_backend_get("cpu", 0), nav_backend_get("cuda", 0)};
  if (!ops[0] || !ops[1]) {
    fprintf(stderr, "test_flow_backends: a backend is missing\n");
    return 1;
  }
  const char *path = argc > 1 && strcmp(argv[1], "-") ? argv[1] : NULL;
  nav_config cfg;
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  if (nav_config_load(&cfg, path, argc > 2 ? argc - 2 : 0, argv + 2, &errs) != NAV_OK) {
    fprintf(stderr, "%s", errs.text);
    return 2;
  }
  const double tol = getenv("NAV_TEST_TOL") ? atof(getenv("NAV_TEST_TOL")) : 1e-10;
  const long steps = cfg.max_steps > 0 ? cfg.max_steps : 100;
  nav_flow f[2];
  double secs[2] = {0, 0};
  int iter_mismatch = 0;
  for (int k = 0; k < 2; k++) OK(nav_flow_create(&cfg, ops[k], &f[k]));
  for (long s = 0; s < steps; s++) {
    for (int k = 0; k < 2; k++) {
      double dt, cfl;
      const double t0 = nav_wtime();
      OK(nav_flow_dt(&f[k], &dt, &cfl));
      OK(f[k].ac ? nav_ac_step(&f[k], 0) : nav_flow_step(&f[k], dt, 0));
      secs[k] += nav_wtime() - t0;
    }
    if (f[0].p_iterations != f[1].p_iterations) {
      if (!iter_mismatch)
        printf("step %ld: pressure iterations differ: cpu %d, cuda %d\n", s + 1, f[0].p_iterations, f[1].p_iterations);
      iter_mismatch++;
    }
  }
  printf("%s, %dD %dx%dx%d, %ld steps: time %.9g (cpu) %.9g (cuda); %.4f s/step (cpu), %.4f s/step (cuda)\n", cfg.name,
         cfg.dim, cfg.nx, cfg.ny, cfg.dim == 3 ? cfg.nz : 1, steps, f[0].t, f[1].t, secs[0] / steps, secs[1] / steps);
  nav_host_fields h[2];
  for (int k = 0; k < 2; k++) OK(nav_host_fields_fetch(&f[k], &h[k]));
  int fail = 0;
  const size_t n = (size_t)f[0].box.ntot;
  static const char *names[5] = {"u", "v", "w", "p", "T"};
  double U = 0; /* the velocity scale */
  for (int c = 0; c < f[0].dim; c++)
    for (size_t p = 0; p < n; p++) U = fmax(U, fabs((double)h[0].u[c][p]));
  for (int c = 0; c <= f[0].dim + (f[0].scalar.T ? 1 : 0); c++) {
    const int q = c < f[0].dim ? c : c == f[0].dim ? 3 : 4;
    const nav_real *a = q < 3 ? h[0].u[q] : q == 3 ? h[0].p : h[0].T;
    const nav_real *b = q < 3 ? h[1].u[q] : q == 3 ? h[1].p : h[1].T;
    double dmax = 0, xmax = 0;
    for (size_t p = 0; p < n; p++) {
      dmax = fmax(dmax, fabs((double)a[p] - (double)b[p]));
      xmax = fmax(xmax, fabs((double)a[p]));
      if (isnan(a[p]) || isnan(b[p])) dmax = NAN;
    }
    const double scale = fmax(xmax, q < 3 ? U : q == 3 ? U * U : 0);
    const double rel = scale > 0 ? dmax / scale : dmax;
    const int ok = rel <= tol;
    fail |= !ok;
    printf("%s: max |cuda - cpu| / max(max |cpu|, %s) = %.3e (max |cpu| %.4g)  %s\n", names[q],
           q < 3 ? "U" : q == 3 ? "U^2" : "0", rel, xmax, ok ? "ok" : "FAIL");
  }
  if (nav_models_field(&f[0].models, nav_flow_view_sync(&f[0]), "k")) { /* the k-omega SST state and nu_t, every point */
    nav_real *hk[2] = {malloc(n * sizeof(nav_real)), malloc(n * sizeof(nav_real))};
    static const char *tnames[3] = {"k", "omega", "nu_t"};
    for (int q = 0; q < 3 && hk[0] && hk[1]; q++) {
      for (int k = 0; k < 2; k++) {
        const nav_real *src = nav_models_field(&f[k].models, nav_flow_view_sync(&f[k]), q == 0 ? "k" : q == 1 ? "omega" : "nut");
        OK(f[k].ops->to_host(hk[k], src, n * sizeof(nav_real)));
      }
      double dmax = 0, xmax = 0;
      for (size_t p = 0; p < n; p++) {
        dmax = fmax(dmax, fabs((double)hk[0][p] - (double)hk[1][p]));
        xmax = fmax(xmax, fabs((double)hk[0][p]));
        if (isnan(hk[0][p]) || isnan(hk[1][p])) dmax = NAN;
      }
      const double rel = xmax > 0 ? dmax / xmax : dmax;
      fail |= !(rel <= tol);
      printf("%s: max |cuda - cpu| / max |cpu| = %.3e (max |cpu| %.4g)  %s\n", tnames[q], rel, xmax,
             rel <= tol ? "ok" : "FAIL");
    }
    free(hk[0]);
    free(hk[1]);
  }
  const double dtrel = f[0].t > 0 ? fabs(f[0].t - f[1].t) / f[0].t : fabs(f[1].t); /* pseudo-time runs: t = 0 */
  printf("simulated time: relative difference %.3e; pressure iterations differed at %d of %ld steps%s\n", dtrel,
         iter_mismatch, steps, iter_mismatch ? "  FAIL" : "");
  fail |= iter_mismatch != 0; /* the same solve on both backends: equal iterations at every step */
  for (int k = 0; k < 2; k++) {
    nav_host_fields_free(&h[k]);
    nav_flow_destroy(&f[k]);
  }
  printf("test_flow_backends: %s (tolerance %.0e)\n", fail ? "FAILED" : "passed", tol);
  return fail ? 1 : 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int status = run(argc, argv);
  MPI_Finalize();
  return status;
}
