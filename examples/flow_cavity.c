/* The flow solver's C API (include/navier/flow.h): the built-in lid-driven cavity (Re = 100) on a
 * 64 x 64 grid, 100 steps, its kinetic energy every 25 steps, the centre-line velocity u(0.5, y) at
 * the end and summary.json in the output folder.
 *
 *   mpicc flow_cavity.c $(pkg-config --cflags --libs navier) -o flow_cavity && ./flow_cavity [OUTPUT_DIR]
 *
 * Exit status 0, or 1 with the library's message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "navier/flow.h"

static int fail(const char *what) {
  fprintf(stderr, "flow_cavity: %s: %s\n", what, nav_sim_error());
  return 1;
}

static int run(const char *dir) {
  const char *sets[] = {"grid.nx=64", "grid.ny=64", "output.plots=false"};
  nav_sim_options opt = {.nset = 3, .sets = sets, .output_dir = dir};
  nav_sim *sim;
  if (nav_sim_create(MPI_COMM_WORLD, &opt, &sim)) return fail("create");
  nav_sim_info info;
  nav_sim_info_get(sim, &info);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int k = 0; k < 4; k++) {
    nav_sim_diagnostics d;
    if (nav_sim_step(sim, 25, NULL) || nav_sim_diagnostics_get(sim, &d)) return fail("step");
    if (rank == 0) printf("step %4ld  t %.4f  kinetic energy %.6e  max|div u| %.1e\n", d.step, d.time, d.kinetic_energy, d.max_div);
  }
  /* u on the vertical centre line x = 0.5 (face i = nx/2), on the rank whose block holds it */
  const size_t cells = (size_t)info.count[0] * info.count[1] * info.count[2];
  double *u = malloc(cells * sizeof *u);
  if (!u || nav_sim_get_field(sim, "u", u)) return fail("get_field");
  const int i = info.n[0] / 2 - info.offset[0];
  if (i >= 0 && i < info.count[0] && info.offset[1] + info.count[1] == info.n[1])
    printf("u(0.5, y) at the top cell: %.6f (the lid moves at 1)\n", u[i + (size_t)(info.count[1] - 1) * info.count[0]]);
  free(u);
  char path[600];
  if (nav_sim_write_summary(sim, path, sizeof path)) return fail("write_summary");
  if (rank == 0) printf("summary: %s\n", path);
  nav_sim_destroy(sim);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int status = run(argc > 1 ? argv[1] : "output/flow_cavity");
  MPI_Finalize();
  return status;
}
