/* CUDA backend of the FFT Poisson solver: the real-to-real transforms through cuFFT (which has no
 * DCT or DST) with pre- and post-processing kernels (nav_point_fft.h: Makhoul's reordering for
 * DCT-II/III and DST-II/III, a zero-padded complex FFT for DCT-IV/DST-IV, the halfcomplex DFT),
 * the spectral division, the tridiagonal line solves and the strided box copy of the transposes.
 *
 * One transform along direction dir of a dense m array (x fastest) over B = the product of the
 * other counts lines of N points: pre kernel (dense array -> FFT input), one batched cuFFT
 * execution, post kernel (FFT output -> dense array). The FFT buffers hold line b's element n at
 *   b * L + n   (dir = 0: "line-major", the lines are contiguous in the dense array too), or
 *   n * B + b   (dir = 1, 2: "batch-fastest": neighbouring lines are neighbours in memory, so the
 *                kernels' reads and writes coalesce; cuFFT's advanced layout with stride B).
 * Scratch (FFT input/output buffers and cuFFT's work area) is one set of device buffers shared
 * by every plan, grown to the largest need (plans run one at a time on the current stream).
 * The whole box (nav_fft_box_cuda) runs its gather and scatter inside the two transforms, and with every
 * direction periodic its spectral division too, as cuFFT LTO callbacks (fft_callbacks.cu), where cuFFT accepts
 * them. */
#include <cublas_v2.h>
#include <cufft.h>
#include <cufftXt.h>

#include "backend/common/nav_point_fft.h"
#include "backend/cuda/cuda_kernels.h"
#include "backend/cuda/fft_callbacks.h"
#include "core/nav_profile.h"

/* A cuFFT or cuBLAS call: NAV_ERR_BACKEND naming the call and its status unless that is OK. */
#define NAV_CALL_LIB(OK, LIB, ...)                                                                   \
  do {                                                                                               \
    const int nav_lerr_ = (int)(__VA_ARGS__);                                                        \
    NAV_CHECK(nav_lerr_ == (int)(OK), NAV_ERR_BACKEND, "%s failed: %s error %d", #__VA_ARGS__, LIB,   \
              nav_lerr_);                                                                            \
  } while (0)
#define NAV_CALL_CUFFT(...) NAV_CALL_LIB(CUFFT_SUCCESS, "cuFFT", __VA_ARGS__)
#define NAV_CALL_CUBLAS(...) NAV_CALL_LIB(CUBLAS_STATUS_SUCCESS, "cuBLAS", __VA_ARGS__)

#ifdef NAV_SINGLE_PRECISION
#define NAV_CUFFT_R2C CUFFT_R2C
#define NAV_CUFFT_C2R CUFFT_C2R
#define NAV_CUFFT_C2C CUFFT_C2C
typedef cufftComplex nav_cufft_complex;
typedef cufftReal nav_cufft_real;
#else
#define NAV_CUFFT_R2C CUFFT_D2Z
#define NAV_CUFFT_C2R CUFFT_Z2D
#define NAV_CUFFT_C2C CUFFT_Z2Z
typedef cufftDoubleComplex nav_cufft_complex;
typedef cufftDoubleReal nav_cufft_real;
#endif

typedef struct nav_cuda_fft_plan {
  int m[3], dir, N, M, B, cls;
  nav_fft_kind kind;
  int lr, lc;   /* line lengths of the real and the complex buffer */
  cufftHandle h;
  size_t work;  /* bytes of cuFFT's work area */
} nav_cuda_fft_plan;

static nav_real *nav_fft_rbuf = NULL, *nav_fft_cbuf = NULL; /* real and complex (interleaved) FFT buffers */
static void *nav_fft_work = NULL;
static size_t nav_fft_rlen = 0, nav_fft_clen = 0, nav_fft_wlen = 0; /* bytes */

static nav_err nav_fft_grow(void **buf, size_t *len, size_t need) {
  if (need <= *len) return NAV_OK;
  if (*buf) nav_free_cuda(*buf);
  *buf = NULL;
  *len = 0;
  NAV_CALL(nav_alloc_cuda(buf, need));
  *len = need;
  return NAV_OK;
}

/* Line b of the plan: its first point in the dense array. */
__device__ __forceinline__ nav_idx nav_fft_line_first(const nav_cuda_fft_plan &p, nav_idx b) {
  if (p.dir == 0) return b * p.m[0];
  if (p.dir == 1) return (b % p.m[0]) + (b / p.m[0]) * (nav_idx)p.m[0] * p.m[1];
  return b;
}

__device__ __forceinline__ nav_idx nav_fft_dense_stride(const nav_cuda_fft_plan &p) {
  return p.dir == 0 ? 1 : p.dir == 1 ? (nav_idx)p.m[0] : (nav_idx)p.m[0] * p.m[1];
}

/* Thread t -> (line b, element n) of a buffer whose lines have len elements. */
__device__ __forceinline__ void nav_fft_split(const nav_cuda_fft_plan &p, nav_idx t, int len, nav_idx *b, int *n) {
  if (p.dir == 0) {
    *b = t / len;
    *n = (int)(t % len);
  } else {
    *b = t % p.B;
    *n = (int)(t / p.B);
  }
}

/* Buffer index of (b, n) in a buffer of line length len. */
__device__ __forceinline__ nav_idx nav_fft_at(const nav_cuda_fft_plan &p, nav_idx b, int n, int len) {
  return p.dir == 0 ? b * len + n : (nav_idx)n * p.B + b;
}

__global__ void nav_fft_pre_kernel(nav_cuda_fft_plan p, const nav_real *x, nav_real *r, nav_real *c, nav_idx total,
                                   int len) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  nav_idx b;
  int n;
  nav_fft_split(p, t, len, &b, &n);
  const nav_real *line = x + nav_fft_line_first(p, b);
  const nav_idx st = nav_fft_dense_stride(p), q = nav_fft_at(p, b, n, len);
  if (p.cls == 0)
    r[q] = nav_fft_pre_r2c(p.kind, p.N, line, st, n);
  else if (p.cls == 1)
    nav_fft_pre_c2r(p.kind, p.N, line, st, n, &c[2 * q], &c[2 * q + 1]);
  else
    nav_fft_pre_c2c(p.N, line, st, n, &c[2 * q], &c[2 * q + 1]);
}

__global__ void nav_fft_post_kernel(nav_cuda_fft_plan p, nav_real *x, const nav_real *r, const nav_real *c,
                                    nav_idx total) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  nav_idx b;
  int k;
  nav_fft_split(p, t, p.N, &b, &k);
  const nav_idx st = nav_fft_dense_stride(p);
  nav_real y;
  if (p.cls == 1) {
    y = nav_fft_post_c2r(p.kind, p.N, r + nav_fft_at(p, b, 0, p.lr), p.dir == 0 ? 1 : p.B, k);
  } else {
    const nav_real *Z = c + 2 * nav_fft_at(p, b, 0, p.lc);
    const nav_idx zs = p.dir == 0 ? 1 : p.B;
    y = p.cls == 0 ? nav_fft_post_r2c(p.kind, p.N, Z, zs, k) : nav_fft_post_c2c(p.kind, p.N, Z, zs, k);
  }
  x[nav_fft_line_first(p, b) + k * st] = y;
}

static unsigned nav_fft_blocks(nav_idx total) { return (unsigned)((total + 255) / 256); }

