/* CUDA backend: right-hand side of the temperature equation and the Boussinesq force. The
 * formulas are in common/nav_point_scalar.h. One launch for the force of every component. */
#include "backend/common/nav_point_scalar.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_heat_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_scalar_rhs_kernel(nav_box box, nav_cuda_fields u, const nav_real *T, nav_real kappa, const nav_real *nut,
                          nav_real rprt, int bnd, nav_real *rhs) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  rhs[p] = nav_scalar_rhs(b, uc, T, kappa, nut, rprt, bnd, p, ijk);
}

static nav_err nav_scalar_rhs_cuda(const nav_box *b, nav_real *const *u, const nav_real *T, nav_real kappa,
                                   const nav_real *nut, nav_real rprt, int bnd, nav_real *rhs) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_scalar_rhs_kernel, *b, nav_cuda_pack(b, u), T, kappa, nut, rprt, bnd,
                      rhs);
  return NAV_OK;
}

/* The coefficients travel by value; a zero coefficient leaves its component untouched. */
typedef struct nav_cuda_coef {
  nav_real c[3];
} nav_cuda_coef;

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_buoyancy_kernel(nav_box box, const nav_real *T, nav_cuda_coef coef, nav_real t_ref, nav_cuda_fields rhs) {
  NAV_CUDA_INTERIOR(box);
#pragma unroll
  for (int c = 0; c < DIM; c++)
    if (coef.c[c] != 0) rhs.c[c][p] += nav_buoyancy(b, c, T, coef.c[c], t_ref, p, ijk);
}

static nav_err nav_buoyancy_cuda(const nav_box *b, const nav_real *T, const nav_real *coef, nav_real t_ref,
                                 nav_real *const *rhs) {
  nav_cuda_coef k = {{coef[0], coef[1], b->dim == 3 ? coef[2] : (nav_real)0}};
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_buoyancy_kernel, *b, T, k, t_ref, nav_cuda_pack(b, rhs));
  return NAV_OK;
}

/* The heat table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_heat_kernels nav_heat_kernels_cuda = {
    .scalar_rhs = nav_scalar_rhs_cuda,
    .buoyancy = nav_buoyancy_cuda,
};
