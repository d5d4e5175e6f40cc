/* Checkpoint write and read with collective MPI-IO (see nav_checkpoint.h for the format). */
#include "io/nav_checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"

#define NAV_CKPT_MAGIC "navier checkpoint"
#define NAV_CKPT_VERSION 4 /* 2: the face coordinates follow the arrays; 3: key pressure.initial_guess; 4: the
                              models' host blocks follow the coordinates */
#define NAV_CKPT_HEADER 4096

/* The case keys whose values change the solution: a restart under other values is refused. */
static const char *const nav_checkpoint_keys[] = {
    "grid.dim",
    "grid.nx",
    "grid.ny",
    "grid.nz",
    "grid.lx",
    "grid.ly",
    "grid.lz",
    "grid.x0",
    "grid.y0",
    "grid.z0",
    "physics.nu",
    "boundary.x_low",
    "boundary.x_high",
    "boundary.y_low",
    "boundary.y_high",
    "boundary.z_low",
    "boundary.z_high",
    "boundary.x_low_velocity",
    "boundary.x_high_velocity",
    "boundary.y_low_velocity",
    "boundary.y_high_velocity",
    "boundary.z_low_velocity",
    "boundary.z_high_velocity",
    "pressure.solver",
    "pressure.initial_guess",
    "temperature.model",
    "temperature.ra",
    "temperature.pr",
    "temperature.gravity",
    "temperature.beta",
    "temperature.kappa",
    "temperature.t_ref",
    "temperature.x_low",
    "temperature.x_high",
    "temperature.y_low",
    "temperature.y_high",
    "temperature.z_low",
    "temperature.z_high",
    "temperature.x_low_value",
    "temperature.x_high_value",
    "temperature.y_low_value",
    "temperature.y_high_value",
    "temperature.z_low_value",
    "temperature.z_high_value",
    "physics.forcing",
    "physics.forcing_value",
    "physics.forcing_direction",
    "boundary.x_low_profile",
    "boundary.x_high_profile",
    "boundary.y_low_profile",
    "boundary.y_high_profile",
    "boundary.z_low_profile",
    "boundary.z_high_profile",
};
#define NAV_CKPT_NKEYS ((int)(sizeof nav_checkpoint_keys / sizeof nav_checkpoint_keys[0]))

