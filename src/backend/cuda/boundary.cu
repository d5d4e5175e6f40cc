/* CUDA backend: constant fill and ghost layers of one block face (see nav_ghost_kind). The
 * formulas are in common/nav_point_boundary.h. */
#include "backend/common/nav_point_boundary.h"
#include "backend/cuda/cuda_kernels.h"

#include <string.h>

template <typename T> __global__ void __launch_bounds__(256) nav_set_kernel(nav_idx ntot, T *x, T value) {
  const nav_idx stride = (nav_idx)gridDim.x * blockDim.x;
  for (nav_idx p = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x; p < ntot; p += stride) x[p] = value;
}

nav_err nav_set_cuda(const nav_box *b, nav_real *x, nav_real value) {
  if (value == 0) { /* all bits zero: the copy engine's memset, about twice the kernel's rate */
    NAV_CALL_CUDA(cudaMemsetAsync(x, 0, (size_t)b->ntot * (b->lo ? sizeof(float) : sizeof(nav_real)), nav_cuda_stream));
    return NAV_OK;
  }
  const nav_idx blocks = (b->ntot + 255) / 256;
  const unsigned grid = (unsigned)(blocks < 65536 ? blocks : 65536);
  if (b->lo) /* a float field of a mixed-precision multigrid level (nav_box.lo) */
    nav_set_kernel<<<grid, 256, 0, nav_cuda_stream>>>(b->ntot, (float *)x, (float)value);
  else
    nav_set_kernel<<<grid, 256, 0, nav_cuda_stream>>>(b->ntot, x, value);
  NAV_CUDA_LAUNCHED("nav_set_kernel");
  return NAV_OK;
}

/* The face planes of direction DIR, one thread per point (r, q) of a plane, ghost rows included
 * (r = -1..n[t0] along x of the block, q along y), one (side, field) pair per blockIdx.z:
 * 3 side + field = z0 + blockIdx.z. */
template <int DIR, typename T>
__global__ void __launch_bounds__(256) nav_fill_ghost_dir_kernel(nav_box box, nav_ghost_dir g, int z0) {
  const int z = z0 + (int)blockIdx.z, s = z / 3, c = z % 3;
  if (!g.on[s][c]) return;
  int t0, t1;
  nav_face_plane(&box, DIR, &t0, &t1);
  const int lo1 = box.dim == 3 ? -1 : 0, hi1 = box.dim == 3 ? box.n[t1] : 0;
  const int r = -1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int q = lo1 + (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (r > box.n[t0] || q > hi1) return;
  nav_fill_ghost_point(&box, (T *)g.x[c], DIR, s, g.kind[s][c], g.alpha[s][c], g.beta[s][c], t0, r, t1, q);
}

/* pairs z0 .. z0 + nz - 1 of g on direction dir */
static nav_err nav_fill_ghost_launch(const nav_box *b, int dir, const nav_ghost_dir *g, int z0, int nz) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const int nr = b->n[t0] + 2, nq = b->dim == 3 ? b->n[t1] + 2 : 1;
  const dim3 block = nq > 1 ? dim3(32, 8) : dim3(256, 1);
  const dim3 grid((unsigned)((nr + (int)block.x - 1) / (int)block.x), (unsigned)((nq + (int)block.y - 1) / (int)block.y),
                  (unsigned)nz);
  if (b->lo) /* g.x are float fields of a mixed-precision multigrid level (nav_box.lo) */
    switch (dir) {
    case 0: nav_fill_ghost_dir_kernel<0, float><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    case 1: nav_fill_ghost_dir_kernel<1, float><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    default: nav_fill_ghost_dir_kernel<2, float><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    }
  else
    switch (dir) {
    case 0: nav_fill_ghost_dir_kernel<0, nav_real><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    case 1: nav_fill_ghost_dir_kernel<1, nav_real><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    default: nav_fill_ghost_dir_kernel<2, nav_real><<<grid, block, 0, nav_cuda_stream>>>(*b, *g, z0); break;
    }
  NAV_CUDA_LAUNCHED("nav_fill_ghost_dir_kernel");
  return NAV_OK;
}

