/* The FFT direct solver behind the front (poisson_impl.h): one pass of fft.c's transforms, the mean of a
 * singular problem and the measured residual.
 *
 * The FFT solver is direct: its residual is round-off, and measuring it (the norm of b and of the
 * residual: two reductions, each a host round trip, and a pass over x, b and r) costs about a third
 * of a solve on a GPU. A caller with opt.async (the flow) has it measured only on the solves it
 * asks for (nav_psolver_measure_next: its monitor steps). The solves between keep the removal of the
 * mean of a singular b, so that both paths give the same x bit for bit whatever the cadence (a
 * restart continues bit for bit): both shift by (nav_real)(-sum / volume) of the same sum (the
 * caller's, nav_psolver_rhs_sum, when given), the measured path in b, the deferred one in the
 * transform's read of b. They report the last measured relres (stats.relres_measured = 0) and return
 * once their kernels are launched. The sum shows a NaN or Inf in b: at once where the solve reads it
 * on the host (relres = the sum), or, deferred (the caller's sum and one rank with one transform, or the
 * slabs, whose sum over the ranks comes with the ends: no host wait at all), from its copy after the
 * caller's next wait (nav_psolver_deferred_bad). The slabs and the lines (nav_fft_spectral_mean)
 * take b's mean in the spectrum on every path, from b as it is and its sum, and shift b after the solve. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/poisson/poisson_impl.h"

static nav_err nav_fft_impl_setup(nav_psolver *ps) {
  NAV_CALL(nav_fft_setup(ps));
  if (ps->opt.async && ps->singular && !ps->opt.staggered) { /* nav_psolver_rhs_sum */
    NAV_CALL(ps->ops->alloc((void **)&ps->bsum, sizeof(double)));
    NAV_CALL(ps->ops->alloc_host((void **)&ps->bsum_host, sizeof(double)));
  }
  return NAV_OK;
}

static void nav_fft_impl_destroy(nav_psolver *ps) {
  nav_fft_destroy(ps);
  if (ps->bsum) ps->ops->free(ps->bsum);
  if (ps->bsum_host) ps->ops->free_host(ps->bsum_host);
  ps->bsum = NULL;
  ps->bsum_host = NULL;
}

/* The spectral mean (nav_fft_spectral_mean), undeferred: the FFT solve from b as it is and this rank's
 * sum of b dV (the caller's given, or ops->sum's uploaded: nav_fft_rhs_sum), then b shifted as the other paths
 * shift it before their solve; *sum = the sum over the ranks (a host wait; NaN or Inf: nothing solved). */
