/* Multigrid line smoothing on stretched grids: the choice of the line directions of a level, and the
 * zebra line Gauss-Seidel sweep, with exact line solves across ranks.
 *
 * Where the cells are much thinner in one direction than in the others (aspect ratios of 1000 at the
 * walls of a channel), the coupling of L in that direction dominates and point Gauss-Seidel no longer
 * smooths the error along it (V-cycle factor 0.99 at aspect ratio 1000). A level relaxes by lines
 * along each direction d whose coupling is somewhere more than NAV_MG_LINE_ANISOTROPY times that of
 * the other directions together (nav_mg_line_dirs; [pressure] smoother = auto), a tridiagonal solve
 * per line (nav_line_solve, backend/common/nav_point_poisson.h: the Thomas algorithm on the CPU, a thread
 * block per line on the GPU, backend/common/nav_point_line.h); lines of one colour (the parity of
 * the global indices in the other directions) at a time. mg.c keeps the line directions uncoarsened
 * while another direction can be coarsened (semi-coarsening), which makes the cycle robust also
 * where the line direction is the weakly coupled one (the centre of a channel): measured factors in
 * docs/performance.md.
 *
 * Lines split over ranks (dc.p[d] > 1) are solved exactly, as on one rank: on its segment of a line
 * the correction is d = u + alpha v + beta w, with u the segment's solve with the neighbour segments'
 * corrections 0, v and w its responses to a unit correction of the low and the high ghost cell (set
 * up once per level) and alpha, beta those ghosts' corrections. The ends of u, v, w of every
 * segment of a line give a 2P x 2P banded system for the end corrections F_q, L_q of the P segments,
 *   F_q = u0_q + v0_q L_{q-1} + w0_q F_{q+1},   L_q = um_q + vm_q L_{q-1} + wm_q F_{q+1},
 * (L_{-1} = F_P = 0: the physical ends are in the segments' solves; a periodic wrap is kept at its
 * current value) which every rank of the line solves after an MPI_Allgather of the ends over the
 * ranks of the line (MPI_Cart_sub); then alpha = L_{q-1}, beta = F_{q+1}. One message per colour per
 * sweep of 2 reals per line and rank. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/common/nav_point_poisson.h"
#include "backend/nav_mg_kernels.h"
#include "core/nav_error.h"
#include "solvers/poisson/poisson_impl.h"

#define NAV_MG_LINE_ANISOTROPY 2.0 /* smoother auto: lines along a direction coupled this much more strongly */
#define NAV_MG_LINE_OMEGA 1.0      /* relaxation of the line solves */

/* The lines of a level along a direction split over ranks. */
struct nav_line_split {
  MPI_Comm comm;     /* the ranks of the line, ordered by their coordinate q along it */
  int P, q;
  long L;            /* lines of the block: n[oa] n[ob] */
  nav_real *v, *w;   /* unit responses (backend fields) */
  nav_real *ends;    /* backend, 2 L: the first and last value of each line's solve */
  nav_real *coef;    /* backend, 2 L: alpha, beta of each line */
  nav_real *stage;   /* host, 4 L */
  double *all;       /* host, P 2 L: the ends of u of every segment */
  double *resp;      /* host, P 4 L: v0, vm, w0, wm of every segment */
  double *band;      /* host, 2P x 5 band + 2P right-hand side */
};

/* Largest coupling of direction d over the level's cells, relative to the smallest couplings of the
 * other directions: max_i c_d(i) / sum_{e != d} min_j c_e(j), with c_d(i) = (1/dc_i + 1/dc_{i+1}) / df_i
 * the coefficients of L (separable widths). 1 on a uniform square grid, 1/2 on a cube. */
static double nav_mg_anisotropy(const nav_level *lev, int d) {
  double big = 0, others = 0;
  for (int e = 0; e < lev->dc.dim; e++) {
    const double *w = lev->w[e];
    double lo = HUGE_VAL, hi = 0;
    for (int i = 0; i < lev->N[e]; i++) {
      const double c = (2 / (w[i - 1] + w[i]) + 2 / (w[i] + w[i + 1])) / w[i];
      lo = fmin(lo, c);
      hi = fmax(hi, c);
    }
    if (e == d)
      big = hi;
    else
      others += lo;
  }
  return big / others;
}

