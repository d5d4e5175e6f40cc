/* CUDA backend: momentum right-hand side, time-integration update (alone, or fused with the
 * right-hand side: momentum_advance), divergence (with its sum finished on the device), projection
 * correction, time-step rates and kinetic energy. The formulas are in common/nav_point_flow.h.
 * The per-component loops of the CPU backend are one launch here: each thread handles the
 * point (i,j,k) of every component (the component index is a compile-time constant after
 * unrolling, so the box's arrays are indexed with constants). */
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/cuda/cuda_kernels.h"
#include "core/nav_profile.h"

/* momentum_rhs and momentum_advance compute every component before they store any (below), which
 * keeps more loads in flight but needs ~122 registers in FP64: at 4 blocks of 256 threads per SM (64
 * registers) they spilled 96-160 bytes. 2 blocks per SM: no spills, and both kernels and the step faster in
 * FP64 and FP32 (`navier bench step`, Taylor-Green 256^3; figures in docs/performance.md); 1 and 3 blocks
 * performed the same as 2. */
#ifndef NAV_MOMENTUM_MIN_BLOCKS
#define NAV_MOMENTUM_MIN_BLOCKS 2
#endif

/* PLAIN (every kernel below but advance and kinetic_energy): a uniform block, the metric values kernel parameters
 * (nav_cuda_box_plain, nav_metric.h). */
template <int DIM, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS, NAV_MOMENTUM_MIN_BLOCKS)
    nav_momentum_rhs_kernel(nav_box box, nav_cuda_fields u, nav_real nu, nav_cuda_fields rhs) {
  NAV_CUDA_INTERIOR_PLAIN(box, PLAIN);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  /* every component before any store: a store to rhs could alias u for the compiler, which would then
   * reload the stencil after it and keep fewer loads in flight */
  nav_real n[3];
#pragma unroll
  for (int c = 0; c < DIM; c++) n[c] = nav_momentum_rhs(b, c, uc, nu, p, ijk);
#pragma unroll
  for (int c = 0; c < DIM; c++) rhs.c[c][p] = n[c];
}

nav_err nav_momentum_rhs_cuda(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs) {
  NAV_CUDA_LAUNCH_UNI(b, nav_cuda_grid(b), nav_momentum_rhs_kernel, *b, nav_cuda_pack(b, u), nu, nav_cuda_pack(b, rhs));
  return NAV_OK;
}

/* N (and u*) of every component in one pass; u* over rhs_old, which is read first (nav_kernels.h).
 * The same register budget as momentum_rhs, whose arithmetic it repeats. */
template <int DIM, bool OLD, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS, NAV_MOMENTUM_MIN_BLOCKS)
    nav_momentum_advance_kernel(nav_box box, nav_cuda_fields u, nav_real nu, nav_real a, nav_real c,
                                nav_cuda_fields rhs, nav_cuda_fields rhs_old) {
  NAV_CUDA_INTERIOR_PLAIN(box, PLAIN);
  const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
  nav_real n[3]; /* every load before any store (as momentum_rhs) */
#pragma unroll
  for (int d = 0; d < DIM; d++) n[d] = nav_momentum_rhs(b, d, uc, nu, p, ijk);
  nav_cuda_predictor_store<DIM, OLD>(uc, n, a, c, rhs, rhs_old, p);
}

