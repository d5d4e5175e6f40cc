/* The flow solver's C API (include/navier/flow.h): a case loaded as `navier run` loads it, the flow
 * state of solvers/nav_flow.h, and the steps of the run loop (solvers/nav_run.c) one call at a time.
 * The step here takes the time step, the end-time clamp, the max_cfl check and the diagnosed steps
 * exactly as nav_run's loop does, so the fields agree with `navier run` bit for bit. */
#include "navier/flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/nav_kernels.h"
#include "core/nav_comm.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "grid/nav_decomp.h"
#include "grid/nav_reduce.h"
#include "io/nav_checkpoint.h"
#include "io/nav_output.h"
#include "io/nav_snapshot.h"
#include "solvers/nav_ac.h"
#include "solvers/nav_flow.h"
#include "solvers/nav_run.h"

struct nav_sim {
  nav_config cfg;          /* the flow keeps a pointer to it */
  const nav_kernel_ops *ops;
  nav_flow f;
  int flow_up;             /* f was created (destroy it) */
  int rank, size;
  char dir[NAV_CONFIG_STR + 80];
  double dt, cfl;          /* the last step, and the CFL number of the next dt */
};

/* Replace every occurrence of from in s (size n) by to. */
static void nav_sim_replace(char *s, size_t n, const char *from, const char *to) {
  char out[sizeof ((nav_config_errors *)0)->text];
  size_t o = 0;
  const size_t lf = strlen(from), lt = strlen(to);
  for (const char *p = s; *p && o + 1 < sizeof out;) {
    if (lf && !strncmp(p, from, lf) && o + lt + 1 < sizeof out) {
      memcpy(out + o, to, lt);
      o += lt;
      p += lf;
    } else {
      out[o++] = *p++;
    }
  }
  out[o] = 0;
  snprintf(s, n, "%s", out);
}

/* Load the case of opt into cfg: a file, INI text (through a temporary file, named "(string)" in
 * messages and in cfg->source), or the default case; then the overrides. */
static nav_err nav_sim_load(const nav_sim_options *opt, nav_config *cfg) {
  static nav_config_errors errs;
  char tmp[1100] = "";
  const char *path = opt ? opt->case_file : NULL;
  NAV_CHECK(!(opt && opt->case_file && opt->config), NAV_ERR_INPUT,
            "nav_sim_create: give a case file or a configuration string, not both");
  if (opt && opt->config) {
    const char *base = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/navier-config-XXXXXX", base && base[0] ? base : "/tmp");
    const int fd = mkstemp(tmp);
    NAV_CHECK(fd >= 0, NAV_ERR_IO, "nav_sim_create: cannot write a temporary file %s", tmp);
    FILE *fp = fdopen(fd, "w");
    const int bad = !fp || fputs(opt->config, fp) < 0;
    if (fp) fclose(fp);
    if (bad) unlink(tmp);
    NAV_CHECK(!bad, NAV_ERR_IO, "nav_sim_create: cannot write a temporary file %s", tmp);
    path = tmp;
  }
  const int nset = opt ? opt->nset : 0;
  const nav_err e = nav_config_load(cfg, path, nset, opt && nset ? (char *const *)opt->sets : NULL, &errs);
  if (tmp[0]) {
    unlink(tmp);
    nav_sim_replace(errs.text, sizeof errs.text, tmp, "(string)");
    snprintf(cfg->source, sizeof cfg->source, "(string)");
  }
  if (e != NAV_OK) {
    const size_t len = strlen(errs.text);
    if (len && errs.text[len - 1] == '\n') errs.text[len - 1] = 0;
    return nav_error_set(e, __FILE__, __LINE__, __func__, "%s", errs.text);
  }
  return NAV_OK;
}

/* The backend of [run] backend for this rank (auto: cuda when a GPU is visible). */
static nav_err nav_sim_backend(nav_sim *s) {
  const char *want = s->cfg.backend;
  if (!strcmp(want, "auto")) want = nav_backend_device_count("cuda") > 0 ? "cuda" : "cpu";
  const int local_rank = nav_decomp_local_rank(nav_compute_comm(), NULL);
  s->ops = nav_backend_get(want, local_rank);
  if (!s->ops && !strcmp(s->cfg.backend, "auto")) s->ops = nav_backend_get("cpu", local_rank);
  char where[NAV_CONFIG_STR + 32];
  nav_config_where(&s->cfg, "run", "backend", where, sizeof where);
  NAV_CHECK(s->ops, NAV_ERR_INPUT, "%s: key 'run.backend': backend '%s' is not available here (have: %s%s)", where,
            s->cfg.backend, nav_backend_list(),
            strstr(nav_backend_list(), "cuda") ? "; cuda needs a visible CUDA device" : "");
  return NAV_OK;
}