nav_err nav_fill_ghost_cuda(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                            nav_real beta) {
  nav_ghost_dir g;
  memset(&g, 0, sizeof g);
  g.x[0] = x;
  g.on[side][0] = 1;
  g.kind[side][0] = kind;
  g.alpha[side][0] = alpha;
  g.beta[side][0] = beta;
  return nav_fill_ghost_launch(b, dir, &g, 3 * side, 1);
}

nav_err nav_fill_ghost_dir_cuda(const nav_box *b, int dir, const nav_ghost_dir *g) {
  if (b->n[dir] >= 2) return nav_fill_ghost_launch(b, dir, g, 0, 6);
  for (int z = 0; z < 6; z++) /* the two sides of one field would touch the same points: in turn */
    if (g->on[z / 3][z % 3]) NAV_CALL(nav_fill_ghost_launch(b, dir, g, z, 1));
  return NAV_OK;
}

/* One thread per ghost point of the block (nav_ghost_all_point's list). */
template <typename T>
__global__ void __launch_bounds__(256) nav_fill_ghosts_kernel(nav_box box, T *x, nav_ghost_faces g, nav_idx count) {
  const nav_idx m = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  if (m < count) nav_ghost_all_point(&box, x, &g, m);
}

nav_err nav_fill_ghosts_cuda(const nav_box *b, nav_real *x, const nav_ghost_faces *g) {
  const nav_idx count = nav_ghost_all_count(b, g);
  if (count == 0) return NAV_OK;
  const unsigned grid = (unsigned)((count + 255) / 256);
  if (b->lo) /* a float field of a mixed-precision multigrid level (nav_box.lo) */
    nav_fill_ghosts_kernel<<<grid, 256, 0, nav_cuda_stream>>>(*b, (float *)x, *g, count);
  else
    nav_fill_ghosts_kernel<<<grid, 256, 0, nav_cuda_stream>>>(*b, x, *g, count);
  NAV_CUDA_LAUNCHED("nav_fill_ghosts_kernel");
  return NAV_OK;
}

/* Halo exchange: one thread per point (r, q) of the plane `layer` of direction dir, copied to or
 * from the packed face buffer (nav_face_copy_point). */
__global__ void __launch_bounds__(256) nav_face_copy_kernel(nav_box box, nav_real *x, int dir, int layer,
                                                            nav_real *buf, int pack) {
  int t0, t1;
  nav_face_plane(&box, dir, &t0, &t1);
  const int lo1 = box.dim == 3 ? -1 : 0, nr = box.n[t0] + 2, nq = box.dim == 3 ? box.n[t1] + 2 : 1;
  const nav_idx m = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= (nav_idx)nr * nq) return;
  const int r = -1 + (int)(m % nr), q = lo1 + (int)(m / nr);
  nav_face_copy_point(&box, x, dir, layer, buf, pack, t0, r, t1, q, lo1);
}

static nav_err nav_face_copy_cuda(const nav_box *b, nav_real *x, int dir, int layer, nav_real *buf, int pack) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const nav_idx pts = (nav_idx)(b->n[t0] + 2) * (b->dim == 3 ? b->n[t1] + 2 : 1);
  nav_face_copy_kernel<<<(unsigned)((pts + 255) / 256), 256, 0, nav_cuda_stream>>>(*b, x, dir, layer, buf, pack);
  NAV_CUDA_LAUNCHED("nav_face_copy_kernel");
  return NAV_OK;
}

nav_err nav_pack_face_cuda(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf) {
  (void)side;
  return nav_face_copy_cuda(b, (nav_real *)x, dir, layer, buf, 1);
}

nav_err nav_unpack_face_cuda(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf) {
  (void)side;
  return nav_face_copy_cuda(b, x, dir, layer, (nav_real *)buf, 0);
}
