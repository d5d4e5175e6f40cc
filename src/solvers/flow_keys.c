/* The keys of the flow solver and their cross-key checks: [run] (the case's name, the backend, the method
 * and artificial compressibility, solvers/nav_ac.h), [time] (step, stops, diffusion scheme,
 * solvers/nav_diffusion.h), [physics] (fluid, initial field, prescribed eddy viscosity), [output], and the
 * checks of the inflow profiles (solvers/nav_open.h) and of the initial fields. The registry of sections
 * (solvers/nav_sections.c) lists them. */
#include "solvers/flow_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/nav_table.h"

static const char *const nav_backend_values[] = {"auto", "cpu", "cuda", NULL};
static const char *const nav_initial_values[] = {"rest",      "taylor_green", "abc",        "uniform",
                                                 "kovasznay", "poiseuille",   "shear_wave", "pulse",
                                                 "taylor_green_3d", "channel", "file",      NULL};
static const char *const nav_channel_profile_values[] = {"laminar", "log_law", NULL};
static const char *const nav_nut_values[] = {"none", "linear", NULL};
static const char *const nav_diffusion_values[] = {"explicit", "implicit", NULL};
static const char *const nav_format_values[] = {"auto", "vtk", "hdf5", "both", NULL};
static const char *const nav_method_values[] = {"projection", "artificial_compressibility", NULL};
static const char *const nav_ac_cycle_values[] = {"v", "w", "f", NULL};

/* [run]: the case and where it runs */
static const nav_key nav_run_rows[] = {
    {"run", "name", NAV_KT_NAME, NAV_FIELD(name), "cavity2d_re100",
     "Case name: written to summary.json; the default output folder is output/<name>.", .values = NULL},
    {"run", "backend", NAV_KT_CHOICE, NAV_FIELD(backend), "auto",
     "Compute backend: cpu (OpenMP), cuda (GPU), or auto (cuda when a GPU is visible and the CUDA backend is built, "
     "else cpu).",
     .values = nav_backend_values},
};

static const nav_key nav_time_rows[] = {
    {"time", "dt", NAV_KT_REAL, NAV_FIELD(dt), "0",
     "Fixed time step; 0 = adaptive, the largest step that cfl and fourier allow.", NAV_ATLEAST(0)},
    {"time", "cfl", NAV_KT_REAL, NAV_FIELD(cfl), "0.5",
     "Advective limit of the adaptive step: dt <= cfl / max(sum_d |u_d| / h_d) (the wall speeds count too).",
     NAV_RANGE(0, 1, 1, 0)},
    {"time", "fourier", NAV_KT_REAL, NAV_FIELD(fourier), "0.24",
     "Viscous limit of the adaptive step: dt <= fourier / (nu max(sum_d 1 / h_d^2)); the Adams-Bashforth "
     "scheme is stable up to 0.25.",
     NAV_RANGE(0, 1, 0.25, 0)},
    {"time", "end_time", NAV_KT_REAL, NAV_FIELD(end_time), "0", "Stop at this simulated time; 0 = no limit.",
     NAV_ATLEAST(0)},
    {"time", "max_steps", NAV_KT_LONG, NAV_FIELD(max_steps), "0", "Stop after this many time steps; 0 = no limit.",
     NAV_ATLEAST(0)},
    {"time", "steady_tol", NAV_KT_REAL, NAV_FIELD(steady_tol), "1e-5",
     "Stop at steady state, when max|u^{n+1} - u^n| / (dt max|u|) < steady_tol (with a temperature, or a "
     "turbulence model, the same measure of T, k and omega counts too); 0 = off.",
     NAV_ATLEAST(0)},
    {"time", "diffusion", NAV_KT_CHOICE, NAV_FIELD(diffusion), "explicit",
     "Time integration of the viscous term and of the heat diffusion: explicit (Adams-Bashforth 2 with "
     "everything else; dt limited by fourier) or implicit (Crank-Nicolson, two backward-Euler steps at the "
     "start, with an incremental pressure correction; each component and the temperature solved by the "
     "multigrid as a Helmholtz problem; the adaptive dt then follows cfl alone, from the explicit limit at "
     "the first step growing by at most 10 % per step). Temporal order 2 either way. Projection only: artificial "
     "compressibility (steady) ignores it.",
     .values = nav_diffusion_values},
    {"time", "diffusion_tolerance", NAV_KT_REAL, NAV_FIELD(diffusion_tolerance), "1e-8",
     "diffusion = implicit: relative residual at which each Helmholtz solve stops (multigrid V(2,2) cycles, at "
     "most pressure.max_iterations).",
     NAV_RANGE(0, 1, 1, 1)},
    {"time", "diffusion_theta", NAV_KT_REAL, NAV_FIELD(diffusion_theta), "0.5",
     "diffusion = implicit: the implicit weight theta of the diffusion after the first two (backward-Euler) "
     "steps: 0.5 Crank-Nicolson (second order in time), 1 backward Euler (first order, L-stable: the choice for "
     "large pseudo-time steps towards a steady state, where Crank-Nicolson only flips the stiff modes).",
     NAV_RANGE(0.5, 0, 1, 0)},
    {"time", "diffusion_sweeps", NAV_KT_INT, NAV_FIELD(diffusion_sweeps), "0",
     "diffusion = implicit: 0 solves each Helmholtz problem (the velocity components, the temperature, k and "
     "omega) by multigrid cycles to diffusion_tolerance; N > 0 replaces each solve by N smoothing sweeps of the "
     "fine grid from zero (zebra line Gauss-Seidel along the strongly coupled directions of a stretched grid, "
     "red-black points elsewhere; the order alternating), with no residual measured. For pseudo-time marching to "
     "a steady state (diffusion_theta = 1, steady_tol > 0): the increments then solve the implicit equations "
     "approximately, the steady state is the same (a NaN is caught at the next monitor step, not at once), and a "
     "step costs a few passes over the grid instead of multigrid cycles; not time-accurate. The RANS channels: 1 "
     "(a wall-normal line solve per step, exact with one cell along x).",
     NAV_RANGE(0, 0, 100, 0)},
};