nav_err nav_fft_plan_cuda(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **out) {
  (void)data;
  nav_cuda_fft_plan *p = (nav_cuda_fft_plan *)calloc(1, sizeof *p);
  NAV_CHECK(p, NAV_ERR_MEMORY, "cannot allocate a cuFFT plan");
  *out = p;
  for (int d = 0; d < 3; d++) p->m[d] = m[d];
  p->dir = dir;
  p->kind = kind;
  p->N = m[dir];
  p->M = nav_fft_length(kind, p->N);
  p->B = (int)((long)m[0] * m[1] * m[2] / m[dir]);
  p->cls = nav_fft_class(kind);
  p->lr = p->N;
  p->lc = p->cls == 2 ? p->M : p->M / 2 + 1;
  const int lm = dir == 0, stride = lm ? 1 : p->B;
  int n = p->M, inembed = p->cls == 0 ? p->lr : p->lc, onembed = p->cls == 1 ? p->lr : p->lc;
  const int idist = lm ? inembed : 1, odist = lm ? onembed : 1;
  const cufftType type = p->cls == 0 ? NAV_CUFFT_R2C : p->cls == 1 ? NAV_CUFFT_C2R : NAV_CUFFT_C2C;
  NAV_CALL_CUFFT(cufftCreate(&p->h));
  NAV_CALL_CUFFT(cufftSetAutoAllocation(p->h, 0));
  NAV_CALL_CUFFT(cufftMakePlanMany(p->h, 1, &n, &inembed, stride, idist, &onembed, stride, odist, type, p->B, &p->work));
  NAV_CALL(nav_fft_grow((void **)&nav_fft_rbuf, &nav_fft_rlen, (size_t)p->lr * p->B * sizeof(nav_real)));
  NAV_CALL(nav_fft_grow((void **)&nav_fft_cbuf, &nav_fft_clen, (size_t)p->lc * p->B * 2 * sizeof(nav_real)));
  NAV_CALL(nav_fft_grow(&nav_fft_work, &nav_fft_wlen, p->work > 0 ? p->work : 1));
  return NAV_OK;
}

nav_err nav_fft_execute_cuda(void *plan, nav_real *data) {
  const nav_cuda_fft_plan *p = (const nav_cuda_fft_plan *)plan;
  const int len = p->cls == 0 ? p->lr : p->cls == 1 ? p->N / 2 + 1 : p->M; /* elements the pre kernel writes */
  const nav_idx pre = (nav_idx)len * p->B, post = (nav_idx)p->N * p->B;
  nav_fft_pre_kernel<<<nav_fft_blocks(pre), 256, 0, nav_cuda_stream>>>(*p, data, nav_fft_rbuf, nav_fft_cbuf, pre,
                                                                       p->cls == 0 ? p->lr : p->lc);
  NAV_CUDA_LAUNCHED("nav_fft_pre_kernel");
  NAV_CALL_CUFFT(cufftSetStream(p->h, nav_cuda_stream));
  NAV_CALL_CUFFT(cufftSetWorkArea(p->h, nav_fft_work));
  nav_cufft_real *r = (nav_cufft_real *)nav_fft_rbuf;
  nav_cufft_complex *c = (nav_cufft_complex *)nav_fft_cbuf;
#ifdef NAV_SINGLE_PRECISION
  if (p->cls == 0) NAV_CALL_CUFFT(cufftExecR2C(p->h, r, c));
  else if (p->cls == 1) NAV_CALL_CUFFT(cufftExecC2R(p->h, c, r));
  else NAV_CALL_CUFFT(cufftExecC2C(p->h, c, c, CUFFT_FORWARD));
#else
  if (p->cls == 0) NAV_CALL_CUFFT(cufftExecD2Z(p->h, r, c));
  else if (p->cls == 1) NAV_CALL_CUFFT(cufftExecZ2D(p->h, c, r));
  else NAV_CALL_CUFFT(cufftExecZ2Z(p->h, c, c, CUFFT_FORWARD));
#endif
  nav_fft_post_kernel<<<nav_fft_blocks(post), 256, 0, nav_cuda_stream>>>(*p, data, nav_fft_rbuf, nav_fft_cbuf, post);
  NAV_CUDA_LAUNCHED("nav_fft_post_kernel");
  return NAV_OK;
}

void nav_fft_plan_free_cuda(void *plan) {
  nav_cuda_fft_plan *p = (nav_cuda_fft_plan *)plan;
  if (!p) return;
  cufftDestroy(p->h);
  free(p);
}

/* The dense transform of a stretched direction (matrix_plan): y = A x along dir as one cuBLAS gemm
 * into the shared real FFT buffer, copied back. The dense array seen column-major: dir = 0, an
 * N x (m1 m2) matrix X, Y = A X; dir > 0, per slice of the directions above dir an R x N matrix X
 * (R = the product of the counts below dir), Y = X A^T, strided-batched over the slices. The
 * row-major A read column-major is A^T, hence the transpose flags (as the CPU's BLAS calls). */
#ifdef NAV_SINGLE_PRECISION
#define NAV_CUBLAS_GEMM cublasSgemm
#define NAV_CUBLAS_GEMM_BATCHED cublasSgemmStridedBatched
#else
#define NAV_CUBLAS_GEMM cublasDgemm
#define NAV_CUBLAS_GEMM_BATCHED cublasDgemmStridedBatched
#endif

typedef struct nav_cuda_matrix_plan {
  int m[3], dir;
  nav_real *A; /* device, row-major */
  cublasHandle_t h;
} nav_cuda_matrix_plan;

nav_err nav_matrix_plan_cuda(const int m[3], int dir, const double *A, void **out) {
  nav_cuda_matrix_plan *p = (nav_cuda_matrix_plan *)calloc(1, sizeof *p);
  NAV_CHECK(p, NAV_ERR_MEMORY, "cannot allocate a dense transform plan");
  *out = p;
  const size_t N = (size_t)m[dir], cells = (size_t)m[0] * m[1] * m[2];
  nav_real *h = (nav_real *)malloc(N * N * sizeof(nav_real));
  NAV_CHECK(h, NAV_ERR_MEMORY, "cannot allocate a dense transform of %zu x %zu", N, N);
  for (size_t q = 0; q < N * N; q++) h[q] = (nav_real)A[q];
  nav_err e = nav_alloc_cuda((void **)&p->A, N * N * sizeof(nav_real));
  if (e == NAV_OK) e = nav_from_host_cuda(p->A, h, N * N * sizeof(nav_real));
  free(h);
  NAV_CALL(e);
  for (int d = 0; d < 3; d++) p->m[d] = m[d];
  p->dir = dir;
  NAV_CALL_CUBLAS(cublasCreate(&p->h));
  return nav_fft_grow((void **)&nav_fft_rbuf, &nav_fft_rlen, cells * sizeof(nav_real));
}

