/* CUDA backend: the kernel implementations and the helpers they share (error checks, launch
 * geometry, the interior-point index, block reductions).
 * Mirrors backend/cpu file by file: memory, boundary, flow, poisson, vector, ops.
 *
 * Conventions:
 *   - nav_box arrives by host pointer and is passed BY VALUE to every kernel (its metric arrays
 *     are device pointers); fields are device arrays in the layout of nav_box.h.
 *   - Interior loops: a grid of NAV_CUDA_BX x NAV_CUDA_BY x 1 thread blocks over (i, j, k), i
 *     fastest (coalesced), one thread per point. Kernels are templates on the dimension: the
 *     kernel's local copy of the box gets dim = DIM, so the inlined point functions lose their
 *     dimension branches and index the box's arrays with constants only (no local memory).
 *   - Reductions: each block reduces in shared memory (warp shuffles, then one warp) and writes
 *     its partial result to a device scratch buffer owned by vector.cu; nav_cuda_reduce then sums
 *     (or takes the max of) the partials in one block in a fixed order (deterministic) and copies
 *     the scalars to the host with one cudaMemcpy. That copy is the only host synchronisation.
 *     A reduction whose result stays on the device (the divergence's sum for the FFT solve) is
 *     finished by the kernel's last block instead (nav_cuda_last_block): no second launch, no copy;
 *     nav_cuda_last_block_reduce does so with nav_cuda_reduce's bits (face_integral_to).
 *   - Every launch and copy goes to nav_cuda_stream (memory.cu): the main stream, or the side
 *     stream while the halo exchange overlaps interior work.
 *   - Every CUDA API call goes through NAV_CALL_CUDA; every launch is followed by
 *     NAV_CUDA_LAUNCHED (cudaGetLastError, plus cudaDeviceSynchronize when the build sets
 *     NAV_SYNC_ALL_KERNELS, for exact error locations). */
#ifndef NAV_CUDA_KERNELS_H
#define NAV_CUDA_KERNELS_H

#include <cuda_runtime.h>

#include "backend/common/nav_metric.h"
#include "backend/common/nav_point_flow.h"
#include "backend/nav_fft_kernels.h"
#include "backend/nav_kernels.h"
#include "backend/nav_mg_kernels.h"
#include "core/nav_error.h"

/* ---- errors ---------------------------------------------------------------------------- */

