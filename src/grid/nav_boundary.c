/* Ghost layers at the domain boundary (see nav_boundary.h). */
#include "grid/nav_boundary.h"

#include <string.h>

#include "backend/nav_open_kernels.h"
#include "core/nav_error.h"

void nav_velocity_bc_from_config(const nav_config *cfg, nav_velocity_bc *bc) {
  memset(bc, 0, sizeof *bc);
  memcpy(bc->type, cfg->bc, sizeof bc->type);
  memcpy(bc->wall_velocity, cfg->wall_velocity, sizeof bc->wall_velocity);
}

int nav_boundary_sides(const nav_box *b, const int *n, const nav_velocity_bc *bc) {
  int bnd = 0;
  for (int d = 0; d < b->dim; d++) {
    if (bc->type[d][1] != NAV_BC_PERIODIC && b->g0[d] + b->n[d] == n[d]) bnd |= 1 << d;
    if (bc->type[d][0] != NAV_BC_PERIODIC && b->g0[d] == 0) bnd |= 1 << (3 + d);
  }
  return bnd;
}

void nav_pressure_bc_from_velocity(const nav_velocity_bc *vbc, int dim, nav_scalar_bc pbc[3][2]) {
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      pbc[d][s] = d < dim && vbc->type[d][s] == NAV_BC_PERIODIC ? NAV_SCALAR_PERIODIC : NAV_SCALAR_NEUMANN;
}

/* normal: only what the divergence reads, each component's faces of its own direction (from a neighbour rank the
 * high ghost only: slot n, the neighbour's first face); else every ghost of every component. */
static nav_err nav_fill_velocity(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo, const nav_velocity_bc *bc,
                                 nav_real *const *u, int normal) {
  /* the faces of one direction (every component, both sides) in one pass; each face's rule:
   * periodic; inflow/outflow from the plane; the normal component on a wall or free-slip face is
   * the face value; a tangential one mirrored, no-slip (-1, twice the wall's speed) or free-slip (+1) */
  for (int d = 0; d < b->dim; d++) {
    if (normal)
      NAV_CALL(nav_halo_exchange_sides(halo, b, d, &u[d], 1, NAV_HALO_HIGH));
    else
      NAV_CALL(nav_halo_exchange(halo, b, d, u, b->dim)); /* u, v, (w) in one message per neighbour */
    nav_ghost_dir g;
    memset(&g, 0, sizeof g);
    int any = 0;
    for (int s = 0; s < 2; s++)
      for (int c = 0; c < b->dim; c++) {
        const nav_bc_type t = bc->type[d][s];
        if (nav_halo_face(halo, d, s) || (normal && c != d)) continue;
        if (t == NAV_BC_INFLOW || t == NAV_BC_OUTFLOW) {
          NAV_CALL(nav_open_kernels_of(ops)->fill_ghost_plane(b, u[c], d, s, c == d, bc->plane[d][s][c]));
          continue;
        }
        g.x[c] = u[c];
        g.on[s][c] = any = 1;
        g.kind[s][c] = t == NAV_BC_PERIODIC ? NAV_GHOST_PERIODIC : c == d ? NAV_GHOST_FACE : NAV_GHOST_MIRROR;
        g.alpha[s][c] = t == NAV_BC_WALL ? -1 : 1;
        g.beta[s][c] = t == NAV_BC_WALL && c != d ? (nav_real)(2 * bc->wall_velocity[d][s][c]) : 0;
      }
    if (any) NAV_CALL(ops->fill_ghost_dir(b, d, &g));
  }
  return NAV_OK;
}

nav_err nav_fill_velocity_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo, const nav_velocity_bc *bc,
                                 nav_real *const *u) {
  return nav_fill_velocity(ops, b, halo, bc, u, 0);
}

nav_err nav_fill_velocity_normal_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                                        const nav_velocity_bc *bc, nav_real *const *u) {
  return nav_fill_velocity(ops, b, halo, bc, u, 1);
}

