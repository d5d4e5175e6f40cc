/* CPU (OpenMP) backend: the kernel implementations and the loop helper they share.
 * Mirrors backend/cuda file by file: memory, boundary, flow, poisson, vector. */
#ifndef NAV_CPU_KERNELS_H
#define NAV_CPU_KERNELS_H

#include "backend/common/nav_metric.h"
#include "backend/nav_fft_kernels.h"
#include "backend/nav_kernels.h"
#include "backend/nav_mg_kernels.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Linear index of local point (i,j,k). */
static inline nav_idx nav_cpu_index(const nav_box *b, int i, int j, int k) {
  return b->off + (nav_idx)i * b->st[0] + (nav_idx)j * b->st[1] + (nav_idx)k * b->st[2];
}

/* Fork threads only for blocks large enough to pay for it (coarse multigrid levels run on
 * the calling thread). */
/* Row buffer length of the red-black sweep. */
#define NAV_CPU_ROW 256

static inline int nav_cpu_threaded(const nav_box *b) { return b->ntot >= 8192; }

#define NAV_PRAGMA(x) _Pragma(#x)

/* Sums over the threads in a fixed order. OpenMP's reduction(+) adds the threads' partials in the order the
 * threads finish: with 3 threads or more (2 where the sum does not start at 0) the bits of a sum changed from run
 * to run, and through a channel's bulk velocity or the dot products of CG, the fields of a run. The kernels'
 * sums run their rows in `omp parallel num_threads(nav_cpu_sum_threads())` with `omp for schedule(static)`
 * (the same rows per thread every run), keep each thread's partials (nav_cpu_keep_partials) and add them thread
 * by thread (nav_cpu_add_partials): the bits depend on the thread count alone, and are the clause's where its
 * order was fixed (1 thread; 2 threads from 0). */
#define NAV_CPU_THREADS_MAX 256
static inline int nav_cpu_sum_threads(void) {
#ifdef _OPENMP
  const int t = omp_get_max_threads();
  return t < NAV_CPU_THREADS_MAX ? t : NAV_CPU_THREADS_MAX;
#else
  return 1;
#endif
}
/* In the region, after the thread's rows: its nv partials v into part[t nv + n] (t: the thread); the region's
 * thread count into *nt. part holds NAV_CPU_THREADS_MAX nv doubles. */
static inline void nav_cpu_keep_partials(double *part, int *nt, int nv, const double *v) {
#ifdef _OPENMP
  const int t = omp_get_thread_num();
  if (t == 0) *nt = omp_get_num_threads();
#else
  const int t = 0;
  *nt = 1;
#endif
  for (int n = 0; n < nv; n++)
    part[t * nv + n] = v[n];
}
/* After the region: s[n] += the partials of threads 0, 1, ..., nt - 1 in turn. */
static inline void nav_cpu_add_partials(const double *part, int nt, int nv, double *s) {
  for (int t = 0; t < nt; t++)
    for (int n = 0; n < nv; n++)
      s[n] += part[t * nv + n];
}
/* The interior cells (or faces) of BOX with p and ijk[] (as NAV_CPU_LOOP, on BOX itself; CLAUSE: more clauses of
 * the loop, a max reduction, or empty), whose BODY adds to the NV doubles ACC[] (each thread's, from 0); then
 * SUM[n] += the threads' ACC[n] in thread order. */
#define NAV_CPU_SUM_CELLS(BOX, CLAUSE, NV, ACC, SUM, BODY)                                                             \
  do {                                                                                                                 \
    double parts_[(NV)*NAV_CPU_THREADS_MAX];                                                                           \
    int nt_ = 1;                                                                                                       \
    NAV_PRAGMA(omp parallel if (nav_cpu_threaded(BOX)) num_threads(nav_cpu_sum_threads())) {                           \
      double ACC[NV] = {0};                                                                                            \
      NAV_CPU_ROWS(omp for collapse(2) schedule(static) CLAUSE, BOX, BOX, (BOX)->dim, 0, BODY)                         \
      nav_cpu_keep_partials(parts_, &nt_, NV, ACC);                                                                    \
    }                                                                                                                  \
    nav_cpu_add_partials(parts_, nt_, NV, SUM);                                                                        \
  } while (0)