/* [physics]: the fluid and its initial field (the forcing keys follow, physics/drive/drive_keys.c) */
static const nav_key nav_physics_rows[] = {
    {"physics", "nu", NAV_KT_REAL, NAV_FIELD(nu), "0.01", "Kinematic viscosity; Re = U L / nu.", NAV_ABOVE(0)},
    {"physics", "initial", NAV_KT_CHOICE, NAV_FIELD(initial), "rest",
     "Initial velocity: rest (zero), taylor_green (Taylor-Green vortex; periodic x and y), abc "
     "(Arnold-Beltrami-Childress flow; dim = 3, all faces periodic), uniform (uniform_velocity), shear_wave (u = "
     "amplitude cos(pi (y - y0) / ly), the exact decaying solution exp(-nu pi^2 t / ly^2) between free-slip "
     "y faces; periodic x), kovasznay "
     "(Kovasznay flow, dim = 2: u = 1 - exp(l x) cos(2 pi y), v = l/(2 pi) exp(l x) sin(2 pi y), l = Re/2 - "
     "sqrt(Re^2/4 + 4 pi^2), Re = 1/nu, in absolute coordinates) or poiseuille (plane Poiseuille flow of "
     "bulk velocity amplitude along forcing_direction, between the two walls of the first other direction "
     "that has walls on both faces: 6 amplitude s (1 - s), s from 0 to 1 across), "
     "pulse (uniform_velocity plus v = amplitude (s0/s) exp(-(x' - lx/2 - U t)^2 / (2 s^2)), x' = x - x0, U the x "
     "component of uniform_velocity, s^2 = s0^2 + 2 nu t, s0 = lx/12: a band of v carried along x and spread by "
     "diffusion, exact while it stays clear of the x faces it is not carried through; periodic y and z), "
     "taylor_green_3d (u = amplitude "
     "sin x cos y cos z, v = -amplitude cos x sin y cos z, w = 0 and its pressure amplitude^2/16 (cos 2x + cos 2y) "
     "(cos 2z + 2), x scaled from the box to 2 pi; dim = 3, a cubic box, all faces periodic), channel (a mean "
     "profile of bulk velocity amplitude along forcing_direction between the walls of the first other direction "
     "with walls on both faces, channel_profile, plus the smooth seeded perturbation of noise) or file (the "
     "velocity and pressure of initial_file).",
     .values = nav_initial_values},
    {"physics", "noise", NAV_KT_REAL, NAV_FIELD(noise), "0",
     "Add a seeded divergence-free perturbation of largest component |u'| = noise to the initial velocity: the "
     "discrete curl of a vector potential that vanishes on the non-periodic faces, from a counter-based hash of "
     "(seed, global index), so the field is the same on any rank count (solvers/nav_initial.h). Grid-scale noise, "
     "except with initial = channel: large-scale modes (wavelengths the box to a quarter of it). 0 = none.",
     NAV_ATLEAST(0)},
    {"physics", "seed", NAV_KT_LONG, NAV_FIELD(seed), "1", "The seed of the noise perturbation.", NAV_ATLEAST(0)},
    {"physics", "channel_profile", NAV_KT_CHOICE, NAV_FIELD(channel_profile), "laminar",
     "initial = channel: the mean profile, laminar (6 amplitude s (1 - s)) or log_law (Reichardt's law with u_tau "
     "from Re_tau = 0.09 Re_b^0.88, Re_b = amplitude h / nu, h the wall distance, scaled to bulk velocity "
     "amplitude on the grid).",
     .values = nav_channel_profile_values},
    {"physics", "initial_file", NAV_KT_TEXT, NAV_FIELD(initial_file), "",
     "initial = file: a checkpoint (.nck) or HDF5 snapshot (.h5) of a run of the same dimension; a relative path is "
     "taken from the case file's folder. The same grid: its face velocities and pressure as they are; another "
     "grid (same box): trilinear interpolation onto the staggered points (the first projection makes the "
     "interpolated field divergence-free).", .values = NULL},
    {"physics", "amplitude", NAV_KT_REAL, NAV_FIELD(amplitude), "1",
     "Velocity amplitude of the analytic initial fields (taylor_green, abc, shear_wave, pulse).", NAV_ABOVE(0)},
    {"physics", "uniform_velocity", NAV_KT_VEC3, NAV_FIELD(uniform_velocity), "0,0,0",
     "The velocity u,v,w of initial = uniform (a uniform flow, which the equations keep exactly in a periodic box), "
     "and the flow that carries the band of initial = pulse.",
     NAV_ANY},
};

