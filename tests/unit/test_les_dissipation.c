/* The modelled dissipation of the LES model (monitor column dissipation_sgs: physics/turbulence/nav_les.c,
 * backend/common/nav_point_monitor.h) is the energy that the discrete stress operator removes beyond the
 * molecular part. For any velocity u that meets the boundary conditions (walls at rest, periodic faces),
 * summation by parts gives
 *   -(1/V) sum_c sum_faces u_c V_c(u) dV_c = dissipation + dissipation_sgs,
 * V the stress-form operator with k_c = nu + nu_t at the faces (nav_point_viscous.h through the viscous
 * kernel table, both parts: what the explicit step adds), dV_c the u_c control volume (dc along c, df
 * across), dissipation = 2 nu <S:S> (solvers/nav_dissipation.c). Checked on random velocities (ghosts filled
 * by the solver's rules) with nu_t from each closure's viscosity hook, in (a) a periodic box on a uniform grid
 * and (b) a channel on a tanh grid, walls along y (the wall edges' half dual cells; k_c and k_d of one edge
 * differ on the stretched grid), to 1e-12 relative. The former definition <nu_t |S|^2> of the cell-centre
 * strain differs here by O(1). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_metric.h"
#include "backend/common/nav_point_viscous.h"
#include "backend/nav_viscous_kernels.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "solvers/nav_dissipation.h"
#include "solvers/nav_flow.h"

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_les_dissipation: %s failed (line %d)\n", #call, __LINE__);                               \
      return -1;                                                                                                     \
    }                                                                                                                \
  } while (0)

/* A pseudo-random value in [-1, 1) of component c at point p. */
static double noise(int c, nav_idx p) {
  const double x = sin(12.9898 * (double)p + 78.233 * c) * 43758.5453;
  return 2 * (x - floor(x)) - 1;
}

/* dissipation_sgs from the summary of the LES model ("les": {... "dissipation_sgs": x}). */
static double summary_sgs(nav_flow *f) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return NAN;
  nav_models_summary(&f->models, nav_flow_view_sync(f), m);
  fclose(m);
  const char *at = buf ? strstr(buf, "\"dissipation_sgs\": ") : NULL;
  const double x = at ? strtod(at + strlen("\"dissipation_sgs\": "), NULL) : NAN;
  free(buf);
  return x;
}

/* One case: returns the relative difference of the identity, or -1 on an error. */
static double check(const char *model, int channel) {
  char mset[64];
  snprintf(mset, sizeof mset, "turbulence.model=%s", model);
  char *periodic[] = {"grid.dim=3", "grid.nx=8", "grid.ny=6", "grid.nz=7", "grid.lx=2", "grid.ly=1.5", "grid.lz=1.7",
                      "boundary.x_low=periodic", "boundary.x_high=periodic", "boundary.y_low=periodic",
                      "boundary.y_high=periodic", "boundary.z_low=periodic", "boundary.z_high=periodic",
                      "physics.nu=0.001", "time.max_steps=1", "boundary.y_high_velocity=0,0,0", mset};
  char *walls[] = {"grid.dim=3", "grid.nx=8", "grid.ny=10", "grid.nz=6", "grid.lx=2", "grid.ly=2", "grid.lz=1.5",
                   "grid.y_spacing=tanh", "grid.y_gamma=1.8", "boundary.x_low=periodic", "boundary.x_high=periodic",
                   "boundary.z_low=periodic", "boundary.z_high=periodic", "physics.nu=0.001", "time.max_steps=1",
                   "boundary.y_high_velocity=0,0,0", mset};
  nav_config cfg;
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  if (nav_config_load(&cfg, NULL, 17, channel ? walls : periodic, &errs) != NAV_OK) {
    fprintf(stderr, "%s", errs.text);
    return -1;
  }
  nav_flow f;
  OK(nav_flow_create(&cfg, nav_backend_get("cpu", 0), &f));
  const nav_box *b = &f.box;
  const size_t N = (size_t)b->ntot;
  nav_real *h = malloc(N * sizeof *h), *r[3] = {NULL, NULL, NULL};
  /* random u at the faces; the faces on walls (index 0 of a walled direction) at rest */
  for (int c = 0; c < 3; c++) {
    for (size_t p = 0; p < N; p++) h[p] = 0;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int ijk[3] = {i, j, k};
          const int wall = cfg.bc[c][0] != NAV_BC_PERIODIC && ijk[c] == 0;
          const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          h[p] = wall ? 0 : (nav_real)noise(c, p);
        }
    OK(f.ops->from_host(f.u[c], h, N * sizeof *h));
    OK(f.ops->alloc((void **)&r[c], N * sizeof *h));
    OK(f.ops->set(b, r[c], 0));
  }
  OK(nav_fill_velocity_ghosts(f.ops, b, f.halo, &f.vbc, f.u));
  OK(nav_flow_viscosity(&f, NAV_VISCOSITY_START)); /* nu_t of the closure, its ghosts and the face viscosities */
  OK(nav_models_diagnose(&f.models, nav_flow_view_sync(&f)));
  double eps, ens;
  OK(nav_flow_dissipation(&f, &eps, &ens));
  const double sgs = summary_sgs(&f);
  /* -(1/V) sum u_c V_c(u) dV_c over the faces that are unknowns (a wall face holds u = 0: it adds nothing) */
  OK(nav_viscous_kernels_of(f.ops)->stress(b, f.u, f.diff->kf, NAV_STRESS_DIAG | NAV_STRESS_CROSS, 1, r));
  double power = 0;
  nav_real *hu = malloc(N * sizeof *hu);
  for (int c = 0; c < 3; c++) {
    OK(f.ops->to_host(h, r[c], N * sizeof *h));
    OK(f.ops->to_host(hu, f.u[c], N * sizeof *hu));
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int ijk[3] = {i, j, k};
          const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          double dv = 1 / (double)nav_rdc(b, c, ijk[c]);
          for (int d = 0; d < 3; d++)
            if (d != c) dv *= (double)nav_df(b, d, ijk[d]);
          power += (double)hu[p] * (double)h[p] * dv;
        }
  }
  const double lhs = -power / f.volume, rhs = eps + sgs, rel = fabs(lhs - rhs) / fabs(lhs);
  printf("%-11s %-8s: -<u, V(u)> = %.15e, dissipation %.6e + dissipation_sgs %.6e = %.15e, rel diff %.2e\n", model,
         channel ? "channel" : "periodic", lhs, eps, sgs, rhs, rel);
  for (int c = 0; c < 3; c++) f.ops->free(r[c]);
  free(h);
  free(hu);
  nav_flow_destroy(&f);
  return sgs > 0 && isfinite(rel) ? rel : 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int failures = 0, checks = 0;
  static const char *const models[3] = {"smagorinsky", "wale", "vreman"};
  for (int channel = 0; channel < 2; channel++)
    for (int m = 0; m < 3; m++) {
      const double rel = check(models[m], channel);
      checks++;
      failures += !(rel >= 0 && rel <= 1e-12);
    }
  printf("test_les_dissipation: %d checks, %d failed (tolerance 1e-12)\n", checks, failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