/* A helper that must be inlined into each variant of a kernel (its local box's constants reach it only so). */
#if defined(__GNUC__)
#define NAV_CPU_INLINE inline __attribute__((always_inline))
#else
#define NAV_CPU_INLINE inline
#endif

/* A plain box for the CPU kernels: nav_box_plain (uniform, the plain Poisson operator) and, as a coarse level,
 * paired in every direction (no keep). nav_cpu_plain states these facts as constants in a local copy b of such a
 * box, so that the inlined point functions lose their metric loads and branches: the same operations on the same
 * values as with the box itself. */
static inline int nav_cpu_is_plain(const nav_box *b) {
  return nav_box_plain(b) && !b->keep[0] && !b->keep[1] && !b->keep[2];
}
static inline void nav_cpu_plain(nav_box *b) {
  b->uniform = 1;
  b->kc = NULL;
  b->sc = NULL;
  b->shift = 0;
  b->keep[0] = b->keep[1] = b->keep[2] = 0;
}

/* Loop over the interior cells (or faces) of BOX with ijk[], the linear index p and a local
 * box b whose dim is the compile-time constant DIM, so the inlined point functions lose their
 * dimension branches (and, with PLAIN = 1 on a plain box, their metric and Helmholtz branches:
 * nav_cpu_plain). CLAUSE adds OpenMP clauses (a reduction) or is empty. */
#define NAV_CPU_LOOP_DIM(BOX, DIM, CLAUSE, BODY) NAV_CPU_LOOP_KIND(BOX, BOX, DIM, 0, CLAUSE, BODY)
/* The same with a second box OTHER (the other level of a transfer) as the local copy o, of the same kind. */
#define NAV_CPU_LOOP_KIND(BOX, OTHER, DIM, PLAIN, CLAUSE, BODY)                                                        \
  NAV_CPU_ROWS(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(BOX)) CLAUSE, BOX, OTHER, DIM,  \
               PLAIN, BODY)
/* The rows (j, k) of NAV_CPU_LOOP_KIND under the OpenMP pragma HEAD. */
#define NAV_CPU_ROWS(HEAD, BOX, OTHER, DIM, PLAIN, BODY)                                                               \
  NAV_PRAGMA(HEAD)                                                                                                     \
  for (int k = 0; k < (BOX)->n[2]; k++)                                                                                \
    for (int j = 0; j < (BOX)->n[1]; j++) {                                                                            \
      nav_box b_local_ = *(BOX), o_local_ = *(OTHER);                                                                  \
      b_local_.dim = o_local_.dim = DIM;                                                                               \
      if (PLAIN) {                                                                                                     \
        nav_cpu_plain(&b_local_);                                                                                      \
        nav_cpu_plain(&o_local_);                                                                                      \
      }                                                                                                                \
      const nav_box *const b = &b_local_, *const o = &o_local_;                                                        \
      (void)o;                                                                                                         \
      int ijk[3] = {0, j, k};                                                                                          \
      nav_idx p = nav_cpu_index(b, 0, j, k);                                                                           \
      for (int i = 0; i < b->n[0]; i++, p++) {                                                                         \
        ijk[0] = i;                                                                                                    \
        BODY(void) ijk;                                                                                                \
      }                                                                                                                \
    }

#define NAV_CPU_LOOP(BOX, CLAUSE, BODY)                                                             \
  do {                                                                                              \
    if ((BOX)->dim == 2) {                                                                          \
      NAV_CPU_LOOP_DIM(BOX, 2, CLAUSE, BODY)                                                        \
    } else {                                                                                        \
      NAV_CPU_LOOP_DIM(BOX, 3, CLAUSE, BODY)                                                        \
    }                                                                                               \
  } while (0)

/* NAV_CPU_LOOP with the plain variants (nav_cpu_plain) where BOX and OTHER are plain (the Poisson kernels; o is
 * the local copy of OTHER, BOX itself where there is no other box). */
