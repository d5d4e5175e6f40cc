/* CUDA backend: Poisson operator, smoothers and multigrid transfers (common/nav_point_poisson.h). */
#include "backend/common/nav_point_poisson.h"
#include "backend/cuda/cuda_kernels.h"

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_laplacian_kernel(nav_box box, const nav_real *x, nav_real *y) {
  NAV_CUDA_INTERIOR(box);
  nav_real dg;
  y[p] = nav_laplacian(b, x, p, ijk, &dg);
}

nav_err nav_laplacian_cuda(const nav_box *b, const nav_real *x, nav_real *y) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_laplacian_kernel, *b, x, y);
  return NAV_OK;
}

/* r = rhs - L x; with RR the block's partial sum of r^2 dV */
template <int DIM, bool RR>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_residual_kernel(nav_box box, const nav_real *x, const nav_real *rhs, nav_real *r, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
    nav_real dg;
    const nav_real res = rhs[p] - nav_laplacian(b, x, p, ijk, &dg);
    r[p] = res;
    if (RR) s[0] = (double)res * (double)res * (double)nav_cell_volume(b, ijk);
  }
  if (RR) nav_cuda_block_reduce<1, false>(s, partial);
}

nav_err nav_residual_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr) {
  const dim3 grid = nav_cuda_grid(b), block = nav_cuda_block();
  const size_t nblocks = nav_cuda_blocks(grid);
  double *partial = NULL;
  if (rr) NAV_CALL(nav_cuda_partials(1, nblocks, &partial));
  if (b->dim == 2) {
    if (rr)
      nav_residual_kernel<2, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial);
    else
      nav_residual_kernel<2, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial);
  } else {
    if (rr)
      nav_residual_kernel<3, true><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial);
    else
      nav_residual_kernel<3, false><<<grid, block, 0, nav_cuda_stream>>>(*b, x, rhs, r, partial);
  }
  NAV_CUDA_LAUNCHED("nav_residual_kernel");
  if (rr) NAV_CALL(nav_cuda_reduce(1, 0, nblocks, rr));
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_inverse_diagonal_kernel(nav_box box, nav_real *inv_diag) {
  NAV_CUDA_INTERIOR(box);
  inv_diag[p] = 1 / nav_laplacian_diagonal(b, p, ijk);
}

nav_err nav_inverse_diagonal_cuda(const nav_box *b, nav_real *inv_diag) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_inverse_diagonal_kernel, *b, inv_diag);
  return NAV_OK;
}

/* One thread per cell of the colour: thread ih of row (j, k) takes i = 2 ih + i0, where i0 is
 * the first cell of the row with that colour (nav_colour of the global indices). Cells of one
 * colour only read cells of the other, so the in-place update has no race. The kernel is DRAM-bound
 * (2.8 TB/s on an H100 at 256^3: its stride-2 accesses move every sector of x, rhs and the diagonal):
 * it divides by the stencil's diagonal (nav_relax_div) instead of loading inv_diag, 8 bytes per cell
 * and colour fewer; inv_diag stays for the Jacobi iterations and preconditioner. */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_relax_colour_kernel(nav_box box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                            nav_real omega) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3] = {0, (int)(blockIdx.y * blockDim.y + threadIdx.y), (int)blockIdx.z};
  if (ijk[1] >= b->n[1]) return;
  const int i0 = nav_colour(b, ijk) == colour ? 0 : 1;
  ijk[0] = i0 + 2 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (ijk[0] >= b->n[0]) return;
  const nav_idx p = b->off + (nav_idx)ijk[0] * b->st[0] + (nav_idx)ijk[1] * b->st[1] + (nav_idx)ijk[2] * b->st[2];
  (void)inv_diag;
  x[p] = nav_relax_div(b, x, rhs, p, ijk, omega);
}

nav_err nav_relax_colour_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                              nav_real omega) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid_n(b, (b->n[0] + 1) / 2), nav_relax_colour_kernel, *b, x, rhs, inv_diag, colour,
                      omega);
  return NAV_OK;
}

/* One thread per line of the colour (colour < 0: every line): thread t takes line l = t = ka + na kb
 * of the other two directions (nav_line_others) and runs the line's Thomas solve; lines of one
 * colour do not touch each other (their neighbours are of the other colour). */
#define NAV_CUDA_LINE(BOX, DIR, COLOUR)                                                              \
  const nav_box bl_ = nav_cuda_box_dim<DIM>(BOX);                                                    \
  const nav_box *const b = &bl_;                                                                     \
  int oa, ob;                                                                                        \
  nav_line_others(DIR, &oa, &ob);                                                                    \
  const long l = (long)blockIdx.x * blockDim.x + threadIdx.x, na = b->n[oa];                         \
  if (l >= na * b->n[ob]) return;                                                                    \
  const int ka = (int)(l % na), kb = (int)(l / na);                                                  \
  if ((COLOUR) >= 0 && ((b->g0[oa] + ka + b->g0[ob] + kb) & 1) != (COLOUR)) return;                  \
  int ijk[3] = {0, 0, 0};                                                                            \
  ijk[oa] = ka;                                                                                      \
  ijk[ob] = kb;                                                                                      \
  const nav_idx p0 = b->off + (nav_idx)ka * b->st[oa] + (nav_idx)kb * b->st[ob]