/* [physics]: a prescribed eddy viscosity */
static const nav_key nav_nut_rows[] = {
    {"physics", "nu_t", NAV_KT_CHOICE, NAV_FIELD(nu_t), "none",
     "Eddy viscosity nu_t added to nu in the stress-form viscous term div((nu + nu_t)(grad u + grad u^T)): none, "
     "or linear (nu_t = nu_t_value + nu_t_gradient . (x - origin), a prescribed field for verification; it must "
     "be >= 0 in the whole domain).",
     .values = nav_nut_values},
    {"physics", "nu_t_value", NAV_KT_REAL, NAV_FIELD(nu_t_value), "0",
     "nu_t = linear: the eddy viscosity at the origin (x0, y0, z0).", NAV_ANY},
    {"physics", "nu_t_gradient", NAV_KT_VEC3, NAV_FIELD(nu_t_gradient), "0,0,0",
     "nu_t = linear: the gradient of the eddy viscosity (x, y, z components).", NAV_ANY},
};

static const nav_key nav_output_rows[] = {
    {"output", "dir", NAV_KT_TEXT, NAV_FIELD(dir), "", "Output folder; empty = output/<name>.", .values = NULL},
    {"output", "fields_every", NAV_KT_LONG, NAV_FIELD(fields_every), "0",
     "Write the fields every this many steps; 0 = off.", NAV_ATLEAST(0)},
    {"output", "fields_dt", NAV_KT_REAL, NAV_FIELD(fields_dt), "0",
     "Write the fields every this much simulated time; 0 = off.", NAV_ATLEAST(0)},
    {"output", "monitor_every", NAV_KT_LONG, NAV_FIELD(monitor_every), "10",
     "Append a row to monitor.csv every this many steps.", NAV_ATLEAST(1)},
    {"output", "error_margin", NAV_KT_REAL, NAV_FIELD(error_margin), "0",
     "Analytic validation (validation.velocity_error_max): leave out the velocity points closer than this to an "
     "outflow face, where the convective outflow condition, which the analytic solution does not satisfy, "
     "leaves its layer.",
     NAV_ATLEAST(0)},
    {"output", "progress_interval", NAV_KT_REAL, NAV_FIELD(progress_interval), "2",
     "Wall-clock seconds between progress lines on the terminal.", NAV_ABOVE(0)},
    {"output", "dump_final", NAV_KT_CHOICE, NAV_FIELD(dump_final), "false",
     "true: write DIR/final_fields.bin at the end, the interior values of u, v, (w) and p (then T with a "
     "temperature) as little-endian doubles in global x-fastest order (for exact comparisons, e.g. between rank "
     "counts).",
     .values = nav_bool_values},

    /* formats and checkpoints */
    {"output", "format", NAV_KT_CHOICE, NAV_FIELD(format), "auto",
     "Format of the field snapshots: hdf5 (DIR/fields_<step>.h5, parallel HDF5, described by DIR/fields.xmf for "
     "ParaView), vtk (DIR/fields_<step>.vtk, legacy VTK), both, or auto (hdf5 when navier is built with HDF5, else "
     "vtk).",
     .values = nav_format_values},
    {"output", "checkpoint_interval", NAV_KT_LONG, NAV_FIELD(checkpoint_interval), "0",
     "Write a checkpoint (DIR/checkpoint_<step>.nck, restart with navier run CASE --restart FILE) every this many "
     "steps; 0 = off. With checkpoints on, the end of a completed run writes one too.",
     NAV_ATLEAST(0)},
    {"output", "checkpoint_dt", NAV_KT_REAL, NAV_FIELD(checkpoint_dt), "0",
     "Write a checkpoint every this much simulated time; 0 = off.", NAV_ATLEAST(0)},
    {"output", "checkpoint_keep", NAV_KT_INT, NAV_FIELD(checkpoint_keep), "2",
     "Keep the newest this many checkpoints in DIR; older ones are deleted after a new one is complete.",
     NAV_ATLEAST(1)},
    {"output", "plots", NAV_KT_CHOICE, NAV_FIELD(plots), "false",
     "true: at the end of a run that completed or stopped, write the final fields (unless the last snapshot is of "
     "the last step) and make the figures of `navier plot DIR` (PNG in DIR/plots; a failure of the plot tool is a "
     "warning). The embedded default case (`navier run` without a case file) has true.",
     .values = nav_bool_values},
};

