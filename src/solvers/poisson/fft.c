/* FFT-based direct solver of the cell-centred Poisson equation (nav_point_poisson.h), as in CaNS
 * (Costa 2018) and the classic fast Poisson solvers (Schumann & Sweet 1988).
 *
 * The operator is separable, L = sum_d L_d, and on a direction with uniform width h the 1D
 * operator L_d with its two faces is diagonalised by the staggered real-to-real transform that
 * matches its ghost rules (Neumann: mirror, Dirichlet: negative mirror, periodic: wrap):
 *   faces           forward / inverse        eigenvalue of index k (k = 0..N-1), times 4/h^2 ...
 *   Neumann-Neumann DCT-II / DCT-III         -sin^2(pi k / 2N)
 *   Dirichlet-Dir.  DST-II / DST-III         -sin^2(pi (k+1) / 2N)
 *   Neumann-Dir.    DCT-IV / DCT-IV          -sin^2(pi (2k+1) / 4N)
 *   Dirichlet-Neu.  DST-IV / DST-IV          -sin^2(pi (2k+1) / 4N)
 *   periodic        DFT (halfcomplex order)  -sin^2(pi kappa / N), kappa = k (k <= N/2), N - k
 * (unnormalised transforms: forward then inverse multiplies by 2N, or N for the DFT; the
 * eigenvalues are multiplied by the product S of these factors instead of scaling the data).
 * Every uniform direction is transformed; the eigenvalues add up, and the spectral solution is
 * bhat / (lam_x + lam_y + lam_z), zero for the zero mode of a problem without Dirichlet face.
 * One direction with non-uniform widths (not periodic; the longest one if there are several) is
 * not transformed: each of its lines solves the tridiagonal matrix of L_d (coefficients from the
 * widths exactly as in nav_laplacian, ghost rules folded into the first and last rows) shifted by
 * the other directions' eigenvalues (nav_point_fft.h). The result is the multigrid's discrete
 * solution up to round-off, in one pass.
 *
 * Two or three stretched directions (the 2D immersed-body grids: uniform near the body, stretched
 * toward the far field in x and y): every stretched direction but the tridiagonal one is
 * diagonalised by its own eigenvectors, the fast diagonalisation of Lynch, Rice & Thomas (1964).
 * L_d = V^-1 K with V = diag(w) and K symmetric tridiagonal (K = V L_d), so with
 * T = V^-1/2 K V^-1/2 = Q diag(lam) Q^T (LAPACK dstevr, Q orthogonal):
 *   L_d = E diag(lam) E^-1,   E = V^-1/2 Q (inverse transform),   E^-1 = Q^T V^1/2 (forward),
 * each applied to all lines at once as a dense matrix-matrix product (nav_fft_kernels.matrix_*: BLAS gemm,
 * cuBLAS): 2 N_d multiply-adds per cell and transform, against O(log N) for an FFT, but at the
 * speed of the GPU's matrix units and independent of the flow (no iteration count). With two
 * Neumann faces the eigenvalue of the constant (0 up to round-off) is set to exactly 0, so the
 * null-space rule above holds.
 *
 * Several ranks: the transforms need whole lines, so the data moves between layouts: the ranks'
 * blocks (the flow's decomposition), then a pencil along each direction in turn (whole along it,
 * the other directions split over a q1 x q2 rank grid, MPI_Dims_create; in 2D split over all the
 * ranks), transform (or tridiagonal solve) in each, and back. A move between two layouts is
 * general: every rank sends each rank the intersection of its box in the old layout with that
 * rank's box in the new one; its own part is copied directly. How the parts travel follows the
 * halo transport of the decomposition (grid/nav_transport.h): on the cpu backend and with
 * cuda-aware MPI one MPI_Alltoallv of the backend arrays; with nccl or cuda-ipc one exchange
 * device to device (nav_transport_exchange, ordered on the backend's stream with the pack and unpack
 * copies: no host round trip); with mpi on a device backend MPI_Alltoallv of host copies. Any
 * decomposition, even or uneven, is served; consecutive pencils share one split direction, so a
 * move exchanges only within rank rows.
 *
 * Slabs: where the ranks split only the last direction z (dim - 1, not periodic; blocks of at least
 * 3 rows in rank order) and every other direction is uniform and periodic or even, nothing moves.
 * Each rank transforms its planes as the one-rank box does (nav_fft_kernels.fft_slab_forward), and z, uniform
 * or stretched, is solved by tridiagonal lines split over the ranks with the partition method
 * (nav_point_fft.h "slabs"): each rank reduces its part of every line to its two ends, every rank
 * gets every rank's ends (one allgather of 8 values per line and rank, the path of the moves), and
 * each solves its rows with the neighbours' end values (nav_fft_kernels.fft_slab_inverse). The moves of the
 * pencils carried half of every GPU's field twice per solve (about a quarter of the 2-GPU cavity's
 * step at 256^3 per GPU, docs/performance.md); the ends are 8 values per line.
 *
 * Lines: on one rank, where the tridiagonal direction is y or z and every other direction is uniform and
 * periodic (the channel), the backend's fft_lines (nav_fft_kernels.h) transforms the planes across it in one
 * batched real-to-complex transform of a dense copy of b, and solves complex lines: no transposes, no pass per
 * direction. The mean of a singular problem is taken in the zero line,
 * as on the slabs (nav_fft_spectral_mean). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_fft.h"
#include "backend/nav_fft_kernels.h"
#include "core/nav_error.h"
#include "core/nav_profile.h"
#include "solvers/poisson/poisson_impl.h"

#define NAV_FFT_UNIFORM_RTOL 1e-10 /* widths equal to this relative tolerance count as uniform */
/* solver = auto takes the dense transform of a stretched direction of at most this many cells (4 N
 * multiply-adds per cell and solve; docs/performance.md: against the multigrid on the cylinder and
 * snake grids): the GPU's matrix units make it faster there up to 1704 (the snake) */
#define NAV_FFT_DENSE_AUTO_CPU 512
#define NAV_FFT_DENSE_AUTO_DEVICE 4096
#define NAV_FFT_SLAB_ROWS 32 /* rows per chunk of a slab's lines (nav_point_fft.h "slabs") */
/* the sweeps' threads (representatives x chunks) that the chunks stop at: the 2-GPU 512^3 cavity (66 049
 * representatives, 256 rows per rank) is as fast with 4 chunks as with 8, the 256^3-per-GPU one is best
 * with 8 (133 128 threads); figures in docs/performance.md */
#define NAV_FFT_SLAB_SWEEPS (1 << 18)
#define NAV_FFT_TRI_LINES_DEVICE 32768 /* fewer tridiagonal lines: dense on a device (nav_fft_tri_direction) */

/* How a move's parts travel between ranks (header). */
typedef enum nav_fft_path { NAV_FFT_MPI, NAV_FFT_HOST_STAGED, NAV_FFT_P2P } nav_fft_path;

typedef struct nav_fft_layout {
  int (*lo)[3], (*cnt)[3]; /* box of every rank: first global cell, cells */
} nav_fft_layout;

