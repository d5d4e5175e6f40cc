/* Point functions of the immersed-boundary forcing (physics/bodies/nav_body.h has the method).
 *
 * Direct forcing on the MAC velocity faces with a solid fraction alpha in [0, 1] per face (1 inside a
 * body, 0 in the fluid, a ramp over about one cell across the surface), computed once from the signed
 * distance of the bodies (Kajishima et al. 2001; Uhlmann's direct forcing without the kernels):
 *   u_c <- u_c + alpha (V_c - (u_c - g dp/dx_c))          (g = dt: the pressure of the last step, whose
 *                                                          gradient the next projection will take away;
 *                                                          g = 0 when u already holds it)
 * V the velocity of the owning body. The change du is the forcing f dt of the momentum equation; the
 * force of the fluid on body k is -sum over its faces of du dV_c / dt (momentum exchange).
 *
 * Storage: one "tag" array per component, tag = 2 k + alpha for a face owned by body k (0 where no body
 * is): the owner and the fraction in one value (alpha <= 1 < 2, so floor(tag / 2) is k exactly). */
#ifndef NAV_POINT_IBM_H
#define NAV_POINT_IBM_H

#include "backend/common/nav_hd.h"
#include "backend/nav_box.h"
#include "backend/common/nav_point_flow.h"

#define NAV_IBM_MAX_BODIES 8 /* = NAV_MAX_BODIES of core/nav_config.h */
#define NAV_IBM_NSUM (3 * NAV_IBM_MAX_BODIES)

/* The bodies as the kernels see them (passed by value): the surface velocity of each. */
typedef struct nav_ibm_params {
  int nbody;
  nav_real velocity[NAV_IBM_MAX_BODIES][3];
  nav_real gscale; /* g of the forcing (0: no pressure term) */
} nav_ibm_params;

/* The tag of a face owned by body k with fraction alpha, and back. */
NAV_HD static inline nav_real nav_ibm_tag(int k, nav_real alpha) { return (nav_real)(2 * k) + alpha; }
NAV_HD static inline int nav_ibm_owner(nav_real tag) { return (int)(tag * (nav_real)0.5); }

/* The forcing at face (p, ijk) of component c: the change du of u_c (0 where tag = 0); *owner gets the
 * body. q: the pressure (ghosts filled), read only if a->gscale != 0. vc: the surface velocity per face
 * (a rotating body), or NULL: the velocity of the owner from a. */
NAV_HD static inline nav_real nav_ibm_force(const nav_box *b, int c, const nav_real *uc, const nav_real *tag,
                                            const nav_real *q, const nav_real *vc, const nav_ibm_params *a,
                                            nav_idx p, const int *ijk, int *owner) {
  const nav_real t = tag[p];
  *owner = 0;
  if (t == 0) return 0;
  const int k = nav_ibm_owner(t);
  const nav_real alpha = t - (nav_real)(2 * k);
  nav_real target = uc[p];
  if (a->gscale != 0) target -= a->gscale * nav_gradient(b, c, q, p, ijk);
  *owner = k;
  return alpha * ((vc ? vc[p] : a->velocity[k][c]) - target);
}

/* The solid fraction of a face whose signed distance to the surface is phi (negative inside), for a
 * ramp of width delta (the extent of the face's control volume along the surface normal):
 *   alpha = clamp(1/2 - phi / delta, 0, 1). */
NAV_HD static inline double nav_ibm_fraction(double phi, double delta) {
  const double a = 0.5 - phi / delta;
  return a < 0 ? 0 : a > 1 ? 1 : a;
}

/* Sharp-interface forcing (physics/bodies/nav_body_sharp.c builds the stencils; nav_body.h has the method). Each
 * forced face m (a face inside a body, or a fluid face next to one) gets
 *   u_m <- value_m + sum_q weight_qm u[src_qm]                                   (nav_ibm_sharp_value)
 * from the values before the update (Jacobi: every new value is computed before any is written, so the result
 * depends neither on the order nor on the rank split). A face inside a body has no sources and value = its rigid
 * velocity; a forcing face holds the linear reconstruction along the normal V + (u_ip - V) phi / d_ip with u_ip
 * interpolated from the sources (their weights times phi / d_ip, V's share in value). Storage: structure of
 * arrays over the n faces of this rank, component 0 first (faces start[c] .. start[c+1]-1 are of component c);
 * the q-th source of face m at q n + m, unused ones with weight 0 and src = target. */
#define NAV_IBM_NSRC 4 /* sources per face: the 2^(dim-1) faces of the grid plane around the image point */

typedef struct nav_ibm_stencils {
  nav_idx n;              /* forced faces on this rank */
  nav_idx start[4];       /* host values: the faces of component c are start[c] .. start[c+1]-1 */
  const nav_idx *target;  /* n: linear index of the face in u[c] */
  const int *owner;       /* n: the body whose force the change counts to */
  const nav_idx *src;     /* NAV_IBM_NSRC n: linear indices in u[c] (ghost faces allowed) */
  const nav_real *weight; /* NAV_IBM_NSRC n */
  const nav_real *value;  /* n: the constant part */
  const nav_real *volume; /* n: the face's control volume dV_c */
  nav_real *next;         /* n: scratch, the new values */
} nav_ibm_stencils;

/* The new value of forced face m of component c (uc = u[c], ghosts current). */
NAV_HD static inline nav_real nav_ibm_sharp_value(const nav_ibm_stencils *s, const nav_real *uc, nav_idx m) {
  nav_real v = s->value[m];
  for (int q = 0; q < NAV_IBM_NSRC; q++) v += s->weight[q * s->n + m] * uc[s->src[q * s->n + m]];
  return v;
}

#endif