nav_err nav_matrix_apply_cuda(void *plan, nav_real *x) {
  const nav_cuda_matrix_plan *p = (const nav_cuda_matrix_plan *)plan;
  const int N = p->m[p->dir];
  const nav_real one = 1, zero = 0;
  const long long cells = (long long)p->m[0] * p->m[1] * p->m[2], lines = cells / N;
  nav_real *y = nav_fft_rbuf;
  NAV_CALL_CUBLAS(cublasSetStream(p->h, nav_cuda_stream));
  if (p->dir == 0) {
    NAV_CALL_CUBLAS(
        NAV_CUBLAS_GEMM(p->h, CUBLAS_OP_T, CUBLAS_OP_N, N, (int)lines, N, &one, p->A, N, x, N, &zero, y, N));
  } else {
    const int rows = p->dir == 1 ? p->m[0] : p->m[0] * p->m[1];
    const long long slice = (long long)rows * N;
    NAV_CALL_CUBLAS(NAV_CUBLAS_GEMM_BATCHED(p->h, CUBLAS_OP_N, CUBLAS_OP_N, rows, N, N, &one, x, rows, slice, p->A, N,
                                            0, &zero, y, rows, slice, (int)(cells / slice)));
  }
  NAV_CALL_CUDA(cudaMemcpyAsync(x, y, (size_t)cells * sizeof(nav_real), cudaMemcpyDeviceToDevice, nav_cuda_stream));
  return NAV_OK;
}

void nav_matrix_plan_free_cuda(void *plan) {
  nav_cuda_matrix_plan *p = (nav_cuda_matrix_plan *)plan;
  if (!p) return;
  cublasDestroy(p->h);
  nav_free_cuda(p->A);
  free(p);
}

__global__ void nav_copy_box_kernel(int c0, int c1, nav_idx total, const nav_real *src, nav_idx soff, nav_idx s0,
                                    nav_idx s1, nav_idx s2, nav_real *dst, nav_idx doff, nav_idx d0, nav_idx d1,
                                    nav_idx d2) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  const nav_idx i = t % c0, j = (t / c0) % c1, k = t / ((nav_idx)c0 * c1);
  dst[doff + i * d0 + j * d1 + k * d2] = src[soff + i * s0 + j * s1 + k * s2];
}

nav_err nav_copy_box_cuda(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                          nav_idx doff, const nav_idx dst_st[3]) {
  const nav_idx total = (nav_idx)cnt[0] * cnt[1] * cnt[2];
  if (total == 0) return NAV_OK;
  nav_copy_box_kernel<<<nav_fft_blocks(total), 256, 0, nav_cuda_stream>>>(
      cnt[0], cnt[1], total, src, soff, sst[0], sst[1], sst[2], dst, doff, dst_st[0], dst_st[1], dst_st[2]);
  NAV_CUDA_LAUNCHED("nav_copy_box_kernel");
  return NAV_OK;
}

__global__ void nav_fft_divide_kernel(int m0, int m1, nav_idx total, const nav_real *l0, const nav_real *l1,
                                      const nav_real *l2, nav_real *data) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  const int i = (int)(t % m0), j = (int)((t / m0) % m1), k = (int)(t / ((nav_idx)m0 * m1));
  data[t] = nav_fft_divide(data[t], l0[i] + l1[j] + (l2 ? l2[k] : 0));
}

nav_err nav_fft_divide_cuda(const int m[3], const nav_real *const lam[3], nav_real *data) {
  const nav_idx total = (nav_idx)m[0] * m[1] * m[2];
  nav_fft_divide_kernel<<<nav_fft_blocks(total), 256, 0, nav_cuda_stream>>>(m[0], m[1], total, lam[0], lam[1],
                                                                             lam[2], data);
  NAV_CUDA_LAUNCHED("nav_fft_divide_kernel");
  return NAV_OK;
}

/* One thread per line along dir; lines are numbered with the fastest other direction first (e, then f). The
 * strides and counts come as scalars (arrays indexed at run time would live in local memory). */
__global__ void nav_fft_tridiag_kernel(int N, nav_idx stride, int me, nav_idx lines, nav_idx se, nav_idx sf,
                                       const nav_real *le, const nav_real *lf, const nav_real *a, const nav_real *b,
                                       const nav_real *c, int singular, nav_real *data, nav_real *work) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= lines) return;
  const int je = (int)(t % me), jf = (int)(t / me);
  const nav_real s = le[je] + (lf ? lf[jf] : 0);
  nav_fft_thomas(N, je * se + jf * sf, stride, data, work, a, b, c, s, singular);
}

nav_err nav_fft_tridiag_cuda(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a,
                             const nav_real *b, const nav_real *c, int singular, nav_real *data, nav_real *work) {
  const int e = dir == 0 ? 1 : 0, f = dir == 2 ? 1 : 2;
  const nav_idx st[3] = {1, m[0], (nav_idx)m[0] * m[1]}, lines = (nav_idx)m[e] * m[f];
  nav_fft_tridiag_kernel<<<nav_fft_blocks(lines), 256, 0, nav_cuda_stream>>>(
      m[dir], st[dir], m[e], lines, st[e], st[f], lam[e], lam[f], a, b, c, singular, data, work);
  NAV_CUDA_LAUNCHED("nav_fft_tridiag_kernel");
  return NAV_OK;
}

/* ---- the whole box in one multi-dimensional transform (fft_box; nav_point_fft.h) ------------ */

typedef struct nav_cuda_fft_box {
  cufftHandle fwd, inv;
  int made; /* bit 0: fwd created, bit 1: inv created */
  size_t work;
  nav_real *cp; /* slabs: the lines' c' (nav_fft_slab_coefficients) */
  nav_real *e;  /* slabs: the chunks' ends (nav_fft_slab_ends) */
  nav_fft_cb_info *info; /* box with callbacks (fft_callbacks.cu): their arguments, device memory; NULL without */
  nav_fft_cb_info cb;    /* the arguments that stay (the divisions, the even directions), host */
} nav_cuda_fft_box;

/* (i, j, k) of the flat index t (x fastest) of a box of r0 x r1 x ... points: in 32-bit arithmetic where the
 * box has fewer than 2^32 points (a 64-bit division is a software routine on the GPU, tens of instructions) */
__device__ __forceinline__ void nav_fft_box_ijk(nav_idx t, nav_idx total, int r0, int r1, int *i, int *j, int *k) {
  if (total <= (nav_idx)0xffffffffu) {
    const unsigned u = (unsigned)t, q = u / (unsigned)r0;
    *i = (int)(u - q * (unsigned)r0);
    *j = (int)(q % (unsigned)r1);
    *k = (int)(q / (unsigned)r1);
  } else {
    *i = (int)(t % r0);
    *j = (int)((t / r0) % r1);
    *k = (int)(t / ((nav_idx)r0 * r1));
  }
}

/* The copy between the box (b or x: off, strides s) and the dense scratch (x fastest) of fft_box, the
 * even directions reordered: scratch(n0, n1, n2) = box(nav_fft_even_from(e_d, n_d, m_d) in each d). GATHER:
 * scratch = b (+ (nav_real)(-*bsum / volume) when bsum != NULL, the shift computed once per block), else
 * x = scratch (the scatter: x(i) = scratch(nav_fft_even_to(i)), the same bijection read the other way).
 * Thread (ix, n1, n2) takes the box row of dense row (n1, n2) and its two x points i = 2 ix, 2 ix + 1,
 * whose dense positions are ix and m0 - 1 - ix (even x: v(n) = x(2 n), v(m0 - 1 - n) = x(2 n + 1)) or
 * 2 ix, 2 ix + 1: a warp reads and writes 64 consecutive box values and two runs of 32 consecutive dense
 * ones (the former one point per thread read the box at stride 2 in x), and there is no division (the
 * former split a flat index into (i, j, k), and ran nav_fft_even_from three times per point: these kernels
 * were issue-bound at 256^3 in both precisions, docs/performance.md). Bit for bit
 * the same values: a copy (and the same one addition). */
