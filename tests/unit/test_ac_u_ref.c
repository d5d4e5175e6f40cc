/* The CPU backend's ac_u_ref (artificial compressibility, backend/nav_ac_kernels.h) against a plain loop: u_ref^2
 * from the largest |u_c| at the interior points of every component, bit for bit (a max is exact). 2D and 3D
 * boxes, odd and even counts; random velocities with the largest value planted in turn in each component's
 * interior (a skipped component shows) and in each component's ghosts (a ghost read shows); the state's speed
 * above the floor, below it, and a fixed u_ref (the rule of solvers/nav_ac.h, written out here: the test of
 * nav_ac_u_ref2 in common/nav_point_ac.h too). The CUDA kernel is checked against the host's value in gpu_kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/nav_ac_kernels.h"
#include "grid/nav_geometry.h"
#include "test_rng.h"

NAV_TEST_RNG(0xD1B54A32D192ED03ull)

/* The largest |u_c| over the interior points of b, c < b->dim. */
static double interior_max(const nav_box *b, nav_real *const *u) {
  double m = 0;
  for (int c = 0; c < b->dim; c++)
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++)
          m = fmax(m, fabs((double)u[c][b->off + i * b->st[0] + j * b->st[1] + k * b->st[2]]));
  return m;
}

int main(void) {
  const nav_ac_kernels *k = nav_ac_kernels_of(&nav_kernel_ops_cpu);
  const int shapes[3][4] = {{2, 7, 4, 1}, {2, 16, 16, 1}, {3, 5, 6, 3}};
  const double refs[3][2] = {{0, 0.5}, {0, 50}, {0.3, 50}}; /* ac_u_ref, floor: the state's speed, the floor, fixed */
  int checks = 0, failures = 0;
  for (int sh = 0; sh < 3; sh++) {
    const int dim = shapes[sh][0], n[3] = {shapes[sh][1], shapes[sh][2], shapes[sh][3]}, g0[3] = {0, 0, 0};
    nav_box b;
    nav_box_layout(dim, n, g0, &b);
    nav_real *u[3] = {NULL, NULL, NULL};
    for (int c = 0; c < dim; c++) {
      u[c] = malloc((size_t)b.ntot * sizeof *u[c]);
      if (!u[c]) return 1;
    }
    /* plant: 2 c = component c's interior, 2 c + 1 = its ghost (the low corner, outside every interior) */
    for (int plant = 0; plant < 2 * dim; plant++)
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < dim; c++)
          for (nav_idx p = 0; p < b.ntot; p++) u[c][p] = (nav_real)rnd();
        const int c = plant / 2;
        const nav_idx at = plant % 2 ? 0 : b.off + (n[0] / 2) * b.st[0] + (n[1] / 2) * b.st[1] + (n[2] / 2) * b.st[2];
        u[c][at] = (nav_real)(plant % 2 ? 9 : -7); /* |u| larger than elsewhere */
        nav_real got = -1;
        const double u_ref = refs[r][0] > 0 ? refs[r][0] : fmax(refs[r][1], interior_max(&b, u)); /* nav_ac.h */
        const nav_real want = (nav_real)(u_ref * u_ref);
        k->ac_u_ref(&b, u, refs[r][0], refs[r][1], &got);
        checks++;
        if (got != want) {
          failures++;
          printf("FAIL: %dD %dx%dx%d, largest |u| in component %d's %s, ac_u_ref %g floor %g: u_ref2 %.17g, want "
                 "%.17g\n", dim, n[0], n[1], n[2], c, plant % 2 ? "ghost" : "interior", refs[r][0], refs[r][1],
                 (double)got, (double)want);
        }
      }
    for (int c = 0; c < dim; c++) free(u[c]);
  }
  printf("test_ac_u_ref: %d of %d checks failed (bit for bit)\n", failures, checks);
  return failures ? 1 : 0;
}
