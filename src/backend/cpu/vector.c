/* CPU backend: vector algebra and local reductions over the interior points. */
#include <math.h>

#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/cpu/cpu_kernels.h"

nav_err nav_axpby_cpu(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y) {
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p0 = nav_cpu_index(b, 0, j, k);
      for (nav_idx p = p0; p < p0 + b->n[0]; p++) y[p] = a * x[p] + beta * y[p];
    }
  return NAV_OK;
}

nav_err nav_extrapolate_cpu(const nav_box *b, nav_real r, nav_real *x, nav_real *x_old) {
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p0 = nav_cpu_index(b, 0, j, k);
      for (nav_idx p = p0; p < p0 + b->n[0]; p++) {
        const nav_real xn = x[p];
        x[p] = nav_extrapolated(xn, x_old[p], r);
        x_old[p] = xn;
      }
    }
  return NAV_OK;
}

nav_err nav_dot_cpu(const nav_box *b, const nav_real *x, const nav_real *y, double *sum) {
  *sum = 0;
  NAV_CPU_SUM_CELLS(b, , 1, s, sum, { s[0] += (double)x[p] * (double)y[p] * (double)nav_cell_volume(b, ijk); });
  return NAV_OK;
}

nav_err nav_sum_cpu(const nav_box *b, const nav_real *x, double *sum) {
  *sum = 0;
  NAV_CPU_SUM_CELLS(b, , 1, s, sum, { s[0] += (double)x[p] * (double)nav_cell_volume(b, ijk); });
  return NAV_OK;
}

nav_err nav_shift_cpu(const nav_box *b, nav_real *x, nav_real value) {
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p0 = nav_cpu_index(b, 0, j, k);
      for (nav_idx p = p0; p < p0 + b->n[0]; p++) x[p] += value;
    }
  return NAV_OK;
}

nav_err nav_dense_copy_cpu(const nav_box *b, nav_real *x, double *dense, int to_box) {
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b))
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p0 = nav_cpu_index(b, 0, j, k), q0 = (nav_idx)b->n[0] * (j + (nav_idx)b->n[1] * k);
      for (int i = 0; i < b->n[0]; i++) {
        if (to_box)
          x[p0 + i] = (nav_real)dense[q0 + i];
        else
          dense[q0 + i] = x[p0 + i];
      }
    }
  return NAV_OK;
}

nav_err nav_max_abs_diff_cpu(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                             int *bad) {
  double md = 0, mx = 0;
  int nbad = 0;
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b)) reduction(max : md, mx) reduction(+ : nbad)
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      const nav_idx p0 = nav_cpu_index(b, 0, j, k);
      for (nav_idx p = p0; p < p0 + b->n[0]; p++) {
        const double v = x[p];
        if (!isfinite(v)) nbad++;
        const double av = fabs(v), dv = y ? fabs(v - (double)y[p]) : 0;
        mx = av > mx ? av : mx;
        md = dv > md ? dv : md;
      }
    }
  if (max_diff) *max_diff = md;
  if (max_x) *max_x = mx;
  if (bad) *bad = nbad > 0;
  return NAV_OK;
}
