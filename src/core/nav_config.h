/* Case-file configuration: one INI file (parsed with inih) plus command-line overrides.
 *
 * Every key is described once, in a row of its owner's key table (grid/grid_keys.c,
 * solvers/flow_keys.c, physics/heat/heat_keys.c, ...; core/nav_config_schema.h has the row type):
 * section, key, type, default, range, documentation. The rows drive parsing, validation, the echo of
 * the effective configuration and docs/case-file.md (`navier doc case-file`). Key names equal the
 * struct field names below. Parsing validates everything before anything is allocated; every error is
 * collected as "FILE:LINE: key 'section.key': reason" and the caller exits with status 2.
 * Once loaded the configuration is read-only (const nav_config *). */
#ifndef NAV_CONFIG_H
#define NAV_CONFIG_H

#include <stdio.h>

#include "navier/nav_types.h"

/* Boundary type of one domain face for the velocity (pressure follows: Neumann at walls, inflow
 * and outflow faces). */
typedef enum nav_bc_type {
  NAV_BC_WALL = 0,
  NAV_BC_FREE_SLIP = 1,
  NAV_BC_PERIODIC = 2,
  NAV_BC_INFLOW = 3, /* prescribed velocity (grid/nav_open.h) */
  NAV_BC_OUTFLOW = 4 /* convective outflow with a global flux correction */
} nav_bc_type;

/* Temperature boundary type of one domain face ([temperature] x_low ...). */
typedef enum nav_thermal_type { NAV_THERMAL_FLUX = 0, NAV_THERMAL_FIXED = 1, NAV_THERMAL_PERIODIC = 2 } nav_thermal_type;

#define NAV_CONFIG_STR 256
#define NAV_CONFIG_MAX_KEYS 320 /* room for the rows of the schema table (checked at load) */
#define NAV_MAX_BODIES 8        /* [body.1] .. [body.8] */
#define NAV_BODY_MAX_KEYS 16    /* room for the keys of one [body.N] section */

/* One immersed body, section [body.N] (physics/nav_body.h). kind none: no body N. The shape is
 * given in its body frame (centred at the origin), then scaled by `scale`, rotated by `angle`
 * degrees about the z axis (counter-clockwise seen from +z; an airfoil at angle of attack a in a
 * stream along +x has angle = -a) and moved to `center`. */
typedef struct nav_body_config {
  char kind[16];       /* none | circle | cylinder | sphere | box | points | stl */
  char name[32];       /* label of the monitor columns and of summary.json; "" = body<N> */
  double center[3];    /* position of the body frame's origin */
  double radius;       /* circle, cylinder, sphere */
  double size[3];      /* box: edge lengths in the body frame (2D: the first two) */
  double scale;        /* factor on every length of the shape */
  double angle;        /* rotation about z in degrees */
  double velocity[3];  /* velocity of the body surface (rigid translation of a body held in place) */
  double motion_velocity[3];  /* prescribed motion: constant translation velocity of the body */
  double motion_amplitude[3]; /* prescribed motion: amplitude of a sinusoidal displacement */
  double motion_frequency;    /* its frequency f: x(t) = center + motion_velocity t + A sin(2 pi f t) */
  double rotation_rate;       /* prescribed rotation about z through the centre, degrees per unit time */
  double pitch_amplitude;     /* a sinusoidal pitch about z, degrees: angle(t) = angle + rotation_rate t + */
  double pitch_frequency;     /*   pitch_amplitude sin(2 pi pitch_frequency t) */
  char file[NAV_CONFIG_STR]; /* points, stl: the geometry file (relative to the case file's folder) */
} nav_body_config;

struct nav_config_schema;

