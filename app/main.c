/* The navier command.
 *
 *   navier run [CASE.ini] [--set section.key=value ...] [--output DIR] [--restart FILE]
 *   navier plot DIR [KIND]        figures of a run's output folder (tools/navier-plot)
 *   navier doc case-file          print the case-file reference (docs/case-file.md)
 *   navier --help | --version
 *
 * Exit status: 0 the run completed, 1 it failed (pressure not converged, blow-up, I/O error),
 * 2 bad input (case file, option, argument, output folder, checkpoint): nothing was computed,
 * 3 stopped by SIGINT/SIGTERM after a checkpoint of the last step. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/nav_kernels.h"
#include "app/nav_bench.h"
#include "core/nav_comm.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "grid/nav_decomp.h"
#include "io/nav_snapshot.h"
#include "nav_version.h"
#include "solvers/nav_run.h"

#ifdef NAV_HAVE_HDF5
#define NAV_SNAPSHOT_FORMATS "vtk, hdf5 (parallel HDF5 + XDMF)"
#else
#define NAV_SNAPSHOT_FORMATS "vtk (built without HDF5)"
#endif

#ifndef NAV_VERSION
#define NAV_VERSION "0.0.0"
#endif

enum { NAV_EXIT_OK = 0, NAV_EXIT_FAILED = 1, NAV_EXIT_INPUT = 2, NAV_EXIT_STOPPED = 3 };

static void nav_usage(FILE *out) {
  fprintf(out,
          "usage: navier run [CASE.ini] [--set section.key=value ...] [--output DIR] [--restart FILE] [--profile]\n"
          "       navier bench poisson --dim 2|3 --n N [--solver S] [--tol T] [--bc neumann|dirichlet|periodic] "
          "[--json]\n"
          "                            [--backend cpu|cuda] [--repeat R] [--grid NX,NY,NZ] [--cpu-cells C]\n"
          "                            [--transport auto|mpi|cuda-aware|nccl] [--smooth PRE,POST] [--cycle v|f]\n"
          "                            [--smoother auto|point|line] [--stretch x|y|z:GAMMA | --aspect A]\n"
          "       navier bench step --case FILE [--set section.key=value ...] [--steps K] [--json]\n"
           "       navier plot DIR [monitor|fields|cavity|convection|channel|forces|body|statistics|energy] [-v]\n"
          "       navier doc case-file\n"
          "       navier --help | --version\n\n"
          "Incompressible Navier-Stokes on staggered Cartesian grids (projection method, FFT or multigrid pressure).\n\n"
          "  run        run a case file; without one, the embedded default case (2D lid-driven cavity,\n"
          "             Re = 100, 128x128 cells, to steady state). Writes DIR/summary.json, DIR/monitor.csv,\n"
          "             field snapshots (HDF5 + fields.xmf for ParaView, or VTK) and checkpoints when\n"
          "             [output] asks for them. SIGINT/SIGTERM: the step under way finishes, a checkpoint\n"
          "             is written, summary.json says \"stopped\" (a second signal ends it at once).\n"
          "  --set      override one key of the case file (repeatable), e.g. --set grid.nx=64\n"
          "  --output   output folder (default: [output] dir, or output/<case name>)\n"
          "  --restart  continue from a checkpoint (DIR/checkpoint_<step>.nck) of the same case: same\n"
          "             grid, domain, viscosity, boundaries, pressure solver and precision; any rank count\n"
          "  --profile  time the phases of the run (predictor, Poisson, correction, halo exchange and the FFT\n"
          "             solver's transposes, output, other; the backend is synchronised at each switch) and the\n"
          "             backend memory per cell;\n"
          "             add them to summary.json\n"
          "  bench poisson   time one Poisson solve (random zero-mean right-hand side) through the library API;\n"
          "                  --aspect A: tanh walls in y with the largest cell aspect ratio A (--stretch: a gamma)\n"
          "  bench step      time K steps of a case (default 20, after 3 warm-up steps): nanoseconds per cell\n"
          "                  per step, and the bandwidth of each main kernel against the copy bandwidth of the\n"
          "                  backend, measured first\n"
          "  plot       figures (PNG) of the output folder DIR of a run, into DIR/plots: every kind that\n"
          "             applies (-v: also why the others are skipped), or one (tools/navier-plot run by the\n"
          "             Python the build found with numpy, matplotlib and h5py)\n"
          "  doc case-file   print the reference of every case-file key (Markdown)\n\n"
          "Exit status: 0 completed, 1 failed during the run (blow-up: the step, time and place of the\n"
          "first bad value), 2 bad input (case file, option, output folder, checkpoint: nothing computed),\n"
          "3 stopped by SIGINT/SIGTERM (checkpoint written).\n"
          "Cases: cases/*.ini; keys: docs/case-file.md.\n");
}

static void nav_version(void) {
  printf("navier %s (commit %s)\nprecision: %s\nbackends: %s\nsnapshots: %s\n", NAV_VERSION, NAV_GIT_COMMIT,
         NAV_PRECISION_NAME, nav_backend_list(), NAV_SNAPSHOT_FORMATS);
  int version, subversion;
  MPI_Get_version(&version, &subversion);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len;
  MPI_Get_library_version(lib, &len);
  char *nl = strchr(lib, '\n');
  if (nl) *nl = 0;
  printf("MPI %d.%d: %s\n", version, subversion, lib);
  if (strstr(nav_backend_list(), "cuda")) {
    const int gpus = nav_backend_device_count("cuda");
    if (gpus > 0)
      printf("devices: %d CUDA GPU(s) visible (backend auto runs on cuda)\n", gpus);
    else
      printf("devices: no CUDA GPU visible: backend auto runs on cpu, and cuda, cuda-aware and nccl need a GPU\n");
  }
  char why[300];
  const int nccl = nav_backend_p2p_available("cuda", why, (int)sizeof why);
  const int gpus = strstr(nav_backend_list(), "cuda") ? nav_backend_device_count("cuda") : 0;
  printf("halo transports: mpi: yes; cuda-aware: %s; nccl: %s (%s); cuda-ipc: %s\n",
         nav_transport_mpi_cuda_aware() ? "yes" : "no (MPIX_Query_cuda_support = 0)", nccl ? "yes" : "no", why,
         gpus > 0 ? "yes (between the ranks of one node)" : "no (no CUDA GPU visible)");
}

/* More ranks than devices on a node with a device backend: the node's first ranks, one per
 * device, compute over nav_compute_comm; the others wait for the verdict (they hand their share
 * of the grid to the computing ranks, which get bigger blocks: a GPU runs one big block faster
 * than several small ones, and needs one CUDA context instead of several). Returns 1 on a rank
 * that waits, 0 on one that computes, -1 if MPI failed. Collective over MPI_COMM_WORLD. */