static nav_err nav_sim_setup(MPI_Comm comm, const nav_sim_options *opt, nav_sim *s) {
  nav_compute_comm_set(comm);
  MPI_Comm_rank(comm, &s->rank);
  MPI_Comm_size(comm, &s->size);
  NAV_CALL(nav_sim_load(opt, &s->cfg));
  NAV_CALL(nav_sim_backend(s));
  snprintf(s->dir, sizeof s->dir, "%s", opt && opt->output_dir ? opt->output_dir : s->cfg.dir);
  if (!s->dir[0]) snprintf(s->dir, sizeof s->dir, "output/%s", s->cfg.name);
  NAV_CALL(nav_run_memory_check(&s->cfg, s->ops, s->size));
  NAV_CALL(nav_reduce_agree(comm, s->rank == 0 ? nav_output_prepare(s->dir) : NAV_OK));
  nav_err e = nav_flow_create(&s->cfg, s->ops, &s->f);
  s->flow_up = 1;
  if (e == NAV_OK && opt && opt->restart) e = nav_checkpoint_read(opt->restart, &s->f);
  if (e == NAV_OK && opt && opt->restart) e = nav_flow_restored(&s->f); /* ghosts, the models' restored hooks, nu_t */
  if (e == NAV_OK && s->rank == 0) { /* DIR/config.ini: the effective configuration */
    char path[NAV_CONFIG_STR + 100];
    snprintf(path, sizeof path, "%s/config.ini", s->dir);
    FILE *fp = fopen(path, "w");
    if (fp) nav_config_print(&s->cfg, fp);
    if (!fp || fclose(fp) != 0) e = nav_error_set(NAV_ERR_IO, __FILE__, __LINE__, __func__, "%s: cannot write", path);
  }
  e = nav_reduce_agree(comm, e);
  if (e != NAV_OK && s->rank == 0) nav_output_abandon(s->dir); /* as navier run: the folder as it was */
  NAV_CALL(e);
  s->dt = s->f.dt_old;
  return NAV_OK;
}

int nav_sim_create(MPI_Comm comm, const nav_sim_options *options, nav_sim **sim) {
  *sim = NULL;
  nav_error_clear();
  nav_sim *s = calloc(1, sizeof *s);
  NAV_CHECK(s, NAV_ERR_MEMORY, "nav_sim_create: no memory");
  const nav_err e = nav_sim_setup(comm, options, s);
  if (e != NAV_OK) {
    nav_sim_destroy(s);
    return e;
  }
  *sim = s;
  return NAV_OK;
}

static int nav_sim_started_mpi; /* this library called MPI_Init (and finalizes it) */

int nav_sim_create_serial(const nav_sim_options *options, nav_sim **sim) {
  int up = 0, down = 0;
  MPI_Finalized(&down);
  NAV_CHECK(!down, NAV_ERR_MPI, "nav_sim_create_serial: MPI was finalized already");
  MPI_Initialized(&up);
  if (!up) {
    int provided;
    NAV_CHECK(MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS, NAV_ERR_MPI,
              "nav_sim_create_serial: MPI_Init failed");
    nav_sim_started_mpi = 1;
  }
  return nav_sim_create(MPI_COMM_SELF, options, sim);
}

void nav_sim_finalize_serial(void) {
  int down = 0;
  MPI_Finalized(&down);
  if (nav_sim_started_mpi && !down) MPI_Finalize();
  nav_sim_started_mpi = 0;
}

void nav_sim_destroy(nav_sim *s) {
  if (!s) return;
  if (s->flow_up) nav_flow_destroy(&s->f);
  free(s);
}

/* One step of nav_run's loop (solvers/nav_run.c), to time t_stop at most (<= 0: no limit).
 * *stop: the end time (or t_stop) was reached before this call, nothing done. */
