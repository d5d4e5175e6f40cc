/* Initial conditions of the flow solver (see nav_initial.h for the fields and the perturbation). */
#include "solvers/nav_initial.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"

void nav_flow_exact_velocity(const nav_config *cfg, int c, const double x[3], double t, double *value, int *has) {
  const double A = cfg->amplitude, two_pi = 2 * NAV_PI;
  const double k[3] = {two_pi / cfg->lx, two_pi / cfg->ly, two_pi / cfg->lz};
  const double X[3] = {x[0] - cfg->x0, x[1] - cfg->y0, x[2] - cfg->z0};
  *has = 1;
  *value = 0;
  if (!strcmp(cfg->initial, "taylor_green")) {
    /* stream function psi = (A/ky) sin(kx x) sin(ky y): an exact decaying solution */
    const double F = exp(-cfg->nu * (k[0] * k[0] + k[1] * k[1]) * t);
    if (c == 0) *value = A * sin(k[0] * X[0]) * cos(k[1] * X[1]) * F;
    if (c == 1) *value = -A * k[0] / k[1] * cos(k[0] * X[0]) * sin(k[1] * X[1]) * F;
  } else if (!strcmp(cfg->initial, "abc")) {
    /* Arnold-Beltrami-Childress flow, curl u = k u: u(t) = u(0) exp(-nu k^2 t) exactly */
    const double F = exp(-cfg->nu * k[0] * k[0] * t);
    if (c == 0) *value = A * (sin(k[0] * X[2]) + cos(k[0] * X[1])) * F;
    if (c == 1) *value = A * (sin(k[0] * X[0]) + cos(k[0] * X[2])) * F;
    if (c == 2) *value = A * (sin(k[0] * X[1]) + cos(k[0] * X[0])) * F;
  } else if (!strcmp(cfg->initial, "shear_wave")) {
    /* u = A cos(pi y'/ly): zero shear at free-slip walls y' = 0, ly; exact, decaying by diffusion */
    const double kk = NAV_PI / cfg->ly;
    if (c == 0) *value = A * cos(kk * X[1]) * exp(-cfg->nu * kk * kk * t);
  } else if (!strcmp(cfg->initial, "uniform")) {
    *value = cfg->uniform_velocity[c];
  } else if (!strcmp(cfg->initial, "kovasznay")) {
    /* Kovasznay (1948): steady, Re = 1/nu, absolute coordinates */
    const double re = 1 / cfg->nu, lam = 0.5 * re - sqrt(0.25 * re * re + 4 * NAV_PI * NAV_PI);
    const double e = exp(lam * x[0]);
    if (c == 0) *value = 1 - e * cos(two_pi * x[1]);
    if (c == 1) *value = lam / two_pi * e * sin(two_pi * x[1]);
  } else if (!strcmp(cfg->initial, "poiseuille")) {
    /* steady plane Poiseuille flow of bulk velocity A between the walls of direction e */
    const int fc = cfg->forcing_direction[0] - 'x';
    const double len[3] = {cfg->lx, cfg->ly, cfg->lz};
    for (int e = 0; e < cfg->dim; e++)
      if (e != fc && cfg->bc[e][0] == NAV_BC_WALL && cfg->bc[e][1] == NAV_BC_WALL) {
        const double s = X[e] / len[e];
        if (c == fc) *value = 6 * A * s * (1 - s);
        break;
      }
  } else {
    *has = 0;
  }
}

void nav_initial_position(const nav_flow *f, int c, const int ijk[3], double x[3]) {
  for (int d = 0; d < 3; d++) {
    if (d >= f->dim) {
      x[d] = 0;
      continue;
    }
    const int i = ijk[d];
    const double face = i <= f->n[d] ? f->xf[d][i] : f->xf[d][f->n[d]] + f->w[d][f->n[d]];
    x[d] = d == c ? face : face + 0.5 * f->w[d][i];
  }
}

/* ---- the perturbation ------------------------------------------------------------------------------------ */

