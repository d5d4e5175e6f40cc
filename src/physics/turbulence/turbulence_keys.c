/* The keys of the RANS turbulence model ([turbulence]: k-omega SST, its inflow and initial values and the
 * relaxation of nu_t) and their cross-key check. The registry of sections (solvers/nav_sections.c)
 * lists them. */
#include "physics/turbulence/turbulence_keys.h"

#include <math.h>
#include <string.h>

static const char *const nav_turbulence_values[] = {"off", "k_omega_sst", NULL};

static const nav_key nav_turbulence_rows[] = {
    {"turbulence", "model", NAV_KT_CHOICE, NAV_FIELD(turbulence_model), "off",
     "off, or k_omega_sst: Menter's k-omega SST model in the SST-2003 form of the NASA Turbulence Modeling "
     "Resource (docs/design.md); k and omega transported (upwind advection, implicit diffusion with nu + sigma "
     "nu_t, linearised implicit sinks), nu_t = a1 k / max(a1 omega, S F2) added to nu in the momentum equation. "
     "Walls: k = 0, omega = 60 nu / (beta1 d1^2) at the wall (d1: wall to first cell centre).",
     .values = nav_turbulence_values},
    {"turbulence", "intensity", NAV_KT_REAL, NAV_FIELD(intensity), "0.05",
     "Turbulence intensity I of the inflow faces and of the initial field: k = 1.5 (I U)^2 with U the inflow "
     "speed of the face (initial field: the velocity scale of the case, docs/case-file.md rules).",
     NAV_ATLEAST(0)},
    {"turbulence", "length_scale", NAV_KT_REAL, NAV_FIELD(length_scale), "0",
     "Turbulence length scale L of the inflow faces and of the initial field: omega = sqrt(k) / (beta*^(1/4) L); "
     "0 = a tenth of the smallest domain length.",
     NAV_ATLEAST(0)},
    {"turbulence", "nut_relaxation", NAV_KT_REAL, NAV_FIELD(nut_relaxation), "1",
     "The eddy viscosity of the momentum equation after each step: nu_t <- a nu_t(model) + (1 - a) nu_t. 1 = the "
     "model's (time-accurate); 0.2 damps the flip-flop of k and nu_t that large implicit steps towards a steady "
     "state excite (the channel cases: 240 and 370 steps; 0.5: 3220 at Re_tau 5200; the steady state does not "
     "depend on it).",
     NAV_RANGE(0, 1, 1, 0)},
    {"turbulence", "k_initial", NAV_KT_REAL, NAV_FIELD(k_initial), "0",
     "Uniform initial k; 0 = from intensity and the velocity scale.", NAV_ATLEAST(0)},
    {"turbulence", "omega_initial", NAV_KT_REAL, NAV_FIELD(omega_initial), "0",
     "Uniform initial omega; 0 = from k and length_scale.", NAV_ATLEAST(0)},
};

const nav_config_keys nav_turbulence_keys = NAV_CONFIG_KEYS(nav_turbulence_rows);

const nav_config_section nav_turbulence_section = {.name = "turbulence",
                                                   .doc = "RANS turbulence model (off unless model = k_omega_sst)."};

const char nav_rule_turbulence[] =
    "`turbulence.model = k_omega_sst` needs `run.method = projection`, `physics.nu_t = none`, and a wall face or a "
    "driven flow (`physics.forcing` other than `none`, or an inflow face). Its initial k is `k_initial`, else "
    "1.5 (intensity U)^2 with U the largest of the initial velocity amplitude, the wall and inflow speeds, the "
    "forcing_value of flow_rate and sqrt(|forcing_value| l) of pressure_gradient (l the smallest domain length).";

/* [turbulence]: the model runs with the projection, replaces a prescribed nu_t, and needs walls (its
 * wall distance) or a flow that something drives. */
void nav_check_turbulence(nav_config_check *ck, nav_config *c) {
  if (strcmp(c->turbulence_model, "k_omega_sst")) return;
  const int model = nav_key_id(ck, "turbulence", "model");
  if (!strcmp(c->method, "artificial_compressibility"))
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "run", "method")),
                 "turbulence.model = k_omega_sst runs with method = projection (large implicit steps reach the steady "
                 "state: time.diffusion = implicit, diffusion_theta = 1), got %s",
                 c->method);
  if (strcmp(c->nu_t, "none"))
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "physics", "nu_t")),
                 "turbulence.model = k_omega_sst computes nu_t: physics.nu_t must be none, got %s", c->nu_t);
  int walls = 0, inflow = 0;
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++)
    for (int s = 0; s < 2; s++) {
      walls += c->bc[d][s] == NAV_BC_WALL;
      inflow += c->bc[d][s] == NAV_BC_INFLOW;
    }
  if (!walls && !inflow && !strcmp(c->forcing, "none"))
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "physics", "forcing")),
                 "turbulence.model = k_omega_sst needs a wall face (the wall distance of its blending) or a driven "
                 "flow (physics.forcing, an inflow face): this case has neither");
  double speed = 0; /* the wall speeds */
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++)
    for (int s = 0; s < 2; s++)
      for (int q = 0; q < 3; q++)
        speed = fmax(speed, fabs(c->wall_velocity[d][s][q]));
  if (!inflow && !strcmp(c->forcing, "none") && !strcmp(c->initial, "rest") && speed == 0 && c->omega_initial == 0 &&
      c->k_initial == 0)
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "physics", "initial")),
                 "turbulence.model = k_omega_sst: nothing sets the initial k and omega (the case is at rest with no "
                 "forcing, inflow or moving wall): set turbulence.k_initial or omega_initial");
}