#define NAV_CALL_CUDA(...)                                                                           \
  do {                                                                                               \
    const cudaError_t nav_cerr_ = (__VA_ARGS__);                                                     \
    if (nav_cerr_ != cudaSuccess)                                                                    \
      return nav_error_set(NAV_ERR_BACKEND, __FILE__, __LINE__, __func__, "%s failed: %s (%s)",      \
                           #__VA_ARGS__, cudaGetErrorName(nav_cerr_), cudaGetErrorString(nav_cerr_)); \
  } while (0)

#ifdef NAV_SYNC_ALL_KERNELS
#define NAV_CUDA_SYNC_EACH 1
#else
#define NAV_CUDA_SYNC_EACH 0
#endif

/* After a launch of kernel KNAME (a string): the launch error, and with NAV_SYNC_ALL_KERNELS
 * the kernel's own execution error. */
#define NAV_CUDA_LAUNCHED(KNAME)                                                                     \
  do {                                                                                               \
    cudaError_t nav_cerr_ = cudaGetLastError();                                                      \
    if (nav_cerr_ == cudaSuccess && NAV_CUDA_SYNC_EACH) nav_cerr_ = cudaDeviceSynchronize();         \
    if (nav_cerr_ != cudaSuccess)                                                                    \
      return nav_error_set(NAV_ERR_BACKEND, __FILE__, __LINE__, __func__, "CUDA kernel %s failed: %s (%s)", \
                           KNAME, cudaGetErrorName(nav_cerr_), cudaGetErrorString(nav_cerr_));       \
  } while (0)

/* ---- streams (memory.cu) --------------------------------------------------------------- */

/* The stream of every launch and copy: 0 (the legacy default stream, the main stream) or the
 * side stream of the halo exchange (nav_stream_use_cuda). */
extern cudaStream_t nav_cuda_stream;
/* nav_free_cuda's calls so far (what was learnt about an address before a free may be stale after it) */
extern unsigned long nav_cuda_frees;

/* ---- launch geometry ------------------------------------------------------------------- */

#define NAV_CUDA_BX 32
#define NAV_CUDA_BY 8
#define NAV_CUDA_THREADS (NAV_CUDA_BX * NAV_CUDA_BY)

/* Grid over the interior points of b (nx0 points in x: n[0], or fewer for colour sweeps). */
static inline dim3 nav_cuda_grid_n(const nav_box *b, int nx0) {
  return dim3((unsigned)((nx0 + NAV_CUDA_BX - 1) / NAV_CUDA_BX), (unsigned)((b->n[1] + NAV_CUDA_BY - 1) / NAV_CUDA_BY),
              (unsigned)b->n[2]);
}
static inline dim3 nav_cuda_grid(const nav_box *b) { return nav_cuda_grid_n(b, b->n[0]); }
static inline dim3 nav_cuda_block(void) { return dim3(NAV_CUDA_BX, NAV_CUDA_BY, 1); }
static inline size_t nav_cuda_blocks(dim3 g) { return (size_t)g.x * g.y * g.z; }

/* Launch KERNEL<2> or KERNEL<3> (by box->dim) on the interior grid of BOX, then check it. */
#define NAV_CUDA_LAUNCH_DIM(BOX, GRID, KERNEL, ...)                                                  \
  do {                                                                                               \
    if ((BOX)->dim == 2)                                                                             \
      KERNEL<2><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                                          \
    else                                                                                             \
      KERNEL<3><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                                          \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

/* Launch KERNEL<DIM, C> (DIM by box->dim, C = the component c, 0..2): a kernel whose point function indexes the
 * box's arrays by a component known only at run time keeps its copy of the box in local memory (a stack frame
 * of about 300 bytes a thread, ptxas -v), which costs many times the kernel's bytes; a constant C does not. */
#define NAV_CUDA_LAUNCH_DIM_C(BOX, CC, GRID, KERNEL, ...)                                            \
  do {                                                                                               \
    const int nav_c_ = (CC);                                                                         \
    const dim3 nav_g_ = (GRID), nav_b_ = nav_cuda_block();                                           \
    if ((BOX)->dim == 2) {                                                                           \
      if (nav_c_ == 0) KERNEL<2, 0><<<nav_g_, nav_b_, 0, nav_cuda_stream>>>(__VA_ARGS__);            \
      else KERNEL<2, 1><<<nav_g_, nav_b_, 0, nav_cuda_stream>>>(__VA_ARGS__);                        \
    } else {                                                                                         \
      if (nav_c_ == 0) KERNEL<3, 0><<<nav_g_, nav_b_, 0, nav_cuda_stream>>>(__VA_ARGS__);            \
      else if (nav_c_ == 1) KERNEL<3, 1><<<nav_g_, nav_b_, 0, nav_cuda_stream>>>(__VA_ARGS__);       \
      else KERNEL<3, 2><<<nav_g_, nav_b_, 0, nav_cuda_stream>>>(__VA_ARGS__);                        \
    }                                                                                                \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

/* Launch KERNEL<2, T> or KERNEL<3, T> with T the field type of BOX: float on a mixed-precision multigrid
 * level (nav_box.lo), nav_real elsewhere. T is visible to the arguments as nav_cuda_t, e.g.
 * (nav_cuda_t *)x; the same kernel template serves both. */
#define NAV_CUDA_LAUNCH_FIELD(BOX, GRID, KERNEL, ...)                                                \
  do {                                                                                               \
    if ((BOX)->lo) {                                                                                 \
      typedef float nav_cuda_t;                                                                      \
      if ((BOX)->dim == 2)                                                                           \
        KERNEL<2, nav_cuda_t><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);        \
      else                                                                                           \
        KERNEL<3, nav_cuda_t><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);        \
    } else {                                                                                         \
      typedef nav_real nav_cuda_t;                                                                   \
      if ((BOX)->dim == 2)                                                                           \
        KERNEL<2, nav_cuda_t><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);        \
      else                                                                                           \
        KERNEL<3, nav_cuda_t><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);        \
    }                                                                                                \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

/* Up to three field pointers (one per component) passed by value to a kernel. */
typedef struct nav_cuda_fields {
  nav_real *c[3];
} nav_cuda_fields;

