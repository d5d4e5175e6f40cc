/* The communicator of the ranks that compute: MPI_COMM_WORLD, or a part of it when more ranks
 * than GPUs run on a node with a GPU backend (app/main.c: the ranks that share a GPU leave their
 * share of the grid to the one rank that drives it, and wait). The decomposition, its checks in
 * the case file and the run's output use it. */
#ifndef NAV_COMM_H
#define NAV_COMM_H

#include <mpi.h>

/* MPI_COMM_WORLD until nav_compute_comm_set. */
MPI_Comm nav_compute_comm(void);
void nav_compute_comm_set(MPI_Comm comm);

#endif
