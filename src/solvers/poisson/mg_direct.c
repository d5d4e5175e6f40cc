/* Direct solve of the multigrid's coarsest level: a banded Cholesky factorisation.
 *
 * The coarsest level of a stretched 2D grid can be large and badly conditioned: 1704^2 coarsens to
 * 27^2 (an odd count below NAV_MG_ODD_MIN_CELLS stops the hierarchy), where Jacobi-preconditioned CG
 * to 1e-10 took about three times as long as the rest of the V-cycle (docs/performance.md). The level is small, serial and fixed, so it is factored once:
 *   M = -V L  (V = diag of the cell volumes; L the operator of nav_point_poisson.h with its ghost
 *             rules), symmetric positive definite, or semi-definite with the constants as null space
 *             (ps->singular): then the last unknown is pinned (its row and column replaced by the
 *             identity, its right-hand side 0). A compatible right-hand side (zero volume-weighted
 *             mean, restored before each solve) makes the pinned system's solution satisfy every
 *             equation, since the rows of M sum to zero; the mean of x is removed afterwards as before.
 * The solve is x = M^-1 (-V b), then one step of iterative refinement with the residual of L itself
 * (the band holds the probed lower triangle; the step takes the round-off of that and of the pinned
 * row back: on a 27 x 25 level stretched 1.15 per cell, relres 3e-11 -> 5e-12).
 * Unknowns are numbered as the dense block (x fastest), so M is banded with half-bandwidth w = the
 * largest stride of a coupling: N0 in 2D, N0 N1 in 3D, or (N_d - 1) stride_d across a periodic wrap.
 * The entries come from the operator itself: column j is L applied to the unit vector e_j (ghosts
 * filled by the level's own fill), read at j and its neighbours, so the boundary rules, the Helmholtz
 * coefficient and shifts need no second formula. Factor: n w^2 / 2 multiply-adds, once per operator
 * (nav_psolver_diagonals marks it stale); solve: 2 n w.
 * Applies to a serial coarsest level on the CPU backend with at most NAV_MG_DIRECT_CELLS cells and a
 * band of at most NAV_MG_DIRECT_BAND entries; elsewhere (and if a pivot is not positive) the
 * Jacobi-preconditioned CG of mg.c stays (for a pivot, until the operator changes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_poisson.h"
#include "core/nav_error.h"
#include "solvers/poisson/poisson_impl.h"

#define NAV_MG_DIRECT_CELLS 8192
#define NAV_MG_DIRECT_BAND (1 << 21) /* n (w + 1) doubles: 16 MB */
#define NAV_MG_DIRECT_PIVOT 1e-10    /* a pivot below this fraction of its diagonal entry: not definite */

/* Half-bandwidth of the level's couplings in the dense numbering. */
static long nav_mg_direct_width(const nav_level *lev) {
  long w = 0, stride = 1;
  for (int d = 0; d < lev->box.dim; d++) {
    const int n = lev->box.n[d];
    const long reach = n > 2 && lev->dc.periodic[d] ? (n - 1) * stride : n > 1 ? stride : 0;
    w = reach > w ? reach : w;
    stride *= n;
  }
  return w;
}

int nav_mg_direct_applies(const nav_level *lev) {
  const long n = (long)lev->box.n[0] * lev->box.n[1] * lev->box.n[2];
  return lev->active && lev->dc.size == 1 && lev->ops == &nav_kernel_ops_cpu && !lev->box.lo &&
         n <= NAV_MG_DIRECT_CELLS && n * (nav_mg_direct_width(lev) + 1) <= NAV_MG_DIRECT_BAND;
}

/* Entry (i, j), i >= j, i - j <= w, of the lower band. */
#define NAV_BAND(a, w, i, j) (a)[(size_t)(i) * ((w) + 1) + (size_t)((i) - (j))]

/* The dense index of ijk and the ghosted index. */
static long nav_mg_dense_index(const nav_box *b, const int *ijk) {
  return ijk[0] + (long)b->n[0] * (ijk[1] + (long)b->n[1] * ijk[2]);
}
static nav_idx nav_mg_ghosted_index(const nav_box *b, const int *ijk) {
  return b->off + ijk[0] * b->st[0] + ijk[1] * b->st[1] + ijk[2] * b->st[2];
}

/* Assemble M into the band (lev->r is the probe's scratch) and factor it in place. Returns NAV_OK with
 * *ok = 0 when a pivot is not positive (the caller keeps CG). */
