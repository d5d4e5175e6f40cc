/* One simulation from a loaded configuration to summary.json: the time loop, its stopping rules
 * (end time, step count, steady state), monitors, progress lines, field snapshots, checkpoints.
 * Returns NAV_OK when the run completed, or stopped on SIGINT/SIGTERM (opt->stopped set: the
 * step under way finished, a checkpoint was written, summary.json has status "stopped"); a
 * failed run (pressure not converged, blow-up with its place, I/O) still writes summary.json
 * with status "failed" and returns the error, and a blow-up writes no checkpoint. A restart
 * (opt->restart) whose checkpoint is unreadable, corrupt or of another case returns
 * NAV_ERR_INPUT before any step, and the output folder is left as it was (folders created for
 * the run are removed again, nothing is written). Collective. */
#ifndef NAV_RUN_H
#define NAV_RUN_H

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "io/nav_output.h"
#include "io/nav_validation.h"
#include "solvers/nav_flow.h"

typedef struct nav_run_options {
  const char *output_dir; /* resolved folder */
  int ranks;
  int profile;            /* per-phase time table (printed, and "profile" in summary.json) */
  const char *restart;    /* checkpoint file to continue from, or NULL */
  int stopped;            /* out: the run stopped on a signal */
} nav_run_options;

nav_err nav_run(const nav_config *cfg, const nav_kernel_ops *ops, nav_run_options *opt);

/* Before nav_run: NAV_ERR_INPUT, "FILE:LINE: key 'grid.nx': ..." with the bytes needed and
 * available, when the grid of cfg cannot fit in the memory of ops's backend (device memory on a
 * GPU, else the host memory of the node, shared by its ranks) over `ranks` ranks. The need is a
 * lower bound (the flow's own arrays), so a grid that is refused cannot fit. Collective. */
nav_err nav_run_memory_check(const nav_config *cfg, const nav_kernel_ops *ops, int ranks);

/* Time t has reached end_time, for steps of dt: within the round-off of t summed over the steps
 * (1e-12 relative) or a millionth of a step. 200 000 steps of 4e-4 sum to 80 - 1.3e-10: without the
 * second bound a step of 1.3e-10 followed, whose rate of change (and forcing) is round-off over dt. */
int nav_time_reached(double t, double end_time, double dt);

/* The steady state is reached after a step of size dt (0 in pseudo-time): [time] steady_tol > 0 and the
 * last measured change (f->change >= 0, the monitor steps') below steady_tol raised to its round-off floor
 * (precision; nav_run.c). navier run stops there; the flow C API reports it in summary.json. */
int nav_steady_reached(const nav_config *c, const nav_flow *f, double dt);

/* summary.json's entries that the end state gives, and the files and reports of the end of a run, for
 * nav_run and the flow C API (nav_sim_write_summary) alike: the steady block's residual and work units
 * (when [time] steady_tol > 0: s->steady set; the caller sets steady_iterations, steady_converged and
 * steady_wall_s), the validation against reference data (*v, rank 0), DIR/final_fields.bin when [output]
 * dump_final = true and dump is set, the models' reports (a driven channel's profile, the bodies' forces),
 * s->final_ke and s->max_abs_p. Every entry is filled even after an error; returns the first error, that of
 * the files and reports agreed by every rank. Collective. */
nav_err nav_run_summary(nav_flow *f, const char *dir, int dump, nav_summary *s, nav_validation *v);

#endif
