/* The keys of the driven forcing ([physics] forcing, forcing_value, forcing_direction: a mean pressure
 * gradient or a held flow rate along a periodic direction) and their cross-key check. The registry of
 * sections (solvers/nav_sections.c) lists them after the [physics] keys of the fluid. */
#include "physics/drive/drive_keys.h"

#include <string.h>

static const char *const nav_forcing_values[] = {"none", "pressure_gradient", "flow_rate", NULL};
static const char *const nav_direction_values[] = {"x", "y", "z", NULL};

static const nav_key nav_drive_rows[] = {
    {"physics", "forcing", NAV_KT_CHOICE, NAV_FIELD(forcing), "none",
     "Drive a flow along the periodic direction forcing_direction: none, pressure_gradient (a constant mean "
     "pressure gradient: the body force forcing_value = -dP/dx in the momentum equation of that component) or "
     "flow_rate (the bulk velocity, the volume mean of that component, held at forcing_value exactly at every "
     "step by the mean pressure gradient that the step needs, found by linear superposition; that gradient is a "
     "monitor).",
     .values = nav_forcing_values},
    {"physics", "forcing_value", NAV_KT_REAL, NAV_FIELD(forcing_value), "0",
     "Mean pressure gradient -dP/dx (forcing = pressure_gradient) or bulk velocity (forcing = flow_rate).", NAV_ANY},
    {"physics", "forcing_direction", NAV_KT_CHOICE, NAV_FIELD(forcing_direction), "x",
     "The direction (and velocity component) of the forcing; both faces of it must be periodic.",
     .values = nav_direction_values},
};

const nav_config_keys nav_drive_keys = NAV_CONFIG_KEYS(nav_drive_rows);

const char nav_rule_forcing[] =
    "`forcing` other than `none` and `initial = poiseuille` need a periodic `forcing_direction`; `poiseuille` also "
    "needs another direction with walls on both faces, `kovasznay` needs `dim = 2`.";

/* The forcing, and the Poiseuille start that goes with it, need a periodic forcing_direction; Poiseuille also
 * walls across. */
void nav_check_drive(nav_config_check *ck, nav_config *c) {
  const int ndir = c->dim == 3 ? 3 : 2, initial = nav_key_id(ck, "physics", "initial");
  const int fkey = nav_key_id(ck, "physics", "forcing"), fdir = nav_key_id(ck, "physics", "forcing_direction");
  const int fd = c->forcing_direction[0] - 'x';
  const int chan = !strcmp(c->initial, "poiseuille") || !strcmp(c->initial, "channel");
  const int need_periodic = strcmp(c->forcing, "none") || chan;
  const int by = strcmp(c->forcing, "none") ? fkey : initial;
  if (need_periodic && fd >= ndir)
    nav_conflict(ck, nav_later(ck, nav_later(ck, by, fdir), nav_key_id(ck, "grid", "dim")),
                 "forcing_direction = %s is not a direction of a %dD case", c->forcing_direction, c->dim);
  else if (need_periodic && c->bc[fd][0] != NAV_BC_PERIODIC)
    nav_conflict(ck, nav_later(ck, nav_later(ck, by, fdir), nav_key_id(ck, "boundary", nav_face_name(fd, 0))),
                 "%s = %s needs a periodic forcing_direction, but %s is %s", by == fkey ? "forcing" : "initial",
                 by == fkey ? c->forcing : c->initial, nav_face_name(fd, 0), nav_bc_values[c->bc[fd][0]]);
  if (chan) {
    int walls = 0;
    for (int e = 0; e < ndir; e++)
      walls |= e != fd && c->bc[e][0] == NAV_BC_WALL && c->bc[e][1] == NAV_BC_WALL;
    if (!walls)
      nav_conflict(ck, nav_key_bad(ck, initial) ? -1 : initial,
                   "initial = %s needs a direction other than forcing_direction with walls on both faces", c->initial);
  }
}
