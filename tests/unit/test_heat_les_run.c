/* The turbulent Prandtl number changes a heated LES run, and a huge one gives the run without an eddy
 * diffusivity. One case (argument 1; further arguments are --set style overrides "section.key=value") with a
 * temperature and an LES closure, three runs on the CPU backend for its max_steps:
 *   A: turbulence.prandtl_t as given (0.85 by default): T diffuses with kappa + nu_t / Pr_t;
 *   B: prandtl_t = 1e30;
 *   C: as A, but the heat model's eddy diffusivity switched off after create (nav_heat.rprt = 0 through
 *      nav_models_data, the test accessor of nav_model.h): the constant-kappa operator of a temperature
 *      without an LES closure, under the same LES momentum.
 * Passes when B equals C to round-off (T, u, v, (w) relative to their largest value <= 1e-10) and A differs
 * from C by more than 1e-3 relative in T and in the Nusselt number of the first monitored face, and when the
 * explicit time-step limit of A covers its largest diffusivity kappa + max nu_t / Pr_t (nav_diffusion.h; relative
 * 1e-12, max nu_t over the final field). Prints the Nusselt numbers and the differences. One MPI rank. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_config.h"
#include "core/nav_error.h"
#include "io/nav_validation.h"
#include "physics/heat/nav_heat.h"
#include "solvers/nav_diffusion.h"
#include "solvers/nav_flow.h"

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_heat_les_run: %s failed (line %d)\n", #call, __LINE__);                                \
      return 1;                                                                                                      \
    }                                                                                                                \
  } while (0)

/* max |a - b| / max |a| over the block */
static double rel_diff(const nav_real *a, const nav_real *b, size_t n) {
  double d = 0, x = 0;
  for (size_t p = 0; p < n; p++) {
    d = fmax(d, fabs((double)a[p] - (double)b[p]));
    x = fmax(x, fabs((double)a[p]));
    if (isnan(a[p]) || isnan(b[p])) return NAN;
  }
  return x > 0 ? d / x : d;
}

static int run(int argc, char **argv) {
  const nav_kernel_ops *ops = nav_backend_get("cpu", 0);
  nav_config cfg[3];
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  if (argc < 2 || nav_config_load(&cfg[0], argv[1], argc - 2, argv + 2, &errs) != NAV_OK) {
    fprintf(stderr, "%s", errs.text);
    return 2;
  }
  if (strcmp(cfg[0].model, "boussinesq") || !strcmp(cfg[0].turbulence_model, "off")) {
    fprintf(stderr, "test_heat_les_run: the case needs a temperature and an LES closure\n");
    return 2;
  }
  cfg[1] = cfg[0];
  cfg[1].prandtl_t = 1e30;
  cfg[2] = cfg[0];
  const long steps = cfg[0].max_steps > 0 ? cfg[0].max_steps : 100;
  nav_flow f[3];
  nav_host_fields h[3];
  double nu[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    OK(nav_flow_create(&cfg[k], ops, &f[k]));
    nav_heat *heat = nav_models_data(&f[k].models, "heat");
    if (!heat || heat->rprt <= 0) {
      fprintf(stderr, "test_heat_les_run: run %c has no eddy diffusivity after create\n", 'A' + k);
      return 1;
    }
    if (k == 2) heat->rprt = heat->sc->rprt = 0; /* C: the temperature without an eddy diffusivity */
    for (long s = 0; s < steps; s++) {
      double dt, cfl;
      OK(nav_flow_dt(&f[k], &dt, &cfl));
      OK(nav_flow_step(&f[k], dt, 0));
    }
    double dt, cfl; /* the limit of the next step: nu_max from the final nu_t (the time-step reduction) */
    OK(nav_flow_dt(&f[k], &dt, &cfl));
    OK(nav_models_diagnose(&f[k].models, nav_flow_view_sync(&f[k])));
    nu[k] = heat->diag.nfaces ? heat->diag.nusselt[0] : NAN;
    OK(nav_host_fields_fetch(&f[k], &h[k]));
    printf("run %c (Pr_t %s): t = %.6g after %ld steps, Nu %.8f\n", 'A' + k,
           k == 0 ? "as given" : k == 1 ? "1e30" : "none", f[k].t, steps, nu[k]);
  }
  const size_t n = (size_t)f[0].box.ntot;
  int fail = 0;
  nav_real *nut = malloc(n * sizeof *nut);
  const nav_real *dnut = nav_models_field(&f[0].models, nav_flow_view_sync(&f[0]), "nut");
  if (!nut || !dnut) return 1;
  OK(ops->to_host(nut, dnut, n * sizeof *nut));
  double nut_max = 0;
  for (size_t p = 0; p < n; p++) nut_max = fmax(nut_max, (double)nut[p]);
  free(nut);
  const double want = cfg[0].diffusivity + nut_max / cfg[0].prandtl_t, got = nav_diffusion_max_diffusivity(&f[0]);
  fail |= !(got >= want * (1 - 1e-12));
  printf("explicit limit's diffusivity %.10g, kappa + max nu_t / Pr_t %.10g (nu + max nu_t %.10g)  %s\n", got, want,
         cfg[0].nu + nut_max, got >= want * (1 - 1e-12) ? "ok" : "FAIL");
  double worst = 0;
  for (int c = 0; c < f[0].dim; c++) worst = fmax(worst, rel_diff(h[2].u[c], h[1].u[c], n));
  const double dT_bc = rel_diff(h[2].T, h[1].T, n), dT_ac = rel_diff(h[2].T, h[0].T, n);
  const double dnu = fabs(nu[0] - nu[2]) / fabs(nu[2]);
  fail |= !(dT_bc <= 1e-10) || !(worst <= 1e-10);
  printf("huge Pr_t vs no eddy diffusivity: T %.3e, velocity %.3e (<= 1e-10)  %s\n", dT_bc, worst,
         dT_bc <= 1e-10 && worst <= 1e-10 ? "ok" : "FAIL");
  fail |= !(dT_ac > 1e-3) || !(dnu > 1e-3);
  printf("Pr_t %.4g vs no eddy diffusivity: T %.3e, Nusselt %.3e (> 1e-3)  %s\n", cfg[0].prandtl_t, dT_ac, dnu,
         dT_ac > 1e-3 && dnu > 1e-3 ? "ok" : "FAIL");
  for (int k = 0; k < 3; k++) {
    nav_host_fields_free(&h[k]);
    nav_flow_destroy(&f[k]);
  }
  printf("test_heat_les_run: %s\n", fail ? "FAILED" : "passed");
  return fail ? 1 : 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int status = run(argc, argv);
  MPI_Finalize();
  return status;
}
