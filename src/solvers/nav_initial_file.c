/* initial = file: the velocity and pressure of another run as the initial field (see nav_initial.h).
 *
 * Sources: a checkpoint (.nck, io/nav_checkpoint.h: the face velocities u, v, w and the pressure p on the
 * global grid, x fastest, then the face coordinates) or an HDF5 snapshot (.h5, io/nav_hdf5.h: the
 * cell-centred /velocity and /pressure with the face coordinates /x /y /z; only in a build with HDF5).
 * Every rank reads the source arrays whole (host memory: the source grid) and fills its block.
 * Same grid (a checkpoint with the same face coordinates, bit for bit): the values as they are. Otherwise
 * trilinear interpolation: along each direction between the two source points of the component that
 * bracket the target point (faces along the component's own direction, centres along the others; periodic
 * directions wrap, beyond the first or last point of a non-periodic direction the value is held). The
 * result is not discretely divergence-free; the projection of the first step makes it so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef NAV_HAVE_HDF5
#include <hdf5.h>
#endif

#include "core/nav_error.h"
#include "core/nav_table.h"
#include "solvers/nav_initial.h"

#define NAV_SRC_HEADER 4096 /* the checkpoint header (io/nav_checkpoint.c) */

typedef struct nav_source {
  int dim, n[3];
  double *xf[3];   /* face coordinates, n + 1 each */
  double *a[4];    /* u, v, w, p on the source grid (n[0] n[1] n[2] points, x fastest); NULL: absent */
  int centred;     /* 1: every array at the cell centres (a snapshot), 0: u_c on the c faces (a checkpoint) */
} nav_source;

static void nav_source_free(nav_source *s) {
  for (int d = 0; d < 3; d++) free(s->xf[d]);
  for (int q = 0; q < 4; q++) free(s->a[q]);
}

/* The value of "NAME value" lines of a checkpoint header. */
static int nav_header_value(const char *h, const char *name, char *buf, size_t n) {
  const size_t len = strlen(name);
  for (const char *line = h; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, name, len) || line[len] != ' ') continue;
    const char *v = line + len + 1, *end = strchr(v, '\n');
    size_t m = end ? (size_t)(end - v) : strlen(v);
    if (m >= n) m = n - 1;
    memcpy(buf, v, m);
    buf[m] = 0;
    return 1;
  }
  return 0;
}

/* Read n values of `bytes` (4 or 8) each into doubles. */
static int nav_read_reals(FILE *fp, size_t bytes, size_t n, double *out) {
  for (size_t i = 0; i < n; i++) {
    if (bytes == 8) {
      if (fread(&out[i], 8, 1, fp) != 1) return -1;
    } else {
      float v;
      if (fread(&v, 4, 1, fp) != 1) return -1;
      out[i] = v;
    }
  }
  return 0;
}

/* A checkpoint into s; why (n bytes) says what is wrong on failure. */
static int nav_source_nck(const char *path, nav_source *s, char *why, size_t n) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return snprintf(why, n, "cannot open '%s'", path), -1;
  char h[NAV_SRC_HEADER + 1], v[64];
  int rc = -1;
  h[NAV_SRC_HEADER] = 0;
  size_t prec = 0;
  long long points = 0;
  int na = 0;
  if (fread(h, 1, NAV_SRC_HEADER, fp) != NAV_SRC_HEADER || strncmp(h, "navier checkpoint\n", 18)) {
    snprintf(why, n, "'%s' is not a navier checkpoint", path);
    goto done;
  }
  if (!nav_header_value(h, "precision_bytes", v, sizeof v) || sscanf(v, "%zu", &prec) != 1 ||
      (prec != 4 && prec != 8) || !nav_header_value(h, "points", v, sizeof v) || sscanf(v, "%lld", &points) != 1 ||
      !nav_header_value(h, "arrays", v, sizeof v) || sscanf(v, "%d", &na) != 1 ||
      !nav_header_value(h, "key grid.dim", v, sizeof v) || sscanf(v, "%d", &s->dim) != 1 ||
      !nav_header_value(h, "byte_order", v, sizeof v) || strcmp(v, *(const char *)&(int){1} ? "little" : "big")) {
    snprintf(why, n, "'%s': a damaged header, or a byte order other than this machine's", path);
    goto done;
  }
  static const char *const nk[3] = {"key grid.nx", "key grid.ny", "key grid.nz"};
  for (int d = 0; d < 3; d++)
    if (!nav_header_value(h, nk[d], v, sizeof v) || sscanf(v, "%d", &s->n[d]) != 1 || s->n[d] < 1) {
      snprintf(why, n, "'%s': a damaged header (%s)", path, nk[d] + 4);
      goto done;
    }
  if (s->dim == 2) s->n[2] = 1;
  if ((long long)s->n[0] * s->n[1] * s->n[2] != points) {
    snprintf(why, n, "'%s': a damaged header (points)", path);
    goto done;
  }
  static const char *const names[4] = {"u", "v", "w", "p"};
  const char *line = strstr(h, "\narray ");
  for (int q = 0; q < na; q++) {
    char name[32];
    if (!line || sscanf(line + 1, "array %31s", name) != 1) {
      snprintf(why, n, "'%s': a damaged header (array %d)", path, q);
      goto done;
    }
    for (int c = 0; c < 4; c++)
      if (!strcmp(name, names[c]) && (c < 3 ? c < s->dim : 1)) {
        s->a[c] = malloc((size_t)points * sizeof(double));
        if (!s->a[c] || fseek(fp, NAV_SRC_HEADER + (long)((size_t)q * (size_t)points * prec), SEEK_SET) ||
            nav_read_reals(fp, prec, (size_t)points, s->a[c])) {
          snprintf(why, n, "'%s': cannot read array %s (truncated?)", path, name);
          goto done;
        }
      }
    line = strstr(line + 1, "\narray ");
  }
  if (fseek(fp, NAV_SRC_HEADER + (long)((size_t)na * (size_t)points * prec), SEEK_SET)) goto done;
  for (int d = 0; d < s->dim; d++) {
    s->xf[d] = malloc(((size_t)s->n[d] + 1) * sizeof(double));
    if (!s->xf[d] || nav_read_reals(fp, 8, (size_t)s->n[d] + 1, s->xf[d])) {
      snprintf(why, n, "'%s': cannot read the face coordinates (truncated?)", path);
      goto done;
    }
  }
  rc = 0;