/* [time]: a stop on the CFL number */
static const nav_key nav_stop_rows[] = {
    {"time", "max_cfl", NAV_KT_REAL, NAV_FIELD(max_cfl), "5",
     "Stop the run as failed when the CFL number of a step (max sum_d |u_d| dt / h_d) exceeds this; 0 = off.",
     NAV_ATLEAST(0)},
};

/* [run]: the method (solvers/nav_ac.h) */
static const nav_key nav_method_rows[] = {
    {"run", "method", NAV_KT_CHOICE, NAV_FIELD(method), "projection",
     "projection (time-accurate: Adams-Bashforth and a pressure Poisson solve per step; any flow) or "
     "artificial_compressibility (steady flows only: the same discrete steady equations marched in pseudo-time "
     "with local steps, dp/dtau = -beta^2 div u, no Poisson solve; stops at [time] steady_tol on the residuals "
     "max(|N(u) + B - grad p| / max|u|, |div u|, |S(T)| / dT) (max norms), or after max_steps iterations).",
     .values = nav_method_values},
    {"run", "ac_beta", NAV_KT_REAL, NAV_FIELD(ac_beta), "1",
     "Artificial compressibility: the pseudo sound speed factor, beta = ac_beta max(|u|, ac_u_ref) with |u| the "
     "local speed.",
     NAV_ABOVE(0)},
    {"run", "ac_u_ref", NAV_KT_REAL, NAV_FIELD(ac_u_ref), "0",
     "Artificial compressibility: the reference speed, the floor of the local speed in beta; 0 = automatic (the "
     "largest of max|u|, the wall speeds, the buoyancy speed sqrt(|b| dT l) and max(nu, kappa) / l, l the smallest "
     "domain length, dT the temperature range of the fixed faces).",
     NAV_ATLEAST(0)},
    {"run", "ac_cfl", NAV_KT_REAL, NAV_FIELD(ac_cfl), "1.5",
     "Artificial compressibility: CFL number of the local pseudo-time steps, dtau = ac_cfl / (sum_d (|u_d| + "
     "sqrt(u_d^2 + beta^2)) / h_d + 2 max(nu, kappa) sum_d 1 / h_d^2).",
     NAV_RANGE(0, 1, 4, 0)},
    {"run", "ac_stages", NAV_KT_INT, NAV_FIELD(ac_stages), "4",
     "Artificial compressibility: stages m of the pseudo-time scheme x = x0 + dtau R(x) / (m - k), k = 0..m-1 "
     "(1 = forward Euler, 4 = Jameson's four stages).",
     NAV_RANGE(1, 0, 4, 0)},
    {"run", "ac_levels", NAV_KT_INT, NAV_FIELD(ac_levels), "0",
     "Artificial compressibility: levels of the multigrid in pseudo-time (FAS V-cycles, one iteration of the "
     "pseudo-time scheme before and after each coarse-grid correction), taken from the pressure multigrid's "
     "levels while every block halves exactly; 0 = all of them, 1 = a single grid.",
     NAV_RANGE(0, 0, 24, 0)},
    {"run", "ac_cycle", NAV_KT_CHOICE, NAV_FIELD(ac_cycle), "w",
     "Artificial compressibility: the cycle of the multigrid in pseudo-time: v (one coarse-grid cycle per level), w "
     "(two: level l visited 2^l times) or f (an F-cycle then a V-cycle: level l visited l + 1 times).",
     .values = nav_ac_cycle_values},
    {"run", "ac_w_min_cells", NAV_KT_INT, NAV_FIELD(ac_w_min_cells), "16",
     "Artificial compressibility, ac_cycle = w: the levels whose shortest global edge has fewer cells than this are "
     "visited by V-cycles (one visit per visit of the finer level), bounding the visits of the small levels (on 256^2: "
     "79 level visits per cycle instead of 255); 1 = W-cycles down to the coarsest level.",
     NAV_RANGE(1, 0, 1 << 20, 0)},
    {"run", "ac_dissipation", NAV_KT_REAL, NAV_FIELD(ac_dissipation), "1",
     "Artificial compressibility: the coarse levels of the pseudo-time multigrid add k sum_d (|u_d| h_d / 2) d2 x / "
     "dx_d^2 to the momentum and temperature equations (k = 1: their advection becomes first-order upwind, stable at "
     "any cell Reynolds number); the finest level keeps the central scheme, so the steady answer does not depend on "
     "k; 0 = central on every level.",
     NAV_RANGE(0, 0, 4, 0)},
    {"run", "ac_nested_tol", NAV_KT_REAL, NAV_FIELD(ac_nested_tol), "0",
     "Artificial compressibility: nested iteration (full multigrid) start: from the coarsest level up, each coarse "
     "level's own steady problem is iterated until its residual is below this value (at most 200 cycles), then its "
     "change is interpolated to the next finer level; 0 = start on the finest grid.",
     NAV_ATLEAST(0)},
};

