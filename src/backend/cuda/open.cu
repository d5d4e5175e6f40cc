/* CUDA backend: inflow and outflow faces (ghosts from the plane arrays, the convective outflow
 * update, face integrals) and the sum over the faces of one component. The formulas are in
 * common/nav_point_open.h and common/nav_point_flow.h. */
#include "backend/common/nav_point_boundary.h"
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_open.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/nav_open_kernels.h"

/* One thread per point (r, q) of the face plane of direction dir, tangential ghost rows included
 * (r = -1..n[t0], q = -1..n[t1] in 3D, 0 in 2D). */
static void nav_open_launch_geometry(const nav_box *b, int dir, dim3 *grid, dim3 *block) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const int nr = b->n[t0] + 2, nq = b->dim == 3 ? b->n[t1] + 2 : 1;
  *block = nq > 1 ? dim3(32, 8) : dim3(256, 1);
  *grid = dim3((unsigned)((nr + (int)block->x - 1) / (int)block->x), (unsigned)((nq + (int)block->y - 1) / (int)block->y));
}

__device__ __forceinline__ bool nav_open_thread(const nav_box *b, int dir, int *t0, int *t1, int *r, int *q) {
  nav_face_plane(b, dir, t0, t1);
  const int lo1 = b->dim == 3 ? -1 : 0, hi1 = b->dim == 3 ? b->n[*t1] : 0;
  *r = -1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
  *q = lo1 + (int)(blockIdx.y * blockDim.y + threadIdx.y);
  return *r <= b->n[*t0] && *q <= hi1;
}

__global__ void __launch_bounds__(256) nav_fill_ghost_plane_kernel(nav_box box, nav_real *x, int dir, int side,
                                                                   int normal, const nav_real *plane) {
  int t0, t1, r, q;
  if (nav_open_thread(&box, dir, &t0, &t1, &r, &q)) nav_fill_plane_point(&box, x, dir, side, normal, plane, t0, r, t1, q);
}

static nav_err nav_fill_ghost_plane_cuda(const nav_box *b, nav_real *x, int dir, int side, int normal, const nav_real *plane) {
  dim3 grid, block;
  nav_open_launch_geometry(b, dir, &grid, &block);
  nav_fill_ghost_plane_kernel<<<grid, block, 0, nav_cuda_stream>>>(*b, x, dir, side, normal, plane);
  NAV_CUDA_LAUNCHED("nav_fill_ghost_plane_kernel");
  return NAV_OK;
}

__global__ void __launch_bounds__(256) nav_outflow_update_kernel(nav_box box, const nav_real *x, int dir, int side,
                                                                 int normal, nav_real rate, nav_real shift,
                                                                 nav_real *plane) {
  int t0, t1, r, q;
  if (nav_open_thread(&box, dir, &t0, &t1, &r, &q))
    nav_outflow_point(&box, x, dir, side, normal, rate, shift, plane, t0, r, t1, q);
}

static nav_err nav_outflow_update_cuda(const nav_box *b, const nav_real *x, int dir, int side, int normal, nav_real rate,
                                       nav_real shift, nav_real *plane) {
  dim3 grid, block;
  nav_open_launch_geometry(b, dir, &grid, &block);
  nav_outflow_update_kernel<<<grid, block, 0, nav_cuda_stream>>>(*b, x, dir, side, normal, rate, shift, plane);
  NAV_CUDA_LAUNCHED("nav_outflow_update_kernel");
  return NAV_OK;
}

struct nav_face_integral_args {
  const nav_real *x[NAV_FACE_INTEGRALS_MAX];
  int side[NAV_FACE_INTEGRALS_MAX], what[NAV_FACE_INTEGRALS_MAX];
};

/* Where face_integral_to stores its sums (device doubles), beside the arguments: indexed with constants only (the
 * arguments, indexed by the block's sum, live in local memory). */
struct nav_face_integral_out {
  double *out[NAV_FACE_INTEGRALS_MAX];
};

/* The blocks of face_integral_to's kernel counted by nav_cuda_last_block_reduce (0 between launches). */
static __device__ unsigned nav_face_integral_done = 0;

/* One thread per interior face point (m = r + n[t0] q), a block reduction per 256 points; block row y = the
 * sum k, whose partials are the k-th run of gridDim.x (nav_cuda_block_reduce's flat block index), as
 * nav_cuda_reduce reads its k-th value. TO (face_integral_to): the last block finishes the sums into *o.out[k]
 * in nav_cuda_reduce's order, so the same bits without the second launch and the copy to the host. */
