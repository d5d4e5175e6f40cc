/* The kernels of the FFT Poisson solver (solvers/poisson/fft.c, nav_point_fft.h): transforms, their
 * plans, the dense copies and the diagonal and tridiagonal solves in the spectrum.
 * A table of its own beside the core table (nav_kernels.h): implemented by backend/cpu/fft.c and
 * backend/cuda/fft.cu, registered in backend/nav_backend.c, found with nav_fft_kernels_of. fft_plan is
 * NULL where the backend was built without an FFT library. Dense arrays: x fastest, m[0] x m[1] x m[2]
 * values (m[2] = 1 in 2D). Conventions as in nav_kernels.h (backend memory, local results). */
#ifndef NAV_FFT_KERNELS_H
#define NAV_FFT_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The real-to-real transforms of the FFT Poisson solver along one direction (FFTW's r2r kinds and
 * their unnormalised definitions; "inverse" kinds undo the forward ones up to the factor 2N, or N
 * for the DFT): DCT2 = REDFT10 (Neumann faces), DCT3 = REDFT01 (its inverse), DST2 = RODFT10
 * (Dirichlet), DST3 = RODFT01, DCT4 = REDFT11 (Neumann low, Dirichlet high; its own inverse),
 * DST4 = RODFT11 (Dirichlet low, Neumann high), R2HC / HC2R (periodic: the DFT in halfcomplex
 * order, r_0 .. r_{N/2}, i_{(N+1)/2-1} .. i_1). */
typedef enum nav_fft_kind {
  NAV_FFT_DCT2,
  NAV_FFT_DCT3,
  NAV_FFT_DST2,
  NAV_FFT_DST3,
  NAV_FFT_DCT4,
  NAV_FFT_DST4,
  NAV_FFT_R2HC,
  NAV_FFT_HC2R
} nav_fft_kind;

/* The FFT solver's slabs (solvers/poisson/fft.c "slabs", nav_point_fft.h): the ranks split only the
 * last direction (dim - 1), every other direction is periodic or even and is transformed plane by
 * plane as the box is, and the last direction is solved by tridiagonal lines split over the ranks. */
typedef struct nav_fft_slab {
  int dim;                   /* 2 or 3 */
  int m[3];                  /* the rank's block (m[2] = 1 in 2D); at least 3 rows along dim - 1 */
  int z0;                    /* its first global row along dim - 1 */
  int P, me;                 /* the ranks along dim - 1, this one's place (0: the first rows) */
  int pin;                   /* two Neumann faces along dim - 1 and this rank holds the last row: the
                                lines of eigenvalue 0 (singular) are pinned to 0 there */
  const nav_real *tw[2];     /* plane directions: the box's twiddles (NULL: periodic) */
  const nav_real *lam[2];    /* their eigenvalues times S (lam[1] NULL in 2D) */
  const nav_real *a, *b, *c; /* the rows of L along dim - 1 times S, all N global rows */
  nav_real scale;            /* 2^(even plane directions) */
  int reps, ns;              /* representatives per plane, entries per block (2^(dim - 1)) */
  int nq;                    /* components of an entry's line: 1 where every plane direction is even (the X form
                                holds the real DCT coefficients: no imaginary part), else 2 (real, imaginary) */
  int chunks;                /* the rank's rows are cut into this many chunks of at least 3 rows */
  /* a singular problem (the lines pinned; nav_point_fft.h "the mean"), else NULL: */
  const nav_real *mean_u;  /* backend memory, the rank's rows: the weights of its sum of x dz, u = T_r^-T dz */
  const nav_real *mean_v1; /* backend memory, the rank's rows: the pinned line's response to ones */
  const nav_real *mean_pq; /* backend memory, 2 P values: each rank's Pw, Qw */
  double mean_w, mean_m1, mean_sigma; /* W = sum dz, M1 = sum v1 dz / W, n0 n1 / volume */
  double *mean;                       /* backend memory, 3 doubles: the ranks' sum of b dV, sigma, the constant c */
} nav_fft_slab;

/* The FFT solver's lines (solvers/poisson/fft.c "lines"): one rank, one stretched direction tri (y or z:
 * not x, whose lines are the contiguous ones) solved by tridiagonal lines, every other direction uniform
 * and periodic: the planes across tri in one batched real-to-complex transform, then complex lines. */
typedef struct nav_fft_lines {
  int dim, tri;              /* tri = 1 or 2 (y, or z in 3D) */
  int m[3];                  /* cells (m[2] = 1 in 2D) */
  const nav_real *lam[3];    /* the periodic directions' eigenvalues times S, by mode number (lam[tri] NULL) */
  const nav_real *a, *b, *c; /* the rows of L along tri times S (m[tri] values) */
  int singular;              /* two Neumann faces along tri: the zero line pinned, the means taken in it */
  const nav_real *w;         /* backend memory, m[tri] values: the cell widths along tri */
  double wsum;               /* their sum */
  double volume;             /* sum dV of the box */
} nav_fft_lines;

