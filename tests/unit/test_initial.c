/* The initial field of a case, as nav_flow_create sets it, measured without stepping.
 *
 * usage: test_initial CASE [section.key=value ...] [--vs section.key=value] [--backends]
 * Prints one line "ek E div D eps S enstrophy Z umax U0 U1 U2 checksum C pmax P" on rank 0: the mean kinetic energy,
 * max |div_h u| over the cells, the dissipation and enstrophy monitors (solvers/nav_dissipation.h), max |u_c| per
 * component, max |p|, and an order-free checksum of the interior velocity and pressure: the sum mod 2^64 of
 * splitmix64(bits of the value ^ splitmix64(4 G + c)) over the points, G the global x-fastest index, c = 0..3
 * (u, v, w, p), the same whichever ranks hold which points, so equal checksums on 1 and 4 ranks mean equal
 * fields (tests/verification/initial_check.py). --vs KEY=VALUE (repeatable): also build the case with those
 * overrides in place of the same keys' and print "maxdiff R", max over the velocity components of max |u_c - u_c'| / max |u_c'|. --backends: build
 * the case on the CPU and the CUDA backend and print "backends E": the largest relative difference of the
 * two monitors (exit 77, skipped, with no CUDA device). Runs under mpiexec with any rank count. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "solvers/nav_dissipation.h"
#include "solvers/nav_flow.h"

#define OK(call)                                                                                                     \
  do {                                                                                                               \
    if ((call) != NAV_OK) {                                                                                          \
      nav_error_print(stderr, 1);                                                                                    \
      fprintf(stderr, "test_initial: %s failed (line %d)\n", #call, __LINE__);                                     \
      return 1;                                                                                                      \
    }                                                                                                                \
  } while (0)

static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

typedef struct measures {
  double ek, div, eps, ens, umax[3], pmax;
  uint64_t sum;
} measures;

/* The measures of f, and its interior velocity into host[c] (block layout) when host is not NULL. */
static int measure(nav_flow *f, measures *m, nav_real *host[3]) {
  const nav_box *b = &f->box;
  const size_t bytes = (size_t)b->ntot * sizeof(nav_real);
  nav_real *h = malloc(bytes);
  if (!h) return 1;
  OK(nav_flow_kinetic_energy(f, &m->ek));
  OK(nav_flow_dissipation(f, &m->eps, &m->ens));
  OK(f->ops->divergence(b, f->u, 1, f->div, &m->div, NULL));
  nav_reduce_max(f->comm, &m->div, 1);
  m->sum = 0;
  for (int c = 0; c < 4; c++) {
    if (c == f->dim && c < 3) continue;
    OK(f->ops->to_host(h, c < 3 ? f->u[c] : f->p, bytes));
    double mx = 0;
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++)
        for (int i = 0; i < b->n[0]; i++) {
          const nav_idx q = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
          const uint64_t g = (uint64_t)(b->g0[0] + i) +
                             (uint64_t)f->n[0] * ((uint64_t)(b->g0[1] + j) + (uint64_t)f->n[1] * (uint64_t)(b->g0[2] + k));
          double v = (double)h[q];
          uint64_t bits;
          memcpy(&bits, &v, 8);
          m->sum += mix(bits ^ mix(4 * g + (uint64_t)c));
          mx = fmax(mx, fabs(v));
        }
    if (c < 3) {
      m->umax[c] = mx;
      if (host) memcpy(host[c], h, bytes);
    } else {
      m->pmax = mx;
    }
  }
  free(h);
  nav_reduce_max(f->comm, m->umax, 3);
  nav_reduce_max(f->comm, &m->pmax, 1);
  if (f->comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, &m->sum, 1, MPI_UINT64_T, MPI_SUM, f->comm);
  return 0;
}

static int load(nav_config *cfg, const char *path, int n, char **sets) {
  nav_config_errors errs;
  memset(&errs, 0, sizeof errs);
  if (nav_config_load(cfg, path, n, sets, &errs) != NAV_OK) {
    fprintf(stderr, "%s", errs.text);
    return 2;
  }
  return 0;
}

