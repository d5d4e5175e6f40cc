/* CPU backend of the FFT Poisson solver: FFTW's real-to-real transforms (guru interface, one plan
 * per direction and layout, every line of the dense array at once, threaded like the OpenMP loops),
 * the spectral division and the tridiagonal line solves (nav_point_fft.h), and the strided box copy
 * of the transposes. Without FFTW (NAV_HAVE_FFTW undefined) only the copies and solves are built
 * and fft_plan is NULL: the solver reports that the build has no FFT. */
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_fft.h"
#include "core/nav_error.h"
#include "backend/cpu/cpu_kernels.h"

#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef NAV_HAVE_FFTW
#include <fftw3.h>
#ifdef NAV_SINGLE_PRECISION
#define NAV_FFTW(name) fftwf_##name
#else
#define NAV_FFTW(name) fftw_##name
#endif

/* FFTW_ESTIMATE: planning by FFTW_MEASURE took 33 s at 128^3 (2 loaded cores) for a solve that
 * is at most a few tens of per cent faster; the flow creates its solver once per run, tests many. */
#define NAV_FFTW_FLAGS FFTW_ESTIMATE

static const NAV_FFTW(r2r_kind) nav_fftw_kinds[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01,
                                                    FFTW_REDFT11, FFTW_RODFT11, FFTW_R2HC,    FFTW_HC2R};

nav_err nav_fft_plan_cpu(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan) {
  static int threads_ready = 0;
  if (!threads_ready) { /* FFTW's threads follow OpenMP's (fftw3_omp) */
#ifdef _OPENMP
    NAV_FFTW(init_threads)();
#endif
    threads_ready = 1;
  }
#ifdef _OPENMP
  const long cells = (long)m[0] * m[1] * m[2];
  NAV_FFTW(plan_with_nthreads)(cells >= 8192 ? omp_get_max_threads() : 1);
#endif
  const nav_idx st[3] = {1, m[0], (nav_idx)m[0] * m[1]};
  NAV_FFTW(iodim64) len = {m[dir], st[dir], st[dir]}, batch[2];
  int nb = 0;
  for (int d = 0; d < 3; d++)
    if (d != dir && m[d] > 1) batch[nb++] = (NAV_FFTW(iodim64)){m[d], st[d], st[d]};
  NAV_FFTW(r2r_kind) k = nav_fftw_kinds[kind];
  *plan = NAV_FFTW(plan_guru64_r2r)(1, &len, nb, batch, data, data, &k, NAV_FFTW_FLAGS);
  NAV_CHECK(*plan, NAV_ERR_INTERNAL, "FFTW cannot plan a transform of %d x %d x %d along %d", m[0], m[1], m[2], dir);
  return NAV_OK;
}

nav_err nav_fft_execute_cpu(void *plan, nav_real *data) {
  NAV_FFTW(execute_r2r)((NAV_FFTW(plan))plan, data, data);
  return NAV_OK;
}

void nav_fft_plan_free_cpu(void *plan) {
  if (plan) NAV_FFTW(destroy_plan)((NAV_FFTW(plan))plan);
}

/* The copy of b (ghosts: first cell at off, strides st) into the dense scratch with the even
 * directions (e[d]) reordered (nav_point_fft.h), plus shift. */
static void nav_fftw_gather(const int m[3], const int e[3], const nav_real *b, nav_idx off, const nav_idx st[3],
                            nav_real *scratch, nav_real shift) {
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < m[2]; k++)
    for (int j = 0; j < m[1]; j++) {
      const nav_real *src = b + off + nav_fft_even_from(e[1], j, m[1]) * st[1] + nav_fft_even_from(e[2], k, m[2]) * st[2];
      nav_real *row = scratch + (long)m[0] * (j + (long)m[1] * k);
      for (int i = 0; i < m[0]; i++) row[i] = src[nav_fft_even_from(e[0], i, m[0]) * st[0]] + shift;
    }
}

