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
#include "backend/common/nav_point_open.h"
#include "backend/nav_box.h"

#define NAV_LES_VAN_DRIEST_A ((nav_real)26) /* A+ of the van Driest damping */

/* The closures, in the order of [turbulence] model's values after off and k_omega_sst. */
typedef enum nav_les_kind { NAV_LES_SMAGORINSKY = 0, NAV_LES_WALE = 1, NAV_LES_VREMAN = 2 } nav_les_kind;

/* What a closure needs besides the fields (by value to the kernels). */
typedef struct nav_les_params {
  int kind;           /* nav_les_kind */
  nav_real c;         /* Cs, Cw or c */
  nav_real nu;        /* molecular viscosity (y+) */
  nav_real u_tau[6];  /* friction velocity of wall face 2 d + s (Smagorinsky's damping; unread where the kernels
                         get them in memory) */
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

/* Smagorinsky: ll sqrt(s2), ll = (cs delta damp)^2, s2 = |S|^2. */
NAV_HD static inline nav_real nav_les_smagorinsky(nav_real s2, nav_real ll) { return ll * sqrt(s2); }

/* WALE: ll (Sd:Sd)^(3/2) / ((S:S)^(5/2) + (Sd:Sd)^(5/4)); ll = (cw delta)^2, s2 = |S|^2 = 2 S:S. */
NAV_HD static inline nav_real nav_les_wale(const nav_real g[3][3], nav_real s2, nav_real ll) {
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
  return ll * sd2 * sqrt(sd2) / den;
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

/* u_tau = sqrt(|tau_w|) of wall face f = 2 d + s from its shear integrals sh summed over the ranks and the area of
 * a face of d (nav_wall_tau); 0 for d >= dim. The host's (a->u_tau) and the CUDA device's (nav_les_kernels.u_tau)
 * alike, the same bits. */
NAV_HD static inline nav_real nav_les_face_u_tau(int dim, int f, const double sh[3], double nu, double area) {
  const double tau = f / 2 < dim ? nav_wall_tau(nu, sh, area) : 0;
  return (nav_real)sqrt(tau);
}

/* u_tau of wall face w (0..5): ut[w] (memory of the backend), or with ut NULL a->u_tau[w] read at constant indices:
 * a computed index into the parameters (by value in a kernel) would copy them to the thread's stack. */
NAV_HD static inline nav_real nav_les_wall_u_tau(const nav_les_params *a, const nav_real *ut, int w) {
  if (ut) return ut[w];
  nav_real u = 0;
  NAV_UNROLL for (int f = 0; f < 6; f++) if (f == w) u = a->u_tau[f];
  return u;
}

/* The nearest wall of a cell from the walls of each direction: wd[o_d + i], wi[o_d + i] are the distance of the
 * centre of cell i along d to the nearer wall face of d and that face 2 d + s (< 0: none along d), o_d = n[0] + ...
 * + n[d - 1] (the block's cells); over the directions in turn the smallest distance, the first of equal ones. One
 * direction's turn: the wall of entry q taken into (*wall, *y) (*wall < 0: none yet). */
NAV_HD static inline void nav_les_nearest_wall(const nav_real *wd, const nav_real *wi, int q, int *wall, nav_real *y) {
  if (wi[q] >= 0 && (*wall < 0 || wd[q] < *y)) {
    *y = wd[q];
    *wall = (int)wi[q];
  }
}

/* What nu_t of a cell takes from the metric and the walls, split by the directions' indices: those of x and y
 * (nav_les_column_xy, once for a column of cells) and that of z (nav_les_column_z, each cell of the column). The
 * values, and their order of operations, are those of the cell alone (nav_les_cell): the same bits. */
typedef struct nav_les_column {
  nav_gradient_metric w[3]; /* the gradient's metric of each direction (nav_point_gradient.h) */
  nav_real d2[3];           /* the cell's widths squared (Vreman's Delta_m^2) */
  nav_real vol_xy;          /* the product of the widths along x and y (the cell volume without z) */
  nav_real y_xy;            /* the nearest wall of x and y and its distance (nav_les_nearest_wall; Smagorinsky) */
  int wall_xy;
  nav_real vol, y; /* the cell volume, nearest wall and its distance that ll was computed for (vol = 0: none yet) */
  int wall;
  nav_real ll; /* the closure's squared length: (Cs Delta D)^2 (Smagorinsky), (Cw Delta)^2 (WALE); Vreman: unused */
} nav_les_column;

/* The directions x and y of the cell ijk (and z too where it is uniform: the same for every k). */
NAV_HD static inline void nav_les_column_xy(const nav_box *b, const nav_real *wd, const nav_real *wi, int kind,
                                            const int *ijk, nav_les_column *col) {
  nav_real vol = 1;
  col->d2[2] = 0; /* 2D: none (Vreman's beta reads it, times a zero gradient) */
  NAV_FOR_DIM(d, b) {
    if (d < 2) {
      col->w[d] = nav_gradient_metric_at(b, d, ijk[d]);
      const nav_real h = nav_df(b, d, ijk[d]);
      vol *= h;
      col->d2[d] = h * h;
    } else if (nav_uniform(b, d)) {
      col->w[d] = nav_gradient_metric_at(b, d, ijk[d]);
    }
  }
  col->vol_xy = vol;
  col->y_xy = 0;
  col->wall_xy = -1;
  if (kind == NAV_LES_SMAGORINSKY && wi) {
    nav_les_nearest_wall(wd, wi, ijk[0], &col->wall_xy, &col->y_xy);
    nav_les_nearest_wall(wd, wi, b->n[0] + ijk[1], &col->wall_xy, &col->y_xy);
  }
  col->vol = 0;
  col->y = 0;
  col->wall = -1;
  col->ll = 0;
}

/* The direction z of the cell ijk (2D: none), then the closure's length, computed again only where the cell's
 * volume or nearest wall differ from those of the last cell of the column; ut: u_tau of each wall face
 * (nav_les_wall_u_tau; NULL: a->u_tau). */
NAV_HD static inline void nav_les_column_z(const nav_box *b, const nav_real *wd, const nav_real *wi,
                                           const nav_les_params *a, const nav_real *ut, int kind, const int *ijk,
                                           nav_les_column *col) {
  nav_real vol = col->vol_xy, y = col->y_xy;
  int wall = col->wall_xy;
  NAV_FOR_DIM(d, b) {
    if (d == 2) {
      if (!nav_uniform(b, d)) col->w[d] = nav_gradient_metric_at(b, d, ijk[d]);
      const nav_real h = nav_df(b, d, ijk[d]);
      vol *= h;
      col->d2[2] = h * h;
      if (kind == NAV_LES_SMAGORINSKY && wi) nav_les_nearest_wall(wd, wi, b->n[0] + b->n[1] + ijk[d], &wall, &y);
    }
  }
  if (kind == NAV_LES_VREMAN || (vol == col->vol && wall == col->wall && y == col->y)) return;
  col->vol = vol;
  col->wall = wall;
  col->y = y;
  const nav_real delta = b->dim == 3 ? cbrt(vol) : sqrt(vol);
  if (kind == NAV_LES_WALE) {
    const nav_real l = a->c * delta;
    col->ll = l * l;
  } else {
    nav_real damp = 1;
    if (wall >= 0) damp = nav_les_van_driest(y * nav_les_wall_u_tau(a, ut, wall) / a->nu);
    const nav_real l = a->c * delta * damp;
    col->ll = l * l;
  }
}

/* nu_t at cell p of the column col (nav_les_column_z at that cell) from u (faces, ghosts filled, edges too) by the
 * closure `kind` (a->kind; a constant in a kernel compiled per closure). */
NAV_HD static inline nav_real nav_les_column_cell(const nav_box *b, const nav_real *const *u, const nav_les_params *a,
                                                  int kind, nav_idx p, const nav_les_column *col) {
  nav_real g[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  nav_velocity_gradient_metric(b, u, p, col->w, g);
  const nav_real s2 = nav_les_strain2(g);
  nav_real nut;
  if (kind == NAV_LES_WALE)
    nut = nav_les_wale(g, s2, col->ll);
  else if (kind == NAV_LES_VREMAN)
    nut = nav_les_vreman(g, a->c, col->d2);
  else
    nut = nav_les_smagorinsky(s2, col->ll);
  return nut > 0 ? nut : (nav_real)0; /* clipped; NaN -> 0 */
}

/* nu_t at cell (p, ijk) from u (faces, ghosts filled, edges too) by the closure `kind` (a->kind); wd, wi: the walls
 * of each direction (nav_les_nearest_wall), read by Smagorinsky only (NULL: no damping), with u_tau from ut
 * (nav_les_wall_u_tau; NULL: a->u_tau). */
NAV_HD static inline nav_real nav_les_cell(const nav_box *b, const nav_real *const *u, const nav_real *wd,
                                           const nav_real *wi, const nav_les_params *a, const nav_real *ut, int kind,
                                           nav_idx p, const int *ijk) {
  nav_les_column col;
  nav_les_column_xy(b, wd, wi, kind, ijk, &col);
  nav_les_column_z(b, wd, wi, a, ut, kind, ijk, &col);
  return nav_les_column_cell(b, u, a, kind, p, &col);
}

#endif
