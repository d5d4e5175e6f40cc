/* CPU backend of the FFT Poisson solver: FFTW's real-to-real transforms (guru interface, one plan
 * per direction and layout, every line of the dense array at once, threaded like the OpenMP loops),
 * the spectral division and the tridiagonal line solves (nav_point_fft.h), and the strided box copy
 * of the transposes. Without FFTW (NAV_HAVE_FFTW undefined) only the copies and solves are built
 * and fft_plan is NULL: the solver reports that the build has no FFT. */
#include <string.h>

#include "backend/common/nav_point_fft.h"
#include "core/nav_error.h"
#include "backend/cpu/cpu_kernels.h"

#ifdef NAV_HAVE_FFTW
#include <fftw3.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef NAV_SINGLE_PRECISION
#define NAV_FFTW(name) fftwf_##name
#else
#define NAV_FFTW(name) fftw_##name
#endif

/* FFTW_ESTIMATE: planning by FFTW_MEASURE took 33 s at 128^3 (2 loaded cores) for a solve that
 * is at most a few tens of per cent faster; the flow creates its solver once per run, tests many. */
#define NAV_FFTW_FLAGS FFTW_ESTIMATE

static const NAV_FFTW(r2r_kind) nav_fftw_kinds[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01,
                                                    FFTW_REDFT11, FFTW_RODFT11, FFTW_R2HC,    FFTW_HC2R};

nav_err nav_fft_plan_cpu(const int m[3], int dir, nav_fft_kind kind, nav_real *data, void **plan) {
  static int threads_ready = 0;
  if (!threads_ready) { /* FFTW's threads follow OpenMP's (fftw3_omp) */
#ifdef _OPENMP
    NAV_FFTW(init_threads)();
#endif
    threads_ready = 1;
  }
#ifdef _OPENMP
  const long cells = (long)m[0] * m[1] * m[2];
  NAV_FFTW(plan_with_nthreads)(cells >= 8192 ? omp_get_max_threads() : 1);
#endif
  const nav_idx st[3] = {1, m[0], (nav_idx)m[0] * m[1]};
  NAV_FFTW(iodim64) len = {m[dir], st[dir], st[dir]}, batch[2];
  int nb = 0;
  for (int d = 0; d < 3; d++)
    if (d != dir && m[d] > 1) batch[nb++] = (NAV_FFTW(iodim64)){m[d], st[d], st[d]};
  NAV_FFTW(r2r_kind) k = nav_fftw_kinds[kind];
  *plan = NAV_FFTW(plan_guru64_r2r)(1, &len, nb, batch, data, data, &k, NAV_FFTW_FLAGS);
  NAV_CHECK(*plan, NAV_ERR_INTERNAL, "FFTW cannot plan a transform of %d x %d x %d along %d", m[0], m[1], m[2], dir);
  return NAV_OK;
}

nav_err nav_fft_execute_cpu(void *plan, nav_real *data) {
  NAV_FFTW(execute_r2r)((NAV_FFTW(plan))plan, data, data);
  return NAV_OK;
}

void nav_fft_plan_free_cpu(void *plan) {
  if (plan) NAV_FFTW(destroy_plan)((NAV_FFTW(plan))plan);
}
#endif

nav_err nav_copy_box_cpu(const int cnt[3], const nav_real *src, nav_idx soff, const nav_idx sst[3], nav_real *dst,
                         nav_idx doff, const nav_idx dst_st[3]) {
  const long cells = (long)cnt[0] * cnt[1] * cnt[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < cnt[2]; k++)
    for (int j = 0; j < cnt[1]; j++) {
      const nav_real *s = src + soff + j * sst[1] + k * sst[2];
      nav_real *t = dst + doff + j * dst_st[1] + k * dst_st[2];
      if (sst[0] == 1 && dst_st[0] == 1)
        memcpy(t, s, (size_t)cnt[0] * sizeof(nav_real));
      else
        for (int i = 0; i < cnt[0]; i++) t[i * dst_st[0]] = s[i * sst[0]];
    }
  return NAV_OK;
}

nav_err nav_fft_divide_cpu(const int m[3], const nav_real *const lam[3], nav_real *data) {
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int k = 0; k < m[2]; k++)
    for (int j = 0; j < m[1]; j++) {
      const nav_real s = lam[1][j] + (lam[2] ? lam[2][k] : 0);
      nav_real *row = data + (nav_idx)m[0] * (j + (nav_idx)m[1] * k);
      for (int i = 0; i < m[0]; i++) row[i] = nav_fft_divide(row[i], lam[0][i] + s);
    }
  return NAV_OK;
}

nav_err nav_fft_tridiag_cpu(const int m[3], int dir, const nav_real *const lam[3], const nav_real *a,
                            const nav_real *b, const nav_real *c, int singular, nav_real *data, nav_real *work) {
  const nav_idx st[3] = {1, m[0], (nav_idx)m[0] * m[1]};
  const int e = dir == 0 ? 1 : 0, f = dir == 2 ? 1 : 2; /* the other two directions */
  const long cells = (long)m[0] * m[1] * m[2];
#pragma omp parallel for collapse(2) schedule(static) if (cells >= 8192)
  for (int jf = 0; jf < m[f]; jf++)
    for (int je = 0; je < m[e]; je++) {
      const nav_real s = lam[e][je] + (lam[f] ? lam[f][jf] : 0);
      nav_fft_thomas(m[dir], je * st[e] + jf * st[f], st[dir], data, work, a, b, c, s, singular);
    }
  return NAV_OK;
}
