/* The keys of the Boussinesq temperature model ([temperature]: the input set, the initial field and the
 * temperature boundary of each face) and their cross-key check, which also derives the diffusivity and
 * the buoyancy vector. The registry of sections (solvers/nav_sections.c) lists them. */
#include "physics/heat/heat_keys.h"

#include <math.h>
#include <string.h>

/* Same order as nav_thermal_type. */
static const char *const nav_thermal_values[] = {"flux", "fixed", "periodic", NULL};
static const char *const nav_model_values[] = {"off", "boussinesq", NULL};
static const char *const nav_tinitial_values[] = {"uniform", "conduction", "wave", NULL};

#define NAV_TFACE(face, d, s, where)                                                                                   \
  {"temperature",                                                                                                      \
   #face,                                                                                                              \
   NAV_KT_ENUM,                                                                                                        \
   NAV_FIELD(tbc[d][s]),                                                                                               \
   "flux",                                                                                                             \
   "Temperature boundary of the face " where ": fixed (temperature " #face "_value), flux (heat flux " #face           \
   "_value into the domain, q = kappa dT/dn with n the outward normal, q > 0 heats the fluid; "                        \
   "0, the default, is adiabatic) or periodic (exactly where the velocity is periodic).",                              \
   .values = nav_thermal_values},                                                                                      \
  {                                                                                                                    \
    "temperature", #face "_value", NAV_KT_REAL, NAV_FIELD(tbc_value[d][s]), "0",                                       \
        "Wall temperature (" #face " = fixed) or heat flux into the domain (" #face " = flux).", NAV_ANY               \
  }

static const nav_key nav_heat_rows[] = {
    {"temperature", "model", NAV_KT_CHOICE, NAV_FIELD(model), "off",
     "off (no temperature) or boussinesq: a transported temperature T (advection-diffusion, same grid and "
     "time scheme as the velocity) and the body force -b (T - t_ref) on the velocity. Input either "
     "nondimensional (ra, pr) or dimensional (kappa, beta, gravity and physics.nu), not both.",
     .values = nav_model_values},
    {"temperature", "ra", NAV_KT_REAL, NAV_FIELD(ra), "0",
     "Nondimensional input: Rayleigh number Ra = g beta dT L^3 / (nu kappa). Scaling of de Vahl Davis: lengths "
     "by L, velocity by kappa/L, time by L^2/kappa, temperature (T - T_cold)/(T_hot - T_cold); then nu = Pr, "
     "kappa = 1 and b = Ra Pr g/|g|.",
     NAV_ATLEAST(0)},
    {"temperature", "pr", NAV_KT_REAL, NAV_FIELD(pr), "0",
     "Nondimensional input: Prandtl number nu / kappa (> 0 selects the nondimensional input; physics.nu "
     "becomes Pr); 0 = not given.",
     NAV_ATLEAST(0)},
    {"temperature", "gravity", NAV_KT_VEC3, NAV_FIELD(gravity), "0,-1,0",
     "Gravity g (x,y,z): the acceleration vector in the dimensional input, its direction only in the "
     "nondimensional input.",
     NAV_ANY},
    {"temperature", "beta", NAV_KT_REAL, NAV_FIELD(beta), "0",
     "Dimensional input: thermal expansion coefficient; the body force is -beta g (T - t_ref).", NAV_ANY},
    {"temperature", "kappa", NAV_KT_REAL, NAV_FIELD(kappa), "0",
     "Dimensional input: thermal diffusivity (> 0 selects the dimensional input); 0 = not given.", NAV_ATLEAST(0)},
    {"temperature", "t_ref", NAV_KT_REAL, NAV_FIELD(t_ref), "0",
     "Reference temperature, at which the buoyancy vanishes (only the hydrostatic pressure depends on it).", NAV_ANY},
    {"temperature", "initial", NAV_KT_CHOICE, NAV_FIELD(t_initial_field), "uniform",
     "Initial temperature: uniform (t_initial), conduction (linear between the two fixed faces of the first "
     "direction that has both faces fixed) or wave (t_initial + A sin(kx x') cos(ky y') [cos(kz z')], k_d = "
     "2 pi / l_d, x' = x - x0 - u t: the exact solution exp(-kappa |k|^2 t) of advection-diffusion by the "
     "uniform velocity; every face periodic).",
     .values = nav_tinitial_values},
    {"temperature", "t_initial", NAV_KT_REAL, NAV_FIELD(t_initial), "0",
     "Initial temperature of initial = uniform, and the mean of initial = wave.", NAV_ANY},
    {"temperature", "amplitude", NAV_KT_REAL, NAV_FIELD(t_amplitude), "0",
     "initial = wave: its amplitude A; uniform and conduction: the amplitude of the perturbation "
     "A cos(2 pi (x - x0) / lx) sin(pi (y - y0) / ly) added to them (the Rayleigh-Benard onset mode).",
     NAV_ANY},
    NAV_TFACE(x_low, 0, 0, "x = x0"),
    NAV_TFACE(x_high, 0, 1, "x = x0 + lx"),
    NAV_TFACE(y_low, 1, 0, "y = y0"),
    NAV_TFACE(y_high, 1, 1, "y = y0 + ly"),
    NAV_TFACE(z_low, 2, 0, "z = z0 (3D only)"),
    NAV_TFACE(z_high, 2, 1, "z = z0 + lz (3D only)"),
};

