/* Initial conditions of the flow solver ([physics] initial, noise, seed, channel_profile, initial_file).
 *
 * Analytic fields (nav_flow_exact_velocity) are sampled at the staggered points. Besides them:
 *   - taylor_green_3d: u = A sin x cos y cos z, v = -A cos x sin y cos z, w = 0, with the pressure of the
 *     inviscid start p = A^2/16 (cos 2x + cos 2y)(cos 2z + 2) at the cell centres, x = 2 pi (x - x0)/lx
 *     (a cubic periodic box; the config check asks for one). On a uniform grid with nx = ny its discrete
 *     divergence vanishes to round-off (each difference of a sampled sine is the same factor sinc(h/2)).
 *   - channel: the mean profile U(s) along forcing_direction c, s in [0, 1] across the walls of direction
 *     e (laminar 6 U_b s (1 - s), or Reichardt's law U+ = ln(1 + k y+)/k + 7.8 (1 - exp(-y+/11) - y+/11
 *     exp(-y+/3)) with u_tau from Re_tau = 0.09 Re_b^0.88 (Pope 2000, eq. 7.50 fit), Re_b = U_b h / nu, scaled
 *     so that its mean over the grid cells is U_b), plus the large-scale perturbation below;
 *   - file: nav_initial_file.c.
 * The perturbation (noise > 0): u' = s curl_h A, the discrete curl on the staggered grid of a vector
 * potential A_c on the edges along c (cell index along c, face indices along the other two), so that the
 * discrete divergence of u' cancels to round-off. A_c = 0 on the edges that lie on a non-periodic face
 * (no normal velocity there); periodic indices wrap before anything is evaluated. A_c at an edge depends
 * only on (seed, c, global index), never on the rank layout: grid-scale noise is a counter-based hash
 * (splitmix64) of them times the local cell width; the channel's is a sum of 16 Fourier modes per
 * component (wavenumbers 1..4 periods along each periodic direction, amplitudes and phases hashed from
 * (seed, c, mode)) times the wall envelope (4 s (1 - s))^2. The scale s makes max |u'_c| over the grid
 * (an exact, order-free reduction) equal to noise: the same bits on every rank count. */
#ifndef NAV_INITIAL_H
#define NAV_INITIAL_H

#include "solvers/nav_flow.h"

/* Set f->u (and f->p where the initial condition has a pressure) to the initial condition of f->cfg and
 * fill the ghosts. NAV_ERR_INPUT with "FILE:LINE: key 'physics.initial_file': why" for a bad initial
 * file. Collective. */
nav_err nav_initial_set(nav_flow *f);

/* Position of the point ijk (global indices) of component c (c < 0: the cell centre). Not collective. */
void nav_initial_position(const nav_flow *f, int c, const int ijk[3], double x[3]);

/* initial = file (nav_initial_file.c): read u (and p) of cfg->initial_file into the host arrays of this
 * rank's block (b->ntot points each, interior points set), interpolating when the grids differ. *has_p
 * = 1 when p was set. Collective. */
nav_err nav_initial_file(nav_flow *f, nav_real *host[4], int *has_p);

#endif
