/* CPU backend: Poisson operator, smoothers and multigrid transfers (common/nav_point_poisson.h). */
#include "backend/common/nav_point_poisson.h"
#include "backend/cpu/cpu_kernels.h"

#ifdef _OPENMP
#include <omp.h>
#endif

nav_err nav_laplacian_cpu(const nav_box *box, const nav_real *x, nav_real *y) {
  NAV_CPU_LOOP_POISSON(box, box, , {
    nav_real dg;
    y[p] = nav_laplacian(b, x, p, ijk, &dg);
  });
  return NAV_OK;
}

nav_err nav_residual_cpu(const nav_box *box, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr) {
  double s = 0;
  NAV_CPU_SUM_POISSON(box, acc, &s, {
    nav_real dg;
    const nav_real res = rhs[p] - nav_laplacian(b, x, p, ijk, &dg);
    r[p] = res;
    acc += (double)res * (double)res * (double)nav_cell_volume(b, ijk);
  });
  if (rr) *rr = s;
  return NAV_OK;
}

nav_err nav_inverse_diagonal_cpu(const nav_box *box, nav_real *inv_diag) {
  NAV_CPU_LOOP(box, , { inv_diag[p] = 1 / nav_laplacian_diagonal(b, p, ijk); });
  return NAV_OK;
}

/* Relax the cells of one colour in row (j, k) of b, the kernel's local copy of its box (dim and the plain facts as
 * constants: nav_cpu_plain). inv_diag NULL: b is plain, inv its one inverse diagonal (nav_relax_inv). The row's
 * cells of the colour are computed into a buffer, then stored: the updates are independent, and without stores to x
 * in between they pipeline. */
static NAV_CPU_INLINE void nav_relax_row_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                                     nav_real inv, int j, int k, int colour, nav_real omega) {
  nav_real row[NAV_CPU_ROW];
  int ijk[3] = {0, j, k};
  const int i0 = nav_colour(b, ijk) == colour ? 0 : 1;
  const nav_idx p0 = nav_cpu_index(b, 0, j, k);
  for (int ib = i0; ib < b->n[0]; ib += 2 * NAV_CPU_ROW) {
    const int m_end = (b->n[0] - ib + 1) / 2 < NAV_CPU_ROW ? (b->n[0] - ib + 1) / 2 : NAV_CPU_ROW;
    for (int m = 0; m < m_end; m++) { /* cell i = ib + 2 m */
      const nav_idx p = p0 + ib + 2 * m;
      ijk[0] = ib + 2 * m;
      row[m] = nav_relax_inv(b, x, rhs, inv_diag ? inv_diag[p] : inv, p, ijk, omega);
    }
    for (int m = 0; m < m_end; m++) x[p0 + ib + 2 * m] = row[m];
  }
}

/* The kernel's local copy b_local of *box with dim DIM and, with PLAIN, the plain facts (nav_cpu_plain). */
#define NAV_CPU_LOCAL_BOX(DIM, PLAIN)                                                                       \
  nav_box b_local = *box;                                                                                   \
  b_local.dim = DIM;                                                                                        \
  if (PLAIN) nav_cpu_plain(&b_local)

/* KIND(DIM, PLAIN) for box: the four variants of a kernel (2D or 3D, plain or not). */
#define NAV_CPU_KINDS(KIND)                                                                                 \
  do {                                                                                                      \
    const int plain_ = nav_cpu_is_plain(box);                                                               \
    if (box->dim == 2 && plain_) {                                                                          \
      KIND(2, 1)                                                                                            \
    } else if (box->dim == 2) {                                                                             \
      KIND(2, 0)                                                                                            \
    } else if (plain_) {                                                                                    \
      KIND(3, 1)                                                                                            \
    } else {                                                                                                \
      KIND(3, 0)                                                                                            \
    }                                                                                                       \
  } while (0)