const nav_config_keys nav_heat_keys = NAV_CONFIG_KEYS(nav_heat_rows);

const nav_config_section nav_heat_section = {
    .name = "temperature",
    .doc = "Boussinesq buoyancy: a transported temperature and its boundaries (off unless model = boussinesq)."};

/* The paragraph of "## Scaling" in docs/case-file.md. */
const char nav_heat_scaling[] =
    "With `[temperature] model = boussinesq` the velocity also feels the body force -b (T - t_ref) of a "
    "transported temperature T, dT/dt + div(u T) = kappa lap T. Two inputs: dimensional (`kappa`, `beta`, "
    "`gravity`, `physics.nu`; b = beta g) or nondimensional in the scaling of de Vahl Davis (1983): lengths by "
    "L, velocity by kappa/L, time by L^2/kappa, temperature theta = (T - T_cold)/(T_hot - T_cold); then "
    "nu = Pr, kappa = 1 and b = Ra Pr g/|g| (`ra`, `pr`; `gravity` gives the direction), so that the fixed "
    "wall temperatures are 1 (hot) and 0 (cold) and a unit square has L = 1. The monitors report the mean "
    "Nusselt number of each fixed-temperature face whose opposite face is fixed at another temperature, "
    "Nu = mean(-dT/dx_d) l_d / (T_low - T_high), and the largest u on the plane x = x0 + lx/2 (along y) and v "
    "on y = y0 + ly/2 (along x; z = z0 + lz/2 in 3D) in the de Vahl Davis scaling u lx / kappa, with their "
    "positions scaled by the domain lengths.";

const char nav_rule_heat_input[] =
    "`temperature.model = boussinesq` takes either the nondimensional input (`pr` > 0, with `ra`) or the "
    "dimensional input (`kappa` > 0, with `beta`, `gravity`, `physics.nu`): giving `pr` and `kappa`, neither, "
    "`beta` or a `physics.nu` other than `pr` with `pr`, or `ra` with `kappa` is an error.";

const char nav_rule_heat_faces[] =
    "With `temperature.model = boussinesq` a temperature face is periodic if and only if its velocity face is; "
    "`temperature.initial = conduction` needs a direction with both faces `fixed`, `wave` needs every face periodic.";

_Static_assert(sizeof(nav_thermal_type) == sizeof(int), "NAV_KT_ENUM stores enums as int");

/* [temperature]: the input set (nondimensional or dimensional), the faces and the initial field; then the
 * derived diffusivity and buoyancy vector, and physics.nu = pr in the nondimensional input. */