#define NAV_CPU_LOOP_POISSON(BOX, OTHER, CLAUSE, BODY)                                                                 \
  do {                                                                                                                 \
    NAV_CPU_POISSON_KINDS(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(BOX)) CLAUSE, BOX,   \
                          OTHER, BODY)                                                                                 \
  } while (0)
/* The variants of NAV_CPU_LOOP_POISSON, each under the pragma HEAD. */
#define NAV_CPU_POISSON_KINDS(HEAD, BOX, OTHER, BODY)                                                                  \
  const int plain_ = nav_cpu_is_plain(BOX) && nav_cpu_is_plain(OTHER);                                                 \
  if ((BOX)->dim == 2 && plain_) {                                                                                     \
    NAV_CPU_ROWS(HEAD, BOX, OTHER, 2, 1, BODY)                                                                         \
  } else if ((BOX)->dim == 2) {                                                                                        \
    NAV_CPU_ROWS(HEAD, BOX, OTHER, 2, 0, BODY)                                                                         \
  } else if (plain_) {                                                                                                 \
    NAV_CPU_ROWS(HEAD, BOX, OTHER, 3, 1, BODY)                                                                         \
  } else {                                                                                                             \
    NAV_CPU_ROWS(HEAD, BOX, OTHER, 3, 0, BODY)                                                                         \
  }
/* NAV_CPU_LOOP_POISSON on BOX alone whose BODY adds to the double ACC (each thread's, from 0); then *SUM += the
 * threads' ACC in thread order (nav_cpu_add_partials). */
#define NAV_CPU_SUM_POISSON(BOX, ACC, SUM, BODY)                                                                       \
  do {                                                                                                                 \
    double parts_[NAV_CPU_THREADS_MAX];                                                                                \
    int nt_ = 1;                                                                                                       \
    NAV_PRAGMA(omp parallel if (nav_cpu_threaded(BOX)) num_threads(nav_cpu_sum_threads())) {                           \
      double ACC = 0;                                                                                                  \
      NAV_CPU_POISSON_KINDS(omp for collapse(2) schedule(static), BOX, BOX, BODY)                                      \
      nav_cpu_keep_partials(parts_, &nt_, 1, &ACC);                                                                    \
    }                                                                                                                  \
    nav_cpu_add_partials(parts_, nt_, 1, SUM);                                                                         \
  } while (0)

nav_err nav_alloc_cpu(void **ptr, size_t bytes);
void nav_free_cpu(void *ptr);
nav_err nav_to_host_cpu(void *host, const void *src, size_t bytes);
nav_err nav_from_host_cpu(void *dst, const void *host, size_t bytes);
nav_err nav_copy_cpu(void *dst, const void *src, size_t bytes);
nav_err nav_sync_cpu(void);
void nav_memory_cpu(size_t *current, size_t *peak);

nav_err nav_set_cpu(const nav_box *b, nav_real *x, nav_real value);
nav_err nav_fill_ghost_dir_cpu(const nav_box *b, int dir, const nav_ghost_dir *g);
nav_err nav_fill_ghosts_cpu(const nav_box *b, nav_real *x, const nav_ghost_faces *g);
nav_err nav_fill_ghost_cpu(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                           nav_real beta);
nav_err nav_pack_face_cpu(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf);
nav_err nav_unpack_face_cpu(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf);
nav_err nav_copy_faces_cpu(const nav_box *b, nav_real *const *x, int nf, int dir, const int layer[2],
                           nav_real *const buf[2], int pack);

nav_err nav_momentum_rhs_cpu(const nav_box *b, nav_real *const *u, nav_real nu, nav_real *const *rhs);
nav_err nav_advance_cpu(const nav_box *b, nav_real *const *u, nav_real *const *rhs, nav_real *const *rhs_old,
                          nav_real a, nav_real c);
nav_err nav_momentum_advance_cpu(const nav_box *b, nav_real *const *u, nav_real nu, nav_real a, nav_real c,
                                 nav_real *const *rhs, nav_real *const *rhs_old);
nav_err nav_divergence_cpu(const nav_box *b, nav_real *const *u, nav_real scale, nav_real *div, double *max_abs,
                           double *sum);
