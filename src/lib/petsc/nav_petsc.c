/* navier-petsc: navier's Poisson solver as a PCSHELL on a DMDA (include/navier/petsc.h).
 *
 * The DMDA's blocks (DMDAGetCorners) are the blocks of nav_poisson_set_grid_block; a global vector's
 * local array is the block in x-fastest order, so the shell's apply hands PETSc's arrays to
 * nav_poisson_precondition_block unchanged and scales the result: A = -scale L, so
 * A^{-1} ~ -(1/scale) M with M ~ L^{-1}. */
#include "navier/petsc.h"

#include <stdlib.h>
#include <string.h>

typedef struct nav_petsc_ctx {
  nav_poisson *ps;
  double factor; /* -1 / scale */
} nav_petsc_ctx;

static PetscErrorCode NavPetscApply(PC pc, Vec r, Vec z) {
  nav_petsc_ctx *ctx;
  const PetscScalar *ra;
  PetscScalar *za;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &ctx));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(VecGetArray(z, &za));
  const nav_err e = nav_poisson_precondition_block(ctx->ps, za, ra);
  PetscCall(VecRestoreArray(z, &za));
  PetscCall(VecRestoreArrayRead(r, &ra));
  PetscCheck(e == NAV_OK, PetscObjectComm((PetscObject)pc), PETSC_ERR_LIB, "navier: %s", nav_poisson_error());
  PetscCall(VecScale(z, ctx->factor));
  PetscFunctionReturn(0);
}

static PetscErrorCode NavPetscDestroy(PC pc) {
  nav_petsc_ctx *ctx;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &ctx));
  if (ctx) nav_poisson_destroy(ctx->ps);
  free(ctx);
  PetscFunctionReturn(0);
}

PetscErrorCode NavPetscPCSetUp(PC pc, DM da, const nav_petsc_options *opt) {
  PetscInt dim, M, N, P, dof, xs, ys, zs, xm, ym, zm;
  MPI_Comm comm = PetscObjectComm((PetscObject)da);
  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, &dim, &M, &N, &P, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(dof == 1, comm, PETSC_ERR_SUP, "navier: the DMDA must have dof 1 (has %d)", (int)dof);
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_SUP, "navier: the DMDA must be 2D or 3D");
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  const int Ng[3] = {(int)M, (int)N, dim == 3 ? (int)P : 1}, lo[3] = {(int)xs, (int)ys, dim == 3 ? (int)zs : 0},
            cnt[3] = {(int)xm, (int)ym, dim == 3 ? (int)zm : 1};
  double *uni[3] = {NULL, NULL, NULL};
  const double *h[3];
  for (int d = 0; d < 3; d++) {
    h[d] = opt->h[d];
    if (!h[d] && d < dim) {
      PetscCall(PetscMalloc1(Ng[d], &uni[d]));
      for (int i = 0; i < Ng[d]; i++)
        uni[d][i] = 1.0 / Ng[d];
      h[d] = uni[d];
    }
  }
  nav_poisson_options no;
  nav_poisson_options_default(&no);
  const char *solver = opt->solver ? opt->solver : "mg";
  no.solver = !strcmp(solver, "mg") ? "mgpcg" : solver; /* mgpcg's cycle is the symmetric one */
  no.backend = opt->backend ? opt->backend : "cpu";
  nav_petsc_ctx *ctx = calloc(1, sizeof *ctx);
  PetscCheck(ctx, comm, PETSC_ERR_MEM, "navier: out of memory");
  ctx->factor = -1.0 / (opt->scale > 0 ? opt->scale : 1.0);
  nav_err e = nav_poisson_create(comm, &no, &ctx->ps);
  if (e == NAV_OK) e = nav_poisson_set_grid_block(ctx->ps, (int)dim, Ng, lo, cnt, h, opt->bc);
  for (int d = 0; d < 3; d++)
    PetscCall(PetscFree(uni[d]));
  if (e != NAV_OK) {
    nav_poisson_destroy(ctx->ps);
    free(ctx);
    SETERRQ(comm, PETSC_ERR_LIB, "navier: %s", nav_poisson_error());
  }
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, ctx));
  PetscCall(PCShellSetApply(pc, NavPetscApply));
  PetscCall(PCShellSetDestroy(pc, NavPetscDestroy));
  PetscCall(PCShellSetName(pc, nav_poisson_describe(ctx->ps)));
  PetscFunctionReturn(0);
}
