/* Poisson solver front end: set-up, solve dispatch, stopping rule, null space. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

/* Set the pinned boundary face slots of a level-0 field x (NAV_SCALAR_FACE faces of this block
 * that are not shared with a neighbour rank) with the ghost kind `kind`. */
static nav_err nav_level_pin(nav_psolver *ps, const nav_level *lev, nav_real *x, nav_ghost_kind kind) {
  for (int d = 0; d < lev->box.dim; d++)
    for (int s = 0; s < 2; s++)
      if (ps->bc[d][s] == NAV_SCALAR_FACE && !nav_halo_face(lev->halo, d, s))
        NAV_CALL(lev->ops->fill_ghost(&lev->box, x, d, s, kind, 0, 0));
  return NAV_OK;
}

nav_err nav_level_fill(nav_psolver *ps, const nav_level *lev, nav_real *x) {
  NAV_CALL(nav_fill_scalar_ghosts(lev->ops, &lev->box, lev->halo, (const nav_scalar_bc(*)[2])ps->bc, x));
  /* on level 0 of a staggered solve the boundary face slot is an unknown pinned to 0 whose row is
   * inert: x_0 = 0 and x_{-1} = -x_1, so that (L x)_0 = 0 (equal face distances either side) */
  return lev == &ps->lev[0] ? nav_level_pin(ps, lev, x, NAV_GHOST_FACE) : NAV_OK;
}

nav_err nav_level_fill_coefficient(nav_psolver *ps, const nav_level *lev, nav_real *k) {
  nav_scalar_bc bc[3][2];
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      bc[d][s] = ps->bc[d][s] == NAV_SCALAR_PERIODIC ? NAV_SCALAR_PERIODIC : NAV_SCALAR_NEUMANN;
  NAV_CALL(nav_fill_scalar_ghosts(lev->ops, &lev->box, lev->halo, (const nav_scalar_bc(*)[2])bc, k));
  /* even about a pinned face slot, so that its row stays inert: k_{-1/2} = k_{+1/2} */
  return lev == &ps->lev[0] ? nav_level_pin(ps, lev, k, NAV_GHOST_REFLECT) : NAV_OK;
}

nav_err nav_level_dot(const nav_level *lev, const nav_real *x, const nav_real *y, double *sum) {
  NAV_CALL(lev->ops->dot(&lev->box, x, y, sum));
  nav_reduce_sum(lev->comm, sum, 1);
  return NAV_OK;
}

double nav_level_norm(const nav_level *lev, double sum_sq) { return sqrt(fmax(sum_sq, 0) / lev->volume); }

nav_err nav_level_remove_mean_sum(const nav_level *lev, nav_real *x, const double *local, double *sum) {
  if (local)
    NAV_CALL(lev->ops->to_host(sum, local, sizeof *sum));
  else
    NAV_CALL(lev->ops->sum(&lev->box, x, sum));
  nav_reduce_sum(lev->comm, sum, 1);
  return lev->ops->shift(&lev->box, x, (nav_real)(-*sum / lev->volume));
}

nav_err nav_level_remove_mean(const nav_level *lev, nav_real *x) {
  double s;
  return nav_level_remove_mean_sum(lev, x, NULL, &s);
}

nav_err nav_level_init(nav_psolver *ps, nav_level *lev, const nav_kernel_ops *ops, const nav_decomp *dc,
                       double *const w[3], int finest) {
  (void)ps;
  lev->ops = ops;
  const int dim = dc->dim, zero[3] = {0, 0, 0};
  NAV_CALL(nav_decomp_copy(dc, &lev->dc));
  lev->comm = dc->size > 1 ? dc->comm : MPI_COMM_NULL;
  lev->active = 1;
  for (int d = 0; d < 3; d++) lev->N[d] = dc->N[d];
  for (int d = 0; d < dim; d++) {
    lev->w[d] = nav_widths_alloc(dc->N[d]);
    NAV_CHECK(lev->w[d], NAV_ERR_MEMORY, "cannot allocate widths");
    memcpy(lev->w[d] - 1, w[d] - 1, ((size_t)dc->N[d] + 2) * sizeof(double));
  }
  lev->volume = nav_box_volume(dim, dc->N, zero, lev->w);
  NAV_CALL(nav_box_create(ops, dim, dc->n, dc->g0, lev->w, &lev->box));
  NAV_CALL(nav_halo_create(ops, dc, &lev->box, &lev->halo));
  const size_t bytes = (size_t)lev->box.ntot * sizeof(nav_real);
  nav_real **v[4] = {&lev->r, &lev->inv_diag, &lev->x, &lev->b};
  for (int i = 0; i < (finest ? 2 : 4); i++) {
    NAV_CALL(ops->alloc((void **)v[i], bytes));
    NAV_CALL(ops->set(&lev->box, *v[i], 0));
  }
  return ops->inverse_diagonal(&lev->box, lev->inv_diag);
}

