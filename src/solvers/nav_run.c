/* The time loop of one run (see nav_run.h). */
#include "solvers/nav_run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "io/nav_output.h"
#include "solvers/nav_flow.h"

/* Estimated wall seconds to the end of the run, or -1 if unknown. The steady-state estimate
 * assumes the change decays exponentially in time between two measurements. */
typedef struct nav_eta {
  double t_prev, change_prev;
} nav_eta;

static double nav_eta_seconds(const nav_config *c, const nav_flow *f, double dt, double change, double wall_per_step,
                              nav_eta *e) {
  double steps = -1;
  if (c->max_steps > 0) steps = (double)(c->max_steps - f->step);
  if (c->end_time > 0) {
    double s = (c->end_time - f->t) / dt;
    steps = steps < 0 ? s : fmin(steps, s);
  }
  if (c->steady_tol > 0 && change > 0) {
    if (e->change_prev > change && f->t > e->t_prev) {
      const double rate = log(e->change_prev / change) / (f->t - e->t_prev);
      const double s = fmax(log(change / c->steady_tol), 0) / rate / dt;
      steps = steps < 0 ? s : fmin(steps, s);
    }
    e->t_prev = f->t;
    e->change_prev = change;
  }
  return steps < 0 ? -1 : steps * wall_per_step;
}

static void nav_progress(const nav_flow *f, double dt, double cfl, double change_last, double eta) {
  char change[32] = "-", when[32] = "?";
  if (change_last >= 0) snprintf(change, sizeof change, "%.2e", change_last);
  if (eta >= 0) snprintf(when, sizeof when, "%.0fs", eta);
  printf("step %7ld  t %.5g  dt %.3e  CFL %.2f  max|div u| %.1e  p-it %3d  change %s  ETA %s\n", f->step, f->t, dt,
         cfl, f->max_div, f->p_iterations, change, when);
  fflush(stdout);
}

static nav_err nav_write_fields(const char *dir, nav_flow *f) {
  nav_host_fields h;
  nav_err e = nav_host_fields_fetch(f, &h);
  if (e == NAV_OK) e = nav_fields_write(dir, f, &h);
  nav_host_fields_free(&h);
  return e;
}

/* The time loop; on return f holds the last state. */
static nav_err nav_time_loop(const nav_config *c, nav_flow *f, const char *dir, FILE *mon, double t_start) {
  double last_print = t_start, next_fields_t = c->fields_dt > 0 ? c->fields_dt : -1;
  nav_eta eta = {0, 0};
  double change_last = -1; /* the last measured steady-state change */
  double ke;
  NAV_CALL(nav_flow_kinetic_energy(f, &ke));
  nav_monitor_row(mon, f, 0, ke);
  if (c->fields_every > 0 || c->fields_dt > 0) NAV_CALL(nav_write_fields(dir, f));
  for (;;) {
    double dt, cfl;
    NAV_CALL(nav_flow_dt(f, &dt, &cfl));
    NAV_CHECK(isfinite(dt) && dt > 0, NAV_ERR_BLOWUP, "time step %g is not positive at step %ld (time %.6g)", dt,
              f->step, f->t);
    if (c->end_time > 0 && f->t + dt > c->end_time) dt = c->end_time - f->t;
    const int monitor = (f->step + 1) % c->monitor_every == 0;
    NAV_CALL(nav_flow_step(f, dt, monitor));
    NAV_CHECK(isfinite(f->max_div), NAV_ERR_BLOWUP, "the velocity is NaN or Inf after step %ld (time %.6g)", f->step,
              f->t);
    if (monitor) {
      change_last = f->change;
      NAV_CALL(nav_flow_kinetic_energy(f, &ke));
      nav_monitor_row(mon, f, dt, ke);
    }
    const int done_time = c->end_time > 0 && f->t >= c->end_time * (1 - 1e-12);
    const int done_steps = c->max_steps > 0 && f->step >= c->max_steps;
    const int done_steady = c->steady_tol > 0 && f->change >= 0 && f->change < c->steady_tol;
    const int done = done_time || done_steps || done_steady;
    const double now = nav_wtime();
    if (now - last_print >= c->progress_interval || done) {
      const double wall_per_step = (now - t_start) / (double)f->step;
      nav_progress(f, dt, cfl, change_last, done ? 0 : nav_eta_seconds(c, f, dt, change_last, wall_per_step, &eta));
      last_print = now;
    }
    int fields = c->fields_every > 0 && f->step % c->fields_every == 0;
    if (next_fields_t > 0 && f->t >= next_fields_t * (1 - 1e-12)) {
      fields = 1;
      while (next_fields_t <= f->t * (1 + 1e-12)) next_fields_t += c->fields_dt;
    }
    if (fields && !done) NAV_CALL(nav_write_fields(dir, f));
    if (done) {
      if (!monitor) {
        NAV_CALL(nav_flow_kinetic_energy(f, &ke));
        nav_monitor_row(mon, f, dt, ke);
      }
      printf("stopped: %s\n", done_steady  ? "steady state reached"
                              : done_time  ? "end time reached"
                                           : "step count reached");
      return NAV_OK;
    }
  }
}