/* The reordering undone: x (off, st) from the dense scratch. */
static void nav_fftw_scatter(const int m[3], const int e[3], const nav_real *scratch, nav_real *x, nav_idx off,
                             const nav_idx st[3]) {
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < m[2]; k++)
    for (int j = 0; j < m[1]; j++) {
      const nav_real *row = scratch + (long)m[0] * (nav_fft_even_to(e[1], j, m[1]) + (long)m[1] * nav_fft_even_to(e[2], k, m[2]));
      nav_real *dst = x + off + j * st[1] + k * st[2];
      for (int i = 0; i < m[0]; i++) dst[i * st[0]] = row[nav_fft_even_to(e[0], i, m[0])];
    }
}

/* The whole box (periodic or even directions, nav_point_fft.h): the reordered copy of b, one
 * multi-dimensional r2c transform, the block step per representative (k0 <= m0/2, k1 <= m1/2,
 * k2 <= m2/2), the c2r transform back, the reordering undone into x. */
typedef struct nav_fftw_box {
  NAV_FFTW(plan) fwd, inv;
  NAV_FFTW(complex) *c;
  nav_real *cp; /* slabs: the lines' c' (nav_fft_slab_coefficients) */
  nav_real *e;  /* slabs: the chunks' ends (nav_fft_slab_ends) */
} nav_fftw_box;

nav_err nav_fft_box_cpu(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                        const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                        const nav_idx st[3], nav_real *scratch, void **state) {
  nav_fftw_box *s = (nav_fftw_box *)*state;
  const long half = (long)(m[0] / 2 + 1) * m[1] * m[2];
  if (!s) { /* FFTW's dimensions are slowest first: (z, y, x) */
    s = calloc(1, sizeof *s);
    NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate an FFTW plan");
    *state = s;
    s->c = NAV_FFTW(alloc_complex)((size_t)half);
    NAV_CHECK(s->c, NAV_ERR_MEMORY, "cannot allocate the FFT half spectrum");
#ifdef _OPENMP
    NAV_FFTW(plan_with_nthreads)(half >= 4096 ? omp_get_max_threads() : 1);
#endif
    const int rank = m[2] > 1 ? 3 : 2, dims[3] = {m[2], m[1], m[0]};
    s->fwd = NAV_FFTW(plan_dft_r2c)(rank, dims + 3 - rank, scratch, s->c, NAV_FFTW_FLAGS);
    s->inv = NAV_FFTW(plan_dft_c2r)(rank, dims + 3 - rank, s->c, scratch, NAV_FFTW_FLAGS);
    NAV_CHECK(s->fwd && s->inv, NAV_ERR_INTERNAL, "FFTW cannot plan a box of %d x %d x %d", m[0], m[1], m[2]);
  }
  const int e[3] = {tw[0] != NULL, tw[1] != NULL, tw[2] != NULL};
  nav_fftw_gather(m, e, b, off, st, scratch, bsum ? (nav_real)(-*bsum / volume) : 0); /* the mean of b removed */
  NAV_FFTW(execute_dft_r2c)(s->fwd, scratch, s->c);
  nav_real *c = (nav_real *)s->c;
  const int r0 = m[0] / 2 + 1, r1 = m[1] / 2 + 1, r2 = m[2] / 2 + 1;
#pragma omp parallel for collapse(2) schedule(static) if (half >= 8192)
  for (int k2 = 0; k2 < r2; k2++)
    for (int k1 = 0; k1 < r1; k1++)
      for (int k0 = 0; k0 < r0; k0++) {
        const int kk[3] = {k0, k1, k2};
        nav_real blk[8][2];
        nav_fft_block_get(c, m, kk, blk, 8);
        nav_fft_block_solve(blk, m, kk, tw, lam, scale);
        nav_fft_block_put(c, m, kk, blk, 8);
      }
  NAV_FFTW(execute_dft_c2r)(s->inv, s->c, scratch);
  nav_fftw_scatter(m, e, scratch, x, off, st);
  return NAV_OK;
}

void nav_fft_box_free_cpu(void *state) {
  nav_fftw_box *s = (nav_fftw_box *)state;
  if (!s) return;
  NAV_FFTW(destroy_plan)(s->fwd);
  NAV_FFTW(destroy_plan)(s->inv);
  NAV_FFTW(free)(s->c);
  free(s->cp);
  free(s->e);
  free(s);
}

/* Slabs (nav_fft_slab): the box's copy and transforms over the plane directions, one plane after
 * the other (FFTW's howmany), and the line steps of nav_point_fft.h per representative. */