nav_err nav_fill_scalar_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                               const nav_scalar_bc bc[3][2], nav_real *x) {
  /* The directions without a neighbour rank in one pass first, then each direction with one: its
   * exchange and its physical face. The exchanged planes carry the neighbour's filled ghosts, and
   * the rules are homogeneous (alpha = +-1, beta = 0), so the order of the directions changes no
   * value: every ghost, edges and corners included, is that of the one-rank fill. */
  nav_ghost_faces g;
  int exchanged = 0;
  for (int d = 0; d < 3; d++) {
    g.skip[d] = nav_halo_face(halo, d, 0) || nav_halo_face(halo, d, 1);
    exchanged |= g.skip[d];
    for (int s = 0; s < 2; s++) {
      g.kind[d][s] = bc[d][s] == NAV_SCALAR_PERIODIC ? NAV_GHOST_PERIODIC : NAV_GHOST_MIRROR;
      g.alpha[d][s] = bc[d][s] == NAV_SCALAR_NEUMANN ? 1 : -1;
      g.beta[d][s] = 0;
    }
  }
  NAV_CALL(ops->fill_ghosts(b, x, &g));
  if (!exchanged) return NAV_OK;
  for (int d = 0; d < b->dim; d++) {
    if (!g.skip[d]) continue;
    NAV_CALL(nav_halo_exchange(halo, b, d, &x, 1));
    for (int s = 0; s < 2; s++) {
      if (nav_halo_face(halo, d, s)) continue;
      if (bc[d][s] == NAV_SCALAR_PERIODIC)
        NAV_CALL(ops->fill_ghost(b, x, d, s, NAV_GHOST_PERIODIC, 0, 0));
      else
        NAV_CALL(ops->fill_ghost(b, x, d, s, NAV_GHOST_MIRROR, bc[d][s] == NAV_SCALAR_NEUMANN ? 1 : -1, 0));
    }
  }
  return NAV_OK;
}

void nav_temperature_bc_from_config(const nav_config *cfg, double *const *w, const int *n, nav_temperature_bc *bc) {
  memset(bc, 0, sizeof *bc);
  for (int d = 0; d < cfg->dim; d++)
    for (int s = 0; s < 2; s++) {
      const double v = cfg->tbc_value[d][s];
      const double dc = s ? 0.5 * (w[d][n[d] - 1] + w[d][n[d]]) : 0.5 * (w[d][-1] + w[d][0]);
      switch (cfg->tbc[d][s]) {
      case NAV_THERMAL_PERIODIC:
        bc->kind[d][s] = NAV_GHOST_PERIODIC;
        break;
      case NAV_THERMAL_FIXED:
        bc->kind[d][s] = NAV_GHOST_MIRROR;
        bc->alpha[d][s] = -1;
        bc->beta[d][s] = (nav_real)(2 * v);
        break;
      case NAV_THERMAL_FLUX:
        bc->kind[d][s] = NAV_GHOST_MIRROR;
        bc->alpha[d][s] = 1;
        bc->beta[d][s] = (nav_real)(v * dc / cfg->diffusivity);
        break;
      }
    }
}

nav_err nav_fill_temperature_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                                    const nav_temperature_bc *bc, nav_real *x) {
  /* No neighbour rank in any direction: every face in one pass (one launch on a GPU instead of
   * 2 dim), which gives bit for bit what the faces one after the other in the order x, y, z give
   * (the contract of fill_ghosts). With an exchange the order matters at the edges (the rules are
   * not homogeneous: beta != 0 on a fixed temperature): direction by direction. */
  int exchanged = 0;
  for (int d = 0; d < b->dim; d++) exchanged |= nav_halo_face(halo, d, 0) || nav_halo_face(halo, d, 1);
  if (!exchanged) {
    nav_ghost_faces g;
    memset(&g, 0, sizeof g);
    for (int d = 0; d < b->dim; d++)
      for (int s = 0; s < 2; s++) {
        g.kind[d][s] = bc->kind[d][s];
        g.alpha[d][s] = bc->alpha[d][s];
        g.beta[d][s] = bc->beta[d][s];
      }
    return ops->fill_ghosts(b, x, &g);
  }
  for (int d = 0; d < b->dim; d++) {
    NAV_CALL(nav_halo_exchange(halo, b, d, &x, 1));
    for (int s = 0; s < 2; s++)
      if (!nav_halo_face(halo, d, s))
        NAV_CALL(ops->fill_ghost(b, x, d, s, bc->kind[d][s], bc->alpha[d][s], bc->beta[d][s]));
  }
  return NAV_OK;
}
