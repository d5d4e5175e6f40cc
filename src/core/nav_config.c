/* Case-file configuration: schema table, INI parsing (inih), validation, echo and Markdown reference.
 *
 * One static table, nav_keys[], describes every key: section, name, type, where it lives in
 * nav_config (offsetof), default (as text, parsed by the same code as user input), range and a
 * documentation sentence. Loading a case is
 *
 *   defaults (table) -> case file (inih, line by line) -> --set overrides -> cross-key checks
 *
 * and every stage appends its errors to one nav_config_errors, as "FILE:LINE: key 'section.key':
 * reason". For each key we remember where its value came from (default, file line, --set index) so
 * that a cross-key conflict is reported at the key that completed it (the one given later).
 *
 * inih: the Debian build has INI_HANDLER_LINENO = 0, so line numbers come from our own reader
 * (nav_read_line), which counts lines; inih calls the handler right after reading the line of the
 * key, so the reader's count is the key's line. The reader also strips leading whitespace, which
 * turns off inih's multi-line values (an indented line would otherwise continue the previous value)
 * in a way that does not depend on how the library was built. */
#include "core/nav_config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "core/nav_comm.h"
#include "grid/nav_spacing.h"
#include "core/nav_table.h"

#define NAV_CONFIG_MIN_BLOCK 2 /* = NAV_DECOMP_MIN_CELLS of grid/nav_decomp.h */

typedef enum nav_key_type {
  NAV_KT_INT,    /* int */
  NAV_KT_LONG,   /* long */
  NAV_KT_REAL,   /* double, finite */
  NAV_KT_CHOICE, /* char[]: one of values[] */
  NAV_KT_NAME,   /* char[]: non-empty, [A-Za-z0-9_.-] */
  NAV_KT_TEXT,   /* char[]: any text, may be empty */
  NAV_KT_BC,     /* nav_bc_type: index into values[] */
  NAV_KT_VEC3,   /* double[3]: "u,v,w" */
  NAV_KT_DECOMP, /* int[3]: "px,py,pz" (each >= 1) or "auto" (stored 0,0,0) */
  NAV_KT_ENUM    /* an enum stored as int: index into values[] */
} nav_key_type;

typedef struct nav_key {
  const char *section, *name;
  nav_key_type type;
  size_t offset, size; /* of the field in nav_config */
  const char *def;     /* default, as it would be written in a case file */
  const char *doc;
  double lo, hi;             /* numbers: bounds (+-HUGE_VAL = none) */
  int lo_open, hi_open;      /* 1 = strict bound */
  const char *const *values; /* CHOICE and BC: allowed values, NULL-terminated */
} nav_key;

#define NAV_FIELD(member) offsetof(nav_config, member), sizeof(((nav_config *)0)->member)
#define NAV_RANGE(a, ao, b, bo) .lo = (a), .lo_open = (ao), .hi = (b), .hi_open = (bo)
#define NAV_ANY NAV_RANGE(-HUGE_VAL, 0, HUGE_VAL, 0)
#define NAV_ATLEAST(a) NAV_RANGE(a, 0, HUGE_VAL, 0)
#define NAV_ABOVE(a) NAV_RANGE(a, 1, HUGE_VAL, 0)

static const char *const nav_backend_values[] = {"auto", "cpu", "cuda", NULL};
static const char *const nav_transport_values[] = {"auto", "mpi", "cuda-aware", "nccl", "cuda-ipc", NULL};
static const char *const nav_overlap_values[] = {"on", "off", NULL};
static const char *const nav_initial_values[] = {"rest", "taylor_green", "abc", "uniform", "kovasznay", "poiseuille", "shear_wave", "pulse", NULL};
static const char *const nav_forcing_values[] = {"none", "pressure_gradient", "flow_rate", NULL};
static const char *const nav_turbulence_values[] = {"off", "k_omega_sst", NULL};
static const char *const nav_direction_values[] = {"x", "y", "z", NULL};
static const char *const nav_profile_values[] = {"uniform", "parabolic", "file", "exact", NULL};
static const char *const nav_solver_values[] = {"auto", "fft", "mg", "mgpcg", "pcg", "sor", "jacobi", NULL};
static const char *const nav_cycle_values[] = {"v", "f", NULL};
static const char *const nav_smoother_values[] = {"auto", "point", "line", NULL};
static const char *const nav_precision_values[] = {"double", "mixed", NULL};
static const char *const nav_guess_values[] = {"previous", "extrapolated", NULL};
static const char *const nav_bool_values[] = {"false", "true", NULL};
static const char *const nav_format_values[] = {"auto", "vtk", "hdf5", "both", NULL};
/* Same order as nav_bc_type: the index is the enum value. */
static const char *const nav_bc_values[] = {"wall", "free_slip", "periodic", "inflow", "outflow", NULL};
/* Same order as nav_thermal_type. */
static const char *const nav_thermal_values[] = {"flux", "fixed", "periodic", NULL};
static const char *const nav_model_values[] = {"off", "boussinesq", NULL};
static const char *const nav_tinitial_values[] = {"uniform", "conduction", "wave", NULL};
static const char *const nav_spacing_values[] = {"uniform", "tanh", "geometric", "file", NULL};
static const char *const nav_cluster_values[] = {"both", "low", "high", NULL};
static const char *const nav_body_kind_values[] = {"none", "circle", "cylinder", "sphere", "box", "points", "stl", NULL};
static const char *const nav_body_forcing_values[] = {"diffuse", "sharp", NULL};

