/* CUDA backend: vector algebra, local reductions over the interior points, and the reduction
 * scratch buffer shared by every reducing kernel of the backend.
 *
 * Backend-private state: one device buffer (file-static here) holding the block partials of the
 * current reduction and, in front of them, the few final scalars. It grows to the largest grid
 * seen and lives for the process (one allocation; freed by the driver at exit). Reductions are
 * deterministic: each block combines its threads in a fixed tree, and one block then combines
 * the partials in a fixed order. */
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/cuda/cuda_kernels.h"

#define NAV_CUDA_RESULTS 8 /* scalars in front of the partials */

static double *nav_cuda_scratch = NULL;
static size_t nav_cuda_scratch_len = 0; /* doubles */

nav_err nav_cuda_partials(int nv, size_t nblocks, double **partial) {
  const size_t need = NAV_CUDA_RESULTS + (size_t)nv * nblocks;
  if (need > nav_cuda_scratch_len) {
    size_t len = nav_cuda_scratch_len ? nav_cuda_scratch_len : 4096;
    while (len < need) len *= 2;
    if (nav_cuda_scratch) NAV_CALL_CUDA(cudaFree(nav_cuda_scratch));
    nav_cuda_scratch = NULL;
    nav_cuda_scratch_len = 0;
    NAV_CALL_CUDA(cudaMalloc((void **)&nav_cuda_scratch, len * sizeof(double)));
    nav_cuda_scratch_len = len;
  }
  *partial = nav_cuda_scratch + NAV_CUDA_RESULTS;
  return NAV_OK;
}

/* One block: thread t combines partials t, t + T, ... in order, then the block combines the
 * threads; the results land in out[0..NV-1]. */
template <int NV, bool IS_MAX>
__global__ void __launch_bounds__(1024) nav_reduce_finish_kernel(const double *partial, size_t nblocks, double *out) {
  double v[NV];
#pragma unroll
  for (int n = 0; n < NV; n++)
    v[n] = nav_cuda_combine_strided<IS_MAX>(0, partial + n * nblocks, nblocks, threadIdx.x, blockDim.x);
  nav_cuda_block_reduce<NV, IS_MAX>(v, out);
}

nav_err nav_cuda_reduce(int nv, int is_max, size_t nblocks, double *host) {
  const double *partial = nav_cuda_scratch + NAV_CUDA_RESULTS;
  double *out = nav_cuda_scratch;
  const unsigned threads = nav_cuda_reduce_threads(nblocks);
  NAV_ASSERT(((nv >= 1 && nv <= 3) || ((nv == 4 || nv == 8) && !is_max)) && nav_cuda_scratch);
  if (is_max) {
    if (nv == 1) nav_reduce_finish_kernel<1, true><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else if (nv == 2) nav_reduce_finish_kernel<2, true><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else nav_reduce_finish_kernel<3, true><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
  } else {
    if (nv == 1) nav_reduce_finish_kernel<1, false><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else if (nv == 2) nav_reduce_finish_kernel<2, false><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else if (nv == 3) nav_reduce_finish_kernel<3, false><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else if (nv == 4)
      nav_reduce_finish_kernel<4, false><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out);
    else nav_reduce_finish_kernel<8, false><<<1, threads, 0, nav_cuda_stream>>>(partial, nblocks, out); /* bodies */
  }
  NAV_CUDA_LAUNCHED("nav_reduce_finish_kernel");
  return nav_to_host_cuda(host, out, (size_t)nv * sizeof(double));
}

template <int DIM, typename T>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_axpby_kernel(nav_box box, nav_real a, const T *x, nav_real beta, T *y) {
  NAV_CUDA_INTERIOR(box);
  y[p] = (T)(a * x[p] + beta * y[p]);
}

nav_err nav_axpby_cuda(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y) {
  NAV_CUDA_LAUNCH_FIELD(b, nav_cuda_grid(b), nav_axpby_kernel, *b, a, (const nav_cuda_t *)x, beta, (nav_cuda_t *)y);
  return NAV_OK;
}

template <int DIM, typename T>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_extrapolate_kernel(nav_box box, nav_real r, T *x, T *x_old) {
  NAV_CUDA_INTERIOR(box);
  const T xn = x[p];
  x[p] = nav_extrapolated(xn, x_old[p], r);
  x_old[p] = xn;
}

nav_err nav_extrapolate_cuda(const nav_box *b, nav_real r, nav_real *x, nav_real *x_old) {
  NAV_CUDA_LAUNCH_FIELD(b, nav_cuda_grid(b), nav_extrapolate_kernel, *b, r, (nav_cuda_t *)x, (nav_cuda_t *)x_old);
  return NAV_OK;
}

