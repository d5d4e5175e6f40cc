/* Example: navier's solvers as a PETSc preconditioner, against PETSc's GAMG and hypre BoomerAMG.
 *
 *   -lap u = b on the unit cube, n^3 cells (a DMDA), u = 0 on every face (Dirichlet, cell-centred:
 *   ghost = -x), exact u = sin(pi x) sin(pi y) sin(pi z), b = 3 pi^2 u. The matrix A = -L (navier's
 *   7-point operator, assembled here) is solved by KSPCG to a relative (unpreconditioned) residual of
 *   rtol with each preconditioner:
 *     navier-mg   one symmetric multigrid V(2,2)-cycle of navier (NavPetscPCSetUp, solver "mg")
 *     navier-fft  navier's FFT direct solver (solver "fft": CG converges in one iteration)
 *     gamg        PETSc's smoothed-aggregation algebraic multigrid (defaults)
 *     hypre       hypre BoomerAMG (when PETSc has hypre; defaults)
 *   Each run prints iterations, set-up and solve seconds, the true relative residual ||b - A x|| / ||b||
 *   and the max error against u. With -check the program exits 1 unless every run has a residual
 *   <= rtol and (when -check_order) the navier-mg error is second order between n/2 and n.
 *
 *   -bc neumann solves instead the problem of `navier bench poisson` and bench/hypre/hypre_poisson.c:
 *   every face Neumann (no flux), the same random zero-mean right-hand side (xorshift64 over the cells
 *   in x-fastest order, same seed), zero initial guess; A is singular with the constants as its null
 *   space, given to the KSP as a MatNullSpace (MatSetNullSpace: CG works on the zero-mean space). No
 *   exact solution: max_err is not computed (printed as 0) and -check_order does not apply.
 *
 * usage: mpiexec -n P petsc_poisson [-n 64] [-rtol 1e-8] [-pcs navier-mg,navier-fft,gamg,hypre]
 *                                   [-bc dirichlet|neumann] [-check] [-check_order] [-repeat 1] */
#include <math.h>
#include <petscdmda.h>
#include <petscksp.h>
#include <stdlib.h>
#include <string.h>

#include "../app/nav_bench_rhs.h"
#include "navier/petsc.h"

/* A = -L on a DMDA of n^3 cells with Dirichlet faces, the right-hand side and the exact solution; with
 * neumann, every face Neumann (no face term), b = -(the random zero-mean field of app/nav_bench_rhs.h)
 * and u = 0. */
static PetscErrorCode assemble(DM da, PetscInt n, PetscBool neumann, Mat A, Vec b, Vec u) {
  PetscInt xs, ys, zs, xm, ym, zm;
  const double h = 1.0 / n, c = 1.0 / (h * h), pi = 3.14159265358979323846;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscScalar ***bb, ***uu;
  double *rnd = NULL;
  if (neumann) {
    const size_t count = (size_t)n * n * n; /* every rank draws the whole field and keeps its block */
    rnd = malloc(count * sizeof *rnd);
    PetscCheck(rnd, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    nav_bench_random_rhs(rnd, count);
  }
  PetscCall(DMDAVecGetArray(da, b, &bb));
  PetscCall(DMDAVecGetArray(da, u, &uu));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        int m = 0;
        double diag = 0;
        const PetscInt idx[3] = {i, j, k};
        for (int d = 0; d < 3; d++)
          for (int s = -1; s <= 1; s += 2) {
            const PetscInt q = idx[d] + s;
            if (q < 0 || q >= n) { /* Dirichlet face: ghost = -x, the face term -2 x / h^2; Neumann: none */
              if (!neumann) diag += 2 * c;
              continue;
            }
            col[m] = row;
            if (d == 0) col[m].i = q;
            if (d == 1) col[m].j = q;
            if (d == 2) col[m].k = q;
            v[m++] = -c;
            diag += c;
          }
        col[m] = row;
        v[m++] = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, m, col, v, INSERT_VALUES));
        if (neumann) { /* -L u = -f with f the field of navier bench poisson (L u = f) */
          uu[k][j][i] = 0;
          bb[k][j][i] = -rnd[(size_t)i + (size_t)n * ((size_t)j + (size_t)n * (size_t)k)];
          continue;
        }
        const double x = (i + 0.5) * h, y = (j + 0.5) * h, z = (k + 0.5) * h;
        uu[k][j][i] = sin(pi * x) * sin(pi * y) * sin(pi * z);
        bb[k][j][i] = 3 * pi * pi * uu[k][j][i];
      }
  free(rnd);
  PetscCall(DMDAVecRestoreArray(da, b, &bb));
  PetscCall(DMDAVecRestoreArray(da, u, &uu));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

typedef struct run_result {
  PetscInt its;
  double setup_s, solve_s, relres, err;
  int ok;
} run_result;