void nav_level_free(nav_psolver *ps, nav_level *lev, int finest) {
  (void)ps;
  const nav_kernel_ops *ops = lev->ops;
  if (!ops) { /* a level this rank does not work on: partition and widths only */
    for (int d = 0; d < 3; d++) nav_widths_free(lev->w[d]);
    nav_decomp_release(&lev->dc);
    memset(lev, 0, sizeof *lev);
    return;
  }
  nav_real *v[6] = {lev->r, lev->inv_diag, finest ? NULL : lev->x, finest ? NULL : lev->b, lev->kc, lev->sv};
  for (int i = 0; i < 6; i++)
    if (v[i]) ops->free(v[i]);
  nav_mg_line_free(lev);
  for (int d = 0; d < 3; d++) nav_widths_free(lev->w[d]);
  nav_halo_destroy(lev->halo);
  if (lev->box.ntot) nav_box_destroy(ops, &lev->box);
  nav_decomp_release(&lev->dc);
  memset(lev, 0, sizeof *lev);
}

/* Allocate n work vectors of the finest level into ps->work. */
static nav_err nav_psolver_work(nav_psolver *ps, int n) {
  const nav_level *l0 = &ps->lev[0];
  for (int i = 0; i < n; i++) {
    NAV_CALL(ps->ops->alloc((void **)&ps->work[i], (size_t)l0->box.ntot * sizeof(nav_real)));
    NAV_CALL(ps->ops->set(&l0->box, ps->work[i], 0));
  }
  return NAV_OK;
}

static const char *const nav_psolver_names[] = {"mg", "mgpcg", "pcg", "sor", "jacobi", "fft", NULL};

