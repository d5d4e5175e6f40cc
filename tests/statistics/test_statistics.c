/* The averaging of the statistics model on a manufactured field (physics/statistics/nav_statistics.h):
 * a 3D channel block (x, z periodic and uniform, y stretched walls) whose staggered fields are set to
 *   u(face i) = U_j + a_s sin(2 pi i / Nx),          centre: U_j + a_s cos(pi/Nx) sin(th_i)
 *   v(face j) = b_j cos(ph_k) + g_j sin(th'_i)       centre: B_j cos(ph_k) + G_j sin(th_i) (B, G: the means of the
 *                                                    two faces; g_j = 0.1 (j - Ny/2), so G is odd about the centre)
 *   w(face k) = c_s sin(th_i),                       centre: c_s sin(th_i)
 *   p = P_j + d cos(th_i)
 * (th_i = 2 pi (i + 1/2) / Nx, ph_k = 2 pi (k + 1/2) / Nz) for samples s = 0..S-1 with a_s = 1 + s,
 * c_s = 2 - s / 2, through the model's after_projection hook; then the report. The plane and time
 * averages are known exactly (the discrete sums of sin^2, cos^2 over N >= 3 uniform points are N/2,
 * of sin, cos, sin cos zero):
 *   <U> = U_j, <V> = <W> = 0, <P> = P_j, <u'u'> = cos^2(pi/Nx) <a^2> / 2, <v'v'> = (B_j^2 + G_j^2) / 2,
 *   <w'w'> = <c^2> / 2, <u'w'> = cos(pi/Nx) <a c> / 2, <u'v'> = cos(pi/Nx) <a> G_j / 2, <v'w'> = <c> G_j / 2,
 *   <p'p'> = d^2 / 2   (th'_i = 2 pi (i + 1/2) / Nx here too: v is not staggered along x).
 * The flow has an eddy viscosity ([physics] nu_t = linear allocates it) that the test overwrites before each
 * sample with nu_t = nu [M_j (1 + s / 2) + 0.3 sin(th_i) + 0.2 M_j cos(ph_k)] (M_j = 0.5 + 0.25 j + 0.01 j^2):
 *   <nu_t / nu> = M_j <1 + s / 2> = 1.5 M_j   (the column nut_over_nu).
 * Checked in DIR/statistics_profile.csv to 1e-13 (relative to the scale of each column), and the folded
 * DIR/statistics.csv: U+ u_tau = (U_j + U_{n-1-j}) / 2 and uv+ u_tau^2 = <u'v'>_j (odd about the centre, so
 * the half difference of the two halves is the lower half's value) with the model's u_tau, and nut_over_nu =
 * 1.5 (M_j + M_{n-1-j}) / 2, to 1e-9 relative (the file's 11 significant digits).
 * Arguments: DIR [BACKEND] (cpu, the default, or cuda: exit 77, skipped, where it is not available). */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/nav_config.h"
#include "core/nav_error.h"
#include "physics/statistics/nav_statistics.h"
#include "solvers/nav_flow.h"

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_statistics: %s failed (line %d)\n", #call, __LINE__);                                    \
      return 1;                                                                                                      \
    }                                                                                                                \
  } while (0)

#define NX 6
#define NY 8
#define NZ 4
#define S 3

static double U_of(int j) { return 1.0 + 0.3 * j - 0.02 * j * j; }
static double b_of(int j) { return 0.1 + 0.05 * j; }
static double P_of(int j) { return -0.5 + 0.1 * j; }
static const double d_amp = 0.7;
static double g_of(int j) { return 0.1 * (j - NY / 2); }
static double M_of(int j) { return 0.5 + 0.25 * j + 0.01 * j * j; }