static uint64_t nav_mix64(uint64_t z) { /* splitmix64 finaliser */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t nav_fnv1a(const char *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
  return h;
}

/* Number of face coordinates stored: n_d + 1 per direction. */
static size_t nav_ckpt_ncoord(const nav_flow *f) {
  size_t c = 0;
  for (int d = 0; d < f->dim; d++) c += (size_t)f->n[d] + 1;
  return c;
}

/* The face coordinates of every direction in one array (x, then y, then z). */
static void nav_ckpt_coords(const nav_flow *f, double *c) {
  for (int d = 0; d < f->dim; d++) {
    memcpy(c, f->xf[d], ((size_t)f->n[d] + 1) * sizeof *c);
    c += f->n[d] + 1;
  }
}

/* The models' host state (nav_model.h host_state): block i of at most NAV_MODELS_MAX, with its model's name. */
typedef struct nav_ckpt_host {
  int n;
  const char *name[NAV_MODELS_MAX];
  double *data[NAV_MODELS_MAX];
  size_t count[NAV_MODELS_MAX];
} nav_ckpt_host;

static void nav_ckpt_hosts(nav_flow *f, nav_ckpt_host *hs) {
  memset(hs, 0, sizeof *hs);
  for (int i = 0; i < f->models.n; i++) {
    nav_model *m = &f->models.m[i];
    double *d = NULL;
    size_t c = 0;
    if (m->ops->host_state) m->ops->host_state(m, &d, &c);
    if (!c) continue;
    hs->name[hs->n] = m->ops->name;
    hs->data[hs->n] = d;
    hs->count[hs->n++] = c;
  }
}

static MPI_Datatype nav_real_mpi(void) { return sizeof(nav_real) == 8 ? MPI_DOUBLE : MPI_FLOAT; }

static int nav_little_endian(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* One rank's part: the interior points of its block of every state array, dense (x fastest). */
typedef struct nav_ckpt_block {
  int na;
  nav_flow_array a[NAV_FLOW_MAX_STATE];
  size_t count;   /* points of the block */
  nav_idx total;  /* points of the global grid */
  nav_real *data; /* na * count */
  MPI_Datatype filetype;
} nav_ckpt_block;

static nav_err nav_ckpt_block_create(nav_flow *f, nav_ckpt_block *k) {
  memset(k, 0, sizeof *k);
  k->filetype = MPI_DATATYPE_NULL;
  k->na = nav_flow_state(f, k->a);
  const nav_box *b = &f->box;
  k->count = (size_t)b->n[0] * b->n[1] * b->n[2];
  k->total = (nav_idx)f->n[0] * f->n[1] * (f->dim == 3 ? f->n[2] : 1);
  k->data = malloc((size_t)k->na * k->count * sizeof(nav_real));
  NAV_CHECK(k->data, NAV_ERR_MEMORY, "cannot allocate the checkpoint buffers");
  const int N[3] = {f->dim == 3 ? f->n[2] : 1, f->n[1], f->n[0]};
  const int sub[3] = {b->n[2], b->n[1], b->n[0]}, start[3] = {b->g0[2], b->g0[1], b->g0[0]};
  NAV_CHECK(MPI_Type_create_subarray(3, N, sub, start, MPI_ORDER_C, nav_real_mpi(), &k->filetype) == MPI_SUCCESS &&
                MPI_Type_commit(&k->filetype) == MPI_SUCCESS,
            NAV_ERR_MPI, "cannot build the MPI subarray type of the checkpoint");
  return NAV_OK;
}

static void nav_ckpt_block_free(nav_ckpt_block *k) {
  free(k->data);
  if (k->filetype != MPI_DATATYPE_NULL) MPI_Type_free(&k->filetype);
  memset(k, 0, sizeof *k);
}

/* Checksums of the block's part of every array (summed over ranks after) and its non-finite count. */
static void nav_ckpt_checksums(const nav_flow *f, const nav_ckpt_block *k, uint64_t *sum, uint64_t *bad) {
  const nav_box *b = &f->box;
  *bad = 0;
  for (int q = 0; q < k->na; q++) {
    const nav_real *v = k->data + (size_t)q * k->count;
    uint64_t s = 0;
    size_t p = 0;
    for (int kk = 0; kk < b->n[2]; kk++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++, p++) {
          const uint64_t g = (uint64_t)(b->g0[0] + i) +
                             (uint64_t)f->n[0] * ((uint64_t)(b->g0[1] + j) + (uint64_t)f->n[1] * (b->g0[2] + kk));
          uint64_t bits = 0;
          memcpy(&bits, &v[p], sizeof(nav_real));
          s += nav_mix64(bits ^ nav_mix64(g + 0x9e3779b97f4a7c15ULL));
          *bad += !isfinite((double)v[p]);
        }
    sum[q] = s;
  }
}

static void nav_mpi_reason(int rc, char *buf, size_t n) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "MPI error %d", rc);
  snprintf(buf, n, "%s", s);
}

/* Delete all but the newest `keep` DIR/checkpoint_<step>.nck. Rank 0. */
static void nav_ckpt_prune(const char *dir, int keep) {
  DIR *d = opendir(dir);
  if (!d) return;
  long *steps = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    long s;
    char tail[8] = "";
    if (sscanf(e->d_name, "checkpoint_%ld.%7s", &s, tail) != 2 || strcmp(tail, "nck")) continue;
    char name[64];
    snprintf(name, sizeof name, "checkpoint_%08ld.nck", s);
    if (strcmp(name, e->d_name)) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      long *grown = realloc(steps, cap * sizeof *steps);
      if (!grown) break;
      steps = grown;
    }
    steps[n++] = s;
  }
  closedir(d);
  for (size_t i = 0; i < n; i++) { /* delete each one that has `keep` newer ones */
    size_t newer = 0;
    for (size_t j = 0; j < n; j++)
      newer += steps[j] > steps[i];
    if (newer >= (size_t)keep) {
      char path[1200];
      snprintf(path, sizeof path, "%s/checkpoint_%08ld.nck", dir, steps[i]);
      remove(path);
    }
  }
  free(steps);
}