nav_err nav_fft_slab_forward_cpu(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                                 const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state) {
  nav_fftw_box *s = (nav_fftw_box *)*state;
  const int *m = sl->m, planes = m[sl->dim - 1], h0 = m[0] / 2 + 1, m1 = sl->dim == 3 ? m[1] : 1;
  const long half = (long)h0 * m1 * planes;
  if (!s) {
    s = calloc(1, sizeof *s);
    NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate an FFTW plan");
    *state = s;
    s->c = NAV_FFTW(alloc_complex)((size_t)half);
    s->cp = malloc((size_t)sl->reps * sl->ns * planes * sizeof(nav_real));
    s->e = malloc((size_t)sl->chunks * sl->reps * sl->ns * NAV_FFT_SLAB_ENDS * sizeof(nav_real));
    NAV_CHECK(s->c && s->cp && s->e, NAV_ERR_MEMORY, "cannot allocate the FFT half spectrum");
#ifdef _OPENMP
    NAV_FFTW(plan_with_nthreads)(half >= 4096 ? omp_get_max_threads() : 1);
#endif
    const int rank = sl->dim - 1, dims[2] = {m1, m[0]}, rdist = m[0] * m1, cdist = h0 * m1;
    s->fwd = NAV_FFTW(plan_many_dft_r2c)(rank, dims + 2 - rank, planes, scratch, NULL, 1, rdist, s->c, NULL, 1, cdist,
                                         NAV_FFTW_FLAGS);
    s->inv = NAV_FFTW(plan_many_dft_c2r)(rank, dims + 2 - rank, planes, s->c, NULL, 1, cdist, scratch, NULL, 1, rdist,
                                         NAV_FFTW_FLAGS);
    NAV_CHECK(s->fwd && s->inv, NAV_ERR_INTERNAL, "FFTW cannot plan %d planes of %d x %d", planes, m[0], m1);
#pragma omp parallel for collapse(2) schedule(static) if (sl->reps >= 256)
    for (int h = 0; h < sl->chunks; h++)
      for (int rep = 0; rep < sl->reps; rep++) nav_fft_slab_coefficients(sl, rep, h, s->cp);
  }
  int e[3];
  nav_fft_slab_even(sl, e);
  nav_fftw_gather(m, e, b, off, st, scratch, 0);
  NAV_FFTW(execute_dft_r2c)(s->fwd, scratch, s->c);
  const nav_real *c = (const nav_real *)s->c;
  const nav_idx stride = (nav_idx)sl->reps * sl->ns * NAV_FFT_SLAB_ENDS;
#pragma omp parallel for collapse(2) schedule(static) if (sl->reps >= 256)
  for (int h = 0; h < sl->chunks; h++)
    for (int rep = 0; rep < sl->reps; rep++) nav_fft_slab_ends(sl, c, rep, h, s->e, NULL);
#pragma omp parallel for collapse(2) schedule(static) if (sl->reps >= 256)
  for (int rep = 0; rep < sl->reps; rep++)
    for (int q = 0; q < sl->ns; q++)
      nav_fft_slab_compose(s->e + nav_fft_slab_at(sl, 0, rep, q), stride, sl->chunks,
                           ends + ((nav_idx)rep * sl->ns + q) * NAV_FFT_SLAB_ENDS);
  if (sl->mean_u) { /* Gw and the sum of b dV ("the mean") */
    double gw = 0;
    for (int z = 0; z < planes; z++) gw += sl->mean_u[z] * nav_fft_slab_dc(sl, c, z);
    nav_real *sums = ends + nav_fft_slab_part(sl) - NAV_FFT_SLAB_SUMS;
    sums[0] = (nav_real)gw;
    sums[1] = bsum ? (nav_real)*bsum : 0;
  }
  return NAV_OK;
}

