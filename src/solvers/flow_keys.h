/* The keys of the flow solver ([run], [time], [physics], [output]) and their cross-key checks;
 * solvers/nav_sections.c registers them (core/nav_config_schema.h has the types). */
#ifndef NAV_FLOW_KEYS_H
#define NAV_FLOW_KEYS_H

#include "core/nav_config_schema.h"

extern const nav_config_keys nav_run_keys;     /* [run] name, backend */
extern const nav_config_keys nav_time_keys;    /* [time] step, stops, diffusion */
extern const nav_config_keys nav_physics_keys; /* [physics] nu, initial field */
extern const nav_config_keys nav_nut_keys;     /* [physics] prescribed eddy viscosity */
extern const nav_config_keys nav_output_keys;  /* [output] */
extern const nav_config_keys nav_stop_keys;    /* [time] max_cfl */
extern const nav_config_keys nav_method_keys;  /* [run] method, artificial compressibility */
extern const nav_config_section nav_run_section, nav_time_section, nav_physics_section, nav_output_section;

extern const char nav_flow_scaling[]; /* the Reynolds number, for "## Scaling" of the reference */
extern const char nav_rule_stop[], nav_rule_initial[], nav_rule_shear_wave[], nav_rule_inflow[], nav_rule_format[],
    nav_rule_nu_t[];

void nav_check_stop(nav_config_check *ck, nav_config *c);      /* a stop criterion */
void nav_check_output(nav_config_check *ck, nav_config *c);    /* formats this build writes */
void nav_check_method(nav_config_check *ck, nav_config *c);    /* artificial compressibility */
void nav_check_sweeps(nav_config_check *ck, nav_config *c);    /* time.diffusion_sweeps */
void nav_check_initial(nav_config_check *ck, nav_config *c);   /* abc, shear_wave, taylor_green */
void nav_check_inflow(nav_config_check *ck, nav_config *c);    /* inflow and outflow faces, profiles */
void nav_check_kovasznay(nav_config_check *ck, nav_config *c); /* initial = kovasznay in 2D */
void nav_check_nu_t(nav_config_check *ck, nav_config *c);      /* physics.nu_t = linear >= 0 */

#endif
