/* Poisson solver front end (nav_psolver.h): checks the options, builds level 0 (level.c), picks a solver
 * from the table below by name and forwards to it (poisson_impl.h's nav_psolver_impl; PETSc's PCRegister
 * table). It names no solver's internals: a new solver is one file with its nav_psolver_impl and one line
 * here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

/* The solvers by name (opt.solver); auto picks fft or mg (nav_psolver_create). */
static const nav_psolver_impl *const nav_psolver_table[] = {&nav_psolver_mg,  &nav_psolver_mgpcg,  &nav_psolver_pcg,
                                                            &nav_psolver_sor, &nav_psolver_jacobi, &nav_psolver_fft,
                                                            NULL};

nav_err nav_psolver_create(const nav_kernel_ops *ops, const nav_decomp *dc, int dim, const int n[3], double *const w[3],
                           const nav_scalar_bc bc[3][2], const nav_psolver_options *opt, nav_psolver **out) {
  const double t0 = nav_wtime();
  const nav_psolver_impl *impl = NULL;
  for (int i = 0; nav_psolver_table[i]; i++)
    if (!strcmp(opt->solver, nav_psolver_table[i]->name)) impl = nav_psolver_table[i];
  char why[256];
  /* auto: fft where it applies (and its dense transforms are short enough), else the multigrid. Where the FFT's
   * transposes would go through the host (all the data, twice per solve, over PCIe: several times slower per step of the
   * 2-GPU cavity at 256^3 per GPU, docs/performance.md) auto keeps the multigrid; slabs move only the lines' ends. */
  const int host_transposes = nav_fft_host_staged(ops, dc, w, bc);
  if (!strcmp(opt->solver, "auto"))
    impl =
        !host_transposes && nav_fft_applies(ops, dim, n, w, bc, why, sizeof why) && nav_fft_dense_cheap(ops, dim, n, w)
            ? &nav_psolver_fft
            : &nav_psolver_mg;
  NAV_CHECK(impl, NAV_ERR_INPUT, "pressure solver '%s': unknown (auto, fft, mg, mgpcg, pcg, sor, jacobi)",
            opt->solver);
  NAV_CHECK(opt->tolerance > 0 && opt->tolerance < 1, NAV_ERR_INPUT, "pressure tolerance %g: must be in (0, 1)",
            opt->tolerance);
  NAV_CHECK(opt->max_iterations > 0, NAV_ERR_INPUT, "pressure max_iterations %d: must be > 0", opt->max_iterations);
  NAV_CHECK(!strcmp(opt->cycle, "v") || !strcmp(opt->cycle, "f"), NAV_ERR_INPUT, "multigrid cycle '%s': unknown (v, f)",
            opt->cycle);
  NAV_CHECK(opt->pre_smooth >= 0 && opt->post_smooth >= 0 && opt->pre_smooth + opt->post_smooth > 0, NAV_ERR_INPUT,
            "multigrid smoothing counts %d, %d: must be >= 0 and not both 0", opt->pre_smooth, opt->post_smooth);
  NAV_CHECK(!impl->symmetric || opt->pre_smooth == opt->post_smooth, NAV_ERR_INPUT,
            "mgpcg needs a symmetric cycle: pre_smooth (%d) must equal post_smooth (%d)", opt->pre_smooth,
            opt->post_smooth);
  NAV_CHECK(!opt->smoother[0] || !strcmp(opt->smoother, "auto") || !strcmp(opt->smoother, "point") ||
                !strcmp(opt->smoother, "line"),
            NAV_ERR_INPUT, "multigrid smoother '%s': unknown (auto, point, line)", opt->smoother);
  NAV_CHECK(opt->omega >= 0 && opt->omega < 2, NAV_ERR_INPUT, "relaxation factor omega %g: must be in [0, 2)",
            opt->omega);
  NAV_CHECK(opt->sweeps >= 0 && (!opt->sweeps || (impl->sweeps && opt->helmholtz)), NAV_ERR_INPUT,
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
  ps->impl = impl;
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
    NAV_CALL(nav_level_init(l0, ops, dc, w, bc, 1));
  } else {
    nav_decomp one;
    int periodic[3];
    for (int d = 0; d < 3; d++) periodic[d] = d < dim && bc[d][0] == NAV_SCALAR_PERIODIC;
    nav_err e = nav_decomp_serial(dim, n, periodic, &one);
    if (e == NAV_OK) e = nav_level_init(l0, ops, &one, w, bc, 1);
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
  NAV_CALL(impl->setup(ps));
  ps->setup_s = nav_wtime() - t0;
  return NAV_OK;
}

void nav_psolver_destroy(nav_psolver *ps) {
  if (!ps) return;
  const nav_kernel_ops *ops = ps->ops;
  if (ps->impl->destroy) ps->impl->destroy(ps);
  for (int i = 0; i < NAV_PSOLVER_WORK; i++)
    if (ps->work[i]) ops->free(ps->work[i]);
  nav_level_free(&ps->lev[0]);
  free(ps);
}

double nav_psolver_setup_seconds(const nav_psolver *ps) { return ps->setup_s; }

long nav_psolver_overlapped(const nav_psolver *ps) { return ps->overlapped; }

int nav_psolver_iterative(const nav_psolver *ps) { return ps->impl->iterative && !ps->opt.sweeps; }

void nav_psolver_describe(const nav_psolver *ps, char *text, int size) { ps->impl->describe(ps, text, size); }

void nav_psolver_set_floor(nav_psolver *ps, double floor) { ps->floor = floor; }

nav_err nav_psolver_set_shift(nav_psolver *ps, double sigma) {
  NAV_CHECK(ps->opt.helmholtz && sigma >= 0, NAV_ERR_INTERNAL, "nav_psolver_set_shift: not a Helmholtz solver");
  if (sigma == ps->sigma && !ps->diag_stale) return NAV_OK;
  ps->sigma = sigma;
  return nav_psolver_refresh(ps);
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
  NAV_CALL(nav_level_fill_coefficient(l0, l0->kc));
  return ps->impl->restrict_cells ? ps->impl->restrict_cells(ps, 0) : NAV_OK;
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
  NAV_CALL(nav_level_fill_coefficient(l0, l0->sv));
  return ps->impl->restrict_cells ? ps->impl->restrict_cells(ps, 1) : NAV_OK;
}

/* The FFT solver's unmeasured solves and the caller's sum of b (fft_solver.c's header). */
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

nav_err nav_psolver_solve(nav_psolver *ps, nav_real *x, nav_real *b, nav_psolver_stats *st) {
  const double t0 = nav_wtime();
  nav_level *l0 = &ps->lev[0];
  const double *given = ps->bsum_given ? ps->bsum : NULL; /* this rank's sum of b dV, from the caller */
  ps->bsum_given = 0;
  l0->x = x;
  l0->b = b;
  return ps->impl->solve(ps, x, b, given, t0, st);
}

nav_err nav_psolver_precondition(nav_psolver *ps, nav_real *z, nav_real *r) {
  nav_level *l0 = &ps->lev[0];
  if (ps->diag_stale) NAV_CALL(nav_psolver_refresh(ps));
  if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, r));
  NAV_CHECK(ps->impl->apply, NAV_ERR_INPUT, "solver %s is no preconditioner (fft, mg, mgpcg, pcg)", ps->opt.solver);
  NAV_CALL(ps->impl->apply(ps, z, r));
  if (ps->singular) NAV_CALL(nav_level_remove_mean(l0, z));
  return NAV_OK;
}