/* Launch a line kernel: one thread per line of the block along dir. */
#define NAV_CUDA_LAUNCH_LINES(B, DIR, KERNEL, ...)                                                   \
  do {                                                                                               \
    int oa_, ob_;                                                                                    \
    nav_line_others(DIR, &oa_, &ob_);                                                                \
    const long lines_ = (long)(B)->n[oa_] * (B)->n[ob_];                                             \
    const dim3 grid_((unsigned)((lines_ + NAV_CUDA_THREADS - 1) / NAV_CUDA_THREADS));                 \
    if ((B)->dim == 2)                                                                               \
      KERNEL<2><<<grid_, NAV_CUDA_THREADS, 0, nav_cuda_stream>>>(__VA_ARGS__);                       \
    else                                                                                             \
      KERNEL<3><<<grid_, NAV_CUDA_THREADS, 0, nav_cuda_stream>>>(__VA_ARGS__);                       \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_relax_line_kernel(nav_box box, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                          int colour, int lo_kind, int hi_kind, nav_real omega) {
  NAV_CUDA_LINE(box, dir, colour);
  nav_relax_line(b, x, rhs, cp, dd, p0, ijk, dir, lo_kind, hi_kind, omega);
}

nav_err nav_relax_line_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                            int colour, const int kind[2], nav_real omega) {
  NAV_CUDA_LAUNCH_LINES(b, dir, nav_relax_line_kernel, *b, x, rhs, cp, dd, dir, colour, kind[0], kind[1], omega);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_line_solve_kernel(nav_box box, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out, int dir,
                          int colour, int lo_kind, int hi_kind, int mode, nav_real *ends) {
  NAV_CUDA_LINE(box, dir, colour);
  nav_line_solve(b, x, rhs, cp, out, p0, ijk, dir, lo_kind, hi_kind, mode, ends ? ends + 2 * l : (nav_real *)0);
}

nav_err nav_line_solve_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                            int dir, int colour, const int kind[2], int mode, nav_real *ends) {
  NAV_CUDA_LAUNCH_LINES(b, dir, nav_line_solve_kernel, *b, x, rhs, cp, out, dir, colour, kind[0], kind[1], mode, ends);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_line_update_kernel(nav_box box, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                           const nav_real *coef, int dir, int colour, nav_real omega) {
  NAV_CUDA_LINE(box, dir, colour);
  (void)ijk;
  nav_line_update(b, x, dd, v, w, coef[2 * l], coef[2 * l + 1], p0, dir, omega);
}

nav_err nav_line_update_cuda(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                             const nav_real *coef, int dir, int colour, nav_real omega) {
  NAV_CUDA_LAUNCH_LINES(b, dir, nav_line_update_kernel, *b, x, dd, v, w, coef, dir, colour, omega);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_jacobi_kernel(nav_box box, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag, nav_real *x_new,
                      nav_real omega) {
  NAV_CUDA_INTERIOR(box);
  x_new[p] = nav_relax(b, x, rhs, inv_diag, p, ijk, omega);
}

nav_err nav_jacobi_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                        nav_real *x_new, nav_real omega) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_jacobi_kernel, *b, x, rhs, inv_diag, x_new, omega);
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_diag_scale_kernel(nav_box box, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CUDA_INTERIOR(box);
  z[p] = r[p] * inv_diag[p];
}

nav_err nav_diag_scale_cuda(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CUDA_LAUNCH_DIM(b, nav_cuda_grid(b), nav_diag_scale_kernel, *b, inv_diag, r, z);
  return NAV_OK;
}

/* One thread per COARSE cell. */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_restrict_residual_kernel(nav_box fine, const nav_real *r, nav_box coarse, nav_real *rhs) {
  const nav_box fl = nav_cuda_box_dim<DIM>(fine);
  NAV_CUDA_INTERIOR(coarse);
  rhs[p] = nav_restrict(&fl, r, b, ijk);
}

nav_err nav_restrict_residual_cuda(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs) {
  NAV_CUDA_LAUNCH_DIM(coarse, nav_cuda_grid(coarse), nav_restrict_residual_kernel, *fine, r, *coarse, rhs);
  return NAV_OK;
}

/* One thread per FINE cell. */
template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_prolong_add_kernel(nav_box coarse, const nav_real *xc, nav_box fine, nav_real *x) {
  const nav_box cl = nav_cuda_box_dim<DIM>(coarse);
  NAV_CUDA_INTERIOR(fine);
  x[p] += nav_prolong(&cl, xc, b, ijk);
}

nav_err nav_prolong_add_cuda(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x) {
  NAV_CUDA_LAUNCH_DIM(fine, nav_cuda_grid(fine), nav_prolong_add_kernel, *coarse, xc, *fine, x);
  return NAV_OK;
}
