/* CPU backend: the sums of the turbulence monitors (dissipation, enstrophy). The formulas are in
 * common/nav_point_monitor.h. */
#include "backend/common/nav_point_monitor.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_monitor_kernels.h"

static nav_err nav_monitor_sums_cpu(const nav_box *b, nav_real *const *u, int bnd, double sum[2]) {
  const nav_real *const *uc = (const nav_real *const *)u;
  double ss = 0, ens = 0;
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b)) reduction(+ : ss, ens)
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++) {
      int ijk[3] = {0, j, k};
      nav_idx p = nav_cpu_index(b, 0, j, k);
      for (int i = 0; i < b->n[0]; i++, p++) {
        ijk[0] = i;
        nav_monitor_point(b, uc, bnd, p, ijk, &ss, &ens);
      }
    }
  sum[0] = ss;
  sum[1] = ens;
  return NAV_OK;
}

const nav_monitor_kernels nav_monitor_kernels_cpu = {
    .monitor_sums = nav_monitor_sums_cpu,
};
