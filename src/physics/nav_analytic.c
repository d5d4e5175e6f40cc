/* Analytic solutions (see nav_analytic.h). */
#include "physics/nav_analytic.h"

#include <math.h>
#include <string.h>

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
  } else if (!strcmp(cfg->initial, "pulse")) {
    /* v(x - U t) carried by the uniform flow and spread by diffusion (the heat kernel of a Gaussian):
     * exact on an unbounded x, the pressure uniform */
    const double s0 = cfg->lx / 12, s2 = s0 * s0 + 2 * cfg->nu * t;
    const double xi = X[0] - 0.5 * cfg->lx - cfg->uniform_velocity[0] * t;
    *value = cfg->uniform_velocity[c] + (c == 1 ? A * s0 / sqrt(s2) * exp(-xi * xi / (2 * s2)) : 0);
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
