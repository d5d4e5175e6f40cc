/* The LES kernel table (backend/nav_les_kernels.h) on the CUDA backend against the CPU backend: for
 * each closure (Smagorinsky with van Driest damping, WALE, Vreman) on a 2D and a 3D box with random
 * non-uniform spacing, the same random velocity (ghosts included), wall distances and wall faces on
 * both backends; nu_t compared over the WHOLE arrays (ghosts too: a stray write shows) in the relative
 * max norm max |x_cuda - x_cpu| / max |x_cpu| <= 1e-12 (FP64; 1e-4 in the single-precision build). Also
 * the modelled dissipation of the monitor table (nav_monitor_kernels.h eddy_sum) with random face
 * viscosities, periodic (bnd 0) and with every side on a wall: relative difference of the sums, same
 * tolerance. u_tau formed on the device (nav_les_kernels.u_tau) bit for bit the host's, and Smagorinsky's
 * nu_t reading it from device memory against the CPU's with it in the parameters. Exit status 77 (ctest:
 * skipped) when no CUDA device is visible. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/nav_les_kernels.h"
#include "backend/nav_monitor_kernels.h"
#include "core/nav_error.h"
#include "grid/nav_geometry.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-12 : 1e-4)

static const nav_kernel_ops *cpu, *gpu;
static unsigned long long rng = 88172645463325252ull;

static double rnd(void) { /* uniform in [0, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_les_kernels: %s failed (line %d)\n", #call, __LINE__);                                 \
      exit(1);                                                                                                       \
    }                                                                                                                \
  } while (0)

/* host array h onto both backends */
static void upload(const nav_real *h, size_t n, nav_real **c, nav_real **g) {
  OK(cpu->alloc((void **)c, n * sizeof *h));
  OK(gpu->alloc((void **)g, n * sizeof *h));
  OK(cpu->from_host(*c, h, n * sizeof *h));
  OK(gpu->from_host(*g, h, n * sizeof *h));
}

/* relative max difference of the whole arrays */
static double compare(const nav_real *c, const nav_real *g, size_t n) {
  nav_real *hc = malloc(n * sizeof *hc), *hg = malloc(n * sizeof *hg);
  OK(cpu->to_host(hc, c, n * sizeof *hc));
  OK(gpu->to_host(hg, g, n * sizeof *hg));
  double dmax = 0, xmax = 0;
  for (size_t p = 0; p < n; p++) {
    const double d = fabs((double)hg[p] - (double)hc[p]);
    dmax = d > dmax || d != d ? d : dmax;
    xmax = fmax(xmax, fabs((double)hc[p]));
  }
  free(hc);
  free(hg);
  return xmax > 0 ? dmax / xmax : dmax;
}

static int failures, checks;

/* nu_t of the CUDA backend (ng) against the CPU's (nc), the whole arrays of N values */
static void check_nut(int dim, const char *what, const nav_real *nc, const nav_real *ng, size_t N) {
  OK(gpu->sync());
  const double r = compare(nc, ng, N);
  checks++;
  failures += !(r <= TOL);
  printf("%dD %-20s nu_t rel diff %.3e  %s\n", dim, what, r, r <= TOL ? "ok" : "FAIL");
}

