/* The registry of the case file's sections: every module's keys, checks and rules, listed in one place
 * above all of them, and the three entry points that hand this schema to the core.
 *
 * Why here: the core (core/nav_config.c) parses and checks any schema but may name no module (no arrow
 * runs up from core/), so the list is assembled above the modules. nav_config_defaults,
 * nav_config_load and nav_config_markdown keep their declarations in core/nav_config.h and their
 * callers (app/, tests/, fuzzers, bench/) stay as they were; only their definitions live here, as calls
 * of the core's *_schema functions with nav_schema. The configuration remembers its schema
 * (cfg->schema), so the core's other functions (print, value, where) need nothing from here.
 *
 * Adding a model's keys: one file beside the model (physics/<model>/<model>_keys.c, with its rows,
 * section, checks and rules) and a line in each list below that it contributes to. The orders are part of
 * the product: the echo and docs/case-file.md follow nav_sections; `navier run`'s list of changed keys
 * and the rows' origins follow nav_blocks; errors are reported in the order of nav_checks. */
#include "core/nav_config_schema.h"
#include "grid/grid_keys.h"
#include "physics/bodies/body_keys.h"
#include "physics/drive/drive_keys.h"
#include "physics/heat/heat_keys.h"
#include "physics/statistics/statistics_keys.h"
#include "physics/turbulence/turbulence_keys.h"
#include "solvers/flow_keys.h"
#include "solvers/poisson/pressure_keys.h"

#define NAV_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* sections, in the order of the echo and of the reference */
static const nav_config_section *const nav_sections[] = {
    &nav_run_section,        &nav_grid_section,     &nav_time_section,   &nav_physics_section,
    &nav_boundary_section,   &nav_pressure_section, &nav_output_section, &nav_heat_section,
    &nav_turbulence_section, &nav_body_section,     &nav_bodies_section, &nav_forces_section,
    &nav_statistics_section,
};

/* blocks of rows, in row order */
static const nav_config_keys *const nav_blocks[] = {
    &nav_run_keys,        /* [run] name, backend */
    &nav_halo_keys,       /* [run] halo_transport, halo_overlap, decomposition */
    &nav_grid_keys,       /* [grid] */
    &nav_time_keys,       /* [time] */
    &nav_physics_keys,    /* [physics] nu, initial field */
    &nav_drive_keys,      /* [physics] forcing */
    &nav_nut_keys,        /* [physics] nu_t */
    &nav_boundary_keys,   /* [boundary] */
    &nav_pressure_keys,   /* [pressure] */
    &nav_output_keys,     /* [output] */
    &nav_stop_keys,       /* [time] max_cfl */
    &nav_heat_keys,       /* [temperature] */
    &nav_method_keys,     /* [run] method, ac_* */
    &nav_turbulence_keys, /* [turbulence] */
    &nav_body_keys,       /* [body.N] */
    &nav_bodies_keys,     /* [bodies], [forces] */
    &nav_statistics_keys, /* [statistics] */
};

/* cross-key checks, in the order they report */
static const nav_config_check_fn nav_checks[] = {
    nav_check_dims,          /* grid: nz = 1 in 2D */
    nav_check_periodic,      /* grid: periodic faces in pairs */
    nav_check_stop,          /* flow: a stop criterion */
    nav_check_decomposition, /* grid: the split over the ranks */
    nav_check_output,        /* flow: formats of this build */
    nav_check_grid,          /* grid: the spacing of each direction */
    nav_check_method,        /* flow: artificial compressibility */
    nav_check_sweeps,        /* flow: diffusion_sweeps */
    nav_check_turbulence,    /* turbulence */
    nav_check_initial,       /* flow: abc, shear_wave, pulse, taylor_green(_3d), initial_file */
    nav_check_face_velocity, /* grid: wall and face velocities */
    nav_check_temperature,   /* heat (sets diffusivity, buoyancy, nu = pr) */
    nav_check_inflow,        /* flow: inflow and outflow faces */
    nav_check_drive,         /* drive: a periodic forcing_direction */
    nav_check_kovasznay,     /* flow: kovasznay in 2D */
    nav_check_bodies,        /* bodies (sets nbodies) */
    nav_check_nu_t,          /* flow: nu_t = linear >= 0 */
    nav_check_statistics,    /* statistics */
};

/* the consistency rules of the reference, in its order */
static const char *const nav_rules[] = {
    nav_rule_periodic_pairs, /* grid */
    nav_rule_dim2,           /* grid */
    nav_rule_stop,           /* flow */
    nav_rule_initial,        /* flow */
    nav_rule_shear_wave,     /* flow */
    nav_rule_wall_velocity,  /* grid */
    nav_rule_face_velocity,  /* grid */
    nav_rule_inflow,         /* flow */
    nav_rule_forcing,        /* drive */
    nav_rule_format,         /* flow */
    nav_rule_heat_input,     /* heat */
    nav_rule_heat_faces,     /* heat */
    nav_rule_nu_t,           /* flow */
    nav_rule_turbulence,     /* turbulence */
    nav_rule_bodies,         /* bodies */
    nav_rule_statistics,     /* statistics */
};

static const char *const nav_scaling[] = {nav_flow_scaling, nav_heat_scaling};

static const nav_config_schema nav_schema = {.sections = nav_sections,
                                             .nsections = NAV_LEN(nav_sections),
                                             .blocks = nav_blocks,
                                             .nblocks = NAV_LEN(nav_blocks),
                                             .checks = nav_checks,
                                             .nchecks = NAV_LEN(nav_checks),
                                             .rules = nav_rules,
                                             .nrules = NAV_LEN(nav_rules),
                                             .scaling = nav_scaling,
                                             .nscaling = NAV_LEN(nav_scaling)};

void nav_config_defaults(nav_config *cfg) { nav_config_defaults_schema(cfg, &nav_schema); }

nav_err nav_config_load(nav_config *cfg, const char *path, int nset, char *const *sets, nav_config_errors *errs) {
  return nav_config_load_schema(cfg, &nav_schema, path, nset, sets, errs);
}

void nav_config_markdown(FILE *out) { nav_config_markdown_schema(out, &nav_schema); }
