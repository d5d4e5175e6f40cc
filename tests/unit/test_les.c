/* The LES closures' nu_t (nav_point_les.h, through the CPU kernel table nav_les_kernels_cpu) against
 * their formulas written separately here in plain doubles, on linear velocity fields over a stretched
 * 2D and 3D box (the discrete cell-centre gradient is exact for them, so every difference is
 * round-off):
 *   1. the closed forms of three flows, g = du_i/dx_j constant:
 *      linear shear u = G y:        Smagorinsky (Cs Delta)^2 |G|, WALE 0, Vreman 0;
 *      solid-body rotation (-W y, W x): Smagorinsky 0, WALE (Cw Delta)^2 (2/3)^(1/4) |W|,
 *                                       Vreman c dx dy |W| / sqrt(2)  (WALE and Vreman are not 0 here);
 *      pure strain (A x, -A y):     Smagorinsky 2 (Cs Delta)^2 |A|,
 *                                   WALE (Cw Delta)^2 |A| (2/3)^(3/2) / (2^(5/2) + (2/3)^(5/4)),
 *                                   Vreman c dx dy |A| / sqrt(2);
 *   2. random traceless gradients: the general formulas (Smagorinsky with van Driest damping at random
 *      wall distances, faces and u_tau per direction, the nearest wall picked here, u_tau in the
 *      parameters and, bit for bit the same, in memory; WALE; Vreman);
 * with Delta = (dx dy dz)^(1/3) (2D: (dx dy)^(1/2)) of each cell, Vreman's Delta_m = its widths. Relative 1e-12
 * (1e-4 in single precision) against the size (C Delta)^2 |g| of the terms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/nav_les_kernels.h"
#include "grid/nav_geometry.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-12 : 1e-4)

static int checks, failures;
static unsigned long long rng = 88172645463325252ull;

static double rnd(void) { /* uniform in [0, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void expect(const char *what, int dim, double got, double want, double scale) {
  checks++;
  if (fabs(got - want) <= TOL * fmax(scale, fabs(want))) return;
  if (failures++ < 20) printf("%dD %s: got %.15g, want %.15g (scale %.3g)\n", dim, what, got, want, scale);
}

/* the reference closures of the gradient g (g[i][j] = du_i/dx_j), plain doubles */
static double ref_s2(double g[3][3]) { /* 2 S_ij S_ij */
  double s = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) s += 2 * (0.5 * (g[i][j] + g[j][i])) * (0.5 * (g[i][j] + g[j][i]));
  return s;
}
static double ref_smagorinsky(double g[3][3], double cs, double delta, double yplus) {
  const double l = cs * delta * (yplus < 0 ? 1 : 1 - exp(-yplus / 26.0));
  return l * l * sqrt(ref_s2(g));
}
static double ref_wale(double g[3][3], double cw, double delta) {
  double gg[3][3], sd[3][3], SS = 0, SdSd = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      gg[i][j] = 0;
      for (int k = 0; k < 3; k++) gg[i][j] += g[i][k] * g[k][j];
    }
  const double trace = gg[0][0] + gg[1][1] + gg[2][2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      sd[i][j] = 0.5 * (gg[i][j] + gg[j][i]) - (i == j ? trace / 3 : 0);
      SdSd += sd[i][j] * sd[i][j];
      SS += 0.25 * (g[i][j] + g[j][i]) * (g[i][j] + g[j][i]);
    }
  const double den = pow(SS, 2.5) + pow(SdSd, 1.25);
  return den > 0 ? cw * cw * delta * delta * pow(SdSd, 1.5) / den : 0;
}
static double ref_vreman(double g[3][3], double c, const double width[3]) {
  double al[3][3], be[3][3], aa = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      al[i][j] = g[j][i]; /* alpha_ij = du_j/dx_i */
      aa += al[i][j] * al[i][j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      be[i][j] = 0;
      for (int m = 0; m < 3; m++) be[i][j] += width[m] * width[m] * al[m][i] * al[m][j];
    }
  const double B = be[0][0] * be[1][1] - be[0][1] * be[0][1] + be[0][0] * be[2][2] - be[0][2] * be[0][2] +
                   be[1][1] * be[2][2] - be[1][2] * be[1][2];
  return aa > 0 && B > 0 ? c * sqrt(B / aa) : 0;
}

