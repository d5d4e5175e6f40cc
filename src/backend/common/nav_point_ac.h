/* Point functions of artificial compressibility (Chorin 1967) on the MAC grid (solvers/nav_ac.h).
 *
 * The steady equations N_c(u) + B_c(T) - d p/dx_c = 0, div u = 0, S(T) = 0 (nav_point_flow.h,
 * nav_point_scalar.h) are marched in a pseudo-time tau with a local step dtau per point:
 *   du_c/dtau = R_c = N_c(u) + B_c(T) - grad_c p          (faces)
 *   dp/dtau   = R_p = -beta^2 div u                       (cells)
 *   dT/dtau   = R_T = S(T)                                (cells)
 * beta is local: beta^2 = beta2 max(|u|^2, u_ref2), |u| the speed at the cell centre. The local
 * step is dtau = cfl / lambda with the rate of the cell
 *   lambda = sum_d (|u_d| + sqrt(u_d^2 + beta^2)) / h_d + 2 nu sum_d 1 / h_d^2,
 * the AC characteristic speeds |u_d| +- c, c = sqrt(u_d^2 + beta^2), plus the viscous limit with
 * nu = max(nu, kappa) (diss: the coarse levels' dissipation k |u_d| h_d / 2 adds k |u_d| / h_d
 * to the viscous limit, so lambda carries + diss sum_d |u_d| / h_d); a face takes the larger rate (smaller step) of its two cells. Every rate
 * is evaluated on the state u0 at the start of the pseudo-time step, so a multistage update
 *   x = x0 + alpha_k dtau R(x)
 * uses one dtau per point in all its stages. Where every R vanishes the state is the discrete
 * steady solution of the projection method too: same N, B, S, div and grad. */
#ifndef NAV_POINT_AC_H
#define NAV_POINT_AC_H

#include <math.h>

#include "backend/common/nav_hd.h"
#include "backend/common/nav_point_flow.h"
#include "backend/common/nav_point_poisson.h"
#include "backend/nav_box.h"

struct nav_ac_params {
  nav_real alpha;   /* stage coefficient */
  nav_real cfl;     /* pseudo-time CFL number */
  nav_real beta2;   /* ac_beta^2 */
  const nav_real *u_ref2; /* backend memory (host memory on cpu): the reference speed squared, the floor of the
                            local speed in beta; one value shared by every level, set by ac_u_ref or copied */
  nav_real nu;      /* max(nu, kappa) */
  nav_real diss;    /* coefficient k of the coarse levels' dissipation (0 on the finest level) */
  int skip_low[3];  /* 1: the block's face 0 in direction d is a physical boundary face (not updated) */
};
typedef struct nav_ac_params nav_ac_params;

/* beta^2 at the cell (p, ijk) from the centre velocity of u. */
NAV_HD static inline nav_real nav_ac_beta2(const nav_box *b, const nav_real *const *u, nav_idx p, const nav_ac_params *a) {
  nav_real q2 = 0;
  NAV_FOR_DIM(d, b) {
    const nav_real uc = (nav_real)0.5 * (u[d][p] + u[d][p + b->st[d]]);
    q2 += uc * uc;
  }
  const nav_real u_ref2 = *a->u_ref2;
  return a->beta2 * (q2 > u_ref2 ? q2 : u_ref2);
}

/* The reference speed u_ref (nav_ac.h) from the largest speed umax of the current state: u_fixed ([run]
 * ac_u_ref) when positive, else the larger of u_floor (the case's speeds) and umax. In double, on the host and
 * in the backends' ac_u_ref alike. */
NAV_HD static inline double nav_ac_u_ref(double umax, double u_fixed, double u_floor) {
  return u_fixed > 0 ? u_fixed : fmax(u_floor, umax);
}

/* u_ref^2 as the kernels read it (nav_ac_params.u_ref2). */
NAV_HD static inline nav_real nav_ac_u_ref2(double umax, double u_fixed, double u_floor) {
  const double u_ref = nav_ac_u_ref(umax, u_fixed, u_floor);
  return (nav_real)(u_ref * u_ref);
}

/* The rate lambda of the cell (p, ijk) (see above); 1 / lambda dtau bounds the local step. */
NAV_HD static inline nav_real nav_ac_rate(const nav_box *b, const nav_real *const *u, nav_idx p, const int *ijk,
                                          const nav_ac_params *a) {
  const nav_real beta2 = nav_ac_beta2(b, u, p, a);
  nav_real r = 0;
  NAV_FOR_DIM(d, b) {
    const nav_real uc = (nav_real)0.5 * (u[d][p] + u[d][p + b->st[d]]);
    const nav_real rh = b->rdf[d][ijk[d]];
    const nav_real au = uc < 0 ? -uc : uc;
    r += (au + sqrt(uc * uc + beta2) + a->diss * au) * rh + 2 * a->nu * rh * rh;
  }
  return r;
}

/* Local step of the face (p, ijk) of component c: the smaller step of its two cells. */
NAV_HD static inline nav_real nav_ac_dtau_face(const nav_box *b, int c, const nav_real *const *u, nav_idx p,
                                               const int *ijk, const nav_ac_params *a) {
  int lo[3] = {ijk[0], ijk[1], ijk[2]};
  lo[c] -= 1;
  const nav_real rh = nav_ac_rate(b, u, p, ijk, a), rl = nav_ac_rate(b, u, p - b->st[c], lo, a);
  return a->cfl / (rh > rl ? rh : rl);
}

/* 1 when the face (ijk) of component c is a physical boundary face of the block (kept by the
 * ghost fill, neither updated nor counted in the residual). */