static nav_err nav_fft_spectral(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double *sum) {
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

/* An opt.async solve not asked to measure its residual (the header): launched, not waited for. Without the
 * caller's sum (the library's skip_residual) a box of one transform sums b here (a host wait, which sees a NaN or
 * Inf at once) and shifts it in the transform's read, as with the caller's sum: no pass that shifts b. */
static nav_err nav_fft_unmeasured(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                  nav_psolver_stats *st) {
  const nav_level *l0 = &ps->lev[0];
  const int spectral = ps->singular && nav_fft_spectral_mean(ps);
  const int defer = ps->singular && given && (nav_fft_one_transform(ps) || spectral);
  const int solved = spectral && !defer; /* by nav_fft_spectral */
  const int summed = ps->singular && !given && nav_fft_one_transform(ps) && ps->bsum;
  double sum = 0;
  if (solved) {
    NAV_CALL(nav_fft_spectral(ps, x, b, given, &sum));
  } else if (summed) {
    NAV_CALL(nav_level_sum(l0, b, NULL, &sum));
    NAV_CALL(ps->ops->from_host(ps->bsum, &sum, sizeof sum));
    given = ps->bsum;
  } else if (ps->singular && !defer) {
    NAV_CALL(nav_level_remove_mean_sum(l0, b, given, &sum));
  } else if (!ps->singular && ps->opt.async == 2) { /* only its finiteness */
    NAV_CALL(nav_level_sum(l0, b, NULL, &sum));
  }
  memset(st, 0, sizeof *st);
  st->relres = isfinite(sum) ? ps->fft_relres : sum; /* a NaN or Inf: the caller reports the blow-up */
  if (isfinite(sum)) {
    if (!solved) NAV_CALL(nav_fft_solve(ps, x, b, defer || summed ? given : NULL));
    if (ps->singular && !nav_fft_zero_mean(ps)) NAV_CALL(nav_level_remove_mean(l0, x));
    NAV_CALL(nav_level_fill(l0, x));
    st->iterations = 1;
    st->converged = 1;
  }
  if (defer) { /* the sum read back with the caller's next wait */
    NAV_CALL(ps->ops->to_host_async(ps->bsum_host, nav_fft_sum_of_b(ps, given), sizeof(double)));
    ps->deferred = st->deferred = 1;
  }
  st->solve_s = nav_wtime() - t0;
  return NAV_OK;
}

static nav_err nav_fft_impl_solve(nav_psolver *ps, nav_real *x, nav_real *b, const double *given, double t0,
                                  nav_psolver_stats *st) {
  if (ps->opt.async && !ps->measure_next && !ps->opt.staggered) return nav_fft_unmeasured(ps, x, b, given, t0, st);
  const nav_level *l0 = &ps->lev[0];
  NAV_CALL(nav_psolver_prepare(ps, b));
  int solved = 0; /* the slabs' spectral mean: solved before b is shifted (nav_fft_spectral) */
  const int spectral = ps->singular && nav_fft_spectral_mean(ps);
  if (spectral) {
    double sum;
    NAV_CALL(nav_fft_spectral(ps, x, b, given, &sum));
    solved = isfinite(sum);
  }
  double bnorm, bref, tol;
  int done;
  NAV_CALL(nav_psolver_begin(ps, x, b, given, !spectral, t0, st, &bnorm, &bref, &tol, &done));
  if (done) return NAV_OK;
  /* direct: one pass; the residual reports its round-off */
  if (!solved) NAV_CALL(nav_fft_solve(ps, x, b, NULL));
  /* with every direction transformed the zero mode is 0: x has zero mean already */
  if (ps->singular && !nav_fft_zero_mean(ps)) NAV_CALL(nav_level_remove_mean(l0, x));
  NAV_CALL(nav_level_fill(l0, x));
  double rr;
  NAV_CALL(ps->ops->residual(&l0->box, x, b, l0->r, &rr));
  nav_reduce_sum(l0->comm, &rr, 1);
  st->iterations = 1;
  st->relres = ps->fft_relres = nav_level_norm(l0, rr) / bnorm;
  /* checked against max(tolerance, 1e4 eps) to catch a broken transform (the front's precision floor) */
  st->converged = st->relres <= fmax(ps->opt.tolerance, 1e4 * NAV_REAL_EPS);
  st->solve_s = nav_wtime() - t0;
  return NAV_OK;
}

static nav_err nav_fft_impl_apply(nav_psolver *ps, nav_real *z, nav_real *r) { return nav_fft_solve(ps, z, r, NULL); }

static void nav_fft_impl_describe(const nav_psolver *ps, char *text, int size) {
  nav_fft_describe(ps, text, size);
  if (ps->opt.tolerance > ps->tol_asked && (int)strlen(text) < size)
    snprintf(text + strlen(text), (size_t)size - strlen(text), ", tolerance raised to %.1e (precision)",
             ps->opt.tolerance);
}

const nav_psolver_impl nav_psolver_fft = {
    .name = "fft",
    .setup = nav_fft_impl_setup,
    .solve = nav_fft_impl_solve,
    .apply = nav_fft_impl_apply,
    .describe = nav_fft_impl_describe,
    .destroy = nav_fft_impl_destroy,
};