static int nav_ckpt_header(const nav_flow *f, const nav_ckpt_block *k, const uint64_t *sum, const nav_ckpt_host *hs,
                           char *h) {
  int len = snprintf(h, NAV_CKPT_HEADER,
                     "%s\nformat %d\nprecision_bytes %zu\nbyte_order %s\nstep %ld\ntime %a\ndt_old %a\n"
                     "points %" PRId64 "\narrays %d\ncoordinates %zu\n",
                     NAV_CKPT_MAGIC, NAV_CKPT_VERSION, sizeof(nav_real), nav_little_endian() ? "little" : "big",
                     f->step, f->t, f->dt_old, (int64_t)k->total, k->na, nav_ckpt_ncoord(f));
  for (int q = 0; q < k->na; q++)
    len += snprintf(h + len, NAV_CKPT_HEADER - len, "array %s %016" PRIx64 "\n", k->a[q].name, sum[q]);
  for (int i = 0; i < hs->n; i++)
    len += snprintf(h + len, NAV_CKPT_HEADER - len, "host %s %zu %016" PRIx64 "\n", hs->name[i], hs->count[i],
                    nav_fnv1a((const char *)hs->data[i], hs->count[i] * sizeof(double)));
  for (int i = 0; i < NAV_CKPT_NKEYS; i++) {
    char key[64], value[NAV_CONFIG_STR + 8];
    snprintf(key, sizeof key, "%s", nav_checkpoint_keys[i]);
    char *dot = strchr(key, '.');
    *dot = 0;
    nav_config_value(f->cfg, key, dot + 1, value, sizeof value);
    len += snprintf(h + len, NAV_CKPT_HEADER - len, "key %s %s\n", nav_checkpoint_keys[i], value);
  }
  len += snprintf(h + len, NAV_CKPT_HEADER - len, "header_checksum %016" PRIx64 "\n", nav_fnv1a(h, (size_t)len));
  return len < NAV_CKPT_HEADER - 1 ? 0 : -1;
}