const nav_config_keys nav_run_keys = NAV_CONFIG_KEYS(nav_run_rows);
const nav_config_keys nav_time_keys = NAV_CONFIG_KEYS(nav_time_rows);
const nav_config_keys nav_physics_keys = NAV_CONFIG_KEYS(nav_physics_rows);
const nav_config_keys nav_nut_keys = NAV_CONFIG_KEYS(nav_nut_rows);
const nav_config_keys nav_output_keys = NAV_CONFIG_KEYS(nav_output_rows);
const nav_config_keys nav_stop_keys = NAV_CONFIG_KEYS(nav_stop_rows);
const nav_config_keys nav_method_keys = NAV_CONFIG_KEYS(nav_method_rows);

const nav_config_section nav_run_section = {.name = "run", .doc = "What the case is called and where it runs."};
const nav_config_section nav_time_section = {
    .name = "time",
    .doc = "Time step and stop criteria. The run stops at the first criterion met; at least one of end_time, "
           "max_steps and steady_tol must be non-zero."};
const nav_config_section nav_physics_section = {.name = "physics", .doc = "Fluid and initial condition."};
const nav_config_section nav_output_section = {.name = "output", .doc = "What is written, and how often."};

/* The paragraph of "## Scaling" in docs/case-file.md. */
const char nav_flow_scaling[] =
    "The equations are solved as given, in whatever units the case uses; the flow depends on the Reynolds "
    "number Re = U L / nu, with U a velocity scale and L a length scale. For the cavity U is the lid velocity "
    "(the first component of `y_high_velocity`) and L the side (`lx`): the defaults give Re = 1 * 1 / 0.01 = 100, "
    "and `--set physics.nu=0.001` gives Re = 1000.";

/* ---- cross-key checks (nav_rule_* document them in docs/case-file.md) ---- */

const char nav_rule_stop[] = "At least one stop criterion among `end_time`, `max_steps` and `steady_tol` is non-zero.";

const char nav_rule_initial[] =
    "`initial = abc` needs `dim = 3` and all faces periodic; `initial = taylor_green` needs periodic x and y faces.";

const char nav_rule_shear_wave[] =
    "`initial = shear_wave` needs periodic x faces and `free_slip` y faces; `initial = pulse` periodic y (and z) faces.";

const char nav_rule_inflow[] =
    "`inflow` and `outflow` faces need a non-periodic direction. `<face>_profile` other than `uniform` and "
    "`<face>_profile_file` apply to inflow faces only; `file` needs a readable table that spans the face, `exact` an "
    "analytic `physics.initial`. With a temperature an inflow face is `fixed` and an outflow face `flux` with value 0.";

const char nav_rule_format[] =
    "`format = hdf5` or `both` needs a navier built with HDF5 (`NAV_ENABLE_HDF5=ON`, the default).";

const char nav_rule_nu_t[] = "`physics.nu_t = linear` must be >= 0 in the whole domain (checked at its corners).";

