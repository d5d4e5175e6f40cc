/* The time loop of one run (see nav_run.h). */
#include "solvers/nav_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_comm.h"
#include "core/nav_error.h"
#include "core/nav_memory.h"
#include "core/nav_profile.h"
#include "core/nav_signal.h"
#include "core/nav_timer.h"
#include "grid/nav_decomp.h"
#include "grid/nav_reduce.h"
#include "io/nav_checkpoint.h"
#include "io/nav_output.h"
#include "io/nav_snapshot.h"
#include "solvers/nav_dissipation.h"
#include "solvers/nav_ac.h"
#include "solvers/nav_flow.h"

int nav_time_reached(double t, double end_time, double dt) {
  return t >= end_time - fmax(1e-12 * end_time, 1e-6 * dt);
}

/* Estimated wall seconds to the end of the run, or -1 if unknown. The steady-state estimate
 * assumes the change decays exponentially in time between two measurements. */
typedef struct nav_eta {
  double t_prev, change_prev;
} nav_eta;

static double nav_eta_seconds(const nav_config *c, const nav_flow *f, double dt, double change, double tol,
                              double wall_per_step, nav_eta *e) {
  double steps = -1;
  if (c->max_steps > 0) steps = (double)(c->max_steps - f->step);
  if (c->end_time > 0) {
    double s = (c->end_time - f->t) / dt;
    steps = steps < 0 ? s : fmin(steps, s);
  }
  if (c->steady_tol > 0 && change > 0) {
    const double clock = f->ac ? (double)f->step : f->t; /* pseudo-time runs count iterations */
    if (f->ac) dt = 1;
    if (e->change_prev > change && clock > e->t_prev) {
      const double rate = log(e->change_prev / change) / (clock - e->t_prev);
      const double s = fmax(log(change / tol), 0) / rate / dt;
      steps = steps < 0 ? s : fmin(steps, s);
    }
    e->t_prev = clock;
    e->change_prev = change;
  }
  return steps < 0 ? -1 : steps * wall_per_step;
}

/* On a terminal the progress line is rewritten in place (\r, cleared to the end of the line);
 * elsewhere (CI logs, batch jobs) each progress report is a plain line. A rank started by a
 * launcher (mpiexec) writes to a pseudo-terminal that the launcher forwards, to a file as well,
 * so launched ranks (Open MPI: OMPI_COMM_WORLD_SIZE, MPICH: PMI_SIZE) print plain lines. */
static int nav_progress_pending = 0; /* a \r line is on the terminal */

static int nav_progress_tty(void) {
  return isatty(fileno(stdout)) && !getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE");
}

static void nav_progress(const nav_flow *f, double dt, double cfl, double change_last, double eta) {
  char change[32] = "-", when[32] = "?";
  if (change_last >= 0) snprintf(change, sizeof change, "%.2e", change_last);
  if (eta >= 0) snprintf(when, sizeof when, "%.0fs", eta);
  const int tty = nav_progress_tty();
  if (f->ac) {
    printf("%siteration %7ld  residual momentum %.2e  continuity %.2e  temperature %.2e  ETA %s%s", tty ? "\r" : "",
           f->step, f->res[0], f->res[1], f->res[2], when, tty ? "\033[K" : "\n");
    nav_progress_pending = tty;
    fflush(stdout);
    return;
  }
  printf("%sstep %7ld  t %.5g  dt %.3e  CFL %.2f  max|div u| %.1e  p-it %3d  change %s  ETA %s%s", tty ? "\r" : "",
         f->step, f->t, dt, cfl, f->max_div, f->p_iterations, change, when, tty ? "\033[K" : "\n");
  nav_progress_pending = tty;
  fflush(stdout);
}

/* End the terminal's progress line before other output. */
static void nav_progress_break(void) {
  if (nav_progress_pending) printf("\n");
  nav_progress_pending = 0;
}

/* Every rank returns the same verdict (nav_reduce_agree over the flow's ranks). Collective. */
static nav_err nav_agree(const nav_flow *f, nav_err e) { return nav_reduce_agree(f->comm, e); }

