/* CUDA backend: the kernels of the DNS statistics (nav_statistics_kernels.h). The formulas are in
 * common/nav_point_statistics.h. */
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_statistics_kernels.h"

/* The u pointers of a kernel as the point function takes them. */
#define NAV_STAT_U3(u) {u.c[0], u.c[1], u.c[2]}

/* One block per plane j along e (blockIdx.x): thread t takes the plane's cells t, t + T, ... (the other
 * two directions flattened, the lower one fastest), then the block's fixed tree (nav_cuda_block_reduce)
 * writes out[q * n[e] + j]: the same order at every call. */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stat_planes_kernel(nav_box box, nav_cuda_fields u, const nav_real *pr, const nav_real *T, int e,
                           double *out) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  const nav_real *const uc[3] = NAV_STAT_U3(u);
  const int a0 = e == 0 ? 1 : 0, a1 = e == 2 ? 1 : 2; /* the other two directions, a0 < a1 */
  const long na0 = b->n[a0], count = na0 * b->n[a1];
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  double s[NAV_STAT_Q];
#pragma unroll
  for (int m = 0; m < NAV_STAT_Q; m++) s[m] = 0;
  for (long c = nav_cuda_tid(); c < count; c += nthreads) {
    int ijk[3];
    ijk[e] = (int)blockIdx.x;
    ijk[a0] = (int)(c % na0);
    ijk[a1] = (int)(c / na0);
    double q[NAV_STAT_Q];
    nav_stat_cell(b, uc, pr, T, nav_cuda_index(b, ijk), q);
    const double a = nav_stat_area(b, e, ijk);
#pragma unroll
    for (int m = 0; m < NAV_STAT_Q; m++) s[m] += q[m] * a;
  }
  nav_cuda_block_reduce<NAV_STAT_Q, false>(s, out);
}

static nav_err nav_stat_planes_cuda(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T, int e,
                                    double *out) {
  const dim3 grid((unsigned)b->n[e], 1, 1);
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_stat_planes_kernel, *b, nav_cuda_pack(b, u), p, T, e, out);
  return NAV_OK;
}

/* The running sums of nav_statistics_ops.accumulate, passed by value. */
typedef struct nav_cuda_stat_sums {
  nav_real *s[NAV_STAT_Q];
} nav_cuda_stat_sums;

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stat_accumulate_kernel(nav_box box, nav_cuda_fields u, const nav_real *pr, const nav_real *T,
                               nav_cuda_stat_sums sum) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = NAV_STAT_U3(u);
  double q[NAV_STAT_Q];
  nav_stat_cell(b, uc, pr, T, p, q);
#pragma unroll
  for (int m = 0; m < NAV_STAT_Q; m++)
    if (sum.s[m]) sum.s[m][p] += (nav_real)q[m];
}

static nav_err nav_stat_accumulate_cuda(const nav_box *b, nav_real *const *u, const nav_real *p, const nav_real *T,
                                        nav_real *const *sum) {
  nav_cuda_stat_sums s;
  for (int m = 0; m < NAV_STAT_Q; m++) s.s[m] = sum[m];
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_stat_accumulate_kernel, *b, nav_cuda_pack(b, u), p, T, s);
  return NAV_OK;
}

const nav_statistics_ops nav_statistics_ops_cuda = {
    .planes = nav_stat_planes_cuda,
    .accumulate = nav_stat_accumulate_cuda,
};
