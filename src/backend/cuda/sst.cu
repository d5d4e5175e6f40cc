/* CUDA backend: the cell terms of the k-omega SST model. The formulas are in common/nav_point_sst.h. */
#include "backend/common/nav_point_sst.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_sst_kernels.h"

/* The eight output arrays travel by value. */
typedef struct nav_cuda_sst_out {
  nav_real *a[8];
} nav_cuda_sst_out;

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_sst_cells_kernel(nav_box box, nav_cuda_fields u, const nav_real *k, const nav_real *w, const nav_real *wd,
                         nav_real nu, nav_cuda_sst_out out) {
  NAV_CUDA_INTERIOR(box);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  const nav_sst_point r = nav_sst_cell(b, uc, k, w, wd, nu, p, ijk);
  const nav_real v[8] = {r.nut, r.f1, r.gk, r.gw, r.qk, r.qw, r.ck, r.cw};
#pragma unroll
  for (int i = 0; i < 8; i++)
    if (out.a[i]) out.a[i][p] = v[i]; /* NULL outputs are not written (nav_kernels.h) */
}

static nav_err nav_sst_cells_cuda(const nav_box *b, nav_real *const *u, const nav_real *k, const nav_real *w,
                                  const nav_real *wd, nav_real nu, nav_real *const *out) {
  nav_cuda_sst_out o;
  for (int i = 0; i < 8; i++) o.a[i] = out[i];
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_sst_cells_kernel, *b, nav_cuda_pack(b, u), k, w, wd, nu, o);
  return NAV_OK;
}

/* The sst table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_sst_kernels nav_sst_kernels_cuda = {
    .sst_cells = nav_sst_cells_cuda,
};
