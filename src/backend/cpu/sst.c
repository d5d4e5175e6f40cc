/* CPU backend: the cell terms of the k-omega SST model. The formulas are in common/nav_point_sst.h. */
#include "backend/common/nav_point_sst.h"
#include "backend/cpu/cpu_kernels.h"
#include "backend/nav_sst_kernels.h"

static nav_err nav_sst_cells_cpu(const nav_box *box, nav_real *const *u, const nav_real *kc, const nav_real *w,
                                 const nav_real *wd, nav_real nu, nav_real *const *out) {
  const nav_real *const *uc = (const nav_real *const *)u; /* kc: k (the loop's own k is an index) */
  nav_real *nut = out[0], *f1 = out[1], *gk = out[2], *gw = out[3], *qk = out[4], *qw = out[5], *ck = out[6],
           *cw = out[7];
  NAV_CPU_LOOP(box, , {
    const nav_sst_point r = nav_sst_cell(b, uc, kc, w, wd, nu, p, ijk);
    if (nut) nut[p] = r.nut; /* NULL outputs are not written (nav_kernels.h) */
    if (f1) f1[p] = r.f1;
    if (gk) gk[p] = r.gk;
    if (gw) gw[p] = r.gw;
    if (qk) qk[p] = r.qk;
    if (qw) qw[p] = r.qw;
    if (ck) ck[p] = r.ck;
    if (cw) cw[p] = r.cw;
  });
  return NAV_OK;
}

/* The sst table of this backend (registered in backend/nav_backend.c). */
const nav_sst_kernels nav_sst_kernels_cpu = {
    .sst_cells = nav_sst_cells_cpu,
};