nav_err nav_psolver_create(const nav_kernel_ops *ops, const nav_decomp *dc, int dim, const int n[3], double *const w[3],
                           const nav_scalar_bc bc[3][2], const nav_psolver_options *opt, nav_psolver **out) {
  const double t0 = nav_wtime();
  int kind = -1;
  for (int i = 0; nav_psolver_names[i]; i++)
    if (!strcmp(opt->solver, nav_psolver_names[i])) kind = i;
  char why[256];
  /* auto: fft where it applies (and its dense transforms are short enough), else the multigrid. Where the FFT's
   * transposes would go through the host (all the data, twice per solve, over PCIe: 136 against 24 ms per step of the
   * 2-GPU cavity at 256^3 per GPU, docs/performance.md) auto keeps the multigrid; slabs move only the lines' ends. */
  const int host_transposes = nav_fft_host_staged(ops, dc, w, bc);
  if (!strcmp(opt->solver, "auto"))
    kind =
        !host_transposes && nav_fft_applies(ops, dim, n, w, bc, why, sizeof why) && nav_fft_dense_cheap(ops, dim, n, w)
            ? NAV_PSOLVER_FFT
            : NAV_PSOLVER_MG;
  NAV_CHECK(kind >= 0, NAV_ERR_INPUT, "pressure solver '%s': unknown (auto, fft, mg, mgpcg, pcg, sor, jacobi)",
            opt->solver);
  NAV_CHECK(opt->tolerance > 0 && opt->tolerance < 1, NAV_ERR_INPUT, "pressure tolerance %g: must be in (0, 1)",
            opt->tolerance);
  NAV_CHECK(opt->max_iterations > 0, NAV_ERR_INPUT, "pressure max_iterations %d: must be > 0", opt->max_iterations);
  NAV_CHECK(!strcmp(opt->cycle, "v") || !strcmp(opt->cycle, "f"), NAV_ERR_INPUT, "multigrid cycle '%s': unknown (v, f)",
            opt->cycle);
  NAV_CHECK(opt->pre_smooth >= 0 && opt->post_smooth >= 0 && opt->pre_smooth + opt->post_smooth > 0, NAV_ERR_INPUT,
            "multigrid smoothing counts %d, %d: must be >= 0 and not both 0", opt->pre_smooth, opt->post_smooth);
  NAV_CHECK(kind != NAV_PSOLVER_MGPCG || opt->pre_smooth == opt->post_smooth, NAV_ERR_INPUT,
            "mgpcg needs a symmetric cycle: pre_smooth (%d) must equal post_smooth (%d)", opt->pre_smooth,
            opt->post_smooth);
  NAV_CHECK(!opt->smoother[0] || !strcmp(opt->smoother, "auto") || !strcmp(opt->smoother, "point") ||
                !strcmp(opt->smoother, "line"),
            NAV_ERR_INPUT, "multigrid smoother '%s': unknown (auto, point, line)", opt->smoother);
  NAV_CHECK(opt->omega >= 0 && opt->omega < 2, NAV_ERR_INPUT, "relaxation factor omega %g: must be in [0, 2)",
            opt->omega);
  NAV_CHECK(opt->sweeps >= 0 && (!opt->sweeps || (kind == NAV_PSOLVER_MG && opt->helmholtz)), NAV_ERR_INPUT,
            "%d smoothing sweeps per solve: only a Helmholtz multigrid (implicit diffusion) solves by sweeps",
            opt->sweeps);
  for (int d = 0; d < dim; d++)
    NAV_CHECK((bc[d][0] == NAV_SCALAR_PERIODIC) == (bc[d][1] == NAV_SCALAR_PERIODIC), NAV_ERR_INPUT,
              "direction %d: periodic on one side only", d);
  nav_psolver *ps = calloc(1, sizeof *ps);
  NAV_CHECK(ps, NAV_ERR_MEMORY, "cannot allocate the Poisson solver");
  *out = ps;
  ps->ops = ops;
  ps->opt = *opt;
  /* Precision floor of the relative residual: the round-off of L x grows like eps N^2 (the
   * condition number of the Laplacian); measured in single precision (docs/performance.md):
   * random right-hand sides: 2D 128^2 4.3e-6 (fft) and 2.6e-6 (mg), 2D 1024^2 6.2e-5 and 1e-5,
   * 3D 128^3 1.5e-6 and 3.6e-7; the first step of a cavity (corner singularities) 1.4e-5 (fft, 128^2).
   * An iterative solver's tolerance below eps max(1000, N^2 / 100) (N the largest cell count: in
   * single 1.2e-4 up to N = 316, 1.25e-3 at 1024; in double 2.2e-13, 2.3e-12 at 1024) cannot be
   * reached reliably and is raised to it. The FFT solver is direct: its residual is round-off, and
   * it is checked against max(tolerance, 1e4 eps) (1.2e-3 in single) to catch a broken transform. */
  double longest = 1;
  for (int d = 0; d < dim; d++) longest = fmax(longest, n[d]);
  ps->tol_asked = opt->tolerance;
  ps->opt.tolerance = fmax(opt->tolerance, NAV_REAL_EPS * fmax(1000, longest * longest / 100));
  ps->kind = kind;
  memcpy(ps->bc, bc, sizeof ps->bc);
  ps->kmax = 1;
  ps->bottom = NAV_MG_MAX_LEVELS + 1;
  ps->singular = !opt->helmholtz;
  for (int d = 0; d < dim; d++)
    for (int s = 0; s < 2; s++)
      if (bc[d][s] == NAV_SCALAR_DIRICHLET || bc[d][s] == NAV_SCALAR_FACE) ps->singular = 0;
  /* staggered unknowns: the level-0 cells are the control volumes of the faces of direction c */
  const int c = opt->staggered - 1;
  double *const *wcell = w;
  double *wd[3] = {w[0], w[1], w[2]};
  if (c >= 0) {
    NAV_CHECK(c < dim, NAV_ERR_INTERNAL, "nav_psolver_create: staggered direction %d of %d", c, dim);
    wd[c] = nav_widths_alloc(n[c]);
    NAV_CHECK(wd[c], NAV_ERR_MEMORY, "cannot allocate widths");
    for (int i = 0; i < n[c]; i++) wd[c][i] = 0.5 * (w[c][i - 1] + w[c][i]);
    nav_widths_ghosts(wd[c], n[c], bc[c][0] == NAV_SCALAR_PERIODIC);
  }
  w = wd;

  nav_level *l0 = &ps->lev[0];
  ps->nlev = 1;
  ps->gather = NAV_MG_MAX_LEVELS + 1;
  if (dc) {
    for (int d = 0; d < dim; d++)
      NAV_CHECK(dc->N[d] == n[d], NAV_ERR_INTERNAL, "nav_psolver_create: grid %d != decomposition %d", n[d], dc->N[d]);
    NAV_CALL(nav_level_init(ps, l0, ops, dc, w, 1));
  } else {
    nav_decomp one;
    int periodic[3];
    for (int d = 0; d < 3; d++) periodic[d] = d < dim && bc[d][0] == NAV_SCALAR_PERIODIC;
    nav_err e = nav_decomp_serial(dim, n, periodic, &one);
    if (e == NAV_OK) e = nav_level_init(ps, l0, ops, &one, w, 1);
    nav_decomp_release(&one);
    NAV_CALL(e);
  }
  if (c >= 0) nav_widths_free(wd[c]); /* the levels keep copies */
  if (c >= 0) { /* level 0 between unknowns i-1 and i: the face distance w_{i-1} (the fine widths) */
    const nav_box *b0 = &l0->box;
    const int m = b0->n[c];
    nav_real *host = calloc((size_t)m + 3, sizeof *host);
    NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate metric arrays");
    for (int i = 0; i <= m; i++) host[i + 1] = (nav_real)(1.0 / wcell[c][b0->g0[c] + i - 1]);
    const nav_err e = ops->from_host((void *)(b0->rdc[c] - 1), host, ((size_t)m + 3) * sizeof *host);
    free(host);
    NAV_CALL(e);
    NAV_CALL(ops->inverse_diagonal(b0, l0->inv_diag));
  }
  NAV_CHECK(!opt->precision[0] || !strcmp(opt->precision, "double") || !strcmp(opt->precision, "mixed"),
            NAV_ERR_INPUT, "multigrid precision '%s': unknown (double, mixed)", opt->precision);
  switch (kind) {
  case NAV_PSOLVER_MG:
    NAV_CALL(nav_mg_setup(ps));
    if (!strcmp(opt->precision, "mixed")) {
      if (nav_mg_mixed_applies(ps, ps->lo_why, sizeof ps->lo_why)) NAV_CALL(nav_mg_mixed_setup(ps));
    }
    break;
  case NAV_PSOLVER_MGPCG:
    NAV_CALL(nav_mg_setup(ps));
    if (!strcmp(opt->precision, "mixed")) nav_mg_mixed_applies(ps, ps->lo_why, sizeof ps->lo_why); /* the reason */
    NAV_CALL(nav_psolver_work(ps, 4));
    break;
  case NAV_PSOLVER_PCG: NAV_CALL(nav_psolver_work(ps, 3)); break;
  case NAV_PSOLVER_SOR: ps->omega = opt->omega > 0 ? opt->omega : nav_sor_omega_estimate(ps); break;
  case NAV_PSOLVER_JACOBI:
    ps->omega = opt->omega > 0 ? opt->omega : 0.8;
    NAV_CALL(nav_psolver_work(ps, 1));
    break;
  case NAV_PSOLVER_FFT:
    NAV_CALL(nav_fft_setup(ps));
    if (opt->async && ps->singular && !opt->staggered) { /* nav_psolver_rhs_sum */
      NAV_CALL(ops->alloc((void **)&ps->bsum, sizeof(double)));
      NAV_CALL(ops->alloc_host((void **)&ps->bsum_host, sizeof(double)));
    }
    break;
  }
  ps->setup_s = nav_wtime() - t0;
  return NAV_OK;
}

