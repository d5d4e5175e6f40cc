/* CUDA backend: the eddy viscosity of the LES closures. The formulas are in common/nav_point_les.h. */
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_les_kernels.h"

/* One kernel per closure (KIND a constant: the other closures' branches and their registers compiled out); kz
 * planes per thread (nav_cuda_kz): the planes above and below a cell, read again by the next plane's cells, are
 * still in the SM's cache. The thread's column of cells shares the metric and walls of x and y (nav_les_column):
 * taken once, and the closure's length (its cube root, van Driest's exponential) again only where z changes it.
 * WALE and Vreman ask for NAV_LES_NUT_BLOCKS blocks per SM (fewer registers, more warps to hide the loads: faster
 * in docs/performance.md); Smagorinsky for 4, the occupancy its compiler's choice had before the column (58
 * registers; 78 with the column's values, 3 blocks). */
#define NAV_LES_NUT_BLOCKS(KIND) ((KIND) == NAV_LES_SMAGORINSKY ? 4 : 3)
template <int DIM, int KIND>
__global__ void __launch_bounds__(NAV_CUDA_THREADS, NAV_LES_NUT_BLOCKS(KIND))
    nav_les_nut_kernel(nav_box box, nav_cuda_fields u, const nav_real *wd, const nav_real *wi, nav_les_params a,
                       const nav_real *ut, nav_real *nut, int kz) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  nav_les_column col; /* the metric and walls of x and y once; those of z, and the length, where they change */
  nav_les_column_xy(b, wd, wi, KIND, ijk, &col);
  nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
    nav_les_column_z(b, wd, wi, &a, ut, KIND, ijk, &col);
    nut[q] = nav_les_column_cell(b, uc, &a, KIND, q, &col);
  });
}

template <int DIM>
static void nav_les_nut_launch(const nav_box *b, nav_cuda_fields u, const nav_real *wd, const nav_real *wi,
                               const nav_les_params *a, const nav_real *ut, nav_real *nut) {
  const int kz = DIM == 3 ? nav_cuda_kz() : 1;
  const dim3 g = nav_cuda_grid_kz(b, b->n[0], kz), t = nav_cuda_block();
  if (a->kind == NAV_LES_WALE)
    nav_les_nut_kernel<DIM, NAV_LES_WALE><<<g, t, 0, nav_cuda_stream>>>(*b, u, wd, wi, *a, ut, nut, kz);
  else if (a->kind == NAV_LES_VREMAN)
    nav_les_nut_kernel<DIM, NAV_LES_VREMAN><<<g, t, 0, nav_cuda_stream>>>(*b, u, wd, wi, *a, ut, nut, kz);
  else
    nav_les_nut_kernel<DIM, NAV_LES_SMAGORINSKY><<<g, t, 0, nav_cuda_stream>>>(*b, u, wd, wi, *a, ut, nut, kz);
}

static nav_err nav_les_nut_cells_cuda(const nav_box *b, nav_real *const *u, const nav_real *wd, const nav_real *wi,
                                      const nav_les_params *a, const nav_real *u_tau, nav_real *nut) {
  if (b->dim == 2)
    nav_les_nut_launch<2>(b, nav_cuda_pack(b, u), wd, wi, a, u_tau, nut);
  else
    nav_les_nut_launch<3>(b, nav_cuda_pack(b, u), wd, wi, a, u_tau, nut);
  NAV_CUDA_LAUNCHED("nav_les_nut_kernel");
  return NAV_OK;
}

/* The face areas of nav_les_kernels.u_tau, by value. */
struct nav_les_areas {
  double a[3];
};

/* u_tau of the six faces, one thread each: the formula of the host (nav_les_face_u_tau), the same bits. */
__global__ void __launch_bounds__(32)
    nav_les_u_tau_kernel(int dim, const double *sh, nav_les_areas area, double nu, nav_real *u_tau) {
  const int f = (int)threadIdx.x;
  if (f < 6) u_tau[f] = nav_les_face_u_tau(dim, f, sh + 3 * f, nu, area.a[f / 2]);
}

static nav_err nav_les_u_tau_cuda(int dim, const double *sh, const double area[3], double nu, nav_real *u_tau) {
  const nav_les_areas ar = {{area[0], area[1], area[2]}};
  nav_les_u_tau_kernel<<<1, 32, 0, nav_cuda_stream>>>(dim, sh, ar, nu, u_tau);
  NAV_CUDA_LAUNCHED("nav_les_u_tau_kernel");
  return NAV_OK;
}

extern "C" const nav_les_kernels nav_les_kernels_cuda = {
    .nut_cells = nav_les_nut_cells_cuda,
    .u_tau = nav_les_u_tau_cuda,
};
