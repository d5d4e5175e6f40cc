/* The keys of the grid layer ([grid], [boundary], the decomposition and halo keys of [run]) and their
 * cross-key checks; solvers/nav_sections.c registers them (core/nav_config_schema.h has the types). */
#ifndef NAV_GRID_KEYS_H
#define NAV_GRID_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_halo_keys;     /* [run] halo_transport, halo_overlap, decomposition */
extern const nav_config_keys nav_grid_keys;     /* [grid] */
extern const nav_config_keys nav_boundary_keys; /* [boundary] */
extern const nav_config_section nav_grid_section, nav_boundary_section;

extern const char nav_rule_periodic_pairs[], nav_rule_dim2[], nav_rule_wall_velocity[], nav_rule_face_velocity[];

void nav_check_dims(nav_config_check *ck, nav_config *c);          /* nz = 1 in 2D */
void nav_check_periodic(nav_config_check *ck, nav_config *c);      /* periodic faces in pairs */
void nav_check_decomposition(nav_config_check *ck, nav_config *c); /* run.decomposition against the ranks */
void nav_check_grid(nav_config_check *ck, nav_config *c);          /* the spacing of each direction */
void nav_check_face_velocity(nav_config_check *ck, nav_config *c); /* wall and face velocities */

#endif
