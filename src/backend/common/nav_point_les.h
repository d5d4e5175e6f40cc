/* Point functions of the LES eddy-viscosity closures (physics/turbulence/nav_les.h) on the MAC grid of
 * nav_box.h: nu_t at a cell centre from the resolved velocity gradient there (nav_point_gradient.h),
 * g_ij = du_i/dx_j, S_ij = (g_ij + g_ji) / 2, and the filter width of the cell
 *   Delta = (dx dy dz)^(1/3)   (2D: (dx dy)^(1/2)),   the local cell volume (stretched grids).
 *
 * Smagorinsky (1963) with van Driest (1956) wall damping of the length:
 *   nu_t = (Cs Delta D)^2 |S|,   |S| = sqrt(2 S_ij S_ij),   D = 1 - exp(-y+ / A+),   A+ = 26,
 *   y+ = y u_tau / nu (y: distance of the cell centre to its nearest wall, u_tau of that wall; D = 1
 *   without walls).
 * WALE (Nicoud & Ducros 1999, Flow Turb. Combust. 62, eq. 13):
 *   Sd_ij = (g2_ij + g2_ji) / 2 - delta_ij g2_kk / 3,   g2 = g g,
 *   nu_t = (Cw Delta)^2 (Sd:Sd)^(3/2) / ((S:S)^(5/2) + (Sd:Sd)^(5/4))   (0 where both vanish).
 * Vreman (2004, Phys. Fluids 16, eqs. 5-8) with the cell's widths along each direction (Delta_m = dx_m: his
 * anisotropic filter width, which keeps the wall-normal gradients of a stretched wall cell from the model):
 *   alpha_ij = du_j/dx_i = g_ji,   beta_ij = sum_m Delta_m^2 alpha_mi alpha_mj,
 *   B = b11 b22 - b12^2 + b11 b33 - b13^2 + b22 b33 - b23^2,
 *   nu_t = c sqrt(B / (alpha_ij alpha_ij))   (0 where alpha = 0 or B <= 0 by round-off).
 * Every nu_t is clipped at >= 0 (a NaN gives 0). (The modelled dissipation is that of the viscous operator
 * with nu_t at its faces and edges: nav_point_monitor.h.) */
#ifndef NAV_POINT_LES_H
#define NAV_POINT_LES_H

#include <math.h>

#include "backend/common/nav_hd.h"
#include "backend/common/nav_metric.h"
#include "backend/common/nav_point_gradient.h"
#include "backend/nav_box.h"

#define NAV_LES_VAN_DRIEST_A ((nav_real)26) /* A+ of the van Driest damping */

/* The closures, in the order of [turbulence] model's values after off and k_omega_sst. */
typedef enum nav_les_kind { NAV_LES_SMAGORINSKY = 0, NAV_LES_WALE = 1, NAV_LES_VREMAN = 2 } nav_les_kind;

/* What a closure needs besides the fields (by value to the kernels). */
typedef struct nav_les_params {
  int kind;           /* nav_les_kind */
  nav_real c;         /* Cs, Cw or c */
  nav_real nu;        /* molecular viscosity (y+) */
  nav_real u_tau[6];  /* friction velocity of wall face 2 d + s (Smagorinsky's damping) */
} nav_les_params;

/* 2 S_ij S_ij = |S|^2 of the gradient g. */
NAV_HD static inline nav_real nav_les_strain2(const nav_real g[3][3]) {
  nav_real s2 = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const nav_real sij = g[i][j] + g[j][i]; /* 2 S_ij */
      s2 += (nav_real)0.5 * sij * sij;
    }
  return s2;
}

/* van Driest's damping D = 1 - exp(-y+ / A+). */
NAV_HD static inline nav_real nav_les_van_driest(nav_real yplus) { return 1 - exp(-yplus / NAV_LES_VAN_DRIEST_A); }

/* Smagorinsky: (cs delta damp)^2 sqrt(s2), s2 = |S|^2. */
NAV_HD static inline nav_real nav_les_smagorinsky(nav_real s2, nav_real cs, nav_real delta, nav_real damp) {
  const nav_real l = cs * delta * damp;
  return l * l * sqrt(s2);
}

/* WALE: (cw delta)^2 (Sd:Sd)^(3/2) / ((S:S)^(5/2) + (Sd:Sd)^(5/4)); s2 = |S|^2 = 2 S:S. */
NAV_HD static inline nav_real nav_les_wale(const nav_real g[3][3], nav_real s2, nav_real cw, nav_real delta) {
  nav_real g2[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) g2[i][j] = g[i][0] * g[0][j] + g[i][1] * g[1][j] + g[i][2] * g[2][j];
  const nav_real tr = (g2[0][0] + g2[1][1] + g2[2][2]) / 3;
  nav_real sd2 = 0; /* Sd:Sd */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const nav_real sd = (nav_real)0.5 * (g2[i][j] + g2[j][i]) - (i == j ? tr : (nav_real)0);
      sd2 += sd * sd;
    }
  const nav_real ss = (nav_real)0.5 * s2; /* S:S */
  const nav_real den = ss * ss * sqrt(ss) + sd2 * sqrt(sqrt(sd2)); /* (S:S)^(5/2) + (Sd:Sd)^(5/4) */
  if (!(den > 0)) return 0;
  const nav_real l = cw * delta;
  return l * l * sd2 * sqrt(sd2) / den;
}