nav_err nav_fft_slab_inverse_cpu(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                                 const nav_idx st[3], nav_real *scratch, void **state) {
  nav_fftw_box *s = (nav_fftw_box *)*state;
  NAV_CHECK(s, NAV_ERR_INTERNAL, "fft_slab_inverse before fft_slab_forward");
  nav_real *c = (nav_real *)s->c;
#pragma omp parallel for collapse(2) schedule(static) if (sl->reps >= 256)
  for (int rep = 0; rep < sl->reps; rep++)
    for (int q = 0; q < sl->ns; q++) nav_fft_slab_chunk_xy(sl, all, s->e, rep, q);
#pragma omp parallel for collapse(2) schedule(static) if (sl->reps >= 256)
  for (int h = 0; h < sl->chunks; h++)
    for (int rep = 0; rep < sl->reps; rep++) nav_fft_slab_solve(sl, s->e, c, s->cp, rep, h, NULL);
  NAV_FFTW(execute_dft_c2r)(s->inv, s->c, scratch);
  int e[3];
  nav_fft_slab_even(sl, e);
  nav_fftw_scatter(sl->m, e, scratch, x, off, st);
  return NAV_OK;
}
#endif

nav_err nav_copy_box_cpu(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                         nav_idx doff, const nav_idx dst_st[3]) {
  const long cells = (long)cnt[0] * cnt[1] * cnt[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++) {
      const nav_real *s = src + soff + j * sst[1] + k * sst[2];
      nav_real *t = dst + doff + j * dst_st[1] + k * dst_st[2];
      if (sst[0] == 1 && dst_st[0] == 1)
        memcpy(t, s, (size_t)cnt[0] * sizeof(nav_real));
      else
        for (int i = 0; i < cnt[0]; i++) t[i * dst_st[0]] = s[i * sst[0]];
    }
  return NAV_OK;
}

nav_err nav_fft_divide_cpu(const int m[3], const nav_real *const lam[3], nav_real *data) {
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < m[2]; k++)
    for (int j = 0; j < m[1]; j++) {
      const nav_real s = lam[1][j] + (lam[2] ? lam[2][k] : 0);
      nav_real *row = data + (nav_idx)m[0] * (j + (nav_idx)m[1] * k);
      for (int i = 0; i < m[0]; i++) row[i] = nav_fft_divide(row[i], lam[0][i] + s);
    }
  return NAV_OK;
}

nav_err nav_fft_tridiag_cpu(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a,
                            const nav_real *b, const nav_real *c, int singular, nav_real *data, nav_real *work) {
  const nav_idx st[3] = {1, m[0], (nav_idx)m[0] * m[1]};
  const int e = dir == 0 ? 1 : 0, f = dir == 2 ? 1 : 2; /* the other two directions */
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int jf = 0; jf < m[f]; jf++)
    for (int je = 0; je < m[e]; je++) {
      const nav_real s = lam[e][je] + (lam[f] ? lam[f][jf] : 0);
      nav_fft_thomas(m[dir], je * st[e] + jf * st[f], st[dir], data, work, a, b, c, s, singular);
    }
  return NAV_OK;
}

#ifdef NAV_HAVE_LAPACK
/* The dense transform of a stretched direction (matrix_plan): y = A x along dir as one BLAS gemm
 * per chunk of lines, the chunks split over the OpenMP threads (reference BLAS is serial), into one
 * scratch array shared by every plan (grown to the largest; plans run one at a time, as the CUDA
 * backend's), copied back. The
 * dense array seen column-major: dir = 0, an N x (m1 m2) matrix X, Y = A X; dir > 0, per slice of
 * the directions above dir an R x N matrix X (R = the product of the counts below dir), Y = X A^T.
 * The row-major A read column-major is A^T, hence the transpose flags. */
#ifdef NAV_SINGLE_PRECISION
#define NAV_GEMM sgemm_
#else
#define NAV_GEMM dgemm_
#endif
void NAV_GEMM(const char *ta, const char *tb, const int *m, const int *n, const int *k, const nav_real *alpha,
              const nav_real *a, const int *lda, const nav_real *b, const int *ldb, const nav_real *beta, nav_real *c,
              const int *ldc, size_t lta, size_t ltb);

typedef struct nav_cpu_matrix_plan {
  int m[3], dir;
  nav_real *A; /* the matrix (row-major) */
} nav_cpu_matrix_plan;

static nav_real *nav_matrix_scratch = NULL;
static size_t nav_matrix_scratch_len = 0; /* values */