/* The spacing keys of direction x, y or z (grid/nav_spacing.h has the formulas). */
#define NAV_SPACING_KEYS(x, d, n, l)                                                                    \
  {"grid", #x "_spacing", NAV_KT_CHOICE, NAV_FIELD(spacing[d]), "uniform",                             \
   "Cell widths along " #x ": uniform, tanh (clustered at the walls: " #x "_gamma, " #x "_cluster), "   \
   "geometric (growing by " #x "_ratio from one or both sides: " #x "_cluster) or file (the " n " + 1 "  \
   "face coordinates read from " #x "_file).", .values = nav_spacing_values},                          \
  {"grid", #x "_gamma", NAV_KT_REAL, NAV_FIELD(gamma[d]), "2",                                         \
   "tanh spacing: the clustering gamma; both ends: " #x "_j = " #x "0 + " l "/2 (1 + tanh(gamma (2j/" n  \
   " - 1)) / tanh gamma), one end (low): " #x "0 + " l " (1 + tanh(gamma (j/" n " - 1)) / tanh gamma), " \
   "(high): " #x "0 + " l " tanh(gamma j/" n ") / tanh gamma. Larger is finer at the walls.",           \
   NAV_ABOVE(0)},                                                                                      \
  {"grid", #x "_cluster", NAV_KT_CHOICE, NAV_FIELD(cluster[d]), "both",                                \
   "tanh and geometric spacing: where the smallest cells are: both (both ends), low (" #x " = " #x "0) " \
   "or high (" #x " = " #x "0 + " l ").", .values = nav_cluster_values},                                \
  {"grid", #x "_ratio", NAV_KT_REAL, NAV_FIELD(ratio[d]), "1.1",                                       \
   "geometric spacing: the ratio of successive cell widths, away from the " #x "_cluster side(s) (1 = "  \
   "uniform).", NAV_ABOVE(0)},                                                                         \
  {"grid", #x "_file", NAV_KT_TEXT, NAV_FIELD(file[d]), "",                                            \
   "file spacing: a text file of the " n " + 1 face coordinates along " #x ", one per line ('#' lines "  \
   "and blank lines skipped), strictly increasing from " #x "0 to " #x "0 + " l "; a relative path is "  \
   "taken from the case file's folder. tools/navier-grid writes one (a uniform block with growing "    \
   "outer parts).", .values = NULL}
static const char *const nav_method_values[] = {"projection", "artificial_compressibility", NULL};
static const char *const nav_ac_cycle_values[] = {"v", "w", "f", NULL};
static const char *const nav_diffusion_values[] = {"explicit", "implicit", NULL};
static const char *const nav_nut_values[] = {"none", "linear", NULL};

#define NAV_FACE(face, d, s, where)                                                                \
  {"boundary", #face, NAV_KT_BC, NAV_FIELD(bc[d][s]), "wall",                                      \
   "Boundary of the face " where ": wall (no slip), free_slip (no penetration, no shear stress), " \
   "periodic (the opposite face must be periodic too), inflow (prescribed velocity: " #face        \
   "_velocity shaped by " #face "_profile) or outflow (convective outflow du/dt + U_c du/dn = 0, "  \
   "U_c the mean outflow speed, with a global flux correction that conserves mass).",              \
   .values = nav_bc_values}
#define NAV_FACE_VELOCITY(face, d, s, def, tangential)                                             \
  {"boundary", #face "_velocity", NAV_KT_VEC3, NAV_FIELD(wall_velocity[d][s]), def,                \
   "Velocity u,v,w of the " #face " wall (only the tangential components (" tangential             \
   ") may be non-zero), or of the inflow (the normal component is the inflow speed, signed "       \
   "along the axis); 0,0,0 on the other faces.",                                                   \
   NAV_ANY},                                                                                       \
  {"boundary", #face "_profile", NAV_KT_CHOICE, NAV_FIELD(inflow_profile[d][s]), "uniform",        \
   "Shape of the inflow velocity (inflow faces only): uniform (" #face "_velocity everywhere), "  \
   "parabolic (" #face "_velocity times 4 s (1 - s) along each non-periodic tangential direction, "\
   "s from 0 to 1 across the face: the peak value), file (the table " #face "_profile_file) or "   \
   "exact (the analytic solution of physics.initial).",                                            \
   .values = nav_profile_values},                                                                  \
  {"boundary", #face "_profile_file", NAV_KT_TEXT, NAV_FIELD(inflow_file[d][s]), "",               \
   "Inflow profile table of " #face "_profile = file: lines 'x u v' (2D) or 'x u v w' (3D), x "    \
   "strictly increasing along the first non-periodic tangential direction and spanning the face "  \
   "(linear interpolation; uniform along the other tangential direction); # starts a comment.",   \
   .values = NULL}

static const nav_key nav_keys[] = {
    {"run", "name", NAV_KT_NAME, NAV_FIELD(name), "cavity2d_re100",
     "Case name: written to summary.json; the default output folder is output/<name>.", .values = NULL},
    {"run", "backend", NAV_KT_CHOICE, NAV_FIELD(backend), "auto",
     "Compute backend: cpu (OpenMP), cuda (GPU), or auto (cuda when a GPU is visible and the CUDA backend is built, else cpu).", .values = nav_backend_values},
    {"run", "halo_transport", NAV_KT_CHOICE, NAV_FIELD(halo_transport), "auto",
     "How halo planes travel between ranks: mpi (host buffers; a GPU backend stages them through the host), "
     "cuda-aware (MPI on device buffers, when the MPI library reports CUDA support), nccl (ncclSend/ncclRecv "
     "between GPUs; libnccl.so.2 is loaded at run time), cuda-ipc (the ranks of one node copy into each other's "
     "GPU buffers through CUDA IPC), or auto (on a GPU backend cuda-ipc when every rank is on one node, else nccl, "
     "else cuda-aware, else mpi; on the cpu backend mpi).", .values = nav_transport_values},
    {"run", "halo_overlap", NAV_KT_CHOICE, NAV_FIELD(halo_overlap), "off",
     "Overlap the halo exchange of the multigrid smoother with the work inside each block (on a GPU: the exchange "
     "on a second stream while the block's core is relaxed) on the levels with blocks of 32768 cells or more: on "
     "or off. The result is the same bit for bit; off is the default because it was faster on 2 H200 GPUs "
     "(docs/performance.md).",
     .values = nav_overlap_values},
    {"run", "decomposition", NAV_KT_DECOMP, NAV_FIELD(decomposition), "auto",
     "MPI ranks per direction px,py,pz (their product must be the number of ranks; pz = 1 in 2D; every block "
     "needs at least 2 cells per direction), or auto (MPI_Dims_create's counts, the most ranks to the direction of "
     "the most cells, between equal ones to the later direction: z slabs on a cube, which the FFT solver serves "
     "without transposes). Uneven splits are allowed: the first ranks of a direction get the extra cells.",
     .values = NULL},

    {"grid", "dim", NAV_KT_INT, NAV_FIELD(dim), "2",
     "Number of space dimensions; in 2D there is no z direction (nz = 1, z faces ignored).", NAV_RANGE(2, 0, 3, 0)},
    {"grid", "nx", NAV_KT_INT, NAV_FIELD(nx), "128", "Number of cells in x.", NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "ny", NAV_KT_INT, NAV_FIELD(ny), "128", "Number of cells in y.", NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "nz", NAV_KT_INT, NAV_FIELD(nz), "1", "Number of cells in z (must be 1 when dim = 2).",
     NAV_RANGE(1, 0, 1 << 20, 0)},
    {"grid", "lx", NAV_KT_REAL, NAV_FIELD(lx), "1", "Domain length in x.", NAV_ABOVE(0)},
    {"grid", "ly", NAV_KT_REAL, NAV_FIELD(ly), "1", "Domain length in y.", NAV_ABOVE(0)},
    {"grid", "lz", NAV_KT_REAL, NAV_FIELD(lz), "1", "Domain length in z.", NAV_ABOVE(0)},
    {"grid", "x0", NAV_KT_REAL, NAV_FIELD(x0), "0", "Domain origin (lower corner) in x.", NAV_ANY},
    {"grid", "y0", NAV_KT_REAL, NAV_FIELD(y0), "0", "Domain origin (lower corner) in y.", NAV_ANY},
    {"grid", "z0", NAV_KT_REAL, NAV_FIELD(z0), "0", "Domain origin (lower corner) in z.", NAV_ANY},
    NAV_SPACING_KEYS(x, 0, "nx", "lx"),
    NAV_SPACING_KEYS(y, 1, "ny", "ly"),
    NAV_SPACING_KEYS(z, 2, "nz", "lz"),

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
     "turbulence model, the same measure of T, k and omega counts too); 0 = off.", NAV_ATLEAST(0)},
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

    {"physics", "nu", NAV_KT_REAL, NAV_FIELD(nu), "0.01", "Kinematic viscosity; Re = U L / nu.", NAV_ABOVE(0)},
    {"physics", "initial", NAV_KT_CHOICE, NAV_FIELD(initial), "rest",
     "Initial velocity: rest (zero), taylor_green (Taylor-Green vortex; periodic x and y), abc "
     "(Arnold-Beltrami-Childress flow; dim = 3, all faces periodic), uniform (uniform_velocity), shear_wave (u = amplitude cos(pi (y - y0) / ly), the exact decaying solution exp(-nu pi^2 t / ly^2) between free-slip "
     "y faces; periodic x), kovasznay "
     "(Kovasznay flow, dim = 2: u = 1 - exp(l x) cos(2 pi y), v = l/(2 pi) exp(l x) sin(2 pi y), l = Re/2 - "
     "sqrt(Re^2/4 + 4 pi^2), Re = 1/nu, in absolute coordinates) or poiseuille (plane Poiseuille flow of "
     "bulk velocity amplitude along forcing_direction, between the two walls of the first other direction "
     "that has walls on both faces: 6 amplitude s (1 - s), s from 0 to 1 across), "
     "pulse (uniform_velocity plus v = amplitude (s0/s) exp(-(x' - lx/2 - U t)^2 / (2 s^2)), x' = x - x0, U the x "
     "component of uniform_velocity, s^2 = s0^2 + 2 nu t, s0 = lx/12: a band of v carried along x and spread by "
     "diffusion, exact while it stays clear of the x faces it is not carried through; periodic y and z).",
     .values = nav_initial_values},
    {"physics", "amplitude", NAV_KT_REAL, NAV_FIELD(amplitude), "1",
     "Velocity amplitude of the analytic initial fields (taylor_green, abc, shear_wave, pulse).", NAV_ABOVE(0)},
    {"physics", "uniform_velocity", NAV_KT_VEC3, NAV_FIELD(uniform_velocity), "0,0,0",
     "The velocity u,v,w of initial = uniform (a uniform flow, which the equations keep exactly in a periodic box), "
     "and the flow that carries the band of initial = pulse.",
     NAV_ANY},
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
    {"physics", "nu_t", NAV_KT_CHOICE, NAV_FIELD(nu_t), "none",
     "Eddy viscosity nu_t added to nu in the stress-form viscous term div((nu + nu_t)(grad u + grad u^T)): none, "
     "or linear (nu_t = nu_t_value + nu_t_gradient . (x - origin), a prescribed field for verification; it must "
     "be >= 0 in the whole domain).",
     .values = nav_nut_values},
    {"physics", "nu_t_value", NAV_KT_REAL, NAV_FIELD(nu_t_value), "0",
     "nu_t = linear: the eddy viscosity at the origin (x0, y0, z0).", NAV_ANY},
    {"physics", "nu_t_gradient", NAV_KT_VEC3, NAV_FIELD(nu_t_gradient), "0,0,0",
     "nu_t = linear: the gradient of the eddy viscosity (x, y, z components).", NAV_ANY},

    NAV_FACE(x_low, 0, 0, "x = x0"),
    NAV_FACE(x_high, 0, 1, "x = x0 + lx"),
    NAV_FACE(y_low, 1, 0, "y = y0"),
    NAV_FACE(y_high, 1, 1, "y = y0 + ly (the cavity lid)"),
    NAV_FACE(z_low, 2, 0, "z = z0 (3D only)"),
    NAV_FACE(z_high, 2, 1, "z = z0 + lz (3D only)"),
    NAV_FACE_VELOCITY(x_low, 0, 0, "0,0,0", "v, w"),
    NAV_FACE_VELOCITY(x_high, 0, 1, "0,0,0", "v, w"),
    NAV_FACE_VELOCITY(y_low, 1, 0, "0,0,0", "u, w"),
    NAV_FACE_VELOCITY(y_high, 1, 1, "1,0,0", "u, w"),
    NAV_FACE_VELOCITY(z_low, 2, 0, "0,0,0", "u, v"),
    NAV_FACE_VELOCITY(z_high, 2, 1, "0,0,0", "u, v"),

    {"pressure", "solver", NAV_KT_CHOICE, NAV_FIELD(solver), "auto",
     "Pressure Poisson solver: auto (fft where it applies, except on GPUs over several ranks, else mg), fft (direct: real-to-real transforms in "
     "every uniformly spaced direction, tridiagonal lines in one non-uniform direction and the eigenvectors of any "
     "other as dense matrix products; no stretched direction may be periodic; FFTW and BLAS on the CPU, cuFFT and "
     "cuBLAS on the GPU; auto takes it when every dense direction has at most 512 cells on the CPU, 4096 on a GPU), "
     "mg (geometric multigrid), mgpcg (conjugate gradients preconditioned by a "
     "multigrid V-cycle), and the baselines pcg (Jacobi-preconditioned conjugate gradients), sor (red-black "
     "successive over-relaxation) and jacobi (damped Jacobi).",
     .values = nav_solver_values},
    {"pressure", "tolerance", NAV_KT_REAL, NAV_FIELD(tolerance), "1e-8",
     "Relative residual ||b - Ax|| / ||b|| at which a pressure solve stops.", NAV_RANGE(0, 1, 1, 1)},
    {"pressure", "max_iterations", NAV_KT_INT, NAV_FIELD(max_iterations), "200",
     "Most multigrid cycles (mg) or iterations (the other solvers) per pressure solve.", NAV_ATLEAST(1)},
    {"pressure", "cycle", NAV_KT_CHOICE, NAV_FIELD(cycle), "v", "Multigrid cycle: v (V-cycle) or f (F-cycle).",
     .values = nav_cycle_values},
    {"pressure", "pre_smooth", NAV_KT_INT, NAV_FIELD(pre_smooth), "2",
     "Red-black Gauss-Seidel sweeps before the coarse-grid correction (mg).", NAV_RANGE(0, 0, 20, 0)},
    {"pressure", "post_smooth", NAV_KT_INT, NAV_FIELD(post_smooth), "2",
     "Red-black Gauss-Seidel sweeps after the coarse-grid correction (mg; mgpcg needs post_smooth = pre_smooth).",
     NAV_RANGE(0, 0, 20, 0)},
    {"pressure", "omega", NAV_KT_REAL, NAV_FIELD(omega), "0",
     "Relaxation factor of sor and jacobi; 0 = estimated optimum (sor: 2 / (1 + sqrt(1 - rho_J^2)) from the grid) "
     "or 0.8 (jacobi).",
     NAV_RANGE(0, 0, 2, 1)},
    {"pressure", "smoother", NAV_KT_CHOICE, NAV_FIELD(smoother), "auto",
     "Multigrid smoother (mg, mgpcg): auto (zebra line Gauss-Seidel, a tridiagonal solve per line, along each "
     "direction whose coupling 1/h^2 is somewhere more than twice that of the other directions, as on stretched "
     "grids; red-black Gauss-Seidel on levels without such a direction, e.g. uniform grids), point (red-black "
     "Gauss-Seidel on every level) or line (zebra lines along every direction in turn on every level). Lines split "
     "over ranks are relaxed block by block (the neighbour rank's values are kept during a sweep).",
     .values = nav_smoother_values},
    {"pressure", "precision", NAV_KT_CHOICE, NAV_FIELD(precision), "double",
     "Multigrid (solver = mg) on a GPU: mixed runs the cycles in single precision inside a double-precision "
     "iteration (the residual and the solution stay double: the same tolerance is reached, the cycles move half "
     "the bytes); it applies on one rank with point smoothing on the GPU's levels, elsewhere the solve stays double "
     "and the solver line says why. double: every level in double. Ignored by the single-precision build and "
     "by artificial compressibility.",
     .values = nav_precision_values},
    {"pressure", "cpu_coarse_cells", NAV_KT_INT, NAV_FIELD(cpu_coarse_cells), "0",
     "On a GPU backend the multigrid levels of at most this many cells (global) run on the CPU of rank 0, where a "
     "launch would cost more than the level's work; 0 = automatic (512 for a 3D grid on one rank, else 4096; measured in "
     "docs/performance.md).",
     NAV_RANGE(0, 0, 1 << 30, 0)},
    {"pressure", "initial_guess", NAV_KT_CHOICE, NAV_FIELD(initial_guess), "previous",
     "Start of each iterative pressure solve (every solver but fft, which is direct) of the projection method with "
     "explicit diffusion: previous (p^n) or extrapolated (linear in time from the last two steps, p^n + (dt^{n+1} / "
     "dt^n) (p^n - p^{n-1}); one more pressure array, which checkpoints hold). extrapolated took 5-40 % fewer "
     "multigrid cycles in the cases of docs/performance.md, but it can also cost many more: the flying snake with "
     "mgpcg and point smoothing took 22.7 iterations per step instead of 3.3 (the extrapolation amplifies the error "
     "that each solve leaves in slowly converging modes), so it is not the default. Implicit diffusion starts its "
     "pressure increment from the previous one.",
     .values = nav_guess_values},

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

    /* output formats, checkpoints and stops */
    {"output", "format", NAV_KT_CHOICE, NAV_FIELD(format), "auto",
     "Format of the field snapshots: hdf5 (DIR/fields_<step>.h5, parallel HDF5, described by DIR/fields.xmf for "
     "ParaView), vtk (DIR/fields_<step>.vtk, legacy VTK), both, or auto (hdf5 when navier is built with HDF5, else "
     "vtk).", .values = nav_format_values},
    {"output", "checkpoint_interval", NAV_KT_LONG, NAV_FIELD(checkpoint_interval), "0",
     "Write a checkpoint (DIR/checkpoint_<step>.nck, restart with navier run CASE --restart FILE) every this many "
     "steps; 0 = off. With checkpoints on, the end of a completed run writes one too.", NAV_ATLEAST(0)},
    {"output", "checkpoint_dt", NAV_KT_REAL, NAV_FIELD(checkpoint_dt), "0",
     "Write a checkpoint every this much simulated time; 0 = off.", NAV_ATLEAST(0)},
    {"output", "checkpoint_keep", NAV_KT_INT, NAV_FIELD(checkpoint_keep), "2",
     "Keep the newest this many checkpoints in DIR; older ones are deleted after a new one is complete.",
     NAV_ATLEAST(1)},
    {"output", "plots", NAV_KT_CHOICE, NAV_FIELD(plots), "false",
     "true: at the end of a run that completed or stopped, write the final fields (unless the last snapshot is of "
     "the last step) and make the figures of `navier plot DIR` (PNG in DIR/plots; a failure of the plot tool is a "
     "warning). The embedded default case (`navier run` without a case file) has true.", .values = nav_bool_values},
    {"time", "max_cfl", NAV_KT_REAL, NAV_FIELD(max_cfl), "5",
     "Stop the run as failed when the CFL number of a step (max sum_d |u_d| dt / h_d) exceeds this; 0 = off.",
     NAV_ATLEAST(0)},
#define NAV_TFACE(face, d, s, where)                                                                \
  {"temperature", #face, NAV_KT_ENUM, NAV_FIELD(tbc[d][s]), "flux",                                \
   "Temperature boundary of the face " where ": fixed (temperature " #face "_value), flux (heat flux " \
   #face "_value into the domain, q = kappa dT/dn with n the outward normal, q > 0 heats the fluid; " \
   "0, the default, is adiabatic) or periodic (exactly where the velocity is periodic).",          \
   .values = nav_thermal_values},                                                                  \
  {"temperature", #face "_value", NAV_KT_REAL, NAV_FIELD(tbc_value[d][s]), "0",                    \
   "Wall temperature (" #face " = fixed) or heat flux into the domain (" #face " = flux).", NAV_ANY}
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
     "Reference temperature, at which the buoyancy vanishes (only the hydrostatic pressure depends on it).",
     NAV_ANY},
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
    /* the method (solvers/nav_ac.h) */
    {"run", "method", NAV_KT_CHOICE, NAV_FIELD(method), "projection",
     "projection (time-accurate: Adams-Bashforth and a pressure Poisson solve per step; any flow) or "
     "artificial_compressibility (steady flows only: the same discrete steady equations marched in pseudo-time "
     "with local steps, dp/dtau = -beta^2 div u, no Poisson solve; stops at [time] steady_tol on the residuals "
     "max(|N(u) + B - grad p| / max|u|, |div u|, |S(T)| / dT) (max norms), or after max_steps iterations).",
     .values = nav_method_values},
    {"run", "ac_beta", NAV_KT_REAL, NAV_FIELD(ac_beta), "1",
     "Artificial compressibility: the pseudo sound speed factor, beta = ac_beta max(|u|, ac_u_ref) with |u| the "
     "local speed.", NAV_ABOVE(0)},
    {"run", "ac_u_ref", NAV_KT_REAL, NAV_FIELD(ac_u_ref), "0",
     "Artificial compressibility: the reference speed, the floor of the local speed in beta; 0 = automatic (the "
     "largest of max|u|, the wall speeds, the buoyancy speed sqrt(|b| dT l) and max(nu, kappa) / l, l the smallest "
     "domain length, dT the temperature range of the fixed faces).", NAV_ATLEAST(0)},
    {"run", "ac_cfl", NAV_KT_REAL, NAV_FIELD(ac_cfl), "1.5",
     "Artificial compressibility: CFL number of the local pseudo-time steps, dtau = ac_cfl / (sum_d (|u_d| + "
     "sqrt(u_d^2 + beta^2)) / h_d + 2 max(nu, kappa) sum_d 1 / h_d^2).", NAV_RANGE(0, 1, 4, 0)},
    {"run", "ac_stages", NAV_KT_INT, NAV_FIELD(ac_stages), "4",
     "Artificial compressibility: stages m of the pseudo-time scheme x = x0 + dtau R(x) / (m - k), k = 0..m-1 "
     "(1 = forward Euler, 4 = Jameson's four stages).", NAV_RANGE(1, 0, 4, 0)},
    {"run", "ac_levels", NAV_KT_INT, NAV_FIELD(ac_levels), "0",
     "Artificial compressibility: levels of the multigrid in pseudo-time (FAS V-cycles, one iteration of the "
     "pseudo-time scheme before and after each coarse-grid correction), taken from the pressure multigrid's "
     "levels while every block halves exactly; 0 = all of them, 1 = a single grid.", NAV_RANGE(0, 0, 24, 0)},
    {"run", "ac_cycle", NAV_KT_CHOICE, NAV_FIELD(ac_cycle), "w",
     "Artificial compressibility: the cycle of the multigrid in pseudo-time: v (one coarse-grid cycle per level), w "
     "(two: level l visited 2^l times) or f (an F-cycle then a V-cycle: level l visited l + 1 times).",
     .values = nav_ac_cycle_values},
    {"run", "ac_w_min_cells", NAV_KT_INT, NAV_FIELD(ac_w_min_cells), "16",
     "Artificial compressibility, ac_cycle = w: the levels whose shortest global edge has fewer cells than this are "
     "visited by V-cycles (one visit per visit of the finer level), bounding the visits of the small levels (on 256^2: "
     "79 level visits per cycle instead of 255); 1 = W-cycles down to the coarsest level.", NAV_RANGE(1, 0, 1 << 20, 0)},
    {"run", "ac_dissipation", NAV_KT_REAL, NAV_FIELD(ac_dissipation), "1",
     "Artificial compressibility: the coarse levels of the pseudo-time multigrid add k sum_d (|u_d| h_d / 2) d2 x / "
     "dx_d^2 to the momentum and temperature equations (k = 1: their advection becomes first-order upwind, stable at "
     "any cell Reynolds number); the finest level keeps the central scheme, so the steady answer does not depend on "
     "k; 0 = central on every level.", NAV_RANGE(0, 0, 4, 0)},
    {"run", "ac_nested_tol", NAV_KT_REAL, NAV_FIELD(ac_nested_tol), "0",
     "Artificial compressibility: nested iteration (full multigrid) start: from the coarsest level up, each coarse "
     "level's own steady problem is iterated until its residual is below this value (at most 200 cycles), then its "
     "change is interpolated to the next finer level; 0 = start on the finest grid.", NAV_ATLEAST(0)},
    /* [turbulence] (physics/nav_turbulence.h) */
    {"turbulence", "model", NAV_KT_CHOICE, NAV_FIELD(turbulence_model), "off",
     "off, or k_omega_sst: Menter's k-omega SST model in the SST-2003 form of the NASA Turbulence Modeling "
     "Resource (docs/design.md); k and omega transported (upwind advection, implicit diffusion with nu + sigma "
     "nu_t, linearised implicit sinks), nu_t = a1 k / max(a1 omega, S F2) added to nu in the momentum equation. "
     "Walls: k = 0, omega = 60 nu / (beta1 d1^2) at the wall (d1: wall to first cell centre).",
     .values = nav_turbulence_values},
    {"turbulence", "intensity", NAV_KT_REAL, NAV_FIELD(intensity), "0.05",
     "Turbulence intensity I of the inflow faces and of the initial field: k = 1.5 (I U)^2 with U the inflow "
     "speed of the face (initial field: the velocity scale of the case, docs/case-file.md rules).", NAV_ATLEAST(0)},
    {"turbulence", "length_scale", NAV_KT_REAL, NAV_FIELD(length_scale), "0",
     "Turbulence length scale L of the inflow faces and of the initial field: omega = sqrt(k) / (beta*^(1/4) L); "
     "0 = a tenth of the smallest domain length.", NAV_ATLEAST(0)},
    {"turbulence", "nut_relaxation", NAV_KT_REAL, NAV_FIELD(nut_relaxation), "1",
     "The eddy viscosity of the momentum equation after each step: nu_t <- a nu_t(model) + (1 - a) nu_t. 1 = the "
     "model's (time-accurate); 0.2 damps the flip-flop of k and nu_t that large implicit steps towards a steady "
     "state excite (the channel cases: 240 and 370 steps; 0.5: 3220 at Re_tau 5200; the steady state does not "
     "depend on it).", NAV_RANGE(0, 1, 1, 0)},
    {"turbulence", "k_initial", NAV_KT_REAL, NAV_FIELD(k_initial), "0",
     "Uniform initial k; 0 = from intensity and the velocity scale.", NAV_ATLEAST(0)},
    {"turbulence", "omega_initial", NAV_KT_REAL, NAV_FIELD(omega_initial), "0",
     "Uniform initial omega; 0 = from k and length_scale.", NAV_ATLEAST(0)},
    /* [body.N]: the rows of one body; nav_apply_body shifts their offsets to body[N-1] (keep them together) */
    {"body", "kind", NAV_KT_CHOICE, NAV_FIELD(body[0].kind), "none",
     "Shape of the body: circle (2D), cylinder (3D, axis along z, spanning the domain), sphere (3D), box (a "
     "rectangle in 2D, a block in 3D: edge lengths `size`), points (a closed 2D polyline from `file`, extruded "
     "along z in 3D) or stl (a closed triangulated surface from `file`, 3D).", .values = nav_body_kind_values},
    {"body", "name", NAV_KT_TEXT, NAV_FIELD(body[0].name), "",
     "Label of the body in monitor.csv (columns cd_<name>, cl_<name>, cs_<name>) and summary.json: up to 31 of "
     "A-Z a-z 0-9 _ -; empty = body<N>.", .values = NULL},
    {"body", "center", NAV_KT_VEC3, NAV_FIELD(body[0].center), "0,0,0",
     "Position x,y,z of the body frame's origin (the centre of a circle, cylinder, sphere or box; z is ignored in "
     "2D and by a cylinder).", NAV_ANY},
    {"body", "radius", NAV_KT_REAL, NAV_FIELD(body[0].radius), "0.5", "Radius of a circle, cylinder or sphere.",
     NAV_ABOVE(0)},
    {"body", "size", NAV_KT_VEC3, NAV_FIELD(body[0].size), "1,1,1",
     "Box: edge lengths along the body frame's axes (each > 0; the third ignored in 2D).", NAV_ANY},
    {"body", "scale", NAV_KT_REAL, NAV_FIELD(body[0].scale), "1",
     "Factor on every length of the shape (radius, size, the coordinates of a file).", NAV_ABOVE(0)},
    {"body", "angle", NAV_KT_REAL, NAV_FIELD(body[0].angle), "0",
     "Rotation of the body about the z axis, in degrees, counter-clockwise seen from +z (a body at angle of "
     "attack a in a stream along +x has angle = -a).", NAV_RANGE(-360, 0, 360, 0)},
    {"body", "velocity", NAV_KT_VEC3, NAV_FIELD(body[0].velocity), "0,0,0",
     "Velocity u,v,w of the body surface: the no-slip condition imposes it (a rigid translation of a body whose "
     "position is held; w = 0 in 2D).", NAV_ANY},
    {"body", "motion_velocity", NAV_KT_VEC3, NAV_FIELD(body[0].motion_velocity), "0,0,0",
     "Prescribed motion: the body translates with this velocity, x(t) = center + motion_velocity t + "
     "motion_amplitude sin(2 pi motion_frequency t); its surface moves with dx/dt (plus `velocity`). The body must "
     "stay inside the domain up to end_time.", NAV_ANY},
    {"body", "motion_amplitude", NAV_KT_VEC3, NAV_FIELD(body[0].motion_amplitude), "0,0,0",
     "Prescribed motion: amplitude of the sinusoidal displacement (see motion_velocity).", NAV_ANY},
    {"body", "motion_frequency", NAV_KT_REAL, NAV_FIELD(body[0].motion_frequency), "0",
     "Prescribed motion: frequency f of the sinusoidal displacement (cycles per unit time).", NAV_ATLEAST(0)},
    {"body", "rotation_rate", NAV_KT_REAL, NAV_FIELD(body[0].rotation_rate), "0",
     "Prescribed rotation about the z axis through the (moving) centre, degrees per unit time: angle(t) = angle + "
     "rotation_rate t + pitch_amplitude sin(2 pi pitch_frequency t); the surface moves with the rigid velocity "
     "dx/dt + omega x (x - center).", NAV_ANY},
    {"body", "pitch_amplitude", NAV_KT_REAL, NAV_FIELD(body[0].pitch_amplitude), "0",
     "Prescribed rotation: amplitude of a sinusoidal pitch about z, degrees (see rotation_rate).", NAV_ANY},
    {"body", "pitch_frequency", NAV_KT_REAL, NAV_FIELD(body[0].pitch_frequency), "0",
     "Prescribed rotation: frequency of the pitch (cycles per unit time).", NAV_ATLEAST(0)},
    {"body", "file", NAV_KT_TEXT, NAV_FIELD(body[0].file), "",
     "points: a text file of x,y rows (the closed polyline); stl: an ASCII or binary STL file; a relative path is "
     "taken from the case file's folder. Other kinds: must be empty.", .values = NULL},
    {"bodies", "forcing", NAV_KT_CHOICE, NAV_FIELD(bodies_forcing), "diffuse",
     "No-slip forcing of every body (docs/design.md, \"Immersed bodies\"): diffuse (weighted by each face's solid "
     "fraction, a ramp over a cell: first order) or sharp (faces inside take the body's velocity, fluid faces next to "
     "them the linear reconstruction along the normal from an image point on the next grid plane: second order, one "
     "more halo exchange per step).", .values = nav_body_forcing_values},
    {"forces", "reference_velocity", NAV_KT_REAL, NAV_FIELD(reference_velocity), "1",
     "Velocity U of the force coefficients C = 2 F / (U^2 A) (density 1).", NAV_ABOVE(0)},
    {"forces", "reference_length", NAV_KT_REAL, NAV_FIELD(reference_length), "1",
     "2D: the length A of the force coefficients (per unit span; the diameter of a cylinder), also the length of "
     "the Strouhal number St = f L / U and of the recirculation length L_w / L.", NAV_ABOVE(0)},
    {"forces", "reference_area", NAV_KT_REAL, NAV_FIELD(reference_area), "1",
     "3D: the area A of the force coefficients (pi D^2 / 4 for a sphere, D times the span for a cylinder).",
     NAV_ABOVE(0)},
    {"forces", "average_start", NAV_KT_REAL, NAV_FIELD(average_start), "0",
     "Time from which summary.json averages the coefficients (cd_mean, cl_mean), takes the lift amplitude and the "
     "Strouhal number (monitor steps with t >= average_start of this run).", NAV_ATLEAST(0)},
};

#define NAV_NKEYS ((int)(sizeof nav_keys / sizeof nav_keys[0]))

static const struct {
  const char *name, *doc;
} nav_sections[] = {
    {"run", "What the case is called and where it runs."},
    {"grid", "The domain, a box [x0, x0 + lx] x [y0, y0 + ly] x [z0, z0 + lz], and its grid of cells: uniform, or "
             "stretched per direction (tanh, geometric, or face coordinates from a file)."},
    {"time", "Time step and stop criteria. The run stops at the first criterion met; at least one of end_time, "
             "max_steps and steady_tol must be non-zero."},
    {"physics", "Fluid and initial condition."},
    {"boundary", "Velocity boundary condition of each face (the pressure has a zero normal gradient at walls, "
                 "inflow and outflow faces; docs/design.md says why). An outflow face convects the velocity out "
                 "with U_c, the mean speed of the outflow, and its normal velocity is corrected by one uniform "
                 "amount per step so that the flux out equals the flux in: mass is conserved to round-off and "
                 "the pressure problem is compatible."},
    {"pressure", "Solver of the pressure Poisson equation of the projection step."},
    {"output", "What is written, and how often."},
    {"temperature", "Boussinesq buoyancy: a transported temperature and its boundaries (off unless model = boussinesq)."},
    {"turbulence", "RANS turbulence model (off unless model = k_omega_sst)."},
    {"body", "Immersed bodies, one numbered section each: [body.1], [body.2], ... up to [body.8], numbered without "
             "gaps (the header is `[body.N]`; the keys below belong to each). The no-slip condition on the body is "
             "imposed by direct forcing on the velocity faces, diffuse or sharp (`[bodies] forcing`; docs/design.md); the force on each body is reported as coefficients in monitor.csv and summary.json."},
    {"bodies", "Options common to all bodies."},
    {"forces", "Reference values of the force coefficients of the bodies, and the window of their time averages."},
};

#define NAV_NSECTIONS ((int)(sizeof nav_sections / sizeof nav_sections[0]))

/* The consistency rules that nav_check_consistency enforces, for the reference page. */
static const char *const nav_rules[] = {
    "Periodic faces come in pairs: `x_low` is periodic if and only if `x_high` is (same for y, and z in 3D).",
    "With `dim = 2`, `nz` must be 1 and the z faces and their velocities are ignored.",
    "At least one stop criterion among `end_time`, `max_steps` and `steady_tol` is non-zero.",
    "`initial = abc` needs `dim = 3` and all faces periodic; `initial = taylor_green` needs periodic x and y faces.",
    "`initial = shear_wave` needs periodic x faces and `free_slip` y faces; `initial = pulse` periodic y (and z) faces.",
    "A wall may move only tangentially: the normal component of its velocity is 0 (`x_low_velocity = 0,v,w`).",
    "On a periodic, free_slip or outflow face the velocity is `0,0,0` (it is not imposed there).",
    "`inflow` and `outflow` faces need a non-periodic direction. `<face>_profile` other than `uniform` and "
    "`<face>_profile_file` apply to inflow faces only; `file` needs a readable table that spans the face, `exact` an "
    "analytic `physics.initial`. With a temperature an inflow face is `fixed` and an outflow face `flux` with value 0.",
    "`forcing` other than `none` and `initial = poiseuille` need a periodic `forcing_direction`; `poiseuille` also "
    "needs another direction with walls on both faces, `kovasznay` needs `dim = 2`.",
    "`format = hdf5` or `both` needs a navier built with HDF5 (`NAV_ENABLE_HDF5=ON`, the default).",
    "`temperature.model = boussinesq` takes either the nondimensional input (`pr` > 0, with `ra`) or the "
    "dimensional input (`kappa` > 0, with `beta`, `gravity`, `physics.nu`): giving `pr` and `kappa`, neither, "
    "`beta` or a `physics.nu` other than `pr` with `pr`, or `ra` with `kappa` is an error.",
    "With `temperature.model = boussinesq` a temperature face is periodic if and only if its velocity face is; "
    "`temperature.initial = conduction` needs a direction with both faces `fixed`, `wave` needs every face periodic.",
    "`physics.nu_t = linear` must be >= 0 in the whole domain (checked at its corners).",
    "`turbulence.model = k_omega_sst` needs `run.method = projection`, `physics.nu_t = none`, and a wall face or a "
    "driven flow (`physics.forcing` other than `none`, or an inflow face). Its initial k is `k_initial`, else "
    "1.5 (intensity U)^2 with U the largest of the initial velocity amplitude, the wall and inflow speeds, the "
    "forcing_value of flow_rate and sqrt(|forcing_value| l) of pressure_gradient (l the smallest domain length).",
    "Bodies `[body.N]` are numbered 1, 2, ... without gaps, each with a `kind`; circle is 2D, cylinder, sphere and stl "
    "are 3D; a body lies inside the domain (its extent along each direction, a cylinder's along x and y); "
    "`file` is given for points and stl only; bodies need `method = projection`; names are unique.",
};

/* ---------------------------------------------------------------------------------------------- */
/* Values: text -> field                                                                          */


/* Decimal integer with nothing else around it but spaces; NULL on success, else what is wrong. */
static const char *nav_to_long(const char *s, long *v) {
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  while (isspace((unsigned char)*end)) end++;
  if (end == s || *end) return "expected an integer";
  if (errno == ERANGE) return "integer out of range";
  return NULL;
}

/* Finite real number (strtod syntax) with nothing else around it but spaces; NULL on success. */
static const char *nav_to_real(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  while (isspace((unsigned char)*end)) end++;
  if (end == s || *end) return "expected a real number";
  if (errno == ERANGE) return "number out of range"; /* overflow, or underflow to a denormal or zero */
  if (!isfinite(*v)) return "expected a finite real number";
  return NULL;
}

/* Shortest "%.Ng" text that reads back as exactly v. */
static void nav_format_real(double v, char *buf, size_t n) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) return;
  }
}

