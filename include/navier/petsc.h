/* navier-petsc: navier's Poisson solvers as a PETSc preconditioner (library navier-petsc, built when
 * PETSc is found: Debian petsc-dev).
 *
 * For a KSP (CG) whose operator is the cell-centred Laplacian of a DMDA, times a constant,
 *
 *     A = -scale L,   L as in navier/poisson.h (7-point / 5-point, widths h[d], faces Neumann,
 *                     Dirichlet (zero on the face: ghost = -x) or periodic),
 *
 * NavPetscPCSetUp turns pc into a PCSHELL whose apply is z = -(1/scale) M r with M ~ L^{-1} navier's
 * solver on the DMDA's own blocks (the DMDA's process grid is a Cartesian split: navier uses it
 * directly, nothing is moved): solver "mg" (one symmetric multigrid V(2,2)-cycle: mgpcg's cycle,
 * a fixed SPD operator as CG needs) or "fft" (the exact inverse where it applies: uniform spacing in
 * every direction but one; CG then converges in one iteration). scale = 1 for the plain operator,
 * the cell volume for the usual finite-volume scaling. Collective on the DMDA's communicator.
 *
 *     KSPGetPC(ksp, &pc);
 *     NavPetscPCSetUp(pc, da, &opt);       (opt: solver, widths, faces, scale, backend)
 *
 * The DMDA: dof 1, stencil width >= 0, any process grid; global vectors in PETSc's DMDA order (each
 * process's block contiguous, x fastest), the order navier's block calls take. */
#ifndef NAVIER_PETSC_H
#define NAVIER_PETSC_H

#include <petscdmda.h>
#include <petscksp.h>

#include "navier/poisson.h"

typedef struct nav_petsc_options {
  const char *solver;      /* "mg" (default) or "fft" */
  const double *h[3];      /* widths of the N[d] cells of direction d; NULL: uniform 1 / N[d] */
  nav_poisson_bc bc[3][2]; /* faces (default: all Dirichlet = 0 = NAV_POISSON_NEUMANN: set them) */
  double scale;            /* A = -scale L; 0 = 1 */
  const char *backend;     /* "cpu" (default) or "cuda" */
} nav_petsc_options;

/* Set pc to apply navier's solver (see above). The navier solver is set up here (its setup time is
 * part of the caller's timing) and freed with the PC. */
PetscErrorCode NavPetscPCSetUp(PC pc, DM da, const nav_petsc_options *opt);

#endif