/* splitmix64 (Steele, Lea & Flood 2014): a bijective mix of a 64-bit counter */
static uint64_t nav_initial_mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A number in [-1, 1) from (seed, stream, counter): the same whatever the order of the calls. */
static double nav_initial_hash(long seed, uint64_t stream, uint64_t counter) {
  const uint64_t h = nav_initial_mix(nav_initial_mix(nav_initial_mix((uint64_t)seed) ^ stream) ^ counter);
  return (double)(h >> 11) * 0x1.0p-52 - 1.0;
}

#define NAV_INITIAL_MODES 4 /* channel: wavenumbers 1..4 periods per periodic direction */

typedef struct nav_potential {
  const nav_flow *f;
  int periodic[3];
  int chan;          /* the smooth modes of initial = channel, else grid-scale noise */
  int wall;          /* channel: the wall direction */
  double amp[3][NAV_INITIAL_MODES * NAV_INITIAL_MODES]; /* channel: per component and mode */
  double phase[3][NAV_INITIAL_MODES * NAV_INITIAL_MODES][3];
} nav_potential;

/* A_c at the edge of global indices g (a cell index along c, face indices along the others; wrapped
 * here): 0 on an edge of a non-periodic face. */
static double nav_potential_at(const nav_potential *P, int c, const int gin[3]) {
  const nav_flow *f = P->f;
  int g[3] = {0, 0, 0};
  for (int d = 0; d < f->dim; d++) {
    g[d] = gin[d];
    if (P->periodic[d]) g[d] = (g[d] % f->n[d] + f->n[d]) % f->n[d];
    else if (d != c && (g[d] <= 0 || g[d] >= f->n[d])) return 0;
  }
  if (!P->chan) { /* grid-scale: hash times the smaller width across the edge */
    const uint64_t idx = (uint64_t)g[0] + (uint64_t)(f->n[0] + 1) * ((uint64_t)g[1] + (uint64_t)(f->n[1] + 1) * g[2]);
    double h = HUGE_VAL;
    for (int d = 0; d < f->dim; d++)
      if (d != c) h = fmin(h, f->w[d][g[d] < f->n[d] ? g[d] : f->n[d] - 1]);
    return h * nav_initial_hash(f->cfg->seed, (uint64_t)c, idx);
  }
  double x[3];
  for (int d = 0; d < 3; d++) {
    if (d >= f->dim) {
      x[d] = 0;
      continue;
    }
    const double len = f->xf[d][f->n[d]] - f->xf[d][0];
    x[d] = (d == c ? f->xf[d][g[d]] + 0.5 * f->w[d][g[d]] : f->xf[d][g[d]]) - f->xf[d][0];
    x[d] /= len; /* 0..1 */
  }
  const double s = x[P->wall], env = 16 * s * s * (1 - s) * (1 - s);
  double a = 0;
  for (int m = 0; m < NAV_INITIAL_MODES * NAV_INITIAL_MODES; m++) {
    const int k[2] = {1 + m % NAV_INITIAL_MODES, 1 + m / NAV_INITIAL_MODES};
    double term = P->amp[c][m] * cos(NAV_PI * (1 + m % 3) * s + P->phase[c][m][P->wall]);
    for (int d = 0, q = 0; d < f->dim; d++)
      if (d != P->wall) {
        term *= cos(2 * NAV_PI * k[q] * x[d] + P->phase[c][m][d]) / k[q];
        q++;
      }
    a += term;
  }
  return env * a;
}

/* u'_c = (curl_h A)_c at the face of component c with global indices g: with (c, d, e) cyclic,
 * (A_e(g + 1_d) - A_e(g)) / w_d - (A_d(g + 1_e) - A_d(g)) / w_e; in 2D only A_z. */
static double nav_potential_curl(const nav_potential *P, int c, const int g[3]) {
  const nav_flow *f = P->f;
  const int d = (c + 1) % 3, e = (c + 2) % 3;
  double r = 0;
  if (f->dim == 3 || e == 2) {
    int gd[3] = {g[0], g[1], g[2]};
    gd[d]++;
    r += (nav_potential_at(P, e, gd) - nav_potential_at(P, e, g)) / f->w[d][g[d]];
  }
  if (f->dim == 3 || d == 2) {
    int ge[3] = {g[0], g[1], g[2]};
    ge[e]++;
    r -= (nav_potential_at(P, d, ge) - nav_potential_at(P, d, g)) / f->w[e][g[e]];
  }
  return r;
}

