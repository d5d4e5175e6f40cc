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
  s[0] = s[1] = s[2] = 0;
  NAV_CPU_SUM_CELLS(b, , 3, v, s, { nav_monitor_point(b, uc, kc, nu, bnd, p, ijk, &v[0], &v[1], &v[2]); });
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