struct nav_fft {
  int dim, P, rank;
  nav_fft_path path;
  nav_p2p_msg *msgs;       /* NAV_FFT_P2P: room for a send and a receive per rank */
  const nav_transport *p2p; /* NAV_FFT_P2P: the halo transport (nccl, cuda-ipc) */
  int buf0_borrowed;       /* buf[0] is level 0's residual array (not freed here) */
  int box;                 /* one rank, every direction periodic or even (two Neumann faces), and the
                              backend has fft_box: one multi-dimensional transform (box_state) instead of
                              a plan per direction */
  void *box_state;
  nav_real *tw[3];         /* the box's twiddles of each even direction (nav_point_fft.h); NULL: periodic */
  nav_real box_scale;      /* 2^(even directions) */
  MPI_Comm comm;           /* MPI_COMM_NULL on one rank */
  int order[3];            /* directions in the order they are transformed; the tridiagonal one last */
  int tri;                 /* the direction solved by tridiagonal lines, or -1 */
  int tri_singular;        /* that direction has two Neumann faces */
  int dense[3];            /* the direction is transformed by its eigenvectors (matrix_plan;
                              mat_f, mat_i: the forward and inverse plans) */
  void *mat_f[3], *mat_i[3];
  nav_fft_kind fwd[3], inv[3];
  nav_fft_layout lay[4];   /* 0: the blocks, t = 1..dim: the pencil along order[t-1] */
  int same[4];             /* lay[t] is lay[t-1] (no move) */
  int buf_of[4];           /* buffer holding layout t */
  nav_real *buf[2], *work; /* dense arrays; work: tridiagonal scratch */
  nav_real *sbuf, *rbuf;   /* backend send/receive buffers of the moves */
  nav_real *hs, *hr;       /* host staging of sbuf/rbuf, or of the slabs' ends (device backends) */
  int *sc, *sd, *rc, *rd;  /* counts and displacements of one move */
  void *plan_f[3], *plan_i[3]; /* per transformed direction (index into order) */
  nav_real *lam[3];        /* eigenvalues (times S) of the last layout's local indices; NULL: none */
  nav_real *ta, *tb, *tc;  /* tridiagonal coefficients (times S) of direction tri */
  int slab;                /* slabs (header): sl, its state, and the lines' ends */
  nav_fft_slab sl;
  void *slab_state;
  nav_real *all;           /* every rank's ends, rank after rank; this rank's written there by fft_slab_forward */
  int nends;               /* values of one rank's ends and sums (nav_fft_slab_part) */
  double *rhs;             /* the slabs' and lines' mean: this rank's sum of b dV for a solve (nav_fft_rhs_sum) */
  int lines;               /* lines (header): ln, its state; ln_w the widths along tri */
  nav_fft_lines ln;
  void *lines_state;
  nav_real *ln_w;
};

static int nav_fft_uniform(const double *w, int n) {
  for (int i = 1; i < n; i++)
    if (fabs(w[i] - w[0]) > NAV_FFT_UNIFORM_RTOL * w[0]) return 0;
  return 1;
}

#ifdef NAV_HAVE_LAPACK
static const int nav_fft_have_lapack = 1;
#else
static const int nav_fft_have_lapack = 0;
#endif

/* The direction left to tridiagonal lines: the longest stretched one (the others cost 2 N_d per
 * cell as dense transforms), -1 if every direction is uniform; also -1 (every stretched direction
 * dense) on a device backend where that direction, of at most NAV_FFT_DENSE_AUTO_DEVICE cells,
 * would have fewer than NAV_FFT_TRI_LINES_DEVICE lines: the line solve is a thread per line, and
 * a few thousand sequential lines leave the GPU idle (the snake's 1704 lines of 1704 cells). */
static int nav_fft_tri_direction(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3]) {
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  int tri = -1;
  for (int d = 0; d < dim; d++)
    if (!nav_fft_uniform(w[d], n[d]) && (tri < 0 || n[d] > n[tri])) tri = d;
  const long lines = tri < 0 ? 0 : (long)n[0] * n[1] * (dim == 3 ? n[2] : 1) / n[tri];
  if (tri >= 0 && ops != &nav_kernel_ops_cpu && lines < NAV_FFT_TRI_LINES_DEVICE &&
      n[tri] <= NAV_FFT_DENSE_AUTO_DEVICE && nav_fft_have_lapack && fk->matrix_plan)
    tri = -1;
  return tri;
}

int nav_fft_applies(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3],
                    const nav_scalar_bc bc[3][2], char *why, int size) {
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  if (!fk->fft_plan) {
    snprintf(why, (size_t)size, "the %s backend of this build has no FFT library (%s)", ops->name,
             strcmp(ops->name, "cpu") ? "cuFFT missing" : "FFTW was not found at configure: install libfftw3-dev");
    return 0;
  }
  const int tri = nav_fft_tri_direction(ops, dim, n, w);
  for (int d = 0; d < dim; d++) {
    if (nav_fft_uniform(w[d], n[d])) continue;
    if (bc[d][0] == NAV_SCALAR_PERIODIC) {
      snprintf(why, (size_t)size,
               "the periodic direction %c has non-uniform spacing: the FFT solver's stretched directions must not be "
               "periodic (use solver = mg or auto)",
               "xyz"[d]);
      return 0;
    }
    if (d != tri && !(nav_fft_have_lapack && fk->matrix_plan)) {
      snprintf(why, (size_t)size,
               "the spacing of %c and of %c is not uniform: a second stretched direction needs LAPACK (%s) for its "
               "dense transform (use solver = mg or auto)",
               "xyz"[d], "xyz"[tri],
               nav_fft_have_lapack ? "and BLAS in this backend" : "not found at configure: install liblapack-dev");
      return 0;
    }
  }
  return 1;
}

int nav_fft_dense_cheap(const nav_kernel_ops *ops, int dim, const int n[3], double *const w[3]) {
  const int tri = nav_fft_tri_direction(ops, dim, n, w);
  const int limit = ops == &nav_kernel_ops_cpu ? NAV_FFT_DENSE_AUTO_CPU : NAV_FFT_DENSE_AUTO_DEVICE;
  for (int d = 0; d < dim; d++)
    if (d != tri && !nav_fft_uniform(w[d], n[d]) && n[d] > limit) return 0;
  return 1;
}

/* Box of rank r in the pencil along d: the other directions split as in the header. */
static void nav_fft_pencil_box(int dim, const int N[3], int P, int d, int r, int lo[3], int cnt[3]) {
  int q[2] = {0, 0}, c[2], o[2], no = 0;
  if (dim == 2) {
    q[0] = P;
    c[0] = r;
  } else {
    MPI_Dims_create(P, 2, q);
    c[0] = r % q[0];
    c[1] = r / q[0];
  }
  for (int e = 0; e < dim; e++)
    if (e != d) o[no++] = e;
  for (int e = 0; e < 3; e++) {
    lo[e] = 0;
    cnt[e] = N[e];
  }
  for (int i = 0; i < no; i++) {
    const int e = o[i], base = N[e] / q[i], rem = N[e] % q[i];
    lo[e] = c[i] * base + (c[i] < rem ? c[i] : rem);
    cnt[e] = base + (c[i] < rem);
  }
}

static nav_err nav_fft_layout_alloc(nav_fft_layout *l, int P) {
  l->lo = calloc((size_t)P, sizeof *l->lo);
  l->cnt = calloc((size_t)P, sizeof *l->cnt);
  NAV_CHECK(l->lo && l->cnt, NAV_ERR_MEMORY, "cannot allocate the FFT layouts");
  return NAV_OK;
}

static int nav_fft_layout_equal(const nav_fft_layout *a, const nav_fft_layout *b, int P) {
  return !memcmp(a->lo, b->lo, (size_t)P * sizeof *a->lo) && !memcmp(a->cnt, b->cnt, (size_t)P * sizeof *a->cnt);
}

static long nav_fft_cells(const int c[3]) { return (long)c[0] * c[1] * c[2]; }