static int nav_check_range(const nav_key *k, double v, const char *text, char *why, size_t n) {
  char b[32];
  if (v < k->lo || (k->lo_open && v == k->lo)) {
    nav_format_real(k->lo, b, sizeof b);
    return nav_why(1, why, n, "must be %s %s, got %s", k->lo_open ? ">" : ">=", b, text);
  }
  if (v > k->hi || (k->hi_open && v == k->hi)) {
    nav_format_real(k->hi, b, sizeof b);
    return nav_why(1, why, n, "must be %s %s, got %s", k->hi_open ? "<" : "<=", b, text);
  }
  return 0;
}

/* Copy text into a char field of `size` bytes, zero-filling the rest (the caller checked the length). */
static void nav_store_string(void *field, size_t size, const char *text) {
  memset(field, 0, size);
  memcpy(field, text, strlen(text));
}

/* Parse `text` as the value of key k into cfg. Returns 0, or 1 with the reason in why (cfg unchanged). */
static int nav_parse_value(const nav_key *k, const char *text, nav_config *cfg, char *why, size_t n) {
  void *field = (char *)cfg + k->offset;
  const char *bad;
  switch (k->type) {
  case NAV_KT_INT:
  case NAV_KT_LONG: {
    long v;
    if ((bad = nav_to_long(text, &v))) return nav_why(1, why, n, "%s, got '%.80s'", bad, text);
    if (k->type == NAV_KT_INT && (v < INT_MIN || v > INT_MAX))
      return nav_why(1, why, n, "integer out of range, got '%.80s'", text);
    if (nav_check_range(k, (double)v, text, why, n)) return 1;
    if (k->type == NAV_KT_INT)
      *(int *)field = (int)v;
    else
      *(long *)field = v;
    return 0;
  }
  case NAV_KT_REAL: {
    double v;
    if ((bad = nav_to_real(text, &v))) return nav_why(1, why, n, "%s, got '%.80s'", bad, text);
    if (nav_check_range(k, v, text, why, n)) return 1;
    *(double *)field = v;
    return 0;
  }
  case NAV_KT_CHOICE:
  case NAV_KT_ENUM:
  case NAV_KT_BC: {
    char list[128] = "";
    for (int i = 0; k->values[i]; i++) {
      if (!strcmp(text, k->values[i])) {
        if (k->type == NAV_KT_BC)
          *(nav_bc_type *)field = (nav_bc_type)i;
        else if (k->type == NAV_KT_ENUM)
          *(int *)field = i;
        else
          nav_store_string(field, k->size, text);
        return 0;
      }
      if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
      strncat(list, k->values[i], sizeof list - strlen(list) - 1);
    }
    return nav_why(1, why, n, "must be one of %s, got '%.80s'", list, text);
  }
  case NAV_KT_NAME: {
    size_t len = strlen(text);
    int ok = len > 0 && len < k->size;
    for (const char *c = text; ok && *c; c++) ok = isalnum((unsigned char)*c) || *c == '_' || *c == '.' || *c == '-';
    if (!ok)
      return nav_why(1, why, n, "must be 1 to %zu characters among A-Z a-z 0-9 _ . -, got '%.80s'", k->size - 1, text);
    nav_store_string(field, k->size, text);
    return 0;
  }
  case NAV_KT_TEXT:
    if (strlen(text) >= k->size)
      return nav_why(1, why, n, "must be at most %zu characters, got %zu", k->size - 1, strlen(text));
    nav_store_string(field, k->size, text);
    return 0;
  case NAV_KT_VEC3: {
    double v[3];
    int nv = 0;
    const char *s = text;
    for (;;) {
      const char *comma = strchr(s, ',');
      size_t len = comma ? (size_t)(comma - s) : strlen(s);
      char piece[64];
      if (nv == 3 || len >= sizeof piece) break;
      memcpy(piece, s, len);
      piece[len] = '\0';
      if (nav_to_real(piece, &v[nv])) break;
      nv++;
      if (!comma) {
        if (nv != 3) break;
        memcpy(field, v, sizeof v);
        return 0;
      }
      s = comma + 1;
    }
    return nav_why(1, why, n, "expected three comma-separated real numbers u,v,w, got '%.80s'", text);
  }
  case NAV_KT_DECOMP: {
    int *v = field, p[3];
    char extra;
    if (!strcmp(text, "auto")) {
      v[0] = v[1] = v[2] = 0;
      return 0;
    }
    if (sscanf(text, "%d,%d,%d%c", &p[0], &p[1], &p[2], &extra) != 3 || p[0] < 1 || p[1] < 1 || p[2] < 1)
      return nav_why(1, why, n, "expected auto or three integers >= 1 px,py,pz, got '%.80s'", text);
    memcpy(v, p, sizeof p);
    return 0;
  }
  }
  return nav_why(1, why, n, "internal error: key type %d", (int)k->type);
}