static int nav_one_rank_per_device(const char *backend, int world_rank) {
  int local_size;
  const int local_rank = nav_decomp_local_rank(MPI_COMM_WORLD, &local_size);
  const int devices = nav_backend_device_count(backend);
  const int waits = devices > 0 && local_rank >= devices;
  int any = waits;
  MPI_Allreduce(&waits, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return 0;
  MPI_Comm compute;
  if (MPI_Comm_split(MPI_COMM_WORLD, waits ? MPI_UNDEFINED : 0, world_rank, &compute) != MPI_SUCCESS) return -1;
  if (!waits) nav_compute_comm_set(compute);
  int computing = !waits, total;
  MPI_Allreduce(&computing, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0)
    printf("navier: %d ranks on node 0 with %d %s device(s): one rank per device computes (%d in all), the others "
           "wait\n", local_size, devices, backend, total);
  return waits;
}

/* The exit status of rank 0 of the computing ranks, on every rank of MPI_COMM_WORLD when some
 * ranks wait (else status itself). A waiting rank polls with a sleep instead of spinning in MPI,
 * so it leaves its core to the computing ranks. */
static int nav_verdict(int status, int waiting) {
  if (nav_compute_comm() == MPI_COMM_WORLD && !waiting) return status;
  MPI_Request req;
  MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  int done = 0;
  while (!done) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done && waiting) nanosleep(&(struct timespec){0, 2000000}, NULL);
  }
  return status;
}

/* The arguments of `run` and `bench step`. */
typedef struct nav_cli {
  const char *case_path, *output, *restart;
  int profile, steps, json;
  char **sets;
  int nset;
} nav_cli;

/* Parse argv into cli (bench: `bench step` options --case, --steps, --json instead of the case
 * path, --output and --profile). Returns -1 on success, else the exit status. */