nav_err nav_relax_colour_cpu(const nav_box *box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                             nav_real omega) {
  const nav_real inv = nav_cpu_is_plain(box) ? inv_diag[box->off] : 0;
#define NAV_RELAX_ROWS(DIM, PLAIN)                                                                          \
  NAV_PRAGMA(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(box)))                     \
  for (int k = 0; k < box->n[2]; k++)                                                                       \
    for (int j = 0; j < box->n[1]; j++) {                                                                   \
      NAV_CPU_LOCAL_BOX(DIM, PLAIN);                                                                        \
      nav_relax_row_cpu(&b_local, x, rhs, PLAIN ? NULL : inv_diag, inv, j, k, colour, omega);               \
    }
  NAV_CPU_KINDS(NAV_RELAX_ROWS);
#undef NAV_RELAX_ROWS
  return NAV_OK;
}

/* One colour of slice s of b: row s in 2D, plane s in 3D (nav_relax_row_cpu). */
static NAV_CPU_INLINE void nav_relax_slice_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                                       nav_real inv, int s, int colour, nav_real omega) {
  if (b->dim == 2) {
    nav_relax_row_cpu(b, x, rhs, inv_diag, inv, s, 0, colour, omega);
    return;
  }
  for (int j = 0; j < b->n[1]; j++) nav_relax_row_cpu(b, x, rhs, inv_diag, inv, j, s, colour, omega);
}

static inline void nav_cpu_team(int *t, int *nt) {
#ifdef _OPENMP
  *t = omp_get_thread_num();
  *nt = omp_get_num_threads();
#else
  *t = 0;
  *nt = 1;
#endif
}

nav_err nav_relax_pair_cpu(const nav_box *box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int first,
                           nav_real omega) {
  /* The wavefront: the first colour of slice s (row in 2D, plane in 3D), then the second colour of slice s - 1,
   * whose neighbours of the first colour (slices s - 2 .. s) are relaxed by then, while slice s + 1's second colour,
   * which the first colour of slice s reads, is not yet. Each thread takes a run of slices [s0, s1); the second
   * colour of its first and last slice, whose neighbour slices of the first colour belong to the next runs, waits
   * for the barrier. The ghosts the second colour reads are the mirrors of its own cells (the contract), unchanged. */
  const nav_real inv = nav_cpu_is_plain(box) ? inv_diag[box->off] : 0;
  const int ns = box->dim == 2 ? box->n[1] : box->n[2], second = !first;
#define NAV_RELAX_PAIR(DIM, PLAIN)                                                                          \
  NAV_PRAGMA(omp parallel if (nav_cpu_threaded(box)))                                                       \
  {                                                                                                         \
    NAV_CPU_LOCAL_BOX(DIM, PLAIN);                                                                          \
    const nav_real *const id = PLAIN ? NULL : inv_diag;                                                     \
    int t, nt;                                                                                              \
    nav_cpu_team(&t, &nt);                                                                                  \
    const int s0 = (int)((long)ns * t / nt), s1 = (int)((long)ns * (t + 1) / nt);                           \
    for (int s = s0; s < s1; s++) {                                                                         \
      nav_relax_slice_cpu(&b_local, x, rhs, id, inv, s, first, omega);                                      \
      if (s - 1 > s0) nav_relax_slice_cpu(&b_local, x, rhs, id, inv, s - 1, second, omega);                 \
    }                                                                                                       \
    NAV_PRAGMA(omp barrier)                                                                                 \
    if (s1 > s0) nav_relax_slice_cpu(&b_local, x, rhs, id, inv, s0, second, omega);                         \
    if (s1 - 1 > s0) nav_relax_slice_cpu(&b_local, x, rhs, id, inv, s1 - 1, second, omega);                 \
  }
  NAV_CPU_KINDS(NAV_RELAX_PAIR);
#undef NAV_RELAX_PAIR
  return NAV_OK;
}

nav_err nav_relax_first_cpu(const nav_box *box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                            nav_real omega) {
  NAV_CPU_LOOP_POISSON(box, box, , {
    x[p] = nav_colour(b, ijk) == colour ? nav_relax_from_zero(b, rhs, inv_diag, p, ijk, omega) : (nav_real)0;
  });
  return NAV_OK;
}

/* The lines of one colour (colour < 0: all) along direction DIR of box B: BODY runs with p0, ijk (the
 * line's first cell) and l (the line's index ka + n[oa] kb). */
