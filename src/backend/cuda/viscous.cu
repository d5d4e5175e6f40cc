/* CUDA backend: viscosity at the faces and the stress-form viscous term (common/nav_point_viscous.h).
 * One launch per component. */
#include "backend/common/nav_point_viscous.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_viscous_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_face_viscosity_kernel(nav_box box, int c, nav_real nu, const nav_real *nut, nav_real *kf) {
  NAV_CUDA_INTERIOR(box);
  kf[p] = nav_face_viscosity(b, c, nu, nut, p, ijk);
}

static nav_err nav_face_viscosity_cuda(const nav_box *b, int c, nav_real nu, const nav_real *nut, nav_real *kf) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_face_viscosity_kernel, *b, c, nu, nut, kf);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_stress_kernel(nav_box box, int c, nav_cuda_fields u, const nav_real *kc, int part, nav_real scale,
                      nav_real *out) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  out[p] += scale * nav_stress(b, c, uc, kc, part, p, ijk);
}

static nav_err nav_stress_cuda(const nav_box *b, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                               nav_real *const *rhs) {
  for (int c = 0; c < b->dim; c++)
    NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_stress_kernel, *b, c, nav_cuda_pack(b, u), kf ? kf[c] : NULL, part,
                        scale, rhs[c]);
  return NAV_OK;
}

/* The viscous table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_viscous_kernels nav_viscous_kernels_cuda = {
    .face_viscosity = nav_face_viscosity_cuda,
    .stress = nav_stress_cuda,
};