/* sum x y dV (Y), or sum x dV (!Y), per block: each thread sums its kz planes (nav_cuda_planes, in order), so that
 * the block reduction, not the loads, was what bounded the one-point-per-thread form (a 256^3 dot reached well
 * below the DRAM bandwidth, docs/performance.md) */
template <int DIM, bool Y, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_dot_kernel(nav_box box, const nav_real *x, const nav_real *y, double *partial, int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p))
    nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
      const double v = Y ? (double)x[q] * (double)y[q] : (double)x[q];
      s[0] += v * (double)nav_cell_volume(b, ijk);
    });
  nav_cuda_block_reduce<1, false>(s, partial);
}

template <bool Y> static nav_err nav_dot_launch(const nav_box *b, const nav_real *x, const nav_real *y, double *sum) {
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  const dim3 grid = nav_cuda_grid_kz(b, b->n[0], kz), block = nav_cuda_block();
  double *partial;
  NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  const bool plain = nav_box_plain(b);
  if (b->dim == 2 && plain)
    nav_dot_kernel<2, Y, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial, kz);
  else if (b->dim == 2)
    nav_dot_kernel<2, Y, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial, kz);
  else if (plain)
    nav_dot_kernel<3, Y, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial, kz);
  else
    nav_dot_kernel<3, Y, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial, kz);
  NAV_CUDA_LAUNCHED("nav_dot_kernel");
  NAV_CALL(nav_cuda_reduce(1, 0, nav_cuda_blocks(grid), sum));
  return NAV_OK;
}

nav_err nav_dot_cuda(const nav_box *b, const nav_real *x, const nav_real *y, double *sum) {
  return nav_dot_launch<true>(b, x, y, sum);
}

nav_err nav_sum_cuda(const nav_box *b, const nav_real *x, double *sum) { return nav_dot_launch<false>(b, x, NULL, sum); }

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_shift_kernel(nav_box box, nav_real *x, nav_real value) {
  NAV_CUDA_INTERIOR(box);
  x[p] += value;
}

nav_err nav_shift_cuda(const nav_box *b, nav_real *x, nav_real value) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_shift_kernel, *b, x, value);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_dense_copy_kernel(nav_box box, nav_real *x, double *dense, int to_box) {
  NAV_CUDA_INTERIOR(box);
  const nav_idx q = ijk[0] + (nav_idx)b->n[0] * (ijk[1] + (nav_idx)b->n[1] * ijk[2]);
  if (to_box)
    x[p] = (nav_real)dense[q];
  else
    dense[q] = x[p];
}

nav_err nav_dense_copy_cuda(const nav_box *b, nav_real *x, double *dense, int to_box) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_dense_copy_kernel, *b, x, dense, to_box);
  return NAV_OK;
}

/* Per block: max |x - y| (Y), max |x|, and 1 if a value of x is NaN or Inf (a max of flags). */
template <int DIM, bool Y>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_max_abs_diff_kernel(nav_box box, const nav_real *x, const nav_real *y, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[3] = {0, 0, 0};
  if (nav_cuda_point(b, ijk, &p)) {
    const double v = x[p];
    if (!isfinite(v)) m[2] = 1;
    m[1] = fabs(v);
    if (Y) m[0] = fabs(v - (double)y[p]);
  }
  nav_cuda_block_reduce<3, true>(m, partial);
}

nav_err nav_max_abs_diff_cuda(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                              int *bad) {
  const dim3 grid = nav_cuda_grid(b), block = nav_cuda_block();
  double *partial, r[3];
  NAV_CALL(nav_cuda_partials(3, nav_cuda_blocks(grid), &partial));
  if (b->dim == 2) {
    if (y)
      nav_max_abs_diff_kernel<2, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial);
    else
      nav_max_abs_diff_kernel<2, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial);
  } else {
    if (y)
      nav_max_abs_diff_kernel<3, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial);
    else
      nav_max_abs_diff_kernel<3, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, y, partial);
  }
  NAV_CUDA_LAUNCHED("nav_max_abs_diff_kernel");
  NAV_CALL(nav_cuda_reduce(3, 1, nav_cuda_blocks(grid), r));
  if (max_diff) *max_diff = r[0];
  if (max_x) *max_x = r[1];
  if (bad) *bad = r[2] > 0;
  return NAV_OK;
}