void nav_psolver_destroy(nav_psolver *ps) {
  if (!ps) return;
  const nav_kernel_ops *ops = ps->ops;
  nav_fft_destroy(ps);
  if (ps->bsum) ops->free(ps->bsum);
  if (ps->bsum_host) ops->free_host(ps->bsum_host);
  free(ps->gblock);
  free(ps->gglobal);
  free(ps->gstage);
  free(ps->cband);
  nav_mg_graphs_free(ps);
  for (int i = 0; i < NAV_PSOLVER_WORK; i++)
    if (ps->work[i]) ops->free(ps->work[i]);
  nav_real *v[3] = {ps->cz, ps->cp, ps->cq};
  for (int i = 0; i < 3; i++)
    if (v[i]) ps->coarse_ops->free(v[i]);
  for (int i = 0; i < 3; i++)
    if (ps->lo0[i]) ops->free(ps->lo0[i]);
  for (int l = 0; l < ps->nlev; l++) nav_level_free(ps, &ps->lev[l], l == 0);
  if (ps->transfer.dc.start[0]) nav_level_free(ps, &ps->transfer, 0);
  free(ps);
}

double nav_psolver_setup_seconds(const nav_psolver *ps) { return ps->setup_s; }

long nav_psolver_overlapped(const nav_psolver *ps) { return ps->overlapped; }

int nav_psolver_iterative(const nav_psolver *ps) { return ps->kind != NAV_PSOLVER_FFT && !ps->opt.sweeps; }