/* ---- momentum_advance on a plain 3D block through shared memory (the default in FP32) ---------------------------
 * One point per thread (the kernel above) reads about 25 scattered values of u per cell (the 3 components' 7-point
 * stencils and the interpolated advecting velocities) through L1 and L2. At 256^3 (ncu, docs/performance.md) it runs near
 * the DRAM peak in FP64 but is latency-bound in FP32 (most cycles waiting on L1/TEX), so FP32 saves much less than
 * the half of the bytes. Here a block of NAV_MA_TX x NAV_MA_TY threads owns that
 * tile of columns and a chunk of NAV_MA_CHUNK planes and walks up them. Each plane of the three components enters
 * shared memory once per block, the tile and a ring of one cell (NAV_MA_PLANE points), fetched two planes ahead
 * into registers (rhs_old one plane ahead), so the loads fly while the block computes; a ring of 4 plane slots with
 * two mirrors (slot 0 holds slot 4's plane, slot 5 slot 1's) keeps planes k - 1, k, k + 1 at one stride, so
 * nav_momentum_rhs runs unchanged on the window (a box with the shared strides, uniform metrics): the same
 * operations as the kernel above. On the 256^3 cavity (docs/performance.md) it is faster in FP32 but
 * slower in FP64 (117 registers, 2 blocks per SM), so FP64 keeps the kernel above unless
 * NAV_MOMENTUM_TILED=1 (nav_profile_switch; =0 turns it off in FP32). Chunks of 4 planes were the fastest of 4 to
 * 64: more blocks in flight, though each reads its chunk's two neighbour planes too. */
#define NAV_MA_TX 32
#define NAV_MA_TY 8
#define NAV_MA_CHUNK 4 /* planes per block */
#define NAV_MA_THREADS (NAV_MA_TX * NAV_MA_TY)
#define NAV_MA_PX (NAV_MA_TX + 2)
#define NAV_MA_PLANE (NAV_MA_PX * (NAV_MA_TY + 2))
#define NAV_MA_LOADS ((NAV_MA_PLANE + NAV_MA_THREADS - 1) / NAV_MA_THREADS)
#define NAV_MA_SLOTS 6 /* 1..4: plane k at 1 + (k mod 4); 0 and 5 mirror 4 and 1 */
#define NAV_MA_SHARED (3 * NAV_MA_SLOTS * NAV_MA_PLANE * sizeof(nav_real))

