/* Point functions of the viscous term with a variable viscosity nu + nu_t(x) in stress form, on
 * the MAC grid of nav_box.h (implicit diffusion and the eddy viscosity of turbulence models).
 *
 * Momentum diffusion of component c, split into its "diagonal" and "cross" parts:
 *   V_c(u) = sum_d d_d [ nu (d_d u_c + d_c u_d) ] = V_diag_c + V_cross_c,
 *   V_diag_c  = sum_d d_d (nu d_d u_c)    (implicit with diffusion = implicit),
 *   V_cross_c = sum_d d_d (nu d_c u_d)    (always explicit; = nu d_c div u = 0 for constant nu).
 * The viscosity lives at the u_c points: k_c = nu + nu_t interpolated from the cells either side
 * of the face with the box weights wf[c] (nav_face_viscosity). A flux of the u_c control volume
 * between the points p and p + s_d (at the cell centre for d == c, at an edge for d != c) takes
 * the mean (k_c[p] + k_c[p + s_d]) / 2. V_diag_c is therefore exactly the Helmholtz operator of
 * nav_point_poisson.h (shift 0, kc = k_c) on the staggered box of c (the box whose cells are the
 * u_c control volumes: 1/dc as cell widths along c, 1/df between the faces), which is what the
 * implicit solve inverts; with k == NULL (constant nu) the coefficient is 1 and V_diag_c is
 * lap u_c of nav_laplacian_face (nav_point_flow.h; times nu outside).
 * Derivatives: d_d u_c between two u_c points is their difference over their distance (df along
 * c, dc across); d_c u_d at an edge is the difference of the two u_d points either side of face
 * ic over dc_c[ic]; fluxes are divided by the control volume's width (dc along c, df across).
 * For fields linear in x and a linear viscosity the discrete V is exact on uniform grids
 * (tests/backend/test_kernels.c). */
#ifndef NAV_POINT_VISCOUS_H
#define NAV_POINT_VISCOUS_H

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"

#define NAV_STRESS_DIAG 1  /* part: V_diag */
#define NAV_STRESS_CROSS 2 /* part: V_cross */

/* k_c = nu + nu_t at the face (p, ijk) of component c; nut is cell-centred (ghosts filled). */
NAV_HD static inline nav_real nav_face_viscosity(const nav_box *b, int c, nav_real nu, const nav_real *nut, nav_idx p,
                                                 const int *ijk) {
  const nav_real w = b->wf[c][ijk[c]];
  return nu + (1 - w) * nut[p - b->st[c]] + w * nut[p];
}

/* The parts `part` (NAV_STRESS_DIAG | NAV_STRESS_CROSS) of V_c at the face (p, ijk) of component c, with
 * khi[d], klo[d] the viscosity at the flux points p + s_d / 2 and p - s_d / 2 (the means of k_c either side).
 * u needs filled ghosts. */
NAV_HD static inline nav_real nav_stress_fluxes(const nav_box *b, int c, const nav_real *const *u, const nav_real *khi,
                                                const nav_real *klo, int part, nav_idx p, const int *ijk) {
  const nav_real *uc = u[c];
  const nav_idx sc = b->st[c];
  const int ic = ijk[c];
  nav_real v = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int id = ijk[d];
    if (d == c) {
      /* d_c (k d_c u_c): the diagonal and the cross part are the same term */
      const nav_real ghi = (uc[p + sc] - uc[p]) * b->rdf[c][ic], glo = (uc[p] - uc[p - sc]) * b->rdf[c][ic - 1];
      const nav_real t = (khi[d] * ghi - klo[d] * glo) * b->rdc[c][ic];
      if (part & NAV_STRESS_DIAG) v += t;
      if (part & NAV_STRESS_CROSS) v += t;
    } else {
      if (part & NAV_STRESS_DIAG)
        v += (khi[d] * (uc[p + sd] - uc[p]) * b->rdc[d][id + 1] - klo[d] * (uc[p] - uc[p - sd]) * b->rdc[d][id]) *
             b->rdf[d][id];
      if (part & NAV_STRESS_CROSS) {
        const nav_real *ud = u[d];
        v += (khi[d] * (ud[p + sd] - ud[p + sd - sc]) - klo[d] * (ud[p] - ud[p - sc])) * b->rdc[c][ic] * b->rdf[d][id];
      }
    }
  }
  return v;
}

