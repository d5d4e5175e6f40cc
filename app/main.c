/* The navier command.
 *
 *   navier run [CASE.ini] [--set section.key=value ...] [--output DIR]
 *   navier doc case-file          print the case-file reference (docs/case-file.md)
 *   navier --help | --version
 *
 * Exit status: 0 the run completed, 1 it failed (pressure not converged, blow-up, I/O error),
 * 2 bad input (case file, option, argument): nothing was computed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "bench/nav_bench.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "grid/nav_decomp.h"
#include "nav_version.h"
#include "solvers/nav_run.h"

#ifndef NAV_VERSION
#define NAV_VERSION "0.0.0"
#endif

enum { NAV_EXIT_OK = 0, NAV_EXIT_FAILED = 1, NAV_EXIT_INPUT = 2 };

static void nav_usage(FILE *out) {
  fprintf(out,
          "usage: navier run [CASE.ini] [--set section.key=value ...] [--output DIR] [--profile]\n"
          "       navier bench poisson --dim 2|3 --n N [--solver S] [--tol T] [--bc neumann|dirichlet|periodic] "
          "[--json]\n"
          "       navier doc case-file\n"
          "       navier --help | --version\n\n"
          "Incompressible Navier-Stokes on staggered Cartesian grids (projection method, multigrid pressure).\n\n"
          "  run        run a case file; without one, the embedded default case (2D lid-driven cavity,\n"
          "             Re = 100, 128x128 cells, to steady state). Writes DIR/summary.json, DIR/monitor.csv\n"
          "             and field snapshots (VTK) when [output] asks for them.\n"
          "  --set      override one key of the case file (repeatable), e.g. --set grid.nx=64\n"
          "  --output   output folder (default: [output] dir, or output/<case name>)\n"
          "  --profile  time the phases of the run (predictor, Poisson, correction, halo exchange, output,\n"
          "             other; the backend is synchronised at each switch) and add them to summary.json\n"
          "  bench poisson   time one Poisson solve (random zero-mean right-hand side) through the library API\n"
          "  doc case-file   print the reference of every case-file key (Markdown)\n\n"
          "Exit status: 0 completed, 1 failed during the run, 2 bad input (nothing computed).\n"
          "Cases: cases/*.ini; keys: docs/case-file.md.\n");
}

static void nav_version(void) {
  printf("navier %s (commit %s)\nprecision: %s\nbackends: %s\n", NAV_VERSION, NAV_GIT_COMMIT, NAV_PRECISION_NAME,
         nav_backend_list());
  int version, subversion;
  MPI_Get_version(&version, &subversion);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len;
  MPI_Get_library_version(lib, &len);
  char *nl = strchr(lib, '\n');
  if (nl) *nl = 0;
  printf("MPI %d.%d: %s\n", version, subversion, lib);
}

/* Parse `run` arguments, load the case and run it; returns the exit status. */
static int nav_cmd_run(int argc, char **argv, int rank, int size) {
  const char *case_path = NULL, *output = NULL;
  int profile = 0;
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  int nset = 0;
  if (!sets) return NAV_EXIT_FAILED;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--set") || !strcmp(argv[i], "--output")) {
      if (i + 1 >= argc) {
        if (rank == 0) fprintf(stderr, "navier: error: option '%s' needs a value\n", argv[i]);
        free(sets);
        return NAV_EXIT_INPUT;
      }
      if (!strcmp(argv[i], "--set"))
        sets[nset++] = argv[++i];
      else
        output = argv[++i];
    } else if (!strncmp(argv[i], "--set=", 6)) {
      sets[nset++] = argv[i] + 6;
    } else if (!strcmp(argv[i], "--profile")) {
      profile = 1;
    } else if (!strncmp(argv[i], "--output=", 9)) {
      output = argv[i] + 9;
    } else if (argv[i][0] == '-') {
      if (rank == 0) fprintf(stderr, "navier: error: unknown option '%s' (see navier --help)\n", argv[i]);
      free(sets);
      return NAV_EXIT_INPUT;
    } else if (!case_path) {
      case_path = argv[i];
    } else {
      if (rank == 0) fprintf(stderr, "navier: error: more than one case file ('%s', '%s')\n", case_path, argv[i]);
      free(sets);
      return NAV_EXIT_INPUT;
    }
  }
  nav_config cfg;
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  nav_err e = nav_config_load(&cfg, case_path, nset, sets, &errs);
  free(sets);
  if (e != NAV_OK) {
    if (rank == 0) fprintf(stderr, "%s", errs.text);
    if (rank == 0) fprintf(stderr, "navier: %d error(s) in the input; nothing was computed\n", errs.count);
    return NAV_EXIT_INPUT;
  }
  /* backend: auto = cuda when a GPU is visible (and the CUDA backend is built), else cpu; a device
   * backend gives each rank the GPU of its node-local rank (collective: every rank is here) */
  const int local_rank = nav_decomp_local_rank(MPI_COMM_WORLD, NULL);
  const nav_kernel_ops *ops = NULL;
  if (!strcmp(cfg.backend, "auto")) {
    if (nav_backend_cuda_available()) ops = nav_backend_get("cuda", local_rank);
    if (!ops) ops = nav_backend_get("cpu", local_rank);
  } else {
    ops = nav_backend_get(cfg.backend, local_rank);
    if (!ops) {
      if (!strcmp(cfg.backend, "cuda") && strstr(nav_backend_list(), "cuda"))
        fprintf(stderr, "%s: key 'run.backend': backend 'cuda' needs a CUDA device, and none is visible (check the "
                        "driver and CUDA_VISIBLE_DEVICES, or use backend cpu or auto)\n", cfg.source);
      else
        fprintf(stderr, "%s: key 'run.backend': backend '%s' is not available in this build (have: %s)\n", cfg.source,
                cfg.backend, nav_backend_list());
      return NAV_EXIT_INPUT;
    }
  }
  char dir[NAV_CONFIG_STR + 80];
  snprintf(dir, sizeof dir, "%s", output ? output : cfg.dir[0] ? cfg.dir : "");
  if (!dir[0]) snprintf(dir, sizeof dir, "output/%s", cfg.name);
  if (rank == 0) {
    printf("# effective configuration (%s)\n", cfg.source);
    nav_config_print(&cfg, stdout);
    fflush(stdout);
  }
  nav_run_options opt = {dir, size, profile};
  e = nav_run(&cfg, ops, &opt);
  if (e != NAV_OK) {
    /* every rank has the verdict; rank 0 reports it, other ranks only errors of their own kind */
    if (rank == 0 || e == NAV_ERR_MEMORY || e == NAV_ERR_BACKEND || e == NAV_ERR_MPI || e == NAV_ERR_INTERNAL)
      nav_error_print(stderr, getenv("NAV_TRACEBACK") != NULL);
    return e == NAV_ERR_INPUT ? NAV_EXIT_INPUT : NAV_EXIT_FAILED;
  }
  return NAV_EXIT_OK;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, status = NAV_EXIT_OK;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    if (rank == 0) nav_usage(stdout);
    status = argc < 2 ? NAV_EXIT_INPUT : NAV_EXIT_OK;
  } else if (!strcmp(argv[1], "--version")) {
    if (rank == 0) nav_version();
  } else if (!strcmp(argv[1], "run")) {
    status = nav_cmd_run(argc - 2, argv + 2, rank, size);
  } else if (!strcmp(argv[1], "bench") && argc >= 3 && !strcmp(argv[2], "poisson")) {
    status = nav_bench_poisson(argc - 3, argv + 3);
  } else if (!strcmp(argv[1], "doc") && argc == 3 && !strcmp(argv[2], "case-file")) {
    if (rank == 0) nav_config_markdown(stdout);
  } else {
    if (rank == 0) fprintf(stderr, "navier: error: unknown command '%s' (see navier --help)\n", argv[1]);
    status = NAV_EXIT_INPUT;
  }
  MPI_Finalize();
  return status;
}
