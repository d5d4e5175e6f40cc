/* The operations on one level of the Poisson solvers (see level.h). */
#include "solvers/poisson/level.h"

#include <math.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_geometry.h"
#include "grid/nav_reduce.h"

nav_err nav_level_pin(const nav_level *lev, nav_real *x, nav_ghost_kind kind) {
  for (int d = 0; d < lev->box.dim; d++)
    for (int s = 0; s < 2; s++)
      if (lev->bc[d][s] == NAV_SCALAR_FACE && !nav_halo_face(lev->halo, d, s))
        NAV_CALL(lev->ops->fill_ghost(&lev->box, x, d, s, kind, 0, 0));
  return NAV_OK;
}

nav_err nav_level_fill(const nav_level *lev, nav_real *x) {
  NAV_CALL(nav_fill_scalar_ghosts(lev->ops, &lev->box, lev->halo, (const nav_scalar_bc(*)[2])lev->bc, x));
  /* on level 0 of a staggered solve the boundary face slot is an unknown pinned to 0 whose row is
   * inert: x_0 = 0 and x_{-1} = -x_1, so that (L x)_0 = 0 (equal face distances either side) */
  return lev->finest ? nav_level_pin(lev, x, NAV_GHOST_FACE) : NAV_OK;
}

nav_err nav_level_fill_coefficient(const nav_level *lev, nav_real *k) {
  nav_scalar_bc bc[3][2];
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      bc[d][s] = lev->bc[d][s] == NAV_SCALAR_PERIODIC ? NAV_SCALAR_PERIODIC : NAV_SCALAR_NEUMANN;
  NAV_CALL(nav_fill_scalar_ghosts(lev->ops, &lev->box, lev->halo, (const nav_scalar_bc(*)[2])bc, k));
  /* even about a pinned face slot, so that its row stays inert: k_{-1/2} = k_{+1/2} */
  return lev->finest ? nav_level_pin(lev, k, NAV_GHOST_REFLECT) : NAV_OK;
}

nav_err nav_level_dot(const nav_level *lev, const nav_real *x, const nav_real *y, double *sum) {
  NAV_CALL(lev->ops->dot(&lev->box, x, y, sum));
  nav_reduce_sum(lev->comm, sum, 1);
  return NAV_OK;
}

/* a NaN sum stays NaN (a NaN or Inf in b: the caller reports it; fmax would make it 0, a zero b) */
double nav_level_norm(const nav_level *lev, double sum_sq) { return sqrt((sum_sq < 0 ? 0 : sum_sq) / lev->volume); }

nav_err nav_level_sum(const nav_level *lev, const nav_real *x, const double *local, double *sum) {
  if (local)
    NAV_CALL(lev->ops->to_host(sum, local, sizeof *sum));
  else
    NAV_CALL(lev->ops->sum(&lev->box, x, sum));
  nav_reduce_sum(lev->comm, sum, 1);
  return NAV_OK;
}

nav_err nav_level_remove_mean_sum(const nav_level *lev, nav_real *x, const double *local, double *sum) {
  NAV_CALL(nav_level_sum(lev, x, local, sum));
  return lev->ops->shift(&lev->box, x, (nav_real)(-*sum / lev->volume));
}

nav_err nav_level_remove_mean(const nav_level *lev, nav_real *x) {
  double s;
  return nav_level_remove_mean_sum(lev, x, NULL, &s);
}

nav_err nav_level_init(nav_level *lev, const nav_kernel_ops *ops, const nav_decomp *dc, double *const w[3],
                       const nav_scalar_bc bc[3][2], int finest) {
  lev->ops = ops;
  memcpy(lev->bc, bc, sizeof lev->bc);
  lev->finest = finest;
  const int dim = dc->dim, zero[3] = {0, 0, 0};
  NAV_CALL(nav_decomp_copy(dc, &lev->dc));
  lev->comm = dc->size > 1 ? dc->comm : MPI_COMM_NULL;
  lev->active = 1;
  for (int d = 0; d < 3; d++) lev->N[d] = dc->N[d];
  for (int d = 0; d < dim; d++) {
    lev->w[d] = nav_widths_alloc(dc->N[d]);
    NAV_CHECK(lev->w[d], NAV_ERR_MEMORY, "cannot allocate widths");
    memcpy(lev->w[d] - 1, w[d] - 1, ((size_t)dc->N[d] + 2) * sizeof(double));
  }
  lev->volume = nav_box_volume(dim, dc->N, zero, lev->w);
  NAV_CALL(nav_box_create(ops, dim, dc->n, dc->g0, lev->w, &lev->box));
  NAV_CALL(nav_halo_create(ops, dc, &lev->box, &lev->halo));
  const size_t bytes = (size_t)lev->box.ntot * sizeof(nav_real);
  nav_real **v[4] = {&lev->r, &lev->inv_diag, &lev->x, &lev->b};
  for (int i = 0; i < (finest ? 2 : 4); i++) {
    NAV_CALL(ops->alloc((void **)v[i], bytes));
    NAV_CALL(ops->set(&lev->box, *v[i], 0));
  }
  return ops->inverse_diagonal(&lev->box, lev->inv_diag);
}

void nav_level_free(nav_level *lev) {
  const nav_kernel_ops *ops = lev->ops;
  if (!ops) { /* a level this rank does not work on: partition and widths only */
    for (int d = 0; d < 3; d++) nav_widths_free(lev->w[d]);
    nav_decomp_release(&lev->dc);
    memset(lev, 0, sizeof *lev);
    return;
  }
  const int finest = lev->finest;
  nav_real *v[6] = {lev->r, lev->inv_diag, finest ? NULL : lev->x, finest ? NULL : lev->b, lev->kc, lev->sv};
  for (int i = 0; i < 6; i++)
    if (v[i]) ops->free(v[i]);
  for (int d = 0; d < 3; d++) nav_widths_free(lev->w[d]);
  nav_halo_destroy(lev->halo);
  if (lev->box.ntot) nav_box_destroy(ops, &lev->box);
  nav_decomp_release(&lev->dc);
  memset(lev, 0, sizeof *lev);
}

void nav_level_dense(const nav_box *b, nav_real *ghosted, double *dense, int to_dense) {
  nav_idx q = 0;
  for (int k = 0; k < b->n[2]; k++)
    for (int j = 0; j < b->n[1]; j++)
      for (int i = 0; i < b->n[0]; i++, q++) {
        const nav_idx p = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
        if (to_dense)
          dense[q] = ghosted[p];
        else
          ghosted[p] = (nav_real)dense[q];
      }
}