void nav_check_temperature(nav_config_check *ck, nav_config *c) {
  c->diffusivity = 0;
  memset(c->buoyancy, 0, sizeof c->buoyancy);
  const int model = nav_key_id(ck, "temperature", "model"), pr = nav_key_id(ck, "temperature", "pr");
  const int kappa = nav_key_id(ck, "temperature", "kappa"), ra = nav_key_id(ck, "temperature", "ra");
  const int beta = nav_key_id(ck, "temperature", "beta"), nu = nav_key_id(ck, "physics", "nu");
  const int grav = nav_key_id(ck, "temperature", "gravity"), tinit = nav_key_id(ck, "temperature", "initial");
  if (strcmp(c->model, "boussinesq")) return;
  const int ndir = c->dim == 3 ? 3 : 2;
  const double *g = c->gravity, gn = sqrt(g[0] * g[0] + g[1] * g[1] + (ndir == 3 ? g[2] * g[2] : 0));
  if (ndir == 2 && g[2] != 0)
    nav_conflict(ck, nav_later(ck, grav, nav_key_id(ck, "grid", "dim")),
                 "a 2D case has no z component of gravity, got %g", g[2]);
  if (c->pr > 0 && c->kappa > 0) {
    nav_conflict(ck, nav_later(ck, pr, kappa),
                 "both inputs given: pr (nondimensional, with ra) and kappa (dimensional, with beta, gravity, "
                 "physics.nu); give one");
  } else if (c->pr == 0 && c->kappa == 0) {
    nav_conflict(ck, nav_key_bad(ck, model) ? -1 : model,
                 "model = boussinesq needs the nondimensional input (ra, pr > 0) or the dimensional input "
                 "(kappa > 0, beta, gravity, physics.nu)");
  } else if (c->pr > 0) { /* nondimensional: nu = Pr, kappa = 1, b = Ra Pr g/|g| */
    if (c->beta != 0)
      nav_conflict(
          ck, nav_later(ck, pr, beta),
          "beta belongs to the dimensional input; with pr (nondimensional) the buoyancy is Ra Pr, got beta = %g",
          c->beta);
    if (nav_key_given(ck, nu) && c->nu != c->pr)
      nav_conflict(ck, nav_later(ck, pr, nu), "in the nondimensional input nu = Pr = %g, got physics.nu = %g", c->pr,
                   c->nu);
    if (c->ra > 0 && gn == 0)
      nav_conflict(ck, nav_later(ck, ra, grav), "ra > 0 needs a direction of gravity, got 0,0,0");
    c->nu = c->pr;
    c->diffusivity = 1;
    for (int d = 0; d < ndir && gn > 0; d++)
      c->buoyancy[d] = c->ra * c->pr * g[d] / gn;
  } else { /* dimensional: b = beta g */
    if (c->ra != 0)
      nav_conflict(ck, nav_later(ck, kappa, ra),
                   "ra belongs to the nondimensional input (with pr); with kappa give beta and gravity, got ra = %g",
                   c->ra);
    c->diffusivity = c->kappa;
    for (int d = 0; d < ndir; d++)
      c->buoyancy[d] = c->beta * g[d];
  }
  int both_fixed = 0, all_periodic = 1;
  for (int d = 0; d < ndir; d++) {
    for (int s = 0; s < 2; s++) {
      const int vper = c->bc[d][s] == NAV_BC_PERIODIC, tper = c->tbc[d][s] == NAV_THERMAL_PERIODIC;
      all_periodic &= tper;
      if (vper != tper)
        nav_conflict(ck,
                     nav_later(ck, nav_key_id(ck, "boundary", nav_face_name(d, s)),
                               nav_key_id(ck, "temperature", nav_face_name(d, s))),
                     "the temperature face %s is %s but its velocity face is %s: periodic goes with periodic",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]], nav_bc_values[c->bc[d][s]]);
      const int tkey = nav_key_id(ck, "temperature", nav_face_name(d, s)),
                vkey = nav_key_id(ck, "boundary", nav_face_name(d, s));
      if (c->bc[d][s] == NAV_BC_INFLOW && c->tbc[d][s] != NAV_THERMAL_FIXED)
        nav_conflict(ck, nav_later(ck, vkey, tkey), "%s is an inflow: its temperature must be fixed, got %s",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]]);
      if (c->bc[d][s] == NAV_BC_OUTFLOW && (c->tbc[d][s] != NAV_THERMAL_FLUX || c->tbc_value[d][s] != 0))
        nav_conflict(ck, nav_later(ck, vkey, tkey),
                     "%s is an outflow: its temperature takes a zero normal gradient (flux with value 0), got %s %g",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]], c->tbc_value[d][s]);
    }
    both_fixed |= c->tbc[d][0] == NAV_THERMAL_FIXED && c->tbc[d][1] == NAV_THERMAL_FIXED;
  }
  if (!strcmp(c->t_initial_field, "conduction") && !both_fixed)
    nav_conflict(ck, nav_key_bad(ck, tinit) ? -1 : tinit,
                 "initial = conduction needs a direction whose two temperature faces are fixed");
  if (!strcmp(c->t_initial_field, "wave") && !all_periodic)
    nav_conflict(ck, nav_key_bad(ck, tinit) ? -1 : tinit, "initial = wave needs every temperature face periodic");
}