static nav_err nav_sim_one(nav_sim *s, double t_stop, int last_of_call, int *stop) {
  nav_flow *f = &s->f;
  const nav_config *c = &s->cfg;
  double dt, cfl;
  *stop = 0;
  NAV_CALL(nav_flow_dt(f, &dt, &cfl)); /* also the deferred blow-up check of the previous step */
  if (f->ac) dt = cfl = 0;            /* pseudo-time: local steps inside nav_ac_step */
  NAV_CHECK(f->ac || (isfinite(dt) && dt > 0), NAV_ERR_BLOWUP, "time step %g is not positive at step %ld (time %.6g)",
            dt, f->step, f->t);
  s->cfl = cfl;
  double end = c->end_time;
  if (t_stop > 0 && (end <= 0 || t_stop < end)) end = t_stop;
  if (!f->ac && end > 0 && nav_time_reached(f->t, end, dt)) {
    *stop = 1;
    return NAV_OK;
  }
  if (!f->ac && end > 0 && f->t + dt > end) dt = end - f->t;
  NAV_CHECK(!(c->max_cfl > 0 && cfl > c->max_cfl), NAV_ERR_BLOWUP,
            "the flow blew up at step %ld, time %.6g: CFL number %.3g above [time] max_cfl = %g (dt %.3e); reduce "
            "[time] dt or cfl",
            f->step + 1, f->t, cfl, c->max_cfl, dt);
  const int at_end = !f->ac && end > 0 && nav_time_reached(f->t + dt, end, dt);
  const int monitor = (f->step + 1) % c->monitor_every == 0 || last_of_call || at_end;
  nav_err e = nav_reduce_agree(f->comm, f->ac ? nav_ac_step(f, monitor) : nav_flow_step(f, dt, monitor));
  if (e == NAV_OK && !isfinite(f->max_div))
    e = nav_error_set(NAV_ERR_BLOWUP, __FILE__, __LINE__, __func__, "the velocity is NaN or Inf after step %ld (time %.6g)",
                      f->step, f->t);
  NAV_CALL(e);
  s->dt = dt;
  return NAV_OK;
}

static nav_err nav_sim_loop(nav_sim *s, long n, double t_stop, long *done) {
  long k = 0;
  nav_error_clear();
  for (int stop = 0; (n < 0 || k < n) && !stop;) {
    const nav_err e = nav_sim_one(s, t_stop, n >= 0 && k + 1 == n, &stop);
    if (e != NAV_OK) {
      if (done) *done = k;
      return e;
    }
    k += !stop;
  }
  if (done) *done = k;
  return nav_flow_check(&s->f);
}

int nav_sim_step(nav_sim *s, long n, long *done) { return nav_sim_loop(s, n, -1, done); }

int nav_sim_advance_to(nav_sim *s, double t, long max_steps, long *done) {
  NAV_CHECK(t > 0, NAV_ERR_INPUT, "nav_sim_advance_to: time %g is not positive", t);
  NAV_CHECK(!s->f.ac, NAV_ERR_INPUT, "nav_sim_advance_to: a pseudo-time run ([time] method = ac) has no time");
  return nav_sim_loop(s, max_steps, t, done);
}

int nav_sim_diagnostics_get(nav_sim *s, nav_sim_diagnostics *d) {
  nav_flow *f = &s->f;
  memset(d, 0, sizeof *d);
  d->step = f->step;
  d->time = f->t;
  d->dt = s->dt;
  d->cfl = s->cfl;
  d->max_div = f->max_div;
  d->p_iterations = f->p_iterations;
  d->p_residual = f->p_relres;
  d->change = f->change;
  return nav_flow_kinetic_energy(f, &d->kinetic_energy);
}

int nav_sim_info_get(const nav_sim *s, nav_sim_info *info) {
  memset(info, 0, sizeof *info);
  info->dim = s->f.dim;
  for (int d = 0; d < 3; d++) {
    info->n[d] = d < s->f.dim ? s->f.n[d] : 1;
    info->offset[d] = s->f.box.g0[d];
    info->count[d] = s->f.box.n[d];
  }
  info->ranks = s->size;
  info->device = strcmp(s->ops->name, "cpu") != 0;
  snprintf(info->backend, sizeof info->backend, "%s", s->ops->name);
  snprintf(info->name, sizeof info->name, "%s", s->cfg.name);
  snprintf(info->output_dir, sizeof info->output_dir, "%s", s->dir);
  info->precision = (int)sizeof(nav_real);
  return NAV_OK;
}

int nav_sim_coordinates(const nav_sim *s, int d, double *faces) {
  NAV_CHECK(d >= 0 && d < s->f.dim, NAV_ERR_INPUT, "nav_sim_coordinates: direction %d of a %dD grid", d, s->f.dim);
  memcpy(faces, s->f.xf[d], (size_t)(s->f.n[d] + 1) * sizeof *faces);
  return NAV_OK;
}

int nav_sim_field_count(const nav_sim *s) {
  nav_flow_array a[NAV_FLOW_MAX_STATE];
  return nav_flow_state((nav_flow *)&s->f, a);
}

const char *nav_sim_field_name(const nav_sim *s, int i) {
  nav_flow_array a[NAV_FLOW_MAX_STATE];
  const int n = nav_flow_state((nav_flow *)&s->f, a);
  return i >= 0 && i < n ? a[i].name : NULL;
}