static inline nav_cuda_fields nav_cuda_pack(const nav_box *b, nav_real *const *u) {
  nav_cuda_fields f = {{NULL, NULL, NULL}};
  for (int d = 0; d < b->dim; d++) f.c[d] = u[d];
  return f;
}

/* ---- device helpers -------------------------------------------------------------------- */
#ifdef __CUDACC__

/* The kernel's copy of the box with a compile-time dimension. */
template <int DIM> __device__ __forceinline__ nav_box nav_cuda_box_dim(const nav_box &b) {
  nav_box l = b;
  l.dim = DIM;
  return l;
}

/* The multigrid's and the flow's stencil kernels in two variants, PLAIN or not (a template parameter): a plain
 * box (nav_box_plain, nav_metric.h) is the Poisson operator on a block uniform in every direction. The PLAIN
 * kernel's copy of the box says so in constants (uniform = 1, kc = sc = NULL,
 * shift = 0), so the point functions' metric values and couplings are kernel parameters, computed before
 * the plane loop, and their other branches are compiled out: the generic kernel spent about 220
 * instructions per cell (sm_90 SASS of the float colour sweep: the metric selection, 9 conversions from
 * double and the Helmholtz branches, predicated, in every plane). The same formulas, the same values. */
#ifdef __CUDACC__
template <int DIM, bool PLAIN> __device__ __forceinline__ nav_box nav_cuda_box_plain(const nav_box &b) {
  nav_box l = b;
  l.dim = DIM;
  if (PLAIN) {
    l.uniform = 1;
    l.kc = NULL;
    l.sc = NULL;
    l.shift = 0;
  }
  return l;
}
#endif

/* Launch KERNEL<DIM, PLAIN> with PLAIN = nav_box_plain(BOX) (the flow's kernels: a uniform block) on GRID, then
 * check it. */
#define NAV_CUDA_LAUNCH_UNI(BOX, GRID, KERNEL, ...)                                                  \
  do {                                                                                               \
    const bool plain_ = nav_box_plain(BOX);                                                         \
    if ((BOX)->dim == 2 && plain_)                                                                   \
      KERNEL<2, true><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                 \
    else if ((BOX)->dim == 2)                                                                        \
      KERNEL<2, false><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                \
    else if (plain_)                                                                                 \
      KERNEL<3, true><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                 \
    else                                                                                             \
      KERNEL<3, false><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);                \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)

/* The same for KERNEL<DIM, OLD, PLAIN> on GRID, OLD = (COND): the predictor's kernels, whose AB2 history is read
 * only after the first step (c != 0). */
#define NAV_CUDA_LAUNCH_UNI_OLD(BOX, GRID, COND, KERNEL, ...)                                                          \
  NAV_CUDA_LAUNCH_UNI_OLD_BLOCK(BOX, GRID, nav_cuda_block(), COND, KERNEL, __VA_ARGS__)
/* ... on blocks of BLOCK threads (a kernel whose launch bounds say so) */
#define NAV_CUDA_LAUNCH_UNI_OLD_BLOCK(BOX, GRID, BLOCK, COND, KERNEL, ...)                                             \
  do {                                                                                                                 \
    const bool plain_ = nav_box_plain(BOX), old_ = (COND);                                                             \
    const dim3 grid_ = (GRID), block_ = (BLOCK);                                                                       \
    if ((BOX)->dim == 2)                                                                                               \
      NAV_CUDA_LAUNCH_OLD_PLAIN_(2, KERNEL, __VA_ARGS__);                                                              \
    else                                                                                                               \
      NAV_CUDA_LAUNCH_OLD_PLAIN_(3, KERNEL, __VA_ARGS__);                                                              \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                                        \
  } while (0)
#define NAV_CUDA_LAUNCH_OLD_PLAIN_(D, KERNEL, ...)                                                   \
  do {                                                                                               \
    if (old_ && plain_) KERNEL<D, true, true><<<grid_, block_, 0, nav_cuda_stream>>>(__VA_ARGS__);   \
    else if (old_) KERNEL<D, true, false><<<grid_, block_, 0, nav_cuda_stream>>>(__VA_ARGS__);       \
    else if (plain_) KERNEL<D, false, true><<<grid_, block_, 0, nav_cuda_stream>>>(__VA_ARGS__);     \
    else KERNEL<D, false, false><<<grid_, block_, 0, nav_cuda_stream>>>(__VA_ARGS__);                \
  } while (0)

