/* CPU backend: viscosity at the faces and the stress-form viscous term (common/nav_point_viscous.h). */
#include "backend/common/nav_point_viscous.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_viscous_kernels.h"

static nav_err nav_face_viscosity_cpu(const nav_box *box, int c, nav_real nu, const nav_real *nut, nav_real *kf) {
  NAV_CPU_LOOP(box, , { kf[p] = nav_face_viscosity(b, c, nu, nut, p, ijk); });
  return NAV_OK;
}

static nav_err nav_stress_cpu(const nav_box *box, nav_real *const *u, nav_real *const *kf, int part, nav_real scale,
                              nav_real *const *rhs) {
  const nav_real *const *uc = (const nav_real *const *)u;
  for (int c = 0; c < box->dim; c++) {
    nav_real *out = rhs[c];
    const nav_real *kc = kf ? kf[c] : NULL;
    NAV_CPU_LOOP(box, , { out[p] += scale * nav_stress(b, c, uc, kc, part, p, ijk); });
  }
  return NAV_OK;
}

/* The viscous table of this backend (registered in backend/nav_backend.c). */
const nav_viscous_kernels nav_viscous_kernels_cpu = {
    .face_viscosity = nav_face_viscosity_cpu,
    .stress = nav_stress_cpu,
};