static int nav_cli_parse(int argc, char **argv, int bench, int rank, nav_cli *cli) {
  memset(cli, 0, sizeof *cli);
  cli->steps = 20;
  cli->sets = calloc((size_t)argc + 1, sizeof *cli->sets);
  if (!cli->sets) return NAV_EXIT_FAILED;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const int valued = !strcmp(a, "--set") || (!bench && (!strcmp(a, "--output") || !strcmp(a, "--restart"))) ||
                       (bench && (!strcmp(a, "--case") || !strcmp(a, "--steps")));
    const char *value = valued && i + 1 < argc ? argv[i + 1] : NULL;
    if (valued && !value) {
      if (rank == 0) fprintf(stderr, "navier: error: option '%s' needs a value\n", a);
      return NAV_EXIT_INPUT;
    }
    if (valued) i++;
    if (!strcmp(a, "--set")) {
      cli->sets[cli->nset++] = (char *)value;
    } else if (!strncmp(a, "--set=", 6)) {
      cli->sets[cli->nset++] = (char *)a + 6;
    } else if (!bench && !strcmp(a, "--output")) {
      cli->output = value;
    } else if (!bench && !strncmp(a, "--output=", 9)) {
      cli->output = a + 9;
    } else if (!bench && !strcmp(a, "--restart")) {
      cli->restart = value;
    } else if (!bench && !strncmp(a, "--restart=", 10)) {
      cli->restart = a + 10;
    } else if (!bench && !strcmp(a, "--profile")) {
      cli->profile = 1;
    } else if (bench && !strcmp(a, "--case")) {
      cli->case_path = value;
    } else if (bench && !strcmp(a, "--steps")) {
      char *end;
      const long k = strtol(value, &end, 10);
      if (*end || k < 1 || k > 1000000) {
        if (rank == 0) fprintf(stderr, "navier: error: --steps '%s': need a whole number from 1 to 1000000\n", value);
        return NAV_EXIT_INPUT;
      }
      cli->steps = (int)k;
    } else if (bench && !strcmp(a, "--json")) {
      cli->json = 1;
    } else if (a[0] == '-' || bench) {
      if (rank == 0) fprintf(stderr, "navier: error: unknown option '%s' (see navier --help)\n", a);
      return NAV_EXIT_INPUT;
    } else if (!cli->case_path) {
      cli->case_path = a;
    } else {
      if (rank == 0) fprintf(stderr, "navier: error: more than one case file ('%s', '%s')\n", cli->case_path, a);
      return NAV_EXIT_INPUT;
    }
  }
  return -1;
}

/* Load the case of cli, choose the backend and the computing ranks. Returns -1 when this rank
 * computes (cfg, ops set), else the exit status (already agreed with nav_verdict). */
static int nav_setup(const nav_cli *cli, nav_config *cfg, const nav_kernel_ops **ops) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* backend: auto = cuda when a GPU is visible (and the CUDA backend is built), else cpu */
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  nav_err e = nav_config_load(cfg, cli->case_path, cli->nset, cli->sets, &errs);
  const char *backend = cfg->backend;
  if (!strcmp(backend, "auto")) backend = nav_backend_device_count("cuda") > 0 ? "cuda" : "cpu";
  /* one rank per GPU: with more ranks than GPUs on a node, the extra ranks wait (collective) and
   * the case is read again for the ranks that compute (their number is the decomposition's) */
  const int waiting = nav_one_rank_per_device(backend, rank);
  if (waiting < 0) return NAV_EXIT_FAILED;
  if (waiting) return nav_verdict(NAV_EXIT_OK, 1);
  if (nav_compute_comm() != MPI_COMM_WORLD) {
    memset(&errs, 0, sizeof errs);
    e = nav_config_load(cfg, cli->case_path, cli->nset, cli->sets, &errs);
  }
  MPI_Comm_rank(nav_compute_comm(), &rank);
  if (e != NAV_OK) {
    if (rank == 0) fprintf(stderr, "%s", errs.text);
    if (rank == 0) fprintf(stderr, "navier: %d error(s) in the input; nothing was computed\n", errs.count);
    return nav_verdict(NAV_EXIT_INPUT, 0);
  }
  /* a device backend gives each rank the GPU of its node-local rank (collective) */
  const int local_rank = nav_decomp_local_rank(nav_compute_comm(), NULL);
  *ops = nav_backend_get(backend, local_rank);
  if (!*ops && !strcmp(cfg->backend, "auto")) *ops = nav_backend_get("cpu", local_rank);
  if (!*ops) {
    char where[NAV_CONFIG_STR + 32];
    nav_config_where(cfg, "run", "backend", where, sizeof where);
    if (!strcmp(cfg->backend, "cuda") && strstr(nav_backend_list(), "cuda"))
      fprintf(stderr, "%s: key 'run.backend': backend 'cuda' needs a CUDA device, and none is visible (check the "
                      "driver and CUDA_VISIBLE_DEVICES, or use backend cpu or auto)\n", where);
    else
      fprintf(stderr, "%s: key 'run.backend': backend '%s' is not available in this build (have: %s)\n", where,
              cfg->backend, nav_backend_list());
    return nav_verdict(NAV_EXIT_INPUT, 0);
  }
  return -1;
}