#ifdef __CUDACC__
/* The end of the fused predictor's kernels (momentum_advance, nav_kernels.h; advance_stress,
 * nav_viscous_kernels.h) at the point p, with N of every component in n: u* = nav_ab2(u, a, N, c, rhs_old,
 * OLD) of every component, rhs_old read before any store, then rhs = N and rhs_old = u*. */
template <int DIM, bool OLD>
__device__ __forceinline__ void nav_cuda_predictor_store(const nav_real *const *u, const nav_real *n, nav_real a,
                                                         nav_real c, nav_cuda_fields rhs, nav_cuda_fields rhs_old,
                                                         nav_idx p) {
  nav_real us[3];
#pragma unroll
  for (int d = 0; d < DIM; d++) us[d] = nav_ab2(u[d][p], a, n[d], c, OLD ? rhs_old.c[d][p] : 0, OLD);
#pragma unroll
  for (int d = 0; d < DIM; d++) {
    rhs.c[d][p] = n[d];
    rhs_old.c[d][p] = us[d];
  }
}
#endif

/* Launch KERNEL<DIM, T, PLAIN> (T: the field type as in NAV_CUDA_LAUNCH_FIELD, visible as nav_cuda_t; PLAIN: the
 * boolean expression PLAIN_IF, e.g. nav_box_plain(b)) on GRID, then check it. */
#define NAV_CUDA_LAUNCH_PLAIN(BOX, PLAIN_IF, GRID, KERNEL, ...)                                      \
  do {                                                                                               \
    const bool plain_ = (PLAIN_IF);                                                                  \
    if ((BOX)->lo) {                                                                                 \
      typedef float nav_cuda_t;                                                                      \
      NAV_CUDA_PLAIN_DIM(BOX, plain_, GRID, KERNEL, __VA_ARGS__);                                    \
    } else {                                                                                         \
      typedef nav_real nav_cuda_t;                                                                   \
      NAV_CUDA_PLAIN_DIM(BOX, plain_, GRID, KERNEL, __VA_ARGS__);                                    \
    }                                                                                                \
    NAV_CUDA_LAUNCHED(#KERNEL);                                                                      \
  } while (0)
#define NAV_CUDA_PLAIN_DIM(BOX, PLAIN, GRID, KERNEL, ...)                                            \
  do {                                                                                               \
    if ((BOX)->dim == 2 && (PLAIN))                                                                  \
      KERNEL<2, nav_cuda_t, true><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);     \
    else if ((BOX)->dim == 2)                                                                        \
      KERNEL<2, nav_cuda_t, false><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);    \
    else if (PLAIN)                                                                                  \
      KERNEL<3, nav_cuda_t, true><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);     \
    else                                                                                             \
      KERNEL<3, nav_cuda_t, false><<<(GRID), nav_cuda_block(), 0, nav_cuda_stream>>>(__VA_ARGS__);    \
  } while (0)

/* The 3D stencil kernels of the multigrid (relax_colour, residual, prolong_add), time_rates, divergence, the LES
 * closures' nu_t and advance_stress let a thread take kz consecutive planes (grid z = ceil(n2 / kz)): more bytes
 * in flight per thread, fewer blocks (and block partials to combine), and the planes above and below a cell still
 * in the SM's cache when the thread's next cell reads them. kz from the environment variable NAV_CUDA_KZ (a tuning
 * knob), read once; default 4: relax_colour, residual and prolong_add all faster than with kz = 1 (`navier bench step`,
 * 256^3 cavity, float level 0; figures in docs/performance.md). */
int nav_cuda_kz(void);
static inline dim3 nav_cuda_grid_kz(const nav_box *b, int nx0, int kz) {
  dim3 g = nav_cuda_grid_n(b, nx0);
  g.z = (unsigned)((b->n[2] + kz - 1) / kz);
  return g;
}

/* The linear index of the point ijk of b. */
__device__ __forceinline__ nav_idx nav_cuda_index(const nav_box *b, const int ijk[3]) {
  return b->off + (nav_idx)ijk[0] * b->st[0] + (nav_idx)ijk[1] * b->st[1] + (nav_idx)ijk[2] * b->st[2];
}