typedef struct nav_config {
  const struct nav_config_schema *schema; /* the keys of this configuration (set by nav_config_defaults) */
  char source[NAV_CONFIG_STR]; /* case file path, or "(default)" for the embedded case */

  /* [run] */
  char name[64];     /* case name: summary.json, default output folder */
  char backend[16];  /* auto | cpu | cuda */
  char halo_transport[16]; /* auto | mpi | cuda-aware | nccl */
  char halo_overlap[8];    /* on | off */
  int decomposition[3]; /* ranks per direction px,py,pz; 0,0,0 = auto (MPI_Dims_create) */

  /* [grid] */
  int dim;                 /* 2 or 3 */
  int nx, ny, nz;          /* cells per direction (nz ignored and 1 in 2D) */
  double lx, ly, lz;       /* domain lengths */
  double x0, y0, z0;       /* domain origin */
  /* spacing per direction (keys x_spacing, x_gamma, x_cluster, x_ratio, x_file; y_, z_ likewise;
   * grid/nav_spacing.h computes the faces) */
  char spacing[3][16];             /* uniform | tanh | geometric | file */
  double gamma[3];                 /* tanh: clustering parameter (> 0) */
  char cluster[3][8];              /* tanh, geometric: both | low | high */
  double ratio[3];                 /* geometric: growth ratio of successive widths (> 0) */
  char file[3][NAV_CONFIG_STR];    /* file: n+1 face coordinates, one per line */

  /* [time] */
  double dt;          /* fixed time step; 0 = adaptive from cfl and fourier */
  double cfl;         /* dt <= cfl / max(sum_d |u_d| / h_d) */
  double fourier;     /* dt <= fourier / (nu * max(sum_d 1 / h_d^2)) */
  double end_time;    /* stop at this simulated time; 0 = no limit */
  long max_steps;     /* stop after this many steps; 0 = no limit */
  double steady_tol;  /* stop when max|u^{n+1}-u^n| / (dt max|u|) < steady_tol; 0 = off */
  char diffusion[16];       /* explicit | implicit (nav_diffusion.h) */
  double diffusion_tolerance; /* relative residual of the implicit diffusion solves */
  double diffusion_theta;     /* implicit weight after the first steps (0.5 Crank-Nicolson, 1 backward Euler) */
  int diffusion_sweeps;       /* > 0: each implicit solve is that many line sweeps from zero (pseudo-time) */

  /* [physics] */
  double nu;               /* kinematic viscosity */
  char initial[32];        /* rest | taylor_green | taylor_green_3d | abc | uniform | channel | file | ... */
  double amplitude;        /* velocity amplitude of the analytic initial fields */
  double uniform_velocity[3]; /* the velocity of initial = uniform */
  double noise;            /* max |u'| of the seeded divergence-free perturbation (solvers/nav_initial.h); 0 = none */
  long seed;               /* the seed of that perturbation */
  char channel_profile[16]; /* initial = channel: laminar | log_law */
  char initial_file[NAV_CONFIG_STR]; /* initial = file: a checkpoint (.nck) or HDF5 snapshot (.h5) */
  char forcing[24];        /* none | pressure_gradient | flow_rate (a periodic direction) */
  double forcing_value;    /* the mean pressure gradient -dp/dx_c (a body force), or the bulk velocity */
  char forcing_direction[4]; /* x | y | z: the component c that the forcing drives */
  char nu_t[16];           /* eddy viscosity: none | linear */
  double nu_t_value;       /* nu_t = linear: nu_t at (x0, y0, z0) */
  double nu_t_gradient[3]; /* nu_t = linear: its gradient */

  /* [boundary]: faces x_low x_high y_low y_high z_low z_high; index [dir][side] */
  nav_bc_type bc[3][2];
  double wall_velocity[3][2][3]; /* keys <face>_velocity = "u,v,w": wall velocity (tangential), inflow velocity */
  char inflow_profile[3][2][16];  /* keys <face>_profile: uniform | parabolic | file | exact (inflow faces) */
  char inflow_file[3][2][NAV_CONFIG_STR]; /* keys <face>_profile_file: the profile table of profile = file */

  /* [pressure] */
  char solver[16];     /* auto | fft | mg | mgpcg | pcg | sor | jacobi */
  double tolerance;    /* relative residual ||b - Ax|| / ||b|| */
  int max_iterations;  /* cycles (mg) or iterations (pcg) */
  char cycle[8];       /* v | f */
  int pre_smooth;      /* red-black Gauss-Seidel sweeps before coarse correction */
  int post_smooth;     /* ... and after */
  double omega;        /* relaxation factor of sor and jacobi; 0 = estimate */
  char smoother[8];     /* auto | point | line: multigrid smoothing */
  char precision[8];    /* double | mixed: the multigrid's cycles on a GPU (nav_psolver_options.precision) */
  int cpu_coarse_cells; /* GPU runs: multigrid levels of at most this many cells on the CPU; 0 = automatic */
  char initial_guess[16]; /* previous | extrapolated: the start of each iterative pressure solve (nav_flow.c) */

  /* [output] */
  char dir[NAV_CONFIG_STR]; /* output folder; "" = output/<name> */
  long fields_every;        /* write fields every N steps; 0 = off */
  double fields_dt;         /* write fields every this much simulated time; 0 = off */
  long monitor_every;       /* monitor.csv row every N steps (>= 1) */
  double error_margin;      /* analytic error: leave out the points this close to an outflow face */
  double progress_interval; /* seconds of wall time between progress lines */
  char dump_final[8];       /* true: DIR/final_fields.bin (doubles, interior, global order) */

  /* Output formats, checkpoints and stops (keys in one block of the schema table) */
  char format[8];           /* [output] auto | vtk | hdf5 | both */
  long checkpoint_interval; /* [output] checkpoint every N steps; 0 = off */
  double checkpoint_dt;     /* [output] checkpoint every this much simulated time; 0 = off */
  int checkpoint_keep;      /* [output] keep the newest K checkpoints */
  char plots[8];            /* [output] true: run tools/navier-plot at the end */
  double max_cfl;           /* [time] stop as failed when the CFL number exceeds it; 0 = off */
  /* [run] the method (keys in one block of the schema table) */
  char method[32];          /* projection | artificial_compressibility */
  double ac_beta;           /* artificial compressibility: beta = ac_beta max(|u|, u_ref) */
  double ac_u_ref;          /* reference speed of beta; 0 = automatic */
  double ac_cfl;            /* pseudo-time CFL number of the local steps */
  int ac_stages;            /* stages of the pseudo-time scheme (1..4) */
  int ac_levels;            /* levels of the pseudo-time multigrid; 0 = as many as apply, 1 = single grid */
  char ac_cycle[4];         /* v | w | f: the cycle of the pseudo-time multigrid */
  int ac_w_min_cells;       /* W-cycles: levels with a shorter global edge run V-cycles */
  double ac_dissipation;    /* k of the coarse levels' upwind dissipation (nav_point_ac.h); 0 = off */
  double ac_nested_tol;     /* nested-iteration start: converge each coarse level to this residual; 0 = off */
  /* [temperature]: Boussinesq buoyancy with a transported temperature (model = boussinesq) */
  char model[16];           /* off | boussinesq */
  double ra, pr;            /* nondimensional input (pr > 0): Rayleigh and Prandtl numbers */
  double gravity[3];        /* dimensional: acceleration of gravity; nondimensional: its direction */
  double beta, kappa;       /* dimensional input (kappa > 0): expansion coefficient, diffusivity */
  double t_ref;             /* temperature at which the buoyancy vanishes */
  char t_initial_field[16]; /* key 'initial': uniform | conduction | wave */
  double t_initial;         /* the uniform initial temperature */
  double t_amplitude;       /* key 'amplitude': of the wave, or of the perturbation */
  nav_thermal_type tbc[3][2];  /* keys x_low ... z_high */
  double tbc_value[3][2];      /* keys x_low_value ...: wall temperature (fixed) or heat flux into the domain (flux) */
  /* [turbulence] (physics/nav_turbulence.h) */
  char turbulence_model[16]; /* key 'model': off | k_omega_sst | smagorinsky | wale | vreman */
  double intensity;          /* turbulence intensity of inflow faces and of the initial field */
  double length_scale;       /* turbulence length scale; 0 = a tenth of the smallest domain length */
  double k_initial, omega_initial; /* uniform initial k, omega; 0 = from intensity and length_scale */
  double nut_relaxation;     /* nu_t <- a nu_t(model) + (1 - a) nu_t after each step */
  /* [statistics] (physics/statistics/nav_statistics.h) */
  char statistics_enabled[8];     /* key 'enabled': false | true */
  double statistics_start;        /* key 'start_time': samples from this simulated time on */
  long statistics_every;          /* key 'every': steps between samples (>= 1) */
  char statistics_wall_normal[8]; /* key 'wall_normal': auto | x | y | z */
  double smagorinsky_cs, wale_cw, vreman_c; /* the LES closures' constants (physics/turbulence/nav_les.h) */
  double prandtl_t; /* turbulent Prandtl number: the temperature's eddy diffusivity nu_t / Pr_t under an LES closure */
  /* [body.N] sections (physics/nav_body.h), body[N-1]; kind = none where a section is absent */
  nav_body_config body[NAV_MAX_BODIES];
  /* [bodies] */
  char bodies_forcing[16];  /* key 'forcing': diffuse | sharp (physics/nav_body.h) */
  /* [forces]: the coefficients C = 2 F / (reference_velocity^2 A), A = reference_length (2D, per unit
   * span) or reference_area (3D); time averages over t >= average_start */
  double reference_velocity, reference_length, reference_area, average_start;
  /* where each key's value came from (nav_config_where), set by nav_config_load; index = the key's
   * row in the schema (its blocks in the registry's order). src: 0 default, 1 case file, 2 --set; line: file line or --set index. */
  struct nav_config_origin {
    unsigned char src;
    int line;
  } origin[NAV_CONFIG_MAX_KEYS];
  /* the same for the keys of [body.N], index [N-1][row of the key among the body rows] */
  struct nav_config_origin body_origin[NAV_MAX_BODIES][NAV_BODY_MAX_KEYS];
  /* derived by nav_config_load (not keys): */
  double diffusivity;       /* kappa, or 1 in the nondimensional scaling */
  double buoyancy[3];       /* b in the body force -b (T - t_ref): beta g, or Ra Pr g/|g| */
  int nbodies;              /* bodies given: body[0..nbodies-1] have a kind (numbers without gaps) */
} nav_config;

