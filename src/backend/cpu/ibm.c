/* CPU backend: the immersed-boundary forcings, diffuse and sharp (formulas in common/nav_point_ibm.h). */
#include <string.h>

#include "backend/common/nav_point_ibm.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_ibm_kernels.h"

static nav_err nav_ibm_force_cpu(const nav_box *b, nav_real *const *u, nav_real *const *tag, const nav_real *q,
                                 nav_real *const *v, const nav_ibm_params *a, double *sums) {
  double s[NAV_IBM_NSUM];
  memset(s, 0, sizeof s);
  for (int c = 0; c < b->dim; c++) {
    nav_real *uc = u[c];
    const nav_real *tc = tag[c], *vc = v ? v[c] : NULL;
    double *sc = s; /* OpenMP reduces arrays through a plain pointer section */
#pragma omp parallel for collapse(2) schedule(static) if (nav_cpu_threaded(b)) reduction(+ : sc[:NAV_IBM_NSUM])
    for (int k = 0; k < b->n[2]; k++)
      for (int j = 0; j < b->n[1]; j++) {
        int ijk[3] = {0, j, k};
        nav_idx p = nav_cpu_index(b, 0, j, k);
        for (int i = 0; i < b->n[0]; i++, p++) {
          if (tc[p] == 0) continue;
          ijk[0] = i;
          int owner;
          const nav_real du = nav_ibm_force(b, c, uc, tc, q, vc, a, p, ijk, &owner);
          uc[p] += du;
          if (sums) sc[3 * owner + c] += (double)du * (double)nav_volume(b, c, ijk);
        }
      }
  }
  if (sums) memcpy(sums, s, sizeof s);
  return NAV_OK;
}

static nav_err nav_ibm_sharp_cpu(nav_real *const *u, const nav_ibm_stencils *s, double *sums) {
  double sum[NAV_IBM_NSUM];
  memset(sum, 0, sizeof sum);
  const int threaded = s->n >= 4096;
  for (int c = 0; c < 3; c++) {
    const nav_idx m0 = s->start[c], m1 = s->start[c + 1];
    nav_real *uc = u[c];
#pragma omp parallel for schedule(static) if (threaded)
    for (nav_idx m = m0; m < m1; m++) s->next[m] = nav_ibm_sharp_value(s, uc, m); /* read all, then write */
    double *sc = sum; /* OpenMP reduces arrays through a plain pointer section */
#pragma omp parallel for schedule(static) if (threaded) reduction(+ : sc[:NAV_IBM_NSUM])
    for (nav_idx m = m0; m < m1; m++) {
      const nav_real du = s->next[m] - uc[s->target[m]];
      uc[s->target[m]] = s->next[m];
      if (sums) sc[3 * s->owner[m] + c] += (double)du * (double)s->volume[m];
    }
  }
  if (sums) memcpy(sums, sum, sizeof sum);
  return NAV_OK;
}

/* The ibm table of this backend (registered in backend/nav_backend.c). */
const nav_ibm_kernels nav_ibm_kernels_cpu = {
    .ibm_force = nav_ibm_force_cpu,
    .ibm_sharp = nav_ibm_sharp_cpu,
};
