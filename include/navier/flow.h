/* navier flow solver: a simulation driven from a program (C, or Python through python/navier).
 *
 *     nav_sim *sim;
 *     nav_sim_options opt = {.case_file = "cases/cavity2d_re100.ini", .nset = 1,
 *                            .sets = (const char *[]){"grid.nx=64"}};
 *     nav_sim_create(MPI_COMM_WORLD, &opt, &sim);   (case checked, fields allocated, initial condition)
 *     nav_sim_step(sim, 100, NULL);                 (or nav_sim_advance_to(sim, t_end, -1, NULL))
 *     nav_sim_get_field(sim, "u", block);           (this rank's block, host copy)
 *     nav_sim_write_summary(sim, NULL, 0);          (summary.json in the output folder)
 *     nav_sim_destroy(sim);
 *
 * A step is the step of `navier run` (nav_flow.h): the same time step (CFL, viscous limit or
 * fixed, never past [time] end_time), the same diagnosed steps ([output] monitor_every and the last
 * step of each call), so n steps here and `navier run --set time.max_steps=n` give the same fields
 * bit for bit. Nothing is written while stepping: snapshots, checkpoints and summary.json are
 * written when asked (nav_sim_write_*) into the output folder (options.output_dir, else [output]
 * dir, else output/<case name>), which nav_sim_create creates.
 *
 * Collective over comm like the Poisson API (include/navier/poisson.h): every rank of comm calls
 * every function (except nav_sim_info, nav_sim_clock, nav_sim_field_name and nav_sim_error), and
 * every result is the same on every rank. Every call returns 0 (NAV_OK) or an error code;
 * nav_sim_error() gives the message: for bad input "FILE:LINE: key 'section.key': why" (FILE is the
 * case file, "(string)" for options.config, "--set:N" for the N-th override).
 *
 * Fields are the state arrays of the run, by name: "u", "v", ("w"), "rhs_old_u", ... (the
 * Adams-Bashforth history), "p", and with the models of the case "T", "rhs_T_old", "k", "omega", ...
 * (nav_sim_field_name lists them; a checkpoint holds exactly these). Host copies are this rank's
 * block of count[0] x count[1] x count[2] values, x fastest, no ghosts (nav_sim_info: the global
 * cells N and the block's offset and count; one rank: the whole grid). Staggering (MAC): p and the
 * scalars at cell centres; the value (i,j,k) of velocity component c on the face at the LOW side
 * of cell (i,j,k) in direction c (u(0,j) lies on the low x boundary). */
#ifndef NAVIER_FLOW_H
#define NAVIER_FLOW_H

#include <mpi.h>
#include <stddef.h>

#include "navier/nav_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_sim nav_sim;

typedef struct nav_sim_options {
  const char *case_file;   /* a case file (relative files in it resolve against its folder), or NULL */
  const char *config;      /* INI text of a case instead of a file (relative files resolve against the
                              working folder), or NULL; both NULL: the built-in default case */
  int nset;                /* overrides "section.key=value", as `navier run --set` */
  const char *const *sets;
  const char *output_dir;  /* NULL: [output] dir, else output/<case name> */
  const char *restart;     /* a checkpoint of the same case to start from (any rank count), or NULL */
} nav_sim_options;

typedef struct nav_sim_info {
  int dim;                 /* 2 or 3 */
  int n[3];                /* global cells (n[2] = 1 in 2D) */
  int offset[3], count[3]; /* this rank's block of cells */
  int ranks;               /* ranks of comm that compute */
  int device;              /* 1: the fields live in GPU memory (backend cuda) */
  char backend[16];        /* "cpu" or "cuda" */
  char name[64];           /* the case name */
  char output_dir[512];    /* the output folder */
  int precision;           /* bytes of a field value in memory (8: double, 4: single) */
} nav_sim_info;

/* The state after the last step. */
typedef struct nav_sim_diagnostics {
  long step;
  double time, dt;         /* dt: the last step (0 before the first) */
  double cfl;              /* CFL number of the next step's dt */
  double kinetic_energy;   /* (1/V) sum 1/2 |u|^2 dV */
  double max_div;          /* max |div u| after the last diagnosed step */
  int p_iterations;        /* pressure solver iterations of the last step */
  double p_residual;       /* its relative residual */
  double change;           /* steady-state change of the last diagnosed step (-1: not measured) */
} nav_sim_diagnostics;