int nav_mg_line_dirs(const nav_psolver *ps, const nav_level *lev, int dirs[3]) {
  const char *sm = ps->opt.smoother;
  int n = 0;
  if (!strcmp(sm, "point") || !ps->multigrid) return 0;
  for (int d = 0; d < lev->dc.dim; d++)
    if (!strcmp(sm, "line") || nav_mg_anisotropy(lev, d) > NAV_MG_LINE_ANISOTROPY) dirs[n++] = d;
  return n;
}

/* The 4 L host values of the backend array src (2 L values each of two arrays a, b interleaved as
 * a0, a1, b0, b1 per line) into dst. */
static nav_err nav_mg_line_fetch(const nav_level *lev, struct nav_line_split *s, const nav_real *ends, double *dst,
                                 int stride, int at) {
  NAV_CALL(lev->ops->to_host(s->stage, ends, 2 * (size_t)s->L * sizeof(nav_real)));
  for (long l = 0; l < s->L; l++) {
    dst[stride * l + at] = s->stage[2 * l];
    dst[stride * l + at + 1] = s->stage[2 * l + 1];
  }
  return NAV_OK;
}

static nav_err nav_mg_line_responses(nav_level *lev, int d);

/* Set up the split lines of direction d: communicator, responses v and w, their ends on every rank. */
static nav_err nav_mg_line_split_setup(nav_level *lev, int d) {
  struct nav_line_split *s = calloc(1, sizeof *s);
  NAV_CHECK(s, NAV_ERR_MEMORY, "cannot allocate the line solver");
  lev->split[d] = s;
  const nav_box *b = &lev->box;
  int oa, ob;
  nav_line_others(d, &oa, &ob);
  s->P = lev->dc.p[d];
  s->q = lev->dc.coord[d];
  s->L = (long)b->n[oa] * b->n[ob];
  const int remain[3] = {d == 0, d == 1, d == 2};
  NAV_CHECK(MPI_Cart_sub(lev->dc.comm, remain, &s->comm) == MPI_SUCCESS, NAV_ERR_MPI, "MPI_Cart_sub failed");
  const nav_kernel_ops *ops = lev->ops;
  const size_t field = (size_t)b->ntot * sizeof(nav_real), ends = 2 * (size_t)s->L * sizeof(nav_real);
  NAV_CALL(ops->alloc((void **)&s->v, field));
  NAV_CALL(ops->alloc((void **)&s->w, field));
  NAV_CALL(ops->alloc((void **)&s->ends, ends));
  NAV_CALL(ops->alloc((void **)&s->coef, ends));
  NAV_CALL(ops->set(b, s->v, 0));
  NAV_CALL(ops->set(b, s->w, 0));
  s->stage = malloc(2 * ends);
  s->all = malloc((size_t)s->P * 2 * s->L * sizeof(double));
  s->resp = malloc((size_t)s->P * 4 * s->L * sizeof(double));
  s->band = malloc((size_t)s->P * 12 * sizeof(double));
  NAV_CHECK(s->stage && s->all && s->resp && s->band, NAV_ERR_MEMORY, "cannot allocate the line solver");
  return nav_mg_line_responses(lev, d);
}

/* The unit responses v, w of the split lines of direction d and their ends on every rank of the line,
 * for the level's operator as it is now (its shift and coefficient: nav_line_solve reads them). */
