/* CUDA backend: the sums of the turbulence monitors (dissipation, enstrophy, an eddy viscosity's dissipation), one
 * thread per cell. The formulas are in common/nav_point_monitor.h. */
#include "backend/common/nav_point_monitor.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_monitor_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_monitor_sums_kernel(nav_box box, nav_cuda_fields u, int bnd, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[2] = {0, 0};
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    nav_monitor_point(b, uc, NULL, 0, bnd, p, ijk, &s[0], &s[1], NULL);
  }
  nav_cuda_block_reduce<2, false>(s, partial);
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_monitor_eddy_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields kf, nav_real nu, int bnd,
                            double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    const nav_real *const kc[3] = {kf.c[0], kf.c[1], kf.c[2]};
    double ss = 0, ens = 0; /* the molecular sums: not wanted here */
    nav_monitor_point(b, uc, kc, nu, bnd, p, ijk, &ss, &ens, &s[0]);
  }
  nav_cuda_block_reduce<1, false>(s, partial);
}

static nav_err nav_monitor_sums_cuda(const nav_box *b, nav_real *const *u, int bnd, double sum[2]) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial;
  NAV_CALL(nav_cuda_partials(2, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_monitor_sums_kernel, *b, nav_cuda_pack(b, u), bnd, partial);
  NAV_CALL(nav_cuda_reduce(2, 0, nav_cuda_blocks(grid), sum));
  return NAV_OK;
}

static nav_err nav_monitor_eddy_sum_cuda(const nav_box *b, nav_real *const *u, nav_real *const *kf, nav_real nu,
                                         int bnd, double *sum) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial;
  NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_monitor_eddy_kernel, *b, nav_cuda_pack(b, u), nav_cuda_pack(b, kf), nu, bnd,
                      partial);
  NAV_CALL(nav_cuda_reduce(1, 0, nav_cuda_blocks(grid), sum));
  return NAV_OK;
}

extern "C" const nav_monitor_kernels nav_monitor_kernels_cuda = {
    .monitor_sums = nav_monitor_sums_cuda,
    .eddy_sum = nav_monitor_eddy_sum_cuda,
};