static int run(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_initial CASE [section.key=value ...] [--vs section.key=value] [--backends]\n");
    return 2;
  }
  char *sets[64], *vs[8];
  int nsets = 0, nvs = 0, backends = 0;
  for (int a = 2; a < argc && nsets < 56; a++) {
    if (!strcmp(argv[a], "--vs") && a + 1 < argc && nvs < 8) vs[nvs++] = argv[++a];
    else if (!strcmp(argv[a], "--backends")) backends = 1;
    else sets[nsets++] = argv[a];
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nav_config cfg;
  int rc = load(&cfg, argv[1], nsets, sets);
  if (rc) return rc;
  nav_flow f;
  measures m;
  OK(nav_flow_create(&cfg, nav_backend_get("cpu", 0), &f));
  const size_t bytes = (size_t)f.box.ntot * sizeof(nav_real);
  nav_real *host[3] = {malloc(bytes), malloc(bytes), malloc(bytes)};
  if (!host[0] || !host[1] || !host[2] || measure(&f, &m, host)) return 1;
  if (rank == 0)
    printf("ek %.17g div %.3e eps %.17g enstrophy %.17g umax %.17g %.17g %.17g checksum %016llx pmax %.17g\n", m.ek,
           m.div, m.eps, m.ens, m.umax[0], m.umax[1], m.umax[2], (unsigned long long)m.sum, m.pmax);
  int fail = 0;
  if (nvs) { /* the same case with more overrides */
    char *sets2[64]; /* the overrides with those of --vs replaced (a key given twice is an input error) */
    int n2 = 0;
    for (int a = 0; a < nsets; a++) {
      int replaced = 0;
      for (int v = 0; v < nvs; v++) {
        const size_t len = strcspn(vs[v], "=");
        replaced |= !strncmp(sets[a], vs[v], len + 1);
      }
      if (!replaced) sets2[n2++] = sets[a];
    }
    for (int v = 0; v < nvs; v++) sets2[n2++] = vs[v];
    nav_config cfg2;
    rc = load(&cfg2, argv[1], n2, sets2);
    if (rc) return rc;
    nav_flow g;
    measures m2;
    nav_real *h2[3] = {malloc(bytes), malloc(bytes), malloc(bytes)};
    OK(nav_flow_create(&cfg2, nav_backend_get("cpu", 0), &g));
    if (!h2[0] || !h2[1] || !h2[2] || measure(&g, &m2, h2)) return 1;
    double rel = 0;
    const nav_box *b = &f.box;
    for (int c = 0; c < f.dim; c++) {
      double d = 0;
      for (int k = 0; k < b->n[2]; k++)
        for (int j = 0; j < b->n[1]; j++)
          for (int i = 0; i < b->n[0]; i++) {
            const nav_idx q = b->off + i * b->st[0] + j * b->st[1] + k * b->st[2];
            d = fmax(d, fabs((double)host[c][q] - (double)h2[c][q]));
          }
      nav_reduce_max(f.comm, &d, 1);
      if (m2.umax[c] > 0) rel = fmax(rel, d / m2.umax[c]);
    }
    if (rank == 0) printf("maxdiff %.6e\n", rel);
    for (int c = 0; c < 3; c++) free(h2[c]);
    nav_flow_destroy(&g);
  }
  if (backends) {
    if (nav_backend_device_count("cuda") == 0) {
      if (rank == 0) printf("test_initial: no CUDA device visible (or CUDA not built): skipped\n");
      fail = 77;
    } else {
      nav_flow g;
      double eps, ens;
      OK(nav_flow_create(&cfg, nav_backend_get("cuda", 0), &g));
      OK(nav_flow_dissipation(&g, &eps, &ens));
      const double r = fmax(fabs(eps - m.eps) / m.eps, fabs(ens - m.ens) / m.ens);
      if (rank == 0) printf("backends %.3e (cuda eps %.17g enstrophy %.17g)\n", r, eps, ens);
      fail = !(r <= 1e-12);
      nav_flow_destroy(&g);
    }
  }
  for (int c = 0; c < 3; c++) free(host[c]);
  nav_flow_destroy(&f);
  return fail;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int status = run(argc, argv);
  MPI_Finalize();
  return status;
}
