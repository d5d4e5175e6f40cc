/* Reference timing: BoomerAMG-preconditioned CG (hypre) on the problem `navier bench poisson`
 * solves: the cell-centred 5-point (2D) / 7-point (3D) Laplacian on the unit box, N cells per
 * direction, all faces Neumann (zero flux), the same random zero-mean right-hand side (xorshift64,
 * same seed), zero initial guess, stop at ||r||_2 / ||b||_2 <= tol.
 *
 *   mpiexec -n 2 hypre_poisson DIM N TOL [STRONG_THRESHOLD]
 *
 * Rows are split evenly over the ranks in x-fastest order. The matrix is -L scaled by h^2 (SPD on
 * the zero-mean space; scaling does not change the Krylov iterates), BoomerAMG with hypre's
 * defaults except the strong threshold (0.25 in 2D, 0.5 in 3D unless given), one V-cycle per CG
 * iteration. Prints setup and solve seconds (max over ranks), iterations and the final relative
 * residual, and one JSON line. */
#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_krylov.h>
#include <HYPRE_parcsr_ls.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../app/nav_bench_rhs.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0) fprintf(stderr, "usage: hypre_poisson DIM N TOL [STRONG_THRESHOLD]\n");
    MPI_Finalize();
    return 2;
  }
  const int dim = atoi(argv[1]), n = atoi(argv[2]);
  const double tol = atof(argv[3]), strong = argc > 4 ? atof(argv[4]) : (dim == 2 ? 0.25 : 0.5);
  HYPRE_Init();
  const long long N = dim == 2 ? (long long)n * n : (long long)n * n * n;
  const HYPRE_BigInt lo = (HYPRE_BigInt)(N * rank / size), hi = (HYPRE_BigInt)(N * (rank + 1) / size) - 1;

  /* the same right-hand side as navier bench poisson: xorshift64 over all cells, zero mean */
  double *ball = malloc(N * sizeof *ball);
  nav_bench_random_rhs(ball, (size_t)N);

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  HYPRE_IJMatrix A;
  HYPRE_IJMatrixCreate(MPI_COMM_WORLD, lo, hi, lo, hi, &A);
  HYPRE_IJMatrixSetObjectType(A, HYPRE_PARCSR);
  HYPRE_IJMatrixInitialize(A);
  const long long st[3] = {1, n, (long long)n * n};
  for (HYPRE_BigInt row = lo; row <= hi; row++) {
    int idx[3] = {(int)(row % n), (int)((row / n) % n), dim == 3 ? (int)(row / ((long long)n * n)) : 0};
    HYPRE_BigInt cols[7];
    double vals[7];
    int nnz = 1;
    double diag = 0;
    for (int d = 0; d < dim; d++)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        const int j = idx[d] + sgn;
        if (j < 0 || j >= n) continue; /* Neumann: no flux through the boundary face */
        cols[nnz] = row + sgn * st[d];
        vals[nnz++] = -1;
        diag += 1;
      }
    cols[0] = row;
    vals[0] = diag;
    HYPRE_IJMatrixSetValues(A, 1, &nnz, &row, cols, vals);
  }
  HYPRE_IJMatrixAssemble(A);
  HYPRE_ParCSRMatrix parA;
  HYPRE_IJMatrixGetObject(A, (void **)&parA);

  HYPRE_IJVector b, x;
  HYPRE_IJVectorCreate(MPI_COMM_WORLD, lo, hi, &b);
  HYPRE_IJVectorSetObjectType(b, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(b);
  HYPRE_IJVectorCreate(MPI_COMM_WORLD, lo, hi, &x);
  HYPRE_IJVectorSetObjectType(x, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(x);
  const double h2 = 1.0 / ((double)n * n);
  for (HYPRE_BigInt row = lo; row <= hi; row++) {
    double v = -ball[row] * h2, z = 0; /* -L x = -b, scaled by h^2 */
    HYPRE_IJVectorSetValues(b, 1, &row, &v);
    HYPRE_IJVectorSetValues(x, 1, &row, &z);
  }
  HYPRE_IJVectorAssemble(b);
  HYPRE_IJVectorAssemble(x);
  HYPRE_ParVector parb, parx;
  HYPRE_IJVectorGetObject(b, (void **)&parb);
  HYPRE_IJVectorGetObject(x, (void **)&parx);

  HYPRE_Solver pcg, amg;
  HYPRE_ParCSRPCGCreate(MPI_COMM_WORLD, &pcg);
  HYPRE_PCGSetTol(pcg, tol);
  HYPRE_PCGSetMaxIter(pcg, 500);
  HYPRE_PCGSetTwoNorm(pcg, 1);
  HYPRE_BoomerAMGCreate(&amg);
  HYPRE_BoomerAMGSetStrongThreshold(amg, strong);
  HYPRE_BoomerAMGSetMaxIter(amg, 1);
  HYPRE_BoomerAMGSetTol(amg, 0.0);
  HYPRE_BoomerAMGSetPrintLevel(amg, 0);
  HYPRE_PCGSetPrecond(pcg, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSolve, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSetup, amg);
  const double t1 = MPI_Wtime();
  HYPRE_ParCSRPCGSetup(pcg, parA, parb, parx);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t2 = MPI_Wtime();
  HYPRE_ParCSRPCGSolve(pcg, parA, parb, parx);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t3 = MPI_Wtime();
  HYPRE_Int its;
  double rel;
  HYPRE_PCGGetNumIterations(pcg, &its);
  HYPRE_PCGGetFinalRelativeResidualNorm(pcg, &rel);
  if (rank == 0) {
    printf("hypre BoomerAMG-PCG %dD N=%d on %d ranks: assembly %.4f s, setup %.4f s, solve %.4f s, %d iterations, "
           "relres %.2e\n",
           dim, n, size, t1 - t0, t2 - t1, t3 - t2, (int)its, rel);
    printf("{\"solver\": \"hypre-boomeramg-pcg\", \"dim\": %d, \"n\": %d, \"ranks\": %d, \"assembly_s\": %.4f, "
           "\"setup_s\": %.4f, \"solve_s\": %.4f, \"iterations\": %d, \"relres\": %.3e}\n",
           dim, n, size, t1 - t0, t2 - t1, t3 - t2, (int)its, rel);
  }
  HYPRE_BoomerAMGDestroy(amg);
  HYPRE_ParCSRPCGDestroy(pcg);
  HYPRE_IJMatrixDestroy(A);
  HYPRE_IJVectorDestroy(b);
  HYPRE_IJVectorDestroy(x);
  free(ball);
  HYPRE_Finalize();
  MPI_Finalize();
  return 0;
}