static nav_err nav_mg_line_responses(nav_level *lev, int d) {
  struct nav_line_split *s = lev->split[d];
  const nav_kernel_ops *ops = lev->ops;
  const nav_box *b = &lev->box;
  double *mine = malloc(4 * (size_t)s->L * sizeof(double));
  NAV_CHECK(mine, NAV_ERR_MEMORY, "cannot allocate the line solver");
  nav_err e = nav_mg_kernels_of(ops)->line_solve(b, s->v, s->v, lev->lw, s->v, d, -1, lev->line_kind[d], 1, s->ends);
  if (e == NAV_OK) e = nav_mg_line_fetch(lev, s, s->ends, mine, 4, 0);
  if (e == NAV_OK)
    e = nav_mg_kernels_of(ops)->line_solve(b, s->w, s->w, lev->lw, s->w, d, -1, lev->line_kind[d], 2, s->ends);
  if (e == NAV_OK) e = nav_mg_line_fetch(lev, s, s->ends, mine, 4, 2);
  if (e == NAV_OK && MPI_Allgather(mine, (int)(4 * s->L), MPI_DOUBLE, s->resp, (int)(4 * s->L), MPI_DOUBLE, s->comm) !=
                         MPI_SUCCESS)
    e = nav_error_set(NAV_ERR_MPI, __FILE__, __LINE__, __func__, "MPI_Allgather of the line responses failed");
  free(mine);
  return e;
}

nav_err nav_mg_line_setup(const nav_psolver *ps, nav_level *lev) {
  lev->nline = nav_mg_line_dirs(ps, lev, lev->line_dir);
  if (!lev->nline) return NAV_OK;
  for (int q = 0; q < lev->nline; q++) {
    const int d = lev->line_dir[q];
    for (int s = 0; s < 2; s++) {
      const int edge = s ? lev->dc.coord[d] == lev->dc.p[d] - 1 : lev->dc.coord[d] == 0;
      const nav_scalar_bc bc = ps->bc[d][s];
      lev->line_kind[d][s] = !edge || bc == NAV_SCALAR_PERIODIC ? 0 : bc == NAV_SCALAR_NEUMANN ? 1 : -1;
    }
  }
  NAV_CALL(lev->ops->alloc((void **)&lev->lw, (size_t)lev->box.ntot * sizeof(nav_real)));
  NAV_CALL(lev->ops->set(&lev->box, lev->lw, 0));
  for (int q = 0; q < lev->nline; q++)
    if (lev->dc.p[lev->line_dir[q]] > 1 && lev->comm != MPI_COMM_NULL)
      NAV_CALL(nav_mg_line_split_setup(lev, lev->line_dir[q]));
  return NAV_OK;
}

nav_err nav_mg_line_refresh(nav_level *lev) {
  for (int d = 0; d < 3; d++)
    if (lev->split[d]) NAV_CALL(nav_mg_line_responses(lev, d));
  return NAV_OK;
}

void nav_mg_line_free(nav_level *lev) {
  const nav_kernel_ops *ops = lev->ops;
  if (lev->lw) ops->free(lev->lw);
  lev->lw = NULL;
  for (int d = 0; d < 3; d++) {
    struct nav_line_split *s = lev->split[d];
    if (!s) continue;
    nav_real *dev[4] = {s->v, s->w, s->ends, s->coef};
    for (int i = 0; i < 4; i++)
      if (dev[i]) ops->free(dev[i]);
    if (s->comm != MPI_COMM_NULL && s->comm) MPI_Comm_free(&s->comm);
    free(s->stage);
    free(s->all);
    free(s->resp);
    free(s->band);
    free(s);
    lev->split[d] = NULL;
  }
}

/* The end corrections of line l from its segments' ends (the banded system of the file comment,
 * unknowns z_{2q} = F_q, z_{2q+1} = L_q, eliminated without pivoting: it is the Schur complement of a
 * diagonally dominant tridiagonal system); alpha = L_{q-1}, beta = F_{q+1} of this rank's segment. */