/* Where a field lives in backend memory (no copy): element (i,j,k) of the block, i in -1..count[0]
 * (one ghost layer each side), is data[offset + i*stride[0] + j*stride[1] + k*stride[2]] (elements
 * of `precision` bytes; stride[2] = 0 in 2D); total elements in the array. Valid until the next
 * nav_sim_step / advance_to / set_field / destroy (the Adams-Bashforth history swaps arrays). */
typedef struct nav_sim_array {
  void *data;
  int device;              /* 1: a CUDA device pointer (of the rank's GPU), 0: host memory */
  int precision;           /* bytes per element */
  long offset, stride[3], total;
  int shape[3];            /* count[d] + 2 ghosts (1 beyond dim) */
} nav_sim_array;

/* Load and check the case (options NULL: the default case), set up the solver on comm's ranks
 * (backend from [run] backend: auto = cuda when a GPU is visible), create the output folder and
 * write config.ini into it, set the initial condition or read options->restart. */
int nav_sim_create(MPI_Comm comm, const nav_sim_options *options, nav_sim **sim);
/* The same on one rank (MPI_COMM_SELF) for bindings without MPI of their own: MPI is started on
 * first use when the caller has not started it; nav_sim_finalize_serial ends it at exit. */
int nav_sim_create_serial(const nav_sim_options *options, nav_sim **sim);
void nav_sim_finalize_serial(void);
void nav_sim_destroy(nav_sim *sim);

/* n steps; they stop early at [time] end_time (done: the steps taken; may be NULL). */
int nav_sim_step(nav_sim *sim, long n, long *done);
/* Steps until time t (the last one shortened to land on t; at most [time] end_time when set), at most
 * max_steps of them (< 0: no limit); done: the steps taken (fewer than max_steps: t was reached). */
int nav_sim_advance_to(nav_sim *sim, double t, long max_steps, long *done);
int nav_sim_diagnostics_get(nav_sim *sim, nav_sim_diagnostics *d);

int nav_sim_info_get(const nav_sim *sim, nav_sim_info *info);
/* The n[d] + 1 face coordinates of the global grid along d. Not collective. */
int nav_sim_coordinates(const nav_sim *sim, int d, double *faces);
/* The number of state arrays, and the name of the i-th (NULL beyond). Not collective. */
int nav_sim_field_count(const nav_sim *sim);
const char *nav_sim_field_name(const nav_sim *sim, int i);
/* Host copy of this rank's block of field `name` (count[0]*count[1]*count[2] doubles). */
int nav_sim_get_field(nav_sim *sim, const char *name, double *block);
/* Set the block of field `name` (initial conditions from a program); the ghosts of the state
 * are refilled (halo exchange, boundary conditions), as after reading a checkpoint. */
int nav_sim_set_field(nav_sim *sim, const char *name, const double *block);
/* Backend memory of field `name`, without a copy (see nav_sim_array). Not collective. */
int nav_sim_field_array(nav_sim *sim, const char *name, nav_sim_array *a);
/* The clock of the state: time, steps and the previous step (the Adams-Bashforth weights). */
int nav_sim_clock(const nav_sim *sim, double *t, long *step, double *dt_old);
int nav_sim_set_clock(nav_sim *sim, double t, long step, double dt_old);

/* Output into the output folder: a field snapshot (the formats of [output] format), a checkpoint
 * (path of the file written into path[0..n-1] when path is not NULL), summary.json (status
 * "completed"; with [output] dump_final = true also final_fields.bin). */
int nav_sim_write_fields(nav_sim *sim);
int nav_sim_write_checkpoint(nav_sim *sim, char *path, size_t n);
int nav_sim_write_summary(nav_sim *sim, char *path, size_t n);

/* The message of the last error of this process ("" if none). */
const char *nav_sim_error(void);
/* sizeof of the option, info, diagnostics and array structures (bindings check their mirrors). */
void nav_sim_sizes(size_t sizes[4]);

#ifdef __cplusplus
}
#endif

#endif
