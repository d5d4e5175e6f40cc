/* The keys of the DNS statistics ([statistics]: enabled, start_time, every, wall_normal) and their
 * cross-key check. The registry of sections (solvers/nav_sections.c) lists them. */
#include "physics/statistics/statistics_keys.h"

#include "core/nav_config_schema.h"

#include <string.h>

static const char *const nav_wall_normal_values[] = {"auto", "x", "y", "z", NULL};

static const nav_key nav_statistics_rows[] = {
    {"statistics", "enabled", NAV_KT_CHOICE, NAV_FIELD(statistics_enabled), "false",
     "true: time averages of the velocity, pressure and temperature, the six Reynolds stresses and the r.m.s. "
     "values from start_time on, sampled every `every` steps at the cell centres. A flow whose directions are "
     "all periodic but one wall-bounded direction (a channel) is also averaged over the periodic directions: "
     "profiles along the wall-normal direction in DIR/statistics.csv (both walls folded, wall units) and "
     "summary.json `statistics`; any other flow keeps the time averages at every cell (the HDF5 snapshots' "
     "mean_* and rms_* fields). The running sums are in the checkpoint: a restarted average equals the "
     "uninterrupted one.",
     .values = nav_bool_values},
    {"statistics", "start_time", NAV_KT_REAL, NAV_FIELD(statistics_start), "0",
     "Simulated time of the first sample (the first step that ends at t >= start_time); before the end_time.",
     NAV_ATLEAST(0)},
    {"statistics", "every", NAV_KT_LONG, NAV_FIELD(statistics_every), "1",
     "Steps between two samples (1: every step), counted from the step count 0 of the run.", NAV_ATLEAST(1)},
    {"statistics", "wall_normal", NAV_KT_CHOICE, NAV_FIELD(statistics_wall_normal), "auto",
     "The direction of the profiles: auto (the one direction with walls on both faces when every other "
     "direction is periodic; else no profiles, fields at the cells) or x, y, z (that direction must have walls "
     "on both faces and every other direction must be periodic).",
     .values = nav_wall_normal_values},
};

const nav_config_keys nav_statistics_keys = NAV_CONFIG_KEYS(nav_statistics_rows);

const nav_config_section nav_statistics_section = {
    .name = "statistics",
    .doc = "DNS statistics: time averages, Reynolds stresses and r.m.s. values (off unless enabled = true)."};

const char nav_rule_statistics[] =
    "`statistics.enabled = true` needs `run.method = projection` and a `start_time` before `time.end_time` (when "
    "that is set); an explicit `wall_normal` needs walls on both faces of that direction and periodic faces in "
    "every other direction.";

/* 1 if direction e of c has walls on both faces and every other direction is periodic. */
static int nav_statistics_wall_normal_ok(const nav_config *c, int e) {
  const int ndir = c->dim == 3 ? 3 : 2;
  if (e >= ndir || c->bc[e][0] != NAV_BC_WALL || c->bc[e][1] != NAV_BC_WALL) return 0;
  for (int d = 0; d < ndir; d++)
    if (d != e && c->bc[d][0] != NAV_BC_PERIODIC) return 0;
  return 1;
}

int nav_statistics_direction(const nav_config *c) {
  if (strcmp(c->statistics_wall_normal, "auto")) return c->statistics_wall_normal[0] - 'x';
  for (int e = 0; e < (c->dim == 3 ? 3 : 2); e++)
    if (nav_statistics_wall_normal_ok(c, e)) return e;
  return -1;
}

void nav_check_statistics(nav_config_check *ck, nav_config *c) {
  if (strcmp(c->statistics_enabled, "true")) return;
  const int on = nav_key_id(ck, "statistics", "enabled");
  if (!strcmp(c->method, "artificial_compressibility"))
    nav_conflict(ck, nav_later(ck, on, nav_key_id(ck, "run", "method")),
                 "statistics are time averages: method = artificial_compressibility has no time (use projection)");
  if (c->end_time > 0 && c->statistics_start >= c->end_time)
    nav_conflict(ck, nav_later(ck, nav_key_id(ck, "statistics", "start_time"), nav_key_id(ck, "time", "end_time")),
                 "start_time = %g is not before end_time = %g: the averaging window would be empty",
                 c->statistics_start, c->end_time);
  if (strcmp(c->statistics_wall_normal, "auto")) {
    const int e = c->statistics_wall_normal[0] - 'x', key = nav_key_id(ck, "statistics", "wall_normal");
    if (e >= (c->dim == 3 ? 3 : 2))
      nav_conflict(ck, nav_later(ck, key, nav_key_id(ck, "grid", "dim")),
                   "wall_normal = %s is not a direction of a %dD case", c->statistics_wall_normal, c->dim);
    else if (!nav_statistics_wall_normal_ok(c, e))
      nav_conflict(ck, key,
                   "wall_normal = %s: profiles need walls on both %s faces and periodic faces in every other "
                   "direction (%s_low = %s, %s_high = %s); use auto for time-averaged fields at the cells",
                   c->statistics_wall_normal, c->statistics_wall_normal, c->statistics_wall_normal,
                   nav_bc_values[c->bc[e][0]], c->statistics_wall_normal, nav_bc_values[c->bc[e][1]]);
  }
}