static nav_err nav_write_fields(const char *dir, nav_flow *f) {
  const nav_profile_phase host = nav_profile_enter(NAV_PHASE_OUTPUT);
  nav_profile_work(NAV_PHASE_OUTPUT);
  nav_flow_view_sync(f);
  nav_err e = nav_snapshot_write(dir, f);
  nav_profile_enter(host);
  return e;
}

static nav_err nav_write_checkpoint(const char *dir, nav_flow *f) {
  const nav_profile_phase host = nav_profile_enter(NAV_PHASE_OUTPUT);
  nav_profile_work(NAV_PHASE_OUTPUT);
  char path[1200];
  nav_err e = nav_checkpoint_write(dir, f, path, sizeof path);
  if (e == NAV_OK && f->dc.rank == 0) {
    nav_progress_break();
    printf("checkpoint: %s\n", path);
  }
  nav_profile_enter(host);
  return e;
}

/* The outcome e (every rank's) of a step, a dt, a check or a checkpoint of the time loop: a blow-up
 * (NAV_ERR_BLOWUP, message set) ends the progress line and gets where the state went bad added; other
 * codes pass unchanged. Collective. */
static nav_err nav_blowup(nav_flow *f, nav_err e) {
  if (e != NAV_ERR_BLOWUP) return e;
  nav_progress_break();
  char first[1024], where[512];
  snprintf(first, sizeof first, "%s", nav_error_message());
  NAV_CALL(nav_flow_locate_bad(f, where, sizeof where));
  return nav_error_set(e, __FILE__, __LINE__, __func__, "%s; %s; the last good checkpoint (if any) is kept", first,
                       where);
}

/* The first multiple of interval after t (the next output time after a restart at t). */
static double nav_next_time(double interval, double t) {
  if (interval <= 0) return -1;
  double next = interval * (floor(t / interval * (1 + 1e-12)) + 1);
  while (next <= t * (1 + 1e-12)) next += interval;
  return next;
}

/* The round-off floor of the steady-state criterion (f->change), in units of eps = NAV_REAL_EPS
 * times a rate. A projection step changes u by its rounding even at the steady state, up to about
 * one ulp of max|u| = U, so the change max|u^{n+1} - u^n| / (dt U) settles at up to eps / dt
 * (measured in single precision: the default case at 0.51 eps / dt = 8.3e-5 from step 20 000 on);
 * 2 eps / dt. The residuals of artificial compressibility carry the round-off of their terms,
 * which scale with the largest local rate lambda (nav_ac_rate_max) (single precision, measured
 * floors: cavity2d_re100 1.2 eps lambda, natconv2d_ra1e3 0.55 (momentum) and 1.4 (temperature)
 * eps lambda); 4 eps lambda. */
#define NAV_STEADY_FLOOR_PROJECTION 2
#define NAV_STEADY_FLOOR_AC 4

/* The steady-state tolerance in use after a step of size dt (0 in pseudo-time): [time] steady_tol,
 * raised to the round-off floor above, as the pressure tolerance is (solvers/poisson/poisson.c);
 * 0 without a steady stop. In double precision the floor lies far below the tolerances of the
 * cases (2 eps / dt = 4.4e-13 at dt = 1e-3). */
static double nav_steady_tol(const nav_config *c, const nav_flow *f, double dt) {
  if (c->steady_tol <= 0) return 0;
  const double floor = f->ac ? NAV_STEADY_FLOOR_AC * NAV_REAL_EPS * nav_ac_rate_max(f)
                             : NAV_STEADY_FLOOR_PROJECTION * NAV_REAL_EPS / dt;
  return fmax(c->steady_tol, floor);
}

int nav_steady_reached(const nav_config *c, const nav_flow *f, double dt) {
  return c->steady_tol > 0 && f->change >= 0 && f->change < nav_steady_tol(c, f, dt);
}

/* The time loop; on return f holds the last state, *stop_signal the signal that stopped the run
 * (0 when it ran to a stop criterion), *steady 1 when it stopped at steady state (time.steady_tol) and
 * *tol_used the steady-state tolerance of its last step (nav_steady_tol; the first raise is logged).
 * restarted: f comes from a checkpoint (its first monitor row and snapshot were written by the run
 * that wrote the checkpoint). */
