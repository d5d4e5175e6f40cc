/* One simulation from a loaded configuration to summary.json: the time loop, its stopping rules
 * (end time, step count, steady state), monitors, progress lines and field output.
 * Returns NAV_OK when the run completed; a failed run (pressure not converged, blow-up, I/O)
 * still writes summary.json with status "failed" and returns the error. Collective. */
#ifndef NAV_RUN_H
#define NAV_RUN_H

#include "backend/nav_kernels.h"
#include "core/nav_config.h"

typedef struct nav_run_options {
  const char *output_dir; /* resolved folder */
  int ranks;
  int profile;            /* per-phase time table (printed, and "profile" in summary.json) */
} nav_run_options;

nav_err nav_run(const nav_config *cfg, const nav_kernel_ops *ops, const nav_run_options *opt);

#endif