nav_err nav_matrix_plan_cpu(const int m[3], int dir, const double *A, void **out) {
  nav_cpu_matrix_plan *p = calloc(1, sizeof *p);
  NAV_CHECK(p, NAV_ERR_MEMORY, "cannot allocate a dense transform plan");
  *out = p;
  const size_t N = (size_t)m[dir], cells = (size_t)m[0] * m[1] * m[2];
  p->A = malloc(N * N * sizeof(nav_real));
  NAV_CHECK(p->A, NAV_ERR_MEMORY, "cannot allocate a dense transform of %zu x %zu", N, N);
  if (cells > nav_matrix_scratch_len) {
    free(nav_matrix_scratch);
    nav_matrix_scratch = malloc(cells * sizeof(nav_real));
    nav_matrix_scratch_len = nav_matrix_scratch ? cells : 0;
    NAV_CHECK(nav_matrix_scratch, NAV_ERR_MEMORY, "cannot allocate the dense transforms' scratch (%zu values)", cells);
  }
  for (size_t q = 0; q < N * N; q++) p->A[q] = (nav_real)A[q];
  memcpy(p->m, m, sizeof p->m);
  p->dir = dir;
  return NAV_OK;
}

nav_err nav_matrix_apply_cpu(void *plan, nav_real *x) {
  const nav_cpu_matrix_plan *p = plan;
  const int N = p->m[p->dir];
  const nav_real one = 1, zero = 0;
  nav_real *const y = nav_matrix_scratch;
  const long rows = p->dir == 0 ? 1 : p->dir == 1 ? p->m[0] : (long)p->m[0] * p->m[1];
  const long lines = (long)p->m[0] * p->m[1] * p->m[2] / N, slices = p->dir == 0 ? 1 : lines / rows;
  /* chunks: of the columns (dir 0) or of the rows of each slice (dir > 0) */
  const long free_len = p->dir == 0 ? lines : rows;
  int nt = 1;
#ifdef _OPENMP
  if (lines * N >= 8192) nt = omp_get_max_threads();
#endif
  const long chunk = (free_len + nt - 1) / nt;
#pragma omp parallel for collapse(2) num_threads(nt) schedule(static)
  for (long s = 0; s < slices; s++)
    for (int t = 0; t < nt; t++) {
      const long lo = t * chunk, n = free_len - lo < chunk ? free_len - lo : chunk;
      if (n <= 0) continue;
      const int ni = (int)n, ld = (int)rows;
      if (p->dir == 0) {
        NAV_GEMM("T", "N", &N, &ni, &N, &one, p->A, &N, x + lo * N, &N, &zero, y + lo * N, &N, 1, 1);
      } else {
        const long base = s * rows * N + lo;
        NAV_GEMM("N", "N", &ni, &N, &N, &one, x + base, &ld, p->A, &N, &zero, y + base, &ld, 1, 1);
      }
    }
  memcpy(x, y, (size_t)lines * N * sizeof(nav_real));
  return NAV_OK;
}

void nav_matrix_plan_free_cpu(void *plan) {
  nav_cpu_matrix_plan *p = plan;
  if (!p) return;
  free(p->A);
  free(p);
}
#endif

/* The FFT table of this backend (registered in backend/nav_backend.c). */
const nav_fft_kernels nav_fft_kernels_cpu = {
    .copy_box = nav_copy_box_cpu,
#ifdef NAV_HAVE_FFTW
    .fft_plan = nav_fft_plan_cpu,
    .fft_execute = nav_fft_execute_cpu,
    .fft_plan_free = nav_fft_plan_free_cpu,
    .fft_box = nav_fft_box_cpu,
    .fft_box_free = nav_fft_box_free_cpu,
    .fft_slab_forward = nav_fft_slab_forward_cpu,
    .fft_slab_inverse = nav_fft_slab_inverse_cpu,
#endif
#ifdef NAV_HAVE_LAPACK
    .matrix_plan = nav_matrix_plan_cpu,
    .matrix_apply = nav_matrix_apply_cpu,
    .matrix_plan_free = nav_matrix_plan_free_cpu,
#endif
    .fft_divide = nav_fft_divide_cpu,
    .fft_tridiag = nav_fft_tridiag_cpu,
};
