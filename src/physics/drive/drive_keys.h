/* The keys of the driven forcing ([physics] forcing, forcing_value, forcing_direction) and their check;
 * solvers/nav_sections.c registers them (core/nav_config_schema.h has the types). */
#ifndef NAV_DRIVE_KEYS_H
#define NAV_DRIVE_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_drive_keys;
extern const char nav_rule_forcing[];
void nav_check_drive(nav_config_check *ck, nav_config *c); /* a periodic forcing_direction */

#endif