template <bool OLD>
__global__ void __launch_bounds__(NAV_MA_THREADS, sizeof(nav_real) == sizeof(float) ? 4 : 2)
    nav_momentum_advance_tiled_kernel(nav_box box, nav_cuda_fields u, nav_real nu, nav_real a, nav_real c,
                                      nav_cuda_fields rhs, nav_cuda_fields rhs_old) {
  extern __shared__ __align__(16) unsigned char nav_ma_shared[];
  nav_real *const us = reinterpret_cast<nav_real *>(nav_ma_shared); /* component d, slot s: (d SLOTS + s) PLANE */
  const nav_box bl = nav_cuda_box_plain<3, true>(box);
  const nav_box *const b = &bl;
  nav_box wb = bl; /* the shared window */
  wb.st[0] = 1;
  wb.st[1] = NAV_MA_PX;
  wb.st[2] = NAV_MA_PLANE;
  const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, t = tx + NAV_MA_TX * ty;
  const int i0 = (int)blockIdx.x * NAV_MA_TX, j0 = (int)blockIdx.y * NAV_MA_TY;
  const int z0 = (int)blockIdx.z * NAV_MA_CHUNK, z1 = z0 + NAV_MA_CHUNK < b->n[2] ? z0 + NAV_MA_CHUNK : b->n[2];
  const nav_idx sz = b->st[2];
  /* the thread's loads: point l = t + m NAV_MA_THREADS of a window plane, column (i0 - 1 + l % PX, j0 - 1 + l / PX)
   * of the block (ghosts included: -1 <= i <= n0, -1 <= j <= n1) */
  nav_idx lg[NAV_MA_LOADS];
  bool lok[NAV_MA_LOADS];
  NAV_UNROLL for (int m = 0; m < NAV_MA_LOADS; m++) {
    const int l = t + m * NAV_MA_THREADS, i = i0 - 1 + l % NAV_MA_PX, j = j0 - 1 + l / NAV_MA_PX;
    lok[m] = l < NAV_MA_PLANE && i <= b->n[0] && j <= b->n[1];
    lg[m] = b->off + (nav_idx)i * b->st[0] + (nav_idx)j * b->st[1];
  }
  nav_real nxt[3][NAV_MA_LOADS], ahd[3][NAV_MA_LOADS]; /* planes k + 2 and k + 3 on their way at step k */
  const auto fetch = [&](nav_real(&r)[3][NAV_MA_LOADS], int k) { /* plane k (-1 <= k <= n2) of u into r */
    NAV_UNROLL for (int m = 0; m < NAV_MA_LOADS; m++)
      NAV_UNROLL for (int d = 0; d < 3; d++) r[d][m] = lok[m] ? u.c[d][lg[m] + (nav_idx)k * sz] : 0;
  };
  const auto slot = [](int k) { return 1 + ((k + 4) & 3); }; /* plane k's slot (k >= -1) */
  const auto store = [&](const nav_real(&r)[3][NAV_MA_LOADS], int k) { /* plane k into its slot and mirror */
    const int sl = slot(k), mirror = sl == 4 ? 0 : sl == 1 ? 5 : -1;
    NAV_UNROLL for (int m = 0; m < NAV_MA_LOADS; m++) {
      const int l = t + m * NAV_MA_THREADS;
      if (l >= NAV_MA_PLANE) continue;
      NAV_UNROLL for (int d = 0; d < 3; d++) {
        us[(d * NAV_MA_SLOTS + sl) * NAV_MA_PLANE + l] = r[d][m];
        if (mirror >= 0) us[(d * NAV_MA_SLOTS + mirror) * NAV_MA_PLANE + l] = r[d][m];
      }
    }
  };
  const int i = i0 + tx, j = j0 + ty, n2 = b->n[2];
  const bool mine = i < b->n[0] && j < b->n[1];
  const nav_idx col = b->off + (nav_idx)i * b->st[0] + (nav_idx)j * b->st[1];
  nav_real old[3] = {0, 0, 0}, old_next[3] = {0, 0, 0}; /* rhs_old of planes k and k + 1 */
  const auto fetch_old = [&](nav_real(&o)[3], int k) {
    if (OLD && mine) NAV_UNROLL for (int d = 0; d < 3; d++) o[d] = rhs_old.c[d][col + (nav_idx)k * sz];
  };
  for (int k = z0 - 1; k <= z0 + 1; k++) {
    fetch(nxt, k);
    store(nxt, k);
  }
  if (z0 + 2 <= n2 && z0 + 1 < z1) fetch(nxt, z0 + 2);
  fetch_old(old, z0);
  __syncthreads();
  for (int k = z0; k < z1; k++) {
    if (k + 3 <= n2 && k + 2 < z1) fetch(ahd, k + 3); /* in flight for two steps */
    if (k + 1 < z1) fetch_old(old_next, k + 1);
    if (mine) {
      const int ijk[3] = {i, j, k};
      const int f = slot(k) * NAV_MA_PLANE + (ty + 1) * NAV_MA_PX + tx + 1;
      const nav_real *const uw[3] = {us, us + NAV_MA_SLOTS * NAV_MA_PLANE, us + 2 * NAV_MA_SLOTS * NAV_MA_PLANE};
      const nav_idx q = col + (nav_idx)k * sz;
      nav_real n[3], ust[3];
      NAV_UNROLL for (int d = 0; d < 3; d++) n[d] = nav_momentum_rhs(&wb, d, uw, nu, f, ijk);
      NAV_UNROLL for (int d = 0; d < 3; d++) ust[d] = nav_ab2(uw[d][f], a, n[d], c, old[d], OLD);
      NAV_UNROLL for (int d = 0; d < 3; d++) {
        rhs.c[d][q] = n[d];
        rhs_old.c[d][q] = ust[d];
      }
    }
    if (k + 2 <= n2 && k + 1 < z1) store(nxt, k + 2); /* into the slot of plane k - 2, read last at step k - 1 */
    NAV_UNROLL for (int d = 0; d < 3; d++) {
      old[d] = old_next[d];
      NAV_UNROLL for (int m = 0; m < NAV_MA_LOADS; m++) nxt[d][m] = ahd[d][m];
    }
    __syncthreads();
  }
}