/* KSPCG with preconditioner pcname on the problem of n^3 cells; fastest of `repeat` runs. */
static PetscErrorCode run(PetscInt n, PetscBool neumann, const char *pcname, double rtol, int repeat, run_result *R) {
  DM da;
  Mat A;
  Vec b, x, u, r;
  PetscFunctionBeginUser;
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n,
                         n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &u));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(assemble(da, n, neumann, A, b, u));
  if (neumann) { /* the constants span A's null space: the KSP projects them out of the residual */
    MatNullSpace ns;
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &ns));
    PetscCall(MatSetNullSpace(A, ns));
    PetscCall(MatNullSpaceDestroy(&ns));
  }
  R->setup_s = R->solve_s = 1e30;
  R->ok = 1;
  for (int rep = 0; rep < repeat; rep++) {
    KSP ksp;
    PC pc;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetTolerances(ksp, rtol, 0, PETSC_DEFAULT, 1000));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(VecSet(x, 0));
    PetscCall(PetscBarrier((PetscObject)ksp));
    double t0 = MPI_Wtime();
    if (!strncmp(pcname, "navier-", 7)) {
      nav_petsc_options opt;
      memset(&opt, 0, sizeof opt);
      opt.solver = pcname + 7;
      for (int d = 0; d < 3; d++)
        opt.bc[d][0] = opt.bc[d][1] = neumann ? NAV_POISSON_NEUMANN : NAV_POISSON_DIRICHLET;
      PetscCall(NavPetscPCSetUp(pc, da, &opt));
    } else {
      PetscCall(PCSetType(pc, !strcmp(pcname, "hypre") ? PCHYPRE : pcname));
      PetscCall(KSPSetFromOptions(ksp));
    }
    PetscCall(KSPSetUp(ksp));
    PetscCall(PCSetUp(pc));
    double t1 = MPI_Wtime();
    PetscCall(KSPSolve(ksp, b, x));
    double t2 = MPI_Wtime();
    KSPConvergedReason reason;
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &R->its));
    if (reason <= 0) R->ok = 0;
    if (t1 - t0 < R->setup_s) R->setup_s = t1 - t0;
    if (t2 - t1 < R->solve_s) R->solve_s = t2 - t1;
    PetscCall(KSPDestroy(&ksp));
  }
  double rn, bn;
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b)); /* r <- b - A x */
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  if (neumann)
    R->err = 0; /* no exact solution */
  else {
    PetscCall(VecAXPY(x, -1.0, u));
    PetscCall(VecNorm(x, NORM_INFINITY, &R->err));
  }
  R->relres = rn / bn;
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv) {
  PetscInt n = 64, repeat = 1;
  PetscReal rtol = 1e-8;
  PetscBool check = PETSC_FALSE, check_order = PETSC_FALSE, set, neumann = PETSC_FALSE;
  char pcs[256] = "navier-mg,navier-fft,gamg,hypre", bcname[32] = "dirichlet";
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeat", &repeat, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_order", &check_order, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pcs", pcs, sizeof pcs, &set));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bc", bcname, sizeof bcname, &set));
  neumann = !strcmp(bcname, "neumann") ? PETSC_TRUE : PETSC_FALSE;
  if (!neumann && strcmp(bcname, "dirichlet")) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "petsc_poisson: -bc %s: expected dirichlet or neumann\n", bcname));
    PetscCall(PetscFinalize());
    return 2;
  }
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "-lap u = b, %d^3 cells, %s, KSPCG to %.0e (unpreconditioned residual), %d rank(s)\n", (int)n,
                        neumann ? "Neumann faces (random zero-mean b; null space: the constants)" : "Dirichlet faces",
                        (double)rtol, size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-11s %5s %9s %9s %9s %10s %10s\n", "pc", "its", "setup_s", "solve_s",
                        "total_s", "relres", "max_err"));
  int fails = 0;
  double err_mg = -1;
  for (char *tok = strtok(pcs, ","); tok; tok = strtok(NULL, ",")) {
#if !defined(PETSC_HAVE_HYPRE)
    if (!strcmp(tok, "hypre")) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-11s skipped: this PETSc has no hypre\n", tok));
      continue;
    }
#endif
    run_result R;
    PetscCall(run(n, neumann, tok, rtol, (int)repeat, &R));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-11s %5d %9.4f %9.4f %9.4f %10.2e %10.3e\n", tok, (int)R.its, R.setup_s,
                          R.solve_s, R.setup_s + R.solve_s, R.relres, R.err));
    if (check && (!R.ok || R.relres > rtol)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s: relative residual %.3e > %.1e or not converged\n", tok,
                            R.relres, (double)rtol));
      fails++;
    }
    if (!strcmp(tok, "navier-mg")) err_mg = R.err;
  }
  if (check_order && err_mg > 0 && !neumann) { /* the discretisation error is second order: n/2 against n */
    run_result R;
    PetscCall(run(n / 2, PETSC_FALSE, "navier-mg", rtol, 1, &R));
    const double order = log2(R.err / err_mg);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "navier-mg max error %.3e at %d^3, %.3e at %d^3: observed order %.3f\n",
                          R.err, (int)n / 2, err_mg, (int)n, order));
    if (fabs(order - 2) > 0.2) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL: observed order %.3f not 2 +- 0.2\n", order));
      fails++;
    }
  }
  if (check) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", fails ? "FAIL" : "PASS"));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
