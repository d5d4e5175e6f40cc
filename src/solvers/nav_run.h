/* One simulation from a loaded configuration to summary.json: the time loop, its stopping rules
 * (end time, step count, steady state), monitors, progress lines, field snapshots, checkpoints.
 * Returns NAV_OK when the run completed, or stopped on SIGINT/SIGTERM (opt->stopped set: the
 * step under way finished, a checkpoint was written, summary.json has status "stopped"); a
 * failed run (pressure not converged, blow-up with its place, I/O) still writes summary.json
 * with status "failed" and returns the error, and a blow-up writes no checkpoint. A restart
 * (opt->restart) whose checkpoint is unreadable, corrupt or of another case returns
 * NAV_ERR_INPUT before any step, with nothing written. Collective. */
#ifndef NAV_RUN_H
#define NAV_RUN_H

#include "backend/nav_kernels.h"
#include "core/nav_config.h"

typedef struct nav_run_options {
  const char *output_dir; /* resolved folder */
  int ranks;
  int profile;            /* per-phase time table (printed, and "profile" in summary.json) */
  const char *restart;    /* checkpoint file to continue from, or NULL */
  int stopped;            /* out: the run stopped on a signal */
} nav_run_options;

nav_err nav_run(const nav_config *cfg, const nav_kernel_ops *ops, nav_run_options *opt);

#endif