template <bool GATHER>
__global__ void __launch_bounds__(256)
    nav_fft_box_copy_kernel(int m0, int m1, int m2, int e0, int e1, int e2, nav_real *box, nav_idx off, nav_idx s0,
                            nav_idx s1, nav_idx s2, nav_real *scratch, const double *bsum, double volume) {
  __shared__ nav_real shift;
  if (GATHER && bsum) {
    if (threadIdx.x == 0 && threadIdx.y == 0) shift = (nav_real)(-*bsum / volume);
    __syncthreads();
  }
  const int ix = (int)(blockIdx.x * blockDim.x + threadIdx.x), n1 = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int n2 = (int)blockIdx.z, i = 2 * ix;
  if (i >= m0 || n1 >= m1) return;
  nav_real *const row = box + off + nav_fft_even_from(e1, n1, m1) * s1 + nav_fft_even_from(e2, n2, m2) * s2;
  nav_real *const dense = scratch + (nav_idx)m0 * (n1 + (nav_idx)m1 * n2);
  const int pos[2] = {e0 ? ix : i, e0 ? m0 - 1 - ix : i + 1}, two = i + 1 < m0 ? 2 : 1;
#pragma unroll
  for (int a = 0; a < 2; a++) {
    if (a == two) break;
    if (GATHER)
      dense[pos[a]] = bsum ? row[(i + a) * s0] + shift : row[(i + a) * s0];
    else
      row[(i + a) * s0] = dense[pos[a]];
  }
}

static nav_err nav_fft_box_copy(int gather, const int m[3], int e0, int e1, int e2, const nav_real *box, nav_idx off,
                                const nav_idx st[3], nav_real *scratch, const double *bsum, double volume) {
  NAV_CHECK(m[2] <= 65535, NAV_ERR_INTERNAL, "fft_box: %d planes, more than a grid's z extent", m[2]);
  const dim3 block(32, 8), grid((unsigned)((m[0] + 63) / 64), (unsigned)((m[1] + 7) / 8), (unsigned)m[2]);
  if (gather)
    nav_fft_box_copy_kernel<true><<<grid, block, 0, nav_cuda_stream>>>(m[0], m[1], m[2], e0, e1, e2, (nav_real *)box,
                                                                       off, st[0], st[1], st[2], scratch, bsum, volume);
  else
    nav_fft_box_copy_kernel<false><<<grid, block, 0, nav_cuda_stream>>>(
        m[0], m[1], m[2], e0, e1, e2, (nav_real *)box, off, st[0], st[1], st[2], scratch, bsum, volume);
  NAV_CUDA_LAUNCHED("nav_fft_box_copy_kernel");
  return NAV_OK;
}

/* The real transform of the box, the slabs and the lines on the current stream, with the shared work area:
 * forward (plan h real-to-complex) from the real scratch r into the half spectrum nav_fft_cbuf, or back
 * (complex-to-real). */
static nav_err nav_fft_real_transform(cufftHandle h, int forward, nav_real *r) {
  nav_cufft_complex *c = (nav_cufft_complex *)nav_fft_cbuf;
  NAV_CALL_CUFFT(cufftSetStream(h, nav_cuda_stream));
  NAV_CALL_CUFFT(cufftSetWorkArea(h, nav_fft_work));
#ifdef NAV_SINGLE_PRECISION
  if (forward) NAV_CALL_CUFFT(cufftExecR2C(h, (nav_cufft_real *)r, c));
  else NAV_CALL_CUFFT(cufftExecC2R(h, c, (nav_cufft_real *)r));
#else
  if (forward) NAV_CALL_CUFFT(cufftExecD2Z(h, (nav_cufft_real *)r, c));
  else NAV_CALL_CUFFT(cufftExecZ2D(h, c, (nav_cufft_real *)r));
#endif
  return NAV_OK;
}

/* one thread per representative (k0 <= m0/2, k1 <= m1/2, k2 <= m2/2) */
__global__ void nav_fft_box_block_kernel(int m0, int m1, int m2, nav_idx total, const nav_real *tw0,
                                         const nav_real *tw1, const nav_real *tw2, const nav_real *l0,
                                         const nav_real *l1, const nav_real *l2, nav_real scale, nav_real *c) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  const int r0 = m0 / 2 + 1, r1 = m1 / 2 + 1, m[3] = {m0, m1, m2};
  int k[3];
  nav_fft_box_ijk(t, total, r0, r1, &k[0], &k[1], &k[2]);
  const nav_real *const tw[3] = {tw0, tw1, tw2}, *const lam[3] = {l0, l1, l2};
  nav_real blk[8][2];
  nav_fft_block_get(c, m, k, blk, 8);
  nav_fft_block_solve(blk, m, k, tw, lam, scale);
  nav_fft_block_put(c, m, k, blk, 8);
}

/* The spectral divide where every direction is periodic (tw all NULL): one thread per stored coefficient
 * (k0 <= m0/2, j1, j2), coalesced, where the block kernel above gathers the 8 points (+-k1, +-k2, and the
 * conjugates of -k0) of a representative. The same value bit for bit: nav_fft_block_solve's s0 = 0 entries,
 * the ones it stores, are the coefficients themselves, divided by lam0[k0] + lam1[j1] (+ lam2[j2]) summed in
 * that order, times scale. */
__global__ void nav_fft_box_periodic_kernel(int m0, int m1, nav_idx total, const nav_real *l0, const nav_real *l1,
                                            const nav_real *l2, nav_real scale, nav_real *c) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= total) return;
  int k0, j1, j2;
  nav_fft_box_ijk(t, total, m0 / 2 + 1, m1, &k0, &j1, &j2);
  nav_real l = l0[k0] + l1[j1];
  if (l2) l += l2[j2];
  nav_real *const z = c + 2 * t;
  z[0] = nav_fft_divide(z[0], l) * scale;
  z[1] = nav_fft_divide(z[1], l) * scale;
}

/* The spectral division of the half spectrum nav_fft_cbuf in place: one coefficient a thread where every direction
 * is periodic (tw all NULL), else the 8-point blocks of the even directions. */
static nav_err nav_fft_box_spectrum(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3],
                                    nav_real scale) {
  if (!tw[0] && !tw[1] && !tw[2]) {
    const nav_idx half = (nav_idx)(m[0] / 2 + 1) * m[1] * m[2];
    nav_fft_box_periodic_kernel<<<nav_fft_blocks(half), 256, 0, nav_cuda_stream>>>(m[0], m[1], half, lam[0], lam[1],
                                                                                   lam[2], scale, nav_fft_cbuf);
    NAV_CUDA_LAUNCHED("nav_fft_box_periodic_kernel");
  } else {
    const nav_idx reps = (nav_idx)(m[0] / 2 + 1) * (m[1] / 2 + 1) * (m[2] / 2 + 1);
    nav_fft_box_block_kernel<<<nav_fft_blocks(reps), 256, 0, nav_cuda_stream>>>(
        m[0], m[1], m[2], reps, tw[0], tw[1], tw[2], lam[0], lam[1], lam[2], scale, nav_fft_cbuf);
    NAV_CUDA_LAUNCHED("nav_fft_box_block_kernel");
  }
  return NAV_OK;
}