static void nav_mg_line_reduced(const struct nav_line_split *s, long l, double *alpha, double *beta) {
  const int n = 2 * s->P;
  double *A = s->band, *z = s->band + 5 * n; /* A[5 i + 2 + (j - i)]: row i, column j, |j - i| <= 2 */
  memset(A, 0, (size_t)6 * n * sizeof *A);
  for (int q = 0; q < s->P; q++) {
    const double *r = s->resp + 4 * ((size_t)q * s->L + l), *u = s->all + 2 * ((size_t)q * s->L + l);
    for (int k = 0; k < 2; k++) { /* row 2q + k: F_q (k = 0) or L_q (k = 1) */
      const int i = 2 * q + k;
      A[5 * i + 2] = 1;
      if (q > 0) A[5 * i + 2 + (2 * q - 1 - i)] = -r[k];            /* -v0 or -vm times L_{q-1} */
      if (q < s->P - 1) A[5 * i + 2 + (2 * q + 2 - i)] = -r[2 + k]; /* -w0 or -wm times F_{q+1} */
      z[i] = u[k];
    }
  }
  for (int i = 0; i < n; i++)
    for (int k = i + 1; k <= i + 2 && k < n; k++) {
      const double f = A[5 * k + 2 + (i - k)] / A[5 * i + 2];
      if (f == 0) continue;
      for (int j = i; j <= i + 2 && j < n; j++) A[5 * k + 2 + (j - k)] -= f * A[5 * i + 2 + (j - i)];
      z[k] -= f * z[i];
    }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j <= i + 2 && j < n; j++) z[i] -= A[5 * i + 2 + (j - i)] * z[j];
    z[i] /= A[5 * i + 2];
  }
  *alpha = s->q > 0 ? z[2 * s->q - 1] : 0;
  *beta = s->q < s->P - 1 ? z[2 * s->q + 2] : 0;
}

/* One colour of the lines along d split over ranks: u, the ends over the line's ranks, the reduced
 * systems, then x += omega (u + alpha v + beta w). */
static nav_err nav_mg_line_split_colour(nav_level *lev, int d, int colour) {
  struct nav_line_split *s = lev->split[d];
  const nav_kernel_ops *ops = lev->ops;
  const nav_mg_kernels *mk = nav_mg_kernels_of(ops);
  const nav_box *b = &lev->box;
  NAV_CALL(mk->line_solve(b, lev->x, lev->b, lev->lw, lev->r, d, colour, lev->line_kind[d], 0, s->ends));
  double *mine = s->all + (size_t)s->q * 2 * s->L; /* this rank's place in the gathered array */
  NAV_CALL(nav_mg_line_fetch(lev, s, s->ends, mine, 2, 0));
  NAV_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s->all, (int)(2 * s->L), MPI_DOUBLE, s->comm) ==
                MPI_SUCCESS,
            NAV_ERR_MPI, "MPI_Allgather of the line ends failed");
  int oa, ob;
  nav_line_others(d, &oa, &ob);
  for (long l = 0; l < s->L; l++) {
    const int ka = (int)(l % b->n[oa]), kb = (int)(l / b->n[oa]);
    double alpha = 0, beta = 0;
    if (((b->g0[oa] + ka + b->g0[ob] + kb) & 1) == colour) nav_mg_line_reduced(s, l, &alpha, &beta);
    s->stage[2 * l] = (nav_real)alpha;
    s->stage[2 * l + 1] = (nav_real)beta;
  }
  NAV_CALL(ops->from_host(s->coef, s->stage, 2 * (size_t)s->L * sizeof(nav_real)));
  return mk->line_update(b, lev->x, lev->r, s->v, s->w, s->coef, d, colour, (nav_real)NAV_MG_LINE_OMEGA);
}

nav_err nav_mg_line_sweep(nav_psolver *ps, nav_level *lev, int order) {
  (void)ps;
  for (int q = 0; q < lev->nline; q++) {
    const int d = lev->line_dir[order ? lev->nline - 1 - q : q];
    for (int h = 0; h < 2; h++) {
      if (lev->split[d])
        NAV_CALL(nav_mg_line_split_colour(lev, d, h ^ order));
      else
        NAV_CALL(nav_mg_kernels_of(lev->ops)->relax_line(&lev->box, lev->x, lev->b, lev->lw, lev->r, d, h ^ order,
                                                         lev->line_kind[d], (nav_real)NAV_MG_LINE_OMEGA));
      NAV_CALL(nav_level_fill(lev, lev->x));
    }
  }
  return NAV_OK;
}