/* Text of key k's value in cfg, as it would be written in a case file. */
static void nav_format_value(const nav_key *k, const nav_config *cfg, char *buf, size_t n) {
  const void *field = (const char *)cfg + k->offset;
  switch (k->type) {
  case NAV_KT_INT: snprintf(buf, n, "%d", *(const int *)field); return;
  case NAV_KT_LONG: snprintf(buf, n, "%ld", *(const long *)field); return;
  case NAV_KT_REAL: nav_format_real(*(const double *)field, buf, n); return;
  case NAV_KT_BC: snprintf(buf, n, "%s", k->values[*(const nav_bc_type *)field]); return;
  case NAV_KT_ENUM: snprintf(buf, n, "%s", k->values[*(const int *)field]); return;
  case NAV_KT_VEC3: {
    const double *v = field;
    char c[3][32];
    for (int i = 0; i < 3; i++) nav_format_real(v[i], c[i], sizeof c[i]);
    snprintf(buf, n, "%s,%s,%s", c[0], c[1], c[2]);
    return;
  }
  case NAV_KT_DECOMP: {
    const int *v = field;
    if (v[0] == 0)
      snprintf(buf, n, "auto");
    else
      snprintf(buf, n, "%d,%d,%d", v[0], v[1], v[2]);
    return;
  }
  case NAV_KT_CHOICE:
  case NAV_KT_NAME:
  case NAV_KT_TEXT: snprintf(buf, n, "%s", (const char *)field); return;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Loading: where each value came from, errors                                                    */

/* Order matters: a later source overrides an earlier one, and conflicts are reported at the later key. */
typedef enum nav_source { NAV_SRC_DEFAULT = 0, NAV_SRC_FILE = 1, NAV_SRC_SET = 2 } nav_source;

typedef struct nav_origin {
  nav_source src;
  int line; /* file line, or --set index (1-based); 0 for a default */
  int bad;  /* the last value given was rejected (and reported) */
} nav_origin;

typedef struct nav_load {
  nav_config *cfg;
  nav_config_errors *errs;
  const char *path;         /* case file, for messages */
  const char *default_name; /* "file" of defaults in messages: path, or "(default)" */
  nav_source src;           /* source being read, and its current line */
  int line;
  FILE *fp;
  int read_errno;       /* errno of a failed read */
  int section_line;     /* line of the last [section] header read */
  int reported_section; /* header line of the last unknown section reported */
  nav_origin at[NAV_NKEYS];
  nav_origin body_at[NAV_MAX_BODIES][NAV_BODY_MAX_KEYS]; /* the keys of [body.N], by row - nav_body_row0() */
} nav_load;

/* Append one line to errs; count every error, keep the text of those that fit whole. */
static void NAV_PRINTF(2, 3) nav_add_error(nav_config_errors *errs, const char *fmt, ...) {
  char line[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  errs->count++;
  size_t used = strlen(errs->text), len = strlen(line);
  if (used + len + 2 <= sizeof errs->text) {
    memcpy(errs->text + used, line, len);
    memcpy(errs->text + used + len, "\n", 2);
  }
}

static const char *nav_source_name(const nav_load *ld, nav_source src) {
  return src == NAV_SRC_FILE ? ld->path : src == NAV_SRC_SET ? "--set" : ld->default_name;
}

/* "FILE:LINE: key 'section.key': reason" at the given source and line. */
static void nav_key_verror(nav_load *ld, int k, nav_source src, int line, const char *fmt, va_list ap) {
  char reason[400];
  vsnprintf(reason, sizeof reason, fmt, ap);
  nav_add_error(ld->errs, "%s:%d: key '%s.%s': %s", nav_source_name(ld, src), line, nav_keys[k].section,
                nav_keys[k].name, reason);
}

static void NAV_PRINTF(5, 6) nav_key_error(nav_load *ld, int k, nav_source src, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  nav_key_verror(ld, k, src, line, fmt, ap);
  va_end(ap);
}

static int nav_find_key(const char *section, const char *name) {
  for (int k = 0; k < NAV_NKEYS; k++)
    if (!strcmp(nav_keys[k].section, section) && !strcmp(nav_keys[k].name, name)) return k;
  return -1;
}

static int nav_section_known(const char *section) {
  for (int i = 0; i < NAV_NSECTIONS; i++)
    if (!strcmp(nav_sections[i].name, section)) return 1;
  return 0;
}

/* ---- numbered sections [body.N] ---- */

/* The first row of the body keys in the table (they are consecutive) and their count. */
static int nav_body_row0(void) {
  static int row0 = -1;
  if (row0 < 0) {
    row0 = nav_find_key("body", "kind");
    int n = 0;
    for (int k = row0; k < NAV_NKEYS && !strcmp(nav_keys[k].section, "body"); k++) n++;
    for (int k = row0 + n; k < NAV_NKEYS; k++)
      if (!strcmp(nav_keys[k].section, "body")) NAV_ABORT("nav_config: the [body] rows of the schema table are not together");
    if (n > NAV_BODY_MAX_KEYS) NAV_ABORT("nav_config: %d body keys, NAV_BODY_MAX_KEYS is %d", n, NAV_BODY_MAX_KEYS);
  }
  return row0;
}

/* The number N of a section "body.N" (1..NAV_MAX_BODIES); 0 if the section is not of that form, -1 if N is
 * out of range. */
static int nav_body_section(const char *section) {
  if (strncmp(section, "body.", 5) || !section[5]) return 0;
  long n = 0;
  for (const char *c = section + 5; *c; c++) {
    if (!isdigit((unsigned char)*c)) return 0;
    n = 10 * n + (*c - '0');
    if (n > NAV_MAX_BODIES) return -1;
  }
  return n >= 1 ? (int)n : -1;
}

/* Key row k of the table as the key of body N: the field shifted to body[N-1]. */
static nav_key nav_body_key(int k, int body) {
  nav_key key = nav_keys[k];
  key.offset += (size_t)(body - 1) * sizeof(nav_body_config);
  return key;
}

/* "FILE:LINE: key 'body.N.key': reason" at the origin of that key. */
static void NAV_PRINTF(4, 5) nav_body_error(nav_load *ld, int body, int k, const char *fmt, ...) {
  const nav_origin *o = &ld->body_at[body - 1][k - nav_body_row0()];
  if (o->bad) return;
  char reason[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  nav_add_error(ld->errs, "%s:%d: key 'body.%d.%s': %s", nav_source_name(ld, o->src), o->line, body, nav_keys[k].name,
                reason);
}

/* Apply "body.N.key = value" (body = N, or -1 for a number out of range). */
static void nav_apply_body(nav_load *ld, int body, const char *section, const char *name, const char *value) {
  const char *where = nav_source_name(ld, ld->src);
  if (body < 0) {
    const int line = ld->src == NAV_SRC_FILE ? ld->section_line : ld->line;
    if (ld->src == NAV_SRC_FILE && ld->reported_section == line) return;
    ld->reported_section = line;
    nav_add_error(ld->errs, "%s:%d: section '[%.80s]': bodies are numbered 1 to %d", where, line, section,
                  NAV_MAX_BODIES);
    return;
  }
  const int k = nav_find_key("body", name);
  if (k < 0) {
    nav_add_error(ld->errs, "%s:%d: key '%s.%.80s': unknown key (a body has kind, name, center, radius, size, scale, "
                  "angle, velocity, file)", where, ld->line, section, name);
    return;
  }
  nav_origin *o = &ld->body_at[body - 1][k - nav_body_row0()];
  if (o->src == ld->src) {
    nav_add_error(ld->errs, "%s:%d: key '%s.%s': given twice (first %s %d)", where, ld->line, section, name,
                  ld->src == NAV_SRC_FILE ? "on line" : "as --set", o->line);
    return;
  }
  const nav_key key = nav_body_key(k, body);
  char why[400];
  o->bad = nav_parse_value(&key, value, ld->cfg, why, sizeof why);
  o->src = ld->src;
  o->line = ld->line;
  if (o->bad) nav_add_error(ld->errs, "%s:%d: key '%s.%s': %s", where, ld->line, section, name, why);
}

/* Apply one "section.key = value" from the current source (ld->src, ld->line). */
static void nav_apply(nav_load *ld, const char *section, const char *name, const char *value) {
  const char *where = nav_source_name(ld, ld->src);
  const int body = nav_body_section(section);
  if (body) {
    nav_apply_body(ld, body, section, name, value);
    return;
  }
  if (!strcmp(section, "body")) { /* the table's section of the body rows is not a section of a case */
    const int line = ld->src == NAV_SRC_FILE ? ld->section_line : ld->line;
    if (ld->src == NAV_SRC_FILE && ld->reported_section == line) return;
    ld->reported_section = line;
    nav_add_error(ld->errs, "%s:%d: section '[body]': bodies are numbered sections [body.1], [body.2], ...", where,
                  line);
    return;
  }
  if (section[0] && !nav_section_known(section)) {
    /* Once per section header; a --set names its section every time. */
    int line = ld->src == NAV_SRC_FILE ? ld->section_line : ld->line;
    if (ld->src == NAV_SRC_FILE && ld->reported_section == line) return;
    ld->reported_section = line;
    char known[128] = "";
    for (int i = 0; i < NAV_NSECTIONS; i++) {
      if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
      strncat(known, nav_sections[i].name, sizeof known - strlen(known) - 1);
      if (!strcmp(nav_sections[i].name, "body")) strncat(known, ".N", sizeof known - strlen(known) - 1);
    }
    nav_add_error(ld->errs, "%s:%d: section '[%.80s]': unknown section (known: %s)", where, line, section, known);
    return;
  }
  int k = nav_find_key(section, name);
  if (k < 0) {
    char hint[128] = "";
    for (int j = 0; j < NAV_NKEYS; j++)
      if (!strcmp(nav_keys[j].name, name))
        snprintf(hint, sizeof hint, " (did you mean '%s%s.%s'?)", nav_keys[j].section,
                 strcmp(nav_keys[j].section, "body") ? "" : ".N", name);
    nav_add_error(ld->errs, "%s:%d: key '%s%s%.80s': unknown key%s%s", where, ld->line, section, section[0] ? "." : "",
                  name, section[0] ? "" : " outside any [section]", hint);
    return;
  }
  nav_origin *o = &ld->at[k];
  if (o->src == ld->src) {
    nav_key_error(ld, k, ld->src, ld->line, "given twice (first %s %d)",
                  ld->src == NAV_SRC_FILE ? "on line" : "as --set", o->line);
    return;
  }
  char why[400];
  o->bad = nav_parse_value(&nav_keys[k], value, ld->cfg, why, sizeof why);
  o->src = ld->src;
  o->line = ld->line;
  if (o->bad) nav_key_error(ld, k, ld->src, ld->line, "%s", why);
}

/* inih reader (fgets contract): one physical line per call, counted in ld->line. A line too long
 * for inih's buffer is reported here and handed on as an empty line; leading whitespace is removed
 * (no multi-line values); the line of a [section] header is remembered for unknown-section errors. */
static char *nav_read_line(char *buf, int size, void *stream) {
  nav_load *ld = stream;
  if (!fgets(buf, size, ld->fp)) {
    if (ferror(ld->fp)) ld->read_errno = errno;
    return NULL;
  }
  ld->line++;
  size_t len = strlen(buf);
  if (len > 0 && buf[len - 1] != '\n') {
    int c = fgetc(ld->fp);
    if (c != EOF && c != '\n') {
      while (c != EOF && c != '\n') c = fgetc(ld->fp);
      nav_add_error(ld->errs, "%s:%d: syntax error: line longer than %d characters", ld->path, ld->line, size - 1);
      buf[0] = '\0';
      return buf;
    }
  }
  size_t skip = 0;
  while (isspace((unsigned char)buf[skip])) skip++;
  memmove(buf, buf + skip, len - skip + 1);
  if (buf[0] == '[') ld->section_line = ld->line;
  return buf;
}

static int nav_ini_handler(void *user, const char *section, const char *name, const char *value) {
  nav_apply(user, section, name, value);
  return 1; /* errors are ours to report: a non-zero return keeps inih's status for syntax errors only */
}

static void nav_load_file(nav_load *ld) {
  ld->fp = fopen(ld->path, "r");
  if (!ld->fp) {
    nav_add_error(ld->errs, "%s: cannot open: %s", ld->path, strerror(errno));
    return;
  }
  ld->src = NAV_SRC_FILE;
  ld->line = 0;
  int rc = ini_parse_stream(nav_read_line, ld, nav_ini_handler, ld);
  if (ferror(ld->fp))
    nav_add_error(ld->errs, "%s: cannot read: %s", ld->path, strerror(ld->read_errno));
  else if (rc > 0) /* inih reports the first malformed line only */
    nav_add_error(ld->errs, "%s:%d: syntax error", ld->path, rc);
  else if (rc < 0)
    nav_add_error(ld->errs, "%s: cannot parse (inih error %d)", ld->path, rc);
  fclose(ld->fp);
  ld->fp = NULL;
}

static char *nav_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

/* One override "section.key=value" (spaces around the parts are ignored), reported as --set:index. */
static void nav_load_set(nav_load *ld, int index, const char *arg) {
  char buf[NAV_CONFIG_STR + 64];
  ld->src = NAV_SRC_SET;
  ld->line = index;
  if (strlen(arg) >= sizeof buf) {
    nav_add_error(ld->errs, "--set:%d: override longer than %zu characters", index, sizeof buf - 1);
    return;
  }
  strcpy(buf, arg);
  char *eq = strchr(buf, '=');
  char *dot = NULL; /* the last dot before '=': keys have none, sections may ("body.2") */
  for (char *q = buf; eq && q < eq; q++)
    if (*q == '.') dot = q;
  if (!dot) {
    nav_add_error(ld->errs, "--set:%d: malformed override '%.80s': expected section.key=value", index, arg);
    return;
  }
  *dot = *eq = '\0';
  char *section = nav_trim(buf), *name = nav_trim(dot + 1);
  if (!section[0] || !name[0]) {
    nav_add_error(ld->errs, "--set:%d: malformed override '%.80s': expected section.key=value", index, arg);
    return;
  }
  nav_apply(ld, section, name, nav_trim(eq + 1));
}

/* ---------------------------------------------------------------------------------------------- */
/* Cross-key checks (nav_rules[] documents them)                                                  */

/* Index of a key that must exist in the table. */
static int nav_key_id(const char *section, const char *name) {
  int k = nav_find_key(section, name);
  if (k < 0) NAV_ABORT("nav_config: no key %s.%s in the schema table", section, name);
  return k;
}

/* Whichever of keys a and b was given later (default < file line < --set), or -1 if a or b is -1 or
 * its value was rejected: its error is reported already and a conflict with it would be noise. */
static int nav_later(const nav_load *ld, int a, int b) {
  if (a < 0 || b < 0 || ld->at[a].bad || ld->at[b].bad) return -1;
  const nav_origin *x = &ld->at[a], *y = &ld->at[b];
  return (y->src > x->src || (y->src == x->src && y->line > x->line)) ? b : a;
}

/* Report a conflict at key k where its value came from; nothing if k < 0 (see nav_later). */
static void NAV_PRINTF(3, 4) nav_conflict(nav_load *ld, int k, const char *fmt, ...) {
  if (k < 0) return;
  va_list ap;
  va_start(ap, fmt);
  nav_key_verror(ld, k, ld->at[k].src, ld->at[k].line, fmt, ap);
  va_end(ap);
}

/* First face of directions 0..ndir-1 that is not periodic, in *d and *s; 0 if all are periodic. */
static int nav_first_nonperiodic(const nav_config *c, int ndir, int *d, int *s) {
  for (*d = 0; *d < ndir; (*d)++)
    for (*s = 0; *s < 2; (*s)++)
      if (c->bc[*d][*s] != NAV_BC_PERIODIC) return 1;
  return 0;
}

/* The split over the computing ranks (nav_compute_comm; 1 before MPI_Init): the same verdict on every rank,
 * so a bad split exits 2 everywhere without communication (nav_decomp.c splits the same way). */
static void nav_check_decomposition(nav_load *ld) {
  const nav_config *c = ld->cfg;
  const int dec = nav_key_id("run", "decomposition"), dim = nav_key_id("grid", "dim");
  const int N[3] = {c->nx, c->ny, c->dim == 3 ? c->nz : 1};
  const int nkey[3] = {nav_key_id("grid", "nx"), nav_key_id("grid", "ny"), nav_key_id("grid", "nz")};
  int size = 1, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(nav_compute_comm(), &size);
  int p[3] = {0, 0, c->dim == 3 ? 0 : 1};
  const int given = c->decomposition[0] > 0;
  if (given) {
    memcpy(p, c->decomposition, sizeof p);
    if (c->dim == 2 && p[2] > 1) {
      nav_conflict(ld, nav_later(ld, dim, dec), "pz = %d but a 2D case (dim = 2) cannot be split in z: use px,py,1",
                   p[2]);
      return;
    }
    if (p[0] * p[1] * p[2] != size) {
      nav_conflict(ld, ld->at[dec].bad ? -1 : dec, "%d x %d x %d = %d blocks, but the run has %d MPI rank(s)", p[0],
                   p[1], p[2], p[0] * p[1] * p[2], size);
      return;
    }
  } else if (!init) {
    p[0] = p[1] = p[2] = 1;
  } else if (nav_dims_auto(size, c->dim, N, p) != MPI_SUCCESS) {
    nav_conflict(ld, dec, "MPI_Dims_create cannot split %d ranks in %d directions", size, c->dim);
    return;
  }
  for (int d = 0; d < c->dim; d++)
    if (p[d] > 1 && N[d] / p[d] < NAV_CONFIG_MIN_BLOCK)
      nav_conflict(ld, given ? (ld->at[dec].bad ? -1 : dec) : nav_later(ld, dec, nkey[d]),
                   "%d rank(s) along %c leave blocks of %d cell(s) of the %d; every block needs at least %d cells per "
                   "direction (the staggered face slots and the first multigrid coarsening): %s",
                   p[d], "xyz"[d], N[d] / p[d], N[d], NAV_CONFIG_MIN_BLOCK,
                   given ? "use fewer ranks in this direction" : "set run.decomposition or run on fewer ranks");
}

/* Output formats this build can write (HDF5 is a build option, NAV_ENABLE_HDF5). */
static void nav_check_output(nav_load *ld) {
#ifndef NAV_HAVE_HDF5
  const nav_config *c = ld->cfg;
  if (!strcmp(c->format, "hdf5") || !strcmp(c->format, "both"))
    nav_conflict(ld, nav_key_id("output", "format"),
                 "format = %s needs HDF5, but this navier is built without it (NAV_ENABLE_HDF5=OFF); use vtk or auto",
                 c->format);
#else
  (void)ld;
#endif
}

_Static_assert(sizeof(nav_thermal_type) == sizeof(int), "NAV_KT_ENUM stores enums as int");

/* [temperature]: the input set (nondimensional or dimensional), the faces and the initial field; then the
 * derived diffusivity and buoyancy vector, and physics.nu = pr in the nondimensional input. */
static void nav_check_temperature(nav_load *ld) {
  nav_config *c = ld->cfg;
  c->diffusivity = 0;
  memset(c->buoyancy, 0, sizeof c->buoyancy);
  const int model = nav_key_id("temperature", "model"), pr = nav_key_id("temperature", "pr");
  const int kappa = nav_key_id("temperature", "kappa"), ra = nav_key_id("temperature", "ra");
  const int beta = nav_key_id("temperature", "beta"), nu = nav_key_id("physics", "nu");
  const int grav = nav_key_id("temperature", "gravity"), tinit = nav_key_id("temperature", "initial");
  if (strcmp(c->model, "boussinesq")) return;
  const int ndir = c->dim == 3 ? 3 : 2;
  const double *g = c->gravity, gn = sqrt(g[0] * g[0] + g[1] * g[1] + (ndir == 3 ? g[2] * g[2] : 0));
  if (ndir == 2 && g[2] != 0)
    nav_conflict(ld, nav_later(ld, grav, nav_key_id("grid", "dim")), "a 2D case has no z component of gravity, got %g",
                 g[2]);
  if (c->pr > 0 && c->kappa > 0) {
    nav_conflict(ld, nav_later(ld, pr, kappa),
                 "both inputs given: pr (nondimensional, with ra) and kappa (dimensional, with beta, gravity, "
                 "physics.nu); give one");
  } else if (c->pr == 0 && c->kappa == 0) {
    nav_conflict(ld, ld->at[model].bad ? -1 : model,
                 "model = boussinesq needs the nondimensional input (ra, pr > 0) or the dimensional input "
                 "(kappa > 0, beta, gravity, physics.nu)");
  } else if (c->pr > 0) { /* nondimensional: nu = Pr, kappa = 1, b = Ra Pr g/|g| */
    if (c->beta != 0)
      nav_conflict(ld, nav_later(ld, pr, beta),
                   "beta belongs to the dimensional input; with pr (nondimensional) the buoyancy is Ra Pr, got beta = %g",
                   c->beta);
    if (ld->at[nu].src != NAV_SRC_DEFAULT && c->nu != c->pr)
      nav_conflict(ld, nav_later(ld, pr, nu), "in the nondimensional input nu = Pr = %g, got physics.nu = %g", c->pr,
                   c->nu);
    if (c->ra > 0 && gn == 0) nav_conflict(ld, nav_later(ld, ra, grav), "ra > 0 needs a direction of gravity, got 0,0,0");
    c->nu = c->pr;
    c->diffusivity = 1;
    for (int d = 0; d < ndir && gn > 0; d++) c->buoyancy[d] = c->ra * c->pr * g[d] / gn;
  } else { /* dimensional: b = beta g */
    if (c->ra != 0)
      nav_conflict(ld, nav_later(ld, kappa, ra),
                   "ra belongs to the nondimensional input (with pr); with kappa give beta and gravity, got ra = %g",
                   c->ra);
    c->diffusivity = c->kappa;
    for (int d = 0; d < ndir; d++) c->buoyancy[d] = c->beta * g[d];
  }
  int both_fixed = 0, all_periodic = 1;
  for (int d = 0; d < ndir; d++) {
    for (int s = 0; s < 2; s++) {
      const int vper = c->bc[d][s] == NAV_BC_PERIODIC, tper = c->tbc[d][s] == NAV_THERMAL_PERIODIC;
      all_periodic &= tper;
      if (vper != tper)
        nav_conflict(ld,
                     nav_later(ld, nav_key_id("boundary", nav_face_name(d, s)),
                               nav_key_id("temperature", nav_face_name(d, s))),
                     "the temperature face %s is %s but its velocity face is %s: periodic goes with periodic",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]], nav_bc_values[c->bc[d][s]]);
      const int tkey = nav_key_id("temperature", nav_face_name(d, s)), vkey = nav_key_id("boundary", nav_face_name(d, s));
      if (c->bc[d][s] == NAV_BC_INFLOW && c->tbc[d][s] != NAV_THERMAL_FIXED)
        nav_conflict(ld, nav_later(ld, vkey, tkey), "%s is an inflow: its temperature must be fixed, got %s",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]]);
      if (c->bc[d][s] == NAV_BC_OUTFLOW && (c->tbc[d][s] != NAV_THERMAL_FLUX || c->tbc_value[d][s] != 0))
        nav_conflict(ld, nav_later(ld, vkey, tkey),
                     "%s is an outflow: its temperature takes a zero normal gradient (flux with value 0), got %s %g",
                     nav_face_name(d, s), nav_thermal_values[c->tbc[d][s]], c->tbc_value[d][s]);
    }
    both_fixed |= c->tbc[d][0] == NAV_THERMAL_FIXED && c->tbc[d][1] == NAV_THERMAL_FIXED;
  }
  if (!strcmp(c->t_initial_field, "conduction") && !both_fixed)
    nav_conflict(ld, ld->at[tinit].bad ? -1 : tinit,
                 "initial = conduction needs a direction whose two temperature faces are fixed");
  if (!strcmp(c->t_initial_field, "wave") && !all_periodic)
    nav_conflict(ld, ld->at[tinit].bad ? -1 : tinit, "initial = wave needs every temperature face periodic");
}

