/* The compute communicator (see nav_comm.h). */
#include "core/nav_comm.h"

static MPI_Comm nav_comm_compute = MPI_COMM_NULL;

MPI_Comm nav_compute_comm(void) { return nav_comm_compute == MPI_COMM_NULL ? MPI_COMM_WORLD : nav_comm_compute; }

void nav_compute_comm_set(MPI_Comm comm) { nav_comm_compute = comm; }

int nav_dims_auto(int size, int dim, const int N[3], int p[3]) {
  int q[3] = {0, 0, 0}, order[3] = {0, 1, 2};
  const int rc = MPI_Dims_create(size, dim, q); /* q0 >= q1 >= q2 */
  for (int i = 0; i < dim; i++)
    for (int j = i + 1; j < dim; j++)
      if (N[order[j]] > N[order[i]] || (N[order[j]] == N[order[i]] && order[j] > order[i])) {
        const int t = order[i];
        order[i] = order[j], order[j] = t;
      }
  p[0] = p[1] = p[2] = 1;
  for (int i = 0; i < dim; i++) p[order[i]] = q[i];
  return rc;
}
