/* The kernels used only by the multigrid solver (solvers/poisson/mg*.c, frame.c's float cycles): the
 * fused and line relaxations, the fused residual and restriction, the mixed-precision iterate.
 * A table of its own beside the core table (nav_kernels.h), whose Poisson entries (laplacian, residual,
 * relax_colour, restrict_residual, prolong_add, ...) the other solvers share: implemented by
 * backend/cpu/poisson.c and backend/cuda/poisson.cu, registered in backend/nav_backend.c, found with
 * nav_mg_kernels_of. Conventions as in nav_kernels.h (backend memory, nav_box by host pointer, x with
 * filled ghosts, local results). */
#ifndef NAV_MG_KERNELS_H
#define NAV_MG_KERNELS_H

#include "backend/nav_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_mg_kernels {
  /* the first half sweep from x = 0 without reading x: the cells of the colour get nav_relax_from_zero, the
   * others 0, the ghosts are left as they are (set(x, 0) then relax_colour in one pass over the cells) */
  nav_err (*relax_first)(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int colour,
                         nav_real omega);
  /* a whole red-black sweep, colour `first` then the other, from x into out (apart from x: a kernel reads x once and
   * writes out; the caller alternates the two), or with x = NULL from x = 0 (the first colour by
   * nav_relax_from_zero); out's interior is written whole, its ghosts are not (fill them after). The values of
   * relax_colour (or relax_first), the ghost fill, relax_colour, for a 3D block with nav_box.uniform and the plain
   * Poisson operator (no kc, sc, shift) whose ghosts hold the mirror rules of nav_fill_scalar_ghosts (no halo, no
   * periodic face: mg.c, nav_mg_wavefront). NULL on a backend without it (CPU). */
  nav_err (*relax_sweep)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *out, int first,
                         nav_real omega);
  /* a whole red-black sweep in place, colour `first` then the other, in one pass over the block (the CPU's wavefront:
   * the second colour one row (2D) or plane (3D) behind the first): the values of relax_colour, the ghost fill,
   * relax_colour, on any box (metrics, Helmholtz terms) whose ghosts hold the mirror rules of nav_fill_scalar_ghosts
   * on every face (no halo, no periodic face, not a staggered level 0's pinned faces: mg.c, nav_mg_pair), so that
   * the second colour reads only ghosts of its own cells; x's ghosts are not written (fill them after). NULL on a
   * backend without it (CUDA: relax_sweep). */
  nav_err (*relax_pair)(const nav_box *b, nav_real *x, const nav_real *rhs, const nav_real *inv_diag, int first,
                        nav_real omega);
  /* zebra line relaxation along direction dir of the lines of one colour (the parity of the global
   * indices in the other directions), in place (nav_relax_line); kind[2]: the low and high end of the
   * block's lines (+1 Neumann, -1 Dirichlet, 0 ghost kept); cp, dd: scratch arrays
   * (their contents afterwards unspecified: the CUDA backend works in shared memory, and in cp for long lines) */
  nav_err (*relax_line)(const nav_box *b, nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *dd, int dir,
                        int colour, const int kind[2], nav_real omega);
  /* nav_line_solve (mode 0, 1, 2) along direction dir on the lines of one colour (every line if
   * colour < 0) into out; ends (backend memory, may be NULL): the first and last value of line
   * l = ka + n[oa] kb (oa, ob: nav_line_others) at ends[2 l], ends[2 l + 1] */
  nav_err (*line_solve)(const nav_box *b, const nav_real *x, const nav_real *rhs, nav_real *cp, nav_real *out, int dir,
                        int colour, const int kind[2], int mode, nav_real *ends);
  /* nav_line_update on the lines of one colour, alpha = coef[2 l], beta = coef[2 l + 1] */
  nav_err (*line_update)(const nav_box *b, nav_real *x, const nav_real *dd, const nav_real *v, const nav_real *w,
                         const nav_real *coef, int dir, int colour, nav_real omega);
  /* coarse rhs = restrict_residual of the fine residual b - L x, that residual not stored (bit for bit
   * residual then restrict_residual); NULL on a backend without it (then the two calls) */
  nav_err (*residual_restrict)(const nav_box *fine, const nav_real *x, const nav_real *b, const nav_box *coarse,
                               nav_real *rhs);
  /* The mixed-precision multigrid (solvers/poisson/mg.c; NULL on a backend without it, the CPU): the
   * outer residual r = rhs - L x of the nav_real iterate x, computed in nav_real and stored in float (the
   * next float cycle's right-hand side), *rr = sum r^2 dV of the unrounded r if rr != NULL; and the
   * update x += e of the iterate by the float correction e, at every point, ghosts included (the
   * homogeneous ghost rules are linear: x keeps valid ghosts when e's are filled). The Poisson
   * entries of the core table serve the float levels through nav_box.lo. */
  nav_err (*residual_lo)(const nav_box *b, const nav_real *x, const nav_real *rhs, float *r, double *rr);
  nav_err (*add_lo)(const nav_box *b, nav_real *x, const float *e);
} nav_mg_kernels;

NAV_KERNEL_TABLE(nav_mg_kernels, "mg")

#ifdef __cplusplus
}
#endif

#endif