#define NAV_CPU_LINES(B, DIR, COLOUR, BODY)                                                         \
  do {                                                                                             \
    int oa_, ob_;                                                                                  \
    nav_line_others(DIR, &oa_, &ob_);                                                              \
    const int na_ = (B)->n[oa_], nb_ = (B)->n[ob_];                                                \
    NAV_PRAGMA(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(B)))             \
    for (int kb = 0; kb < nb_; kb++)                                                               \
      for (int ka = 0; ka < na_; ka++) {                                                           \
        if ((COLOUR) >= 0 && (((B)->g0[oa_] + ka + (B)->g0[ob_] + kb) & 1) != (COLOUR)) continue;   \
        int ijk[3] = {0, 0, 0};                                                                    \
        ijk[oa_] = ka;                                                                             \
        ijk[ob_] = kb;                                                                             \
        const nav_idx p0 = (B)->off + ka * (B)->st[oa_] + kb * (B)->st[ob_];                       \
        const long l = ka + (long)na_ * kb;                                                        \
        (void)l;                                                                                   \
        (void)ijk;                                                                                 \
        BODY;                                                                                      \
      }                                                                                            \
  } while (0)

nav_err nav_relax_line_cpu(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                           int colour, const int kind[2], nav_real omega) {
  NAV_CPU_LINES(b, dir, colour, nav_relax_line(b, x, rhs, cp, dd, p0, ijk, dir, kind[0], kind[1], omega));
  return NAV_OK;
}

nav_err nav_line_solve_cpu(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out,
                           int dir, int colour, const int kind[2], int mode, nav_real *ends) {
  NAV_CPU_LINES(b, dir, colour,
                nav_line_solve(b, x, rhs, cp, out, p0, ijk, dir, kind[0], kind[1], mode, ends ? ends + 2 * l : NULL));
  return NAV_OK;
}

nav_err nav_line_update_cpu(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                            const nav_real *coef, int dir, int colour, nav_real omega) {
  NAV_CPU_LINES(b, dir, colour, nav_line_update(b, x, dd, v, w, coef[2 * l], coef[2 * l + 1], p0, dir, omega));
  return NAV_OK;
}

nav_err nav_jacobi_cpu(const nav_box *box, const nav_real *x, const nav_real *rhs, const nav_real *inv_diag,
                       nav_real *x_new, nav_real omega) {
  NAV_CPU_LOOP_POISSON(box, box, , { x_new[p] = nav_relax(b, x, rhs, inv_diag, p, ijk, omega); });
  return NAV_OK;
}

nav_err nav_diag_scale_cpu(const nav_box *box, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CPU_LOOP(box, , { z[p] = r[p] * inv_diag[p]; });
  return NAV_OK;
}

/* The restriction (X: NULL, R the fine residual) or the fused residual and restriction (X the fine x, R its
 * right-hand side) to the coarse block coarse, in the variant DIM, PLAIN. A plain pair of levels (nav_cpu_is_plain)
 * tells nav_restrict_cells which coarse cells have every child inside the fine block. */
#define NAV_RESTRICT(R, X, DIM, PLAIN)                                                                      \
  NAV_PRAGMA(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(coarse)))                  \
  for (int k = 0; k < coarse->n[2]; k++)                                                                    \
    for (int j = 0; j < coarse->n[1]; j++) {                                                                \
      nav_box c_local = *coarse, f_local = *fine;                                                           \
      c_local.dim = f_local.dim = DIM;                                                                      \
      if (PLAIN) {                                                                                          \
        nav_cpu_plain(&c_local);                                                                            \
        nav_cpu_plain(&f_local);                                                                            \
      }                                                                                                     \
      const int in_jk = PLAIN && 2 * j + 1 < f_local.n[1] && (DIM == 2 || 2 * k + 1 < f_local.n[2]);        \
      const int nin = in_jk ? f_local.n[0] / 2 : 0; /* coarse cells 0 .. nin - 1: both children in x */     \
      int ijk[3] = {0, j, k};                                                                               \
      const nav_idx p0 = nav_cpu_index(&c_local, 0, j, k);                                                  \
      for (int i = 0; i < nin; i++) {                                                                       \
        ijk[0] = i;                                                                                         \
        rhs[p0 + i] = nav_restrict_cells(&f_local, R, X, &c_local, ijk, 1);                                 \
      }                                                                                                     \
      for (int i = nin; i < c_local.n[0]; i++) {                                                            \
        ijk[0] = i;                                                                                         \
        rhs[p0 + i] = nav_restrict_cells(&f_local, R, X, &c_local, ijk, 0);                                 \
      }                                                                                                     \
    }