nav_err nav_checkpoint_write(const char *dir, nav_flow *f, char *path_out, size_t path_n) {
  MPI_Comm comm = f->dc.comm;
  nav_ckpt_block k;
  nav_err e = nav_ckpt_block_create(f, &k);
  const nav_box *b = &f->box;
  nav_real *host = e == NAV_OK ? malloc((size_t)b->ntot * sizeof *host) : NULL;
  if (e == NAV_OK && !host) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate");
  for (int q = 0; q < k.na && e == NAV_OK; q++) {
    e = f->ops->to_host(host, k.a[q].data, (size_t)b->ntot * sizeof *host);
    nav_real *dst = k.data + (size_t)q * k.count;
    size_t p = 0;
    for (int kk = 0; kk < b->n[2]; kk++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++)
          dst[p++] = host[b->off + i * b->st[0] + j * b->st[1] + kk * b->st[2]];
  }
  free(host);
  if (e != NAV_OK) {
    nav_ckpt_block_free(&k);
    NAV_CALL(e);
  }
  uint64_t sum[NAV_FLOW_MAX_STATE + 1];
  nav_ckpt_checksums(f, &k, sum, &sum[k.na]);
  MPI_Allreduce(MPI_IN_PLACE, sum, k.na + 1, MPI_UINT64_T, MPI_SUM, comm);
  if (sum[k.na]) {
    nav_ckpt_block_free(&k);
    NAV_CHECK(0, NAV_ERR_BLOWUP, "the state at step %ld has %" PRIu64 " NaN or Inf value(s): no checkpoint written",
              f->step, sum[k.na]);
  }
  char path[1100], tmp[1110], header[NAV_CKPT_HEADER];
  memset(header, 0, sizeof header);
  snprintf(path, sizeof path, "%s/checkpoint_%08ld.nck", dir, f->step);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  nav_ckpt_host hs;
  nav_ckpt_hosts(f, &hs);
  if (nav_ckpt_header(f, &k, sum, &hs, header)) {
    nav_ckpt_block_free(&k);
    NAV_CHECK(0, NAV_ERR_INTERNAL, "%s: the checkpoint header does not fit in %d bytes", path, NAV_CKPT_HEADER);
  }
  /* collective write of the hyperslabs, then the header from rank 0; rc: the first failure */
  char what[64] = "";
  MPI_File fh;
  int rc = MPI_File_open(comm, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) snprintf(what, sizeof what, "cannot create");
  if (rc == MPI_SUCCESS) {
    int wrc = MPI_File_set_size(fh, 0);
    const MPI_Offset bytes = (MPI_Offset)k.total * (MPI_Offset)sizeof(nav_real);
    for (int q = 0; q < k.na && wrc == MPI_SUCCESS; q++) {
      wrc = MPI_File_set_view(fh, NAV_CKPT_HEADER + q * bytes, nav_real_mpi(), k.filetype, "native", MPI_INFO_NULL);
      MPI_Status st;
      int got = 0;
      if (wrc == MPI_SUCCESS)
        wrc = MPI_File_write_all(fh, k.data + (size_t)q * k.count, (int)k.count, nav_real_mpi(), &st);
      if (wrc == MPI_SUCCESS && (MPI_Get_count(&st, nav_real_mpi(), &got) != MPI_SUCCESS || got != (int)k.count))
        wrc = MPI_ERR_IO;
    }
    if (wrc == MPI_SUCCESS) wrc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    if (wrc == MPI_SUCCESS && f->dc.rank == 0) {
      MPI_Status st;
      int got = 0;
      wrc = MPI_File_write_at(fh, 0, header, NAV_CKPT_HEADER, MPI_BYTE, &st);
      if (wrc == MPI_SUCCESS && (MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || got != NAV_CKPT_HEADER))
        wrc = MPI_ERR_IO;
      const size_t nc = nav_ckpt_ncoord(f); /* the face coordinates after the arrays */
      double *c = malloc(nc * sizeof *c);
      if (!c) wrc = MPI_ERR_NO_MEM;
      if (wrc == MPI_SUCCESS) {
        nav_ckpt_coords(f, c);
        wrc = MPI_File_write_at(fh, NAV_CKPT_HEADER + k.na * bytes, c, (int)nc, MPI_DOUBLE, &st);
        if (wrc == MPI_SUCCESS && (MPI_Get_count(&st, MPI_DOUBLE, &got) != MPI_SUCCESS || got != (int)nc))
          wrc = MPI_ERR_IO;
      }
      /* the models' host blocks after the coordinates, in header order */
      MPI_Offset at = NAV_CKPT_HEADER + k.na * bytes + (MPI_Offset)(nc * sizeof(double));
      for (int i = 0; i < hs.n && wrc == MPI_SUCCESS; i++) {
        wrc = MPI_File_write_at(fh, at, hs.data[i], (int)hs.count[i], MPI_DOUBLE, &st);
        if (wrc == MPI_SUCCESS && (MPI_Get_count(&st, MPI_DOUBLE, &got) != MPI_SUCCESS || got != (int)hs.count[i]))
          wrc = MPI_ERR_IO;
        at += (MPI_Offset)(hs.count[i] * sizeof(double));
      }
      free(c);
    }
    /* every rank reaches the sync and the close, whatever failed before */
    int src = MPI_File_sync(fh);
    int crc = MPI_File_close(&fh);
    rc = wrc != MPI_SUCCESS ? wrc : src != MPI_SUCCESS ? src : crc;
    if (rc != MPI_SUCCESS) snprintf(what, sizeof what, "write failed (disk full?)");
  }
  nav_ckpt_block_free(&k);
  char reason[MPI_MAX_ERROR_STRING + 1] = "";
  if (rc != MPI_SUCCESS) nav_mpi_reason(rc, reason, sizeof reason);
  int failed = rc != MPI_SUCCESS, any = failed;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
  if (any) {
    if (f->dc.rank == 0) remove(tmp);
    if (failed) NAV_CHECK(0, NAV_ERR_IO, "checkpoint %s: %s: %s; the previous checkpoints are kept", tmp, what, reason);
    NAV_CHECK(0, NAV_ERR_IO, "checkpoint %s: write failed on another rank; the previous checkpoints are kept", tmp);
  }
  nav_err er = NAV_OK;
  if (f->dc.rank == 0) {
    if (rename(tmp, path) != 0)
      er = nav_error_set(NAV_ERR_IO, __FILE__, __LINE__, __func__, "checkpoint %s: cannot rename to %s: %s", tmp, path,
                         strerror(errno));
    else
      nav_ckpt_prune(dir, f->cfg->checkpoint_keep);
  }
  const int code = nav_reduce_err(comm, (int)er);
  if (code != NAV_OK && er == NAV_OK)
    return nav_error_set((nav_err)code, __FILE__, __LINE__, __func__, "checkpoint rename failed on rank 0");
  NAV_CALL(er);
  if (path_out) snprintf(path_out, path_n, "%s", path);
  return NAV_OK;
}

