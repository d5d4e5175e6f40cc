/* CPU backend: the immersed-boundary forcing (formula in common/nav_point_ibm.h). */
#include <string.h>

#include "backend/common/nav_point_ibm.h"
#include "backend/cpu/cpu_kernels.h"

nav_err nav_ibm_force_cpu(const nav_box *b, nav_real *const *u, nav_real *const *tag, const nav_real *q,
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
