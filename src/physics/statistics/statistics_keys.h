/* The keys of the DNS statistics ([statistics]) and their check; solvers/nav_sections.c registers them
 * (core/nav_config_schema.h has the types; named by their struct tags here, so that the model, which
 * includes the backend's point headers and their NAV_FIELD, can include this header too). */
#ifndef NAV_STATISTICS_KEYS_H
#define NAV_STATISTICS_KEYS_H

#include "core/nav_config.h"

struct nav_config_keys;
struct nav_config_section;
struct nav_config_check;

extern const struct nav_config_keys nav_statistics_keys;
extern const struct nav_config_section nav_statistics_section;
extern const char nav_rule_statistics[];
void nav_check_statistics(struct nav_config_check *ck, nav_config *c); /* method, the window, wall_normal */

/* The direction of the profiles of cfg's statistics: the wall-normal direction e (walls on both faces, every
 * other direction periodic), or -1 (no such direction: time-averaged fields at the cells). wall_normal = auto
 * takes the one direction that qualifies; an explicit x, y, z is taken as given (the check refuses one that
 * does not qualify). Not collective. */
int nav_statistics_direction(const nav_config *c);

#endif
