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
    NAV_CPU_SUM_CELLS(b, , NAV_IBM_NSUM, sc, s, {
      if (tc[p] == 0) continue;
      int owner;
      const nav_real du = nav_ibm_force(b, c, uc, tc, q, vc, a, p, ijk, &owner);
      uc[p] += du;
      if (sums) sc[3 * owner + c] += (double)du * (double)nav_volume(b, c, ijk);
    });
  }
  if (sums) memcpy(sums, s, sizeof s);
  return NAV_OK;
}

static nav_err nav_ibm_sharp_cpu(nav_real *const *u, const nav_ibm_stencils *s, double *sums) {
  double sum[NAV_IBM_NSUM], part[NAV_IBM_NSUM * NAV_CPU_THREADS_MAX];
  memset(sum, 0, sizeof sum);
  const int threaded = s->n >= 4096;
  for (int c = 0; c < 3; c++) {
    const nav_idx m0 = s->start[c], m1 = s->start[c + 1];
    nav_real *uc = u[c];
#pragma omp parallel for schedule(static) if (threaded)
    for (nav_idx m = m0; m < m1; m++) s->next[m] = nav_ibm_sharp_value(s, uc, m); /* read all, then write */
    int nt = 1;
#pragma omp parallel if (threaded) num_threads(nav_cpu_sum_threads())
    {
      double sc[NAV_IBM_NSUM] = {0};
#pragma omp for schedule(static)
      for (nav_idx m = m0; m < m1; m++) {
        const nav_real du = s->next[m] - uc[s->target[m]];
        uc[s->target[m]] = s->next[m];
        if (sums) sc[3 * s->owner[m] + c] += (double)du * (double)s->volume[m];
      }
      nav_cpu_keep_partials(part, &nt, NAV_IBM_NSUM, sc);
    }
    nav_cpu_add_partials(part, nt, NAV_IBM_NSUM, sum);
  }
  if (sums) memcpy(sums, sum, sizeof sum);
  return NAV_OK;
}

/* The ibm table of this backend (registered in backend/nav_backend.c). */
const nav_ibm_kernels nav_ibm_kernels_cpu = {
    .ibm_force = nav_ibm_force_cpu,
    .ibm_sharp = nav_ibm_sharp_cpu,
};