/* host[c] += s u'_c at the interior faces, s such that max |u'_c| = noise. Collective. */
static void nav_initial_perturb(nav_flow *f, nav_real *host[3], int wall) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  nav_potential P;
  memset(&P, 0, sizeof P);
  P.f = f;
  P.chan = !strcmp(cfg->initial, "channel");
  P.wall = wall;
  for (int d = 0; d < f->dim; d++) P.periodic[d] = cfg->bc[d][0] == NAV_BC_PERIODIC;
  for (int c = 0; c < 3; c++)
    for (int m = 0; m < NAV_INITIAL_MODES * NAV_INITIAL_MODES; m++) {
      const uint64_t id = 1000 + 16 * (uint64_t)c + (uint64_t)m;
      P.amp[c][m] = nav_initial_hash(cfg->seed, id, 0);
      for (int d = 0; d < 3; d++) P.phase[c][m][d] = NAV_PI * nav_initial_hash(cfg->seed, id, 1 + (uint64_t)d);
    }
  double *pert = malloc((size_t)b->ntot * f->dim * sizeof *pert);
  if (!pert) NAV_ABORT("cannot allocate the initial perturbation");
  double umax = 0;
  for (int c = 0; c < f->dim; c++)
#pragma omp parallel for collapse(2) schedule(static) reduction(max : umax)
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int g[3] = {i + b->g0[0], j + b->g0[1], f->dim == 3 ? k + b->g0[2] : 0};
          const nav_idx q = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          /* the normal velocity of a non-periodic low face stays 0 (its potential edges are 0) */
          const double v = nav_potential_curl(&P, c, g);
          pert[(size_t)c * b->ntot + q] = v;
          umax = fmax(umax, fabs(v));
        }
  nav_reduce_max(f->comm, &umax, 1);
  const double s = umax > 0 ? cfg->noise / umax : 0;
  for (int c = 0; c < f->dim; c++)
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const nav_idx q = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          host[c][q] = (nav_real)((double)host[c][q] + s * pert[(size_t)c * b->ntot + q]);
        }
  free(pert);
}

/* ---- the mean profiles -------------------------------------------------------------------------------------- */

/* The wall direction of initial = channel (and poiseuille): the first direction other than forcing_direction
 * with walls on both faces (the config check makes sure there is one). */
static int nav_initial_wall(const nav_config *cfg) {
  const int fc = cfg->forcing_direction[0] - 'x';
  for (int e = 0; e < cfg->dim; e++)
    if (e != fc && cfg->bc[e][0] == NAV_BC_WALL && cfg->bc[e][1] == NAV_BC_WALL) return e;
  return -1;
}

/* Reichardt's law U+(y+) (Reichardt 1951; kappa = 0.41). */
static double nav_reichardt(double yp) {
  const double kappa = 0.41;
  return log(1 + kappa * yp) / kappa + 7.8 * (1 - exp(-yp / 11) - yp / 11 * exp(-yp / 3));
}

/* The channel's mean profile at the cell centres of the wall direction e (n[e] values): bulk velocity
 * cfg->amplitude on the grid (sum U_j w_j / h = U_b). */
static void nav_channel_profile(const nav_flow *f, int e, double *U) {
  const nav_config *cfg = f->cfg;
  const double h = f->xf[e][f->n[e]] - f->xf[e][0], ub = cfg->amplitude;
  const int log_law = !strcmp(cfg->channel_profile, "log_law");
  const double re_tau = 0.09 * pow(ub * h / cfg->nu, 0.88), u_tau = re_tau * cfg->nu / (0.5 * h);
  double mean = 0;
  for (int j = 0; j < f->n[e]; j++) {
    const double s = (f->xf[e][j] + 0.5 * f->w[e][j] - f->xf[e][0]) / h;
    U[j] = log_law ? nav_reichardt(fmin(s, 1 - s) * h * u_tau / cfg->nu) : s * (1 - s);
    mean += U[j] * f->w[e][j] / h;
  }
  for (int j = 0; j < f->n[e]; j++) U[j] *= ub / mean;
}

