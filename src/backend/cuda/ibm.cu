/* CUDA backend: the immersed-boundary forcings (formulas in common/nav_point_ibm.h). Diffuse: one launch per
 * component; on monitor steps the launch also sums du dV per body: NAV_IBM_MAX_BODIES block partials,
 * combined in a fixed order by nav_cuda_reduce. Sharp: per component a gather launch (the new values of its
 * faces into s->next) and a scatter launch (u[target] = next, with the same sums), a thread per face. */
#include "backend/common/nav_point_ibm.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_ibm_kernels.h"

/* The component C a template parameter (as NAV_CUDA_LAUNCH_DIM_C): no local copy of the box. */
template <int DIM, bool SUMS, int C>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ibm_force_kernel(nav_box box, nav_real *uc, const nav_real *tag, const nav_real *q, const nav_real *vc,
                         nav_ibm_params a, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[NAV_IBM_MAX_BODIES];
#pragma unroll
  for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) s[n] = 0;
  if (nav_cuda_point(b, ijk, &p) && tag[p] != 0) {
    int owner;
    const nav_real du = nav_ibm_force(b, C, uc, tag, q, vc, &a, p, ijk, &owner);
    uc[p] += du;
    if (SUMS) {
      const double v = (double)du * (double)nav_volume(b, C, ijk);
#pragma unroll
      for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) /* constant indices: s stays in registers */
        if (n == owner) s[n] = v;
    }
  }
  if (SUMS) nav_cuda_block_reduce<NAV_IBM_MAX_BODIES, false>(s, partial);
}

template <bool SUMS>
static void nav_ibm_force_launch(const nav_box *b, int c, dim3 grid, dim3 block, nav_real *uc, const nav_real *tag,
                                 const nav_real *q, const nav_real *vc, const nav_ibm_params *a, double *partial) {
  if (b->dim == 2) {
    if (c == 0) nav_ibm_force_kernel<2, SUMS, 0><<<grid, block, 0, nav_cuda_stream>>>(*b, uc, tag, q, vc, *a, partial);
    else nav_ibm_force_kernel<2, SUMS, 1><<<grid, block, 0, nav_cuda_stream>>>(*b, uc, tag, q, vc, *a, partial);
  } else {
    if (c == 0) nav_ibm_force_kernel<3, SUMS, 0><<<grid, block, 0, nav_cuda_stream>>>(*b, uc, tag, q, vc, *a, partial);
    else if (c == 1) nav_ibm_force_kernel<3, SUMS, 1><<<grid, block, 0, nav_cuda_stream>>>(*b, uc, tag, q, vc, *a, partial);
    else nav_ibm_force_kernel<3, SUMS, 2><<<grid, block, 0, nav_cuda_stream>>>(*b, uc, tag, q, vc, *a, partial);
  }
}

static nav_err nav_ibm_force_cuda(const nav_box *b, nav_real *const *u, nav_real *const *tag, const nav_real *q,
                                  nav_real *const *v, const nav_ibm_params *a, double *sums) {
  const dim3 grid = nav_cuda_grid(b), block = nav_cuda_block();
  const size_t nblocks = nav_cuda_blocks(grid);
  for (int n = 0; sums && n < NAV_IBM_NSUM; n++) sums[n] = 0;
  for (int c = 0; c < b->dim; c++) {
    if (sums) {
      double *partial, part[NAV_IBM_MAX_BODIES];
      NAV_CALL(nav_cuda_partials(NAV_IBM_MAX_BODIES, nblocks, &partial));
      nav_ibm_force_launch<true>(b, c, grid, block, u[c], tag[c], q, v ? v[c] : NULL, a, partial);
      NAV_CUDA_LAUNCHED("nav_ibm_force_kernel");
      NAV_CALL(nav_cuda_reduce(NAV_IBM_MAX_BODIES, 0, nblocks, part));
      for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) sums[3 * n + c] = part[n];
    } else {
      nav_ibm_force_launch<false>(b, c, grid, block, u[c], tag[c], q, v ? v[c] : NULL, a, NULL);
      NAV_CUDA_LAUNCHED("nav_ibm_force_kernel");
    }
  }
  return NAV_OK;
}

__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ibm_sharp_gather_kernel(nav_ibm_stencils s, const nav_real *uc, nav_idx m0, nav_idx m1) {
  const nav_idx m = m0 + (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  if (m < m1) s.next[m] = nav_ibm_sharp_value(&s, uc, m);
}

template <bool SUMS>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ibm_sharp_scatter_kernel(nav_ibm_stencils s, nav_real *uc, nav_idx m0, nav_idx m1, double *partial) {
  const nav_idx m = m0 + (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  double v[NAV_IBM_MAX_BODIES];
#pragma unroll
  for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) v[n] = 0;
  if (m < m1) {
    const nav_idx t = s.target[m];
    const nav_real du = s.next[m] - uc[t];
    uc[t] = s.next[m];
    if (SUMS) {
      const double x = (double)du * (double)s.volume[m];
      const int owner = s.owner[m];
#pragma unroll
      for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) /* constant indices: v stays in registers */
        if (n == owner) v[n] = x;
    }
  }
  if (SUMS) nav_cuda_block_reduce<NAV_IBM_MAX_BODIES, false>(v, partial);
}

static nav_err nav_ibm_sharp_cuda(nav_real *const *u, const nav_ibm_stencils *s, double *sums) {
  for (int n = 0; sums && n < NAV_IBM_NSUM; n++) sums[n] = 0;
  for (int c = 0; c < 3; c++) {
    const nav_idx m0 = s->start[c], m1 = s->start[c + 1];
    if (m1 <= m0) continue;
    const size_t nblocks = (size_t)((m1 - m0 + NAV_CUDA_THREADS - 1) / NAV_CUDA_THREADS);
    nav_ibm_sharp_gather_kernel<<<(unsigned)nblocks, NAV_CUDA_THREADS, 0, nav_cuda_stream>>>(*s, u[c], m0, m1);
    NAV_CUDA_LAUNCHED("nav_ibm_sharp_gather_kernel");
    if (sums) {
      double *partial, part[NAV_IBM_MAX_BODIES];
      NAV_CALL(nav_cuda_partials(NAV_IBM_MAX_BODIES, nblocks, &partial));
      nav_ibm_sharp_scatter_kernel<true><<<(unsigned)nblocks, NAV_CUDA_THREADS, 0, nav_cuda_stream>>>(*s, u[c], m0, m1,
                                                                                                       partial);
      NAV_CUDA_LAUNCHED("nav_ibm_sharp_scatter_kernel");
      NAV_CALL(nav_cuda_reduce(NAV_IBM_MAX_BODIES, 0, nblocks, part));
      for (int n = 0; n < NAV_IBM_MAX_BODIES; n++) sums[3 * n + c] = part[n];
    } else {
      nav_ibm_sharp_scatter_kernel<false><<<(unsigned)nblocks, NAV_CUDA_THREADS, 0, nav_cuda_stream>>>(*s, u[c], m0, m1,
                                                                                                        NULL);
      NAV_CUDA_LAUNCHED("nav_ibm_sharp_scatter_kernel");
    }
  }
  return NAV_OK;
}

/* The ibm table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_ibm_kernels nav_ibm_kernels_cuda = {
    .ibm_force = nav_ibm_force_cuda,
    .ibm_sharp = nav_ibm_sharp_cuda,
};
