/* The compute communicator (see nav_comm.h). */
#include "core/nav_comm.h"

static MPI_Comm nav_comm_compute = MPI_COMM_NULL;

MPI_Comm nav_compute_comm(void) { return nav_comm_compute == MPI_COMM_NULL ? MPI_COMM_WORLD : nav_comm_compute; }

void nav_compute_comm_set(MPI_Comm comm) { nav_comm_compute = comm; }
