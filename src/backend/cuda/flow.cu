/* CUDA backend: momentum right-hand side, time-integration update, divergence, projection
 * correction, time-step rates and kinetic energy. The formulas are in common/nav_point_flow.h.
 * The per-component loops of the CPU backend are one launch here: each thread handles the
 * point (i,j,k) of every component (the component index is a compile-time constant after
 * unrolling, so the box's arrays are indexed with constants). */
#include "backend/common/nav_point_flow.h"
#include "backend/cuda/cuda_kernels.h"

/* momentum_rhs in 3D takes 70 registers, so 3 blocks of 256 threads fit an SM; asking for 4 caps
 * it at 64 (40 bytes of spills): on an H100 the 256^3 kernel went from 613 to 561 us (48 to 52 %
 * of the copy bandwidth; 5 and 6 blocks spill 228 and 356 bytes). In FP32 it takes 56 registers
 * without spills at 4 blocks (ptxas, sm_90), and each thread has half the bytes in flight: a build
 * may try 5 blocks with -DNAV_MOMENTUM_MIN_BLOCKS=5 in CMAKE_CUDA_FLAGS (48 registers, 40 bytes of
 * spills in FP32, as FP64 at 4; not measured). */
#ifndef NAV_MOMENTUM_MIN_BLOCKS
#define NAV_MOMENTUM_MIN_BLOCKS 4
#endif

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS, NAV_MOMENTUM_MIN_BLOCKS)
    nav_momentum_rhs_kernel(nav_box box, nav_cuda_fields u, nav_real nu, nav_cuda_fields rhs) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
#pragma unroll
  for (int c = 0; c < DIM; c++) rhs.c[c][p] = nav_momentum_rhs(b, c, uc, nu, p, ijk);
}

nav_err nav_momentum_rhs_cuda(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_momentum_rhs_kernel, *b, nav_cuda_pack(b, u), nu, nav_cuda_pack(b, rhs));
  return NAV_OK;
}

template <int DIM, bool OLD>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_advance_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields rhs, nav_cuda_fields rhs_old, nav_real a,
                       nav_real c) {
  NAV_CUDA_INTERIOR(box);
  (void)b;
#pragma unroll
  for (int d = 0; d < DIM; d++) {
    if (OLD)
      u.c[d][p] += a * rhs.c[d][p] + c * rhs_old.c[d][p];
    else
      u.c[d][p] += a * rhs.c[d][p];
  }
}

nav_err nav_advance_cuda(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                         nav_real a, nav_real c) {
  const nav_cuda_fields fu = nav_cuda_pack(b, u), fr = nav_cuda_pack(b, rhs);
  const nav_cuda_fields fo = c != 0 ? nav_cuda_pack(b, rhs_old) : fr; /* rhs_old is not read when c == 0 */
  const dim3 grid = nav_cuda_grid(b), block = nav_cuda_block();
  if (b->dim == 2) {
    if (c != 0)
      nav_advance_kernel<2, true><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
    else
      nav_advance_kernel<2, false><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
  } else {
    if (c != 0)
      nav_advance_kernel<3, true><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
    else
      nav_advance_kernel<3, false><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
  }
  NAV_CUDA_LAUNCHED("nav_advance_kernel");
  return NAV_OK;
}

/* div = scale * div u (if WRITE); partial max |div u| per block (if MAX). */
template <int DIM, bool WRITE, bool MAX>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_divergence_kernel(nav_box box, nav_cuda_fields u, nav_real scale, nav_real *div, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    const nav_real d = nav_divergence(b, uc, p, ijk);
    if (WRITE) div[p] = scale * d;
    m[0] = fabs((double)d);
  }
  if (MAX) nav_cuda_block_reduce<1, true>(m, partial);
}

template <int DIM, bool WRITE>
static void nav_divergence_launch(const nav_box *b, nav_cuda_fields u, nav_real scale, nav_real *div, double *partial) {
  if (partial)
    nav_divergence_kernel<DIM, WRITE, true><<<nav_cuda_grid(b), nav_cuda_block(), 0, nav_cuda_stream>>>(*b, u, scale, div, partial);
  else
    nav_divergence_kernel<DIM, WRITE, false><<<nav_cuda_grid(b), nav_cuda_block(), 0, nav_cuda_stream>>>(*b, u, scale, div, partial);
}

nav_err nav_divergence_cuda(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs) {
  if (!div && !max_abs) return NAV_OK;
  const size_t nblocks = nav_cuda_blocks(nav_cuda_grid(b));
  double *partial = NULL;
  if (max_abs) NAV_CALL(nav_cuda_partials(1, nblocks, &partial));
  const nav_cuda_fields fu = nav_cuda_pack(b, u);
  if (b->dim == 2) {
    if (div)
      nav_divergence_launch<2, true>(b, fu, scale, div, partial);
    else
      nav_divergence_launch<2, false>(b, fu, scale, div, partial);
  } else {
    if (div)
      nav_divergence_launch<3, true>(b, fu, scale, div, partial);
    else
      nav_divergence_launch<3, false>(b, fu, scale, div, partial);
  }
  NAV_CUDA_LAUNCHED("nav_divergence_kernel");
  if (max_abs) NAV_CALL(nav_cuda_reduce(1, 1, nblocks, max_abs));
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_correct_kernel(nav_box box, nav_cuda_fields u, const nav_real *q, nav_real scale) {
  NAV_CUDA_INTERIOR(box);
#pragma unroll
  for (int c = 0; c < DIM; c++) u.c[c][p] -= scale * nav_gradient(b, c, q, p, ijk);
}

nav_err nav_correct_cuda(const nav_box *b, nav_real *const *u, const nav_real *q, nav_real scale) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_correct_kernel, *b, nav_cuda_pack(b, u), q, scale);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_time_rates_kernel(nav_box box, nav_cuda_fields u, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[2] = {0, 0};
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    m[0] = (double)nav_advective_rate(b, uc, p, ijk);
    m[1] = (double)nav_diffusive_rate(b, ijk);
  }
  nav_cuda_block_reduce<2, true>(m, partial);
}

nav_err nav_time_rates_cuda(const nav_box *b, nav_real *const *u, double *adv_max, double *diff_max) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial, r[2];
  NAV_CALL(nav_cuda_partials(2, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_time_rates_kernel, *b, nav_cuda_pack(b, u), partial);
  NAV_CALL(nav_cuda_reduce(2, 1, nav_cuda_blocks(grid), r));
  *adv_max = r[0];
  *diff_max = r[1];
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_kinetic_energy_kernel(nav_box box, nav_cuda_fields u, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
#pragma unroll
    for (int c = 0; c < DIM; c++) {
      const nav_real *x = u.c[c];
      s[0] += 0.5 * (double)x[p] * (double)x[p] * (double)nav_volume(b, c, ijk);
    }
  }
  nav_cuda_block_reduce<1, false>(s, partial);
}

nav_err nav_kinetic_energy_cuda(const nav_box *b, nav_real *const *u, double *sum) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial;
  NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_kinetic_energy_kernel, *b, nav_cuda_pack(b, u), partial);
  NAV_CALL(nav_cuda_reduce(1, 0, nav_cuda_blocks(grid), sum));
  return NAV_OK;
}
