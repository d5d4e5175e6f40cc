/* The k-omega SST cell terms (nav_point_sst.h, through the CPU kernel sst_cells) against a reference
 * written separately from ../shared/reference/sst_model.md (the SST-2003 form): plain doubles, the
 * derivatives at a cell centre by the Lagrange parabola through three centres (independent of the
 * weighted form of the kernel), upwind advection by its fluxes. On random fields over a stretched 2D
 * and 3D box (k in [0.001, 2), omega in [1, 31), wall distance in [0.05, 5.05): F1 and F2 between 0 and 1,
 * both branches of the max of nu_t; the test counts the cells of each), every interior cell:
 *   nu_t, F1, Gamma_k = nu + sigma_k nu_t, Gamma_w = nu + sigma_w nu_t,
 *   the k source   q_k - c_k k = -div(u k)_upwind + min(P, 10 beta* w k) - beta* w k,
 *   the w source   q_w - c_w w = -div(u w)_upwind + gamma P~ / nu_t - beta w^2 + 2 (1 - F1) sigma_w2 gk.gw / w,
 * with P = nu_t S^2, S^2 = 2 S_ij S_ij, and q >= 0, c >= 0; within 1e-11 relative (1e-5 in single precision). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/nav_kernels.h"
#include "backend/nav_sst_kernels.h"
#include "grid/nav_geometry.h"

#define TOL (sizeof(nav_real) == sizeof(double) ? 1e-11 : 1e-5)

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
  if (failures++ < 20) printf("%dD %s: got %.15g, want %.15g\n", dim, what, got, want);
}

/* d/dx at x1 of the parabola through (x0, f0), (x1, f1), (x2, f2) */
static double lagrange_slope(double x0, double x1, double x2, double f0, double f1, double f2) {
  return f0 * (x1 - x2) / ((x0 - x1) * (x0 - x2)) + f1 * (2 * x1 - x0 - x2) / ((x1 - x0) * (x1 - x2)) +
         f2 * (x1 - x0) / ((x2 - x0) * (x2 - x1));
}