typedef struct nav_fft_kernels {
  /* the box of cnt points: dst[doff + i dst_st[0] + j dst_st[1] + k dst_st[2]] = src[soff + i sst[0] + ...];
   * src and dst do not overlap */
  nav_err (*copy_box)(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                      nav_idx doff, const nav_idx dst_st[3]);
  /* a plan of the transform `kind` along direction dir of every line of a dense m array, in place;
   * data is the array it will run on (planning may overwrite it) */
  nav_err (*fft_plan)(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan);
  nav_err (*fft_execute)(void *plan, nav_real *data);
  void (*fft_plan_free)(void *plan);
  /* optional (NULL: the build has no BLAS): the dense transform of a stretched direction (fft.c,
   * "two or three stretched directions"): a plan for direction dir of every line of a dense m array,
   * y_k = sum_i A[k][i] x_i with A the m[dir] x m[dir] matrix given as row-major host doubles (the
   * plan keeps its own copy in nav_real), applied in place as one matrix-matrix product (BLAS gemm,
   * cuBLAS on the GPU) */
  nav_err (*matrix_plan)(const int m[3], int dir, const double *A, void **plan);
  nav_err (*matrix_apply)(void *plan, nav_real *data);
  void (*matrix_plan_free)(void *plan);
  /* data = nav_fft_divide(data, lam[0][i] + lam[1][j] + lam[2][k]); lam[2] NULL in 2D */
  nav_err (*fft_divide)(const int m[3], const nav_real *const lam[3], nav_real *data);
  /* every line along dir: nav_fft_thomas with a, b, c (m[dir] values) and the shift of the other
   * directions' lam; lam[dir] is not read; work: a dense m array */
  nav_err (*fft_tridiag)(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a, const nav_real *b,
                         const nav_real *c, int singular, nav_real *data, nav_real *work);
  /* optional (NULL: the solver transforms direction by direction): one rank, every direction
   * periodic or even (two Neumann faces), the whole box in one multi-dimensional real-to-complex
   * transform (nav_point_fft.h, "the whole box"): plan once (*state NULL), then x = L^-1 b, b and x
   * with ghosts (first cell at off, strides st; they may be the same array), scratch a dense
   * m0 m1 m2 array. tw[d]: the twiddles of an even direction (NULL: periodic), lam[d] the
   * eigenvalues of nav_fft_direction (lam[2] NULL in 2D), scale = 2^(even directions); fft_box_free
   * releases the state. bsum (BACKEND memory, or NULL): the transform reads b + (nav_real)(-*bsum /
   * volume) instead of b, the mean of b removed on the way in (bsum = sum b dV, volume = sum dV; bit
   * for bit what shift of that value then fft_box give), b itself unchanged. */
  nav_err (*fft_box)(const int m[3], const nav_real *const tw[3], const nav_real *const lam[3], nav_real scale,
                     const nav_real *b, const double *bsum, double volume, nav_real *x, nav_idx off,
                     const nav_idx st[3], nav_real *scratch, void **state);
  void (*fft_box_free)(void *state);
  /* optional (NULL: the solver moves pencils): slabs (nav_fft_slab, nav_point_fft.h "slabs").
   * fft_slab_forward: plan once (*state NULL; fft_box_free releases it), b (ghosts: first cell at
   * off, strides st) reordered into scratch (a dense m array) and transformed plane by plane into
   * the state's half spectrum, then ends = the ends of this rank's lines and, where sl->mean_u, its
   * sums: Gw and this rank's sum of b dV (*bsum, backend memory; 0 where bsum is NULL: b compatible)
   * (nav_fft_slab_part values, backend memory). fft_slab_inverse: with all = every rank's ends (P such
   * arrays in the order of the ranks' rows), the rank's rows of the lines solved (a singular problem:
   * b's mean removed and x's, in the spectrum) and transformed back into x (off, st; it may be b). */
  nav_err (*fft_slab_forward)(const nav_fft_slab *sl, const nav_real *b, const double *bsum, nav_idx off,
                              const nav_idx st[3], nav_real *scratch, nav_real *ends, void **state);
  nav_err (*fft_slab_inverse)(const nav_fft_slab *sl, const nav_real *all, nav_real *x, nav_idx off,
                              const nav_idx st[3], nav_real *scratch, void **state);
  /* optional (NULL: the solver transforms direction by direction): lines (nav_fft_lines). x = L^-1 b (b and x:
   * first cell at off, strides st; they may be the same array; scratch a dense m array): b copied into
   * scratch, one batched real-to-complex transform of its planes across ln->tri, the tridiagonal solve of
   * each complex line (nav_fft_thomas on its real and imaginary parts) shifted by the planes' eigenvalues,
   * the inverse transform into scratch, copied into x. Where ln->singular, the zero line (the planes' sums) takes b's mean and x's: its
   * right-hand side moved by m_a m_b (-*bsum / volume) (the transform of the shift of b; bsum in backend
   * memory, or NULL: b as it is) before the pinned solve, and its w-weighted mean subtracted after it, so x
   * has zero mean; no pass over the field. Plan once (*state NULL); fft_lines_free releases it. */
  nav_err (*fft_lines)(const nav_fft_lines *ln, const nav_real *b, const double *bsum, nav_real *x, nav_idx off,
                       const nav_idx st[3], nav_real *scratch, void **state);
  void (*fft_lines_free)(void *state);
} nav_fft_kernels;

NAV_KERNEL_TABLE(nav_fft_kernels, "fft")

#ifdef __cplusplus
}
#endif

#endif
