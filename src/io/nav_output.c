/* Run output: folder, monitor.csv, VTK snapshots, summary.json (see nav_output.h). */
#include "io/nav_output.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/nav_error.h"
#include "core/nav_profile.h"
#include "io/nav_cellfields.h"

/* The first folder that nav_output_prepare created ("" if none): nav_output_abandon removes it and
 * the folders below it on the way to dir. */
static char nav_output_created[1024];

nav_err nav_output_prepare(const char *dir) {
  char path[1024];
  nav_output_created[0] = 0;
  NAV_CHECK(strlen(dir) > 0 && strlen(dir) < sizeof path, NAV_ERR_INPUT, "output folder '%s': bad name", dir);
  snprintf(path, sizeof path, "%s", dir);
  for (char *s = path + 1;; s++) { /* mkdir -p */
    if (*s && *s != '/') continue;
    const char end = *s;
    *s = 0;
    struct stat st;
    if (mkdir(path, 0777) == 0) {
      if (!nav_output_created[0]) snprintf(nav_output_created, sizeof nav_output_created, "%s", path);
    } else if (errno != EEXIST) {
      NAV_CHECK(0, NAV_ERR_INPUT, "output folder '%s': cannot create '%s': %s", dir, path, strerror(errno));
    } else if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
      NAV_CHECK(0, NAV_ERR_INPUT, "output folder '%s': '%s' exists and is not a folder", dir, path);
    }
    *s = end;
    if (!end) break;
  }
  NAV_CHECK(access(path, W_OK | X_OK) == 0, NAV_ERR_INPUT, "output folder '%s': not writable: %s", dir,
            strerror(errno));
  /* access() says yes to root everywhere but on read-only mounts, and an empty file fits on a
   * full disk: write a block */
  char probe[1100], block[4096];
  snprintf(probe, sizeof probe, "%s/.navier-write-test", path);
  FILE *t = fopen(probe, "w");
  NAV_CHECK(t, NAV_ERR_INPUT, "output folder '%s': not writable: %s", dir, strerror(errno));
  memset(block, 0, sizeof block);
  errno = 0;
  const int wrote = fwrite(block, 1, sizeof block, t) == sizeof block && fflush(t) == 0;
  const int err = errno;
  const int closed = fclose(t) == 0;
  remove(probe);
  NAV_CHECK(wrote && closed, NAV_ERR_INPUT, "output folder '%s': cannot write a file: %s", dir,
            strerror(err ? err : ENOSPC));
  return NAV_OK;
}

void nav_output_abandon(const char *dir) {
  char path[1024];
  const size_t top = strlen(nav_output_created);
  if (!top || strlen(dir) >= sizeof path) return;
  snprintf(path, sizeof path, "%s", dir);
  for (;;) { /* rmdir dir, then its parents up to the first one created */
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') path[--n] = 0;
    if (n < top || rmdir(path) != 0 || n == top) break;
    char *slash = strrchr(path, '/');
    if (!slash) break;
    *slash = 0;
  }
  nav_output_created[0] = 0;
}

/* A restart keeps the rows of monitor.csv up to its step and drops later ones (written after the
 * checkpoint by a run that then died), so the file reads as one run. Returns 1 if a file was kept. */
static int nav_monitor_trim(const char *path, long last_step) {
  FILE *in = fopen(path, "r");
  if (!in) return 0;
  char tmp[1110], line[512];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  int rows = 0, ok = out != NULL;
  for (int first = 1; ok && fgets(line, sizeof line, in); first = 0) {
    long step;
    if (first || (sscanf(line, "%ld,", &step) == 1 && step <= last_step)) {
      fputs(line, out);
      rows += !first;
    }
  }
  fclose(in);
  if (out) ok = fclose(out) == 0 && ok;
  if (!ok || rows == 0 || rename(tmp, path) != 0) {
    remove(tmp);
    return 0;
  }
  return 1;
}