static nav_err nav_time_loop(const nav_config *c, nav_flow *f, const char *dir, FILE *mon, double t_start,
                             int restarted, int *stop_signal, int *steady, double *tol_used) {
  double last_print = t_start, next_fields_t = nav_next_time(c->fields_dt, f->t);
  double next_ckpt_t = nav_next_time(c->checkpoint_dt, f->t);
  const int checkpoints = c->checkpoint_interval > 0 || c->checkpoint_dt > 0;
  const long step0 = f->step;
  const double print_every = nav_progress_tty() ? fmin(c->progress_interval, 0.25) : c->progress_interval;
  nav_eta eta = {0, 0};
  double change_last = -1; /* the last measured steady-state change */
  double ke;
  *stop_signal = 0;
  *steady = 0;
  double turb[2] = {0, 0}; /* dissipation, enstrophy (3D) */
  NAV_CALL(nav_flow_kinetic_energy(f, &ke));
  if (f->dim == 3) NAV_CALL(nav_flow_dissipation(f, &turb[0], &turb[1]));
  if (!restarted) nav_monitor_row(mon, f, 0, ke, turb);
  if (!restarted && (c->fields_every > 0 || c->fields_dt > 0)) NAV_CALL(nav_write_fields(dir, f));
  nav_signal_install();
  for (;;) {
    double dt, cfl;
    NAV_CALL(nav_blowup(f, nav_flow_dt(f, &dt, &cfl))); /* also the deferred blow-up check of the last step */
    if (f->stop_signal) { /* every rank saw it in nav_flow_dt: the state of the last step is good */
      *stop_signal = f->stop_signal;
      nav_progress_break();
      if (f->dc.rank == 0) printf("%s received: stopping after step %ld (time %.6g)\n",
                                  nav_signal_name(f->stop_signal), f->step, f->t);
      return nav_write_checkpoint(dir, f);
    }
    if (f->ac) dt = cfl = 0; /* pseudo-time: local steps inside nav_ac_step */
    NAV_CHECK(f->ac || (isfinite(dt) && dt > 0), NAV_ERR_BLOWUP, "time step %g is not positive at step %ld (time %.6g)", dt,
              f->step, f->t);
    if (c->end_time > 0 && f->t + dt > c->end_time) dt = c->end_time - f->t;
    if (c->max_cfl > 0 && cfl > c->max_cfl) {
      nav_error_set(NAV_ERR_BLOWUP, __FILE__, __LINE__, __func__,
                    "the flow blew up at step %ld, time %.6g: CFL number %.3g above [time] max_cfl = %g (dt %.3e); "
                    "reduce [time] dt or cfl",
                    f->step + 1, f->t, cfl, c->max_cfl, dt);
      return nav_blowup(f, NAV_ERR_BLOWUP);
    }
    /* diagnose (max|div u|, steady change) on monitor steps and on the last step */
    const int last = (!f->ac && c->end_time > 0 && nav_time_reached(f->t + dt, c->end_time, dt)) ||
                     (c->max_steps > 0 && f->step + 1 >= c->max_steps);
    const int monitor = (f->step + 1) % c->monitor_every == 0 || last;
    nav_err es = nav_agree(f, f->ac ? nav_ac_step(f, monitor) : nav_flow_step(f, dt, monitor));
    if (es == NAV_OK && !isfinite(f->max_div))
      es = nav_error_set(NAV_ERR_BLOWUP, __FILE__, __LINE__, __func__,
                         "the velocity is NaN or Inf after step %ld (time %.6g)", f->step, f->t);
    NAV_CALL(nav_blowup(f, es));
    if (monitor) {
      change_last = f->change;
      NAV_CALL(nav_flow_kinetic_energy(f, &ke));
      if (f->dim == 3) NAV_CALL(nav_flow_dissipation(f, &turb[0], &turb[1]));
      nav_monitor_row(mon, f, dt, ke, turb);
    }
    const int done_time = c->end_time > 0 && nav_time_reached(f->t, c->end_time, dt);
    const int done_steps = c->max_steps > 0 && f->step >= c->max_steps;
    const double tol = nav_steady_tol(c, f, dt);
    if (tol > c->steady_tol && *tol_used <= c->steady_tol && f->dc.rank == 0) {
      nav_progress_break();
      if (f->ac)
        printf("steady: steady_tol %.1e raised to %d eps times the largest local rate (precision), now %.1e\n",
               c->steady_tol, NAV_STEADY_FLOOR_AC, tol);
      else
        printf("steady: steady_tol %.1e raised to %d eps / dt where that is larger (precision), now %.1e\n",
               c->steady_tol, NAV_STEADY_FLOOR_PROJECTION, tol);
    }
    *tol_used = tol;
    const int done_steady = nav_steady_reached(c, f, dt);
    const int done = done_time || done_steps || done_steady;
    *steady = done_steady;
    const double now = nav_wtime();
    if (now - last_print >= print_every || done) {
      const double wall_per_step = (now - t_start) / (double)(f->step - step0);
      const double eta_s = done ? 0 : nav_eta_seconds(c, f, dt, change_last, tol, wall_per_step, &eta);
      if (f->dc.rank == 0) nav_progress(f, dt, cfl, change_last, eta_s);
      last_print = now;
    }
    int fields = c->fields_every > 0 && f->step % c->fields_every == 0;
    if (next_fields_t > 0 && f->t >= next_fields_t * (1 - 1e-12)) {
      fields = 1;
      while (next_fields_t <= f->t * (1 + 1e-12)) next_fields_t += c->fields_dt;
    }
    /* checkpoints on their cadence, and at the end of a run that has them */
    int ckpt = (c->checkpoint_interval > 0 && f->step % c->checkpoint_interval == 0) || (checkpoints && done);
    if (next_ckpt_t > 0 && f->t >= next_ckpt_t * (1 - 1e-12)) {
      ckpt = 1;
      while (next_ckpt_t <= f->t * (1 + 1e-12)) next_ckpt_t += c->checkpoint_dt;
    }
    /* a pending blow-up check (nav_flow_step) first: its message, not the writer's */
    if ((fields && !done) || ckpt) NAV_CALL(nav_blowup(f, nav_flow_check(f)));
    if (fields && !done) NAV_CALL(nav_write_fields(dir, f));
    if (ckpt) NAV_CALL(nav_blowup(f, nav_write_checkpoint(dir, f)));
    if (done) {
      *steady = done_steady;
      nav_progress_break();
      if (f->dc.rank == 0)
        printf("stopped: %s\n", done_steady  ? "steady state reached"
                              : done_time  ? "end time reached"
                                           : "step count reached");
      return NAV_OK;
    }
  }
}