nav_err nav_correct_cpu(const nav_box *b, nav_real *const *u, const nav_real *p, nav_real scale);
nav_err nav_time_rates_cpu(const nav_box *b, nav_real *const *u, const nav_real *nut, double *adv_max,
                           double *diff_max, double *nut_max);
nav_err nav_kinetic_energy_cpu(const nav_box *b, nav_real *const *u, double *sum);


nav_err nav_laplacian_cpu(const nav_box *b, const nav_real *x, nav_real *y);
nav_err nav_residual_cpu(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr);
nav_err nav_inverse_diagonal_cpu(const nav_box *b, nav_real *inv_diag);
nav_err nav_relax_first_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                            nav_real omega);
nav_err nav_relax_colour_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                             nav_real omega);
nav_err nav_relax_pair_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int first,
                           nav_real omega);
nav_err nav_relax_line_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                           int colour, const int kind[2], nav_real omega);
nav_err nav_line_solve_cpu(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                           int dir, int colour, const int kind[2], int mode, nav_real *ends);
nav_err nav_line_update_cpu(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                            const nav_real *coef, int dir, int colour, nav_real omega);
nav_err nav_jacobi_cpu(const nav_box *b, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                       nav_real *x_new, nav_real omega);
nav_err nav_diag_scale_cpu(const nav_box *b, const nav_real *inv_diag, const nav_real *r, nav_real *z);
nav_err nav_restrict_residual_cpu(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs);
nav_err nav_prolong_add_cpu(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x);
nav_err nav_residual_restrict_cpu(const nav_box *fine, const nav_real *x, const nav_real *rhs_f, const nav_box *coarse,
                                  nav_real *rhs);

nav_err nav_axpby_cpu(const nav_box *b, nav_real a, const nav_real *x, nav_real beta, nav_real *y);
nav_err nav_extrapolate_cpu(const nav_box *b, nav_real r, nav_real *x, nav_real *x_old);
nav_err nav_dot_cpu(const nav_box *b, const nav_real *x, const nav_real *y, double *sum);
nav_err nav_sum_cpu(const nav_box *b, const nav_real *x, double *sum);
nav_err nav_shift_cpu(const nav_box *b, nav_real *x, nav_real value);
nav_err nav_dense_copy_cpu(const nav_box *b, nav_real *x, double *dense, int to_box);
nav_err nav_max_abs_diff_cpu(const nav_box *b, const nav_real *x, const nav_real *y, double *max_diff, double *max_x,
                             int *bad);

/* open.c */
nav_err nav_face_integral_cpu(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                              const int *what, double *sums);
nav_err nav_face_integral_to_cpu(const nav_box *b, int dir, int n, const nav_real *const *x, const int *side,
                                 const int *what, double *const *out);
nav_err nav_face_sum_cpu(const nav_box *b, const nav_real *x, int c, double *sum);

/* fft.c: the FFT Poisson solver's kernels (FFTW plans only when built with it) */
nav_err nav_copy_box_cpu(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                         nav_idx doff, const nav_idx dst_st[3]);
nav_err nav_fft_plan_cpu(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan);
nav_err nav_fft_execute_cpu(void *plan, nav_real *data);
void nav_fft_plan_free_cpu(void *plan);
nav_err nav_matrix_plan_cpu(const int m[3], int dir, const double *A, void **plan);
nav_err nav_matrix_apply_cpu(void *plan, nav_real *data);
void nav_matrix_plan_free_cpu(void *plan);
nav_err nav_fft_box_cpu(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                        const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                        const nav_idx st[3], nav_real *scratch, void **state);
void nav_fft_box_free_cpu(void *state);
nav_err nav_fft_slab_forward_cpu(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                                 const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state);
nav_err nav_fft_slab_inverse_cpu(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                                 const nav_idx st[3], nav_real *scratch, void **state);
nav_err nav_fft_divide_cpu(const int m[3], const nav_real *const lam[3], nav_real *data);
nav_err nav_fft_tridiag_cpu(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a,
                            const nav_real *b, const nav_real *c, int singular, nav_real *data, nav_real *work);

#endif
