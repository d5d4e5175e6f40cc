/* CUDA backend: the eddy viscosity of the LES closures. The formulas are in common/nav_point_les.h. */
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_les_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_les_nut_kernel(nav_box box, nav_cuda_fields u, const nav_real *wd, const nav_real *wi, nav_les_params a,
                       nav_real *nut) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  nut[p] = nav_les_cell(b, uc, wd, wi, &a, p, ijk);
}

static nav_err nav_les_nut_cells_cuda(const nav_box *b, nav_real *const *u, const nav_real *wd, const nav_real *wi,
                                      const nav_les_params *a, nav_real *nut) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_les_nut_kernel, *b, nav_cuda_pack(b, u), wd, wi, *a, nut);
  return NAV_OK;
}

extern "C" const nav_les_kernels nav_les_kernels_cuda = {
    .nut_cells = nav_les_nut_cells_cuda,
};