/* The lower bound of the memory a rank needs: the flow's own arrays over the rank's share of the
 * cells (u, its AB2 history, the predictor and the previous step per direction, pressure and
 * divergence, four more with a temperature; the multigrid, ghosts and buffers come on top). */
nav_err nav_run_memory_check(const nav_config *c, const nav_kernel_ops *ops, int ranks) {
  char where[NAV_CONFIG_STR + 32];
  nav_config_where(c, "grid", "nx", where, sizeof where);
  const double cells = (double)c->nx * c->ny * (c->dim == 3 ? c->nz : 1);
  const int arrays = 4 * c->dim + 2 + (strcmp(c->model, "off") ? 4 : 0);
  const double need = (double)arrays * sizeof(nav_real) * cells / ranks; /* per rank */
  int local_size = 1;
  nav_decomp_local_rank(nav_compute_comm(), &local_size);
  size_t free_b = 0, total_b = 0;
  const int device = nav_backend_device_memory(ops->name, &free_b, &total_b) == 0;
  const double avail = device ? (double)free_b : (double)nav_memory_host_available();
  const double want = device ? need : need * local_size;
  const int bad = avail > 0 && want > avail;
  const int any = nav_reduce_err(ranks > 1 ? nav_compute_comm() : MPI_COMM_NULL, bad);
  const double gib = 1024.0 * 1024.0 * 1024.0;
  NAV_CHECK(!bad, NAV_ERR_INPUT,
            "%s: key 'grid.nx': the grid of %.0f cells does not fit in memory: it needs at least %.3g GiB (%d arrays "
            "of %zu-byte reals%s), and %.3g GiB of %s memory is available%s; use fewer cells or more %s",
            where, cells, want / gib, arrays, sizeof(nav_real),
            device ? " on each rank's GPU" : local_size > 1 ? ", all ranks of the node" : "", avail / gib,
            device ? "device" : "host", device ? " on the GPU" : "", device ? "GPUs" : "nodes");
  NAV_CHECK(!any, NAV_ERR_INPUT, "the grid does not fit in the memory of another rank (rank 0 reports it)");
  return NAV_OK;
}