/* The callbacks' arguments of this call: the stored ones with the arrays and scalars of the call, and the shift
 * computed here as nav_fft_box_copy_kernel does (the same value). One thread, on the stream before the forward
 * transform, whose kernels then read it (caller_info). */
__global__ void nav_fft_box_info_kernel(nav_fft_cb_info h, const double *bsum, double volume, nav_fft_cb_info *info) {
  h.shifted = bsum != NULL;
  h.shift = bsum ? (nav_real)(-*bsum / volume) : 0;
  *info = h;
}

static void nav_fft_box_unplan(nav_cuda_fft_box *s) {
  if (s->made & 1) cufftDestroy(s->fwd);
  if (s->made & 2) cufftDestroy(s->inv);
  s->made = 0;
}

/* A cuFFT call in a function that returns cuFFT's status: the first failing call's status, *what its name. */
#define NAV_TRY_CUFFT(...)                                                                                             \
  do {                                                                                                                 \
    const cufftResult r_ = (__VA_ARGS__);                                                                              \
    if (r_ != CUFFT_SUCCESS) {                                                                                         \
      *what = #__VA_ARGS__;                                                                                            \
      return r_;                                                                                                       \
    }                                                                                                                  \
  } while (0)

/* The box's (or the slabs') forward and inverse handles, cuFFT's work area left to the caller (nav_fft_work); made
 * records what exists, for nav_fft_box_unplan. */
static cufftResult nav_fft_box_handles(nav_cuda_fft_box *s, const char **what) {
  NAV_TRY_CUFFT(cufftCreate(&s->fwd));
  s->made |= 1;
  NAV_TRY_CUFFT(cufftCreate(&s->inv));
  s->made |= 2;
  NAV_TRY_CUFFT(cufftSetAutoAllocation(s->fwd, 0));
  NAV_TRY_CUFFT(cufftSetAutoAllocation(s->inv, 0));
  return CUFFT_SUCCESS;
}

/* The box's two plans (cuFFT's dimensions slowest first: (z, y, x)), with the callbacks of fft_callbacks.cu on
 * them where cb (set between cufftCreate and the planning, as cuFFT requires; cuFFT links them in the planning):
 * the gather and the scatter, and the spectral division where every direction is periodic (s->cb.e0..e2 all 0;
 * an even direction's division is the 8-point block kernel's). The first failing call's status, *what its name.
 * The plans are left to nav_fft_box_unplan either way. */
static cufftResult nav_fft_box_plans(nav_cuda_fft_box *s, const int m[3], int cb, size_t *wf, size_t *wi,
                                     const char **what) {
  const cufftResult r = nav_fft_box_handles(s, what);
  if (r != CUFFT_SUCCESS) return r;
  if (cb) {
#ifdef NAV_SINGLE_PRECISION
    const cufftXtCallbackType ld = CUFFT_CB_LD_REAL, stc = CUFFT_CB_ST_COMPLEX, str = CUFFT_CB_ST_REAL;
#else
    const cufftXtCallbackType ld = CUFFT_CB_LD_REAL_DOUBLE, stc = CUFFT_CB_ST_COMPLEX_DOUBLE,
                              str = CUFFT_CB_ST_REAL_DOUBLE;
#endif
    void **info = (void **)&s->info; /* one device pointer (one GPU) */
    NAV_TRY_CUFFT(cufftXtSetJITCallback(s->fwd, NAV_FFT_CB_LOAD_SYMBOL, nav_fft_cb_load_fatbin,
                                        nav_fft_cb_load_fatbin_size, ld, info));
    if (!s->cb.e0 && !s->cb.e1 && !s->cb.e2)
      NAV_TRY_CUFFT(cufftXtSetJITCallback(s->fwd, NAV_FFT_CB_SPECTRUM_SYMBOL, nav_fft_cb_spectrum_fatbin,
                                          nav_fft_cb_spectrum_fatbin_size, stc, info));
    NAV_TRY_CUFFT(cufftXtSetJITCallback(s->inv, NAV_FFT_CB_STORE_SYMBOL, nav_fft_cb_store_fatbin,
                                        nav_fft_cb_store_fatbin_size, str, info));
  }
  if (m[2] > 1) {
    NAV_TRY_CUFFT(cufftMakePlan3d(s->fwd, m[2], m[1], m[0], NAV_CUFFT_R2C, wf));
    NAV_TRY_CUFFT(cufftMakePlan3d(s->inv, m[2], m[1], m[0], NAV_CUFFT_C2R, wi));
  } else {
    NAV_TRY_CUFFT(cufftMakePlan2d(s->fwd, m[1], m[0], NAV_CUFFT_R2C, wf));
    NAV_TRY_CUFFT(cufftMakePlan2d(s->inv, m[1], m[0], NAV_CUFFT_C2R, wi));
  }
  return CUFFT_SUCCESS;
}

/* The callbacks' default: on in double precision, off in single, where cuFFT's plans with callbacks measured
 * slower than the five passes (docs/performance.md). */
#ifdef NAV_SINGLE_PRECISION
#define NAV_FFT_CALLBACKS_DEFAULT 0
#else
#define NAV_FFT_CALLBACKS_DEFAULT 1
#endif

/* Plan the box once (even[d]: direction d is a cosine or sine one, reordered by nav_fft_even_to). The gather and
 * the scatter as cuFFT callbacks (fft_callbacks.cu), and with every direction periodic the division too: two
 * passes instead of five (an even direction: three, the block kernel between the transforms), if
 * NAV_FFT_CALLBACKS (0 or 1, default NAV_FFT_CALLBACKS_DEFAULT) says so, unless the box has 2^32 points or more
 * (the callbacks split offsets in 32 bits), or cuFFT refuses them (setting them or planning with them fails: no
 * nvJitLink or NVRTC at run time, CUFFT_NOT_SUPPORTED, ...; a note on stderr): then plans without callbacks and
 * the kernels of nav_fft_box_cuda. */
static nav_err nav_fft_box_setup(nav_cuda_fft_box *s, const int m[3], const int even[3]) {
  const nav_idx points = (nav_idx)m[0] * m[1] * m[2], half = (nav_idx)(m[0] / 2 + 1) * m[1] * m[2];
  size_t wf = 0, wi = 0;
  const char *what = "";
  cufftResult r = CUFFT_NOT_SUPPORTED;
  if (points <= (nav_idx)0xffffffffu && nav_profile_switch("NAV_FFT_CALLBACKS", NAV_FFT_CALLBACKS_DEFAULT)) {
    NAV_CALL(nav_alloc_cuda((void **)&s->info, sizeof *s->info));
    s->cb.m0 = nav_fft_divmod_make((unsigned)m[0]);
    s->cb.m1 = nav_fft_divmod_make((unsigned)m[1]);
    s->cb.h0 = nav_fft_divmod_make((unsigned)(m[0] / 2 + 1));
    s->cb.m2 = m[2];
    s->cb.e0 = even[0], s->cb.e1 = even[1], s->cb.e2 = even[2];
    r = nav_fft_box_plans(s, m, 1, &wf, &wi, &what);
    if (r != CUFFT_SUCCESS) {
      fprintf(stderr, "navier: note: fft_box: no cuFFT callbacks (%s: cuFFT error %d), the box runs in five passes\n",
              what, (int)r);
      nav_fft_box_unplan(s);
      nav_free_cuda(s->info);
      s->info = NULL;
    }
  }
  if (r != CUFFT_SUCCESS) {
    wf = wi = 0;
    r = nav_fft_box_plans(s, m, 0, &wf, &wi, &what);
    NAV_CHECK(r == CUFFT_SUCCESS, NAV_ERR_BACKEND, "%s failed: cuFFT error %d", what, (int)r);
  }
  s->work = wf > wi ? wf : wi;
  NAV_CALL(nav_fft_grow((void **)&nav_fft_cbuf, &nav_fft_clen, (size_t)half * 2 * sizeof(nav_real)));
  NAV_CALL(nav_fft_grow(&nav_fft_work, &nav_fft_wlen, s->work > 0 ? s->work : 1));
  return NAV_OK;
}