/* Collected input errors: each line "FILE:LINE: key 'section.key': reason". */
typedef struct nav_config_errors {
  int count;
  char text[8192];
} nav_config_errors;

/* nav_config_defaults, nav_config_load and nav_config_markdown are defined by the registry of sections,
 * above the core (solvers/nav_sections.c): they pass its schema to the core's *_schema functions
 * (core/nav_config_schema.h). The functions after them read the schema that cfg holds. */

/* Fill cfg with the defaults (the embedded default case: 2D cavity, Re = 100, 128x128). Not collective. */
void nav_config_defaults(nav_config *cfg);

/* Load a case: defaults, then the file `path` (NULL = embedded default case), then the overrides
 * `sets[0..nset-1]` of the form "section.key=value" (reported as "--set:N"), then the cross-key
 * checks. errs is cleared first; every error is counted in errs->count and its line appended to
 * errs->text while it fits (whole lines only). Returns NAV_ERR_INPUT if there was any error, NAV_OK
 * otherwise; cfg is then complete but must not be used on error. Not collective (call on every
 * rank: the file is small). */
nav_err nav_config_load(nav_config *cfg, const char *path, int nset, char *const *sets, nav_config_errors *errs);

/* Write the effective configuration, defaults included, as an INI file. */
void nav_config_print(const nav_config *cfg, FILE *out);

/* Write the keys whose value differs from the key table's default, one "section.key = value" line
 * each (after indent), in table order; returns their number. Not collective. */
int nav_config_print_changed(const nav_config *cfg, FILE *out, const char *indent);

/* Write the Markdown reference of every section and key (docs/case-file.md). */
void nav_config_markdown(FILE *out);

/* The value of key section.name of cfg as a case file would write it (reals: the shortest text
 * that reads back exactly), in buf. Returns 0, or -1 if there is no such key. Not collective. */
int nav_config_value(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n);

/* Where key section.name of cfg got its value (section may be "body.N"), as the "FILE:LINE" of an error message: "PATH:LINE"
 * (the case file), "--set:N" (the N-th override) or "SOURCE:0" (its default; SOURCE is the case
 * file or "(default)"), in buf. Returns buf. Not collective. */
const char *nav_config_where(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n);
/* The tangential direction along which the inflow table of a face of direction d varies (the first
 * non-periodic one), or -1 if there is none. */
int nav_profile_direction(const nav_config *cfg, int d);

/* Face name "x_low" etc. for dir 0..2, side 0..1. */
const char *nav_face_name(int dir, int side);

#endif
