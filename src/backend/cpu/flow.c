/* CPU backend: momentum right-hand side, the AB2 update (alone, or fused with the right-hand side:
 * momentum_advance), divergence (with its sum), projection correction,
 * time-step rates and kinetic energy. The formulas are in common/nav_point_flow.h. */
#include <math.h>

#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/cpu/cpu_kernels.h"

/* N(u) into rhs; with rhs_old (the fused predictor, momentum_advance) also rhs_old = nav_ab2(u, a, N,
 * c, rhs_old) at the same point */
static void nav_momentum_cpu(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs, nav_real a,
                             nav_real c, nav_real *const *rhs_old) {
  const nav_real *const *uc = (const nav_real *const *)u;
  const int old = c != 0;
  for (int d = 0; d < b->dim; d++) {
    nav_real *out = rhs[d], *ro = rhs_old ? rhs_old[d] : NULL;
    const nav_real *x = u[d];
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++) {
        int ijk[3] = {0, j, k};
        nav_idx p = nav_cpu_index(b, 0, j, k);
        for (int i = 0; i < b->n[0]; i++, p++) {
          ijk[0] = i;
          const nav_real n = nav_momentum_rhs(b, d, uc, nu, p, ijk);
          out[p] = n;
          if (ro) ro[p] = nav_ab2(x[p], a, n, c, old ? ro[p] : 0, old);
        }
      }
  }
}

nav_err nav_momentum_rhs_cpu(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs) {
  nav_momentum_cpu(b, u, nu, rhs, 0, 0, NULL);
  return NAV_OK;
}

nav_err nav_advance_cpu(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                          nav_real a, nav_real c) {
  for (int d = 0; d < b->dim; d++) {
    nav_real *x = u[d];
    const nav_real *r = rhs[d], *ro = rhs_old[d];
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++) {
        const nav_idx p0 = nav_cpu_index(b, 0, j, k);
        if (c != 0)
          for (nav_idx p = p0; p < p0 + b->n[0]; p++) x[p] = nav_ab2(x[p], a, r[p], c, ro[p], 1);
        else
          for (nav_idx p = p0; p < p0 + b->n[0]; p++) x[p] = nav_ab2(x[p], a, r[p], c, 0, 0);
      }
  }
  return NAV_OK;
}

nav_err nav_momentum_advance_cpu(const nav_box *b, nav_real *const *u, nav_real nu, nav_real a, nav_real c,
                                 nav_real *const *rhs, nav_real *const *rhs_old) {
  nav_momentum_cpu(b, u, nu, rhs, a, c, rhs_old);
  return NAV_OK;
}

nav_err nav_divergence_cpu(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs,
                           double *sum) {
  const nav_real *const *uc = (const nav_real *const *)u;
  double m = 0, total = 0;
  NAV_CPU_SUM_CELLS(b, reduction(max : m), 1, s, &total, {
    const nav_real d = nav_divergence(b, uc, p, ijk);
    if (div) {
      div[p] = scale * d;
      if (sum) s[0] += (double)div[p] * (double)nav_cell_volume(b, ijk); /* as nav_sum_cpu */
    }
    const double ad = fabs((double)d);
    m = ad > m ? ad : m; /* not fmax: a libm call here; NaN is caught by the pressure solve */
  });
  if (max_abs) *max_abs = m;
  if (sum) *sum = total;
  return NAV_OK;
}

nav_err nav_correct_cpu(const nav_box *b, nav_real *const *u, const nav_real *q, nav_real scale) {
  for (int c = 0; c < b->dim; c++) {
    nav_real *x = u[c];
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++) {
        int ijk[3] = {0, j, k};
        nav_idx p = nav_cpu_index(b, 0, j, k);
        for (int i = 0; i < b->n[0]; i++, p++) {
          ijk[0] = i;
          x[p] -= scale * nav_gradient(b, c, q, p, ijk);
        }
      }
  }
  return NAV_OK;
}

nav_err nav_time_rates_cpu(const nav_box *b, nav_real *const *u, const nav_real *nut, double *adv_max,
                           double *diff_max, double *nut_max) {
  const nav_real *const *uc = (const nav_real *const *)u;
  double ma = 0, md = 0, mn = 0;
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b)) reduction(max : ma, md, mn)
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      int ijk[3] = {0, j, k};
      nav_idx p = nav_cpu_index(b, 0, j, k);
      for (int i = 0; i < b->n[0]; i++, p++) {
        ijk[0] = i;
        const double ra = nav_advective_rate(b, uc, p, ijk), rd = nav_diffusive_rate(b, ijk);
        ma = ra > ma ? ra : ma;
        md = rd > md ? rd : md;
        if (nut) mn = fmax(mn, (double)nut[p]);
      }
    }
  *adv_max = ma;
  *diff_max = md;
  *nut_max = mn;
  return NAV_OK;
}

nav_err nav_kinetic_energy_cpu(const nav_box *b, nav_real *const *u, double *sum) {
  *sum = 0;
  for (int c = 0; c < b->dim; c++) {
    const nav_real *x = u[c];
    NAV_CPU_SUM_CELLS(b, , 1, s, sum, { s[0] += 0.5 * (double)x[p] * (double)x[p] * (double)nav_volume(b, c, ijk); });
  }
  return NAV_OK;
}
