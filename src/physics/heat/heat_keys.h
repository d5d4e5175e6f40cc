/* The keys of the Boussinesq temperature model ([temperature]) and their check; solvers/nav_sections.c
 * registers them (core/nav_config_schema.h has the types). */
#ifndef NAV_HEAT_KEYS_H
#define NAV_HEAT_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_heat_keys;
extern const nav_config_section nav_heat_section;
extern const char nav_heat_scaling[]; /* the nondimensional input, for "## Scaling" of the reference */
extern const char nav_rule_heat_input[], nav_rule_heat_faces[];
/* The input set, the faces and the initial field; sets cfg's diffusivity and buoyancy, and nu = pr in the
 * nondimensional input. */
void nav_check_temperature(nav_config_check *ck, nav_config *c);

#endif