/* The value after "name " on the header line that starts with it, or NULL. */
static const char *nav_ckpt_field(const char *h, const char *name, char *buf, size_t n) {
  const size_t len = strlen(name);
  for (const char *line = h; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, name, len) || line[len] != ' ') continue;
    const char *v = line + len + 1, *end = strchr(v, '\n');
    size_t m = end ? (size_t)(end - v) : strlen(v);
    if (m >= n) m = n - 1;
    memcpy(buf, v, m);
    buf[m] = 0;
    return buf;
  }
  return NULL;
}

/* Check the header against f; on success fill step, t, dt_old and the checksums. Every rank
 * decides the same (same text). Returns NAV_OK or NAV_ERR_INPUT with the message. */
/* The host blocks a checkpoint holds (its "host NAME COUNT CHECKSUM" lines, in file order). */
typedef struct nav_ckpt_stored {
  int n;
  char name[NAV_MODELS_MAX][32];
  size_t count[NAV_MODELS_MAX];
  uint64_t sum[NAV_MODELS_MAX];
  MPI_Offset at[NAV_MODELS_MAX]; /* file offset of the block */
} nav_ckpt_stored;

static nav_err nav_ckpt_parse(const char *path, const char *h, MPI_Offset size, nav_flow *f, const nav_ckpt_block *k,
                              long *step, double *t, double *dt_old, uint64_t *sum, nav_ckpt_stored *hb) {
  char v[NAV_CONFIG_STR + 16];
  NAV_CHECK(size >= NAV_CKPT_HEADER, NAV_ERR_INPUT,
            "checkpoint %s: truncated: %lld bytes, shorter than the %d-byte header", path, (long long)size,
            NAV_CKPT_HEADER);
  NAV_CHECK(!strncmp(h, NAV_CKPT_MAGIC "\n", strlen(NAV_CKPT_MAGIC) + 1), NAV_ERR_INPUT,
            "checkpoint %s: not a navier checkpoint (no '%s' at the start)", path, NAV_CKPT_MAGIC);
  const char *hc = strstr(h, "\nheader_checksum ");
  NAV_CHECK(hc, NAV_ERR_INPUT, "checkpoint %s: corrupt header (no header_checksum line)", path);
  uint64_t want = 0;
  NAV_CHECK(sscanf(hc + 17, "%" SCNx64, &want) == 1 && want == nav_fnv1a(h, (size_t)(hc + 1 - h)), NAV_ERR_INPUT,
            "checkpoint %s: corrupt header (header checksum mismatch)", path);
  int version = 0;
  NAV_CHECK(nav_ckpt_field(h, "format", v, sizeof v) && sscanf(v, "%d", &version) == 1 && version == NAV_CKPT_VERSION,
            NAV_ERR_INPUT, "checkpoint %s: format version %d, this navier reads version %d", path, version,
            NAV_CKPT_VERSION);
  size_t prec = 0;
  NAV_CHECK(nav_ckpt_field(h, "precision_bytes", v, sizeof v) && sscanf(v, "%zu", &prec) == 1, NAV_ERR_INPUT,
            "checkpoint %s: corrupt header (precision_bytes)", path);
  NAV_CHECK(prec == sizeof(nav_real), NAV_ERR_INPUT,
            "checkpoint %s: written in %s precision (%zu-byte reals), this navier is %s precision", path,
            prec == 4 ? "single" : "double", prec, NAV_PRECISION_NAME);
  NAV_CHECK(nav_ckpt_field(h, "byte_order", v, sizeof v) && !strcmp(v, nav_little_endian() ? "little" : "big"),
            NAV_ERR_INPUT, "checkpoint %s: written on a machine of the other byte order", path);
  for (int i = 0; i < NAV_CKPT_NKEYS; i++) {
    char key[64], mine[NAV_CONFIG_STR + 8], line[80];
    snprintf(key, sizeof key, "%s", nav_checkpoint_keys[i]);
    char *dot = strchr(key, '.');
    *dot = 0;
    nav_config_value(f->cfg, key, dot + 1, mine, sizeof mine);
    snprintf(line, sizeof line, "key %s", nav_checkpoint_keys[i]);
    NAV_CHECK(nav_ckpt_field(h, line, v, sizeof v), NAV_ERR_INPUT, "checkpoint %s: corrupt header (no %s)", path,
              nav_checkpoint_keys[i]);
    NAV_CHECK(!strcmp(v, mine), NAV_ERR_INPUT,
              "checkpoint %s: written for %s = %s, but the case (%s) has %s = %s: a restart needs the same grid, "
              "domain, viscosity, boundaries, pressure solver and initial guess, and temperature settings",
              path, nav_checkpoint_keys[i], v, f->cfg->source, nav_checkpoint_keys[i], mine);
  }
  int na = 0;
  long long points = 0;
  NAV_CHECK(nav_ckpt_field(h, "arrays", v, sizeof v) && sscanf(v, "%d", &na) == 1 &&
                nav_ckpt_field(h, "points", v, sizeof v) && sscanf(v, "%lld", &points) == 1,
            NAV_ERR_INPUT, "checkpoint %s: corrupt header (arrays, points)", path);
  NAV_CHECK(na == k->na && points == (long long)k->total, NAV_ERR_INPUT,
            "checkpoint %s: holds %d arrays of %lld points, this case needs %d of %lld", path, na, points, k->na,
            (long long)k->total);
  const char *line = strstr(h, "\narray ");
  for (int q = 0; q < na; q++) {
    char name[32];
    NAV_CHECK(line && sscanf(line + 1, "array %31s %" SCNx64, name, &sum[q]) == 2 && !strcmp(name, k->a[q].name),
              NAV_ERR_INPUT, "checkpoint %s: array %d is not '%s' as this case needs", path, q + 1, k->a[q].name);
    line = strchr(line + 1, '\n');
  }
  size_t ncoord = 0;
  NAV_CHECK(nav_ckpt_field(h, "coordinates", v, sizeof v) && sscanf(v, "%zu", &ncoord) == 1, NAV_ERR_INPUT,
            "checkpoint %s: corrupt header (coordinates)", path);
  NAV_CHECK(ncoord == nav_ckpt_ncoord(f), NAV_ERR_INPUT, "checkpoint %s: holds %zu face coordinates, this grid has %zu",
            path, ncoord, nav_ckpt_ncoord(f));
  MPI_Offset expect = NAV_CKPT_HEADER + (MPI_Offset)na * (MPI_Offset)k->total * (MPI_Offset)sizeof(nav_real) +
                      (MPI_Offset)(ncoord * sizeof(double));
  memset(hb, 0, sizeof *hb);
  for (const char *hl = strstr(h, "\nhost "); hl; hl = strstr(hl + 1, "\nhost ")) {
    NAV_CHECK(hb->n < NAV_MODELS_MAX &&
                  sscanf(hl + 1, "host %31s %zu %" SCNx64, hb->name[hb->n], &hb->count[hb->n], &hb->sum[hb->n]) == 3,
              NAV_ERR_INPUT, "checkpoint %s: corrupt header (host block %d)", path, hb->n + 1);
    hb->at[hb->n] = expect;
    expect += (MPI_Offset)(hb->count[hb->n++] * sizeof(double));
  }
  NAV_CHECK(size == expect, NAV_ERR_INPUT, "checkpoint %s: %s: %lld bytes, expected %lld", path,
            size < expect ? "truncated" : "too long", (long long)size, (long long)expect);
  NAV_CHECK(nav_ckpt_field(h, "step", v, sizeof v) && sscanf(v, "%ld", step) == 1 && *step >= 0 &&
                nav_ckpt_field(h, "time", v, sizeof v) && sscanf(v, "%la", t) == 1 && isfinite(*t) &&
                nav_ckpt_field(h, "dt_old", v, sizeof v) && sscanf(v, "%la", dt_old) == 1 && isfinite(*dt_old),
            NAV_ERR_INPUT, "checkpoint %s: corrupt header (step, time, dt_old)", path);
  return NAV_OK;
}