void nav_check_stop(nav_config_check *ck, nav_config *c) {
  if (c->end_time == 0 && c->max_steps == 0 && c->steady_tol == 0)
    nav_conflict(ck,
                 nav_later(ck, nav_later(ck, nav_key_id(ck, "time", "end_time"), nav_key_id(ck, "time", "max_steps")),
                           nav_key_id(ck, "time", "steady_tol")),
                 "no stop criterion: end_time, max_steps and steady_tol are all 0");
}

/* Output formats this build can write (HDF5 is a build option, NAV_ENABLE_HDF5). */
void nav_check_output(nav_config_check *ck, nav_config *c) {
#ifndef NAV_HAVE_HDF5
  if (!strcmp(c->format, "hdf5") || !strcmp(c->format, "both"))
    nav_conflict(ck, nav_key_id(ck, "output", "format"),
                 "format = %s needs HDF5, but this navier is built without it (NAV_ENABLE_HDF5=OFF); use vtk or auto",
                 c->format);
#else
  (void)ck;
  (void)c;
#endif
}

/* Artificial compressibility marches a pseudo-time: no simulated time to stop at or write at. */
void nav_check_method(nav_config_check *ck, nav_config *c) {
  if (strcmp(c->method, "artificial_compressibility")) return;
  const int method = nav_key_id(ck, "run", "method");
  if (strcmp(c->solver, "auto") && strcmp(c->solver, "mg") && strcmp(c->solver, "mgpcg"))
    nav_conflict(ck, nav_later(ck, method, nav_key_id(ck, "pressure", "solver")),
                 "method = artificial_compressibility marches on the multigrid's levels: pressure.solver must be auto "
                 "(the multigrid then), mg or mgpcg, got %s",
                 c->solver);
  if (c->steady_tol == 0)
    nav_conflict(ck, nav_later(ck, method, nav_key_id(ck, "time", "steady_tol")),
                 "method = artificial_compressibility computes a steady state: it needs steady_tol > 0");
  static const char *const timed[][2] = {
      {"time", "end_time"}, {"output", "fields_dt"}, {"output", "checkpoint_dt"}, {"time", "dt"}};
  const double value[] = {c->end_time, c->fields_dt, c->checkpoint_dt, c->dt};
  for (int i = 0; i < 4; i++)
    if (value[i] != 0)
      nav_conflict(ck, nav_later(ck, method, nav_key_id(ck, timed[i][0], timed[i][1])),
                   "method = artificial_compressibility marches in pseudo-time (the time stays 0): %s.%s must be 0 "
                   "(count iterations with max_steps, fields_every, checkpoint_interval), got %g",
                   timed[i][0], timed[i][1], value[i]);
}

/* [time] diffusion_sweeps: approximate implicit solves, for pseudo-time marching only (backward Euler), so that a
 * time-accurate run (Crank-Nicolson) never gets them silently. */
void nav_check_sweeps(nav_config_check *ck, nav_config *c) {
  if (c->diffusion_sweeps == 0) return;
  const int sweeps = nav_key_id(ck, "time", "diffusion_sweeps");
  if (strcmp(c->diffusion, "implicit"))
    nav_conflict(ck, nav_later(ck, sweeps, nav_key_id(ck, "time", "diffusion")),
                 "diffusion_sweeps = %d replaces the implicit diffusion solves: it needs diffusion = implicit, got %s",
                 c->diffusion_sweeps, c->diffusion);
  else if (c->diffusion_theta != 1)
    nav_conflict(ck, nav_later(ck, sweeps, nav_key_id(ck, "time", "diffusion_theta")),
                 "diffusion_sweeps = %d solves the implicit steps approximately (not time-accurate): it is for "
                 "pseudo-time marching to a steady state with diffusion_theta = 1, got %g",
                 c->diffusion_sweeps, c->diffusion_theta);
}

/* First face of directions 0..ndir-1 that is not periodic, in *d and *s; 0 if all are periodic. */
static int nav_first_nonperiodic(const nav_config *c, int ndir, int *d, int *s) {
  for (*d = 0; *d < ndir; (*d)++)
    for (*s = 0; *s < 2; (*s)++)
      if (c->bc[*d][*s] != NAV_BC_PERIODIC) return 1;
  return 0;
}

