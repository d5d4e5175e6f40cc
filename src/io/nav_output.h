/* Run output: the output folder, monitor.csv, field snapshots (legacy VTK rectilinear grids,
 * which ParaView opens and groups into a time series), and summary.json. Rank 0 writes. */
#ifndef NAV_OUTPUT_H
#define NAV_OUTPUT_H

#include <stdio.h>

#include "io/nav_validation.h"

/* Create dir (and parents) and check it is writable (a 4 KiB file is written and removed, so a
 * read-only place or a full disk is found before anything is computed): NAV_ERR_INPUT with the
 * reason if not. */
nav_err nav_output_prepare(const char *dir);

/* Undo nav_output_prepare after an input error found before the first step: remove the folders
 * that it created (deepest first, each only if empty), so that the output folder is as it was.
 * Rank 0, after nav_output_prepare of the same dir. */
void nav_output_abandon(const char *dir);

/* Finish a file written as tmp (PATH.tmp) and move it to path: close out; on a write error (a full disk) remove
 * tmp and fail with NAV_ERR_IO naming it, so that no partial file is left; else rename tmp to path. */
nav_err nav_output_commit(FILE *out, const char *tmp, const char *path);

/* monitor.csv: step, time, dt, kinetic_energy, max_div, p_iterations, p_residual (out NULL: no row);
 * then the models' columns (nav_model.h monitor hooks, in registry order: the convection monitors of
 * the temperature, the walls and fluxes, ...); in 3D dissipation and enstrophy (turb[0], turb[1]:
 * solvers/nav_dissipation.h); last the steady-state change of the progress line
 * (f->change; nan where not measured). Every row is flushed as it is written. restart_step >= 0 (a restart from that step): keep the
 * rows of an existing monitor.csv up to that step and append to it, instead of starting a new file. */
nav_err nav_monitor_open(const char *dir, const nav_flow *f, long restart_step, FILE **out);
void nav_monitor_row(FILE *out, const nav_flow *f, double dt, double ke, const double turb[2]);

/* DIR/fields_<step>.vtk: cell-centred pressure, (temperature,) velocity and vorticity (z component
 * in 2D, vector in 3D) at time f->t. */
nav_err nav_fields_write(const char *dir, nav_flow *f, const nav_host_fields *h);

typedef struct nav_summary {
  const char *status;  /* completed | stopped | failed */
  const char *message; /* why it failed/stopped, or "" */
  double wall_s;
  const char *backend;
  int ranks;
  double final_ke;
  double max_abs_p; /* max |p| over the cells at the end (p's gauge: zero mean, or its Dirichlet faces) */
  const double *profile; /* seconds per nav_profile_phase, or NULL (no --profile) */
  double loop_s;         /* seconds of the time loop and the output, with profile */
  double memory_bytes;   /* with profile: peak backend memory of the largest rank */
  double memory_per_cell; /* with profile: the largest peak backend bytes per cell of a rank's block */
  /* steady runs ([time] steady_tol > 0): "steady": {method, iterations, residual, converged, wall_s[, work_units]} */
  int steady;             /* 1: write the block */
  long steady_iterations; /* steps or pseudo-time iterations of this run */
  double steady_residual; /* the last measured steady residual (f->change) */
  int steady_converged;   /* it fell below steady_tol */
  double steady_wall_s;   /* wall seconds of the loop up to the stop */
  double steady_work;     /* artificial compressibility: finest-grid work units (nav_ac_work); < 0: none */
} nav_summary;

/* DIR/final_fields.bin: u, v, (w), p (then T when the case has a temperature) interior values of
 * the global grid as native doubles, each field in global x-fastest order (u first), for exact
 * comparisons. Rank 0 (h global). */
nav_err nav_dump_final(const char *dir, const nav_flow *f, const nav_host_fields *h);

nav_err nav_summary_write(const char *dir, const nav_flow *f, const nav_summary *s, const nav_validation *v);

#endif