/* The tiled kernel (its dynamic shared memory over 48 KB in FP64: the opt-in, once). */
static nav_err nav_momentum_advance_tiled(const nav_box *b, nav_cuda_fields fu, nav_real nu, nav_real a, nav_real c,
                                          nav_cuda_fields fr, nav_cuda_fields fo) {
  static int opted = 0;
  const size_t bytes = NAV_MA_SHARED;
  if (!opted && bytes > 48 * 1024) {
    NAV_CALL_CUDA(cudaFuncSetAttribute(nav_momentum_advance_tiled_kernel<true>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    NAV_CALL_CUDA(cudaFuncSetAttribute(nav_momentum_advance_tiled_kernel<false>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  }
  opted = 1;
  const int tx = (b->n[0] + NAV_MA_TX - 1) / NAV_MA_TX, ty = (b->n[1] + NAV_MA_TY - 1) / NAV_MA_TY;
  const dim3 grid((unsigned)tx, (unsigned)ty, (unsigned)((b->n[2] + NAV_MA_CHUNK - 1) / NAV_MA_CHUNK));
  const dim3 block(NAV_MA_TX, NAV_MA_TY);
  if (c != 0)
    nav_momentum_advance_tiled_kernel<true>
        <<<grid, block, bytes, nav_cuda_stream>>>(*b, fu, nu, a, c, fr, fo);
  else
    nav_momentum_advance_tiled_kernel<false>
        <<<grid, block, bytes, nav_cuda_stream>>>(*b, fu, nu, a, c, fr, fo);
  NAV_CUDA_LAUNCHED("nav_momentum_advance_tiled_kernel");
  return NAV_OK;
}

nav_err nav_momentum_advance_cuda(const nav_box *b, nav_real *const *u, nav_real nu, nav_real a, nav_real c,
                                  nav_real *const *rhs, nav_real *const *rhs_old) {
  const nav_cuda_fields fu = nav_cuda_pack(b, u), fr = nav_cuda_pack(b, rhs), fo = nav_cuda_pack(b, rhs_old);
  if (b->dim == 3 && nav_box_plain(b) && nav_profile_switch("NAV_MOMENTUM_TILED", sizeof(nav_real) == sizeof(float)))
    return nav_momentum_advance_tiled(b, fu, nu, a, c, fr, fo);
  NAV_CUDA_LAUNCH_UNI_OLD(b, nav_cuda_grid(b), c != 0, nav_momentum_advance_kernel, *b, fu, nu, a, c, fr, fo);
  return NAV_OK;
}

template <int DIM, bool OLD>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_advance_kernel(nav_box box, nav_cuda_fields u, nav_cuda_fields rhs, nav_cuda_fields rhs_old, nav_real a,
                       nav_real c) {
  NAV_CUDA_INTERIOR(box);
  (void)b;
#pragma unroll
  for (int d = 0; d < DIM; d++) u.c[d][p] = nav_ab2(u.c[d][p], a, rhs.c[d][p], c, OLD ? rhs_old.c[d][p] : 0, OLD);
}

nav_err nav_advance_cuda(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                         nav_real a, nav_real c) {
  const nav_cuda_fields fu = nav_cuda_pack(b, u), fr = nav_cuda_pack(b, rhs);
  const nav_cuda_fields fo = c != 0 ? nav_cuda_pack(b, rhs_old) : fr; /* rhs_old is not read when c == 0 */
  const dim3 grid = nav_cuda_grid(b), block = nav_cuda_block();
  if (b->dim == 2) {
    if (c != 0)
      nav_advance_kernel<2, true><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
    else
      nav_advance_kernel<2, false><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
  } else {
    if (c != 0)
      nav_advance_kernel<3, true><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
    else
      nav_advance_kernel<3, false><<<grid, block, 0, nav_cuda_stream>>>(*b, fu, fr, fo, a, c);
  }
  NAV_CUDA_LAUNCHED("nav_advance_kernel");
  return NAV_OK;
}

/* The blocks of the divergence kernels counted by nav_cuda_last_block (0 between launches). */
static __device__ unsigned nav_divergence_done = 0;

/* div = scale * div u (if WRITE); per block: the partial max |div u| (RED 1) or the partial sum of
 * div dV (RED 2, with WRITE), and the sum finished in *sum by the last block. kz planes per thread
 * (nav_cuda_kz): 4x fewer blocks than one plane per thread (16 384 at 256^3), so 4x fewer partials
 * for the last block, and more loads in flight per thread. A thread adds its planes' div dV in turn
 * before the block's tree: the sum's order differs from one plane per thread (its last bits may). */
template <int DIM, bool WRITE, int RED, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_divergence_kernel(nav_box box, nav_cuda_fields u, nav_real scale, nav_real *div, double *partial, double *sum,
                          int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
      const nav_real d = nav_divergence(b, uc, q, ijk), v = scale * d;
      if (WRITE) div[q] = v;
      if (RED == 2) m[0] += (double)v * (double)nav_cell_volume(b, ijk); /* as nav_dot_kernel */
      if (RED == 1) m[0] = fmax(m[0], fabs((double)d));
    });
  }
  if (RED == 1) nav_cuda_block_reduce<1, true>(m, partial);
  if (RED == 2) {
    nav_cuda_block_reduce<1, false>(m, partial);
    nav_cuda_last_block<1, false>(partial, &nav_divergence_done, sum);
  }
}

template <int DIM, bool PLAIN>
static void nav_divergence_launch(const nav_box *b, dim3 grid, int kz, nav_cuda_fields u, nav_real scale, nav_real *div,
                                  double *partial, int red, double *sum) {
  const dim3 block = nav_cuda_block();
  if (!div)
    nav_divergence_kernel<DIM, false, 1, PLAIN><<<grid, block, 0, nav_cuda_stream>>>(*b, u, scale, div, partial, sum, kz);
  else if (red == 0)
    nav_divergence_kernel<DIM, true, 0, PLAIN><<<grid, block, 0, nav_cuda_stream>>>(*b, u, scale, div, partial, sum, kz);
  else if (red == 1)
    nav_divergence_kernel<DIM, true, 1, PLAIN><<<grid, block, 0, nav_cuda_stream>>>(*b, u, scale, div, partial, sum, kz);
  else
    nav_divergence_kernel<DIM, true, 2, PLAIN><<<grid, block, 0, nav_cuda_stream>>>(*b, u, scale, div, partial, sum, kz);
}

nav_err nav_divergence_cuda(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs,
                            double *sum) {
  if (!div && !max_abs) return NAV_OK;
  NAV_CHECK(!(max_abs && sum) && (div || !sum), NAV_ERR_INTERNAL,
            "nav_divergence_cuda: max_abs and sum together, or sum without div");
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  const dim3 grid = nav_cuda_grid_kz(b, b->n[0], kz);
  const size_t nblocks = nav_cuda_blocks(grid);
  const int red = max_abs ? 1 : sum ? 2 : 0;
  double *partial = NULL;
  if (red) NAV_CALL(nav_cuda_partials(1, nblocks, &partial));
  const nav_cuda_fields fu = nav_cuda_pack(b, u);
  const bool plain = nav_box_plain(b);
  if (b->dim == 2)
    plain ? nav_divergence_launch<2, true>(b, grid, kz, fu, scale, div, partial, red, sum)
          : nav_divergence_launch<2, false>(b, grid, kz, fu, scale, div, partial, red, sum);
  else
    plain ? nav_divergence_launch<3, true>(b, grid, kz, fu, scale, div, partial, red, sum)
          : nav_divergence_launch<3, false>(b, grid, kz, fu, scale, div, partial, red, sum);
  NAV_CUDA_LAUNCHED("nav_divergence_kernel");
  if (max_abs) NAV_CALL(nav_cuda_reduce(1, 1, nblocks, max_abs));
  return NAV_OK;
}

template <int DIM, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_correct_kernel(nav_box box, nav_cuda_fields u, const nav_real *q, nav_real scale) {
  NAV_CUDA_INTERIOR_PLAIN(box, PLAIN);
  nav_real g[3], v[3]; /* every load before any store (as momentum_rhs) */
#pragma unroll
  for (int c = 0; c < DIM; c++) {
    g[c] = nav_gradient(b, c, q, p, ijk);
    v[c] = u.c[c][p];
  }
#pragma unroll
  for (int c = 0; c < DIM; c++) u.c[c][p] = v[c] - scale * g[c];
}

nav_err nav_correct_cuda(const nav_box *b, nav_real *const *u, const nav_real *q, nav_real scale) {
  NAV_CUDA_LAUNCH_UNI(b, nav_cuda_grid(b), nav_correct_kernel, *b, nav_cuda_pack(b, u), q, scale);
  return NAV_OK;
}

template <int DIM, bool PLAIN>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_time_rates_kernel(nav_box box, nav_cuda_fields u, const nav_real *nut, double *partial, int kz) {
  const nav_box bl = nav_cuda_box_plain<DIM, PLAIN>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double m[3] = {0, 0, 0};
  if (nav_cuda_point(b, ijk, &p)) { /* kz planes per thread (nav_cuda_kz): fewer block reductions */
    const nav_real *const uc[3] = {u.c[0], u.c[1], u.c[2]};
    nav_cuda_planes(b, ijk, kz, [&](nav_idx q) {
      m[0] = fmax(m[0], (double)nav_advective_rate(b, uc, q, ijk));
      m[1] = fmax(m[1], (double)nav_diffusive_rate(b, ijk));
      if (nut) m[2] = fmax(m[2], (double)nut[q]);
    });
  }
  nav_cuda_block_reduce<3, true>(m, partial);
}

nav_err nav_time_rates_cuda(const nav_box *b, nav_real *const *u, const nav_real *nut, double *adv_max,
                            double *diff_max, double *nut_max) {
  const int kz = b->dim == 3 ? nav_cuda_kz() : 1;
  const dim3 grid = nav_cuda_grid_kz(b, b->n[0], kz);
  double *partial, r[3];
  NAV_CALL(nav_cuda_partials(3, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_UNI(b, grid, nav_time_rates_kernel, *b, nav_cuda_pack(b, u), nut, partial, kz);
  NAV_CALL(nav_cuda_reduce(3, 1, nav_cuda_blocks(grid), r));
  *adv_max = r[0];
  *diff_max = r[1];
  *nut_max = r[2];
  return NAV_OK;
}

template <int DIM>
__global__ void __launch_bounds__(NAV_CUDA_THREADS)
    nav_kinetic_energy_kernel(nav_box box, nav_cuda_fields u, double *partial) {
  const nav_box bl = nav_cuda_box_dim<DIM>(box);
  const nav_box *const b = &bl;
  int ijk[3];
  nav_idx p;
  double s[1] = {0};
  if (nav_cuda_point(b, ijk, &p)) {
#pragma unroll
    for (int c = 0; c < DIM; c++) {
      const nav_real *x = u.c[c];
      s[0] += 0.5 * (double)x[p] * (double)x[p] * (double)nav_volume(b, c, ijk);
    }
  }
  nav_cuda_block_reduce<1, false>(s, partial);
}

nav_err nav_kinetic_energy_cuda(const nav_box *b, nav_real *const *u, double *sum) {
  const dim3 grid = nav_cuda_grid(b);
  double *partial;
  NAV_CALL(nav_cuda_partials(1, nav_cuda_blocks(grid), &partial));
  NAV_CUDA_LAUNCH_DIM(b, grid, nav_kinetic_energy_kernel, *b, nav_cuda_pack(b, u), partial);
  NAV_CALL(nav_cuda_reduce(1, 0, nav_cuda_blocks(grid), sum));
  return NAV_OK;
}