/* The interior point of this thread: ijk and linear index p; false outside the interior.
 * i = blockIdx.x * BX + threadIdx.x (fastest), j likewise, k = blockIdx.z. */
__device__ __forceinline__ bool nav_cuda_point(const nav_box *b, int ijk[3], nav_idx *p) {
  ijk[0] = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  ijk[1] = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  ijk[2] = (int)blockIdx.z;
  *p = nav_cuda_index(b, ijk);
  return ijk[0] < b->n[0] && ijk[1] < b->n[1];
}

/* The planes of this thread on a grid of nav_cuda_grid_kz(b, ..., kz): body(p) at k = blockIdx.z kz ..
 * min(blockIdx.z kz + kz, n2) - 1 in turn, with ijk[2] = k and p its point (ijk[0], ijk[1] as the caller set
 * them, e.g. by nav_cuda_point). */
template <typename F> __device__ __forceinline__ void nav_cuda_planes(const nav_box *b, int ijk[3], int kz, F body) {
  const int k0 = (int)blockIdx.z * kz, k1 = k0 + kz < b->n[2] ? k0 + kz : b->n[2];
  for (int k = k0; k < k1; k++) {
    ijk[2] = k;
    body(nav_cuda_index(b, ijk));
  }
}

/* Prologue of a kernel template<int DIM> without a block reduction: the box BOX with
 * compile-time dimension as b, this thread's ijk and p; threads outside the interior return.
 * NAV_CUDA_INTERIOR_PLAIN: the same with the box of nav_cuda_box_plain<DIM, PLAIN>. */
#define NAV_CUDA_INTERIOR(BOX) NAV_CUDA_INTERIOR_BOX(nav_cuda_box_dim<DIM>(BOX))
#define NAV_CUDA_INTERIOR_PLAIN(BOX, PLAIN) NAV_CUDA_INTERIOR_BOX((nav_cuda_box_plain<DIM, PLAIN>(BOX)))
#define NAV_CUDA_INTERIOR_BOX(LOCAL)                                                                 \
  const nav_box bl_ = LOCAL;                                                                         \
  const nav_box *const b = &bl_;                                                                     \
  int ijk[3];                                                                                        \
  nav_idx p;                                                                                         \
  if (!nav_cuda_point(b, ijk, &p)) return

__device__ __forceinline__ double nav_cuda_combine(double a, double b, bool is_max) {
  return is_max ? fmax(a, b) : a + b;
}

/* v combined (sum, or max when IS_MAX) with p[start], p[start + stride], ... below p[n], in that order: eight loads
 * in flight at a time, the same order and so the same result as one at a time (whose dependent loads made the
 * one-block finish of a 16 384-block reduction latency-bound, docs/performance.md). */
template <bool IS_MAX>
__device__ __forceinline__ double nav_cuda_combine_strided(double v, const double *p, size_t n, size_t start,
                                                           size_t stride) {
  size_t q = start;
  for (; q + 7 * stride < n; q += 8 * stride) {
    double a[8];
#pragma unroll
    for (int m = 0; m < 8; m++) a[m] = __ldcg(p + q + m * stride);
#pragma unroll
    for (int m = 0; m < 8; m++) v = nav_cuda_combine(v, a[m], IS_MAX);
  }
  for (; q < n; q += stride) v = nav_cuda_combine(v, __ldcg(p + q), IS_MAX);
  return v;
}

