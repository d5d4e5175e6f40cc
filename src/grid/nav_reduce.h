/* Global reductions of local partial results (kernels return local sums and maxima).
 * comm == MPI_COMM_NULL (a serial block): no-ops. Collective over comm. */
#ifndef NAV_REDUCE_H
#define NAV_REDUCE_H

#include <mpi.h>

#include "core/nav_error.h"

/* v[i] = sum over ranks of v[i], i < n. */
void nav_reduce_sum(MPI_Comm comm, double *v, int n);
/* v[i] = max over ranks of v[i], i < n. */
void nav_reduce_max(MPI_Comm comm, double *v, int n);
/* Error agreement: returns the largest code over ranks (0 when every rank succeeded). */
int nav_reduce_err(MPI_Comm comm, int code);
/* The same verdict on every rank: the largest error code of any rank. A rank that succeeded while another
 * failed (rank 0 writing a file) records the message "failed on another rank (rank 0 reports it)". */
nav_err nav_reduce_agree(MPI_Comm comm, nav_err e);

#endif