nav_err nav_fft_box_cuda(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                         const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                         const nav_idx st[3], nav_real *scratch, void **state) {
  nav_cuda_fft_box *s = (nav_cuda_fft_box *)*state;
  const int e0 = tw[0] != NULL, e1 = tw[1] != NULL, e2 = tw[2] != NULL;
  if (!s) {
    s = (nav_cuda_fft_box *)calloc(1, sizeof *s);
    NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate a cuFFT plan");
    *state = s;
    const int even[3] = {e0, e1, e2};
    NAV_CALL(nav_fft_box_setup(s, m, even));
  }
  if (s->info) { /* the callbacks read b and write x; scratch is the plans' nominal input and output */
    nav_fft_cb_info h = s->cb;
    h.b = b, h.x = x, h.off = off, h.s0 = st[0], h.s1 = st[1], h.s2 = st[2];
    h.l0 = lam[0], h.l1 = lam[1], h.l2 = lam[2], h.scale = scale;
    nav_fft_box_info_kernel<<<1, 1, 0, nav_cuda_stream>>>(h, bsum, volume, s->info);
    NAV_CUDA_LAUNCHED("nav_fft_box_info_kernel");
    NAV_CALL(nav_fft_real_transform(s->fwd, 1, scratch));
    if (e0 || e1 || e2) NAV_CALL(nav_fft_box_spectrum(m, tw, lam, scale)); /* else the forward plan's callback */
    return nav_fft_real_transform(s->inv, 0, scratch);
  }
  NAV_CALL(nav_fft_box_copy(1, m, e0, e1, e2, b, off, st, scratch, bsum, volume));
  NAV_CALL(nav_fft_real_transform(s->fwd, 1, scratch));
  NAV_CALL(nav_fft_box_spectrum(m, tw, lam, scale));
  NAV_CALL(nav_fft_real_transform(s->inv, 0, scratch));
  return nav_fft_box_copy(0, m, e0, e1, e2, x, off, st, scratch, NULL, 0);
}

void nav_fft_box_free_cuda(void *state) {
  nav_cuda_fft_box *s = (nav_cuda_fft_box *)state;
  if (!s) return;
  nav_fft_box_unplan(s);
  if (s->cp) nav_free_cuda(s->cp);
  if (s->e) nav_free_cuda(s->e);
  if (s->info) nav_free_cuda(s->info);
  free(s);
}

/* ---- slabs (nav_fft_slab; nav_point_fft.h "slabs") -------------------------------------------
 * The line steps' entry loops are unrolled (NAV_FOR_ENTRY: constant trip count, a guard), so their
 * per-entry arrays stay in registers. The kernels are templates on the entries per block NS, 4 (3D) or 2
 * (2D), and the components per entry NQ (nav_fft_slab's ns and nq), written as literals into their copy
 * of the descriptor, so that the guards fold too; each instance gets its own register count (one kernel
 * branching to the four would take the largest's: the real lines, nq = 1, need 118 and 106 registers in
 * the ends and solve kernels against 140 and 128, so 4 blocks of 128 threads fit an SM instead of 3 in the
 * ends kernel). NAV_SLAB_LAUNCH starts the instance for sl. */
#define NAV_SLAB_LAUNCH(kernel, sl, blocks, ...)                                                      \
  do {                                                                                               \
    const nav_fft_slab &l_ = (sl);                                                                   \
    if (l_.ns == 4 && l_.nq == 1)                                                                    \
      kernel<4, 1><<<(blocks), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(l_, __VA_ARGS__);           \
    else if (l_.ns == 4)                                                                             \
      kernel<4, 2><<<(blocks), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(l_, __VA_ARGS__);           \
    else if (l_.nq == 1)                                                                             \
      kernel<2, 1><<<(blocks), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(l_, __VA_ARGS__);           \
    else                                                                                             \
      kernel<2, 2><<<(blocks), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(l_, __VA_ARGS__);           \
    NAV_CUDA_LAUNCHED(#kernel);                                                                      \
  } while (0)

/* one thread per (representative, chunk), the representatives fastest (their loads coalesce) */
template <int NS, int NQ> __global__ void nav_fft_slab_coefficients_kernel(nav_fft_slab sl, nav_real *cp) {
  const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= sl.reps * sl.chunks) return;
  sl.ns = NS, sl.nq = NQ;
  nav_fft_slab_coefficients(&sl, t % sl.reps, t / sl.reps, cp);
}

/* The sweeps read through the shared-memory ring of nav_fft_slab_reader: blocks of NAV_FFT_SLAB_THREADS. */
template <int NS, int NQ>
__global__ void __launch_bounds__(NAV_FFT_SLAB_THREADS) nav_fft_slab_ends_kernel(nav_fft_slab sl, const nav_real *c,
                                                                               nav_real *e) {
  __shared__ nav_real ring[NAV_FFT_SLAB_RING];
  const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= sl.reps * sl.chunks) return;
  sl.ns = NS, sl.nq = NQ;
  nav_fft_slab_ends(&sl, c, t % sl.reps, t / sl.reps, e, ring);
}

template <int NS, int NQ>
__global__ void __launch_bounds__(NAV_FFT_SLAB_THREADS) nav_fft_slab_solve_kernel(nav_fft_slab sl, const nav_real *e,
                                                                                nav_real *c, const nav_real *cp) {
  __shared__ nav_real ring[NAV_FFT_SLAB_RING];
  const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= sl.reps * sl.chunks) return;
  sl.ns = NS, sl.nq = NQ;
  nav_fft_slab_solve(&sl, e, c, cp, t % sl.reps, t / sl.reps, ring);
}

/* one block of 256 threads: Gw = sum_z u_z dc_z and the sum of b dV after the rank's ends ("the mean") */
__global__ void __launch_bounds__(256) nav_fft_slab_sums_kernel(nav_fft_slab sl, const nav_real *c, const double *bsum,
                                                                nav_real *ends) {
  __shared__ double part[256];
  double gw = 0;
  for (int z = (int)threadIdx.x; z < sl.m[sl.dim - 1]; z += 256) gw += sl.mean_u[z] * nav_fft_slab_dc(&sl, c, z);
  part[threadIdx.x] = gw;
  __syncthreads();
  for (int h = 128; h > 0; h /= 2) {
    if ((int)threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    nav_real *sums = ends + nav_fft_slab_part(&sl) - NAV_FFT_SLAB_SUMS;
    sums[0] = (nav_real)part[0];
    sums[1] = bsum ? (nav_real)*bsum : 0;
  }
}

/* one thread per (representative, entry) */
__global__ void nav_fft_slab_compose_kernel(nav_fft_slab sl, const nav_real *e, nav_real *ends) {
  const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= sl.reps * sl.ns) return;
  const nav_idx stride = (nav_idx)sl.reps * sl.ns * NAV_FFT_SLAB_ENDS;
  nav_fft_slab_compose(e + (nav_idx)t * NAV_FFT_SLAB_ENDS, stride, sl.chunks, ends + (nav_idx)t * NAV_FFT_SLAB_ENDS);
}

