/* The multigrid solvers behind the front (poisson_impl.h): mg, stationary cycles of the hierarchy (mg.c) to
 * the stopping rule (or opt.sweeps smoothing sweeps as a fixed approximate inverse), and mgpcg, conjugate
 * gradients (pcg.c) preconditioned by one symmetric V-cycle. */
#include <stdio.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

static nav_err nav_mg_impl_setup(nav_psolver *ps) {
  ps->multigrid = 1;
  NAV_CALL(nav_mg_setup(ps));
  if (!strcmp(ps->opt.precision, "mixed")) {
    if (nav_mg_mixed_applies(ps, ps->lo_why, sizeof ps->lo_why)) NAV_CALL(nav_mg_mixed_setup(ps));
  }
  return NAV_OK;
}

static nav_err nav_mgpcg_impl_setup(nav_psolver *ps) {
  ps->multigrid = 1;
  ps->symmetric = 1;
  NAV_CALL(nav_mg_setup(ps));
  if (!strcmp(ps->opt.precision, "mixed")) nav_mg_mixed_applies(ps, ps->lo_why, sizeof ps->lo_why); /* the reason */
  return nav_psolver_work(ps, 4);
}

/* One cycle of the stationary multigrid (V or F; float cycles with the mixed precision). */
static nav_err nav_mg_step(nav_psolver *ps, nav_real *x, const nav_real *b) {
  (void)b; /* level 0's b is the caller's b (nav_psolver_solve) */
  const int fcycle = !strcmp(ps->opt.cycle, "f");
  return ps->lo ? nav_mg_cycle_lo(ps, x, fcycle) : nav_mg_cycle(ps, 0, fcycle);
}

static nav_err nav_mg_impl_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                 nav_psolver_stats *st) {
  NAV_CALL(nav_psolver_prepare(ps, b));
  if (ps->opt.sweeps) { /* a fixed approximate inverse (nav_psolver.h): nothing measured */
    memset(st, 0, sizeof *st);
    NAV_CALL(nav_mg_smooth(ps, ps->opt.sweeps));
    st->iterations = ps->opt.sweeps;
    st->converged = 1;
    st->solve_s = nav_wtime() - t0;
    return NAV_OK;
  }
  return nav_psolver_stationary(ps, x, b, given, t0, nav_mg_step, st);
}

static nav_err nav_mgpcg_impl_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                    nav_psolver_stats *st) {
  return nav_pcg_solve(ps, x, b, given, t0, ps->work[3], nav_precond_mg, 1, st);
}

static nav_err nav_mg_impl_apply(nav_psolver *ps, nav_real *z, nav_real *r) {
  return nav_precond_mg(ps, &ps->lev[0], r, z);
}

static nav_err nav_mg_impl_restrict(nav_psolver *ps, int which) {
  return which ? nav_mg_shift_fields(ps) : nav_mg_coefficients(ps);
}

static void nav_mg_impl_describe(const nav_psolver *ps, char *text, int size) {
  const int *c = ps->lev[ps->nlev - 1].N;
  char gathered[96] = "";
  if (ps->gather < ps->nlev)
    snprintf(gathered, sizeof gathered, ", levels %d-%d gathered on rank 0%s", ps->gather + 1, ps->nlev,
             ps->ops != &nav_kernel_ops_cpu ? " (on its CPU)" : "");
  char sing[96];
  nav_psolver_notes(ps, sing, sizeof sing);
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
  snprintf(text, (size_t)size, "%s%s(%d,%d)-cycle, %d levels%s%s, coarsest %dx%dx%d solved %s%s",
           ps->symmetric ? "CG preconditioned by a multigrid " : "multigrid ",
           !ps->symmetric && !strcmp(ps->opt.cycle, "f") ? "F" : "V", ps->opt.pre_smooth, ps->opt.post_smooth,
           ps->nlev, lines, gathered, c[0], c[1], c[2],
           ps->cband_state >= 0 ? "directly (banded Cholesky)" : "by CG", sing);
  if (ps->graphs > 0 && (int)strlen(text) < size)
    snprintf(text + strlen(text), (size_t)size - strlen(text), ", V-cycle device levels as CUDA graphs");
  if (ps->lo && (int)strlen(text) < size)
    snprintf(text + strlen(text), (size_t)size - strlen(text), ", float cycles in a double iteration (mixed)");
  else if (ps->lo_why[0] && (int)strlen(text) < size)
    snprintf(text + strlen(text), (size_t)size - strlen(text), ", precision mixed not applied: %s", ps->lo_why);
}

const nav_psolver_impl nav_psolver_mg = {
    .name = "mg",
    .iterative = 1,
    .sweeps = 1,
    .setup = nav_mg_impl_setup,
    .solve = nav_mg_impl_solve,
    .apply = nav_mg_impl_apply,
    .refresh = nav_mg_refresh,
    .restrict_cells = nav_mg_impl_restrict,
    .describe = nav_mg_impl_describe,
    .destroy = nav_mg_destroy,
};

const nav_psolver_impl nav_psolver_mgpcg = {
    .name = "mgpcg",
    .iterative = 1,
    .symmetric = 1,
    .setup = nav_mgpcg_impl_setup,
    .solve = nav_mgpcg_impl_solve,
    .apply = nav_mg_impl_apply,
    .refresh = nav_mg_refresh,
    .restrict_cells = nav_mg_impl_restrict,
    .describe = nav_mg_impl_describe,
    .destroy = nav_mg_destroy,
};
