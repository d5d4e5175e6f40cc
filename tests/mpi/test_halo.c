/* Halo exchange on 4 ranks: fields that encode their global indices, v = gi + 1000 gj + 1e6 gk
 * (+ 1e8 per field), are exchanged with nav_halo_exchange (three fields in one message per
 * neighbour, like u, v, w) and the remaining faces are filled as nav_boundary.c does (periodic
 * wrap with one rank in a direction, mirror at physical faces). Every ghost point, edges and
 * corners included, must then hold the value of the global point it stands for: periodic
 * directions wrap, physical faces mirror the boundary cell (clamp). Splits 2x2, 4x1, 1x4 in 2D
 * and 2x1x2, 1x2x2 in 3D, with periodic and non-periodic directions, uneven block sizes.
 * Run with 4 ranks. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "grid/nav_decomp.h"
#include "grid/nav_geometry.h"
#include "grid/nav_halo.h"

static int failures = 0, checks = 0;

static double code(int f, int gi, int gj, int gk) { return gi + 1000.0 * gj + 1e6 * gk + 1e8 * f; }

/* Global index a ghost stands for: wrap (periodic) or clamp (mirror of the boundary cell). */
static int image(int g, int N, int periodic) {
  if (g < 0) return periodic ? g + N : 0;
  if (g >= N) return periodic ? g - N : N - 1;
  return g;
}

static void run_case(int dim, const int N[3], const int p[3], const int periodic[3]) {
  const nav_kernel_ops *ops = &nav_kernel_ops_cpu;
  nav_decomp dc;
  if (nav_decomp_create_grid(MPI_COMM_WORLD, dim, N, periodic, p, "test_halo", &dc) != NAV_OK) {
    printf("FAIL decomposition %dx%dx%d\n", p[0], p[1], p[2]);
    failures++;
    return;
  }
  nav_box b;
  nav_box_layout(dim, dc.n, dc.g0, &b);
  nav_halo *h = NULL;
  nav_halo_create(ops, &dc, &b, &h);
  nav_real *x[3];
  for (int f = 0; f < 3; f++) {
    x[f] = malloc((size_t)b.ntot * sizeof(nav_real));
    for (nav_idx q = 0; q < b.ntot; q++) x[f][q] = -1;
    for (int k = 0; k < b.n[2]; k++)
      for (int j = 0; j < b.n[1]; j++)
        for (int i = 0; i < b.n[0]; i++)
          x[f][b.off + i * b.st[0] + j * b.st[1] + k * b.st[2]] = code(f, dc.g0[0] + i, dc.g0[1] + j, dc.g0[2] + k);
  }
  for (int d = 0; d < dim; d++) {
    nav_halo_exchange(h, &b, d, x, 3);
    for (int s = 0; s < 2; s++) {
      if (nav_halo_face(h, d, s)) continue;
      for (int f = 0; f < 3; f++)
        ops->fill_ghost(&b, x[f], d, s, periodic[d] ? NAV_GHOST_PERIODIC : NAV_GHOST_MIRROR, 1, 0);
    }
  }
  int bad = 0, first = 1;
  const int klo = dim == 3 ? -1 : 0, khi = dim == 3 ? b.n[2] : 0;
  for (int f = 0; f < 3; f++)
    for (int k = klo; k <= khi; k++)
      for (int j = -1; j <= b.n[1]; j++)
        for (int i = -1; i <= b.n[0]; i++) {
          const int g[3] = {dc.g0[0] + i, dc.g0[1] + j, dc.g0[2] + k};
          const double want = code(f, image(g[0], N[0], periodic[0]), image(g[1], N[1], periodic[1]),
                                   dim == 3 ? image(g[2], N[2], periodic[2]) : 0);
          const double got = x[f][b.off + i * b.st[0] + j * b.st[1] + k * b.st[2]];
          if (got != want) {
            if (first) printf("rank %d: field %d point (%d,%d,%d) local (%d,%d,%d): got %.0f, want %.0f\n", dc.rank, f,
                              g[0], g[1], g[2], i, j, k, got, want);
            first = 0;
            bad++;
          }
        }
  int all_bad = 0, points = (int)(3 * b.ntot), all_points = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&points, &all_points, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  checks++;
  if (all_bad) failures++;
  if (dc.rank == 0)
    printf("%s %dD %dx%dx%d cells on %dx%dx%d ranks, periodic %d%d%d: %d points checked (ghosts, edges, corners), "
           "%d wrong\n",
           all_bad ? "FAIL" : "ok  ", dim, N[0], N[1], N[2], p[0], p[1], p[2], periodic[0], periodic[1], periodic[2],
           all_points, all_bad);
  for (int f = 0; f < 3; f++) free(x[f]);
  nav_halo_destroy(h);
  nav_decomp_destroy(&dc);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != 4) {
    if (rank == 0) fprintf(stderr, "test_halo: run with 4 ranks (got %d)\n", size);
    MPI_Finalize();
    return 2;
  }
  const int n2[3] = {9, 8, 1}, n3[3] = {5, 6, 7};
  const int splits2[3][3] = {{2, 2, 1}, {4, 1, 1}, {1, 4, 1}};
  const int per2[3][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  for (int s = 0; s < 3; s++)
    for (int q = 0; q < 3; q++) run_case(2, n2, splits2[s], per2[q]);
  const int splits3[2][3] = {{2, 1, 2}, {1, 2, 2}};
  const int per3[3][3] = {{0, 0, 1}, {1, 0, 0}, {1, 1, 1}};
  for (int s = 0; s < 2; s++)
    for (int q = 0; q < 3; q++) run_case(3, n3, splits3[s], per3[q]);
  if (rank == 0) printf("test_halo: %d cases, %d failed\n", checks, failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