__global__ void nav_fft_slab_chunk_xy_kernel(nav_fft_slab sl, const nav_real *all, nav_real *e) {
  const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= sl.reps * sl.ns) return;
  nav_fft_slab_chunk_xy(&sl, all, e, t / sl.ns, t % sl.ns);
}

/* The box's reordering copy (nav_fft_box_copy) over the slab's plane directions: gather b into scratch, or
 * scatter scratch into x. */
static nav_err nav_fft_slab_copy(int gather, const nav_fft_slab *sl, const nav_real *box, nav_idx off,
                                 const nav_idx st[3], nav_real *scratch) {
  int e[3];
  nav_fft_slab_even(sl, e);
  return nav_fft_box_copy(gather, sl->m, e[0], e[1], e[2], box, off, st, scratch, NULL, 0);
}

static unsigned nav_fft_slab_blocks(int threads) {
  return (unsigned)((threads + NAV_FFT_SLAB_THREADS - 1) / NAV_FFT_SLAB_THREADS);
}

nav_err nav_fft_slab_forward_cuda(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                                  const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state) {
  nav_cuda_fft_box *s = (nav_cuda_fft_box *)*state;
  const int *m = sl->m, planes = m[sl->dim - 1], m1 = sl->dim == 3 ? m[1] : 1;
  const nav_idx half = (nav_idx)(m[0] / 2 + 1) * m1 * planes;
  if (!s) { /* cuFFT's dimensions are slowest first: (y, x) per plane, the planes batched */
    s = (nav_cuda_fft_box *)calloc(1, sizeof *s);
    NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate a cuFFT plan");
    *state = s;
    size_t wf = 0, wi = 0;
    int n[2] = {m1, m[0]};
    const int rank = sl->dim - 1;
    const char *what = "";
    const cufftResult r = nav_fft_box_handles(s, &what);
    NAV_CHECK(r == CUFFT_SUCCESS, NAV_ERR_BACKEND, "%s failed: cuFFT error %d", what, (int)r);
    NAV_CALL_CUFFT(cufftMakePlanMany(s->fwd, rank, n + 2 - rank, NULL, 1, 0, NULL, 1, 0, NAV_CUFFT_R2C, planes, &wf));
    NAV_CALL_CUFFT(cufftMakePlanMany(s->inv, rank, n + 2 - rank, NULL, 1, 0, NULL, 1, 0, NAV_CUFFT_C2R, planes, &wi));
    s->work = wf > wi ? wf : wi;
    NAV_CALL(nav_fft_grow((void **)&nav_fft_cbuf, &nav_fft_clen, (size_t)half * 2 * sizeof(nav_real)));
    NAV_CALL(nav_fft_grow(&nav_fft_work, &nav_fft_wlen, s->work > 0 ? s->work : 1));
    NAV_CALL(nav_alloc_cuda((void **)&s->cp, (size_t)sl->reps * sl->ns * planes * sizeof(nav_real)));
    NAV_CALL(nav_alloc_cuda((void **)&s->e,
                            (size_t)sl->chunks * sl->reps * sl->ns * NAV_FFT_SLAB_ENDS * sizeof(nav_real)));
    NAV_SLAB_LAUNCH(nav_fft_slab_coefficients_kernel, *sl, nav_fft_slab_blocks(sl->reps * sl->chunks), s->cp);
  }
  NAV_CALL(nav_fft_slab_copy(1, sl, b, off, st, scratch));
  NAV_CALL(nav_fft_real_transform(s->fwd, 1, scratch));
  NAV_SLAB_LAUNCH(nav_fft_slab_ends_kernel, *sl, nav_fft_slab_blocks(sl->reps * sl->chunks), nav_fft_cbuf, s->e);
  nav_fft_slab_compose_kernel<<<nav_fft_slab_blocks(sl->reps * sl->ns), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(
      *sl, s->e, ends);
  NAV_CUDA_LAUNCHED("nav_fft_slab_compose_kernel");
  if (sl->mean_u) {
    nav_fft_slab_sums_kernel<<<1, 256, 0, nav_cuda_stream>>>(*sl, nav_fft_cbuf, bsum, ends);
    NAV_CUDA_LAUNCHED("nav_fft_slab_sums_kernel");
  }
  return NAV_OK;
}

nav_err nav_fft_slab_inverse_cuda(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                                  const nav_idx st[3], nav_real *scratch, void **state) {
  nav_cuda_fft_box *s = (nav_cuda_fft_box *)*state;
  NAV_CHECK(s, NAV_ERR_INTERNAL, "fft_slab_inverse before fft_slab_forward");
  nav_fft_slab_chunk_xy_kernel<<<nav_fft_slab_blocks(sl->reps * sl->ns), NAV_FFT_SLAB_THREADS, 0, nav_cuda_stream>>>(
      *sl, all, s->e);
  NAV_CUDA_LAUNCHED("nav_fft_slab_chunk_xy_kernel");
  NAV_SLAB_LAUNCH(nav_fft_slab_solve_kernel, *sl, nav_fft_slab_blocks(sl->reps * sl->chunks), s->e, nav_fft_cbuf,
                  s->cp);
  NAV_CALL(nav_fft_real_transform(s->inv, 0, scratch));
  return nav_fft_slab_copy(0, sl, x, off, st, scratch);
}

/* ---- lines (nav_fft_lines) -------------------------------------------------------------------
 * The planes across tri of the dense copy of b in one batched transform (cuFFT's advanced layout: plane p
 * at p ds_tri, its element (slower s, faster f) at s ds_s + f, f = x, ds the dense strides; read in place
 * from b's ghosted array instead, cuFFT refused the interior's first cell, 8 bytes off the 16 its kernels
 * need at 256 x 128 x 128: error 4 at execution), into the half spectrum in nav_fft_cbuf: complex line
 * q = s h + k (h = m0 / 2 + 1; H = h m_s lines), entry p at p H + q, so that neighbouring lines are
 * neighbours in memory. Its real and imaginary parts are two real
 * lines of stride 2 H: thread t solves real line t (nav_fft_thomas; c' in the state's work array), t and
 * t + 1 read neighbouring values. */
typedef struct nav_cuda_fft_lines {
  cufftHandle fwd, inv;
  int h, H;
  nav_real *cp; /* c' of every real line: 2 H m_tri values */
} nav_cuda_fft_lines;

/* the planes' directions: the faster (x) and the slower one (-1 in 2D) */
static int nav_fft_lines_slow(const nav_fft_lines *ln) { return ln->dim == 2 ? -1 : ln->tri == 1 ? 2 : 1; }

/* the descriptor's values as scalars (a struct indexed at run time would live in local memory) */
__global__ void nav_fft_lines_kernel(int N, int h, int H, const nav_real *lx, const nav_real *ls, const nav_real *a,
                                     const nav_real *b, const nav_real *cc, int singular, nav_real *c, nav_real *cp) {
  const nav_idx t = blockIdx.x * (nav_idx)blockDim.x + threadIdx.x;
  if (t >= 2 * (nav_idx)H) return;
  const int q = (int)(t / 2), k = q % h, ks = q / h;
  const nav_real s = lx[k] + (ls ? ls[ks] : 0);
  nav_fft_thomas(N, t, 2 * (nav_idx)H, c, cp, a, b, cc, s, singular);
}