void nav_psolver_describe(const nav_psolver *ps, char *text, int size) {
  const int *c = ps->lev[ps->nlev - 1].N;
  char gathered[96] = "";
  if (ps->gather < ps->nlev)
    snprintf(gathered, sizeof gathered, ", levels %d-%d gathered on rank 0%s", ps->gather + 1, ps->nlev,
             ps->ops != &nav_kernel_ops_cpu ? " (on its CPU)" : "");
  char sing[96];
  snprintf(sing, sizeof sing, "%s", ps->singular ? ", singular (zero-mean)" : "");
  if (ps->opt.tolerance > ps->tol_asked)
    snprintf(sing + strlen(sing), sizeof sing - strlen(sing), ", tolerance raised to %.1e (precision)",
             ps->opt.tolerance);
  char lines[96] = ""; /* line smoothing: the directions and the levels (rank 0's view) */
  int nl = 0, dirs = 0;
  for (int l = 0; l < ps->nlev; l++) {
    nl += ps->lev[l].nline > 0;
    for (int q = 0; q < ps->lev[l].nline; q++) dirs |= 1 << ps->lev[l].line_dir[q];
  }
  if (nl)
    snprintf(lines, sizeof lines, ", zebra lines along %s%s%s on %d level(s)", dirs & 1 ? "x" : "",
             dirs & 2 ? "y" : "", dirs & 4 ? "z" : "", nl);
  if (ps->opt.sweeps) {
    snprintf(text, (size_t)size, "%d smoothing sweep(s) per solve from zero (no coarse levels, no tolerance)%s",
             ps->opt.sweeps, lines);
    return;
  }
  switch (ps->kind) {
  case NAV_PSOLVER_MG:
  case NAV_PSOLVER_MGPCG:
    snprintf(text, (size_t)size, "%s%s(%d,%d)-cycle, %d levels%s%s, coarsest %dx%dx%d solved %s%s",
             ps->kind == NAV_PSOLVER_MGPCG ? "CG preconditioned by a multigrid " : "multigrid ",
             ps->kind == NAV_PSOLVER_MG && !strcmp(ps->opt.cycle, "f") ? "F" : "V", ps->opt.pre_smooth,
             ps->opt.post_smooth, ps->nlev, lines, gathered, c[0], c[1], c[2],
             ps->cband_state >= 0 ? "directly (banded Cholesky)" : "by CG", sing);
    if (ps->graphs > 0 && (int)strlen(text) < size)
      snprintf(text + strlen(text), (size_t)size - strlen(text), ", V-cycle device levels as CUDA graphs");
    if (ps->lo && (int)strlen(text) < size)
      snprintf(text + strlen(text), (size_t)size - strlen(text), ", float cycles in a double iteration (mixed)");
    else if (ps->lo_why[0] && (int)strlen(text) < size)
      snprintf(text + strlen(text), (size_t)size - strlen(text), ", precision mixed not applied: %s", ps->lo_why);
    break;
  case NAV_PSOLVER_PCG: snprintf(text, (size_t)size, "Jacobi-preconditioned CG%s", sing); break;
  case NAV_PSOLVER_FFT:
    nav_fft_describe(ps, text, size);
    if (ps->opt.tolerance > ps->tol_asked && (int)strlen(text) < size)
      snprintf(text + strlen(text), (size_t)size - strlen(text), ", tolerance raised to %.1e (precision)",
               ps->opt.tolerance);
    break;
  case NAV_PSOLVER_SOR: snprintf(text, (size_t)size, "red-black SOR, omega %.4f%s", ps->omega, sing); break;
  default: snprintf(text, (size_t)size, "damped Jacobi, omega %.3f%s", ps->omega, sing); break;
  }
}

/* r = b - L x on level 0 and *rr = sum r^2 dV over every rank; r in l0->r, or with the mixed-precision
 * multigrid in float as the next cycle's right-hand side (ps->lo0[1], mg.c). */
static nav_err nav_psolver_residual(nav_psolver *ps, const nav_real *x, const nav_real *b, double *rr) {
  nav_level *l0 = &ps->lev[0];
  if (ps->lo)
    NAV_CALL(ps->ops->residual_lo(&l0->box, x, b, (float *)(void *)ps->lo0[1], rr));
  else
    NAV_CALL(ps->ops->residual(&l0->box, x, b, l0->r, rr));
  nav_reduce_sum(l0->comm, rr, 1);
  return NAV_OK;
}

/* Stationary iterations (mg cycles, sor sweeps, jacobi steps) until ||r|| <= tol ||b||. */
static nav_err nav_psolver_iterate(nav_psolver *ps, nav_real *x, const nav_real *b, double bnorm,
                                   nav_psolver_stats *st) {
  const nav_kernel_ops *ops = ps->ops;
  nav_level *l0 = &ps->lev[0];
  const int fcycle = !strcmp(ps->opt.cycle, "f");
  double rr;
  NAV_CALL(nav_level_fill(ps, l0, x));
  NAV_CALL(nav_psolver_residual(ps, x, b, &rr));
  double rnorm = nav_level_norm(l0, rr);
  while (rnorm > ps->opt.tolerance * bnorm && st->iterations < ps->opt.max_iterations) {
    switch (ps->kind) {
    case NAV_PSOLVER_MG: NAV_CALL(ps->lo ? nav_mg_cycle_lo(ps, x, fcycle) : nav_mg_cycle(ps, 0, fcycle)); break;
    case NAV_PSOLVER_SOR:
      for (int h = 0; h < 2; h++) {
        NAV_CALL(ops->relax_colour(&l0->box, x, b, l0->inv_diag, h, (nav_real)ps->omega));
        NAV_CALL(nav_level_fill(ps, l0, x));
      }
      break;
    default: /* jacobi: x_new in work[0], copied back */
      NAV_CALL(ops->jacobi(&l0->box, x, b, l0->inv_diag, ps->work[0], (nav_real)ps->omega));
      NAV_CALL(ops->copy(x, ps->work[0], (size_t)l0->box.ntot * sizeof(nav_real)));
      NAV_CALL(nav_level_fill(ps, l0, x));
      break;
    }
    NAV_CALL(nav_psolver_residual(ps, x, b, &rr));
    rnorm = nav_level_norm(l0, rr);
    st->iterations++;
    NAV_CHECK(isfinite(rnorm), NAV_ERR_CONVERGENCE, "%s diverged (residual %g after %d iterations)", ps->opt.solver,
              rnorm, st->iterations);
  }
  st->relres = rnorm / bnorm;
  return NAV_OK;
}

