/* The keys of the RANS turbulence model ([turbulence]) and their check; solvers/nav_sections.c registers
 * them (core/nav_config_schema.h has the types). */
#ifndef NAV_TURBULENCE_KEYS_H
#define NAV_TURBULENCE_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_turbulence_keys;
extern const nav_config_section nav_turbulence_section;
extern const char nav_rule_turbulence[];
void nav_check_turbulence(nav_config_check *ck, nav_config *c); /* method, nu_t, walls or a driven flow */

#endif