/* Intersection of boxes (alo, acnt) and (blo, bcnt): its first cell and counts; returns its cells. */
static long nav_fft_overlap(const int alo[3], const int acnt[3], const int blo[3], const int bcnt[3], int lo[3],
                            int cnt[3]) {
  for (int d = 0; d < 3; d++) {
    lo[d] = alo[d] > blo[d] ? alo[d] : blo[d];
    const int hi = (alo[d] + acnt[d] < blo[d] + bcnt[d]) ? alo[d] + acnt[d] : blo[d] + bcnt[d];
    cnt[d] = hi > lo[d] ? hi - lo[d] : 0;
  }
  return nav_fft_cells(cnt);
}

/* The way the moves travel for ops over dc (header): the halo transport's. */
static nav_fft_path nav_fft_path_of(const nav_kernel_ops *ops, const nav_decomp *dc) {
  const nav_transport *tr = dc->transport;
  if (ops == &nav_kernel_ops_cpu || (tr && tr->kind == NAV_TRANSPORT_CUDA_AWARE)) return NAV_FFT_MPI;
  if (nav_transport_direct(tr)) return NAV_FFT_P2P;
  return NAV_FFT_HOST_STAGED;
}

/* 1 if the solver runs on slabs over dc (header): ranks along the last direction only, in rank
 * order, at least 3 rows each, that direction not periodic, the others uniform and periodic or even. */
static int nav_fft_slab_fits(const nav_kernel_ops *ops, const nav_decomp *dc, double *const w[3],
                             const nav_scalar_bc bc[3][2]) {
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  const int s = dc->dim - 1;
  const char *one = getenv("NAV_FFT_SLABS"); /* "1": slabs on one rank too (measurements: against the box) */
  if ((dc->size < 2 && !(one && !strcmp(one, "1"))) || !fk->fft_slab_forward || dc->p[s] != dc->size ||
      bc[s][0] == NAV_SCALAR_PERIODIC)
    return 0;
  for (int d = 0; d < s; d++)
    if (!nav_fft_uniform(w[d], dc->N[d]) ||
        !(bc[d][0] == NAV_SCALAR_PERIODIC || (bc[d][0] == NAV_SCALAR_NEUMANN && bc[d][1] == NAV_SCALAR_NEUMANN)))
      return 0;
  for (int r = 0, next = 0; r < dc->size; r++) {
    int n[3], g0[3];
    nav_decomp_block(dc, r, n, g0);
    if (n[s] < 3 || g0[s] != next) return 0;
    next += n[s];
  }
  return 1;
}

int nav_fft_host_staged(const nav_kernel_ops *ops, const nav_decomp *dc, double *const w[3],
                        const nav_scalar_bc bc[3][2]) {
  return dc && dc->size > 1 && nav_fft_path_of(ops, dc) == NAV_FFT_HOST_STAGED && !nav_fft_slab_fits(ops, dc, w, bc);
}

/* Offset in a dense box (first cell blo, strides st) of global cell lo. */
static nav_idx nav_fft_offset(const int lo[3], const int blo[3], const nav_idx st[3]) {
  return (lo[0] - blo[0]) + st[1] * (lo[1] - blo[1]) + st[2] * (lo[2] - blo[2]);
}

