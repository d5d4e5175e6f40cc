/* CPU backend: Poisson operator, smoothers and multigrid transfers (common/nav_point_poisson.h). */
#include "backend/common/nav_point_poisson.h"
#include "backend/cpu/cpu_kernels.h"

nav_err nav_laplacian_cpu(const nav_box *box, const nav_real *x, nav_real *y) {
  NAV_CPU_LOOP(box, , {
    nav_real dg;
    y[p] = nav_laplacian(b, x, p, ijk, &dg);
  });
  return NAV_OK;
}

nav_err nav_residual_cpu(const nav_box *box, const nav_real *x, const nav_real *rhs, nav_real *r, double *rr) {
  double s = 0;
  NAV_CPU_LOOP(box, reduction(+ : s), {
    nav_real dg;
    const nav_real res = rhs[p] - nav_laplacian(b, x, p, ijk, &dg);
    r[p] = res;
    s += (double)res * (double)res * (double)nav_cell_volume(b, ijk);
  });
  if (rr) *rr = s;
  return NAV_OK;
}

nav_err nav_inverse_diagonal_cpu(const nav_box *box, nav_real *inv_diag) {
  NAV_CPU_LOOP(box, , { inv_diag[p] = 1 / nav_laplacian_diagonal(b, p, ijk); });
  return NAV_OK;
}

nav_err nav_relax_colour_cpu(const nav_box *box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                             nav_real omega) {
  /* Each row's cells of one colour are computed into a buffer, then stored: the updates are
   * independent, and without stores to x in between they pipeline. */
#define NAV_RELAX_ROWS(DIM)                                                                                  \
  NAV_PRAGMA(omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(box)))                      \
  for (int k = 0; k < box->n[2]; k++)                                                                        \
    for (int j = 0; j < box->n[1]; j++) {                                                                    \
      nav_box b_local = *box;                                                                                \
      b_local.dim = DIM;                                                                                     \
      const nav_box *const b = &b_local;                                                                     \
      nav_real row[NAV_CPU_ROW];                                                                             \
      int ijk[3] = {0, j, k};                                                                                \
      const int i0 = nav_colour(b, ijk) == colour ? 0 : 1;                                                   \
      for (int ib = i0; ib < b->n[0]; ib += 2 * NAV_CPU_ROW) {                                               \
        const int iend = ib + 2 * NAV_CPU_ROW < b->n[0] ? ib + 2 * NAV_CPU_ROW : b->n[0];                    \
        const nav_idx p0 = nav_cpu_index(b, 0, j, k);                                                        \
        for (int i = ib; i < iend; i += 2) {                                                                 \
          ijk[0] = i;                                                                                        \
          row[(i - ib) >> 1] = nav_relax(b, x, rhs, inv_diag, p0 + i, ijk, omega);                                     \
        }                                                                                                    \
        for (int i = ib; i < iend; i += 2) x[p0 + i] = row[(i - ib) >> 1];                                   \
      }                                                                                                      \
    }
  if (box->dim == 2) {
    NAV_RELAX_ROWS(2)
  } else {
    NAV_RELAX_ROWS(3)
  }
#undef NAV_RELAX_ROWS
  return NAV_OK;
}

nav_err nav_relax_first_cpu(const nav_box *box, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                            nav_real omega) {
  NAV_CPU_LOOP(box, , {
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
  NAV_CPU_LOOP(box, , { x_new[p] = nav_relax(b, x, rhs, inv_diag, p, ijk, omega); });
  return NAV_OK;
}

nav_err nav_diag_scale_cpu(const nav_box *box, const nav_real *inv_diag, const nav_real *r, nav_real *z) {
  NAV_CPU_LOOP(box, , { z[p] = r[p] * inv_diag[p]; });
  return NAV_OK;
}

nav_err nav_restrict_residual_cpu(const nav_box *fine, const nav_real *r, const nav_box *coarse, nav_real *rhs) {
  NAV_CPU_LOOP(coarse, , { rhs[p] = nav_restrict(fine, r, (const nav_real *)NULL, b, ijk); });
  return NAV_OK;
}

nav_err nav_prolong_add_cpu(const nav_box *coarse, const nav_real *xc, const nav_box *fine, nav_real *x) {
  NAV_CPU_LOOP(fine, , { x[p] += nav_prolong(coarse, xc, b, ijk); });
  return NAV_OK;
}

/* The multigrid table of this backend (registered in backend/nav_backend.c); relax_sweep, residual_restrict,
 * residual_lo and add_lo are NULL here (nav_mg_kernels.h). */
const nav_mg_kernels nav_mg_kernels_cpu = {
    .relax_first = nav_relax_first_cpu,
    .relax_line = nav_relax_line_cpu,
    .line_solve = nav_line_solve_cpu,
    .line_update = nav_line_update_cpu,
};
