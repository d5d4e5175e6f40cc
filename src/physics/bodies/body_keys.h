/* The keys of the immersed bodies ([body.N], [bodies], [forces]) and their check; solvers/nav_sections.c
 * registers them (core/nav_config_schema.h has the types). */
#ifndef NAV_BODY_KEYS_H
#define NAV_BODY_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_body_keys;   /* [body.N] */
extern const nav_config_keys nav_bodies_keys; /* [bodies], [forces] */
extern const nav_config_section nav_body_section, nav_bodies_section, nav_forces_section;
extern const char nav_rule_bodies[];
/* Numbered without gaps, a kind for every body given, shapes of the dimension, inside the domain; sets
 * cfg->nbodies. */
void nav_check_bodies(nav_config_check *ck, nav_config *c);

#endif
