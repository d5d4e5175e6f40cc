/* Point functions of the turbulence monitors on the MAC grid (see nav_box.h for the layout):
 *   dissipation  eps = 2 nu <S_ij S_ij>,   S = (grad u + grad u^T) / 2,
 *   enstrophy    <|omega|^2> / 2,          omega = curl u,
 * <.> the volume average. Each derivative is taken where the staggered grid gives it by one difference:
 * S_cc = du_c/dx_c at the cell centres (weight: the cell volume); du_c/dx_d and du_d/dx_c (c != d) on
 * the edges along the third direction (faces of c and of d), weight = the product of the two centre
 * distances (1/rdc) and the width along the third direction, halved for each of c, d in which the edge
 * lies on a non-periodic face of the global grid (the half of its dual cell inside the domain; there the
 * difference with the ghost is the one-sided wall gradient). With these weights the sums are the energy
 * dissipated by the scheme's viscous term: in a periodic box nu sum |grad_h u|^2 dV, which for a
 * discretely solenoidal field equals eps = 2 nu * enstrophy exactly (summation by parts); in a steady
 * wall-bounded parallel flow eps = the power of the forcing. Each cell owns its centre and its low edges;
 * the edges on a non-periodic high face of the global grid belong to the last cell. `bnd`: bit d (d < 3)
 * = this block's high side along d is a non-periodic global face, bit 3 + d = its low side.
 * Needs the velocity ghosts filled.
 *
 * The modelled dissipation of an eddy viscosity, eps_sgs = (1/V) sum ... below, is the energy that the
 * stress-form operator of nav_point_viscous.h removes beyond the molecular part: with k_c = nu + nu_t at the
 * faces of component c (nav_face_viscosity, ghosts filled as the solver fills them), the operator's flux of
 * u_c at a centre takes (k_c(face lo) + k_c(face hi)) / 2 and at an edge of (c, d) the mean of k_c at the two
 * u_c faces beside it, while the flux of u_d at the same edge takes the mean of k_d at the two u_d faces, so by
 * summation by parts
 *   -sum_c sum_faces u_c V_c(u) dV_c = sum_centres 2 k_cc S_cc^2 dV
 *                                      + sum_edges (k_c du_c/dx_d + k_d du_d/dx_c) (du_c/dx_d + du_d/dx_c) dV
 * with the weights dV above (walls at rest, periodic or pinned normal faces); the molecular part (k = nu) is
 * nu times the sum of 2 S:S, and eps_sgs sums the same terms with k - nu. On a stretched grid k_c and k_d of
 * one edge differ (each interpolates across its own faces), so the product is not a square. */
#ifndef NAV_POINT_MONITOR_H
#define NAV_POINT_MONITOR_H

#include "backend/common/nav_hd.h"
#include "backend/common/nav_metric.h"
#include "backend/nav_box.h"

/* 1 if face i along d of this block lies on a non-periodic face of the global grid. */
NAV_HD static inline int nav_monitor_wall(const nav_box *b, int bnd, int d, int i) {
  return (i == 0 && ((bnd >> (3 + d)) & 1)) || (i == b->n[d] && ((bnd >> d) & 1));
}

/* The eddy part k - nu of the mean of the face viscosities k[q] and k[q - s] of one component. */
NAV_HD static inline double nav_monitor_eddy(const nav_real *k, nav_real nu, nav_idx q, nav_idx s) {
  return 0.5 * ((double)k[q] + (double)k[q - s]) - (double)nu;
}

/* One edge along the third direction of (c, d) at point q (face indices ic, id): adds (du_c/dx_d +
 * du_d/dx_c)^2 dV (= 4 S_cd^2 dV, both orders of the pair) to *ss and (du_d/dx_c - du_c/dx_d)^2 dV / 2 to *ens;
 * kf != NULL: ((k_c - nu) du_c/dx_d + (k_d - nu) du_d/dx_c) (du_c/dx_d + du_d/dx_c) dV to *sgs (k_c, k_d: the
 * operator's viscosities of the edge, from the face viscosities kf[c], kf[d]). */
NAV_HD static inline void nav_monitor_edge(const nav_box *b, const nav_real *const *u, const nav_real *const *kf,
                                           nav_real nu, int bnd, int c, int d, nav_idx q, int ic, int id,
                                           double width, double *ss, double *ens, double *sgs) {
  const double rc = (double)nav_rdc(b, c, ic), rd = (double)nav_rdc(b, d, id);
  const double dcd = ((double)u[c][q] - (double)u[c][q - b->st[d]]) * rd; /* du_c/dx_d */
  const double ddc = ((double)u[d][q] - (double)u[d][q - b->st[c]]) * rc; /* du_d/dx_c */
  const double half = (nav_monitor_wall(b, bnd, c, ic) ? 0.5 : 1.0) * (nav_monitor_wall(b, bnd, d, id) ? 0.5 : 1.0);
  const double vol = half * width / (rc * rd), sum = dcd + ddc, w = ddc - dcd;
  *ss += sum * sum * vol;
  *ens += 0.5 * w * w * vol;
  if (kf) {
    const double kc = nav_monitor_eddy(kf[c], nu, q, b->st[d]), kd = nav_monitor_eddy(kf[d], nu, q, b->st[c]);
    *sgs += (kc * dcd + kd * ddc) * sum * vol;
  }
}

/* Adds the cell (p, ijk)'s share of sum 2 S:S dV to *ss and of sum |omega|^2/2 dV to *ens; kf != NULL (the
 * face viscosities nu + nu_t of each component, ghosts filled): its share of the eddy viscosity's sum to *sgs. */
NAV_HD static inline void nav_monitor_point(const nav_box *b, const nav_real *const *u, const nav_real *const *kf,
                                            nav_real nu, int bnd, nav_idx p, const int *ijk, double *ss,
                                            double *ens, double *sgs) {
  double vol = 1;
  NAV_FOR_DIM(c, b) vol *= (double)nav_df(b, c, ijk[c]);
  NAV_FOR_DIM(c, b) {
    const double g = ((double)u[c][p + b->st[c]] - (double)u[c][p]) * (double)nav_rdf(b, c, ijk[c]);
    *ss += 2 * g * g * vol;
    if (kf) *sgs += 2 * nav_monitor_eddy(kf[c], nu, p + b->st[c], b->st[c]) * g * g * vol; /* k_cc of the centre */
  }
  NAV_FOR_DIM(c, b) NAV_FOR_DIM(d, b) {
    if (d <= c) continue;
    const int o = 3 - c - d; /* the third direction (2D: z, width 1) */
    const double width = b->dim == 3 ? (double)nav_df(b, o, ijk[o]) : 1.0;
    const int ac = ijk[c] == b->n[c] - 1 && ((bnd >> c) & 1), ad = ijk[d] == b->n[d] - 1 && ((bnd >> d) & 1);
    for (int a = 0; a <= ac; a++)
      for (int e = 0; e <= ad; e++)
        nav_monitor_edge(b, u, kf, nu, bnd, c, d, p + a * b->st[c] + e * b->st[d], ijk[c] + a, ijk[d] + e, width, ss,
                         ens, sgs);
  }
}

#endif