/* ---- the initial field ---------------------------------------------------------------------------------------- */

/* taylor_green_3d at x (component c; c = 3 the pressure), coordinates scaled to the 2 pi box */
static double nav_tgv3d(const nav_config *cfg, int c, const double x[3]) {
  const double A = cfg->amplitude, two_pi = 2 * NAV_PI;
  const double X = two_pi * (x[0] - cfg->x0) / cfg->lx, Y = two_pi * (x[1] - cfg->y0) / cfg->ly;
  const double Z = two_pi * (x[2] - cfg->z0) / cfg->lz;
  if (c == 0) return A * sin(X) * cos(Y) * cos(Z);
  if (c == 1) return -A * cos(X) * sin(Y) * cos(Z);
  if (c == 3) return A * A / 16 * (cos(2 * X) + cos(2 * Y)) * (cos(2 * Z) + 2);
  return 0;
}

nav_err nav_initial_set(nav_flow *f) {
  const nav_config *cfg = f->cfg;
  const nav_box *b = &f->box;
  const int tg3 = !strcmp(cfg->initial, "taylor_green_3d"), chan = !strcmp(cfg->initial, "channel");
  const int file = !strcmp(cfg->initial, "file");
  double v0;
  int exact;
  nav_flow_exact_velocity(cfg, 0, (const double[3]){0, 0, 0}, 0, &v0, &exact);
  if (!exact && !tg3 && !chan && !file && cfg->noise == 0) /* at rest: the fields are zero already */
    return nav_fill_velocity_ghosts(f->ops, b, f->halo, &f->vbc, f->u);
  nav_real *host[4] = {NULL, NULL, NULL, NULL};
  double *U = NULL;
  nav_err e = NAV_OK;
  int has_p = tg3;
  for (int c = 0; c < 4; c++) {
    host[c] = calloc((size_t)b->ntot, sizeof *host[c]);
    if (!host[c]) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate the initial field");
  }
  const int wall = chan ? nav_initial_wall(cfg) : -1, fc = cfg->forcing_direction[0] - 'x';
  if (e == NAV_OK && chan) {
    U = malloc((size_t)f->n[wall] * sizeof *U);
    if (!U) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate the initial field");
    else nav_channel_profile(f, wall, U);
  }
  if (e == NAV_OK && file) e = nav_initial_file(f, host, &has_p);
  for (int c = 0; e == NAV_OK && !file && c < f->dim + has_p; c++) {
    const int cc = c < f->dim ? c : 3, pos = c < f->dim ? c : -1;
    nav_real *h = host[cc];
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const int ijk[3] = {i + b->g0[0], j + b->g0[1], k + b->g0[2]};
          double x[3], v = 0;
          int has;
          nav_initial_position(f, pos, ijk, x);
          if (tg3) v = nav_tgv3d(cfg, cc, x);
          else if (chan) v = c == fc ? U[ijk[wall]] : 0;
          else nav_flow_exact_velocity(cfg, c, x, 0, &v, &has);
          h[b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]] = (nav_real)v;
        }
  }
  if (e == NAV_OK && cfg->noise > 0) nav_initial_perturb(f, host, wall >= 0 ? wall : 1);
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  for (int c = 0; e == NAV_OK && c < f->dim; c++) e = f->ops->from_host(f->u[c], host[c], bytes);
  if (e == NAV_OK && has_p) e = f->ops->from_host(f->p, host[3], bytes);
  for (int c = 0; c < 4; c++) free(host[c]);
  free(U);
  NAV_CALL(e);
  if (has_p) NAV_CALL(nav_fill_scalar_ghosts(f->ops, b, f->halo, (const nav_scalar_bc(*)[2])f->pbc, f->p));
  return nav_fill_velocity_ghosts(f->ops, b, f->halo, &f->vbc, f->u);
}