/* Every level this rank works on, the transfer level excluded (it is never smoothed). */
static nav_err nav_psolver_diagonals(nav_psolver *ps) {
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active) continue;
    lev->box.shift = (nav_real)ps->sigma;
    /* read by the point smoother and the Jacobi preconditioner; a line-smoothed level takes its diagonal from
     * the stencil (nav_line_row) */
    if (!lev->nline) NAV_CALL(lev->ops->inverse_diagonal(&lev->box, lev->inv_diag));
    NAV_CALL(nav_mg_line_refresh(lev)); /* the split lines' responses follow the operator */
  }
  nav_mg_bottom(ps);
  if (ps->cband_state > 0) ps->cband_state = 0; /* the coarsest level's factor follows the operator */
  ps->diag_stale = 0;
  return NAV_OK;
}

void nav_psolver_set_floor(nav_psolver *ps, double floor) { ps->floor = floor; }

nav_err nav_psolver_set_shift(nav_psolver *ps, double sigma) {
  NAV_CHECK(ps->opt.helmholtz && sigma >= 0, NAV_ERR_INTERNAL, "nav_psolver_set_shift: not a Helmholtz solver");
  if (sigma == ps->sigma && !ps->diag_stale) return NAV_OK;
  ps->sigma = sigma;
  return nav_psolver_diagonals(ps);
}

nav_err nav_psolver_set_coefficient(nav_psolver *ps, const nav_real *k) {
  NAV_CHECK(ps->opt.helmholtz, NAV_ERR_INTERNAL, "nav_psolver_set_coefficient: not a Helmholtz solver");
  ps->diag_stale = 1;
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active) continue;
    if (k && !lev->kc) {
      NAV_CALL(lev->ops->alloc((void **)&lev->kc, (size_t)lev->box.ntot * sizeof(nav_real)));
      NAV_CALL(lev->ops->set(&lev->box, lev->kc, 1));
    }
    lev->box.kc = k ? lev->kc : NULL;
  }
  ps->kmax = 1;
  if (!k) return NAV_OK;
  nav_level *l0 = &ps->lev[0];
  if (!ps->opt.sweeps) { /* for nav_mg_bottom's rule (no coarse levels with sweeps: no reduction, no wait) */
    double kmax;
    NAV_CALL(ps->ops->max_abs_diff(&l0->box, k, NULL, NULL, &kmax, NULL));
    nav_reduce_max(l0->comm, &kmax, 1);
    ps->kmax = kmax;
  }
  NAV_CALL(ps->ops->copy(l0->kc, k, (size_t)l0->box.ntot * sizeof(nav_real)));
  NAV_CALL(nav_level_fill_coefficient(ps, l0, l0->kc));
  return nav_mg_coefficients(ps);
}

nav_err nav_psolver_set_shift_field(nav_psolver *ps, const nav_real *s) {
  NAV_CHECK(ps->opt.helmholtz, NAV_ERR_INTERNAL, "nav_psolver_set_shift_field: not a Helmholtz solver");
  ps->diag_stale = 1;
  for (int l = 0; l < ps->nlev; l++) {
    nav_level *lev = &ps->lev[l];
    if (!lev->active) continue;
    if (s && !lev->sv) {
      NAV_CALL(lev->ops->alloc((void **)&lev->sv, (size_t)lev->box.ntot * sizeof(nav_real)));
      NAV_CALL(lev->ops->set(&lev->box, lev->sv, 0));
    }
    lev->box.sc = s ? lev->sv : NULL;
  }
  if (!s) return NAV_OK;
  nav_level *l0 = &ps->lev[0];
  NAV_CALL(ps->ops->copy(l0->sv, s, (size_t)l0->box.ntot * sizeof(nav_real)));
  NAV_CALL(nav_level_fill_coefficient(ps, l0, l0->sv));
  return nav_mg_shift_fields(ps);
}