/* DIR/config.ini: every key of the effective configuration, with [output] dir = the folder used: a
 * case file that runs it again. Rank 0. */
static nav_err nav_config_save(const nav_config *c, const char *dir) {
  char path[1100];
  snprintf(path, sizeof path, "%s/config.ini", dir);
  FILE *fp = fopen(path, "w");
  NAV_CHECK(fp, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  fprintf(fp, "; The effective configuration of the run in this folder (case %s, every key with its value);\n"
              "; `navier run %s` runs it again.\n\n", c->source, path);
  static nav_config run; /* as run: the output folder is the one used (--output included) */
  run = *c;
  snprintf(run.dir, sizeof run.dir, "%s", dir);
  nav_config_print(&run, fp);
  NAV_CHECK(fclose(fp) == 0, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  return NAV_OK;
}

nav_err nav_run_summary(nav_flow *f, const char *dir, int dump, nav_summary *s, nav_validation *v) {
  const nav_config *c = f->cfg;
  if (c->steady_tol > 0) {
    s->steady = 1;
    s->steady_residual = f->change;
    s->steady_work = nav_ac_work(f);
  }
  nav_host_fields h;
  memset(v, 0, sizeof *v);
  nav_err e = nav_host_fields_fetch(f, &h);
  if (e == NAV_OK && f->dc.rank == 0) {
    e = nav_validate(f, &h, v);
    if (e == NAV_OK && dump && !strcmp(c->dump_final, "true")) e = nav_dump_final(dir, f, &h);
  }
  /* the models' reports of the end of the run (a driven channel's DIR/channel_profile.csv, the bodies' forces) */
  const nav_err e_report = nav_models_report(&f->models, nav_flow_view_sync(f), &h, dir);
  nav_host_fields_free(&h);
  if (e == NAV_OK) e = e_report;
  e = nav_agree(f, e);
  const nav_err e_ke = nav_flow_kinetic_energy(f, &s->final_ke);
  const nav_err e_p = nav_flow_max_abs_pressure(f, &s->max_abs_p);
  return e != NAV_OK ? e : e_ke != NAV_OK ? e_ke : e_p;
}

nav_err nav_run(const nav_config *c, const nav_kernel_ops *ops, nav_run_options *opt) {
  const double t_start = nav_wtime();
  const char *dir = opt->output_dir;
  int rank;
  MPI_Comm_rank(nav_compute_comm(), &rank);
  nav_err ep = rank == 0 ? nav_output_prepare(dir) : NAV_OK;
  const int code = nav_reduce_err(opt->ranks > 1 ? nav_compute_comm() : MPI_COMM_NULL, (int)ep);
  if (code != NAV_OK && ep == NAV_OK)
    ep = nav_error_set((nav_err)code, __FILE__, __LINE__, __func__, "the output folder failed on rank 0");
  NAV_CALL(ep);
  /* An error before the first step (no memory, a rejected checkpoint) leaves the output folder as
   * it was: the folders that nav_output_prepare created are removed again, nothing is written. */
  nav_flow f;
  nav_err ec = nav_flow_create(c, ops, &f);
  if (ec == NAV_OK && opt->restart) ec = nav_checkpoint_read(opt->restart, &f); /* every check before step 1 */
  if (ec == NAV_OK && opt->restart) ec = nav_flow_restored(&f); /* ghosts, the models' restored hooks, nu_t */
  if (ec == NAV_OK && rank == 0) ec = nav_config_save(c, dir);
  if (ec != NAV_OK) {
    nav_flow_destroy(&f);
    if (rank == 0) nav_output_abandon(dir);
    NAV_CALL(ec);
  }
  char desc[512];
  nav_psolver_describe(f.poisson, desc, sizeof desc);
  if (rank == 0)
    printf("navier: case %s, %dD %dx%d%s%.0d cells, backend %s, %d rank(s)\npressure: %s, tolerance %.1e\noutput: %s "
           "(every key in %s/config.ini)\n",
         c->name, c->dim, c->nx, c->ny, c->dim == 3 ? "x" : "", c->dim == 3 ? c->nz : 0, ops->name, opt->ranks, desc,
         c->tolerance, dir, dir);
  for (int c0 = 0; rank == 0 && f.diff && f.diff->implicit && c0 < f.dim; c0++) { /* the Helmholtz solves */
    nav_psolver_describe(f.diff->solver[c0], desc, sizeof desc);
    char tol[32] = ""; /* none with sweeps: a fixed number of them */
    if (!c->diffusion_sweeps) snprintf(tol, sizeof tol, ", tolerance %.1e", c->diffusion_tolerance);
    printf("implicit diffusion, %c: %s%s\n", "uvw"[c0], desc, tol);
  }
  if (rank == 0 && f.ac) {
    nav_ac_describe(&f, desc, sizeof desc);
    printf("%s\n", desc);
  }
  if (rank == 0 && f.dc.size > 1)
    printf("decomposition: %d x %d x %d ranks, block of rank 0 %dx%dx%d cells, halo transport %s\n", f.dc.p[0],
           f.dc.p[1], f.dc.p[2], f.dc.n[0], f.dc.n[1], f.dc.n[2], nav_transport_name(f.dc.transport));
  if (rank == 0 && opt->restart)
    printf("restart: %s, step %ld, time %.9g\n", opt->restart, f.step, f.t);
  FILE *mon = NULL;
  nav_err err = nav_agree(&f, rank == 0 ? nav_monitor_open(dir, &f, opt->restart ? f.step : -1, &mon) : NAV_OK);
  if (opt->profile) nav_profile_enable(ops->sync); /* the time loop and the final output, not the set-up */
  const double t_loop = nav_wtime();
  int stop_signal = 0, steady = 0;
  double steady_tol = c->steady_tol;
  const long step_first = f.step;
  if (err == NAV_OK) err = nav_time_loop(c, &f, dir, mon, t_start, opt->restart != NULL, &stop_signal, &steady, &steady_tol);
  const double t_steady = nav_wtime() - t_loop;
  opt->stopped = err == NAV_OK && stop_signal;
  if (mon) fclose(mon);
  nav_profile_enter(NAV_PHASE_OUTPUT);
  char message[1024] = "";
  if (err != NAV_OK) snprintf(message, sizeof message, "%s", nav_error_message());
  if (opt->stopped)
    snprintf(message, sizeof message, "stopped by %s after step %ld (time %.9g); a checkpoint of this step is in %s",
             nav_signal_name(stop_signal), f.step, f.t, dir);
  /* status: after the output */
  nav_summary s = {.message = message, .backend = ops->name, .ranks = opt->ranks,
                   .steady_iterations = f.step - step_first, .steady_converged = steady, .steady_wall_s = t_steady};
  if (rank == 0 && c->steady_tol > 0) {
    printf("steady: %s, %ld iterations, residual %.3e (steady_tol %.1e%s), %s, %.2f s\n", c->method,
           s.steady_iterations, f.change, steady_tol, steady_tol > c->steady_tol ? ", raised to the precision" : "",
           steady ? "converged" : "NOT converged", t_steady);
    if (nav_ac_work(&f) >= 0)
      printf("steady: %.1f work units (finest-grid iterations of the pseudo-time scheme, nested start included)\n",
             nav_ac_work(&f));
  }
  nav_validation v;
  const nav_err e_summary = nav_run_summary(&f, dir, err == NAV_OK, &s, &v); /* final_fields.bin: a good run's */
  if (err == NAV_OK) err = e_summary;
  err = nav_agree(&f, err);
  /* the final fields: with snapshots on, and for the figures of plots = true */
  const int plots = !strcmp(c->plots, "true");
  if (err == NAV_OK && (c->fields_every > 0 || c->fields_dt > 0 || plots)) {
    nav_flow_view_sync(&f);
    err = nav_snapshot_write(dir, &f);
  }
  if (err != NAV_OK && !message[0]) snprintf(message, sizeof message, "%s", nav_error_message());
  s.status = err != NAV_OK ? "failed" : opt->stopped ? "stopped" : "completed";
  s.wall_s = nav_wtime() - t_start;
  double phase_s[NAV_PHASE_COUNT];
  nav_profile_seconds(phase_s);
  if (opt->profile) {
    s.profile = phase_s;
    s.loop_s = nav_wtime() - t_loop;
    size_t now, peak;
    ops->memory(&now, &peak);
    double mem[2] = {(double)peak, (double)peak / ((double)f.box.n[0] * f.box.n[1] * f.box.n[2])};
    nav_reduce_max(f.comm, mem, 2);
    s.memory_bytes = mem[0];
    s.memory_per_cell = mem[1];
    if (rank == 0) {
      printf("profile (%ld steps, %.3f s in the time loop and output):\n  %-11s %10s %8s %12s\n", f.step, s.loop_s,
             "phase", "seconds", "share", "ms/step");
      for (int p = 1; p <= NAV_PHASE_COUNT; p++) { /* "other" last */
        const int q = p % NAV_PHASE_COUNT;
        printf("  %-11s %10.3f %7.1f%% %12.4f\n", nav_profile_name((nav_profile_phase)q), phase_s[q],
               100 * phase_s[q] / s.loop_s, f.step ? 1e3 * phase_s[q] / (double)f.step : 0);
      }
      printf("memory: %.3f GiB of %s memory at the peak (largest rank), %.1f bytes per cell of a block\n",
             s.memory_bytes / (1 << 30), ops->name, s.memory_per_cell);
    }
  }
  if (rank == 0 && !strcmp(c->halo_overlap, "on"))
    printf("halo overlap: %ld colour sweeps of rank 0 overlapped their halo exchange\n",
           nav_psolver_overlapped(f.poisson));
  if (rank == 0 && v.cavity)
    printf("validation: Ghia et al. (1982), Re = %g: max |u - u_ref| = %.4f on x = 0.5 (%d points), max |v - v_ref| = "
           "%.4f on y = 0.5 (%d points)\n",
           v.re, v.max_dev_u, v.points_u, v.max_dev_v, v.points_v);
  if (rank == 0 && v.cavity && !steady)
    printf("validation: warning: the run stopped before steady state (%s), so these deviations are not those of the "
           "converged flow%s\n",
           c->steady_tol > 0 ? "time.steady_tol not reached" : "time.steady_tol = 0",
           c->steady_tol > 0 ? ": raise time.max_steps or time.end_time" : "");
  if (rank == 0 && v.analytic) printf("validation: analytic velocity error max %.3e, rms %.3e\n", v.err_max, v.err_rms);
  if (rank == 0) nav_models_log(&f.models, nav_flow_view_sync(&f)); /* the models' lines (convection) */
  if (rank == 0 && v.t_analytic)
    printf("validation: analytic temperature error max %.3e, rms %.3e\n", v.t_err_max, v.t_err_rms);
  nav_err es = nav_agree(&f, rank == 0 ? nav_summary_write(dir, &f, &s, &v) : NAV_OK);
  if (rank == 0 && es == NAV_OK)
    printf("%s: %ld steps, t = %.6g, %.2f s wall; summary in %s/summary.json\n", s.status, f.step, f.t, s.wall_s, dir);
  else if (rank == 0)
    printf("%s: %ld steps, t = %.6g, %.2f s wall; %s/summary.json not written\n", s.status, f.step, f.t, s.wall_s, dir);
  if (rank == 0 && plots && err == NAV_OK) {
    int vtk, hdf5;
    nav_snapshot_formats(c, &vtk, &hdf5);
    printf("fields: %s/fields_%08ld.%s%s\n", dir, f.step, hdf5 ? "h5" : "vtk",
           hdf5 ? " (open fields.xmf in ParaView)" : "");
    if (nav_plots_run(dir) == 0) printf("figures: %s/plots\n", dir); /* a failure is a warning */
  }
  nav_flow_destroy(&f);
  if (err != NAV_OK && es != NAV_OK) { /* the run's failure first: the summary's follows from it (a full disk) */
    char also[1024];
    snprintf(also, sizeof also, "%s", nav_error_message());
    return nav_error_set(err, __FILE__, __LINE__, __func__, "%s; and %s", message, also);
  }
  NAV_CALL(err);
  NAV_CALL(es);
  return NAV_OK;
}
