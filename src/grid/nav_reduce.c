/* Global reductions (see nav_reduce.h). */
#include "grid/nav_reduce.h"

void nav_reduce_sum(MPI_Comm comm, double *v, int n) {
  if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, comm);
}

void nav_reduce_max(MPI_Comm comm, double *v, int n) {
  if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm);
}

int nav_reduce_err(MPI_Comm comm, int code) {
  if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm);
  return code;
}

nav_err nav_reduce_agree(MPI_Comm comm, nav_err e) {
  const int code = nav_reduce_err(comm, (int)e);
  if (code != NAV_OK && e == NAV_OK)
    return nav_error_set((nav_err)code, __FILE__, __LINE__, __func__, "failed on another rank (rank 0 reports it)");
  return (nav_err)code;
}