done:
  fclose(fp);
  return rc;
}

#ifdef NAV_HAVE_HDF5
/* One dataset of a snapshot: rank and dims checked against want (want_rank dims, the last one `last` if > 0). */
static int nav_h5_read(hid_t file, const char *name, int want_rank, const int *n, int last, double **out) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return -1;
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), sp = H5Dget_space(ds);
  hsize_t dims[4] = {0, 0, 0, 0};
  const int rank = H5Sget_simple_extent_ndims(sp);
  int ok = rank == want_rank && rank <= 4;
  size_t total = 1;
  if (ok) H5Sget_simple_extent_dims(sp, dims, NULL);
  for (int r = 0; ok && r < rank; r++) {
    if (n) ok = dims[r] == (last > 0 && r == rank - 1 ? (hsize_t)last : (hsize_t)n[rank - 1 - r - (last > 0)]);
    total *= dims[r];
  }
  if (ok) *out = malloc(total * sizeof(double));
  ok = ok && *out && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) >= 0;
  H5Sclose(sp);
  H5Dclose(ds);
  return ok ? 0 : -2;
}

/* A snapshot into s (its dimension from the rank of /velocity). */
static int nav_source_h5(const char *path, nav_source *s, char *why, size_t n) {
  H5E_auto2_t fn;
  void *data;
  H5Eget_auto2(H5E_DEFAULT, &fn, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  int rc = -1;
  if (file < 0) {
    snprintf(why, n, "cannot open '%s' as HDF5", path);
    goto out;
  }
  static const char *const xn[3] = {"x", "y", "z"};
  s->dim = H5Lexists(file, "z", H5P_DEFAULT) > 0 ? 3 : 2;
  s->n[2] = 1;
  for (int d = 0; d < s->dim; d++) {
    double *x = NULL;
    hid_t ds = H5Lexists(file, xn[d], H5P_DEFAULT) > 0 ? H5Dopen2(file, xn[d], H5P_DEFAULT) : -1;
    if (ds >= 0) {
      hid_t sp = H5Dget_space(ds);
      hsize_t m = 0;
      H5Sget_simple_extent_dims(sp, &m, NULL);
      s->n[d] = (int)m - 1;
      H5Sclose(sp);
      H5Dclose(ds);
    }
    if (ds < 0 || s->n[d] < 1 || nav_h5_read(file, xn[d], 1, NULL, 0, &x)) {
      free(x);
      snprintf(why, n, "'%s': no face coordinates /%s", path, xn[d]);
      goto close;
    }
    s->xf[d] = x;
  }
  double *vel = NULL;
  const int e = nav_h5_read(file, "velocity", s->dim + 1, s->n, 3, &vel);
  if (e) {
    free(vel);
    snprintf(why, n, "'%s': %s", path, e == -1 ? "no field /velocity" : "/velocity does not match the coordinates");
    goto close;
  }
  const size_t points = (size_t)s->n[0] * s->n[1] * s->n[2];
  for (int c = 0; c < s->dim && rc; c++) {
    s->a[c] = malloc(points * sizeof(double));
    if (!s->a[c]) break;
    for (size_t q = 0; q < points; q++) s->a[c][q] = vel[3 * q + c];
  }
  free(vel);
  if (nav_h5_read(file, "pressure", s->dim, s->n, 0, &s->a[3]) == -2) {
    snprintf(why, n, "'%s': /pressure does not match the coordinates", path);
    goto close;
  }
  s->centred = 1;
  rc = 0;
close:
  if (file >= 0) H5Fclose(file);
out:
  H5Eset_auto2(H5E_DEFAULT, fn, data);
  return rc;
}
#endif

/* Source point positions along d for component c (faces along c in a checkpoint, else centres). */
static double nav_source_pos(const nav_source *s, int c, int d, int i) {
  return !s->centred && c == d ? s->xf[d][i] : 0.5 * (s->xf[d][i] + s->xf[d][i + 1]);
}

/* The bracket i0, i1 and weight t of x among the n source points of (c, d). */
static void nav_locate(const nav_source *s, int c, int d, int periodic, double x, int *i0, int *i1, double *t) {
  const int n = s->n[d];
  const double p0 = nav_source_pos(s, c, d, 0), pn = nav_source_pos(s, c, d, n - 1);
  const double L = s->xf[d][n] - s->xf[d][0];
  *t = 0;
  if (periodic) {
    x = p0 + fmod(fmod(x - p0, L) + L, L);
    if (x >= pn) {
      *i0 = n - 1;
      *i1 = 0;
      *t = (x - pn) / (p0 + L - pn);
      return;
    }
  } else if (x <= p0 || x >= pn || n == 1) {
    *i0 = *i1 = x <= p0 ? 0 : n - 1;
    return;
  }
  int lo = 0, hi = n - 1; /* p(lo) <= x < p(hi) */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (nav_source_pos(s, c, d, mid) <= x) lo = mid;
    else hi = mid;
  }
  *i0 = lo;
  *i1 = hi;
  const double a = nav_source_pos(s, c, d, lo);
  *t = (x - a) / (nav_source_pos(s, c, d, hi) - a);
}