nav_err nav_monitor_open(const char *dir, const nav_flow *f, long restart_step, FILE **out) {
  char path[1100];
  snprintf(path, sizeof path, "%s/monitor.csv", dir);
  const int append = restart_step >= 0 && nav_monitor_trim(path, restart_step);
  *out = fopen(path, append ? "a" : "w");
  NAV_CHECK(*out, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  if (append) return NAV_OK;
  fprintf(*out, "step,time,dt,kinetic_energy,max_div,p_iterations,p_residual,residual");
  if (f->ac) fprintf(*out, ",residual_momentum,residual_continuity,residual_temperature");
  nav_models_monitor_header(&f->models, &f->view, *out); /* the models' columns (nav_model.h) */
  if (f->dim == 3) fprintf(*out, ",dissipation,enstrophy"); /* solvers/nav_dissipation.h */
  fprintf(*out, ",change\n");
  fflush(*out);
  return NAV_OK;
}

void nav_monitor_row(FILE *out, const nav_flow *f, double dt, double ke, const double turb[2]) {
  if (!out) return;
  fprintf(out, "%ld,%.10e,%.6e,%.10e,%.3e,%d,%.3e,%.4e", f->step, f->t, dt, ke, f->max_div, f->p_iterations,
          f->p_relres, f->change);
  if (f->ac) fprintf(out, ",%.4e,%.4e,%.4e", f->res[0], f->res[1], f->res[2]);
  nav_models_monitor_row(&f->models, &f->view, out);
  if (f->dim == 3) fprintf(out, ",%.10e,%.10e", turb[0], turb[1]);
  if (f->change >= 0)
    fprintf(out, ",%.3e\n", f->change);
  else
    fprintf(out, ",nan\n"); /* not measured (the first row) */
  fflush(out); /* each row is in the file at once (tail -f; a run killed later keeps it) */
}

/* Legacy VTK binary data are big-endian 32-bit floats. */
static void nav_put_be32(FILE *out, double v) {
  float x = (float)v;
  uint32_t u;
  memcpy(&u, &x, 4);
  unsigned char b[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16), (unsigned char)(u >> 8), (unsigned char)u};
  fwrite(b, 1, 4, out);
}

static void nav_put_be64(FILE *out, double v) {
  uint64_t u;
  memcpy(&u, &v, 8);
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(u >> (56 - 8 * i));
  fwrite(b, 1, 8, out);
}

static void nav_put_be32i(FILE *out, int32_t v) {
  uint32_t u = (uint32_t)v;
  unsigned char b[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16), (unsigned char)(u >> 8), (unsigned char)u};
  fwrite(b, 1, 4, out);
}

