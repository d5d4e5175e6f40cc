/* The keys of the turbulence models ([turbulence]: k-omega SST, its inflow and initial values and the
 * relaxation of nu_t; the LES closures and their constants) and their cross-key checks. The registry of sections (solvers/nav_sections.c)
 * lists them. */
#include "physics/turbulence/turbulence_keys.h"

#include <math.h>
#include <string.h>

static const char *const nav_turbulence_values[] = {"off", "k_omega_sst", "smagorinsky", "wale", "vreman", NULL};

static const nav_key nav_turbulence_rows[] = {
    {"turbulence", "model", NAV_KT_CHOICE, NAV_FIELD(turbulence_model), "off",
     "off, or k_omega_sst: Menter's k-omega SST model in the SST-2003 form of the NASA Turbulence Modeling "
     "Resource (docs/design.md); k and omega transported (upwind advection, implicit diffusion with nu + sigma "
     "nu_t, linearised implicit sinks), nu_t = a1 k / max(a1 omega, S F2) added to nu in the momentum equation. "
     "Walls: k = 0, omega = 60 nu / (beta1 d1^2) at the wall (d1: wall to first cell centre). "
     "smagorinsky, wale, vreman: LES eddy-viscosity closures (docs/design.md, physics/turbulence/nav_les.h): nu_t "
     "at the cells from the resolved velocity gradient, filter width Delta = (dx dy dz)^(1/3) of the cell, "
     "nu_t >= 0, 0 at no-slip walls (the wall shear takes nu alone); smagorinsky nu_t = (Cs Delta D)^2 |S| with van "
     "Driest's D = 1 - exp(-y+/26), u_tau from the "
     "mean resolved wall shear of the nearest wall; wale (Nicoud & Ducros 1999); vreman (Vreman 2004).",
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
    {"turbulence", "smagorinsky_cs", NAV_KT_REAL, NAV_FIELD(smagorinsky_cs), "0.17",
     "Smagorinsky constant Cs of model = smagorinsky (Lilly 1967's estimate for isotropic turbulence, 0.17).",
     NAV_RANGE(0, 1, 0.5, 0)},
    {"turbulence", "wale_cw", NAV_KT_REAL, NAV_FIELD(wale_cw), "0.325",
     "WALE constant Cw of model = wale (0.325: the default of OpenFOAM and Fluent, calibrated on the channel; "
     "Nicoud & Ducros 1999 derive Cw^2 = 10.6 Cs^2 from isotropic turbulence, 0.55 for Cs = 0.17).",
     NAV_RANGE(0, 1, 1, 0)},
    {"turbulence", "vreman_c", NAV_KT_REAL, NAV_FIELD(vreman_c), "0.07",
     "Vreman constant c of model = vreman (Vreman 2004: c = 2.5 Cs^2, 0.07 for Cs = 0.17).", NAV_RANGE(0, 1, 0.5, 0)},
    {"turbulence", "prandtl_t", NAV_KT_REAL, NAV_FIELD(prandtl_t), "0.85",
     "Turbulent Prandtl number Pr_t of the LES closures with a temperature (temperature.model = boussinesq): T "
     "diffuses with kappa + nu_t / Pr_t, nu_t interpolated to the faces as in the momentum's viscous term, no "
     "eddy flux through walls, inflow and outflow faces (backend/common/nav_point_scalar.h). 0.85: OpenFOAM's "
     "Prt of alphat; a large value leaves the molecular kappa alone.",
     NAV_ABOVE(0)},
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
    "forcing_value of flow_rate and sqrt(|forcing_value| l) of pressure_gradient (l the smallest domain length). "
    "`turbulence.model = smagorinsky | wale | vreman` (LES) needs `run.method = projection` and `physics.nu_t = "
    "none`; with `temperature.model = boussinesq` (eddy diffusivity nu_t / `prandtl_t`) it needs "
    "`time.diffusion = explicit`.";

/* The LES closures: time-accurate projection only, nu_t their own; with a temperature, explicit diffusion (the
 * temperature's implicit solve has a constant diffusivity, not kappa + nu_t / Pr_t). */
static void nav_check_les(nav_config_check *ck, nav_config *c) {
  const int model = nav_key_id(ck, "turbulence", "model");
  const char *m = c->turbulence_model;
  if (!strcmp(c->method, "artificial_compressibility"))
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "run", "method")),
                 "turbulence.model = %s (LES) is time-accurate: run.method must be projection, got %s", m, c->method);
  if (strcmp(c->nu_t, "none"))
    nav_conflict(ck, nav_later(ck, model, nav_key_id(ck, "physics", "nu_t")),
                 "turbulence.model = %s computes nu_t: physics.nu_t must be none, got %s", m, c->nu_t);
  if (strcmp(c->model, "off") && !strcmp(c->diffusion, "implicit"))
    nav_conflict(ck,
                 nav_later(ck, nav_later(ck, model, nav_key_id(ck, "temperature", "model")),
                           nav_key_id(ck, "time", "diffusion")),
                 "turbulence.model = %s with temperature.model = %s: the temperature's eddy diffusivity nu_t / Pr_t "
                 "is explicit only (its implicit solve has a constant kappa): time.diffusion must be explicit, got "
                 "implicit",
                 m, c->model);
}

/* [turbulence]: the model runs with the projection, replaces a prescribed nu_t, and needs walls (its
 * wall distance) or a flow that something drives (SST); the LES closures' checks. */
void nav_check_turbulence(nav_config_check *ck, nav_config *c) {
  if (!strcmp(c->turbulence_model, "smagorinsky") || !strcmp(c->turbulence_model, "wale") ||
      !strcmp(c->turbulence_model, "vreman")) {
    nav_check_les(ck, c);
    return;
  }
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