int nav_sim_field_array(nav_sim *s, const char *name, nav_sim_array *out) {
  nav_flow_array a[NAV_FLOW_MAX_STATE];
  const int n = nav_flow_state(&s->f, a);
  int i = 0;
  while (i < n && strcmp(a[i].name, name)) i++;
  NAV_CHECK(i < n, NAV_ERR_INPUT, "no field '%s' in case %s (see nav_sim_field_name)", name, s->cfg.name);
  const nav_box *b = &s->f.box;
  memset(out, 0, sizeof *out);
  out->data = a[i].data;
  out->device = strcmp(s->ops->name, "cpu") != 0;
  out->precision = (int)sizeof(nav_real);
  out->offset = (long)b->off;
  out->total = (long)b->ntot;
  for (int d = 0; d < 3; d++) {
    out->stride[d] = (long)b->st[d];
    out->shape[d] = d < s->f.dim ? b->n[d] + 2 : 1;
  }
  return NAV_OK;
}

/* The whole array of field name (ghosts included) in a host buffer *h; the caller frees it. */
static nav_err nav_sim_fetch(nav_sim *s, const char *name, nav_sim_array *a, nav_real **h) {
  NAV_CALL(nav_sim_field_array(s, name, a));
  NAV_CALL(nav_flow_check(&s->f));
  *h = malloc((size_t)a->total * sizeof **h);
  NAV_CHECK(*h, NAV_ERR_MEMORY, "no memory for a host copy of field %s", name);
  const nav_err e = s->ops->to_host(*h, a->data, (size_t)a->total * sizeof **h);
  if (e != NAV_OK) free(*h);
  return e;
}

int nav_sim_get_field(nav_sim *s, const char *name, double *block) {
  nav_sim_array a;
  nav_real *h;
  NAV_CALL(nav_sim_fetch(s, name, &a, &h));
  const nav_box *b = &s->f.box;
  size_t m = 0;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++) block[m++] = (double)h[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]];
  free(h);
  return NAV_OK;
}

int nav_sim_set_field(nav_sim *s, const char *name, const double *block) {
  nav_sim_array a;
  nav_real *h;
  nav_err e = nav_sim_fetch(s, name, &a, &h);
  if (e == NAV_OK) {
    const nav_box *b = &s->f.box;
    size_t m = 0;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) h[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)block[m++];
    e = s->ops->from_host(a.data, h, (size_t)a.total * sizeof *h);
    free(h);
  }
  NAV_CALL(nav_reduce_agree(s->f.comm, e));
  return nav_flow_restored(&s->f);
}

int nav_sim_clock(const nav_sim *s, double *t, long *step, double *dt_old) {
  if (t) *t = s->f.t;
  if (step) *step = s->f.step;
  if (dt_old) *dt_old = s->f.dt_old;
  return NAV_OK;
}

int nav_sim_set_clock(nav_sim *s, double t, long step, double dt_old) {
  NAV_CHECK(t >= 0 && step >= 0 && dt_old >= 0, NAV_ERR_INPUT,
            "nav_sim_set_clock: time %g, step %ld and previous step %g must not be negative", t, step, dt_old);
  s->f.t = t;
  s->f.step = step;
  s->f.dt_old = dt_old;
  s->dt = dt_old;
  return NAV_OK;
}

int nav_sim_write_fields(nav_sim *s) {
  NAV_CALL(nav_flow_check(&s->f));
  nav_flow_view_sync(&s->f);
  return nav_snapshot_write(s->dir, &s->f);
}

int nav_sim_write_checkpoint(nav_sim *s, char *path, size_t n) {
  char buf[1200];
  NAV_CALL(nav_flow_check(&s->f));
  NAV_CALL(nav_checkpoint_write(s->dir, &s->f, buf, sizeof buf));
  if (path && n) snprintf(path, n, "%s", buf);
  return NAV_OK;
}

const char *nav_sim_error(void) { return nav_error_message(); }

void nav_sim_sizes(size_t sizes[4]) {
  sizes[0] = sizeof(nav_sim_options);
  sizes[1] = sizeof(nav_sim_info);
  sizes[2] = sizeof(nav_sim_diagnostics);
  sizes[3] = sizeof(nav_sim_array);
}

/* summary.json as `navier run` writes it at the end of a completed run: its entries, files and reports
 * by nav_run_summary (solvers/nav_run.h); the steady block counts every step of the simulation. */
int nav_sim_write_summary(nav_sim *s, char *path, size_t n) {
  nav_flow *f = &s->f;
  NAV_CALL(nav_flow_check(f));
  nav_validation v;
  nav_summary sum = {.status = "completed", .message = "", .backend = s->ops->name, .ranks = s->size,
                     .steady_iterations = f->step, .steady_converged = nav_steady_reached(&s->cfg, f, s->dt)};
  NAV_CALL(nav_run_summary(f, s->dir, 1, &sum, &v));
  NAV_CALL(nav_reduce_agree(f->comm, s->rank == 0 ? nav_summary_write(s->dir, f, &sum, &v) : NAV_OK));
  if (path && n) snprintf(path, n, "%s/summary.json", s->dir);
  return NAV_OK;
}