nav_err nav_fields_write(const char *dir, nav_flow *f, const nav_host_fields *h) {
  char path[1100];
  snprintf(path, sizeof path, "%s/fields_%08ld.vtk", dir, f->step);
  FILE *out = fopen(path, "wb");
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  const nav_box *b = &h->box;
  const int n3 = f->dim == 3 ? f->n[2] : 1;
  fprintf(out, "# vtk DataFile Version 3.0\nnavier %s t=%.9g step %ld\nBINARY\nDATASET RECTILINEAR_GRID\n",
          f->cfg->name, f->t, f->step);
  fprintf(out, "FIELD FieldData 2\nTIME 1 1 double\n");
  nav_put_be64(out, f->t);
  fprintf(out, "\nCYCLE 1 1 int\n");
  nav_put_be32i(out, (int32_t)f->step);
  fprintf(out, "\n");
  fprintf(out, "DIMENSIONS %d %d %d\n", f->n[0] + 1, f->n[1] + 1, n3 + 1);
  const char *axis[3] = {"X", "Y", "Z"};
  for (int d = 0; d < 3; d++) {
    const int m = d < f->dim ? f->n[d] : 1;
    fprintf(out, "%s_COORDINATES %d float\n", axis[d], m + 1);
    for (int i = 0; i <= m; i++) nav_put_be32(out, d < f->dim ? f->xf[d][i] : (double)i);
    fprintf(out, "\n");
  }
  const long ncell = (long)f->n[0] * f->n[1] * n3;
  fprintf(out, "CELL_DATA %ld\nSCALARS pressure float 1\nLOOKUP_TABLE default\n", ncell);
#define NAV_AT(q, i, j, k) (q)[b->off + (i) * b->st[0] + (j) * b->st[1] + (k) * b->st[2]]
  for (int k = 0; k < n3; k++)
    for (int j = 0; j < f->n[1]; j++)
      for (int i = 0; i < f->n[0]; i++) nav_put_be32(out, NAV_AT(h->p, i, j, k));
  if (h->T) {
    fprintf(out, "\nSCALARS temperature float 1\nLOOKUP_TABLE default\n");
    for (int k = 0; k < n3; k++)
      for (int j = 0; j < f->n[1]; j++)
        for (int i = 0; i < f->n[0]; i++) nav_put_be32(out, NAV_AT(h->T, i, j, k));
  }
  /* velocity and vorticity at cell centres: the point functions of io/nav_cellfields.h */
  const nav_cell_input in = {f, b, {h->u[0], h->u[1], h->u[2]}, h->p, h->T};
  fprintf(out, "\nVECTORS velocity float\n");
  for (int k = 0; k < n3; k++)
    for (int j = 0; j < f->n[1]; j++)
      for (int i = 0; i < f->n[0]; i++) {
        double v[3];
        nav_cell_velocity(&in, i, j, k, v);
        for (int c = 0; c < 3; c++) nav_put_be32(out, v[c]);
      }
  fprintf(out, "\n%s\n", f->dim == 3 ? "VECTORS vorticity float" : "SCALARS vorticity float 1\nLOOKUP_TABLE default");
  for (int k = 0; k < n3; k++)
    for (int j = 0; j < f->n[1]; j++)
      for (int i = 0; i < f->n[0]; i++) {
        double w[3];
        nav_cell_vorticity(&in, i, j, k, w);
        for (int c = f->dim == 3 ? 0 : 2; c < 3; c++) nav_put_be32(out, w[c]);
      }
#undef NAV_AT
  fprintf(out, "\n");
  const int bad = ferror(out);
  NAV_CHECK(fclose(out) == 0 && !bad, NAV_ERR_IO, "%s: write failed (disk full?)", path);
  return NAV_OK;
}

static void nav_json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', out);
    if ((unsigned char)*s < 0x20)
      fprintf(out, "\\u%04x", (unsigned char)*s);
    else
      fputc(*s, out);
  }
  fputc('"', out);
}