nav_err nav_initial_file(nav_flow *f, nav_real *host[4], int *has_p) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  char where[NAV_CONFIG_STR + 16], path[2 * NAV_CONFIG_STR + 8], why[3 * NAV_CONFIG_STR];
  nav_config_where(cfg, "physics", "initial_file", where, sizeof where);
  nav_table_path(cfg->source, cfg->initial_file, path, sizeof path);
  nav_source s;
  memset(&s, 0, sizeof s);
  const size_t len = strlen(path);
  const int h5 = len > 3 && !strcmp(path + len - 3, ".h5");
  int rc;
#ifdef NAV_HAVE_HDF5
  rc = h5 ? nav_source_h5(path, &s, why, sizeof why) : nav_source_nck(path, &s, why, sizeof why);
#else
  rc = h5 ? (snprintf(why, sizeof why, "'%s': this build has no HDF5 (NAV_ENABLE_HDF5=OFF)", path), -1)
          : nav_source_nck(path, &s, why, sizeof why);
#endif
  if (!rc && s.dim != f->dim)
    rc = -1, snprintf(why, sizeof why, "'%s' holds a %dD field, the case is %dD", path, s.dim, f->dim);
  for (int c = 0; !rc && c < f->dim; c++)
    if (!s.a[c]) rc = -1, snprintf(why, sizeof why, "'%s' has no velocity component %c", path, "uvw"[c]);
  for (int d = 0; !rc && d < f->dim; d++) {
    const double lo = f->xf[d][0], hi = f->xf[d][f->n[d]], tol = 1e-9 * (hi - lo);
    if (fabs(s.xf[d][0] - lo) > tol || fabs(s.xf[d][s.n[d]] - hi) > tol)
      rc = -1, snprintf(why, sizeof why, "'%s' spans %c = %g .. %g, the case %g .. %g (another box)", path, "xyz"[d],
                        s.xf[d][0], s.xf[d][s.n[d]], lo, hi);
  }
  if (rc) {
    nav_source_free(&s);
    NAV_CHECK(0, NAV_ERR_INPUT, "%s: key 'physics.initial_file': %s", where, why);
  }
  int same = !s.centred; /* the same grid: copy */
  for (int d = 0; d < f->dim; d++) {
    same = same && s.n[d] == f->n[d];
    for (int i = 0; same && i <= f->n[d]; i++) same = s.xf[d][i] == f->xf[d][i];
  }
  *has_p = s.a[3] != NULL;
  for (int c = 0; c < 4; c++) {
    if (c >= f->dim && c < 3) continue;
    if (!s.a[c]) continue;
    const int pos = c < 3 ? c : -1;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int g[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
          const nav_idx q = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          if (same) {
            host[c][q] = (nav_real)s.a[c][g[0] + (size_t)s.n[0] * (g[1] + (size_t)s.n[1] * g[2])];
            continue;
          }
          double x[3], v = 0;
          int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
          double t[3] = {0, 0, 0};
          nav_initial_position(f, pos, g, x);
          for (int d = 0; d < f->dim; d++)
            nav_locate(&s, pos, d, cfg->bc[d][0] == NAV_BC_PERIODIC, x[d], &lo[d], &hi[d], &t[d]);
          for (int m = 0; m < (f->dim == 3 ? 8 : 4); m++) {
            double wgt = 1;
            int id[3] = {0, 0, 0};
            for (int d = 0; d < f->dim; d++) {
              const int up = (m >> d) & 1;
              wgt *= up ? t[d] : 1 - t[d];
              id[d] = up ? hi[d] : lo[d];
            }
            v += wgt * s.a[c][id[0] + (size_t)s.n[0] * (id[1] + (size_t)s.n[1] * id[2])];
          }
          host[c][q] = (nav_real)v;
        }
  }
  nav_source_free(&s);
  return NAV_OK;
}