/* initial = taylor_green_3d (a cubic, periodic 3D box) and initial_file (only with initial = file). */
static void nav_check_initial_3d(nav_config_check *ck, const nav_config *c) {
  const int initial = nav_key_id(ck, "physics", "initial"), file = nav_key_id(ck, "physics", "initial_file");
  int d, s;
  if (!strcmp(c->initial, "file") != (c->initial_file[0] != 0))
    nav_conflict(ck, nav_later(ck, initial, file), "initial = file goes with initial_file (a path), got initial = %s%s",
                 c->initial, c->initial_file[0] ? " and an initial_file" : " and no initial_file");
  if (strcmp(c->initial, "taylor_green_3d")) return;
  if (c->dim != 3)
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "grid", "dim")), "initial = taylor_green_3d needs dim = 3");
  else if (nav_first_nonperiodic(c, 3, &d, &s))
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "boundary", nav_face_name(d, s))),
                 "initial = taylor_green_3d needs all faces periodic, but %s is %s", nav_face_name(d, s),
                 nav_bc_values[c->bc[d][s]]);
  else if (c->lx != c->ly || c->ly != c->lz)
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "grid", "lz")),
                 "initial = taylor_green_3d needs a cubic box (lx = ly = lz), got %g x %g x %g", c->lx, c->ly, c->lz);
}

/* The analytic initial fields that need periodic or free-slip faces; taylor_green_3d and initial_file. */
void nav_check_initial(nav_config_check *ck, nav_config *c) {
  const int ndir = c->dim == 3 ? 3 : 2;
  const int dim = nav_key_id(ck, "grid", "dim"), initial = nav_key_id(ck, "physics", "initial");
  int d, s;
  if (!strcmp(c->initial, "abc")) {
    if (c->dim != 3) nav_conflict(ck, nav_later(ck, initial, dim), "initial = abc needs dim = 3, got dim = %d", c->dim);
    if (nav_first_nonperiodic(c, ndir, &d, &s))
      nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "boundary", nav_face_name(d, s))),
                   "initial = abc needs all faces periodic, but %s is %s", nav_face_name(d, s),
                   nav_bc_values[c->bc[d][s]]);
  }
  nav_check_initial_3d(ck, c);
  if (!strcmp(c->initial, "shear_wave") &&
      (c->bc[0][0] != NAV_BC_PERIODIC || c->bc[1][0] != NAV_BC_FREE_SLIP || c->bc[1][1] != NAV_BC_FREE_SLIP))
    nav_conflict(ck, initial, "initial = shear_wave needs periodic x faces and free_slip y faces");
  if (!strcmp(c->initial, "pulse") &&
      (c->bc[1][0] != NAV_BC_PERIODIC || (c->dim == 3 && c->bc[2][0] != NAV_BC_PERIODIC)))
    nav_conflict(ck, initial, "initial = pulse needs periodic y (and z) faces");
  if (!strcmp(c->initial, "taylor_green") && nav_first_nonperiodic(c, 2, &d, &s))
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "boundary", nav_face_name(d, s))),
                 "initial = taylor_green needs periodic x and y faces, but %s is %s", nav_face_name(d, s),
                 nav_bc_values[c->bc[d][s]]);
  /* initial = taylor_green_3d (a cubic, periodic 3D box) and initial_file (only with initial = file) */
  const int file = nav_key_id(ck, "physics", "initial_file");
  if (!strcmp(c->initial, "file") != (c->initial_file[0] != 0))
    nav_conflict(ck, nav_later(ck, initial, file), "initial = file goes with initial_file (a path), got initial = %s%s",
                 c->initial, c->initial_file[0] ? " and an initial_file" : " and no initial_file");
  if (strcmp(c->initial, "taylor_green_3d")) return;
  if (c->dim != 3)
    nav_conflict(ck, nav_later(ck, initial, dim), "initial = taylor_green_3d needs dim = 3");
  else if (nav_first_nonperiodic(c, 3, &d, &s))
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "boundary", nav_face_name(d, s))),
                 "initial = taylor_green_3d needs all faces periodic, but %s is %s", nav_face_name(d, s),
                 nav_bc_values[c->bc[d][s]]);
  else if (c->lx != c->ly || c->ly != c->lz)
    nav_conflict(ck, nav_later(ck, initial, nav_key_id(ck, "grid", "lz")),
                 "initial = taylor_green_3d needs a cubic box (lx = ly = lz), got %g x %g x %g", c->lx, c->ly, c->lz);
}

/* 1 if physics.initial has an analytic velocity (nav_flow_exact_velocity). */
static int nav_initial_analytic(const nav_config *c) {
  return strcmp(c->initial, "rest") && strcmp(c->initial, "taylor_green_3d") && strcmp(c->initial, "channel") &&
         strcmp(c->initial, "file");
}