/* The parts `part` of V_c at the face (p, ijk) of component c, with k the viscosity at the u_c points (ghosts
 * filled) or NULL for k = 1. u needs filled ghosts. */
NAV_HD static inline nav_real nav_stress(const nav_box *b, int c, const nav_real *const *u, const nav_real *k, int part,
                                         nav_idx p, const int *ijk) {
  nav_real khi[3] = {1, 1, 1}, klo[3] = {1, 1, 1};
  if (k) NAV_FOR_DIM(d, b) {
      khi[d] = (nav_real)0.5 * (k[p] + k[p + b->st[d]]);
      klo[d] = (nav_real)0.5 * (k[p] + k[p - b->st[d]]);
    }
  return nav_stress_fluxes(b, c, u, khi, klo, part, p, ijk);
}

/* The ends of a block for the face viscosities made from the cells (nav_face_viscosity_near): bit d set for a
 * periodic direction d; NAV_ENDS_WALL(d, s) set for a face where nu_t vanishes (a no-slip wall under a turbulence
 * model: the flux of a tangential component through the wall takes nu alone). */
#define NAV_ENDS_WALL(d, s) (1 << (3 + 2 * (d) + (s)))

/* k_c at the point of component c one step from the interior face (p, ijk) along d (side 1: +, 0: -), from
 * the cells: the value that face viscosity and the ghost fills of nav_diffusion_viscosity_changed give it on a
 * block without halo faces whose faces are periodic or zero-gradient (`ends`, NAV_ENDS_WALL): a point past a
 * periodic end is the face at the other end, past a zero-gradient end the last face inside, except the
 * component's own low end, which reflects about the boundary face (index -1 takes index 1), and a wall across
 * c (d != c), past which it is 2 nu - k of the last face inside (the mean at the wall nu: nu_t = 0 there).
 * Across c the point past an end is made from nut's ghosts, which hold those same cells (the periodic copy, the
 * zero-gradient copy): no index is moved, the loads are at fixed offsets. nut: ghosts filled (edges too). */
NAV_HD static inline nav_real nav_face_viscosity_near(const nav_box *b, int c, nav_real nu, const nav_real *nut,
                                                      int ends, nav_idx p, const int *ijk, int d, int side) {
  const int n = b->n[d], i = ijk[d] + (side ? 1 : -1);
  if (d != c) {
    const nav_real k = nav_face_viscosity(b, c, nu, nut, side ? p + b->st[d] : p - b->st[d], ijk);
    const int wall = side ? i >= n && (ends & NAV_ENDS_WALL(d, 1)) : i < 0 && (ends & NAV_ENDS_WALL(d, 0));
    return wall ? (nav_real)-1 * k + 2 * nu : k; /* fill_ghost's NAV_GHOST_MIRROR, alpha -1, beta 2 nu */
  }
  int to = i;
  if (i < 0)
    to = (ends >> d) & 1 ? n - 1 : 1;
  else if (i >= n)
    to = (ends >> d) & 1 ? 0 : n - 1;
  int q[3] = {ijk[0], ijk[1], ijk[2]};
  q[d] = to;
  return nav_face_viscosity(b, c, nu, nut, p + (nav_idx)(to - ijk[d]) * b->st[d], q);
}

/* nav_stress with k_c from the cells (nav_face_viscosity_near's rules): the same value bit for bit as nav_stress
 * on the face viscosities filled by nav_diffusion_viscosity_changed. */
NAV_HD static inline nav_real nav_stress_cells(const nav_box *b, int c, const nav_real *const *u, nav_real nu,
                                               const nav_real *nut, int ends, int part, nav_idx p, const int *ijk) {
  const nav_real k0 = nav_face_viscosity(b, c, nu, nut, p, ijk);
  nav_real khi[3] = {1, 1, 1}, klo[3] = {1, 1, 1};
  NAV_FOR_DIM(d, b) {
    khi[d] = (nav_real)0.5 * (k0 + nav_face_viscosity_near(b, c, nu, nut, ends, p, ijk, d, 1));
    klo[d] = (nav_real)0.5 * (k0 + nav_face_viscosity_near(b, c, nu, nut, ends, p, ijk, d, 0));
  }
  return nav_stress_fluxes(b, c, u, khi, klo, part, p, ijk);
}

#endif
