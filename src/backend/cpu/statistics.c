/* CPU backend: the kernels of the DNS statistics (nav_statistics_kernels.h). The formulas are in
 * common/nav_point_statistics.h. */
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_statistics_kernels.h"

/* One thread per plane; its cells in the fixed order of the other two directions (k, j, i). */
static nav_err nav_stat_planes_cpu(const nav_box *box, nav_real *const *u, const nav_real *p, const nav_real *T,
                                   const nav_real *nut, double nu, int e, double *out) {
  const nav_real *const *uc = (const nav_real *const *)u;
  const int ne = box->n[e];
#pragma omp parallel for schedule(static) if (nav_cpu_threaded(box))
  for (int j = 0; j < ne; j++) {
    const nav_box *const b = box;
    double s[NAV_STAT_Q] = {0};
    int lo[3] = {0, 0, 0}, hi[3] = {b->n[0], b->n[1], b->n[2]};
    lo[e] = j;
    hi[e] = j + 1;
    for (int k = lo[2]; k < hi[2]; k++)
      for (int jj = lo[1]; jj < hi[1]; jj++)
        for (int i = lo[0]; i < hi[0]; i++) {
          const int ijk[3] = {i, jj, k};
          double q[NAV_STAT_Q];
          nav_stat_cell(b, uc, p, T, nut, nu, nav_cpu_index(b, i, jj, k), q);
          const double a = nav_stat_area(b, e, ijk);
          for (int m = 0; m < NAV_STAT_Q; m++) s[m] += q[m] * a;
        }
    for (int m = 0; m < NAV_STAT_Q; m++) out[(size_t)m * ne + j] = s[m];
  }
  return NAV_OK;
}

static nav_err nav_stat_accumulate_cpu(const nav_box *box, nav_real *const *u, const nav_real *pr, const nav_real *T,
                                       nav_real *const *sum) {
  const nav_real *const *uc = (const nav_real *const *)u;
  NAV_CPU_LOOP(box, , {
    double q[NAV_STAT_Q];
    nav_stat_cell(b, uc, pr, T, NULL, 1.0, p, q);
    for (int m = 0; m < NAV_STAT_Q; m++)
      if (sum[m]) sum[m][p] += (nav_real)q[m];
  });
  return NAV_OK;
}

const nav_statistics_ops nav_statistics_ops_cpu = {
    .planes = nav_stat_planes_cpu,
    .accumulate = nav_stat_accumulate_cpu,
};