/* [boundary] inflow and outflow faces: their cells across, their profiles and tables (solvers/nav_open.h). */
void nav_check_inflow(nav_config_check *ck, nav_config *c) {
  const int ndir = c->dim == 3 ? 3 : 2, initial = nav_key_id(ck, "physics", "initial");
  const double org[3] = {c->x0, c->y0, c->z0}, len[3] = {c->lx, c->ly, c->lz};
  for (int d = 0; d < ndir; d++)
    for (int s = 0; s < 2; s++) {
      char pname[48], fname[48];
      snprintf(pname, sizeof pname, "%s_profile", nav_face_name(d, s));
      snprintf(fname, sizeof fname, "%s_profile_file", nav_face_name(d, s));
      const int face = nav_key_id(ck, "boundary", nav_face_name(d, s)), pk = nav_key_id(ck, "boundary", pname);
      const int fk = nav_key_id(ck, "boundary", fname);
      const char *prof = c->inflow_profile[d][s], *file = c->inflow_file[d][s];
      const int ncell[3] = {c->nx, c->ny, c->nz};
      if ((c->bc[d][s] == NAV_BC_INFLOW || c->bc[d][s] == NAV_BC_OUTFLOW) && ncell[d] < 2)
        nav_conflict(ck,
                     nav_later(ck, face,
                               nav_key_id(ck, "grid",
                                          d == 0   ? "nx"
                                          : d == 1 ? "ny"
                                                   : "nz")),
                     "%s = %s needs at least 2 cells across (the face values of both ends are kept apart)",
                     nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
      if (c->bc[d][s] != NAV_BC_INFLOW) {
        if (strcmp(prof, "uniform"))
          nav_conflict(ck, nav_later(ck, face, pk), "%s applies to inflow faces only, but %s is %s", pname,
                       nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
        else if (file[0])
          nav_conflict(ck, nav_later(ck, face, fk), "%s applies to inflow faces only, but %s is %s", fname,
                       nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
        continue;
      }
      if (strcmp(prof, "file") && file[0])
        nav_conflict(ck, nav_later(ck, pk, fk), "%s is given but %s = %s (not file)", fname, pname, prof);
      if (!strcmp(prof, "exact") && !nav_initial_analytic(c))
        nav_conflict(
            ck, nav_later(ck, pk, initial),
            "%s = exact needs an analytic physics.initial (taylor_green, abc, uniform, kovasznay, poiseuille), "
            "got %s",
            pname, c->initial);
      if (strcmp(prof, "file")) continue;
      const int e = nav_profile_direction(c, d);
      if (!file[0]) {
        nav_conflict(ck, nav_later(ck, pk, fk), "%s = file needs %s, the table", pname, fname);
      } else if (e < 0) {
        nav_conflict(ck, nav_later(ck, pk, face), "%s = file needs a non-periodic tangential direction", pname);
      } else {
        char path[2 * NAV_CONFIG_STR + 8], why[600];
        nav_table t;
        nav_table_path(c->source, file, path, sizeof path);
        if (nav_table_read(path, 1 + c->dim, &t, why, sizeof why)) {
          nav_conflict(ck, nav_key_bad(ck, fk) ? -1 : fk, "%s", why);
        } else {
          const double lo = t.v[0], hi = t.v[(size_t)(t.rows - 1) * t.ncol];
          if (lo > org[e] || hi < org[e] + len[e])
            nav_conflict(ck, nav_key_bad(ck, fk) ? -1 : fk, "'%s' spans %c = %g .. %g but the face spans %g .. %g",
                         path, "xyz"[e], lo, hi, org[e], org[e] + len[e]);
          nav_table_free(&t);
        }
      }
    }
}

/* initial = kovasznay is a 2D solution. */
void nav_check_kovasznay(nav_config_check *ck, nav_config *c) {
  if (!strcmp(c->initial, "kovasznay") && c->dim != 2)
    nav_conflict(ck, nav_later(ck, nav_key_id(ck, "physics", "initial"), nav_key_id(ck, "grid", "dim")),
                 "initial = kovasznay needs dim = 2, got %d", c->dim);
}

/* physics.nu_t = linear is >= 0 everywhere: a linear field is smallest at a corner. */
void nav_check_nu_t(nav_config_check *ck, nav_config *c) {
  if (strcmp(c->nu_t, "linear")) return;
  const double len[3] = {c->lx, c->ly, c->lz};
  double lo = c->nu_t_value;
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++)
    lo += fmin(0, c->nu_t_gradient[d] * len[d]);
  if (lo < 0)
    nav_conflict(ck,
                 nav_later(ck,
                           nav_later(ck, nav_key_id(ck, "physics", "nu_t"), nav_key_id(ck, "physics", "nu_t_value")),
                           nav_key_id(ck, "physics", "nu_t_gradient")),
                 "nu_t = linear is negative in a corner of the domain (min %g): an eddy viscosity must be >= 0", lo);
}