__device__ __forceinline__ unsigned nav_cuda_tid(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Combine v[0..NV-1] over the thread block (sum, or max when IS_MAX) in a fixed tree (warp shuffles,
 * then one warp): the block's result lands in v of thread 0. Every thread of the block must call
 * it; the block's threads are a multiple of 32, at most 1024. */
template <int NV, bool IS_MAX> __device__ __forceinline__ void nav_cuda_block_combine(double (&v)[NV]) {
  __shared__ double shared[NV][32];
  const unsigned tid = nav_cuda_tid();
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lane = tid & 31u, warp = tid >> 5;
#pragma unroll
  for (int n = 0; n < NV; n++)
    for (int o = 16; o > 0; o >>= 1) v[n] = nav_cuda_combine(v[n], __shfl_down_sync(0xffffffffu, v[n], o), IS_MAX);
  if (lane == 0) {
#pragma unroll
    for (int n = 0; n < NV; n++) shared[n][warp] = v[n];
  }
  __syncthreads();
  if (warp == 0) {
    const unsigned nwarps = nthreads >> 5;
#pragma unroll
    for (int n = 0; n < NV; n++) {
      double w = lane < nwarps ? shared[n][lane] : 0.0;
      for (int o = 16; o > 0; o >>= 1) w = nav_cuda_combine(w, __shfl_down_sync(0xffffffffu, w, o), IS_MAX);
      v[n] = w;
    }
  }
}

/* Reduce v[0..NV-1] over the thread block (nav_cuda_block_combine) and store the block's result
 * in partial[n * nblocks + block]; every thread of the block must call it. */
template <int NV, bool IS_MAX> __device__ __forceinline__ void nav_cuda_block_reduce(double (&v)[NV], double *partial) {
  nav_cuda_block_combine<NV, IS_MAX>(v);
  if (nav_cuda_tid() == 0) {
    const size_t nblocks = (size_t)gridDim.x * gridDim.y * gridDim.z;
    const size_t block = blockIdx.x + (size_t)gridDim.x * (blockIdx.y + (size_t)gridDim.y * blockIdx.z);
#pragma unroll
    for (int n = 0; n < NV; n++) partial[n * nblocks + block] = v[n];
  }
}

/* True in the block that counts itself last of the grid on *done (device memory, 0 before the launch; the caller
 * sets it back to 0), after its thread 0 stored the block's partials; every thread of every block must call it.
 * The other blocks' partials are visible to the last one. */
__device__ __forceinline__ bool nav_cuda_block_is_last(unsigned *done) {
  __shared__ bool last;
  const size_t nblocks = (size_t)gridDim.x * gridDim.y * gridDim.z;
  if (nav_cuda_tid() == 0) {
    __threadfence(); /* this block's partial (stored by thread 0) is visible before it is counted */
    last = atomicAdd(done, 1u) == (unsigned)(nblocks - 1);
  }
  __syncthreads();
  if (last) __threadfence();
  return last;
}

/* The last-block pattern, the reduction finished on the device without a second launch or a host
 * wait: after nav_cuda_block_reduce<NV, IS_MAX>(v, partial) in every block, the block that counts
 * itself last on *done combines all the blocks' partials into out[0..NV-1] (device memory): thread t
 * takes partials t, t + T, ... in turn, then nav_cuda_block_combine; a fixed order, so the result
 * does not depend on which block is last. *done (device memory) is 0 before the launch and left at
 * 0. Every thread of every block must call it, after nav_cuda_block_reduce. */
template <int NV, bool IS_MAX>
__device__ __forceinline__ void nav_cuda_last_block(const double *partial, unsigned *done, double *out) {
  const unsigned tid = nav_cuda_tid(), nthreads = blockDim.x * blockDim.y * blockDim.z;
  const size_t nblocks = (size_t)gridDim.x * gridDim.y * gridDim.z;
  if (!nav_cuda_block_is_last(done)) return;
  double v[NV];
#pragma unroll
  for (int n = 0; n < NV; n++) v[n] = nav_cuda_combine_strided<IS_MAX>(0, partial + n * nblocks, nblocks, tid, nthreads);
  nav_cuda_block_combine<NV, IS_MAX>(v);
  if (tid == 0) {
#pragma unroll
    for (int n = 0; n < NV; n++) out[n] = v[n];
    *done = 0;
  }
}

/* The threads of nav_cuda_reduce's finishing block for nblocks partials per value (its order of combination). */
__host__ __device__ __forceinline__ unsigned nav_cuda_reduce_threads(size_t nblocks) {
  return nblocks >= 1024 ? 1024u : (unsigned)((nblocks + 31) / 32 * 32);
}

/* The last-block pattern with the bits of nav_cuda_reduce(nv, IS_MAX, nblocks, ...), the result in device memory:
 * after nav_cuda_block_reduce in every block, where value n's partials are partial[n nblocks + 0 .. nblocks - 1]
 * (nblocks: the blocks of one value, e.g. gridDim.x with gridDim.y = nv), the block that counts itself last on
 * *done (as nav_cuda_last_block) stores value n < nv (<= NV) in *out[n] (device memory). The order is
 * nav_reduce_finish_kernel's on T = nav_cuda_reduce_threads(nblocks) threads, whatever this block's own count R
 * (a multiple of 32): thread t plays the threads t, t + R, ... below T, each of their warps held lane for lane by
 * one warp here, so every warp's tree and the final warp's are the same sums in the same order. Every thread of
 * every block must call it. */
template <int NV, bool IS_MAX>
__device__ __forceinline__ void nav_cuda_last_block_reduce(const double *partial, size_t nblocks, int nv,
                                                           unsigned *done, double *const *out) {
  __shared__ double shared[NV][32];
  if (!nav_cuda_block_is_last(done)) return;
  const unsigned tid = nav_cuda_tid(), lane = tid & 31u, T = nav_cuda_reduce_threads(nblocks);
  for (unsigned t = tid; t - lane < T; t += blockDim.x * blockDim.y * blockDim.z) { /* warp-uniform: T % 32 = 0 */
#pragma unroll
    for (int n = 0; n < NV; n++) {
      double w = n < nv ? nav_cuda_combine_strided<IS_MAX>(0, partial + n * nblocks, nblocks, t, T) : 0.0;
      for (int o = 16; o > 0; o >>= 1)
        w = nav_cuda_combine(w, __shfl_down_sync(0xffffffffu, w, o), IS_MAX);
      if (lane == 0) shared[n][t >> 5] = w;
    }
  }
  __syncthreads();
  if (tid >= 32) return;
#pragma unroll
  for (int n = 0; n < NV; n++) {
    double w = lane < T / 32 ? shared[n][lane] : 0.0;
    for (int o = 16; o > 0; o >>= 1)
      w = nav_cuda_combine(w, __shfl_down_sync(0xffffffffu, w, o), IS_MAX);
    if (lane == 0 && n < nv) *out[n] = w;
  }
  if (tid == 0) *done = 0;
}

#endif /* __CUDACC__ */

/* ---- reductions (vector.cu owns the scratch buffer) ------------------------------------ */

/* Device buffer for nv partial results per block of a grid of nblocks blocks (grown as needed). */
nav_err nav_cuda_partials(int nv, size_t nblocks, double **partial);
/* Combine the partials of the last kernel into nv host doubles (sum, or max if is_max); nv is 1, 2, 3, or for
 * sums 4 (face_integral) and 8 (the force sums of the bodies, ibm.cu). */
nav_err nav_cuda_reduce(int nv, int is_max, size_t nblocks, double *host);

/* ---- the kernel table's entries -------------------------------------------------------- */

nav_err nav_alloc_cuda(void **ptr, size_t bytes);
void nav_free_cuda(void *ptr);
nav_err nav_to_host_cuda(void *host, const void *src, size_t bytes);
nav_err nav_from_host_cuda(void *dst, const void *host, size_t bytes);
nav_err nav_copy_cuda(void *dst, const void *src, size_t bytes);
nav_err nav_to_host_async_cuda(void *host, const void *src, size_t bytes);
nav_err nav_alloc_host_cuda(void **ptr, size_t bytes);
void nav_free_host_cuda(void *ptr);
nav_err nav_host_register_cuda(void *ptr, size_t bytes);
void nav_host_unregister_cuda(void *ptr);
nav_err nav_sync_cuda(void);
void nav_memory_cuda(size_t *current, size_t *peak);
nav_err nav_stream_use_cuda(int side);
nav_err nav_stream_fork_cuda(void);
nav_err nav_stream_join_cuda(void);
nav_err nav_graph_begin_cuda(void);
nav_err nav_graph_end_cuda(void **exec);
nav_err nav_graph_launch_cuda(void *exec);
void nav_graph_free_cuda(void *exec);

nav_err nav_set_cuda(const nav_box *b, nav_real *x, nav_real value);
nav_err nav_fill_ghost_dir_cuda(const nav_box *b, int dir, const nav_ghost_dir *g);
nav_err nav_fill_ghosts_cuda(const nav_box *b, nav_real *x, const nav_ghost_faces *g);
nav_err nav_fill_ghost_cuda(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                            nav_real beta);

nav_err nav_face_integral_cuda(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                               const int *what, double *sums);
nav_err nav_face_integral_to_cuda(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                                  const int *what, double *const *out);
nav_err nav_face_sum_cuda(const nav_box *b, const nav_real *x, int c, double *sum);

nav_err nav_momentum_rhs_cuda(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs);
nav_err nav_advance_cuda(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                         nav_real a, nav_real c);
nav_err nav_momentum_advance_cuda(const nav_box *b, nav_real *const *u, nav_real nu, nav_real a, nav_real c,
                                  nav_real *const *rhs, nav_real *const *rhs_old);
nav_err nav_divergence_cuda(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs,
                            double *sum);
nav_err nav_correct_cuda(const nav_box *b, nav_real *const *u, const nav_real *p, nav_real scale);
nav_err nav_time_rates_cuda(const nav_box *b, nav_real *const *u, const nav_real *nut, double *adv_max,
                            double *diff_max, double *nut_max);
nav_err nav_kinetic_energy_cuda(const nav_box *b, nav_real *const *u, double *sum);

nav_err nav_laplacian_cuda(const nav_box *b, const nav_real *x, nav_real *y);
nav_err nav_residual_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr);
nav_err nav_residual_lo_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, float *r, double *rr);
nav_err nav_add_lo_cuda(const nav_box *b, nav_real *x, const float *e);
nav_err nav_inverse_diagonal_cuda(const nav_box *b, nav_real *inv_diag);
nav_err nav_relax_first_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                             nav_real omega);
nav_err nav_relax_sweep_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *out, int first,
                             nav_real omega);