/* [grid] spacing: the file key goes with spacing = file; the faces of each direction can be made (a face file
 * that cannot be read, has the wrong count, does not increase or does not span the domain is reported at
 * the key x_file, naming the face file and its line). */
static void nav_check_grid(nav_load *ld) {
  const nav_config *c = ld->cfg;
  const int N[3] = {c->nx, c->ny, c->nz};
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++) {
    char name[32];
    snprintf(name, sizeof name, "%c_spacing", "xyz"[d]);
    const int sp = nav_key_id("grid", name);
    snprintf(name, sizeof name, "%c_file", "xyz"[d]);
    const int fk = nav_key_id("grid", name);
    const int is_file = !strcmp(c->spacing[d], "file");
    if (ld->at[sp].bad || ld->at[fk].bad) continue;
    if (is_file && !c->file[d][0]) {
      nav_conflict(ld, sp, "spacing = file needs the face file %c_file", "xyz"[d]);
      continue;
    }
    if (!is_file && c->file[d][0]) {
      nav_conflict(ld, nav_later(ld, sp, fk), "%c_file is given but %c_spacing = %s (not file)", "xyz"[d], "xyz"[d],
                   c->spacing[d]);
      continue;
    }
    double *xf = malloc(((size_t)N[d] + 1) * sizeof *xf), *w = malloc((size_t)N[d] * sizeof *w);
    char why[400];
    if (!xf || !w)
      nav_conflict(ld, sp, "cannot allocate the %d faces", N[d] + 1);
    else if (nav_spacing_faces(c, d, xf, w, why, sizeof why))
      nav_conflict(ld, is_file ? fk : sp, "%s", why);
    free(xf);
    free(w);
  }
}