/* The face coordinates stored at offset `at` of the open checkpoint against the grid of f: a restart on
 * other coordinates (another spacing, stretching or face file) is refused, naming the first face that
 * differs. Rank 0 reads, every rank decides the same. Collective. */
static nav_err nav_ckpt_check_coords(const char *path, MPI_File fh, MPI_Offset at, const nav_flow *f) {
  const size_t nc = nav_ckpt_ncoord(f);
  double *c = malloc(2 * nc * sizeof *c);
  int ok = c != NULL;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, f->dc.comm);
  if (!ok) {
    free(c);
    NAV_CHECK(0, NAV_ERR_MEMORY, "cannot allocate the checkpoint coordinates");
  }
  double *mine = c + nc;
  nav_ckpt_coords(f, mine);
  int got = 0;
  if (f->dc.rank == 0) {
    MPI_Status st;
    if (MPI_File_read_at(fh, at, c, (int)nc, MPI_DOUBLE, &st) != MPI_SUCCESS ||
        MPI_Get_count(&st, MPI_DOUBLE, &got) != MPI_SUCCESS)
      got = 0;
  }
  MPI_Bcast(&got, 1, MPI_INT, 0, f->dc.comm);
  MPI_Bcast(c, (int)nc, MPI_DOUBLE, 0, f->dc.comm);
  size_t q = 0;
  int dir = -1, face = 0;
  double was = 0, now = 0;
  for (int d = 0; d < f->dim && got == (int)nc && dir < 0; d++)
    for (int i = 0; i <= f->n[d]; i++, q++)
      if (dir < 0 && memcmp(&c[q], &mine[q], sizeof *c)) { /* bit for bit */
        dir = d;
        face = i;
        was = c[q];
        now = mine[q];
      }
  free(c);
  NAV_CHECK(got == (int)nc, NAV_ERR_INPUT, "checkpoint %s: cannot read the face coordinates", path);
  NAV_CHECK(dir < 0, NAV_ERR_INPUT,
            "checkpoint %s: written on other face coordinates: %c face %d was %.17g, the case (%s) has %.17g (a "
            "restart needs the same grid spacing)",
            path, "xyz"[dir < 0 ? 0 : dir], face, was, f->cfg->source, now);
  return NAV_OK;
}