/* Vreman: c sqrt(B / (alpha:alpha)) with beta_ij = sum_m d2[m] alpha_mi alpha_mj, alpha_ij = g_ji, d2[m] = Delta_m^2. */
NAV_HD static inline nav_real nav_les_vreman(const nav_real g[3][3], nav_real c, const nav_real d2[3]) {
  nav_real aa = 0, bt[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      aa += g[i][j] * g[i][j];
      /* beta_ij = sum_m Delta_m^2 alpha_mi alpha_mj = sum_m Delta_m^2 g_im g_jm */
      bt[i][j] = d2[0] * g[i][0] * g[j][0] + d2[1] * g[i][1] * g[j][1] + d2[2] * g[i][2] * g[j][2];
    }
  const nav_real B = bt[0][0] * bt[1][1] - bt[0][1] * bt[0][1] + bt[0][0] * bt[2][2] - bt[0][2] * bt[0][2] +
                     bt[1][1] * bt[2][2] - bt[1][2] * bt[1][2];
  if (!(aa > 0) || !(B > 0)) return 0;
  return c * sqrt(B / aa);
}

/* u_tau of wall face w (0..5) read at constant indices: a computed index into the parameters (by value in a
 * kernel) would copy them to the thread's stack. */
NAV_HD static inline nav_real nav_les_wall_u_tau(const nav_les_params *a, int w) {
  nav_real ut = 0;
  NAV_UNROLL for (int f = 0; f < 6; f++) if (f == w) ut = a->u_tau[f];
  return ut;
}

/* The nearest wall of the cell ijk from the walls of each direction: wd[o_d + i], wi[o_d + i] are the distance of
 * the centre of cell i along d to the nearer wall face of d and that face 2 d + s (< 0: none along d), o_d = n[0] +
 * ... + n[d - 1] (the block's cells); over the directions in turn the smallest distance, the first of equal ones.
 * Returns the face (< 0: no wall) and its distance in *y. */
NAV_HD static inline int nav_les_nearest_wall(const nav_box *b, const nav_real *wd, const nav_real *wi, const int *ijk,
                                              nav_real *y) {
  int wall = -1;
  int o = 0;
  NAV_FOR_DIM(d, b) {
    const int q = o + ijk[d];
    if (wi[q] >= 0 && (wall < 0 || wd[q] < *y)) {
      *y = wd[q];
      wall = (int)wi[q];
    }
    o += b->n[d];
  }
  return wall;
}

/* nu_t at cell (p, ijk) from u (faces, ghosts filled, edges too) by the closure `kind` (a->kind; a constant in
 * a kernel compiled per closure); wd, wi: the walls of each direction (nav_les_nearest_wall), read by Smagorinsky
 * only (NULL: no damping). */
NAV_HD static inline nav_real nav_les_cell(const nav_box *b, const nav_real *const *u, const nav_real *wd,
                                           const nav_real *wi, const nav_les_params *a, int kind, nav_idx p,
                                           const int *ijk) {
  nav_real g[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  nav_velocity_gradient(b, u, p, ijk, g);
  nav_real vol = 1, d2[3] = {0, 0, 0}; /* the cell volume (2D: area), its widths squared */
  NAV_FOR_DIM(d, b) {
    const nav_real h = nav_df(b, d, ijk[d]);
    vol *= h;
    d2[d] = h * h;
  }
  const nav_real delta = b->dim == 3 ? cbrt(vol) : sqrt(vol); /* unused (and not computed) by Vreman's kernel */
  const nav_real s2 = nav_les_strain2(g);
  nav_real nut;
  if (kind == NAV_LES_WALE) {
    nut = nav_les_wale(g, s2, a->c, delta);
  } else if (kind == NAV_LES_VREMAN) {
    nut = nav_les_vreman(g, a->c, d2);
  } else {
    nav_real damp = 1;
    nav_real y = 0;
    const int wall = wi ? nav_les_nearest_wall(b, wd, wi, ijk, &y) : -1;
    if (wall >= 0) damp = nav_les_van_driest(y * nav_les_wall_u_tau(a, wall) / a->nu);
    nut = nav_les_smagorinsky(s2, a->c, delta, damp);
  }
  return nut > 0 ? nut : (nav_real)0; /* clipped; NaN -> 0 */
}

#endif