static nav_err nav_mg_direct_factor(nav_psolver *ps, nav_level *lev, int *ok) {
  const nav_box *b = &lev->box;
  const long n = (long)b->n[0] * b->n[1] * b->n[2], w = nav_mg_direct_width(lev);
  double *a = ps->cband, *vol = ps->cband + (size_t)n * (w + 2);
  memset(a, 0, (size_t)n * (w + 1) * sizeof(double));
  nav_real *e = lev->r;
  NAV_CALL(lev->ops->set(b, e, 0));
  int jk[3] = {0, 0, 0};
  for (jk[2] = 0; jk[2] < b->n[2]; jk[2]++)
    for (jk[1] = 0; jk[1] < b->n[1]; jk[1]++)
      for (jk[0] = 0; jk[0] < b->n[0]; jk[0]++) {
        const long j = nav_mg_dense_index(b, jk);
        vol[j] = nav_cell_volume(b, jk);
        e[nav_mg_ghosted_index(b, jk)] = 1;
        NAV_CALL(nav_level_fill(lev, e));
        /* (L e_j) at j and at its neighbours (wrapped across periodic faces); each distinct cell once */
        long seen[7];
        int ns = 0;
        for (int q = 0; q < 2 * b->dim + 1; q++) {
          int ik[3] = {jk[0], jk[1], jk[2]};
          if (q > 0) {
            const int d = (q - 1) / 2;
            ik[d] += (q % 2) ? 1 : -1;
            if (ik[d] < 0 || ik[d] >= b->n[d]) {
              if (!lev->dc.periodic[d]) continue;
              ik[d] = (ik[d] + b->n[d]) % b->n[d];
            }
          }
          const long i = nav_mg_dense_index(b, ik);
          int dup = 0;
          for (int s = 0; s < ns; s++)
            dup |= seen[s] == i;
          if (dup || i < j) continue; /* the lower triangle: row i >= column j */
          seen[ns++] = i;
          nav_real dg;
          const double lij = nav_laplacian(b, e, nav_mg_ghosted_index(b, ik), ik, &dg);
          NAV_BAND(a, w, i, j) = -nav_cell_volume(b, ik) * lij;
        }
        e[nav_mg_ghosted_index(b, jk)] = 0;
      }
  NAV_CALL(nav_level_fill(lev, e)); /* zero again, ghosts included */
  if (ps->singular) {                   /* pin the last unknown */
    for (long j = n - 1 - w < 0 ? 0 : n - 1 - w; j < n - 1; j++)
      NAV_BAND(a, w, n - 1, j) = 0;
    NAV_BAND(a, w, n - 1, n - 1) = 1;
  }
  /* Cholesky M = C C^T in place, row by row: C(i,k) = (M(i,k) - sum_m C(i,m) C(k,m)) / C(k,k) */
  for (long i = 0; i < n; i++) {
    const long lo = i - w < 0 ? 0 : i - w;
    for (long k = lo; k <= i; k++) {
      const long mlo = k - w > lo ? k - w : lo;
      const double mik = NAV_BAND(a, w, i, k);
      double s = mik;
      for (long m = mlo; m < k; m++)
        s -= NAV_BAND(a, w, i, m) * NAV_BAND(a, w, k, m);
      if (k < i) {
        NAV_BAND(a, w, i, k) = s / NAV_BAND(a, w, k, k);
      } else {
        if (!(s > NAV_MG_DIRECT_PIVOT * mik)) { /* not (numerically) definite: a singular Helmholtz operator */
          *ok = 0;
          return NAV_OK;
        }
        NAV_BAND(a, w, i, i) = sqrt(s);
      }
    }
  }
  *ok = 1;
  return NAV_OK;
}

/* y = M^{-1} (-V rhs) by the two triangular solves with the factor (dense numbering). Singular: -V rhs
 * made compatible first (its sum removed in proportion to V: rhs loses its volume-weighted mean, which
 * the round-off of L x leaves in a refinement's residual), then the pinned unknown's entry 0. Without
 * that projection the pinned row would collect the whole sum and stall the iteration at ~5e-12. */
static void nav_mg_direct_substitute(const nav_psolver *ps, const nav_level *lev, nav_real *rhs, double *y) {
  const nav_box *b = &lev->box;
  const long n = (long)b->n[0] * b->n[1] * b->n[2], w = nav_mg_direct_width(lev);
  const double *a = ps->cband, *vol = ps->cband + (size_t)n * (w + 2);
  nav_level_dense(b, rhs, y, 1);
  for (long i = 0; i < n; i++)
    y[i] *= -vol[i];
  if (ps->singular) {
    double sum = 0;
    for (long i = 0; i < n; i++)
      sum += y[i];
    const double mean = sum / lev->volume; /* per unit volume */
    for (long i = 0; i < n; i++)
      y[i] -= mean * vol[i];
    y[n - 1] = 0;
  }
  for (long i = 0; i < n; i++) { /* C y' = y */
    double s = y[i];
    for (long m = i - w < 0 ? 0 : i - w; m < i; m++)
      s -= NAV_BAND(a, w, i, m) * y[m];
    y[i] = s / NAV_BAND(a, w, i, i);
  }
  for (long i = n - 1; i >= 0; i--) { /* C^T y'' = y' */
    double s = y[i];
    for (long m = i + 1; m <= i + w && m < n; m++)
      s -= NAV_BAND(a, w, m, i) * y[m];
    y[i] = s / NAV_BAND(a, w, i, i);
  }
}

nav_err nav_mg_direct_solve(nav_psolver *ps, nav_level *lev, int *done) {
  *done = 0;
  if (ps->cband_state < 0 || ps->cband_state == 2) return NAV_OK;
  const nav_box *b = &lev->box;
  const long n = (long)b->n[0] * b->n[1] * b->n[2], w = nav_mg_direct_width(lev);
  if (!ps->cband_state) {
    if (!ps->cband) {
      ps->cband = malloc((size_t)n * (w + 3) * sizeof(double)); /* the band, a dense vector, the volumes */
      NAV_CHECK(ps->cband, NAV_ERR_MEMORY, "cannot allocate the coarsest level's factor");
    }
    int ok = 0;
    NAV_CALL(nav_mg_direct_factor(ps, lev, &ok));
    ps->cband_state = ok ? 1 : 2;
    if (!ok) return NAV_OK;
  }
  double *y = ps->cband + (size_t)n * (w + 1);
  nav_mg_direct_substitute(ps, lev, lev->b, y); /* x = M^-1 b */
  nav_level_dense(b, lev->x, y, 0);
  /* one step of refinement with L's own residual: x += M^-1 (b - L x) */
  NAV_CALL(nav_level_fill(lev, lev->x));
  NAV_CALL(lev->ops->residual(b, lev->x, lev->b, lev->r, NULL));
  nav_mg_direct_substitute(ps, lev, lev->r, y);
  nav_level_dense(b, lev->r, y, 0);
  NAV_CALL(lev->ops->axpby(b, 1, lev->r, 1, lev->x));
  *done = 1;
  return NAV_OK;
}
