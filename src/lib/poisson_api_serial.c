/* One-rank entry points of the Poisson library for bindings that have no MPI of their own (the
 * Python binding, python/navier_poisson.py): MPI is started on first use when the caller has not
 * started it, and the solver lives on MPI_COMM_SELF; nothing here depends on the MPI library's
 * handle types, so a foreign-function interface can call it. */
#include <mpi.h>

#include "core/nav_error.h"
#include "navier/poisson.h"

static int nav_poisson_started_mpi; /* this library called MPI_Init (and finalizes it) */

nav_err nav_poisson_create_serial(const nav_poisson_options *opt, nav_poisson **ps) {
  int up = 0, down = 0;
  MPI_Finalized(&down);
  NAV_CHECK(!down, NAV_ERR_MPI, "nav_poisson_create_serial: MPI was finalized already");
  MPI_Initialized(&up);
  if (!up) {
    int provided;
    NAV_CHECK(MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS, NAV_ERR_MPI,
              "nav_poisson_create_serial: MPI_Init failed");
    nav_poisson_started_mpi = 1;
  }
  return nav_poisson_create(MPI_COMM_SELF, opt, ps);
}

void nav_poisson_finalize_serial(void) {
  int down = 0;
  MPI_Finalized(&down);
  if (nav_poisson_started_mpi && !down) MPI_Finalize();
  nav_poisson_started_mpi = 0;
}

void nav_poisson_sizes(size_t *options, size_t *result) {
  *options = sizeof(nav_poisson_options);
  *result = sizeof(nav_poisson_result);
}