/* Move the data from layout a (array src) to layout b (array dst). Collective. */
static nav_err nav_fft_move_parts(nav_psolver *ps, const nav_fft_layout *a, const nav_real *src,
                                  const nav_fft_layout *b, nav_real *dst) {
  nav_fft *f = ps->fft;
  const nav_kernel_ops *ops = ps->ops;
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  const int me = f->rank, *ac = a->cnt[me], *bc = b->cnt[me];
  const nav_idx ast[3] = {1, ac[0], (nav_idx)ac[0] * ac[1]}, bst[3] = {1, bc[0], (nav_idx)bc[0] * bc[1]};
  int lo[3], cnt[3], ns = 0, nr = 0;
  if (nav_fft_overlap(a->lo[me], ac, b->lo[me], bc, lo, cnt)) /* my own part, directly */
    NAV_CALL(
        fk->copy_box(cnt, src, nav_fft_offset(lo, a->lo[me], ast), ast, dst, nav_fft_offset(lo, b->lo[me], bst), bst));
  for (int r = 0; r < f->P; r++) { /* pack what rank r gets from me */
    f->sd[r] = ns;
    f->sc[r] = r == me ? 0 : (int)nav_fft_overlap(a->lo[me], ac, b->lo[r], b->cnt[r], lo, cnt);
    if (f->sc[r]) {
      const nav_idx dst_st[3] = {1, cnt[0], (nav_idx)cnt[0] * cnt[1]};
      NAV_CALL(fk->copy_box(cnt, src, nav_fft_offset(lo, a->lo[me], ast), ast, f->sbuf, ns, dst_st));
    }
    ns += f->sc[r];
    f->rd[r] = nr;
    f->rc[r] = r == me ? 0 : (int)nav_fft_overlap(a->lo[r], a->cnt[r], b->lo[me], bc, lo, cnt);
    nr += f->rc[r];
  }
  const MPI_Datatype type = sizeof(nav_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
  if (f->path == NAV_FFT_P2P) {
    int n = 0;
    for (int r = 0; r < f->P; r++) {
      if (f->sc[r]) f->msgs[n++] = (nav_p2p_msg){f->sbuf + f->sd[r], (size_t)f->sc[r], r, 1};
      if (f->rc[r]) f->msgs[n++] = (nav_p2p_msg){f->rbuf + f->rd[r], (size_t)f->rc[r], r, 0};
    }
    NAV_CALL(nav_transport_exchange(f->p2p, f->msgs, n));
  } else if (f->path == NAV_FFT_HOST_STAGED) {
    NAV_CALL(ops->to_host(f->hs, f->sbuf, (size_t)ns * sizeof(nav_real)));
    NAV_CHECK(MPI_Alltoallv(f->hs, f->sc, f->sd, type, f->hr, f->rc, f->rd, type, f->comm) == MPI_SUCCESS, NAV_ERR_MPI,
              "MPI_Alltoallv of the FFT transpose failed");
    NAV_CALL(ops->from_host(f->rbuf, f->hr, (size_t)nr * sizeof(nav_real)));
  } else {
    NAV_CALL(ops->sync()); /* cuda-aware MPI reads the packed device buffer: the copies first */
    NAV_CHECK(MPI_Alltoallv(f->sbuf, f->sc, f->sd, type, f->rbuf, f->rc, f->rd, type, f->comm) == MPI_SUCCESS,
              NAV_ERR_MPI, "MPI_Alltoallv of the FFT transpose failed");
  }
  for (int r = 0; r < f->P; r++) { /* unpack what rank r sent me */
    if (!f->rc[r]) continue;
    nav_fft_overlap(a->lo[r], a->cnt[r], b->lo[me], bc, lo, cnt);
    const nav_idx sst[3] = {1, cnt[0], (nav_idx)cnt[0] * cnt[1]};
    NAV_CALL(fk->copy_box(cnt, f->rbuf, f->rd[r], sst, dst, nav_fft_offset(lo, b->lo[me], bst), bst));
  }
  return NAV_OK;
}

/* The same, charged to the profile's halo phase (`navier run --profile`: the exchanges between ranks). */
static nav_err nav_fft_move(nav_psolver *ps, const nav_fft_layout *a, const nav_real *src, const nav_fft_layout *b,
                            nav_real *dst) {
  const nav_profile_phase host = nav_profile_enter(NAV_PHASE_HALO);
  nav_profile_work(NAV_PHASE_HALO);
  const nav_err e = nav_fft_move_parts(ps, a, src, b, dst);
  nav_profile_enter(host);
  return e;
}

/* Transforms and eigenvalues of direction d of N cells of width h with faces bc; lam (host, N
 * values) gets the eigenvalues times S / norm, *norm the factor of forward + inverse. */
static void nav_fft_direction(nav_scalar_bc lo, nav_scalar_bc hi, int N, double h, nav_fft_kind *fwd,
                              nav_fft_kind *inv, double *lam, double *norm) {
  const double pi = 3.14159265358979323846, c = -4 / (h * h);
  *norm = 2.0 * N;
  for (int k = 0; k < N; k++) {
    double t;
    if (lo == NAV_SCALAR_PERIODIC) {
      *fwd = NAV_FFT_R2HC, *inv = NAV_FFT_HC2R;
      *norm = N;
      t = pi * (k <= N / 2 ? k : N - k) / N;
    } else if (lo == NAV_SCALAR_NEUMANN && hi == NAV_SCALAR_NEUMANN) {
      *fwd = NAV_FFT_DCT2, *inv = NAV_FFT_DCT3;
      t = pi * k / (2.0 * N);
    } else if (lo == NAV_SCALAR_DIRICHLET && hi == NAV_SCALAR_DIRICHLET) {
      *fwd = NAV_FFT_DST2, *inv = NAV_FFT_DST3;
      t = pi * (k + 1) / (2.0 * N);
    } else {
      *fwd = *inv = lo == NAV_SCALAR_NEUMANN ? NAV_FFT_DCT4 : NAV_FFT_DST4;
      t = pi * (2 * k + 1) / (4.0 * N);
    }
    lam[k] = c * sin(t) * sin(t);
  }
}

/* The rows of L_d over the N cells of widths w (w[-1], w[N]: the ghost widths) with faces lo, hi:
 * a_i x_{i-1} + b_i x_i + c_i x_{i+1} (nav_laplacian's coefficients; the ghost rules folded into
 * b_0 and b_{N-1}, a_0 = c_{N-1} = 0). */
static void nav_fft_rows(const double *w, int N, nav_scalar_bc lo, nav_scalar_bc hi, double *a, double *b, double *c) {
  for (int i = 0; i < N; i++) {
    a[i] = 2 / ((w[i - 1] + w[i]) * w[i]);
    c[i] = 2 / ((w[i] + w[i + 1]) * w[i]);
    b[i] = -(a[i] + c[i]);
  }
  if (lo == NAV_SCALAR_DIRICHLET) b[0] -= a[0]; /* ghost = -x_0: -a (x_0 + x_0) */
  if (hi == NAV_SCALAR_DIRICHLET) b[N - 1] -= c[N - 1];
  if (lo == NAV_SCALAR_NEUMANN) b[0] += a[0]; /* ghost = x_0: no flux */
  if (hi == NAV_SCALAR_NEUMANN) b[N - 1] += c[N - 1];
  a[0] = c[N - 1] = 0;
}

#ifdef NAV_HAVE_LAPACK
void dstevr_(const char *jobz, const char *range, const int *n, double *d, double *e, const double *vl,
             const double *vu, const int *il, const int *iu, const double *abstol, int *m, double *w, double *z,
             const int *ldz, int *isuppz, double *work, const int *lwork, int *iwork, const int *liwork, int *info,
             size_t ljobz, size_t lrange);
#endif

/* The eigen-decomposition of L_d on a stretched direction (header: fast diagonalisation): lam (N
 * values, <= 0) and the row-major N x N matrices fwd = Q^T V^1/2 (fwd[k][i] = Q_ik sqrt(w_i)) and
 * inv = V^-1/2 Q (inv[i][k] = Q_ik / sqrt(w_i)); inv fwd = I. */
static nav_err nav_fft_eigen(const double *w, int N, nav_scalar_bc lo, nav_scalar_bc hi, double *lam, double *fwd,
                             double *inv) {
#ifdef NAV_HAVE_LAPACK
  double *a = malloc((size_t)N * 3 * sizeof(double)), *Q = malloc((size_t)N * N * sizeof(double));
  int *isuppz = malloc((size_t)2 * N * sizeof(int)), m = 0, info = 0, lwork = -1, liwork = -1, iwq = 0;
  NAV_CHECK(a && Q && isuppz, NAV_ERR_MEMORY, "cannot allocate the eigenvectors of a direction of %d cells", N);
  double *b = a + N, *c = b + N, wq = 0, *work = NULL;
  int *iwork = NULL;
  nav_fft_rows(w, N, lo, hi, a, b, c);
  /* T = V^-1/2 (V L_d) V^-1/2: diagonal b_i, off-diagonal c_i sqrt(w_i / w_{i+1}) */
  for (int i = 0; i + 1 < N; i++) c[i] *= sqrt(w[i] / w[i + 1]);
  const double zero = 0, abstol = 0;
  const int none = 0;
  dstevr_("V", "A", &N, b, c, &zero, &zero, &none, &none, &abstol, &m, lam, Q, &N, isuppz, &wq, &lwork, &iwq, &liwork,
          &info, 1, 1);
  if (info == 0) {
    lwork = (int)wq;
    liwork = iwq;
    work = malloc((size_t)lwork * sizeof(double));
    iwork = malloc((size_t)liwork * sizeof(int));
    if (work && iwork)
      dstevr_("V", "A", &N, b, c, &zero, &zero, &none, &none, &abstol, &m, lam, Q, &N, isuppz, work, &lwork, iwork,
              &liwork, &info, 1, 1);
    else
      info = -100;
  }
  free(work);
  free(iwork);
  free(isuppz);
  free(a);
  if (info != 0 || m != N) {
    free(Q);
    NAV_CHECK(0, NAV_ERR_INTERNAL, "LAPACK dstevr failed on a direction of %d cells (info %d, %d eigenvalues)", N, info,
              m);
  }
  /* ascending: the last is the one nearest 0, exactly 0 for two Neumann faces (the constant). Left at
   * its round-off (1e-13) the results do not change measurably (a mutation that did so survived: b is
   * projected to zero mean, and the constant that mode then gets is removed with the mean); set to 0
   * so that the null-space rule of the header holds as stated */
  if (lo == NAV_SCALAR_NEUMANN && hi == NAV_SCALAR_NEUMANN) lam[N - 1] = 0;
  for (int k = 0; k < N; k++)
    for (int i = 0; i < N; i++) {
      const double q = Q[(size_t)k * N + i]; /* column k of Q (column-major) */
      fwd[(size_t)k * N + i] = q * sqrt(w[i]);
      inv[(size_t)i * N + k] = q / sqrt(w[i]);
    }
  free(Q);
  return NAV_OK;
#else
  (void)w, (void)N, (void)lo, (void)hi, (void)lam, (void)fwd, (void)inv;
  NAV_CHECK(0, NAV_ERR_INTERNAL, "dense transforms need LAPACK (not found at configure)");
#endif
}

/* A backend array of n values from host doubles. */
static nav_err nav_fft_upload(const nav_kernel_ops *ops, const double *v, int n, nav_real **out) {
  nav_real *h = malloc((size_t)(n > 0 ? n : 1) * sizeof(nav_real));
  NAV_CHECK(h, NAV_ERR_MEMORY, "cannot allocate the FFT eigenvalues");
  for (int i = 0; i < n; i++) h[i] = (nav_real)v[i];
  nav_err e = ops->alloc((void **)out, (size_t)(n > 0 ? n : 1) * sizeof(nav_real));
  if (e == NAV_OK) e = ops->from_host(*out, h, (size_t)n * sizeof(nav_real));
  free(h);
  return e;
}

/* The whole box in one transform where it applies (one rank, no tridiagonal direction, every
 * direction periodic or even; nav_point_fft.h): the twiddles cos, sin(pi k / 2N), k = 0..N/2, of
 * each even direction and the scale 2^(even directions) that turns S into m0 m1 m2. */
static nav_err nav_fft_box_setup(nav_psolver *ps) {
  nav_fft *f = ps->fft;
  const int *N = ps->lev[0].dc.N;
  f->box = f->P == 1 && f->tri < 0 && nav_fft_kernels_of(ps->ops)->fft_box;
  for (int d = 0; d < f->dim; d++) {
    const nav_scalar_bc lo = ps->bc[d][0], hi = ps->bc[d][1];
    f->box &= !f->dense[d] && (lo == NAV_SCALAR_PERIODIC || (lo == NAV_SCALAR_NEUMANN && hi == NAV_SCALAR_NEUMANN));
  }
  f->box_scale = 1;
  const int transformed = f->slab ? f->dim - 1 : f->dim; /* the slab's planes are boxes of dim - 1 */
  for (int d = 0; d < transformed && (f->box || f->slab); d++) {
    if (ps->bc[d][0] == NAV_SCALAR_PERIODIC) continue;
    const double pi = 3.14159265358979323846;
    const int n = N[d] / 2 + 1;
    double *t = malloc((size_t)2 * n * sizeof(double));
    NAV_CHECK(t, NAV_ERR_MEMORY, "cannot allocate the FFT twiddles");
    for (int k = 0; k < n; k++) {
      t[2 * k] = cos(pi * k / (2.0 * N[d]));
      t[2 * k + 1] = sin(pi * k / (2.0 * N[d]));
    }
    const nav_err e = nav_fft_upload(ps->ops, t, 2 * n, &f->tw[d]);
    free(t);
    NAV_CALL(e);
    f->box_scale *= 2;
  }
  return NAV_OK;
}

/* What the exchanges' path needs (header): the direct transport's messages (a send and a receive per
 * rank), or host staging buffers of send and recv bytes. */
static nav_err nav_fft_path_buffers(nav_psolver *ps, size_t send, size_t recv) {
  nav_fft *f = ps->fft;
  if (f->path == NAV_FFT_P2P) {
    f->p2p = ps->lev[0].dc.transport;
    f->msgs = calloc((size_t)f->P * 2, sizeof *f->msgs);
    NAV_CHECK(f->msgs, NAV_ERR_MEMORY, "cannot allocate the FFT messages");
  }
  if (f->path == NAV_FFT_HOST_STAGED) {
    f->hs = malloc(send);
    f->hr = malloc(recv);
    NAV_CHECK(f->hs && f->hr, NAV_ERR_MEMORY, "cannot allocate the FFT staging buffers");
  }
  return NAV_OK;
}

/* The constants of the slabs' mean of a singular problem (nav_point_fft.h "the mean") from the rows a, b, c of
 * L_z (times S, all N global rows): v1, the pinned line's response to ones (nav_fft_thomas, as the slabs pin),
 * W, M1, n0 n1 / volume, and per rank r u_r = T_r^-T dz of its piece (the last rank's without its pinned
 * row, whose u is 0; nav_fft_thomas on the transposed rows), Pw_r = -a_first u_0 and Qw_r = -c_last u_last;
 * this rank's u and v1, every rank's Pw, Qw to the backend, and a backend double for nav_fft_rhs_sum. */
static nav_err nav_fft_slab_mean_setup(nav_psolver *ps, const double *a, const double *b, const double *c) {
  nav_fft *f = ps->fft;
  nav_fft_slab *sl = &f->sl;
  const nav_level *l0 = &ps->lev[0];
  const int t = f->dim - 1, N = l0->N[t], g = f->lay[0].lo[f->rank][t], m = f->lay[0].cnt[f->rank][t];
  const double *dz = l0->w[t];
  nav_real *ta = malloc((size_t)N * sizeof(nav_real)), *tb = malloc((size_t)N * sizeof(nav_real));
  nav_real *tc = malloc((size_t)N * sizeof(nav_real)), *cp = malloc((size_t)N * sizeof(nav_real));
  nav_real *u = malloc((size_t)N * sizeof(nav_real)), *v1 = malloc((size_t)N * sizeof(nav_real));
  double *pq = malloc((size_t)2 * f->P * sizeof(double)), *mine = malloc((size_t)2 * m * sizeof(double));
  nav_err e = ta && tb && tc && cp && u && v1 && pq && mine ? NAV_OK : NAV_ERR_MEMORY;
  if (e == NAV_OK) {
    for (int i = 0; i < N; i++) ta[i] = (nav_real)a[i], tb[i] = (nav_real)b[i], tc[i] = (nav_real)c[i], v1[i] = 1;
    nav_fft_thomas(N, 0, 1, v1, cp, ta, tb, tc, 0, 1);
    double W = 0, M = 0;
    for (int i = 0; i < N; i++) W += dz[i], M += v1[i] * dz[i];
    sl->mean_w = W, sl->mean_m1 = M / W;
    sl->mean_sigma = (double)l0->N[0] * (f->dim == 3 ? l0->N[1] : 1) / l0->volume;
  }
  for (int r = 0; r < f->P && e == NAV_OK; r++) { /* T_r^T: sub-diagonal c_{i-1}, super-diagonal a_{i+1} */
    const int gr = f->lay[0].lo[r][t], mr = f->lay[0].cnt[r][t], n = r == f->P - 1 ? mr - 1 : mr;
    for (int i = 0; i < n; i++) {
      ta[gr + i] = i ? (nav_real)c[gr + i - 1] : 0;
      tb[gr + i] = (nav_real)b[gr + i];
      tc[gr + i] = i + 1 < n ? (nav_real)a[gr + i + 1] : 0;
      u[gr + i] = (nav_real)dz[gr + i];
    }
    nav_fft_thomas(n, 0, 1, u + gr, cp, ta + gr, tb + gr, tc + gr, 0, 0);
    if (n < mr) u[gr + mr - 1] = 0;
    pq[2 * r] = -a[gr] * u[gr];
    pq[2 * r + 1] = n < mr ? 0 : -c[gr + mr - 1] * u[gr + mr - 1];
  }
  if (e == NAV_OK) {
    for (int i = 0; i < m; i++) mine[i] = u[g + i], mine[m + i] = v1[g + i];
    e = nav_fft_upload(ps->ops, mine, m, (nav_real **)&sl->mean_u);
  }
  if (e == NAV_OK) e = nav_fft_upload(ps->ops, mine + m, m, (nav_real **)&sl->mean_v1);
  if (e == NAV_OK) e = nav_fft_upload(ps->ops, pq, 2 * f->P, (nav_real **)&sl->mean_pq);
  if (e == NAV_OK) e = ps->ops->alloc((void **)&sl->mean, 3 * sizeof(double));
  if (e == NAV_OK) e = ps->ops->alloc((void **)&f->rhs, sizeof(double));
  free(ta), free(tb), free(tc), free(cp), free(u), free(v1), free(pq), free(mine);
  NAV_CHECK(e != NAV_ERR_MEMORY, NAV_ERR_MEMORY, "cannot allocate the FFT slabs' mean");
  return e;
}

/* The slab descriptor and the ends' array (after the eigenvalues, rows and twiddles). */
static nav_err nav_fft_slab_setup(nav_psolver *ps) {
  nav_fft *f = ps->fft;
  const nav_kernel_ops *ops = ps->ops;
  nav_fft_slab *sl = &f->sl;
  const int dim = f->dim, s = dim - 1;
  sl->dim = dim;
  for (int d = 0; d < 3; d++) sl->m[d] = d < dim ? f->lay[0].cnt[f->rank][d] : 1;
  sl->z0 = f->lay[0].lo[f->rank][s];
  sl->P = f->P;
  sl->me = f->rank; /* nav_fft_slab_fits: the blocks are in rank order */
  sl->pin = f->tri_singular && f->rank == f->P - 1;
  for (int d = 0; d < 2; d++) {
    sl->tw[d] = d < s ? f->tw[d] : NULL;
    sl->lam[d] = d < s ? f->lam[d] : NULL;
  }
  sl->a = f->ta, sl->b = f->tb, sl->c = f->tc;
  sl->scale = f->box_scale;
  sl->ns = 1 << s;
  sl->nq = sl->tw[0] && (dim == 2 || sl->tw[1]) ? 1 : 2;
  sl->reps = (sl->m[0] / 2 + 1) * (dim == 3 ? sl->m[1] / 2 + 1 : 1);
  /* chunks of NAV_FFT_SLAB_ROWS rows, a GPU thread each, so that a 256^2 plane's 16 641 representatives make
   * enough threads; but no more chunks than make about NAV_FFT_SLAB_SWEEPS threads: beyond that they add ends
   * (composed and sent) and no parallelism. The environment's NAV_FFT_SLAB_ROWS (at least 3, for the tests and
   * measurements) sets the rows alone. */
  const char *rows_env = getenv("NAV_FFT_SLAB_ROWS");
  const int given = rows_env && atoi(rows_env) >= 3, rows = given ? atoi(rows_env) : NAV_FFT_SLAB_ROWS;
  sl->chunks = sl->m[s] / rows > 1 ? sl->m[s] / rows : 1;
  const int fill = (int)((NAV_FFT_SLAB_SWEEPS + sl->reps / 2) / sl->reps);
  if (!given && sl->chunks > fill) sl->chunks = fill > 1 ? fill : 1;
  f->nends = (int)nav_fft_slab_part(sl);
  const size_t bytes = (size_t)f->nends * sizeof(nav_real);
  NAV_CALL(ops->alloc((void **)&f->all, bytes * f->P));
  return nav_fft_path_buffers(ps, bytes, bytes * f->P);
}

/* Every rank's ends of the lines into f->all, in rank order (an allgather on the moves' path, this
 * rank's part in place), charged to the profile's halo phase. Collective. */
static nav_err nav_fft_share_ends_parts(nav_psolver *ps) {
  nav_fft *f = ps->fft;
  const nav_kernel_ops *ops = ps->ops;
  const int n = f->nends, me = f->rank;
  const MPI_Datatype type = sizeof(nav_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
  nav_real *mine = f->all + (size_t)me * n;
  if (f->P == 1) return NAV_OK; /* NAV_FFT_SLABS=1 */
  if (f->path == NAV_FFT_P2P) {
    int k = 0;
    for (int r = 0; r < f->P; r++) {
      if (r == me) continue;
      f->msgs[k++] = (nav_p2p_msg){mine, (size_t)n, r, 1};
      f->msgs[k++] = (nav_p2p_msg){f->all + (size_t)r * n, (size_t)n, r, 0};
    }
    return nav_transport_exchange(f->p2p, f->msgs, k);
  }
  if (f->path == NAV_FFT_HOST_STAGED) {
    NAV_CALL(ops->to_host(f->hs, mine, (size_t)n * sizeof(nav_real)));
    NAV_CHECK(MPI_Allgather(f->hs, n, type, f->hr, n, type, f->comm) == MPI_SUCCESS, NAV_ERR_MPI,
              "MPI_Allgather of the FFT lines' ends failed");
    return ops->from_host(f->all, f->hr, (size_t)n * f->P * sizeof(nav_real));
  }
  NAV_CALL(ops->sync()); /* cuda-aware MPI reads the device array: the kernels first */
  NAV_CHECK(MPI_Allgather(MPI_IN_PLACE, n, type, f->all, n, type, f->comm) == MPI_SUCCESS, NAV_ERR_MPI,
            "MPI_Allgather of the FFT lines' ends failed");
  return NAV_OK;
}

static nav_err nav_fft_share_ends(nav_psolver *ps) {
  const nav_profile_phase host = nav_profile_enter(NAV_PHASE_HALO);
  nav_profile_work(NAV_PHASE_HALO);
  const nav_err e = nav_fft_share_ends_parts(ps);
  nav_profile_enter(host);
  return e;
}

/* The lines' descriptor (header "lines"), after the eigenvalues and the rows of tri are uploaded: the widths
 * along tri for the zero line's mean, and the buffer of b's sum (nav_fft_rhs_sum). */
static nav_err nav_fft_lines_setup(nav_psolver *ps) {
  nav_fft *f = ps->fft;
  const nav_level *l0 = &ps->lev[0];
  nav_fft_lines *ln = &f->ln;
  ln->dim = f->dim;
  ln->tri = f->tri;
  for (int d = 0; d < 3; d++) {
    ln->m[d] = d < f->dim ? l0->dc.N[d] : 1;
    ln->lam[d] = d < f->dim && d != f->tri ? f->lam[d] : NULL;
  }
  ln->a = f->ta, ln->b = f->tb, ln->c = f->tc;
  ln->singular = f->tri_singular;
  const int N = ln->m[f->tri];
  ln->wsum = 0;
  for (int i = 0; i < N; i++) ln->wsum += l0->w[f->tri][i];
  ln->volume = l0->volume;
  NAV_CALL(nav_fft_upload(ps->ops, l0->w[f->tri], N, &f->ln_w));
  ln->w = f->ln_w;
  return ln->singular ? ps->ops->alloc((void **)&f->rhs, sizeof(double)) : NAV_OK;
}

nav_err nav_fft_setup(nav_psolver *ps) {
  const nav_level *l0 = &ps->lev[0];
  const nav_decomp *dc = &l0->dc;
  const nav_kernel_ops *ops = ps->ops;
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  const int dim = dc->dim;
  char why[256];
  NAV_CHECK(nav_fft_applies(ops, dim, dc->N, l0->w, (const nav_scalar_bc(*)[2])ps->bc, why, sizeof why),
            NAV_ERR_INPUT, "pressure solver fft: %s", why);
  nav_fft *f = calloc(1, sizeof *f);
  NAV_CHECK(f, NAV_ERR_MEMORY, "cannot allocate the FFT solver");
  ps->fft = f;
  f->dim = dim;
  f->P = dc->size;
  f->rank = dc->rank;
  f->comm = dc->size > 1 ? dc->comm : MPI_COMM_NULL;
  f->path = nav_fft_path_of(ops, dc);
  f->tri = nav_fft_tri_direction(ops, dim, dc->N, l0->w);
  f->slab = nav_fft_slab_fits(ops, dc, l0->w, (const nav_scalar_bc(*)[2])ps->bc);
  if (f->slab) f->tri = dim - 1; /* the other directions are uniform */
  for (int d = 0; d < dim; d++)
    f->dense[d] = d != f->tri && !nav_fft_uniform(l0->w[d], dc->N[d]);
  /* lines (header): an even count along x keeps every row of the planes at an even offset (cuFFT's kernels
   * load pairs of values) */
  f->lines = !f->slab && f->P == 1 && fk->fft_lines && (f->tri == 1 || (f->tri == 2 && dim == 3)) && dc->N[0] % 2 == 0;
  for (int d = 0; d < dim && f->lines; d++)
    if (d != f->tri) f->lines = !f->dense[d] && ps->bc[d][0] == NAV_SCALAR_PERIODIC;
  /* order: a transformed direction the blocks already hold whole (no first move), the other
   * transformed ones, the tridiagonal one last */
  int no = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int d = 0; d < dim; d++)
      if (d != f->tri && (dc->p[d] == 1) == (pass == 0)) f->order[no++] = d;
  if (f->tri >= 0) f->order[no++] = f->tri;
  /* layouts */
  for (int t = 0; t <= dim; t++) NAV_CALL(nav_fft_layout_alloc(&f->lay[t], f->P));
  for (int r = 0; r < f->P; r++) nav_decomp_block(dc, r, f->lay[0].cnt[r], f->lay[0].lo[r]);
  for (int t = 1; t <= dim; t++) {
    const int d = f->order[t - 1];
    for (int r = 0; r < f->P; r++) {
      if (f->slab || (t == 1 && dc->p[d] == 1)) { /* the blocks are a pencil along d; slabs: no move */
        memcpy(f->lay[t].lo[r], f->lay[0].lo[r], sizeof f->lay[t].lo[r]);
        memcpy(f->lay[t].cnt[r], f->lay[0].cnt[r], sizeof f->lay[t].cnt[r]);
      } else {
        nav_fft_pencil_box(dim, dc->N, f->P, d, r, f->lay[t].lo[r], f->lay[t].cnt[r]);
      }
    }
  }
  long most = 1;
  for (int t = 0; t <= dim; t++) {
    f->same[t] = t > 0 && nav_fft_layout_equal(&f->lay[t], &f->lay[t - 1], f->P);
    f->buf_of[t] = t == 0 ? 0 : f->same[t] ? f->buf_of[t - 1] : 1 - f->buf_of[t - 1];
    const long c = nav_fft_cells(f->lay[t].cnt[f->rank]);
    if (c > most) most = c;
  }
  const size_t bytes = (size_t)most * sizeof(nav_real);
  /* level 0's residual array serves as the first dense buffer (the residual is computed after the
   * solve), and the multigrid's inverse diagonal is not needed: 16 bytes per cell fewer */
  if (most <= l0->box.ntot) {
    f->buf[0] = l0->r;
    f->buf0_borrowed = 1;
  } else {
    NAV_CALL(ops->alloc((void **)&f->buf[0], bytes));
  }
  if (l0->inv_diag) {
    ops->free(l0->inv_diag);
    ps->lev[0].inv_diag = NULL;
  }
  if (f->P > 1 && !f->slab) {
    NAV_CALL(ops->alloc((void **)&f->buf[1], bytes));
    NAV_CALL(ops->alloc((void **)&f->sbuf, bytes));
    NAV_CALL(ops->alloc((void **)&f->rbuf, bytes));
    f->sc = calloc((size_t)f->P * 4, sizeof(int));
    NAV_CHECK(f->sc, NAV_ERR_MEMORY, "cannot allocate the FFT move counts");
    f->sd = f->sc + f->P, f->rc = f->sd + f->P, f->rd = f->rc + f->P;
    NAV_CALL(nav_fft_path_buffers(ps, bytes, bytes));
  }
  if (f->tri >= 0 && !f->slab && !f->lines) NAV_CALL(ops->alloc((void **)&f->work, bytes));
  /* transforms, eigenvalues (of the last layout's local ranges) and their scale S */
  double S = 1, *lam[3] = {NULL, NULL, NULL}, *mat[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
  const int *lo = f->lay[dim].lo[f->rank], *cnt = f->lay[dim].cnt[f->rank];
  nav_err e = NAV_OK;
  for (int d = 0; d < dim && e == NAV_OK; d++) {
    lam[d] = malloc((size_t)dc->N[d] * sizeof(double));
    NAV_CHECK(lam[d], NAV_ERR_MEMORY, "cannot allocate the FFT eigenvalues");
    if (d == f->tri) continue;
    if (f->dense[d]) { /* forward then inverse is the identity: norm 1 */
      const size_t NN = (size_t)dc->N[d] * dc->N[d];
      mat[d][0] = malloc(NN * sizeof(double));
      mat[d][1] = malloc(NN * sizeof(double));
      NAV_CHECK(mat[d][0] && mat[d][1], NAV_ERR_MEMORY, "cannot allocate the eigenvectors of %c", "xyz"[d]);
      e = nav_fft_eigen(l0->w[d], dc->N[d], ps->bc[d][0], ps->bc[d][1], lam[d], mat[d][0], mat[d][1]);
      continue;
    }
    double norm;
    nav_fft_direction(ps->bc[d][0], ps->bc[d][1], dc->N[d], l0->w[d][0], &f->fwd[d], &f->inv[d], lam[d], &norm);
    S *= norm;
  }
  for (int d = 0; d < dim && e == NAV_OK; d++) {
    if (d == f->tri) continue;
    for (int k = 0; k < dc->N[d]; k++) lam[d][k] *= S;
    e = nav_fft_upload(ops, lam[d] + lo[d], cnt[d], &f->lam[d]);
  }
  if (e == NAV_OK && f->tri >= 0) { /* rows of L_t (nav_laplacian's coefficients), times S */
    const int t = f->tri, N = dc->N[t];
    double *a = lam[t], *b = malloc((size_t)N * sizeof(double)), *c = malloc((size_t)N * sizeof(double));
    NAV_CHECK(b && c, NAV_ERR_MEMORY, "cannot allocate the tridiagonal coefficients");
    nav_fft_rows(l0->w[t], N, ps->bc[t][0], ps->bc[t][1], a, b, c);
    for (int i = 0; i < N; i++) a[i] *= S, b[i] *= S, c[i] *= S;
    f->tri_singular = ps->bc[t][0] == NAV_SCALAR_NEUMANN && ps->bc[t][1] == NAV_SCALAR_NEUMANN;
    if (f->slab && f->tri_singular) e = nav_fft_slab_mean_setup(ps, a, b, c);
    if (e == NAV_OK) e = nav_fft_upload(ops, a, N, &f->ta);
    if (e == NAV_OK) e = nav_fft_upload(ops, b, N, &f->tb);
    if (e == NAV_OK) e = nav_fft_upload(ops, c, N, &f->tc);
    free(b);
    free(c);
  }
  for (int d = 0; d < dim; d++) free(lam[d]);
  if (e == NAV_OK && f->lines) e = nav_fft_lines_setup(ps);
  if (e == NAV_OK) e = nav_fft_box_setup(ps);
  /* plans, each on the buffer of its layout */
  for (int t = 1; t <= dim && !f->box && !f->slab && !f->lines && e == NAV_OK; t++) {
    const int d = f->order[t - 1];
    const int *m = f->lay[t].cnt[f->rank];
    if (d == f->tri || nav_fft_cells(m) == 0) continue;
    if (f->dense[d]) {
      e = fk->matrix_plan(m, d, mat[d][0], &f->mat_f[d]);
      if (e == NAV_OK) e = fk->matrix_plan(m, d, mat[d][1], &f->mat_i[d]);
      continue;
    }
    e = fk->fft_plan(m, d, f->fwd[d], f->buf[f->buf_of[t]], &f->plan_f[d]);
    if (e == NAV_OK) e = fk->fft_plan(m, d, f->inv[d], f->buf[f->buf_of[t]], &f->plan_i[d]);
  }
  for (int d = 0; d < 3; d++) free(mat[d][0]), free(mat[d][1]);
  if (e == NAV_OK && f->slab) e = nav_fft_slab_setup(ps);
  return e;
}

nav_err nav_fft_solve(nav_psolver *ps, nav_real *x, const nav_real *b, const double *bsum) {
  nav_fft *f = ps->fft;
  const nav_fft_kernels *fk = nav_fft_kernels_of(ps->ops);
  const nav_box *box = &ps->lev[0].box;
  const int dim = f->dim, me = f->rank;
  const nav_idx dense[3] = {1, box->n[0], (nav_idx)box->n[0] * box->n[1]};
  const nav_idx gst[3] = {box->st[0], box->st[1], box->st[2]};
  if (f->box) {
    const nav_real *const lamb[3] = {f->lam[0], f->lam[1], dim == 3 ? f->lam[2] : NULL};
    const nav_real *const tw[3] = {f->tw[0], f->tw[1], f->tw[2]};
    return fk->fft_box(box->n, tw, lamb, f->box_scale, b, bsum, ps->lev[0].volume, x, box->off, gst, f->buf[0],
                       &f->box_state);
  }
  if (f->lines) return fk->fft_lines(&f->ln, b, bsum, x, box->off, gst, f->buf[0], &f->lines_state);
  NAV_CHECK(!bsum || f->sl.mean_u, NAV_ERR_INTERNAL, "nav_fft_solve: a mean to remove needs the box or the slabs");
  if (f->slab) {
    NAV_CALL(fk->fft_slab_forward(&f->sl, b, bsum, box->off, gst, f->buf[0], f->all + (size_t)f->rank * f->nends,
                                  &f->slab_state));
    NAV_CALL(nav_fft_share_ends(ps));
    return fk->fft_slab_inverse(&f->sl, f->all, x, box->off, gst, f->buf[0], &f->slab_state);
  }
  NAV_CALL(fk->copy_box(box->n, b, box->off, gst, f->buf[0], 0, dense));
  for (int t = 1; t <= dim; t++) { /* forward */
    const int d = f->order[t - 1];
    nav_real *data = f->buf[f->buf_of[t]];
    if (!f->same[t]) NAV_CALL(nav_fft_move(ps, &f->lay[t - 1], f->buf[f->buf_of[t - 1]], &f->lay[t], data));
    if (f->plan_f[d]) NAV_CALL(fk->fft_execute(f->plan_f[d], data));
    if (f->mat_f[d]) NAV_CALL(fk->matrix_apply(f->mat_f[d], data));
  }
  const int *m = f->lay[dim].cnt[me];
  nav_real *data = f->buf[f->buf_of[dim]];
  const nav_real *const lam[3] = {f->lam[0], f->lam[1], dim == 3 ? f->lam[2] : NULL};
  if (nav_fft_cells(m) > 0) {
    if (f->tri >= 0)
      NAV_CALL(fk->fft_tridiag(m, f->tri, lam, f->ta, f->tb, f->tc, f->tri_singular, data, f->work));
    else
      NAV_CALL(fk->fft_divide(m, lam, data));
  }
  for (int t = dim; t >= 1; t--) { /* inverse */
    const int d = f->order[t - 1];
    nav_real *cur = f->buf[f->buf_of[t]];
    if (f->plan_i[d]) NAV_CALL(fk->fft_execute(f->plan_i[d], cur));
    if (f->mat_i[d]) NAV_CALL(fk->matrix_apply(f->mat_i[d], cur));
    if (!f->same[t]) NAV_CALL(nav_fft_move(ps, &f->lay[t], cur, &f->lay[t - 1], f->buf[f->buf_of[t - 1]]));
  }
  return fk->copy_box(box->n, f->buf[0], 0, dense, x, box->off, gst);
}

int nav_fft_zero_mean(const nav_psolver *ps) {
  const nav_fft *f = ps->fft;
  return (f->tri < 0 && !f->dense[0] && !f->dense[1] && !f->dense[2]) || f->sl.mean_u || f->lines;
}

int nav_fft_one_transform(const nav_psolver *ps) { return ps->fft->box; }

int nav_fft_spectral_mean(const nav_psolver *ps) { return ps->fft->sl.mean_u != NULL || ps->fft->lines; }

nav_err nav_fft_rhs_sum(nav_psolver *ps, double local, const double **sum) {
  nav_fft *f = ps->fft;
  NAV_CALL(ps->ops->from_host(f->rhs, &local, sizeof local));
  *sum = f->rhs;
  return NAV_OK;
}

const double *nav_fft_sum_of_b(const nav_psolver *ps, const double *bsum) {
  return ps->fft->sl.mean_u ? ps->fft->sl.mean : bsum;
}

void nav_fft_describe(const nav_psolver *ps, char *text, int size) {
  static const char *const names[] = {"DCT-II", "DCT-III", "DST-II", "DST-III", "DCT-IV", "DST-IV", "DFT", "DFT"};
  const nav_fft *f = ps->fft;
  int used = snprintf(text, (size_t)size, "FFT direct solver:");
  for (int t = 0; t < f->dim && used < size; t++) {
    const int d = f->order[t];
    used += snprintf(text + used, (size_t)(size - used), " %c %s%s", "xyz"[d],
                     d == f->tri ? "tridiagonal" : f->dense[d] ? "eigenvectors (dense)" : names[f->fwd[d]],
                     t + 1 < f->dim ? "," : "");
  }
  if (used < size && f->box)
    used += snprintf(text + used, (size_t)(size - used), " (one %dD real-to-complex transform%s)", f->dim,
                     f->box_scale > 1 ? ", cosines by even reordering" : "");
  if (used < size && f->lines)
    used += snprintf(text + used, (size_t)(size - used), " (one %dD real-to-complex transform of the planes across %c)",
                     f->dim - 1, "xyz"[f->tri]);
  if (used < size && f->slab)
    used += snprintf(text + used, (size_t)(size - used), " (one %dD real-to-complex transform per plane), slabs over %d ranks: %c lines split by the partition method (%s)",
                     f->dim - 1, f->P, "xyz"[f->tri],
                     f->path == NAV_FFT_P2P           ? "the lines' ends device to device"
                     : f->path == NAV_FFT_HOST_STAGED ? "MPI_Allgather of the lines' ends through the host"
                                                      : "MPI_Allgather of the lines' ends");
  else if (used < size && f->P > 1)
    used += snprintf(text + used, (size_t)(size - used), ", pencils over %d ranks (%s)", f->P,
                     f->path == NAV_FFT_P2P           ? "device to device"
                     : f->path == NAV_FFT_HOST_STAGED ? "MPI_Alltoallv through the host"
                                                      : "MPI_Alltoallv");
  if (used < size && ps->singular) snprintf(text + used, (size_t)(size - used), ", singular (zero-mean)");
}

void nav_fft_destroy(nav_psolver *ps) {
  nav_fft *f = ps->fft;
  if (!f) return;
  const nav_kernel_ops *ops = ps->ops;
  const nav_fft_kernels *fk = nav_fft_kernels_of(ops);
  if (f->box_state) fk->fft_box_free(f->box_state);
  if (f->slab_state) fk->fft_box_free(f->slab_state);
  if (f->lines_state) fk->fft_lines_free(f->lines_state);
  for (int d = 0; d < 3; d++) {
    if (f->plan_f[d]) fk->fft_plan_free(f->plan_f[d]);
    if (f->plan_i[d]) fk->fft_plan_free(f->plan_i[d]);
    if (f->mat_f[d]) fk->matrix_plan_free(f->mat_f[d]);
    if (f->mat_i[d]) fk->matrix_plan_free(f->mat_i[d]);
    if (f->lam[d]) ops->free(f->lam[d]);
    if (f->tw[d]) ops->free(f->tw[d]);
  }
  void *v[15] = {f->buf0_borrowed ? NULL : f->buf[0], f->buf[1], f->work, f->sbuf, f->rbuf, f->ta, f->tb, f->tc,
                 f->all, (void *)f->sl.mean_u, (void *)f->sl.mean_v1, (void *)f->sl.mean_pq, f->sl.mean, f->rhs,
                 f->ln_w};
  for (int i = 0; i < 15; i++)
    if (v[i]) ops->free(v[i]);
  free(f->hs);
  free(f->hr);
  free(f->sc);
  free(f->msgs);
  for (int t = 0; t < 4; t++) {
    free(f->lay[t].lo);
    free(f->lay[t].cnt);
  }
  free(f);
  ps->fft = NULL;
}