/* 1 if physics.initial has an analytic velocity (nav_flow_exact_velocity). */
static int nav_initial_analytic(const nav_config *c) { return strcmp(c->initial, "rest") != 0; }

/* The tangential direction along which an inflow table of face direction d varies: the first
 * non-periodic one, or -1 if every tangential direction is periodic. */
int nav_profile_direction(const nav_config *c, int d) {
  for (int e = 0; e < (c->dim == 3 ? 3 : 2); e++)
    if (e != d && c->bc[e][0] != NAV_BC_PERIODIC) return e;
  return -1;
}

/* [boundary] inflow profiles and [physics] forcing (grid/nav_open.h, solvers/nav_drive.h). */
static void nav_check_open(nav_load *ld) {
  nav_config *c = ld->cfg;
  const int ndir = c->dim == 3 ? 3 : 2, initial = nav_key_id("physics", "initial");
  const double org[3] = {c->x0, c->y0, c->z0}, len[3] = {c->lx, c->ly, c->lz};
  for (int d = 0; d < ndir; d++)
    for (int s = 0; s < 2; s++) {
      char pname[48], fname[48];
      snprintf(pname, sizeof pname, "%s_profile", nav_face_name(d, s));
      snprintf(fname, sizeof fname, "%s_profile_file", nav_face_name(d, s));
      const int face = nav_key_id("boundary", nav_face_name(d, s)), pk = nav_key_id("boundary", pname);
      const int fk = nav_key_id("boundary", fname);
      const char *prof = c->inflow_profile[d][s], *file = c->inflow_file[d][s];
      const int ncell[3] = {c->nx, c->ny, c->nz};
      if ((c->bc[d][s] == NAV_BC_INFLOW || c->bc[d][s] == NAV_BC_OUTFLOW) && ncell[d] < 2)
        nav_conflict(ld, nav_later(ld, face, nav_key_id("grid", d == 0 ? "nx" : d == 1 ? "ny" : "nz")),
                     "%s = %s needs at least 2 cells across (the face values of both ends are kept apart)",
                     nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
      if (c->bc[d][s] != NAV_BC_INFLOW) {
        if (strcmp(prof, "uniform"))
          nav_conflict(ld, nav_later(ld, face, pk), "%s applies to inflow faces only, but %s is %s", pname,
                       nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
        else if (file[0])
          nav_conflict(ld, nav_later(ld, face, fk), "%s applies to inflow faces only, but %s is %s", fname,
                       nav_face_name(d, s), nav_bc_values[c->bc[d][s]]);
        continue;
      }
      if (strcmp(prof, "file") && file[0])
        nav_conflict(ld, nav_later(ld, pk, fk), "%s is given but %s = %s (not file)", fname, pname, prof);
      if (!strcmp(prof, "exact") && !nav_initial_analytic(c))
        nav_conflict(ld, nav_later(ld, pk, initial),
                     "%s = exact needs an analytic physics.initial (taylor_green, abc, uniform, kovasznay, poiseuille), "
                     "got %s",
                     pname, c->initial);
      if (strcmp(prof, "file")) continue;
      const int e = nav_profile_direction(c, d);
      if (!file[0]) {
        nav_conflict(ld, nav_later(ld, pk, fk), "%s = file needs %s, the table", pname, fname);
      } else if (e < 0) {
        nav_conflict(ld, nav_later(ld, pk, face), "%s = file needs a non-periodic tangential direction", pname);
      } else {
        char path[2 * NAV_CONFIG_STR + 8], why[600];
        nav_table t;
        nav_table_path(c->source, file, path, sizeof path);
        if (nav_table_read(path, 1 + c->dim, &t, why, sizeof why)) {
          nav_conflict(ld, ld->at[fk].bad ? -1 : fk, "%s", why);
        } else {
          const double lo = t.v[0], hi = t.v[(size_t)(t.rows - 1) * t.ncol];
          if (lo > org[e] || hi < org[e] + len[e])
            nav_conflict(ld, ld->at[fk].bad ? -1 : fk, "'%s' spans %c = %g .. %g but the face spans %g .. %g", path,
                         "xyz"[e], lo, hi, org[e], org[e] + len[e]);
          nav_table_free(&t);
        }
      }
    }
  const int fkey = nav_key_id("physics", "forcing"), fdir = nav_key_id("physics", "forcing_direction");
  const int fd = c->forcing_direction[0] - 'x';
  const int need_periodic = strcmp(c->forcing, "none") || !strcmp(c->initial, "poiseuille");
  const int by = strcmp(c->forcing, "none") ? fkey : initial;
  if (need_periodic && fd >= ndir)
    nav_conflict(ld, nav_later(ld, nav_later(ld, by, fdir), nav_key_id("grid", "dim")),
                 "forcing_direction = %s is not a direction of a %dD case", c->forcing_direction, c->dim);
  else if (need_periodic && c->bc[fd][0] != NAV_BC_PERIODIC)
    nav_conflict(ld, nav_later(ld, nav_later(ld, by, fdir), nav_key_id("boundary", nav_face_name(fd, 0))),
                 "%s = %s needs a periodic forcing_direction, but %s is %s", by == fkey ? "forcing" : "initial",
                 by == fkey ? c->forcing : c->initial, nav_face_name(fd, 0), nav_bc_values[c->bc[fd][0]]);
  if (!strcmp(c->initial, "poiseuille")) {
    int walls = 0;
    for (int e = 0; e < ndir; e++) walls |= e != fd && c->bc[e][0] == NAV_BC_WALL && c->bc[e][1] == NAV_BC_WALL;
    if (!walls)
      nav_conflict(ld, ld->at[initial].bad ? -1 : initial,
                   "initial = poiseuille needs a direction other than forcing_direction with walls on both faces");
  }
  if (!strcmp(c->initial, "kovasznay") && c->dim != 2)
    nav_conflict(ld, nav_later(ld, initial, nav_key_id("grid", "dim")), "initial = kovasznay needs dim = 2, got %d",
                 c->dim);
}

/* [turbulence]: the model runs with the projection, replaces a prescribed nu_t, and needs walls (its
 * wall distance) or a flow that something drives. */
static void nav_check_turbulence(nav_load *ld) {
  const nav_config *c = ld->cfg;
  if (strcmp(c->turbulence_model, "k_omega_sst")) return;
  const int model = nav_key_id("turbulence", "model");
  if (!strcmp(c->method, "artificial_compressibility"))
    nav_conflict(ld, nav_later(ld, model, nav_key_id("run", "method")),
                 "turbulence.model = k_omega_sst runs with method = projection (large implicit steps reach the steady "
                 "state: time.diffusion = implicit, diffusion_theta = 1), got %s",
                 c->method);
  if (strcmp(c->nu_t, "none"))
    nav_conflict(ld, nav_later(ld, model, nav_key_id("physics", "nu_t")),
                 "turbulence.model = k_omega_sst computes nu_t: physics.nu_t must be none, got %s", c->nu_t);
  int walls = 0, inflow = 0;
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++)
    for (int s = 0; s < 2; s++) {
      walls += c->bc[d][s] == NAV_BC_WALL;
      inflow += c->bc[d][s] == NAV_BC_INFLOW;
    }
  if (!walls && !inflow && !strcmp(c->forcing, "none"))
    nav_conflict(ld, nav_later(ld, model, nav_key_id("physics", "forcing")),
                 "turbulence.model = k_omega_sst needs a wall face (the wall distance of its blending) or a driven "
                 "flow (physics.forcing, an inflow face): this case has neither");
  double speed = 0; /* the wall speeds */
  for (int d = 0; d < (c->dim == 3 ? 3 : 2); d++)
    for (int s = 0; s < 2; s++)
      for (int q = 0; q < 3; q++) speed = fmax(speed, fabs(c->wall_velocity[d][s][q]));
  if (!inflow && !strcmp(c->forcing, "none") && !strcmp(c->initial, "rest") && speed == 0 && c->omega_initial == 0 &&
      c->k_initial == 0)
    nav_conflict(ld, nav_later(ld, model, nav_key_id("physics", "initial")),
                 "turbulence.model = k_omega_sst: nothing sets the initial k and omega (the case is at rest with no "
                 "forcing, inflow or moving wall): set turbulence.k_initial or omega_initial");
}

/* Artificial compressibility marches a pseudo-time: no simulated time to stop at or write at. */
static void nav_check_method(nav_load *ld) {
  const nav_config *c = ld->cfg;
  if (strcmp(c->method, "artificial_compressibility")) return;
  const int method = nav_key_id("run", "method");
  if (strcmp(c->solver, "auto") && strcmp(c->solver, "mg") && strcmp(c->solver, "mgpcg"))
    nav_conflict(ld, nav_later(ld, method, nav_key_id("pressure", "solver")),
                 "method = artificial_compressibility marches on the multigrid's levels: pressure.solver must be auto "
                 "(the multigrid then), mg or mgpcg, got %s",
                 c->solver);
  if (c->steady_tol == 0)
    nav_conflict(ld, nav_later(ld, method, nav_key_id("time", "steady_tol")),
                 "method = artificial_compressibility computes a steady state: it needs steady_tol > 0");
  static const char *const timed[][2] = {
      {"time", "end_time"}, {"output", "fields_dt"}, {"output", "checkpoint_dt"}, {"time", "dt"}};
  const double value[] = {c->end_time, c->fields_dt, c->checkpoint_dt, c->dt};
  for (int i = 0; i < 4; i++)
    if (value[i] != 0)
      nav_conflict(ld, nav_later(ld, method, nav_key_id(timed[i][0], timed[i][1])),
                   "method = artificial_compressibility marches in pseudo-time (the time stays 0): %s.%s must be 0 "
                   "(count iterations with max_steps, fields_every, checkpoint_interval), got %g",
                   timed[i][0], timed[i][1], value[i]);
}

/* [time] diffusion_sweeps: approximate implicit solves, for pseudo-time marching only (backward Euler), so that a
 * time-accurate run (Crank-Nicolson) never gets them silently. */
static void nav_check_sweeps(nav_load *ld) {
  const nav_config *c = ld->cfg;
  if (c->diffusion_sweeps == 0) return;
  const int sweeps = nav_key_id("time", "diffusion_sweeps");
  if (strcmp(c->diffusion, "implicit"))
    nav_conflict(ld, nav_later(ld, sweeps, nav_key_id("time", "diffusion")),
                 "diffusion_sweeps = %d replaces the implicit diffusion solves: it needs diffusion = implicit, got %s",
                 c->diffusion_sweeps, c->diffusion);
  else if (c->diffusion_theta != 1)
    nav_conflict(ld, nav_later(ld, sweeps, nav_key_id("time", "diffusion_theta")),
                 "diffusion_sweeps = %d solves the implicit steps approximately (not time-accurate): it is for "
                 "pseudo-time marching to a steady state with diffusion_theta = 1, got %g",
                 c->diffusion_sweeps, c->diffusion_theta);
}

/* [body.N]: numbered without gaps, a kind for every body given, shapes of the dimension, inside the domain. */
static void nav_check_bodies(nav_load *ld) {
  nav_config *c = ld->cfg;
  const int row0 = nav_body_row0(), kkind = nav_find_key("body", "kind");
  const int kcenter = nav_find_key("body", "center"), ksize = nav_find_key("body", "size");
  const int kname = nav_find_key("body", "name"), kfile = nav_find_key("body", "file");
  const int kvel = nav_find_key("body", "velocity");
  c->nbodies = 0;
  for (int n = 1; n <= NAV_MAX_BODIES; n++) {
    const nav_body_config *b = &c->body[n - 1];
    nav_origin *at = ld->body_at[n - 1];
    int given = -1; /* a key of this body given in the case or by --set */
    for (int k = 0; k < NAV_BODY_MAX_KEYS && row0 + k < NAV_NKEYS && !strcmp(nav_keys[row0 + k].section, "body"); k++)
      if (at[k].src != NAV_SRC_DEFAULT && given < 0) given = row0 + k;
    if (!strcmp(b->kind, "none")) { /* kind = none given: the body is switched off, its other keys stay unused */
      if (given >= 0 && given != kkind && at[kkind - row0].src == NAV_SRC_DEFAULT)
        nav_body_error(ld, n, given, "body %d has no kind: give body.%d.kind (circle, cylinder, sphere, box, points, stl)",
                       n, n);
      continue;
    }
    if (n != c->nbodies + 1) {
      nav_body_error(ld, n, kkind, "body %d is given but body %d is not: number the bodies 1, 2, ... without gaps", n,
                     c->nbodies + 1);
      continue;
    }
    c->nbodies = n;
    const char *kind = b->kind;
    if (!strcmp(c->method, "artificial_compressibility"))
      nav_body_error(ld, n, kkind, "immersed bodies need method = projection (artificial compressibility has no "
                     "body forcing)");
    if ((!strcmp(kind, "circle") && c->dim != 2) || ((!strcmp(kind, "cylinder") || !strcmp(kind, "sphere") ||
                                                      !strcmp(kind, "stl")) && c->dim != 3))
      nav_body_error(ld, n, kkind, "kind = %s needs dim = %d, got dim = %d (2D: circle, box, points; 3D: cylinder, "
                     "sphere, box, points, stl)", kind, c->dim == 2 ? 3 : 2, c->dim);
    if (!strcmp(kind, "points") || !strcmp(kind, "stl")) { /* the file itself is read and checked once, by
                                                             nav_shape_create (physics/nav_body_shape.c) */
      if (!b->file[0]) {
        nav_body_error(ld, n, kfile, "kind = %s needs a file (%s)", kind,
                       !strcmp(kind, "points") ? "x,y rows of a closed polyline" : "an ASCII or binary STL surface");
        continue;
      }
    } else if (b->file[0]) {
      nav_body_error(ld, n, kfile, "kind = %s takes no file (only points and stl do)", kind);
    }
    for (const char *q = b->name; *q; q++)
      if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-') {
        nav_body_error(ld, n, kname, "must be up to 31 of A-Z a-z 0-9 _ -, got '%s'", b->name);
        break;
      }
    if (strlen(b->name) > 31) nav_body_error(ld, n, kname, "must be at most 31 characters");
    for (int m = 1; m < n; m++) {
      char a[40], o[40];
      snprintf(a, sizeof a, "%s", b->name[0] ? b->name : "");
      snprintf(o, sizeof o, "%s", c->body[m - 1].name);
      if (!a[0]) snprintf(a, sizeof a, "body%d", n);
      if (!o[0]) snprintf(o, sizeof o, "body%d", m);
      if (!strcmp(a, o)) nav_body_error(ld, n, kname, "body %d has the same name '%s' as body %d", n, a, m);
    }
    if (c->dim == 2 && b->velocity[2] != 0)
      nav_body_error(ld, n, kvel, "a 2D body has no z velocity, got w = %g", b->velocity[2]);
    /* half extents of the body along x, y, z */
    const double a = b->angle * acos(-1.0) / 180, ca = fabs(cos(a)), sa = fabs(sin(a));
    double half[3] = {b->radius * b->scale, b->radius * b->scale, b->radius * b->scale};
    if (!strcmp(kind, "box")) {
      const double *e = b->size;
      if (e[0] <= 0 || e[1] <= 0 || (c->dim == 3 && e[2] <= 0)) {
        nav_body_error(ld, n, ksize, "the edge lengths of a box must be > 0, got %g,%g,%g", e[0], e[1], e[2]);
        continue;
      }
      half[0] = 0.5 * b->scale * (ca * e[0] + sa * e[1]);
      half[1] = 0.5 * b->scale * (sa * e[0] + ca * e[1]);
      half[2] = 0.5 * b->scale * e[2];
      if (b->rotation_rate != 0 || b->pitch_amplitude != 0) /* any angle: the circumscribed circle in x, y */
        half[0] = half[1] = 0.5 * b->scale * sqrt(e[0] * e[0] + e[1] * e[1]);
    }
    const double lo[3] = {c->x0, c->y0, c->z0}, len[3] = {c->lx, c->ly, c->lz};
    const int ndir = !strcmp(kind, "cylinder") ? 2 : c->dim; /* a cylinder spans z */
    const int kmv = nav_find_key("body", "motion_velocity");
    const double *mv = b->motion_velocity, *ma = b->motion_amplitude;
    const int translates = mv[0] != 0 || mv[1] != 0 || mv[2] != 0;
    if (translates && c->end_time <= 0) {
      nav_body_error(ld, n, kmv, "a translating body needs time.end_time > 0 (it must stay inside the domain)");
      continue;
    }
    if (c->dim == 2 && (mv[2] != 0 || ma[2] != 0))
      nav_body_error(ld, n, kmv, "a 2D body cannot move along z");
    const int key = translates || ma[0] != 0 || ma[1] != 0 || ma[2] != 0 ? kmv : kcenter;
    for (int d = 0; d < ndir; d++) { /* the positions of the centre up to end_time, bounded */
      const double T = c->end_time > 0 ? c->end_time : 0;
      const double clo = b->center[d] + fmin(0, mv[d] * T) - fabs(ma[d]) - half[d];
      const double chi = b->center[d] + fmax(0, mv[d] * T) + fabs(ma[d]) + half[d];
      if (clo <= lo[d] || chi >= lo[d] + len[d]) {
        nav_body_error(ld, n, key, "the body (%c from %g to %g%s) is not inside the domain (%c from %g to %g)",
                       "xyz"[d], clo, chi, key == kmv ? " over its motion up to end_time" : "", "xyz"[d], lo[d],
                       lo[d] + len[d]);
        break;
      }
    }
  }
}

