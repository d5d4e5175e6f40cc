/* CUDA backend: the pseudo-time updates of artificial compressibility. The formulas are in
 * common/nav_point_ac.h. One launch updates every velocity component; the residual maxima are
 * reduced per block and combined by nav_cuda_reduce (deterministic, like the CPU's max). The kernels read
 * u_ref^2 from device memory (nav_ac_params.u_ref2), which ac_u_ref writes on the device. */
#include "backend/common/nav_point_ac.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_ac_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_momentum_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields u0, nav_cuda_fields rhs, const nav_real *q,
                           nav_ac_params a, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[1] = {0};
  const nav_real u_ref2 = *a.u_ref2; /* read once, before the point functions read it through a */
  a.u_ref2 = &u_ref2;
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const u0c[3] = {u0.c[0], u0.c[1], u0.c[2]};
#pragma unroll
    for (int c = 0; c < DIM; c++) {
      if (nav_ac_boundary_face(c, ijk, &a)) continue;
      const nav_real res = rhs.c[c][p] - nav_gradient(b, c, q, p, ijk);
      u.c[c][p] = u0.c[c][p] + a.alpha * nav_ac_dtau_face(b, c, u0c, p, ijk, &a) * res;
      m[0] = fmax(m[0], fabs((double)res));
    }
  }
  if (partial) nav_cuda_block_reduce<1, true>(m, partial);
}

static nav_err nav_ac_momentum_cuda(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *const *rhs,
                                    const nav_real *q, const nav_ac_params *a, double *res_max) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial = NULL;
  if (res_max) NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_ac_momentum_kernel, *b, nav_cuda_pack(b, u), nav_cuda_pack(b, u0),
                      nav_cuda_pack(b, rhs), q, *a, partial);
  if (res_max) NAV_CALL(nav_cuda_reduce(1, 1, nav_cuda_blocks(grid), res_max));
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_cells_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields u0, nav_real *q, const nav_real *q0,
                        const nav_real *fp, nav_real *T, const nav_real *T0, const nav_real *rhs_T, nav_ac_params a, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[2] = {0, 0};
  const nav_real u_ref2 = *a.u_ref2; /* read once, before the point functions read it through a */
  a.u_ref2 = &u_ref2;
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    const nav_real *const u0c[3] = {u0.c[0], u0.c[1], u0.c[2]};
    const nav_real dtau = a.alpha * a.cfl / nav_ac_rate(b, u0c, p, ijk, &a);
    const nav_real div = nav_divergence(b, uc, p, ijk) - (fp ? fp[p] : 0);
    q[p] = q0[p] - dtau * nav_ac_beta2(b, u0c, p, &a) * div;
    m[0] = fabs((double)div);
    if (T) {
      T[p] = T0[p] + dtau * rhs_T[p];
      m[1] = fabs((double)rhs_T[p]);
    }
  }
  if (partial) nav_cuda_block_reduce<2, true>(m, partial);
}

static nav_err nav_ac_cells_cuda(const nav_box *b, nav_real *const *u, nav_real *const *u0, nav_real *q, const nav_real *q0,
                                 const nav_real *fp, nav_real *T, const nav_real *T0, const nav_real *rhs_T, const nav_ac_params *a,
                                 double *res_max) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial = NULL;
  if (res_max) NAV_CALL(nav_cuda_partials(2, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_ac_cells_kernel, *b, nav_cuda_pack(b, u), nav_cuda_pack(b, u0), q, q0, fp, T, T0,
                      rhs_T, *a, partial);
  if (res_max) NAV_CALL(nav_cuda_reduce(2, 1, nav_cuda_blocks(grid), res_max));
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_dissipation_kernel(nav_box box, nav_cuda_fields u, const nav_real *T, nav_real coef, nav_cuda_fields rhs,
                              nav_real *rhs_T) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
#pragma unroll
  for (int c = 0; c < DIM; c++) rhs.c[c][p] += nav_ac_dissipation(b, c, uc, p, ijk, coef);
  if (T) rhs_T[p] += nav_ac_dissipation_cell(b, uc, T, p, ijk, coef);
}

static nav_err nav_ac_dissipation_cuda(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real coef, nav_real *const *rhs,
                                       nav_real *rhs_T) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_ac_dissipation_kernel, *b, nav_cuda_pack(b, u), T, coef,
                      nav_cuda_pack(b, rhs), rhs_T);
  return NAV_OK;
}

/* The coarse box is the launch grid; the fine box travels by value. */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_restrict_faces_kernel(nav_box fine, nav_cuda_fields u, nav_box box, nav_cuda_fields uc) {
  NAV_CUDA_INTERIOR(box);
  const nav_box fl = nav_cuda_box_dim<DIM>(fine);
#pragma unroll
  for (int c = 0; c < DIM; c++) uc.c[c][p] = nav_ac_restrict_face(&fl, c, u.c[c], ijk);
  (void)b;
}