#define NAV_RESTRICT_KINDS(R, X)                                                                            \
  do {                                                                                                      \
    const int plain_ = nav_cpu_is_plain(coarse) && nav_cpu_is_plain(fine);                                  \
    if (coarse->dim == 2 && plain_) {                                                                       \
      NAV_RESTRICT(R, X, 2, 1)                                                                              \
    } else if (coarse->dim == 2) {                                                                          \
      NAV_RESTRICT(R, X, 2, 0)                                                                              \
    } else if (plain_) {                                                                                    \
      NAV_RESTRICT(R, X, 3, 1)                                                                              \
    } else {                                                                                                \
      NAV_RESTRICT(R, X, 3, 0)                                                                              \
    }                                                                                                       \
  } while (0)

nav_err nav_restrict_residual_cpu(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs) {
  NAV_RESTRICT_KINDS(r, (const nav_real *)NULL);
  return NAV_OK;
}

nav_err nav_residual_restrict_cpu(const nav_box *fine, const nav_real *x, const nav_real *rhs_f, const nav_box *coarse,
                                  nav_real *rhs) {
  NAV_RESTRICT_KINDS(rhs_f, x);
  return NAV_OK;
}
#undef NAV_RESTRICT_KINDS
#undef NAV_RESTRICT

nav_err nav_prolong_add_cpu(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x) {
  if (!nav_cpu_is_plain(fine) || !nav_cpu_is_plain(coarse)) {
    NAV_CPU_LOOP_POISSON(fine, coarse, , { x[p] += nav_prolong(o, xc, b, ijk); });
    return NAV_OK;
  }
  /* plain levels: the fine cells of a row by pairs of children (even, odd), whose parities the inlined
   * nav_prolong then knows */
#define NAV_PROLONG_PAIRS(DIM)                                                                              \
  NAV_PRAGMA(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(fine)))                    \
  for (int k = 0; k < fine->n[2]; k++)                                                                      \
    for (int j = 0; j < fine->n[1]; j++) {                                                                  \
      nav_box f_local = *fine, c_local = *coarse;                                                           \
      f_local.dim = c_local.dim = DIM;                                                                      \
      nav_cpu_plain(&f_local);                                                                              \
      nav_cpu_plain(&c_local);                                                                              \
      const nav_idx p0 = nav_cpu_index(&f_local, 0, j, k);                                                  \
      const int n0 = f_local.n[0];                                                                          \
      int even[3] = {0, j, k}, odd[3] = {1, j, k};                                                          \
      for (int i = 0; i < n0 / 2; i++) {                                                                    \
        even[0] = 2 * i;                                                                                    \
        odd[0] = 2 * i + 1;                                                                                 \
        x[p0 + 2 * i] += nav_prolong(&c_local, xc, &f_local, even);                                         \
        x[p0 + 2 * i + 1] += nav_prolong(&c_local, xc, &f_local, odd);                                      \
      }                                                                                                     \
      if (n0 & 1) {                                                                                         \
        even[0] = n0 - 1;                                                                                   \
        x[p0 + n0 - 1] += nav_prolong(&c_local, xc, &f_local, even);                                        \
      }                                                                                                     \
    }
  if (fine->dim == 2) {
    NAV_PROLONG_PAIRS(2)
  } else {
    NAV_PROLONG_PAIRS(3)
  }
#undef NAV_PROLONG_PAIRS
  return NAV_OK;
}

/* The multigrid table of this backend (registered in backend/nav_backend.c); relax_sweep, residual_lo and add_lo
 * are NULL here (nav_mg_kernels.h). */
const nav_mg_kernels nav_mg_kernels_cpu = {
    .relax_first = nav_relax_first_cpu,
    .relax_pair = nav_relax_pair_cpu,
    .relax_line = nav_relax_line_cpu,
    .line_solve = nav_line_solve_cpu,
    .line_update = nav_line_update_cpu,
    .residual_restrict = nav_residual_restrict_cpu,
};