int main(void) {
  if (nav_backend_device_count("cuda") == 0) {
    printf("test_les_kernels: no CUDA device visible (or CUDA not built): skipped\n");
    return 77;
  }
  cpu = nav_backend_get("cpu", 0);
  gpu = nav_backend_get("cuda", 0);
  const nav_les_kernels *kc = nav_les_kernels_get(cpu), *kg = gpu ? nav_les_kernels_get(gpu) : NULL;
  if (!cpu || !gpu || !kc || !kg || kc == kg) {
    fprintf(stderr, "test_les_kernels: a backend or its LES table is missing\n");
    return 1;
  }
  for (int dim = 2; dim <= 3; dim++) {
    const int n[3] = {dim == 3 ? 29 : 67, dim == 3 ? 23 : 45, dim == 3 ? 19 : 1}, g0[3] = {0, 0, 0};
    double *w[3] = {NULL, NULL, NULL};
    for (int d = 0; d < dim; d++) {
      w[d] = nav_widths_alloc(n[d]);
      for (int i = 0; i < n[d]; i++) w[d][i] = 0.02 * (0.5 + rnd());
      nav_widths_ghosts(w[d], n[d], 0);
    }
    nav_box bc, bg;
    OK(nav_box_create(cpu, dim, n, g0, w, &bc));
    OK(nav_box_create(gpu, dim, n, g0, w, &bg));
    const size_t N = (size_t)bc.ntot;
    nav_real *h = malloc(N * sizeof *h), *uc[3] = {0}, *ug[3] = {0}, *wdc, *wdg, *wic, *wig, *nc, *ng;
    nav_real *kfc[3] = {0}, *kfg[3] = {0};
    for (int c = 0; c < dim; c++) {
      for (size_t p = 0; p < N; p++) h[p] = (nav_real)(2 * rnd() - 1);
      upload(h, N, &uc[c], &ug[c]);
    }
    const size_t M = (size_t)n[0] + n[1] + n[2]; /* the walls of each direction (nav_les_nearest_wall) */
    for (size_t q = 0; q < M; q++)
      h[q] = (nav_real)(0.001 + rnd());
    upload(h, M, &wdc, &wdg);
    for (size_t q = 0; q < M; q++)
      h[q] = (nav_real)((int)(7 * rnd()) - 1);
    upload(h, M, &wic, &wig);
    for (size_t p = 0; p < N; p++) h[p] = 0;
    upload(h, N, &nc, &ng);
    for (int c = 0; c < dim; c++) {
      for (size_t p = 0; p < N; p++) h[p] = (nav_real)(1e-3 + 0.01 * rnd());
      upload(h, N, &kfc[c], &kfg[c]);
    }
    static const char *const names[3] = {"smagorinsky+damping", "wale", "vreman"};
    for (int kind = 0; kind < 3; kind++) {
      nav_les_params a = {.kind = kind, .c = (nav_real)(kind == 0 ? 0.17 : kind == 1 ? 0.325 : 0.07),
                          .nu = (nav_real)1e-3};
      for (int f = 0; f < 6; f++) a.u_tau[f] = (nav_real)(0.02 + 0.1 * rnd());
      OK(kc->nut_cells(&bc, uc, wdc, wic, &a, NULL, nc));
      OK(kg->nut_cells(&bg, ug, wdg, wig, &a, NULL, ng));
      check_nut(dim, names[kind], nc, ng, N);
    }
    { /* u_tau on the device (the u_tau entry from wall shear sums in device memory, read by nut_cells from there)
       * against the host's formula: the same bits; then Smagorinsky's nu_t with it against the CPU's with the
       * host's u_tau in the parameters */
      double sh[18], area[3] = {0, 0, 0};
      for (int q = 0; q < 18; q++)
        sh[q] = (q % 3 == q / 6 ? 0 : 1) * (2 * rnd() - 1) * 50; /* 0: the normal one */
      for (int d = 0; d < dim; d++)
        area[d] = 0.1 + rnd();
      const double nu = 1.7e-3;
      nav_les_params a = {.kind = NAV_LES_SMAGORINSKY, .c = (nav_real)0.17, .nu = (nav_real)nu};
      for (int f = 0; f < 6; f++)
        a.u_tau[f] = nav_les_face_u_tau(dim, f, sh + 3 * f, nu, area[f / 2]);
      double *shg;
      nav_real *utg, utd[6];
      OK(gpu->alloc((void **)&shg, sizeof sh));
      OK(gpu->alloc((void **)&utg, sizeof utd));
      OK(gpu->from_host(shg, sh, sizeof sh));
      OK(kg->u_tau(dim, shg, area, nu, utg));
      OK(gpu->to_host(utd, utg, sizeof utd));
      int same = 1;
      for (int f = 0; f < 6; f++)
        same = same && utd[f] == a.u_tau[f];
      checks++;
      failures += !same;
      printf("%dD u_tau on the device   %s\n", dim, same ? "bit for bit ok" : "FAIL (differs from the host's)");
      OK(kc->nut_cells(&bc, uc, wdc, wic, &a, NULL, nc));
      OK(kg->nut_cells(&bg, ug, wdg, wig, &a, utg, ng));
      check_nut(dim, "smagorinsky u_tau dev", nc, ng, N);
      gpu->free(shg);
      gpu->free(utg);
    }
    for (int walls = 0; walls < 2; walls++) { /* the modelled dissipation: periodic, every side a wall */
      const int bnd = walls ? (dim == 3 ? 63 : 27) : 0;
      double sc, sg;
      OK(nav_monitor_kernels_of(cpu)->eddy_sum(&bc, uc, kfc, (nav_real)1e-3, bnd, &sc));
      OK(nav_monitor_kernels_of(gpu)->eddy_sum(&bg, ug, kfg, (nav_real)1e-3, bnd, &sg));
      const double r = fabs(sg - sc) / fabs(sc);
      checks++;
      failures += !(r <= TOL);
      printf("%dD eddy_sum bnd %2d       rel diff %.3e  %s\n", dim, bnd, r, r <= TOL ? "ok" : "FAIL");
    }
    nav_real *all[] = {wdc, wdg, wic, wig, nc, ng};
    for (int i = 0; i < 6; i++) (i % 2 ? gpu : cpu)->free(all[i]);
    for (int c = 0; c < dim; c++) {
      cpu->free(uc[c]);
      gpu->free(ug[c]);
      cpu->free(kfc[c]);
      gpu->free(kfg[c]);
    }
    free(h);
    nav_box_destroy(cpu, &bc);
    nav_box_destroy(gpu, &bg);
    for (int d = 0; d < dim; d++) nav_widths_free(w[d]);
  }
  printf("test_les_kernels: %d checks, %d failed (CUDA against CPU, <= %.0e)\n", checks, failures, TOL);
  return failures ? 1 : 0;
}
