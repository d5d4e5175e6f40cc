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

/* The face planes of direction DIR, one thread per point (r, q) of a plane, ghost rows included (r = -1..n[t0]
 * along x of the block, q along y), for every (side, field) pair of g that is on. One thread per point for all
 * the pairs (before: a pair per blockIdx.z, one point each) because the x faces cannot coalesce: a thread's
 * points of one pair lie in one 32-byte sector, the neighbour thread's a row (n0 + 2 values) away, so a warp
 * touches 32 sectors per access whatever the precision, and already moves no byte it does not need (1 sector
 * read and written per row, side and field). What the fusion removes is the rest: six times the threads,
 * each with its plane set-up, its (side, field) from blockIdx.z and a dynamic index into g's arrays, and one
 * load in flight per thread. Here the pairs are unrolled (g indexed by constants) and, with SEQ false, every
 * pair's load is issued before any store (up to 6 loads in flight per thread): the pairs touch disjoint
 * points when n[dir] >= 2 (fill_ghost_dir's contract in nav_kernels.h). SEQ (n[dir] < 2): pair by pair in the
 * order of g, as the faces filled one after the other. Bit for bit fill_ghost's values: the same point
 * functions (nav_ghost_value, nav_ghost_store). */
template <int DIR, typename T, bool SEQ>
__global__ void __launch_bounds__(256) nav_fill_ghost_dir_kernel(nav_box box, nav_ghost_dir g) {
  int t0, t1;
  nav_face_plane(&box, DIR, &t0, &t1);
  const int lo1 = box.dim == 3 ? -1 : 0, hi1 = box.dim == 3 ? box.n[t1] : 0;
  const int r = -1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int q = lo1 + (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (r > box.n[t0] || q > hi1) return;
  nav_real v[2][3];
#pragma unroll
  for (int s = 0; s < 2; s++)
#pragma unroll
    for (int c = 0; c < 3; c++) {
      if (!g.on[s][c]) continue;
      v[s][c] =
          nav_ghost_value(&box, (const T *)g.x[c], DIR, s, g.kind[s][c], g.alpha[s][c], g.beta[s][c], t0, r, t1, q);
      if (SEQ) nav_ghost_store(&box, (T *)g.x[c], DIR, s, g.kind[s][c], g.beta[s][c], t0, r, t1, q, v[s][c]);
    }
  if (!SEQ) {
#pragma unroll
    for (int s = 0; s < 2; s++)
#pragma unroll
      for (int c = 0; c < 3; c++)
        if (g.on[s][c]) nav_ghost_store(&box, (T *)g.x[c], DIR, s, g.kind[s][c], g.beta[s][c], t0, r, t1, q, v[s][c]);
  }
}

template <typename T, bool SEQ> static void nav_fill_ghost_launch_t(const nav_box *b, int dir, const nav_ghost_dir *g) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const int nr = b->n[t0] + 2, nq = b->dim == 3 ? b->n[t1] + 2 : 1;
  const dim3 block = nq > 1 ? dim3(32, 8) : dim3(256, 1);
  const dim3 grid((unsigned)((nr + (int)block.x - 1) / (int)block.x),
                  (unsigned)((nq + (int)block.y - 1) / (int)block.y));
  switch (dir) {
  case 0: nav_fill_ghost_dir_kernel<0, T, SEQ><<<grid, block, 0, nav_cuda_stream>>>(*b, *g); break;
  case 1: nav_fill_ghost_dir_kernel<1, T, SEQ><<<grid, block, 0, nav_cuda_stream>>>(*b, *g); break;
  default: nav_fill_ghost_dir_kernel<2, T, SEQ><<<grid, block, 0, nav_cuda_stream>>>(*b, *g); break;
  }
}

/* the pairs of g that are on, on direction dir */
static nav_err nav_fill_ghost_launch(const nav_box *b, int dir, const nav_ghost_dir *g) {
  const bool seq = b->n[dir] < 2; /* the two sides of one field would touch the same points: in turn */
  if (b->lo) /* g.x are float fields of a mixed-precision multigrid level (nav_box.lo) */
    seq ? nav_fill_ghost_launch_t<float, true>(b, dir, g) : nav_fill_ghost_launch_t<float, false>(b, dir, g);
  else
    seq ? nav_fill_ghost_launch_t<nav_real, true>(b, dir, g) : nav_fill_ghost_launch_t<nav_real, false>(b, dir, g);
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
  return nav_fill_ghost_launch(b, dir, &g);
}

nav_err nav_fill_ghost_dir_cuda(const nav_box *b, int dir, const nav_ghost_dir *g) {
  return nav_fill_ghost_launch(b, dir, g);
}