static nav_err nav_ac_restrict_faces_cuda(const nav_box *fine, nav_real *const *u, const nav_box *coarse, nav_real *const *uc) {
  NAV_CUDA_LAUNCH_DIM(coarse, nav_cuda_grid(coarse), nav_ac_restrict_faces_kernel, *fine, nav_cuda_pack(fine, u),
                      *coarse, nav_cuda_pack(coarse, uc));
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_prolong_faces_kernel(nav_box coarse, nav_cuda_fields ec, nav_box box, nav_cuda_fields u) {
  NAV_CUDA_INTERIOR(box);
  const nav_box cl = nav_cuda_box_dim<DIM>(coarse);
#pragma unroll
  for (int c = 0; c < DIM; c++) u.c[c][p] += nav_ac_prolong_face(&cl, c, ec.c[c], b, ijk);
}

static nav_err nav_ac_prolong_faces_add_cuda(const nav_box *coarse, nav_real *const *ec, const nav_box *fine, nav_real *const *u) {
  NAV_CUDA_LAUNCH_DIM(fine, nav_cuda_grid(fine), nav_ac_prolong_faces_kernel, *coarse, nav_cuda_pack(coarse, ec), *fine,
                      nav_cuda_pack(fine, u));
  return NAV_OK;
}

/* ac_u_ref in one launch, without the shared reduction scratch (vector.cu grows it, and a recorded graph holds
 * its address): the blocks stride over the rows (j, k) of the interior, each block's largest |u_c| goes into
 * nav_ac_umax_bits by atomicMax (the bits of a non-negative double order as its values; a max is exact in any
 * order), and the block that counts itself last on nav_ac_umax_done writes u_ref2 and resets both to 0 (fixed
 * addresses, so a replayed graph finds them ready). */
#define NAV_AC_U_REF_BLOCKS 1024

__device__ unsigned long long nav_ac_umax_bits;
__device__ unsigned nav_ac_umax_done;

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_ac_u_ref_kernel(nav_box box, nav_cuda_fields u, double u_fixed, double u_floor, nav_real *u_ref2) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  double m[1] = {0};
  const int rows = b->n[1] * b->n[2];
  for (int r = (int)blockIdx.x; r < rows; r += (int)gridDim.x) {
    int ijk[3] = {(int)threadIdx.x, r % b->n[1], r / b->n[1]};
    for (; ijk[0] < b->n[0]; ijk[0] += (int)blockDim.x) {
      const nav_idx p = nav_cuda_index(b, ijk);
#pragma unroll
      for (int c = 0; c < DIM; c++) m[0] = fmax(m[0], fabs((double)u.c[c][p]));
    }
  }
  nav_cuda_block_combine<1, true>(m);
  if (nav_cuda_tid() == 0) {
    atomicMax(&nav_ac_umax_bits, (unsigned long long)__double_as_longlong(m[0]));
    __threadfence(); /* this block's max is in before it is counted */
    if (atomicAdd(&nav_ac_umax_done, 1u) == gridDim.x - 1) {
      const double umax = __longlong_as_double((long long)atomicExch(&nav_ac_umax_bits, 0ull));
      nav_ac_umax_done = 0;
      *u_ref2 = nav_ac_u_ref2(umax, u_fixed, u_floor);
    }
  }
}

static nav_err nav_ac_u_ref_cuda(const nav_box *b, nav_real *const *u, double u_fixed, double u_floor, nav_real *u_ref2) {
  const int rows = b->n[1] * b->n[2];
  const dim3 grid((unsigned)(rows < NAV_AC_U_REF_BLOCKS ? rows : NAV_AC_U_REF_BLOCKS)), block(NAV_CUDA_THREADS);
  if (b->dim == 2)
    nav_ac_u_ref_kernel<2><<<grid, block, 0, nav_cuda_stream>>>(*b, nav_cuda_pack(b, u), u_fixed, u_floor, u_ref2);
  else
    nav_ac_u_ref_kernel<3><<<grid, block, 0, nav_cuda_stream>>>(*b, nav_cuda_pack(b, u), u_fixed, u_floor, u_ref2);
  NAV_CUDA_LAUNCHED("nav_ac_u_ref_kernel");
  return NAV_OK;
}

/* The ac table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_ac_kernels nav_ac_kernels_cuda = {
    .ac_momentum = nav_ac_momentum_cuda,
    .ac_cells = nav_ac_cells_cuda,
    .ac_dissipation = nav_ac_dissipation_cuda,
    .ac_restrict_faces = nav_ac_restrict_faces_cuda,
    .ac_prolong_faces_add = nav_ac_prolong_faces_add_cuda,
    .ac_u_ref = nav_ac_u_ref_cuda,
};