/* mkdir -p dir: 0, or -1 with errno. */
static int make_dirs(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s", dir);
  for (char *q = path + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
      *q = '/';
    }
  return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static int run(const char *dir, const char *backend) {
  if (make_dirs(dir) != 0) { /* the output folder (a copy of the build tree without its scratch has none) */
    printf("FAIL: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  char *sets[] = {"grid.dim=3", "grid.nx=6", "grid.ny=8", "grid.nz=4", "grid.lx=3", "grid.ly=2", "grid.lz=1.5",
                  "grid.y_spacing=tanh", "grid.y_gamma=1.5", "boundary.x_low=periodic", "boundary.x_high=periodic",
                  "boundary.z_low=periodic", "boundary.z_high=periodic", "physics.nu=0.01", "time.max_steps=1",
                  "statistics.enabled=true", "physics.nu_t=linear", "physics.nu_t_value=0.01"};
  nav_config cfg;
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  if (nav_config_load(&cfg, NULL, (int)(sizeof sets / sizeof sets[0]), sets, &errs) != NAV_OK) {
    fprintf(stderr, "%s", errs.text);
    return 2;
  }
  const nav_kernel_ops *ops = nav_backend_get(backend, 0);
  if (!ops) {
    printf("test_statistics: backend %s not available: skipped\n", backend);
    return 77;
  }
  nav_flow f;
  OK(nav_flow_create(&cfg, ops, &f));
  const nav_box *b = &f.box;
  nav_real *h[5];
  for (int q = 0; q < 5; q++) h[q] = calloc((size_t)b->ntot, sizeof(nav_real));
  nav_real *nut = nav_flow_view_sync(&f)->nut;
  if (!nut) {
    fprintf(stderr, "test_statistics: the flow has no eddy viscosity\n");
    return 1;
  }
  const double pi = acos(-1.0);
  double a2 = 0, c2 = 0, ac = 0, a1 = 0, c1 = 0;
  for (int s = 0; s < S; s++) {
    const double a = 1.0 + s, c = 2.0 - 0.5 * s;
    a2 += a * a / S;
    c2 += c * c / S;
    ac += a * c / S;
    a1 += a / S;
    c1 += c / S;
    for (int k = -1; k <= NZ; k++)
      for (int j = -1; j <= NY; j++)
        for (int i = -1; i <= NX; i++) {
          const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          const double th = 2 * pi * (i + 0.5) / NX, ph = 2 * pi * (k + 0.5) / NZ;
          h[0][p] = (nav_real)(U_of(j) + a * sin(2 * pi * i / NX));
          h[1][p] = (nav_real)(b_of(j) * cos(ph) + g_of(j) * sin(th));
          h[2][p] = (nav_real)(c * sin(th));
          h[3][p] = (nav_real)(P_of(j) + d_amp * cos(th));
          h[4][p] = (nav_real)(0.01 * (M_of(j) * (1 + 0.5 * s) + 0.3 * sin(th) + 0.2 * M_of(j) * cos(ph)));
        }
    for (int c3 = 0; c3 < 3; c3++) OK(f.ops->from_host(f.u[c3], h[c3], (size_t)b->ntot * sizeof(nav_real)));
    OK(f.ops->from_host(f.p, h[3], (size_t)b->ntot * sizeof(nav_real)));
    OK(f.ops->from_host(nut, h[4], (size_t)b->ntot * sizeof(nav_real)));
    nav_step_info si;
    memset(&si, 0, sizeof si);
    si.dt = 0.1;
    f.t = 0.1 * s;
    f.step = s;
    OK(nav_models_after_projection(&f.models, nav_flow_view_sync(&f), &si));
  }
  OK(nav_models_report(&f.models, nav_flow_view_sync(&f), NULL, dir));
  /* the profile file against the exact averages */
  char path[1024];
  snprintf(path, sizeof path, "%s/statistics_profile.csv", dir);
  FILE *in = fopen(path, "r");
  if (!in) {
    fprintf(stderr, "test_statistics: no %s\n", path);
    return 1;
  }
  char line[4096];
  if (!fgets(line, sizeof line, in)) return 1;
  const double cx = cos(pi / NX);
  double worst = 0;
  int rows = 0;
  for (int j = 0; j < NY && fgets(line, sizeof line, in); j++, rows++) {
    double v[15];
    char *t = line;
    for (int q = 0; q < 15; q++) v[q] = strtod(t, &t), t += *t == ',';
    const double B = 0.5 * (b_of(j) + b_of(j + 1)), G = 0.5 * (g_of(j) + g_of(j + 1));
    /* y, U, V, W, P, T, uu, vv, ww, uv, uw, vw, pp, TT, nut_over_nu: exact value and scale */
    const double want[15] = {0, U_of(j), 0, 0, P_of(j), 0, cx * cx * a2 / 2, (B * B + G * G) / 2, c2 / 2,
                             cx * a1 * G / 2, cx * ac / 2, c1 * G / 2, d_amp * d_amp / 2, 0, 1.5 * M_of(j)};
    const double scale[15] = {0, 2, 1, 2, 1, 1, 2, 1, 2, 2, 2, 1, 1, 1, 2};
    for (int q = 1; q < 15; q++) {
      const double err = fabs(v[q] - want[q]) / scale[q];
      if (err > worst) worst = err;
      if (err > 1e-13) printf("cell %d column %d: %.16e, exact %.16e\n", j, q, v[q], want[q]);
    }
  }
  fclose(in);
  /* the folded file in wall units, with the model's u_tau */
  const nav_statistics *st = nav_models_data(&f.models, "statistics");
  const double ut = st->u_tau;
  snprintf(path, sizeof path, "%s/statistics.csv", dir);
  in = fopen(path, "r");
  if (!in || !fgets(line, sizeof line, in)) {
    fprintf(stderr, "test_statistics: no %s\n", path);
    return 1;
  }
  int frows = 0;
  double fworst = 0; /* relative: the file prints 11 significant digits */
  for (int j = 0; j < NY / 2 && fgets(line, sizeof line, in); j++, frows++) {
    double v[14]; /* y ... p_rms_plus, nut_over_nu (no temperature) */
    char *t = line;
    for (int q = 0; q < 14; q++) v[q] = strtod(t, &t), t += *t == ',';
    const double G = 0.5 * (g_of(j) + g_of(j + 1));
    const double Uf = 0.5 * (U_of(j) + U_of(NY - 1 - j)), uv = cx * a1 * G / 2;
    const double nf = 1.5 * 0.5 * (M_of(j) + M_of(NY - 1 - j));
    const double errs[3] = {fabs(v[2] * ut - Uf) / fabs(Uf), fabs(v[6] * ut * ut - uv) / fabs(uv),
                            fabs(v[13] - nf) / nf};
    static const char *const names[3] = {"U_plus", "uv_plus", "nut_over_nu"};
    for (int q = 0; q < 3; q++) {
      if (errs[q] > fworst) fworst = errs[q];
      if (errs[q] > 1e-9) printf("folded cell %d %s: relative error %.3e\n", j, names[q], errs[q]);
    }
  }
  if (in) fclose(in);
  for (int q = 0; q < 5; q++) free(h[q]);
  nav_flow_destroy(&f);
  printf("test_statistics (%s): %d cells, %d samples: largest error %.3e (tolerance 1e-13); folded file: largest "
         "relative error %.3e (tolerance 1e-9)\n",
         backend, rows, S, worst, fworst);
  return rows == NY && frows == NY / 2 && worst <= 1e-13 && fworst <= 1e-9 ? 0 : 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int rc = run(argc > 1 ? argv[1] : ".", argc > 2 ? argv[2] : "cpu");
  MPI_Finalize();
  return rc;
}