static void nav_check_consistency(nav_load *ld) {
  nav_config *c = ld->cfg;
  int ndir = c->dim == 3 ? 3 : 2;
  int dim = nav_key_id("grid", "dim"), initial = nav_key_id("physics", "initial");
  if (c->dim == 2 && c->nz != 1)
    nav_conflict(ld, nav_later(ld, dim, nav_key_id("grid", "nz")), "nz = %d but a 2D case (dim = 2) needs nz = 1",
                 c->nz);
  for (int d = 0; d < ndir; d++) {
    if ((c->bc[d][0] == NAV_BC_PERIODIC) == (c->bc[d][1] == NAV_BC_PERIODIC)) continue;
    const char *lo = nav_face_name(d, 0), *hi = nav_face_name(d, 1);
    const int open = c->bc[d][0] >= NAV_BC_INFLOW || c->bc[d][1] >= NAV_BC_INFLOW;
    nav_conflict(ld, nav_later(ld, nav_key_id("boundary", lo), nav_key_id("boundary", hi)),
                 open ? "%s is %s but %s is %s: inflow and outflow faces need a non-periodic direction"
                      : "periodic faces must be paired: %s is %s but %s is %s",
                 lo, nav_bc_values[c->bc[d][0]], hi, nav_bc_values[c->bc[d][1]]);
  }
  if (c->end_time == 0 && c->max_steps == 0 && c->steady_tol == 0)
    nav_conflict(ld,
                 nav_later(ld, nav_later(ld, nav_key_id("time", "end_time"), nav_key_id("time", "max_steps")),
                           nav_key_id("time", "steady_tol")),
                 "no stop criterion: end_time, max_steps and steady_tol are all 0");
  nav_check_decomposition(ld);
  nav_check_output(ld);
  nav_check_grid(ld);
  nav_check_method(ld);
  nav_check_sweeps(ld);
  nav_check_turbulence(ld);
  int d, s;
  if (!strcmp(c->initial, "abc")) {
    if (c->dim != 3) nav_conflict(ld, nav_later(ld, initial, dim), "initial = abc needs dim = 3, got dim = %d", c->dim);
    if (nav_first_nonperiodic(c, ndir, &d, &s))
      nav_conflict(ld, nav_later(ld, initial, nav_key_id("boundary", nav_face_name(d, s))),
                   "initial = abc needs all faces periodic, but %s is %s", nav_face_name(d, s),
                   nav_bc_values[c->bc[d][s]]);
  }
  if (!strcmp(c->initial, "shear_wave") &&
      (c->bc[0][0] != NAV_BC_PERIODIC || c->bc[1][0] != NAV_BC_FREE_SLIP || c->bc[1][1] != NAV_BC_FREE_SLIP))
    nav_conflict(ld, initial, "initial = shear_wave needs periodic x faces and free_slip y faces");
  if (!strcmp(c->initial, "pulse") &&
      (c->bc[1][0] != NAV_BC_PERIODIC || (c->dim == 3 && c->bc[2][0] != NAV_BC_PERIODIC)))
    nav_conflict(ld, initial, "initial = pulse needs periodic y (and z) faces");
  if (!strcmp(c->initial, "taylor_green") && nav_first_nonperiodic(c, 2, &d, &s))
    nav_conflict(ld, nav_later(ld, initial, nav_key_id("boundary", nav_face_name(d, s))),
                 "initial = taylor_green needs periodic x and y faces, but %s is %s", nav_face_name(d, s),
                 nav_bc_values[c->bc[d][s]]);
  static const char component[3] = {'u', 'v', 'w'};
  for (d = 0; d < ndir; d++)
    for (s = 0; s < 2; s++) {
      const double *v = c->wall_velocity[d][s];
      char vname[32];
      snprintf(vname, sizeof vname, "%s_velocity", nav_face_name(d, s));
      int pair = nav_later(ld, nav_key_id("boundary", nav_face_name(d, s)), nav_key_id("boundary", vname));
      if (c->bc[d][s] == NAV_BC_WALL && v[d] != 0)
        nav_conflict(ld, pair,
                     "%s is a wall: the normal component %c of %s must be 0 (only tangential wall velocity), got %g",
                     nav_face_name(d, s), component[d], vname, v[d]);
      else if (c->bc[d][s] != NAV_BC_WALL && c->bc[d][s] != NAV_BC_INFLOW && (v[0] != 0 || v[1] != 0 || v[2] != 0))
        nav_conflict(ld, pair, "%s is %s: %s must be 0,0,0, got %g,%g,%g", nav_face_name(d, s),
                     nav_bc_values[c->bc[d][s]], vname, v[0], v[1], v[2]);
    }
  nav_check_temperature(ld);
  nav_check_open(ld);
  nav_check_bodies(ld);
  if (!strcmp(c->nu_t, "linear")) { /* nu_t >= 0 everywhere: a linear field is smallest at a corner */
    const double len[3] = {c->lx, c->ly, c->lz};
    double lo = c->nu_t_value;
    for (d = 0; d < ndir; d++) lo += fmin(0, c->nu_t_gradient[d] * len[d]);
    if (lo < 0)
      nav_conflict(ld,
                   nav_later(ld, nav_later(ld, nav_key_id("physics", "nu_t"), nav_key_id("physics", "nu_t_value")),
                             nav_key_id("physics", "nu_t_gradient")),
                   "nu_t = linear is negative in a corner of the domain (min %g): an eddy viscosity must be >= 0",
                   lo);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Public functions                                                                               */

void nav_config_defaults(nav_config *cfg) {
  if (NAV_NKEYS > NAV_CONFIG_MAX_KEYS)
    NAV_ABORT("nav_config: %d keys in the schema table, NAV_CONFIG_MAX_KEYS is %d", NAV_NKEYS, NAV_CONFIG_MAX_KEYS);
  memset(cfg, 0, sizeof *cfg);
  snprintf(cfg->source, sizeof cfg->source, "(default)");
  for (int k = 0; k < NAV_NKEYS; k++) {
    char why[400];
    if (nav_parse_value(&nav_keys[k], nav_keys[k].def, cfg, why, sizeof why))
      NAV_ABORT("nav_config: bad default of %s.%s in the schema table: %s", nav_keys[k].section, nav_keys[k].name, why);
    for (int n = 2; n <= NAV_MAX_BODIES && !strcmp(nav_keys[k].section, "body"); n++) { /* every body's row */
      const nav_key key = nav_body_key(k, n);
      nav_parse_value(&key, key.def, cfg, why, sizeof why);
    }
  }
}

nav_err nav_config_load(nav_config *cfg, const char *path, int nset, char *const *sets, nav_config_errors *errs) {
  nav_load load, *ld = &load;
  memset(ld, 0, sizeof *ld);
  ld->cfg = cfg;
  ld->errs = errs;
  ld->path = path;
  ld->default_name = path ? path : "(default)";
  errs->count = 0;
  errs->text[0] = '\0';
  nav_config_defaults(cfg);
  if (!path) snprintf(cfg->plots, sizeof cfg->plots, "true"); /* the default case ends with its figures */
  if (path) {
    snprintf(cfg->source, sizeof cfg->source, "%s", path);
    nav_load_file(ld);
  }
  for (int i = 0; i < nset; i++) nav_load_set(ld, i + 1, sets[i]);
  nav_check_consistency(ld);
  _Static_assert(NAV_NKEYS <= NAV_CONFIG_MAX_KEYS, "raise NAV_CONFIG_MAX_KEYS");
  for (int k = 0; k < NAV_NKEYS; k++) {
    cfg->origin[k].src = (unsigned char)ld->at[k].src;
    cfg->origin[k].line = ld->at[k].line;
  }
  for (int n = 0; n < NAV_MAX_BODIES; n++)
    for (int k = 0; k < NAV_BODY_MAX_KEYS; k++) {
      cfg->body_origin[n][k].src = (unsigned char)ld->body_at[n][k].src;
      cfg->body_origin[n][k].line = ld->body_at[n][k].line;
    }
  return errs->count ? NAV_ERR_INPUT : NAV_OK;
}

void nav_config_print(const nav_config *cfg, FILE *out) {
  for (int s = 0; s < NAV_NSECTIONS; s++) { /* one header per section, wherever its keys sit in the table */
    if (!strcmp(nav_sections[s].name, "body")) { /* one section per body given */
      for (int n = 1; n <= cfg->nbodies; n++) {
        fprintf(out, "\n[body.%d]\n", n);
        for (int k = nav_body_row0(); k < NAV_NKEYS && !strcmp(nav_keys[k].section, "body"); k++) {
          const nav_key key = nav_body_key(k, n);
          char value[NAV_CONFIG_STR + 8];
          nav_format_value(&key, cfg, value, sizeof value);
          fprintf(out, "%s = %s\n", key.name, value);
        }
      }
      continue;
    }
    fprintf(out, "%s[%s]\n", s ? "\n" : "", nav_sections[s].name);
    for (int k = 0; k < NAV_NKEYS; k++) {
      const nav_key *key = &nav_keys[k];
      if (strcmp(key->section, nav_sections[s].name)) continue;
      char value[NAV_CONFIG_STR + 8];
      nav_format_value(key, cfg, value, sizeof value);
      fprintf(out, "%s = %s\n", key->name, value);
    }
  }
}

int nav_config_print_changed(const nav_config *cfg, FILE *out, const char *indent) {
  static nav_config def; /* static: the struct is large */
  nav_config_defaults(&def);
  int count = 0;
  for (int k = 0; k < NAV_NKEYS; k++) {
    const int body = !strcmp(nav_keys[k].section, "body");
    for (int n = 1; n <= (body ? cfg->nbodies : 1); n++) {
      const nav_key key = body ? nav_body_key(k, n) : nav_keys[k];
      char value[NAV_CONFIG_STR + 8], base[NAV_CONFIG_STR + 8], section[16];
      nav_format_value(&key, cfg, value, sizeof value);
      nav_format_value(&key, &def, base, sizeof base);
      if (body)
        snprintf(section, sizeof section, "body.%d", n);
      else
        snprintf(section, sizeof section, "%s", key.section);
      if (strcmp(value, base)) {
        fprintf(out, "%s%s.%s = %s\n", indent, section, key.name, value);
        count++;
      }
    }
  }
  return count;
}

/* Markdown table cell: escape the characters that would end the cell or start HTML. */
static void nav_md_cell(FILE *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '|': fputs("\\|", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    default: fputc(*s, out);
    }
  }
}

static void nav_md_range(FILE *out, const nav_key *k) {
  char lo[32], hi[32];
  switch (k->type) {
  case NAV_KT_INT:
  case NAV_KT_LONG:
  case NAV_KT_REAL:
    nav_format_real(k->lo, lo, sizeof lo);
    nav_format_real(k->hi, hi, sizeof hi);
    if (k->lo == -HUGE_VAL && k->hi == HUGE_VAL)
      fputs("any", out);
    else if (k->hi == HUGE_VAL)
      fprintf(out, "%s %s %s", k->name, k->lo_open ? "&gt;" : "&gt;=", lo);
    else
      fprintf(out, "%s %s %s %s %s", lo, k->lo_open ? "&lt;" : "&lt;=", k->name, k->hi_open ? "&lt;" : "&lt;=", hi);
    return;
  case NAV_KT_CHOICE:
  case NAV_KT_ENUM:
  case NAV_KT_BC:
    for (int i = 0; k->values[i]; i++) fprintf(out, "%s`%s`", i ? ", " : "", k->values[i]);
    return;
  case NAV_KT_NAME: fprintf(out, "1 to %zu of `A-Z a-z 0-9 _ . -`", k->size - 1); return;
  case NAV_KT_TEXT: fprintf(out, "up to %zu characters", k->size - 1); return;
  case NAV_KT_VEC3: fputs("three reals `u,v,w`", out); return;
  case NAV_KT_DECOMP: fputs("`auto` or three integers `px,py,pz` >= 1", out); return;
  }
}

void nav_config_markdown(FILE *out) {
  static const char *const type_name[] = {"integer", "integer", "real",   "choice",       "name",
                                          "text",    "choice",  "vector", "decomposition", "choice"};
  fputs("# Case file reference\n\n"
        "<!-- Generated by `navier doc case-file` from the schema table in src/core/nav_config.c. -->\n\n"
        "A case is one INI file: `[section]` headers, then `key = value` lines. Lines that start with `;` or `#` "
        "are comments, and ` ;` starts a comment after a value. Every key is optional: a key left out takes its "
        "default, and the defaults together are the embedded default case, the 2D lid-driven cavity at Re = 100 on "
        "a 128 x 128 grid, run to steady state (which also sets `[output] plots = true`, so that it ends with its "
        "final fields and figures).\n\n"
        "Any key can be overridden on the command line with `--set section.key=value` (repeatable, applied after "
        "the file, in order), e.g. `build/navier run cases/cavity2d_re100.ini --set grid.nx=64 --set grid.ny=64`.\n\n"
        "Unknown sections and keys, keys given twice, values of the wrong type or out of range and inconsistent "
        "keys are errors. All of them are reported before anything is computed, one per line as\n\n"
        "    FILE:LINE: key 'section.key': reason\n\n"
        "(`--set:N` for the N-th override, line 0 for a default), and navier exits with status 2.\n\n"
        "## Scaling\n\n"
        "The equations are solved as given, in whatever units the case uses; the flow depends on the Reynolds "
        "number Re = U L / nu, with U a velocity scale and L a length scale. For the cavity U is the lid velocity "
        "(the first component of `y_high_velocity`) and L the side (`lx`): the defaults give Re = 1 * 1 / 0.01 = 100, "
        "and `--set physics.nu=0.001` gives Re = 1000.\n\n"
        "With `[temperature] model = boussinesq` the velocity also feels the body force -b (T - t_ref) of a "
        "transported temperature T, dT/dt + div(u T) = kappa lap T. Two inputs: dimensional (`kappa`, `beta`, "
        "`gravity`, `physics.nu`; b = beta g) or nondimensional in the scaling of de Vahl Davis (1983): lengths by "
        "L, velocity by kappa/L, time by L^2/kappa, temperature theta = (T - T_cold)/(T_hot - T_cold); then "
        "nu = Pr, kappa = 1 and b = Ra Pr g/|g| (`ra`, `pr`; `gravity` gives the direction), so that the fixed "
        "wall temperatures are 1 (hot) and 0 (cold) and a unit square has L = 1. The monitors report the mean "
        "Nusselt number of each fixed-temperature face whose opposite face is fixed at another temperature, "
        "Nu = mean(-dT/dx_d) l_d / (T_low - T_high), and the largest u on the plane x = x0 + lx/2 (along y) and v "
        "on y = y0 + ly/2 (along x; z = z0 + lz/2 in 3D) in the de Vahl Davis scaling u lx / kappa, with their "
        "positions scaled by the domain lengths.\n\n"
        "## Consistency rules\n\n",
        out);
  for (size_t i = 0; i < sizeof nav_rules / sizeof nav_rules[0]; i++) fprintf(out, "- %s\n", nav_rules[i]);
  for (int s = 0; s < NAV_NSECTIONS; s++) {
    fprintf(out, "\n## [%s%s]\n\n%s\n\n| key | type | default | range / values | meaning |\n|---|---|---|---|---|\n",
            nav_sections[s].name, strcmp(nav_sections[s].name, "body") ? "" : ".N", nav_sections[s].doc);
    for (int k = 0; k < NAV_NKEYS; k++) {
      const nav_key *key = &nav_keys[k];
      if (strcmp(key->section, nav_sections[s].name)) continue;
      fprintf(out, "| `%s` | %s | ", key->name, type_name[key->type]);
      if (key->def[0])
        fprintf(out, "`%s`", key->def);
      else
        fputs("(empty)", out);
      fputs(" | ", out);
      nav_md_range(out, key);
      fputs(" | ", out);
      nav_md_cell(out, key->doc);
      fputs(" |\n", out);
    }
  }
}

int nav_config_value(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n) {
  const int body = nav_body_section(section);
  const int k = nav_find_key(body > 0 ? "body" : section, name);
  if (k < 0 || body < 0) return -1;
  const nav_key key = body > 0 ? nav_body_key(k, body) : nav_keys[k];
  nav_format_value(&key, cfg, buf, n);
  return 0;
}

const char *nav_config_where(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n) {
  const int body = nav_body_section(section);
  const int k = nav_find_key(body > 0 ? "body" : section, name);
  const struct nav_config_origin *o = k >= 0 ? &cfg->origin[k] : NULL;
  if (body > 0 && k >= 0) o = &cfg->body_origin[body - 1][k - nav_body_row0()];
  if (o && o->src == NAV_SRC_SET)
    snprintf(buf, n, "--set:%d", o->line);
  else
    snprintf(buf, n, "%s:%d", cfg->source, o && o->src == NAV_SRC_FILE ? o->line : 0);
  return buf;
}

const char *nav_face_name(int dir, int side) {
  static const char *const names[3][2] = {{"x_low", "x_high"}, {"y_low", "y_high"}, {"z_low", "z_high"}};
  if (dir < 0 || dir > 2 || side < 0 || side > 1) return "?";
  return names[dir][side];
}