/* The exit status of a failed run or benchmark; every rank has the verdict, rank 0 reports it,
 * other ranks only errors of their own kind. */
static int nav_failed(nav_err e, int rank) {
  if (rank == 0 || e == NAV_ERR_MEMORY || e == NAV_ERR_BACKEND || e == NAV_ERR_MPI || e == NAV_ERR_INTERNAL)
    nav_error_print(stderr, getenv("NAV_TRACEBACK") != NULL);
  return e == NAV_ERR_INPUT ? NAV_EXIT_INPUT : NAV_EXIT_FAILED;
}

/* `navier run` and `navier bench step`: parse, load the case, run it; returns the exit status. */
static int nav_cmd_case(int argc, char **argv, int bench) {
  nav_cli cli;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = nav_cli_parse(argc, argv, bench, rank, &cli);
  if (status < 0 && bench && !cli.case_path) {
    if (rank == 0) fprintf(stderr, "navier: error: bench step needs --case FILE\n");
    status = NAV_EXIT_INPUT;
  }
  nav_config cfg;
  const nav_kernel_ops *ops = NULL;
  if (status < 0) status = nav_setup(&cli, &cfg, &ops);
  free(cli.sets);
  if (status >= 0) return status;
  MPI_Comm_rank(nav_compute_comm(), &rank);
  MPI_Comm_size(nav_compute_comm(), &size);
  nav_err e;
  if (bench) {
    e = nav_bench_step(&cfg, ops, cli.steps, cli.json);
  } else {
    char dir[NAV_CONFIG_STR + 80];
    snprintf(dir, sizeof dir, "%s", cli.output ? cli.output : cfg.dir[0] ? cfg.dir : "");
    if (!dir[0]) snprintf(dir, sizeof dir, "output/%s", cfg.name);
    if (rank == 0) { /* the full configuration goes to DIR/config.ini */
      printf("case: %s; keys other than the defaults:\n", cfg.source);
      if (nav_config_print_changed(&cfg, stdout, "  ") == 0) printf("  (none)\n");
      fflush(stdout);
    }
    nav_run_options opt = {dir, size, cli.profile, cli.restart, 0};
    e = nav_run_memory_check(&cfg, ops, size); /* before the output folder: nothing is left behind */
    if (e == NAV_OK) e = nav_run(&cfg, ops, &opt);
    if (e == NAV_OK && opt.stopped) return nav_verdict(NAV_EXIT_STOPPED, 0);
  }
  return nav_verdict(e == NAV_OK ? NAV_EXIT_OK : nav_failed(e, rank), 0);
}

int main(int argc, char **argv) {
  /* Open MPI 4.1 (Debian 12: 4.1.4): its own MPI-IO component, OMPIO, loses whole blocks of
   * collective HDF5 writes now and then (seen here: one snapshot in three on 3 ranks) and misreads
   * some subarray views (open-mpi/ompi#10546); ROMIO does neither. Unless the user chose an MPI-IO
   * component, leave OMPIO out. Other MPI libraries ignore the variable. */
  setenv("OMPI_MCA_io", "^ompio", 0);
  if (argc >= 2 && !strcmp(argv[1], "plot")) return nav_plot_exec(argc - 2, argv + 2); /* no MPI: a plain program */
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
    status = nav_cmd_case(argc - 2, argv + 2, 0);
  } else if (!strcmp(argv[1], "bench") && argc >= 3 && !strcmp(argv[2], "step")) {
    status = nav_cmd_case(argc - 3, argv + 3, 1);
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
