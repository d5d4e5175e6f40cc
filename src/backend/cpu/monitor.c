/* CPU backend: the sums of the turbulence monitors (dissipation, enstrophy, an eddy viscosity's dissipation). The
 * formulas are in common/nav_point_monitor.h. */
#include "backend/common/nav_point_monitor.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_monitor_kernels.h"

/* The sums of nav_monitor_point over the block: s[0] = 2 S:S dV, s[1] = |omega|^2/2 dV, s[2] = the eddy
 * viscosity's part (0 when kf is NULL). */
static void nav_monitor_loop_cpu(const nav_box *b, nav_real *const *u, nav_real *const *kf, nav_real nu, int bnd,
                                 double s[3]) {
  const nav_real *const *uc = (const nav_real *const *)u;
  const nav_real *const *kc = (const nav_real *const *)kf;
  double ss = 0, ens = 0, sgs = 0;
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b)) reduction(+ : ss, ens, sgs)
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      int ijk[3] = {0, j, k};
      nav_idx p = nav_cpu_index(b, 0, j, k);
      for (int i = 0; i < b->n[0]; i++, p++) {
        ijk[0] = i;
        nav_monitor_point(b, uc, kc, nu, bnd, p, ijk, &ss, &ens, &sgs);
      }
    }
  s[0] = ss;
  s[1] = ens;
  s[2] = sgs;
}

static nav_err nav_monitor_sums_cpu(const nav_box *b, nav_real *const *u, int bnd, double sum[2]) {
  double s[3];
  nav_monitor_loop_cpu(b, u, NULL, 0, bnd, s);
  sum[0] = s[0];
  sum[1] = s[1];
  return NAV_OK;
}

static nav_err nav_monitor_eddy_sum_cpu(const nav_box *b, nav_real *const *u, nav_real *const *kf, nav_real nu,
                                        int bnd, double *sum) {
  double s[3];
  nav_monitor_loop_cpu(b, u, kf, nu, bnd, s);
  *sum = s[2];
  return NAV_OK;
}

const nav_monitor_kernels nav_monitor_kernels_cpu = {
    .monitor_sums = nav_monitor_sums_cpu,
    .eddy_sum = nav_monitor_eddy_sum_cpu,
};
