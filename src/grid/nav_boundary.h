/* Ghost layers of the velocity and of cell-centred scalars at the domain boundary.
 *
 * Velocity, per face (dir, side) and component c:
 *   normal (c == dir): the boundary face carries the wall's normal velocity, 0 (no penetration);
 *   tangential, no-slip wall with velocity U_c: ghost = 2 U_c - interior (U_c at the face);
 *   tangential, free slip: ghost = interior (zero shear);
 *   inflow and outflow: from the face values in the plane arrays (see nav_velocity_bc);
 *   periodic: wrap.
 * Pressure and its corrections: homogeneous Neumann at walls and free-slip faces, periodic wrap,
 * homogeneous Dirichlet where asked (nav_scalar_bc). Directions are filled in the order x, y, z
 * so edges and corners are consistent. Faces shared with a neighbour rank are filled by the halo
 * exchange (halo, see nav_halo.h), direction by direction before that direction's boundary faces;
 * halo == NULL: one block (not collective). Otherwise collective over the block's neighbours.
 *
 * Temperature (cell-centred), per face, through the mirror ghost x_g = alpha x_a + beta of the
 * adjacent cell x_a, with dc the distance between the ghost and adjacent centres:
 *   fixed T_w:              alpha = -1, beta = 2 T_w       (T_w at the face, linear between the centres)
 *   flux q into the domain: alpha =  1, beta = q dc / kappa (q = kappa dT/dn_out; q = 0: adiabatic)
 *   periodic: wrap. */
#ifndef NAV_BOUNDARY_H
#define NAV_BOUNDARY_H

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "grid/nav_halo.h"

/* NAV_SCALAR_FACE: a velocity component normal to a wall or free-slip face, whose boundary face is
 * the ghost slot of a staggered solve (nav_psolver_options.stagger_dir): on the finest level the
 * face slot is a pinned unknown (0) and the ghost its odd mirror (NAV_GHOST_FACE); elsewhere, and
 * for nav_fill_scalar_ghosts, it is DIRICHLET. */
typedef enum nav_scalar_bc {
  NAV_SCALAR_NEUMANN,
  NAV_SCALAR_DIRICHLET,
  NAV_SCALAR_PERIODIC,
  NAV_SCALAR_FACE
} nav_scalar_bc;

/* Velocity boundary description of the six faces. Inflow and outflow faces take their values from
 * plane arrays (solvers/nav_open.h): plane[d][s][c], backend memory of the ops that fill (NULL on
 * other faces); the normal component sits on the boundary face, a tangential one gets the ghost
 * 2 v - interior. */
typedef struct nav_velocity_bc {
  nav_bc_type type[3][2];
  double wall_velocity[3][2][3];
  const nav_real *plane[3][2][3];
} nav_velocity_bc;

void nav_velocity_bc_from_config(const nav_config *cfg, nav_velocity_bc *bc);
/* The sides of block b that lie on non-periodic faces of the global grid (n cells per direction): bit d
 * (bit 3 + d) when its high (low) side along d is one (`bnd` of backend/nav_monitor_kernels.h). Not collective. */
int nav_boundary_sides(const nav_box *b, const int *n, const nav_velocity_bc *bc);
/* The pressure boundary type that goes with the velocity boundaries. */
void nav_pressure_bc_from_velocity(const nav_velocity_bc *vbc, int dim, nav_scalar_bc pbc[3][2]);

/* Temperature boundaries: the mirror coefficients of each face (periodic faces: kind only). */
typedef struct nav_temperature_bc {
  nav_ghost_kind kind[3][2];
  nav_real alpha[3][2], beta[3][2];
} nav_temperature_bc;

/* From the configuration; w[d] are the global cell widths of direction d with ghosts (index -1..n), n the
 * global cell counts. Not collective. */
void nav_temperature_bc_from_config(const nav_config *cfg, double *const *w, const int *n, nav_temperature_bc *bc);

/* Every ghost of the velocity u: physical faces and neighbour ranks. */
nav_err nav_fill_velocity_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                                 const nav_velocity_bc *bc, nav_real *const *u);
/* Only the ghosts that the divergence of u reads (the normal component's faces of each direction, from a
 * neighbour rank only the high ghost plane, slot n): the other ghosts keep their values. */
nav_err nav_fill_velocity_normal_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                                        const nav_velocity_bc *bc, nav_real *const *u);
nav_err nav_fill_scalar_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo, const nav_scalar_bc bc[3][2],
                               nav_real *x);
nav_err nav_fill_temperature_ghosts(const nav_kernel_ops *ops, const nav_box *b, nav_halo *halo,
                                    const nav_temperature_bc *bc, nav_real *x);

#endif
