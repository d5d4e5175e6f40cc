/* The keys of the pressure Poisson solve ([pressure]); solvers/nav_sections.c registers them
 * (core/nav_config_schema.h has the types). */
#ifndef NAV_PRESSURE_KEYS_H
#define NAV_PRESSURE_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_pressure_keys;
extern const nav_config_section nav_pressure_section;

#endif
