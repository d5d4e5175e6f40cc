/* CUDA backend: viscosity at the faces and the stress-form viscous term (common/nav_point_viscous.h), one
 * launch per component; the explicit predictor with that term in one pass (advance_stress: advection and the
 * update of common/nav_point_flow.h), one launch for every component. */
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_viscous.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_viscous_kernels.h"

/* Every component's faces in one pass (nut read once); the components unrolled (constant c: no local copy of
 * the box). */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_face_viscosity_kernel(nav_box box, nav_real nu, const nav_real *nut, nav_cuda_fields kf) {
  NAV_CUDA_INTERIOR(box);
  NAV_UNROLL for (int c = 0; c < DIM; c++) kf.c[c][p] = nav_face_viscosity(b, c, nu, nut, p, ijk);
}

static nav_err nav_face_viscosity_cuda(const nav_box *b, nav_real nu, const nav_real *nut, nav_real *const *kf) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_face_viscosity_kernel, *b, nu, nut, nav_cuda_pack(b, kf));
  return NAV_OK;
}

template <int DIM, int C>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stress_kernel(nav_box box, nav_cuda_fields u, const nav_real *kc, int part, nav_real scale, nav_real *out) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  out[p] += scale * nav_stress(b, C, uc, kc, part, p, ijk);
}

static nav_err nav_stress_cuda(const nav_box *b, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                               nav_real *const *rhs) {
  for (int c = 0; c < b->dim; c++)
    NAV_CUDA_LAUNCH_DIM_C(b, c, nav_cuda_grid(b), nav_stress_kernel, *b, nav_cuda_pack(b, u), kf ? kf[c] : NULL, part,
                          scale, rhs[c]);
  return NAV_OK;
}

/* advance_stress keeps every component's N in registers before any store, as momentum_advance (flow.cu), with
 * the stress's loads of kf and of the other components on top: blocks per SM of its launch bounds. The kernel
 * that makes the face viscosities from the cells (the LES closures) runs on blocks of 32 x 4 threads, 3 per SM:
 * 168 registers and no spills (ptxas, sm_90, 3D), where 256-thread blocks at 2 per SM spill (128 registers). */
#ifndef NAV_ADVANCE_STRESS_MIN_BLOCKS
#define NAV_ADVANCE_STRESS_MIN_BLOCKS 2
#endif
#define NAV_ADVANCE_STRESS_CELLS_BY 4
#define NAV_ADVANCE_STRESS_CELLS_MIN_BLOCKS 3

/* N = -A (momentum_rhs at nu = 0: 0 lap - A) + scale * stress (both parts) of every component, then u* over
 * rhs_old (read first): the operations of those kernels and advance in their order, scale a kernel parameter as
 * theirs is (scale = 1), so the bits are theirs; every load before any store (momentum_advance's reason). */
template <int DIM, bool OLD, bool PLAIN, bool CELLS>
__device__ __forceinline__ void
nav_advance_stress_point(const nav_box &box, const nav_cuda_fields &u, const nav_cuda_fields &kf, const nav_real *nut,
                         nav_real nu, int ends, nav_real scale, nav_real a, nav_real c, const nav_cuda_fields &rhs,
                         const nav_cuda_fields &rhs_old, int kz) {
  NAV_CUDA_INTERIOR_PLAIN(box, PLAIN);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  const int both = NAV_STRESS_DIAG | NAV_STRESS_CROSS;
  nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
    nav_real n[3];
#pragma unroll
    for (int d = 0; d < DIM; d++) {
      n[d] = -nav_advection(b, d, uc, q, ijk);
      n[d] += scale * (CELLS ? nav_stress_cells(b, d, uc, nu, nut, ends, both, q, ijk)
                             : nav_stress(b, d, uc, kf.c[d], both, q, ijk));
    }
    nav_cuda_predictor_store<DIM, OLD>(uc, n, a, c, rhs, rhs_old, q);
  });
}

/* The face viscosities read from kf, or made from the cells (nav_stress_cells): one kernel each. */
template <int DIM, bool OLD, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS, NAV_ADVANCE_STRESS_MIN_BLOCKS)
    nav_advance_stress_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields kf, const nav_real *nut, nav_real nu,
                              int ends, nav_real scale, nav_real a, nav_real c, nav_cuda_fields rhs,
                              nav_cuda_fields rhs_old, int kz) {
  nav_advance_stress_point<DIM, OLD, PLAIN, false>(box, u, kf, nut, nu, ends, scale, a, c, rhs, rhs_old, kz);
}
template <int DIM, bool OLD, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_BX *NAV_ADVANCE_STRESS_CELLS_BY, NAV_ADVANCE_STRESS_CELLS_MIN_BLOCKS)
    nav_advance_stress_cells_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields kf, const nav_real *nut,
                                    nav_real nu, int ends, nav_real scale, nav_real a, nav_real c, nav_cuda_fields rhs,
                                    nav_cuda_fields rhs_old, int kz) {
  nav_advance_stress_point<DIM, OLD, PLAIN, true>(box, u, kf, nut, nu, ends, scale, a, c, rhs, rhs_old, kz);
}

static nav_err nav_advance_stress_cuda(const nav_box *b, nav_real *const *u, nav_real *const *kf, const nav_real *nut,
                                       nav_real nu, int ends, nav_real a, nav_real c, nav_real *const *rhs,
                                       nav_real *const *rhs_old) {
  const nav_cuda_fields fu = nav_cuda_pack(b, u), fr = nav_cuda_pack(b, rhs), fo = nav_cuda_pack(b, rhs_old);
  const nav_cuda_fields fk = kf ? nav_cuda_pack(b, kf) : nav_cuda_fields{};
  const nav_real scale = 1;
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  dim3 grid = nav_cuda_grid_kz(b, b->n[0], kz);
  if (kf) {
    NAV_CUDA_LAUNCH_UNI_OLD(b, grid, c != 0, nav_advance_stress_kernel, *b, fu, fk, nut, nu, ends, scale, a, c, fr, fo,
                            kz);
  } else {
    grid.y = (unsigned)((b->n[1] + NAV_ADVANCE_STRESS_CELLS_BY - 1) / NAV_ADVANCE_STRESS_CELLS_BY);
    NAV_CUDA_LAUNCH_UNI_OLD_BLOCK(b, grid, dim3(NAV_CUDA_BX, NAV_ADVANCE_STRESS_CELLS_BY, 1), c != 0,
                                  nav_advance_stress_cells_kernel, *b, fu, fk, nut, nu, ends, scale, a, c, fr, fo, kz);
  }
  return NAV_OK;
}

/* The viscous table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_viscous_kernels nav_viscous_kernels_cuda = {
    .face_viscosity = nav_face_viscosity_cuda,
    .stress = nav_stress_cuda,
    .advance_stress = nav_advance_stress_cuda,
};