nav_err nav_run(const nav_config *c, const nav_kernel_ops *ops, const nav_run_options *opt) {
  const double t_start = nav_wtime();
  const char *dir = opt->output_dir;
  NAV_CALL(nav_output_prepare(dir));
  nav_flow f;
  NAV_CALL(nav_flow_create(c, ops, &f));
  char desc[256];
  nav_psolver_describe(f.poisson, desc, sizeof desc);
  printf("navier: case %s, %dD %dx%d%s%.0d cells, backend %s, %d rank(s)\npressure: %s, tolerance %.1e\noutput: %s\n",
         c->name, c->dim, c->nx, c->ny, c->dim == 3 ? "x" : "", c->dim == 3 ? c->nz : 0, ops->name, opt->ranks, desc,
         c->tolerance, dir);
  FILE *mon = NULL;
  nav_err err = nav_monitor_open(dir, &mon);
  if (err == NAV_OK) err = nav_time_loop(c, &f, dir, mon, t_start);
  if (mon) fclose(mon);
  char message[1024] = "";
  if (err != NAV_OK) snprintf(message, sizeof message, "%s", nav_error_message());
  nav_validation v;
  memset(&v, 0, sizeof v);
  nav_host_fields h;
  memset(&h, 0, sizeof h);
  nav_summary s = {err == NAV_OK ? "completed" : "failed", message, 0, ops->name, opt->ranks, 0};
  if (nav_host_fields_fetch(&f, &h) == NAV_OK) {
    nav_validate(&f, &h, &v);
    if (err == NAV_OK && (c->fields_every > 0 || c->fields_dt > 0)) err = nav_fields_write(dir, &f, &h);
  }
  nav_host_fields_free(&h);
  nav_flow_kinetic_energy(&f, &s.final_ke);
  s.wall_s = nav_wtime() - t_start;
  if (v.cavity)
    printf("validation: Ghia et al. (1982), Re = %g: max |u - u_ref| = %.4f on x = 0.5 (%d points), max |v - v_ref| = "
           "%.4f on y = 0.5 (%d points)\n",
           v.re, v.max_dev_u, v.points_u, v.max_dev_v, v.points_v);
  if (v.analytic) printf("validation: analytic velocity error max %.3e, rms %.3e\n", v.err_max, v.err_rms);
  nav_err es = nav_summary_write(dir, &f, &s, &v);
  printf("%s: %ld steps, t = %.6g, %.2f s wall; summary in %s/summary.json\n", s.status, f.step, f.t, s.wall_s, dir);
  nav_flow_destroy(&f);
  NAV_CALL(err);
  NAV_CALL(es);
  return NAV_OK;
}