/* The FFT solver is direct: its residual is round-off, and measuring it (the norm of b and of the
 * residual: two reductions, each a host round trip, and a pass over x, b and r) costs about a third
 * of a 256^3 solve on a GPU. A caller with opt.async (the flow) has it measured only on the solves it
 * asks for (nav_psolver_measure_next: its monitor steps). The solves between keep the removal of the
 * mean of a singular b, so that both paths give the same x bit for bit whatever the cadence (a
 * restart continues bit for bit): both shift by (nav_real)(-sum / volume) of the same sum (the
 * caller's, nav_psolver_rhs_sum, when given), the measured path in b, the deferred one in the
 * transform's read of b. They report the last measured relres (stats.relres_measured = 0) and return
 * once their kernels are launched. The sum shows a NaN or Inf in b: at once where the solve reads it
 * on the host (relres = the sum), or, deferred (the caller's sum and one rank with one transform, or the
 * slabs, whose sum over the ranks comes with the ends: no host wait at all), from its copy after the
 * caller's next wait (nav_psolver_deferred_bad). The slabs (nav_fft_spectral_mean) take b's mean in the
 * spectrum on every path, from b as it is and its sum, and shift b after the solve. */
void nav_psolver_measure_next(nav_psolver *ps, int measure) { ps->measure_next = measure; }

double *nav_psolver_rhs_sum(nav_psolver *ps) {
  ps->bsum_given = ps->bsum != NULL;
  return ps->bsum;
}

int nav_psolver_deferred_bad(nav_psolver *ps) {
  const int bad = ps->deferred && !isfinite(*ps->bsum_host);
  ps->deferred = 0;
  return bad;
}

/* The slabs' spectral mean (nav_fft_spectral_mean), undeferred: the FFT solve from b as it is and this rank's
 * sum of b dV (the caller's given, or ops->sum's uploaded: nav_fft_rhs_sum), then b shifted as the other paths
 * shift it before their solve; *sum = the sum over the ranks (a host wait; NaN or Inf: nothing solved). */
static nav_err nav_psolver_fft_spectral(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double *sum) {
  const nav_level *l0 = &ps->lev[0];
  const double *bsum = given;
  if (given) {
    NAV_CALL(ps->ops->to_host(sum, given, sizeof *sum));
  } else {
    NAV_CALL(ps->ops->sum(&l0->box, b, sum));
    NAV_CALL(nav_fft_rhs_sum(ps, *sum, &bsum));
  }
  nav_reduce_sum(l0->comm, sum, 1);
  if (isfinite(*sum)) NAV_CALL(nav_fft_solve(ps, x, b, bsum));
  return ps->ops->shift(&l0->box, b, (nav_real)(-*sum / l0->volume));
}