int main(void) {
  const nav_les_kernels *K = &nav_les_kernels_cpu;
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  const double C[3] = {0.17, 0.325, 0.07}, nu = 1.5e-3;
  for (int dim = 2; dim <= 3; dim++) {
    const int n[3] = {6, 5, dim == 3 ? 4 : 1}, g0[3] = {0, 0, 0};
    double *w[3] = {NULL, NULL, NULL}, *xf[3] = {NULL, NULL, NULL};
    for (int d = 0; d < dim; d++) {
      w[d] = nav_widths_alloc(n[d]);
      for (int i = 0; i < n[d]; i++) w[d][i] = 0.1 * (0.5 + rnd());
      nav_widths_ghosts(w[d], n[d], 0);
      xf[d] = calloc((size_t)n[d] + 3, sizeof(double)); /* face i (i = -1..n+1) at xf[d][i + 1] */
      xf[d][0] = -w[d][-1];
      for (int i = 0; i <= n[d] + 1; i++) xf[d][i + 1] = xf[d][i] + w[d][i - 1];
    }
    nav_box b;
    if (nav_box_create(ops, dim, n, g0, w, &b) != NAV_OK) return 1;
    const size_t N = (size_t)b.ntot;
    nav_real *u[3] = {0}, *nut = calloc(N, sizeof *nut);
    const int M = n[0] + n[1] + n[2]; /* the walls of each direction (nav_les_nearest_wall) */
    nav_real *wd = malloc((size_t)M * sizeof *wd), *wi = malloc((size_t)M * sizeof *wi);
    for (int c = 0; c < dim; c++) u[c] = calloc(N, sizeof(nav_real));
    for (int field = 0; field < 3 + 20; field++) {
      double G[3][3] = {{0}};
      const double amp = 0.5 + rnd();
      if (field == 0) G[0][1] = amp;                      /* linear shear */
      if (field == 1) G[0][1] = -amp, G[1][0] = amp;      /* solid-body rotation */
      if (field == 2) G[0][0] = amp, G[1][1] = -amp;      /* pure strain */
      if (field >= 3) {                                  /* random, traceless */
        for (int i = 0; i < dim; i++)
          for (int j = 0; j < dim; j++) G[i][j] = 2 * rnd() - 1;
        const double tr = (G[0][0] + G[1][1] + G[2][2]) / dim;
        for (int i = 0; i < dim; i++) G[i][i] -= tr;
      }
      double gnorm = 0;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) gnorm += G[i][j] * G[i][j];
      gnorm = sqrt(gnorm);
      /* u_c = sum_d G_cd x_d at its faces, ghosts included (the face in c, the centres in the others) */
      for (int k = -1; k <= (dim == 3 ? n[2] : -1); k++)
        for (int j = -1; j <= n[1]; j++)
          for (int i = -1; i <= n[0]; i++) {
            const int ijk[3] = {i, j, dim == 3 ? k : 0};
            const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + ijk[2] * b.st[2];
            for (int c = 0; c < dim; c++) {
              double val = 0;
              for (int d = 0; d < dim; d++) {
                const double lo = xf[d][ijk[d] + 1], hi = xf[d][ijk[d] + 2];
                val += G[c][d] * (d == c ? lo : 0.5 * (lo + hi));
              }
              u[c][p] = (nav_real)val;
            }
          }
      for (int q = 0; q < M; q++) { /* random distances of 5 values (equal ones: the first wins) and faces */
        wd[q] = (nav_real)(0.01 * (1 + (int)(5 * rnd())));
        wi[q] = (nav_real)((int)(7 * rnd()) - 1); /* -1 (no wall) .. 5 */
      }
      for (int kind = 0; kind < 3; kind++) {
        nav_les_params a = {.kind = kind, .c = (nav_real)C[kind], .nu = (nav_real)nu};
        for (int f = 0; f < 6; f++) a.u_tau[f] = (nav_real)(0.01 + 0.1 * rnd());
        const int damped = kind == 0 && field >= 3;
        if (K->nut_cells(&b, u, damped ? wd : NULL, damped ? wi : NULL, &a, NULL, nut) != NAV_OK) return 1;
        if (damped) { /* u_tau from memory (the CUDA device's path, nav_les_kernels.h): the same bits */
          nav_real *nut2 = calloc(N, sizeof *nut2), ut[6];
          for (int f = 0; f < 6; f++)
            ut[f] = a.u_tau[f];
          if (!nut2 || K->nut_cells(&b, u, wd, wi, &a, ut, nut2) != NAV_OK) return 1;
          checks++;
          for (size_t p = 0; p < N; p++)
            if (nut2[p] != nut[p]) {
              failures++;
              printf("%dD Smagorinsky + van Driest: u_tau from memory differs at %zu\n", dim, p);
              break;
            }
          free(nut2);
        }
        for (int k = 0; k < n[2]; k++)
          for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++) {
              const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
              const double vol = w[0][i] * w[1][j] * (dim == 3 ? w[2][k] : 1);
              const double delta = dim == 3 ? cbrt(vol) : sqrt(vol);
              const double width[3] = {w[0][i], w[1][j], dim == 3 ? w[2][k] : 0}; /* Vreman's Delta_m */
              const double scale = C[kind] * C[kind] * delta * delta * gnorm;
              double want;
              double y = 0; /* the nearest wall: the smallest distance over x, y, z, the first of equal ones */
              int wall = -1;
              const int ijk[3] = {i, j, k}, o[3] = {0, n[0], n[0] + n[1]};
              for (int d = 0; d < dim; d++) {
                const int q = o[d] + ijk[d];
                if (wi[q] >= 0 && (wall < 0 || wd[q] < y)) y = wd[q], wall = (int)wi[q];
              }
              const double yp = damped && wall >= 0 ? y * a.u_tau[wall] / nu : -1;
              if (kind == 0) want = ref_smagorinsky(G, C[0], delta, yp);
              else if (kind == 1) want = ref_wale(G, C[1], delta);
              else want = ref_vreman(G, C[2], width);
              static const char *const names[3][4] = {{"Smagorinsky shear", "Smagorinsky rotation",
                                                        "Smagorinsky strain", "Smagorinsky + van Driest"},
                                                       {"WALE shear", "WALE rotation", "WALE strain", "WALE"},
                                                       {"Vreman shear", "Vreman rotation", "Vreman strain", "Vreman"}};
              const char *what = names[kind][field < 3 ? field : 3];
              expect(what, dim, nut[p], want, scale);
              if (field < 3) { /* the closed forms */
                const double cd2 = C[kind] * C[kind] * delta * delta, cv = C[2] * width[0] * width[1];
                const double closed[3][3] = {
                    {cd2 * amp, 0, 2 * cd2 * amp},
                    {0, cd2 * pow(2.0 / 3, 0.25) * amp,
                     cd2 * amp * pow(2.0 / 3, 1.5) / (pow(2, 2.5) + pow(2.0 / 3, 1.25))},
                    {0, cv * amp / sqrt(2), cv * amp / sqrt(2)}};
                expect(what, dim, nut[p], closed[kind][field], scale);
              }
              if (!(nut[p] >= 0) && failures++ < 20) printf("%dD %s: nu_t < 0\n", dim, what);
            }
      }
    }
    for (int c = 0; c < dim; c++) free(u[c]);
    free(nut);
    free(wd);
    free(wi);
    nav_box_destroy(ops, &b);
    for (int d = 0; d < dim; d++) {
      nav_widths_free(w[d]);
      free(xf[d]);
    }
  }
  printf("test_les: %d checks, %d failed (Smagorinsky + van Driest, WALE, Vreman against their formulas)\n", checks,
         failures);
  return failures ? 1 : 0;
}