template <bool TO>
__global__ void __launch_bounds__(256)
    nav_face_integral_kernel(nav_box box, nav_face_integral_args a, int dir, nav_idx count, double *partial,
                             nav_face_integral_out o) {
  int t0, t1;
  nav_face_plane(&box, dir, &t0, &t1);
  const nav_idx m = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  const int k = (int)blockIdx.y;
  double v[1] = {0};
  if (m < count) {
    const int r = (int)(m % box.n[t0]), q = (int)(m / box.n[t0]);
    v[0] = (double)nav_face_integrand(&box, a.x[k], dir, a.side[k], a.what[k], t0, r, t1, q);
  }
  nav_cuda_block_reduce<1, false>(v, partial);
  if (TO)
    nav_cuda_last_block_reduce<NAV_FACE_INTEGRALS_MAX, false>(partial, gridDim.x, (int)gridDim.y,
                                                              &nav_face_integral_done, o.out);
}

/* face_integral's launch: the partials of n sums in the shared scratch (nav_cuda_partials), *blocks of each; the
 * sums finished into o->out by the kernel's last block when o != NULL. */
static nav_err nav_face_integral_launch(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                                        const int *what, const nav_face_integral_out *o, size_t *blocks) {
  NAV_CHECK(n >= 1 && n <= NAV_FACE_INTEGRALS_MAX, NAV_ERR_INTERNAL, "face_integral: %d sums (1 to %d)", n,
            NAV_FACE_INTEGRALS_MAX);
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const nav_idx count = (nav_idx)b->n[t0] * (b->dim == 3 ? b->n[t1] : 1);
  *blocks = (size_t)((count + 255) / 256);
  nav_face_integral_args a = {};
  for (int k = 0; k < n; k++) {
    a.x[k] = x[k];
    a.side[k] = side[k];
    a.what[k] = what[k];
  }
  double *partial;
  NAV_CALL(nav_cuda_partials(n, *blocks, &partial));
  const dim3 grid((unsigned)*blocks, (unsigned)n);
  if (o)
    nav_face_integral_kernel<true><<<grid, 256, 0, nav_cuda_stream>>>(*b, a, dir, count, partial, *o);
  else
    nav_face_integral_kernel<false>
        <<<grid, 256, 0, nav_cuda_stream>>>(*b, a, dir, count, partial, nav_face_integral_out{});
  NAV_CUDA_LAUNCHED("nav_face_integral_kernel");
  return NAV_OK;
}

nav_err nav_face_integral_cuda(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                               const int *what, double *sums) {
  size_t blocks;
  NAV_CALL(nav_face_integral_launch(b, dir, n, x, side, what, NULL, &blocks));
  return nav_cuda_reduce(n, 0, blocks, sums);
}

nav_err nav_face_integral_to_cuda(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                                  const int *what, double *const *out) {
  nav_face_integral_out o = {};
  for (int k = 0; k < n && k < NAV_FACE_INTEGRALS_MAX; k++)
    o.out[k] = out[k];
  size_t blocks;
  return nav_face_integral_launch(b, dir, n, x, side, what, &o, &blocks);
}

/* The component C a template parameter (NAV_CUDA_LAUNCH_DIM_C): with a run-time component the kernel's copy of the box went to local
 * memory (a 320-byte stack frame per thread, ptxas -v), which made this sum cost many times its bytes. */
template <int DIM, int C>
__global__ void __launch_bounds__(NAV_CUDA_THREADS) nav_face_sum_kernel(nav_box box, const nav_real *x,
                                                                        double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) s[0] = (double)x[p] * (double)nav_volume(b, C, ijk);
  nav_cuda_block_reduce<1, false>(s, partial);
}

nav_err nav_face_sum_cuda(const nav_box *b, const nav_real *x, int c, double *sum) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial;
  NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM_C(b, c, grid, nav_face_sum_kernel, *b, x, partial);
  return nav_cuda_reduce(1, 0, nav_cuda_blocks(grid), sum);
}

/* The open table of this backend (registered in backend/nav_backend.c). */
extern "C" const nav_open_kernels nav_open_kernels_cuda = {
    .fill_ghost_plane = nav_fill_ghost_plane_cuda,
    .outflow_update = nav_outflow_update_cuda,
};