nav_err nav_psolver_solve(nav_psolver *ps, nav_real *x, nav_real *b, nav_psolver_stats *st) {
  const double t0 = nav_wtime();
  nav_level *l0 = &ps->lev[0];
  const nav_kernel_ops *ops = ps->ops;
  const double *given = ps->bsum_given ? ps->bsum : NULL; /* this rank's sum of b dV, from the caller */
  ps->bsum_given = 0;
  l0->x = x;
  l0->b = b;
  if (ps->kind == NAV_PSOLVER_FFT && ps->opt.async && !ps->measure_next && !ps->opt.staggered) {
    const int spectral = ps->singular && nav_fft_spectral_mean(ps);
    const int defer = ps->singular && given && (nav_fft_one_transform(ps) || spectral);
    const int solved = spectral && !defer; /* by nav_psolver_fft_spectral */
    double sum = 0;
    if (solved)
      NAV_CALL(nav_psolver_fft_spectral(ps, x, b, given, &sum));
    else if (ps->singular && !defer)
      NAV_CALL(nav_level_remove_mean_sum(l0, b, given, &sum));
    memset(st, 0, sizeof *st);
    st->relres = isfinite(sum) ? ps->fft_relres : sum; /* a NaN or Inf: the caller reports the blow-up */
    if (isfinite(sum)) {
      if (!solved) NAV_CALL(nav_fft_solve(ps, x, b, defer ? given : NULL));
      if (ps->singular && !nav_fft_zero_mean(ps)) NAV_CALL(nav_level_remove_mean(l0, x));
      NAV_CALL(nav_level_fill(ps, l0, x));
      st->iterations = 1;
      st->converged = 1;
    }
    if (defer) { /* the sum read back with the caller's next wait */
      NAV_CALL(ops->to_host_async(ps->bsum_host, nav_fft_sum_of_b(ps, given), sizeof(double)));
      ps->deferred = st->deferred = 1;
    }
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  if (ps->diag_stale) NAV_CALL(nav_psolver_diagonals(ps));
  if (ps->opt.staggered) NAV_CALL(nav_level_pin(ps, l0, b, NAV_GHOST_FACE)); /* the pinned rows: b = 0 */
  if (ps->opt.sweeps) { /* a fixed approximate inverse (nav_psolver.h): nothing measured */
    memset(st, 0, sizeof *st);
    NAV_CALL(nav_mg_smooth(ps, ps->opt.sweeps));
    st->iterations = ps->opt.sweeps;
    st->converged = 1;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  int solved = 0; /* the slabs' spectral mean: solved before b is shifted (nav_psolver_fft_spectral) */
  if (ps->singular && ps->kind == NAV_PSOLVER_FFT && nav_fft_spectral_mean(ps)) {
    double sum;
    NAV_CALL(nav_psolver_fft_spectral(ps, x, b, given, &sum));
    solved = isfinite(sum);
  } else if (ps->singular) {
    double sum;
    NAV_CALL(nav_level_remove_mean_sum(l0, b, given, &sum));
  }
  double bb;
  NAV_CALL(nav_level_dot(l0, b, b, &bb));
  const double bnorm = nav_level_norm(l0, bb);
  memset(st, 0, sizeof *st);
  st->relres_measured = 1;
  if (!isfinite(bnorm)) { /* NaN/Inf input: nothing to solve; the caller reports the blow-up */
    st->relres = bnorm;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  if (bnorm == 0) { /* the exact solution is 0 (up to the null space) */
    NAV_CALL(ops->set(&l0->box, x, 0));
    st->converged = 1;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  /* the stopping rule ||r|| <= tol max(||b||, floor): relres is relative to that reference */
  const double bref = fmax(bnorm, ps->floor), tol = ps->opt.tolerance * bref / bnorm;
  if (ps->kind == NAV_PSOLVER_FFT) { /* direct: one pass; the residual reports its round-off */
    if (!solved) NAV_CALL(nav_fft_solve(ps, x, b, NULL));
    /* with every direction transformed the zero mode is 0: x has zero mean already */
    if (ps->singular && !nav_fft_zero_mean(ps)) NAV_CALL(nav_level_remove_mean(l0, x));
    NAV_CALL(nav_level_fill(ps, l0, x));
    double rr;
    NAV_CALL(ops->residual(&l0->box, x, b, l0->r, &rr));
    nav_reduce_sum(l0->comm, &rr, 1);
    st->iterations = 1;
    st->relres = ps->fft_relres = nav_level_norm(l0, rr) / bnorm;
  } else if (ps->kind == NAV_PSOLVER_PCG)
    NAV_CALL(nav_pcg_iterate(ps, l0, x, b, l0->r, ps->work[0], ps->work[1], ps->work[2], nav_precond_jacobi, 0,
                             tol, ps->opt.max_iterations, &st->iterations, &st->relres));
  else if (ps->kind == NAV_PSOLVER_MGPCG)
    NAV_CALL(nav_pcg_iterate(ps, l0, x, b, ps->work[3], ps->work[0], ps->work[1], ps->work[2], nav_precond_mg, 1,
                             tol, ps->opt.max_iterations, &st->iterations, &st->relres));
  else
    NAV_CALL(nav_psolver_iterate(ps, x, b, bref, st));
  if (ps->kind == NAV_PSOLVER_PCG || ps->kind == NAV_PSOLVER_MGPCG) st->relres *= bnorm / bref;
  st->converged = st->relres <= (ps->kind == NAV_PSOLVER_FFT ? fmax(ps->opt.tolerance, 1e4 * NAV_REAL_EPS)
                                                               : ps->opt.tolerance);
  if (ps->kind != NAV_PSOLVER_FFT) { /* the FFT result has its mean and ghosts already */
    if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, x));
    NAV_CALL(nav_level_fill(ps, l0, x));
  }
  st->solve_s = nav_wtime() - t0;
  return NAV_OK;
}

nav_err nav_psolver_precondition(nav_psolver *ps, nav_real *z, nav_real *r) {
  nav_level *l0 = &ps->lev[0];
  if (ps->diag_stale) NAV_CALL(nav_psolver_diagonals(ps));
  if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, r));
  switch (ps->kind) {
  case NAV_PSOLVER_FFT: NAV_CALL(nav_fft_solve(ps, z, r, NULL)); break;
  case NAV_PSOLVER_MG:
  case NAV_PSOLVER_MGPCG: NAV_CALL(nav_precond_mg(ps, l0, r, z)); break;
  case NAV_PSOLVER_PCG: NAV_CALL(nav_precond_jacobi(ps, l0, r, z)); break;
  default: NAV_CHECK(0, NAV_ERR_INPUT, "solver %s is no preconditioner (fft, mg, mgpcg, pcg)", ps->opt.solver);
  }
  if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, z));
  return NAV_OK;
}