nav_err nav_checkpoint_read(const char *path, nav_flow *f) {
  MPI_Comm comm = f->dc.comm;
  MPI_File fh;
  int rc = MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) {
    char reason[MPI_MAX_ERROR_STRING + 1];
    nav_mpi_reason(rc, reason, sizeof reason);
    NAV_CHECK(0, NAV_ERR_INPUT, "checkpoint %s: cannot open: %s", path, reason);
  }
  MPI_Offset size = 0;
  MPI_File_get_size(fh, &size);
  char header[NAV_CKPT_HEADER + 1];
  memset(header, 0, sizeof header);
  if (f->dc.rank == 0 && size > 0)
    MPI_File_read_at(fh, 0, header, (int)(size < NAV_CKPT_HEADER ? size : NAV_CKPT_HEADER), MPI_BYTE,
                     MPI_STATUS_IGNORE);
  MPI_Bcast(header, NAV_CKPT_HEADER, MPI_BYTE, 0, comm);
  nav_ckpt_block k;
  nav_err e = nav_ckpt_block_create(f, &k);
  long step = 0;
  double t = 0, dt_old = 0;
  uint64_t want[NAV_FLOW_MAX_STATE], sum[NAV_FLOW_MAX_STATE + 1];
  nav_ckpt_stored hb;
  memset(&hb, 0, sizeof hb);
  if (e == NAV_OK) e = nav_ckpt_parse(path, header, size, f, &k, &step, &t, &dt_old, want, &hb);
  /* the payload: every rank reads its hyperslab of each array */
  int bad = 0;
  const MPI_Offset bytes = (MPI_Offset)k.total * (MPI_Offset)sizeof(nav_real);
  if (e == NAV_OK) e = nav_ckpt_check_coords(path, fh, NAV_CKPT_HEADER + k.na * bytes, f);
  for (int q = 0; q < k.na && e == NAV_OK; q++) {
    MPI_Status st;
    int got = 0;
    rc = MPI_File_set_view(fh, NAV_CKPT_HEADER + q * bytes, nav_real_mpi(), k.filetype, "native", MPI_INFO_NULL);
    if (rc == MPI_SUCCESS) rc = MPI_File_read_all(fh, k.data + (size_t)q * k.count, (int)k.count, nav_real_mpi(), &st);
    if (rc != MPI_SUCCESS || MPI_Get_count(&st, nav_real_mpi(), &got) != MPI_SUCCESS || got != (int)k.count) bad = 1;
  }
  /* the host blocks of this case's models (rank 0 reads, every rank gets them) */
  nav_ckpt_host hs;
  nav_ckpt_hosts(f, &hs);
  double *hread[NAV_MODELS_MAX] = {NULL};
  if (e == NAV_OK && hs.n && MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) != MPI_SUCCESS)
    e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__, "checkpoint %s: cannot read the host blocks", path);
  for (int i = 0; i < hs.n && e == NAV_OK; i++) {
    int at = -1;
    for (int j = 0; j < hb.n; j++)
      if (!strcmp(hb.name[j], hs.name[i])) at = j;
    if (at < 0) continue; /* none stored: the model starts afresh */
    if (hb.count[at] != hs.count[i]) {
      e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__,
                        "checkpoint %s: holds %zu host values of model '%s', this case needs %zu (its settings "
                        "changed, or an older navier wrote it)",
                        path, hb.count[at], hs.name[i], hs.count[i]);
      break;
    }
    hread[i] = calloc(hs.count[i], sizeof(double));
    int ok = hread[i] != NULL;
    if (ok && f->dc.rank == 0) {
      MPI_Status st;
      int got = 0;
      ok = MPI_File_read_at(fh, hb.at[at], hread[i], (int)hs.count[i], MPI_DOUBLE, &st) == MPI_SUCCESS &&
           MPI_Get_count(&st, MPI_DOUBLE, &got) == MPI_SUCCESS && got == (int)hs.count[i];
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    if (!ok) {
      e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__, "checkpoint %s: cannot read the host block of '%s'",
                        path, hs.name[i]);
      break;
    }
    MPI_Bcast(hread[i], (int)hs.count[i], MPI_DOUBLE, 0, comm);
    if (nav_fnv1a((const char *)hread[i], hs.count[i] * sizeof(double)) != hb.sum[at])
      e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__,
                        "checkpoint %s: corrupt: the checksum of the host block of '%s' does not match", path,
                        hs.name[i]);
  }
  MPI_File_close(&fh);
  if (e == NAV_OK) {
    nav_ckpt_checksums(f, &k, sum, &sum[k.na]);
    MPI_Allreduce(MPI_IN_PLACE, sum, k.na, MPI_UINT64_T, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
    if (bad)
      e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__, "checkpoint %s: cannot read the data", path);
    for (int q = 0; q < k.na && e == NAV_OK; q++)
      if (sum[q] != want[q])
        e = nav_error_set(NAV_ERR_INPUT, __FILE__, __LINE__, __func__,
                          "checkpoint %s: corrupt: the checksum of array '%s' is %016" PRIx64
                          ", the header says %016" PRIx64,
                          path, k.a[q].name, sum[q], want[q]);
  }
  /* every check passed: only now does f change */
  const nav_box *b = &f->box;
  nav_real *host = e == NAV_OK ? calloc((size_t)b->ntot, sizeof *host) : NULL;
  if (e == NAV_OK && !host) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate");
  for (int q = 0; q < k.na && e == NAV_OK; q++) {
    const nav_real *src = k.data + (size_t)q * k.count;
    size_t p = 0;
    for (int kk = 0; kk < b->n[2]; kk++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++)
          host[b->off + i * b->st[0] + j * b->st[1] + kk * b->st[2]] = src[p++];
    e = f->ops->from_host(k.a[q].data, host, (size_t)b->ntot * sizeof *host);
  }
  free(host);
  nav_ckpt_block_free(&k);
  for (int i = 0; i < hs.n; i++) {
    if (e == NAV_OK && hread[i]) memcpy(hs.data[i], hread[i], hs.count[i] * sizeof(double));
    free(hread[i]);
  }
  NAV_CALL(e);
  f->step = step;
  f->t = t;
  f->dt_old = dt_old;
  return NAV_OK;
}
