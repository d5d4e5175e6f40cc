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

/* The automatic split of size ranks over the dim directions of a grid of N cells ([run] decomposition
 * = auto): MPI_Dims_create's counts, the most ranks to the direction of the most cells and, between
 * equal ones, to the later direction (its faces are contiguous planes, and a split along the last
 * direction alone lets the FFT solver run on slabs: solvers/poisson/fft.c). p[d] = 1 beyond dim;
 * MPI_Dims_create's status. */
int nav_dims_auto(int size, int dim, const int N[3], int p[3]);

#endif