NAV_HD static inline int nav_ac_boundary_face(int c, const int *ijk, const nav_ac_params *a) {
  return ijk[c] == 0 && a->skip_low[c];
}

/* Dissipation of the coarse levels of the pseudo-time multigrid (FAS, solvers/nav_ac.c). With
 * the central advection of N_c the coarse operators lose their diagonal dominance once the cell
 * Reynolds number |u| h / nu passes 2 (it doubles per level: 12.5 at 256^2 for Re 3200, 1600 on the
 * 2x2 grid) and the cycles stall or diverge (docs/design.md). The coarse levels add the difference between
 * first-order upwind and central advection,
 *   D_c(u) = k sum_d (|a_d| h_d / 2) d2_d u_c,
 * a_d the velocity u_d at the face of u_c (d = c: u_c itself; else the mean of the four u_d
 * faces around it), h_d the spacing of the u_c control volume in d (dc_c = 1 / rdc_c along c,
 * df_d across), d2_d the second differences of nav_point_flow.h. The finest level never has it
 * (k = 0): the FAS forcing carries the finest residual to the coarse levels, so the converged
 * answer is the central one; the coarse operators only shape the corrections. */
NAV_HD static inline nav_real nav_ac_dissipation(const nav_box *b, int c, const nav_real *const *u, nav_idx p,
                                                 const int *ijk, nav_real k) {
  const nav_real *uc = u[c];
  const nav_idx sc = b->st[c];
  const int ic = ijk[c];
  nav_real r = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int id = ijk[d];
    if (d == c) {
      const nav_real a = uc[p] < 0 ? -uc[p] : uc[p];
      r += a / b->rdc[c][ic] * nav_d2_face(uc, p, sc, b, c, ic);
    } else {
      const nav_real *ud = u[d];
      nav_real a = (nav_real)0.25 * (ud[p] + ud[p + sd] + ud[p - sc] + ud[p - sc + sd]);
      a = a < 0 ? -a : a;
      r += a * b->df[d][id] * nav_d2_centred(uc, p, sd, b, d, id);
    }
  }
  return (nav_real)0.5 * k * r;
}

/* The same for the temperature at the cell (p, ijk): k sum_d (|u_d| df_d / 2) d2_d T, u_d the
 * mean of the cell's two faces. */
NAV_HD static inline nav_real nav_ac_dissipation_cell(const nav_box *b, const nav_real *const *u, const nav_real *T,
                                                      nav_idx p, const int *ijk, nav_real k) {
  nav_real r = 0;
  NAV_FOR_DIM(d, b) {
    const nav_idx sd = b->st[d];
    const int i = ijk[d];
    nav_real a = (nav_real)0.5 * (u[d][p] + u[d][p + sd]);
    a = a < 0 ? -a : a;
    r += a * b->df[d][i] * nav_d2_centred(T, p, sd, b, d, i);
  }
  return (nav_real)0.5 * k * r;
}

/* Multigrid in pseudo-time (FAS, solvers/nav_ac.c) on blocks of even cell counts: coarse cell
 * I has the fine children 2I, 2I+1 per direction, coarse face I of component c is the fine face
 * 2I in direction c. */

/* Restriction to the coarse face IJK of component c: the area-weighted average of the fine faces
 * that make it, 2^(dim-1) of them (state and residual alike). */
NAV_HD static inline nav_real nav_ac_restrict_face(const nav_box *f, int c, const nav_real *x, const int *IJK) {
  nav_real sum = 0, area = 0;
  const int kmax = f->dim == 3 ? 2 : 1;
  for (int dk = 0; dk < kmax; dk++)
    for (int dj = 0; dj < 2; dj++)
      for (int di = 0; di < 2; di++) {
        const int o[3] = {di, dj, dk};
        if (o[c]) continue; /* the normal direction has the one coincident face */
        int ijk[3] = {2 * IJK[0] + di, 2 * IJK[1] + dj, f->dim == 3 ? 2 * IJK[2] + dk : 0};
        nav_real a = 1;
        NAV_FOR_DIM(d, f) if (d != c) a *= f->df[d][ijk[d]];
        sum += x[f->off + ijk[0] * f->st[0] + ijk[1] * f->st[1] + ijk[2] * f->st[2]] * a;
        area += a;
      }
  return sum / area;
}

/* Linear interpolation of the coarse face field xc of component c (coarse block cb, ghosts
 * filled) at the fine face ijk (fine block f). Normal direction: an even fine face is the coarse
 * face i/2, an odd one 2I+1 lies between the coarse faces I and I+1 at the weight df_f[2I] /
 * DF_c[I] of I+1. Transverse directions (cell-centred there): as nav_prolong. */
NAV_HD static inline nav_real nav_ac_prolong_face(const nav_box *cb, int c, const nav_real *xc, const nav_box *f,
                                                  const int *ijk) {
  int I[3] = {0, 0, 0}, step[3] = {0, 0, 0};
  nav_real w[3] = {0, 0, 0};
  NAV_FOR_DIM(d, f) {
    const int i = ijk[d], parent = i >> 1;
    I[d] = parent;
    if (d == c) {
      step[d] = 1;
      w[d] = (i & 1) ? f->df[d][i - 1] * cb->rdf[d][parent] : 0;
    } else {
      step[d] = (i & 1) ? 1 : -1;
      w[d] = (nav_real)0.5 * (cb->df[d][parent] - f->df[d][i]) * cb->rdc[d][(i & 1) ? parent + 1 : parent];
    }
  }
  return nav_interp_linear(cb, xc, I, step, w, f->dim);
}

#endif
