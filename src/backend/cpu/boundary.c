/* CPU backend: constant fill, ghost layers of one block face (see nav_ghost_kind), and the
 * pack/unpack of a face plane for the halo exchange. */
#include "backend/common/nav_point_boundary.h"
#include "backend/cpu/cpu_kernels.h"
#include "core/nav_error.h"

nav_err nav_set_cpu(const nav_box *b, nav_real *x, nav_real value) {
#pragma omp parallel for schedule(static) if (nav_cpu_threaded(b))
  for (nav_idx p = 0; p < b->ntot; p++) x[p] = value;
  return NAV_OK;
}

nav_err nav_fill_ghosts_cpu(const nav_box *b, nav_real *x, const nav_ghost_faces *g) {
  const nav_idx count = nav_ghost_all_count(b, g);
#pragma omp parallel for schedule(static) if (count >= 8192)
  for (nav_idx m = 0; m < count; m++) nav_ghost_all_point(b, x, g, m);
  return NAV_OK;
}

nav_err nav_fill_ghost_cpu(const nav_box *b, nav_real *x, int dir, int side, nav_ghost_kind kind, nav_real alpha,
                           nav_real beta) {
  int t0, t1; /* the two tangential directions */
  nav_face_plane(b, dir, &t0, &t1);
  const int lo1 = b->dim == 3 ? -1 : 0, hi1 = b->dim == 3 ? b->n[t1] : 0;
  const long points = (long)(b->n[t0] + 2) * (hi1 - lo1 + 1);
#pragma omp parallel for schedule(static) if (points >= 8192)
  for (int q = lo1; q <= hi1; q++)
    for (int r = -1; r <= b->n[t0]; r++) nav_fill_ghost_point(b, x, dir, side, kind, alpha, beta, t0, r, t1, q);
  return NAV_OK;
}

nav_err nav_fill_ghost_dir_cpu(const nav_box *b, int dir, const nav_ghost_dir *g) {
  for (int s = 0; s < 2; s++)
    for (int c = 0; c < 3; c++)
      if (g->on[s][c]) NAV_CALL(nav_fill_ghost_cpu(b, g->x[c], dir, s, g->kind[s][c], g->alpha[s][c], g->beta[s][c]));
  return NAV_OK;
}

static void nav_face_copy_cpu(const nav_box *b, nav_real *x, int dir, int layer, nav_real *buf, int pack) {
  int t0, t1;
  nav_face_plane(b, dir, &t0, &t1);
  const int lo1 = b->dim == 3 ? -1 : 0, hi1 = b->dim == 3 ? b->n[t1] : 0;
  const long points = (long)(b->n[t0] + 2) * (hi1 - lo1 + 1);
#pragma omp parallel for schedule(static) if (points >= 8192)
  for (int q = lo1; q <= hi1; q++)
    for (int r = -1; r <= b->n[t0]; r++) nav_face_copy_point(b, x, dir, layer, buf, pack, t0, r, t1, q, lo1);
}

nav_err nav_pack_face_cpu(const nav_box *b, const nav_real *x, int dir, int side, int layer, nav_real *buf) {
  (void)side;
  nav_face_copy_cpu(b, (nav_real *)x, dir, layer, buf, 1);
  return NAV_OK;
}

nav_err nav_unpack_face_cpu(const nav_box *b, nav_real *x, int dir, int side, int layer, const nav_real *buf) {
  (void)side;
  nav_face_copy_cpu(b, x, dir, layer, (nav_real *)buf, 0);
  return NAV_OK;
}

nav_err nav_copy_faces_cpu(const nav_box *b, nav_real *const *x, int nf, int dir, const int layer[2],
                           nav_real *const buf[2], int pack) {
  const nav_idx pts = nav_face_points(b, dir);
  for (int s = 0; s < 2; s++)
    for (int f = 0; f < nf && buf[s]; f++) nav_face_copy_cpu(b, x[f], dir, layer[s], buf[s] + f * pts, pack);
  return NAV_OK;
}