/* One thread per ghost point of the block (nav_ghost_all_point's list), the dimension a template parameter (the point
 * function's per-direction arrays in registers: with the box's run-time dimension they were in local memory, and
 * the FP32 build's fill moved 43 MB at 256^3 for 7 MB of ghosts, ncu). (A kernel of one thread per face point, a 2D
 * grid per face with blockIdx.z the face, was about twice as slow, docs/performance.md.) */
template <int DIM, typename T>
__global__ void __launch_bounds__(256) nav_fill_ghosts_kernel(nav_box box, T *x, nav_ghost_faces g, nav_idx count) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_idx m = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x;
  if (m < count) nav_ghost_all_point(&bl, x, &g, m);
}

nav_err nav_fill_ghosts_cuda(const nav_box *b, nav_real *x, const nav_ghost_faces *g) {
  const nav_idx count = nav_ghost_all_count(b, g);
  if (count == 0) return NAV_OK;
  const unsigned grid = (unsigned)((count + 255) / 256);
  if (b->lo) { /* a float field of a mixed-precision multigrid level (nav_box.lo) */
    if (b->dim == 2) nav_fill_ghosts_kernel<2><<<grid, 256, 0, nav_cuda_stream>>>(*b, (float *)x, *g, count);
    else nav_fill_ghosts_kernel<3><<<grid, 256, 0, nav_cuda_stream>>>(*b, (float *)x, *g, count);
  } else {
    if (b->dim == 2) nav_fill_ghosts_kernel<2><<<grid, 256, 0, nav_cuda_stream>>>(*b, x, *g, count);
    else nav_fill_ghosts_kernel<3><<<grid, 256, 0, nav_cuda_stream>>>(*b, x, *g, count);
  }
  NAV_CUDA_LAUNCHED("nav_fill_ghosts_kernel");
  return NAV_OK;
}

/* Halo exchange (pack_face, unpack_face, copy_faces): one thread per point (r, q) of a plane, copied to or
 * from its packed face buffer (nav_face_copy_point); block row y = the field, z = the side (the sides in
 * use: their layers and buffers first). */
struct nav_faces_args {
  nav_real *x[NAV_FACES_MAX], *buf[2];
  int layer[2];
};

__global__ void __launch_bounds__(256) nav_faces_copy_kernel(nav_box box, nav_faces_args a, int dir, int pack) {
  int t0, t1;
  nav_face_plane(&box, dir, &t0, &t1);
  const int lo1 = box.dim == 3 ? -1 : 0, nr = box.n[t0] + 2;
  const nav_idx m = (nav_idx)blockIdx.x * blockDim.x + threadIdx.x, pts = nav_face_points(&box, dir);
  if (m >= pts) return;
  const int r = -1 + (int)(m % nr), q = lo1 + (int)(m / nr);
  nav_face_copy_point(&box, a.x[blockIdx.y], dir, a.layer[blockIdx.z], a.buf[blockIdx.z] + blockIdx.y * pts, pack,
                      t0, r, t1, q, lo1);
}

nav_err nav_copy_faces_cuda(const nav_box *b, nav_real *const *x, int nf, int dir, const int layer[2],
                            nav_real *const buf[2], int pack) {
  NAV_CHECK(nf >= 1 && nf <= NAV_FACES_MAX, NAV_ERR_INTERNAL, "copy_faces: %d fields (1 to %d)", nf, NAV_FACES_MAX);
  nav_faces_args a = {};
  unsigned sides = 0;
  for (int f = 0; f < nf; f++)
    a.x[f] = x[f];
  for (int s = 0; s < 2; s++)
    if (buf[s]) {
      a.buf[sides] = buf[s];
      a.layer[sides++] = layer[s];
    }
  if (!sides) return NAV_OK;
  const dim3 grid((unsigned)((nav_face_points(b, dir) + 255) / 256), (unsigned)nf, sides);
  nav_faces_copy_kernel<<<grid, 256, 0, nav_cuda_stream>>>(*b, a, dir, pack);
  NAV_CUDA_LAUNCHED("nav_faces_copy_kernel");
  return NAV_OK;
}

nav_err nav_pack_face_cuda(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf) {
  (void)side;
  nav_real *const f[1] = {(nav_real *)x}, *const bufs[2] = {buf, NULL};
  const int layers[2] = {layer, 0};
  return nav_copy_faces_cuda(b, f, 1, dir, layers, bufs, 1);
}

nav_err nav_unpack_face_cuda(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf) {
  (void)side;
  nav_real *const f[1] = {x}, *const bufs[2] = {(nav_real *)buf, NULL};
  const int layers[2] = {layer, 0};
  return nav_copy_faces_cuda(b, f, 1, dir, layers, bufs, 0);
}