nav_err nav_output_commit(FILE *out, const char *tmp, const char *path) {
  const int bad = ferror(out);
  if (fclose(out) != 0 || bad) {
    remove(tmp);
    NAV_CHECK(0, NAV_ERR_IO, "%s: write failed (disk full?)", tmp);
  }
  NAV_CHECK(rename(tmp, path) == 0, NAV_ERR_IO, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
  return NAV_OK;
}

nav_err nav_summary_write(const char *dir, const nav_flow *f, const nav_summary *s, const nav_validation *v) {
  char path[1100], tmp[1110];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", tmp, strerror(errno));
  const nav_config *c = f->cfg;
  fprintf(out, "{\n  \"case\": ");
  nav_json_string(out, c->name);
  fprintf(out, ",\n  \"source\": ");
  nav_json_string(out, c->source);
  fprintf(out, ",\n  \"status\": \"%s\",\n  \"message\": ", s->status);
  nav_json_string(out, s->message);
  const long cells = (long)f->n[0] * f->n[1] * (f->dim == 3 ? f->n[2] : 1);
  char maxdiv[32], ke[32], pmax[32];
  fprintf(out,
          ",\n  \"steps\": %ld,\n  \"time\": %.10g,\n  \"wall_s\": %.3f,\n  \"backend\": \"%s\",\n  \"ranks\": %d,\n"
          "  \"dim\": %d,\n  \"grid\": [%d, %d, %d],\n  \"cells\": %ld,\n  \"precision\": \"%s\",\n"
          "  \"max_div\": %s,\n  \"kinetic_energy\": %s,\n  \"max_abs_p\": %s,\n  \"decomposition\": [%d, %d, %d],\n"
          "  \"halo_transport\": \"%s\"",
          f->step, f->t, s->wall_s, s->backend, s->ranks, f->dim, f->n[0], f->n[1], f->dim == 3 ? f->n[2] : 1, cells,
          NAV_PRECISION_NAME, nav_json_real(f->max_div, "%.3e", maxdiv), nav_json_real(s->final_ke, "%.10e", ke),
          nav_json_real(s->max_abs_p, "%.6e", pmax), f->dc.p[0], f->dc.p[1], f->dc.p[2],
          nav_transport_name(f->dc.transport));
  if (s->profile) {
    fprintf(out, ",\n  \"profile\": {\"loop_s\": %.6f", s->loop_s);
    for (int p = 0; p < NAV_PHASE_COUNT; p++)
      fprintf(out, ", \"%s_s\": %.6f", nav_profile_name((nav_profile_phase)p), s->profile[p]);
    fprintf(out, ", \"memory_bytes\": %.0f, \"memory_bytes_per_cell\": %.2f", s->memory_bytes, s->memory_per_cell);
    long work[NAV_PHASE_COUNT][NAV_PHASE_COUNT]; /* "work": {kind: {phase charged: count}} (nav_profile_work) */
    nav_profile_work_counts(work);
    fprintf(out, ", \"work\": {");
    for (int k = 0, first = 1; k < NAV_PHASE_COUNT; k++) {
      fprintf(out, "%s\"%s\": {", first ? "" : ", ", nav_profile_name((nav_profile_phase)k));
      first = 0;
      for (int p = 0, any = 0; p < NAV_PHASE_COUNT; p++)
        if (work[k][p]) fprintf(out, "%s\"%s\": %ld", any++ ? ", " : "", nav_profile_name((nav_profile_phase)p), work[k][p]);
      fprintf(out, "}");
    }
    fprintf(out, "}}");
  }
  if (s->steady) {
    char res[32];
    fprintf(out, ",\n  \"steady\": {\"method\": \"%s\", \"iterations\": %ld, \"residual\": %s, \"converged\": %s, "
            "\"wall_s\": %.3f", c->method, s->steady_iterations, nav_json_real(s->steady_residual, "%.4e", res),
            s->steady_converged ? "true" : "false", s->steady_wall_s);
    if (s->steady_work >= 0) fprintf(out, ", \"work_units\": %.1f", s->steady_work);
    fprintf(out, "}");
  }
  nav_models_summary(&f->models, &f->view, out); /* the models' entries (nav_model.h) */
  if (v && (v->cavity || v->analytic)) {
    fprintf(out, ",\n");
    nav_validation_json(v, out);
  }
  fprintf(out, "\n}\n");
  return nav_output_commit(out, tmp, path);
}

nav_err nav_dump_final(const char *dir, const nav_flow *f, const nav_host_fields *h) {
  char path[1100];
  snprintf(path, sizeof path, "%s/final_fields.bin", dir);
  FILE *out = fopen(path, "wb");
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  const nav_box *b = &h->box;
  for (int c = 0; c <= f->dim + (h->T ? 1 : 0); c++) {
    const nav_real *q = c < f->dim ? h->u[c] : c == f->dim ? h->p : h->T;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const double v = q[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]];
          fwrite(&v, sizeof v, 1, out);
        }
  }
  const int bad = ferror(out);
  NAV_CHECK(fclose(out) == 0 && !bad, NAV_ERR_IO, "%s: write failed (disk full?)", path);
  return NAV_OK;
}
