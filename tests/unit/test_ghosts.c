/* fill_ghosts (the faces of a block in one pass) against fill_ghost face by face in the order
 * x, y, z on the CPU backend: the same array, ghosts, edges and corners included, bit for bit.
 * 2D and 3D boxes, odd and even counts, every combination of mirror (random alpha, beta) and
 * periodic faces per direction, and of skipped directions (left to a halo exchange: the
 * reference fills only the others). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "grid/nav_geometry.h"
#include "test_rng.h"

NAV_TEST_RNG(0x9E3779B97F4A7C15ull)

int main(void) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  const int shapes[4][4] = {{2, 5, 4, 1}, {2, 1, 3, 1}, {3, 4, 3, 5}, {3, 6, 1, 2}};
  int checks = 0, failures = 0;
  for (int sh = 0; sh < 4; sh++) {
    const int dim = shapes[sh][0], n[3] = {shapes[sh][1], shapes[sh][2], shapes[sh][3]}, g0[3] = {0, 0, 0};
    nav_box b;
    nav_box_layout(dim, n, g0, &b);
    nav_real *ref = malloc((size_t)b.ntot * sizeof *ref), *x = malloc((size_t)b.ntot * sizeof *x);
    if (!ref || !x) return 1;
    for (int combo = 0; combo < 1 << (2 * dim); combo++) { /* bit d: direction d periodic; bit dim + d: skipped */
      nav_ghost_faces g;
      memset(&g, 0, sizeof g);
      for (int d = 0; d < dim; d++)
        g.skip[d] = combo >> (dim + d) & 1;
      for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {
          g.kind[d][s] = combo >> d & 1 ? NAV_GHOST_PERIODIC : NAV_GHOST_MIRROR;
          g.alpha[d][s] = (nav_real)rnd();
          g.beta[d][s] = (nav_real)rnd();
        }
      for (nav_idx p = 0; p < b.ntot; p++)
        ref[p] = x[p] = (nav_real)rnd();
      for (int d = 0; d < dim; d++)
        for (int s = 0; s < 2 && !g.skip[d]; s++)
          ops->fill_ghost(&b, ref, d, s, g.kind[d][s], g.alpha[d][s], g.beta[d][s]);
      ops->fill_ghosts(&b, x, &g);
      checks++;
      if (memcmp(ref, x, (size_t)b.ntot * sizeof *x)) {
        failures++;
        printf("FAIL: %dD %dx%dx%d, periodic/skipped mask %d: fill_ghosts differs from fill_ghost x, y, z\n", dim, n[0],
               n[1], n[2], combo);
      }
    }
    free(ref);
    free(x);
  }
  printf("test_ghosts: %d of %d checks failed (bit for bit)\n", failures, checks);
  return failures ? 1 : 0;
}