nav_err nav_relax_colour_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                              nav_real omega);
nav_err nav_relax_line_cuda(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                            int colour, const int kind[2], nav_real omega);
nav_err nav_line_solve_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                            int dir, int colour, const int kind[2], int mode, nav_real *ends);
nav_err nav_line_update_cuda(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                             const nav_real *coef, int dir, int colour, nav_real omega);
nav_err nav_jacobi_cuda(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                        nav_real *x_new, nav_real omega);
nav_err nav_diag_scale_cuda(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z);
nav_err nav_restrict_residual_cuda(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs);
nav_err nav_residual_restrict_cuda(const nav_box *fine, const nav_real *x, const nav_real *b, const nav_box *coarse,
                                   nav_real *rhs);
nav_err nav_prolong_add_cuda(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x);

nav_err nav_axpby_cuda(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y);
nav_err nav_extrapolate_cuda(const nav_box *b, nav_real r, nav_real *x, nav_real *x_old);
nav_err nav_dot_cuda(const nav_box *b, const nav_real *x, const nav_real *y, double *sum);
nav_err nav_sum_cuda(const nav_box *b, const nav_real *x, double *sum);
nav_err nav_shift_cuda(const nav_box *b, nav_real *x, nav_real value);
nav_err nav_dense_copy_cuda(const nav_box *b, nav_real *x, double *dense, int to_box);
nav_err nav_max_abs_diff_cuda(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                              int *bad);