/* The zero line (real parts at 2 p H): before the solve (MEAN false) its right-hand side moved by the planes'
 * share of b's shift, n (-*bsum / volume) with n the cells of a plane; after it (MEAN true) its w-weighted mean
 * subtracted (one block; the sum in double). */
template <bool MEAN>
__global__ void __launch_bounds__(256) nav_fft_lines_zero_kernel(int N, int H, double plane, const nav_real *w,
                                                                 double wsum, double volume, const double *bsum,
                                                                 nav_real *c) {
  __shared__ double part[256];
  __shared__ nav_real move;
  const int tid = (int)threadIdx.x;
  const nav_idx stride = 2 * (nav_idx)H;
  if (MEAN) {
    double sum = 0;
    for (int p = tid; p < N; p += 256) sum += (double)w[p] * c[p * stride];
    part[tid] = sum;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
      if (tid < half) part[tid] += part[tid + half];
      __syncthreads();
    }
    if (tid == 0) move = (nav_real)(-part[0] / wsum);
  } else if (tid == 0) {
    move = (nav_real)plane * (nav_real)(-*bsum / volume);
  }
  __syncthreads();
  for (int p = tid; p < N; p += 256) c[p * stride] += move;
}

nav_err nav_fft_lines_cuda(const nav_fft_lines *ln, const nav_real *b, const double *bsum, nav_real *x, nav_idx off,
                           const nav_idx st[3], nav_real *scratch, void **state) {
  NAV_CHECK(ln->tri == 1 || (ln->tri == 2 && ln->dim == 3), NAV_ERR_INTERNAL, "fft_lines: lines along x");
  nav_cuda_fft_lines *s = (nav_cuda_fft_lines *)*state;
  const int slow = nav_fft_lines_slow(ln), N = ln->m[ln->tri];
  const nav_idx ds[3] = {1, ln->m[0], (nav_idx)ln->m[0] * ln->m[1]}; /* the dense strides */
  if (!s) { /* cuFFT's dimensions are slowest first: (slow, x), or x alone in 2D; batched over tri */
    s = (nav_cuda_fft_lines *)calloc(1, sizeof *s);
    NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate a cuFFT plan");
    *state = s;
    const int ms = slow >= 0 ? ln->m[slow] : 1, rank = slow >= 0 ? 2 : 1;
    s->h = ln->m[0] / 2 + 1;
    s->H = s->h * ms;
    int n[2] = {ms, ln->m[0]}, real[2] = {ms, slow >= 0 ? (int)ds[slow] : ln->m[0]}, half[2] = {ms, s->h};
    int *nn = n + 2 - rank, *rn = real + 2 - rank, *hn = half + 2 - rank;
    const int rdist = (int)ds[ln->tri];
    size_t wf = 0, wi = 0;
    NAV_CALL_CUFFT(cufftCreate(&s->fwd));
    NAV_CALL_CUFFT(cufftCreate(&s->inv));
    NAV_CALL_CUFFT(cufftSetAutoAllocation(s->fwd, 0));
    NAV_CALL_CUFFT(cufftSetAutoAllocation(s->inv, 0));
    NAV_CALL_CUFFT(cufftMakePlanMany(s->fwd, rank, nn, rn, 1, rdist, hn, 1, s->H, NAV_CUFFT_R2C, N, &wf));
    NAV_CALL_CUFFT(cufftMakePlanMany(s->inv, rank, nn, hn, 1, s->H, rn, 1, rdist, NAV_CUFFT_C2R, N, &wi));
    const size_t work = wf > wi ? wf : wi, values = (size_t)2 * s->H * N;
    NAV_CALL(nav_fft_grow((void **)&nav_fft_cbuf, &nav_fft_clen, values * sizeof(nav_real)));
    NAV_CALL(nav_fft_grow(&nav_fft_work, &nav_fft_wlen, work > 0 ? work : 1));
    NAV_CALL(nav_alloc_cuda((void **)&s->cp, values * sizeof(nav_real)));
  }
  NAV_CALL(nav_copy_box_cuda(ln->m, b, off, st, scratch, 0, ds));
  NAV_CALL(nav_fft_real_transform(s->fwd, 1, scratch));
  const double plane = (double)ln->m[0] * ln->m[1] * ln->m[2] / N; /* cells of a plane */
  if (ln->singular && bsum) {
    nav_fft_lines_zero_kernel<false><<<1, 256, 0, nav_cuda_stream>>>(N, s->H, plane, ln->w, ln->wsum, ln->volume, bsum,
                                                                     nav_fft_cbuf);
    NAV_CUDA_LAUNCHED("nav_fft_lines_zero_kernel");
  }
  nav_fft_lines_kernel<<<nav_fft_blocks(2 * (nav_idx)s->H), 256, 0, nav_cuda_stream>>>(
      N, s->h, s->H, ln->lam[0], slow >= 0 ? ln->lam[slow] : NULL, ln->a, ln->b, ln->c, ln->singular, nav_fft_cbuf,
      s->cp);
  NAV_CUDA_LAUNCHED("nav_fft_lines_kernel");
  if (ln->singular) {
    nav_fft_lines_zero_kernel<true><<<1, 256, 0, nav_cuda_stream>>>(N, s->H, plane, ln->w, ln->wsum, ln->volume, NULL,
                                                                    nav_fft_cbuf);
    NAV_CUDA_LAUNCHED("nav_fft_lines_zero_kernel");
  }
  NAV_CALL(nav_fft_real_transform(s->inv, 0, scratch));
  return nav_copy_box_cuda(ln->m, scratch, 0, ds, x, off, st);
}

void nav_fft_lines_free_cuda(void *state) {
  nav_cuda_fft_lines *s = (nav_cuda_fft_lines *)state;
  if (!s) return;
  cufftDestroy(s->fwd);
  cufftDestroy(s->inv);
  if (s->cp) nav_free_cuda(s->cp);
  free(s);
}

/* The FFT table of this backend (registered in backend/nav_backend.c); entries in the order of
 * struct nav_fft_kernels (C++ designated initializers must follow it). */
extern "C" const nav_fft_kernels nav_fft_kernels_cuda = {
    .copy_box = nav_copy_box_cuda,
    .fft_plan = nav_fft_plan_cuda,
    .fft_execute = nav_fft_execute_cuda,
    .fft_plan_free = nav_fft_plan_free_cuda,
    .matrix_plan = nav_matrix_plan_cuda,
    .matrix_apply = nav_matrix_apply_cuda,
    .matrix_plan_free = nav_matrix_plan_free_cuda,
    .fft_divide = nav_fft_divide_cuda,
    .fft_tridiag = nav_fft_tridiag_cuda,
    .fft_box = nav_fft_box_cuda,
    .fft_box_free = nav_fft_box_free_cuda,
    .fft_slab_forward = nav_fft_slab_forward_cuda,
    .fft_slab_inverse = nav_fft_slab_inverse_cuda,
    .fft_lines = nav_fft_lines_cuda,
    .fft_lines_free = nav_fft_lines_free_cuda,
};