int main(void) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  const double nu = 0.002, bstar = 0.09, a1 = 0.31, sk1 = 0.85, sk2 = 1.0, sw1 = 0.5, sw2 = 0.856, b1 = 0.075,
               b2 = 0.0828, g1 = 5.0 / 9.0, g2 = 0.44;
  int branch[2] = {0, 0}, mid_f1 = 0, mid_f2 = 0;
  for (int dim = 2; dim <= 3; dim++) {
    const int n[3] = {6, 5, dim == 3 ? 4 : 1}, g0[3] = {0, 0, 0};
    double *w[3] = {NULL, NULL, NULL}, *xc[3] = {NULL, NULL, NULL};
    for (int d = 0; d < dim; d++) {
      w[d] = nav_widths_alloc(n[d]);
      for (int i = 0; i < n[d]; i++) w[d][i] = 0.1 * (0.5 + rnd());
      nav_widths_ghosts(w[d], n[d], 0);
      xc[d] = calloc((size_t)n[d] + 2, sizeof(double)); /* centre of cell i at xc[d][i + 1], i = -1..n */
      xc[d][0] = -0.5 * w[d][-1];
      for (int i = 0; i <= n[d]; i++) xc[d][i + 1] = xc[d][i] + 0.5 * (w[d][i - 1] + w[d][i]);
    }
    nav_box b;
    if (nav_box_create(ops, dim, n, g0, w, &b) != NAV_OK) return 1;
    const size_t N = (size_t)b.ntot;
    nav_real *u[3] = {0}, *kf = malloc(N * sizeof *kf), *om = malloc(N * sizeof *om), *wd = malloc(N * sizeof *wd),
             *out[8];
    for (int c = 0; c < dim; c++) {
      u[c] = malloc(N * sizeof(nav_real));
      for (size_t p = 0; p < N; p++) u[c][p] = (nav_real)(2 * rnd() - 1);
    }
    for (size_t p = 0; p < N; p++) {
      kf[p] = (nav_real)(0.001 + 2 * rnd());
      om[p] = (nav_real)(1 + 30 * rnd());
      wd[p] = (nav_real)(0.05 + 5 * rnd());
    }
    for (int i = 0; i < 8; i++) out[i] = calloc(N, sizeof(nav_real));
    if (nav_sst_kernels_cpu.sst_cells(&b, u, kf, om, wd, (nav_real)nu, out) != NAV_OK) return 1;
    for (int k = 0; k < n[2]; k++)
      for (int j = 0; j < n[1]; j++)
        for (int i = 0; i < n[0]; i++) {
          const int ijk[3] = {i, j, k};
          const nav_idx p = b.off + i * b.st[0] + j * b.st[1] + k * b.st[2];
          double g[3][3] = {{0}}, gk[3] = {0}, gw[3] = {0}, adv_k = 0, adv_w = 0;
          for (int d = 0; d < dim; d++) {
            const nav_idx s = b.st[d];
            const int a = ijk[d] + 1; /* index of the cell in xc[d] */
            const double x0 = xc[d][a - 1], x1 = xc[d][a], x2 = xc[d][a + 1];
            gk[d] = lagrange_slope(x0, x1, x2, kf[p - s], kf[p], kf[p + s]);
            gw[d] = lagrange_slope(x0, x1, x2, om[p - s], om[p], om[p + s]);
            for (int c = 0; c < dim; c++) {
              const nav_idx sc = b.st[c];
              if (c == d) {
                g[c][c] = (u[c][p + sc] - u[c][p]) / w[d][ijk[d]];
              } else { /* the cell-centre values of u_c at the three centres along d */
                const double f0 = 0.5 * (u[c][p - s] + u[c][p - s + sc]), f1 = 0.5 * (u[c][p] + u[c][p + sc]);
                const double f2 = 0.5 * (u[c][p + s] + u[c][p + s + sc]);
                g[c][d] = lagrange_slope(x0, x1, x2, f0, f1, f2);
              }
            }
            /* conservative upwind fluxes through the low and high faces */
            const double Flo = u[d][p], Fhi = u[d][p + s];
            const double klo = Flo > 0 ? kf[p - s] : kf[p], khi = Fhi > 0 ? kf[p] : kf[p + s];
            const double wlo = Flo > 0 ? om[p - s] : om[p], whi = Fhi > 0 ? om[p] : om[p + s];
            adv_k -= (Fhi * khi - Flo * klo) / w[d][ijk[d]];
            adv_w -= (Fhi * whi - Flo * wlo) / w[d][ijk[d]];
          }
          double S2 = 0, kw = 0;
          for (int c = 0; c < dim; c++) {
            kw += gk[c] * gw[c];
            for (int d = 0; d < dim; d++) {
              const double sij = 0.5 * (g[c][d] + g[d][c]);
              S2 += 2 * sij * sij;
            }
          }
          const double kk = kf[p], ww = om[p], y = wd[p], S = sqrt(S2);
          const double CD = fmax(2 * sw2 / ww * kw, 1e-10);
          const double arg1 = fmin(fmax(sqrt(kk) / (bstar * ww * y), 500 * nu / (y * y * ww)), 4 * sw2 * kk / (CD * y * y));
          const double F1 = tanh(pow(arg1, 4));
          const double arg2 = fmax(2 * sqrt(kk) / (bstar * ww * y), 500 * nu / (y * y * ww));
          const double F2 = tanh(arg2 * arg2);
          const double nut = a1 * kk / fmax(a1 * ww, S * F2);
          branch[a1 * ww > S * F2] += 1;
          mid_f2 += F2 > 0.01 && F2 < 0.99;
          mid_f1 += F1 > 0.01 && F1 < 0.99;
          const double Pt = fmin(nut * S2, 10 * bstar * ww * kk);
          const double sigk = F1 * sk1 + (1 - F1) * sk2, sigw = F1 * sw1 + (1 - F1) * sw2;
          const double beta = F1 * b1 + (1 - F1) * b2, gamma = F1 * g1 + (1 - F1) * g2;
          const double src_k = adv_k + Pt - bstar * ww * kk;
          const double src_w = adv_w + gamma * Pt / nut - beta * ww * ww + 2 * (1 - F1) * sw2 / ww * kw;
          expect("nu_t", dim, out[0][p], nut, 0);
          expect("F1", dim, out[1][p], F1, 1);
          expect("Gamma_k", dim, out[2][p], nu + sigk * nut, 0);
          expect("Gamma_w", dim, out[3][p], nu + sigw * nut, 0);
          /* the sources as q - c phi, against the sum of the magnitudes of their terms */
          const double scale_k = fabs(adv_k) + Pt + bstar * ww * kk;
          const double scale_w = fabs(adv_w) + gamma * Pt / nut + beta * ww * ww + fabs(2 * sw2 / ww * kw);
          expect("k source q - c k", dim, out[4][p] - out[6][p] * kk, src_k, scale_k);
          expect("omega source q - c w", dim, out[5][p] - out[7][p] * ww, src_w, scale_w);
          checks += 4;
          for (int q = 4; q < 8; q++)
            if (!(out[q][p] >= 0) && failures++ < 20) printf("%dD q/c array %d negative: %g\n", dim, q, out[q][p]);
        }
    for (int c = 0; c < dim; c++) free(u[c]);
    for (int i = 0; i < 8; i++) free(out[i]);
    free(kf);
    free(om);
    free(wd);
    nav_box_destroy(ops, &b);
    for (int d = 0; d < dim; d++) {
      nav_widths_free(w[d]);
      free(xc[d]);
    }
  }
  printf("cells with nu_t = k / omega: %d, with nu_t = a1 k / (S F2): %d; with 0.01 < F1 < 0.99: %d, F2: %d\n",
         branch[1], branch[0], mid_f1, mid_f2);
  if (!branch[0] || !branch[1] || mid_f1 < 5 || mid_f2 < 5) {
    printf("the random fields miss a branch of the model\n");
    failures++;
  }
  printf("test_sst: %d checks, %d failed (the SST-2003 cell terms against the reference formulas)\n", checks, failures);
  return failures ? 1 : 0;
}