/* fft.cu: the FFT Poisson solver's kernels (cuFFT) */
nav_err nav_copy_box_cuda(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                          nav_idx doff, const nav_idx dst_st[3]);
nav_err nav_fft_plan_cuda(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan);
nav_err nav_fft_execute_cuda(void *plan, nav_real *data);
void nav_fft_plan_free_cuda(void *plan);
nav_err nav_matrix_plan_cuda(const int m[3], int dir, const double *A, void **plan);
nav_err nav_matrix_apply_cuda(void *plan, nav_real *data);
void nav_matrix_plan_free_cuda(void *plan);
nav_err nav_fft_divide_cuda(const int m[3], const nav_real *const lam[3], nav_real *data);
nav_err nav_fft_tridiag_cuda(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a,
                             const nav_real *b, const nav_real *c, int singular, nav_real *data, nav_real *work);
nav_err nav_fft_box_cuda(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                         const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                         const nav_idx st[3], nav_real *scratch, void **state);
void nav_fft_box_free_cuda(void *state);
nav_err nav_fft_slab_forward_cuda(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                                  const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state);
nav_err nav_fft_slab_inverse_cuda(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                                  const nav_idx st[3], nav_real *scratch, void **state);
nav_err nav_fft_lines_cuda(const nav_fft_lines *ln, const nav_real *b, const double *bsum, nav_real *x, nav_idx off,
                           const nav_idx st[3], nav_real *scratch, void **state);
void nav_fft_lines_free_cuda(void *state);

#endif
