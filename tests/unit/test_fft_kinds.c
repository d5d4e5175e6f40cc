/* The real-to-real transforms through a complex FFT (nav_point_fft.h, used by the CUDA backend with
 * cuFFT) against their definitions (FFTW's REDFT10/01/11, RODFT10/01/11, R2HC/HC2R, summed directly),
 * for N = 1..12, 16, 17, on strided lines. The complex FFT is a direct DFT here, with cuFFT's
 * conventions: real-to-complex returns the half spectrum k <= N/2, complex-to-real reads it.
 * Also: each forward kind followed by its inverse gives the input times 2N (N for the DFT); and the 32-bit division
 * by an invariant divisor of the cuFFT callbacks (nav_fft_div, backend/cuda/fft_callbacks.h) against the division,
 * for every divisor 1..4096 and n at 0, near multiples of the divisor, near 2^32 and at random. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/common/nav_point_fft.h"
#include "backend/cuda/fft_callbacks.h"

static int failures = 0;
static const double PI = 3.14159265358979323846;

/* The definitions (FFTW manual, "What FFTW Really Computes"). */
static double reference(nav_fft_kind kind, int N, const double *x, int k) {
  double y = 0;
  switch (kind) {
  case NAV_FFT_DCT2:
    for (int n = 0; n < N; n++) y += 2 * x[n] * cos(PI * (2 * n + 1) * k / (2.0 * N));
    return y;
  case NAV_FFT_DCT3:
    y = x[0];
    for (int n = 1; n < N; n++) y += 2 * x[n] * cos(PI * n * (2 * k + 1) / (2.0 * N));
    return y;
  case NAV_FFT_DST2:
    for (int n = 0; n < N; n++) y += 2 * x[n] * sin(PI * (2 * n + 1) * (k + 1) / (2.0 * N));
    return y;
  case NAV_FFT_DST3:
    y = (k % 2 ? -1 : 1) * x[N - 1];
    for (int n = 0; n < N - 1; n++) y += 2 * x[n] * sin(PI * (n + 1) * (2 * k + 1) / (2.0 * N));
    return y;
  case NAV_FFT_DCT4:
    for (int n = 0; n < N; n++) y += 2 * x[n] * cos(PI * (2 * n + 1) * (2 * k + 1) / (4.0 * N));
    return y;
  case NAV_FFT_DST4:
    for (int n = 0; n < N; n++) y += 2 * x[n] * sin(PI * (2 * n + 1) * (2 * k + 1) / (4.0 * N));
    return y;
  case NAV_FFT_R2HC: {
    const int q = k <= N / 2 ? k : N - k;
    for (int n = 0; n < N; n++) y += x[n] * (k <= N / 2 ? cos(2 * PI * n * q / N) : -sin(2 * PI * n * q / N));
    return y;
  }
  case NAV_FFT_HC2R:
    y = x[0];
    for (int q = 1; q < N; q++) {
      const double re = q <= N / 2 ? x[q] : x[N - q], im = q < N - q ? x[N - q] : q > N - q ? -x[q] : 0;
      y += re * cos(2 * PI * q * k / N) - im * sin(2 * PI * q * k / N);
    }
    return y;
  }
  return 0;
}

/* Direct DFT of the complex z (M values, interleaved), sign -1 or +1, into Z. */
static void dft(int M, const nav_real *z, int sign, nav_real *Z) {
  for (int k = 0; k < M; k++) {
    double re = 0, im = 0;
    for (int n = 0; n < M; n++) {
      const double t = sign * 2 * PI * (double)n * k / M;
      re += z[2 * n] * cos(t) - z[2 * n + 1] * sin(t);
      im += z[2 * n] * sin(t) + z[2 * n + 1] * cos(t);
    }
    Z[2 * k] = (nav_real)re;
    Z[2 * k + 1] = (nav_real)im;
  }
}

/* The transform of the strided line x (stride 3) through the pre/FFT/post passes. */
static void through_fft(nav_fft_kind kind, int N, const nav_real *x, nav_real *y) {
  const int M = nav_fft_length(kind, N), cls = nav_fft_class(kind);
  nav_real *z = calloc(2 * (size_t)M, sizeof *z), *Z = calloc(2 * (size_t)M, sizeof *Z);
  const nav_idx st = 3;
  if (cls == 0) {
    for (int n = 0; n < N; n++) z[2 * n] = nav_fft_pre_r2c(kind, N, x, st, n);
    dft(M, z, -1, Z); /* only Z_k, k <= N/2, is read by the post pass */
    for (int k = 0; k < N; k++) y[k * st] = nav_fft_post_r2c(kind, N, Z, 1, k);
  } else if (cls == 1) {
    for (int k = 0; k <= N / 2; k++) nav_fft_pre_c2r(kind, N, x, st, k, &z[2 * k], &z[2 * k + 1]);
    for (int k = N / 2 + 1; k < N; k++) { /* the Hermitian half that complex-to-real implies */
      z[2 * k] = z[2 * (N - k)];
      z[2 * k + 1] = -z[2 * (N - k) + 1];
    }
    dft(M, z, +1, Z);
    nav_real *v = malloc((size_t)N * sizeof *v);
    for (int n = 0; n < N; n++) v[n] = Z[2 * n];
    for (int k = 0; k < N; k++) y[k * st] = nav_fft_post_c2r(kind, N, v, 1, k);
    free(v);
  } else {
    for (int n = 0; n < M; n++) nav_fft_pre_c2c(N, x, st, n, &z[2 * n], &z[2 * n + 1]);
    dft(M, z, -1, Z);
    for (int k = 0; k < N; k++) y[k * st] = nav_fft_post_c2c(kind, N, Z, 1, k);
  }
  free(z);
  free(Z);
}

/* nav_fft_div against n / d: the number of wrong quotients */
static long divmod_errors(void) {
  long bad = 0;
  unsigned long long seed = 88172645463325252ull;
  for (unsigned d = 1; d <= 4096; d++) {
    const nav_fft_divmod m = nav_fft_divmod_make(d);
    unsigned ns[64];
    int c = 0;
    ns[c++] = 0;
    ns[c++] = 0xffffffffu;
    ns[c++] = 0xffffffffu - d;
    for (unsigned q = 1; q < 12; q++) { /* around the multiples q d and q^3 d */
      ns[c++] = q * d - 1, ns[c++] = q * d, ns[c++] = q * d + 1;
      const unsigned long long big = (unsigned long long)q * q * q * d * 2000u;
      if (big < 0xffffffffull) ns[c++] = (unsigned)big;
    }
    while (c < 64) { /* xorshift64 */
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      ns[c++] = (unsigned)(seed >> 32);
    }
    for (int i = 0; i < c; i++)
      bad += nav_fft_div(m, ns[i]) != ns[i] / d;
  }
  return bad;
}

int main(void) {
  const long bad = divmod_errors();
  printf("%s division by invariant divisors 1..4096 (nav_fft_div): %ld wrong quotients\n", bad ? "FAIL" : "ok  ", bad);
  failures += bad != 0;
  static const char *const names[] = {"DCT2", "DCT3", "DST2", "DST3", "DCT4", "DST4", "R2HC", "HC2R"};
  static const int inverse[] = {NAV_FFT_DCT3, NAV_FFT_DCT2, NAV_FFT_DST3, NAV_FFT_DST2,
                                NAV_FFT_DCT4, NAV_FFT_DST4, NAV_FFT_HC2R, NAV_FFT_R2HC};
  const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17};
  const double tol = sizeof(nav_real) == sizeof(double) ? 1e-12 : 1e-4;
  srand(5);
  for (int kind = 0; kind < 8; kind++) {
    double worst = 0, worst_round = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      const int N = sizes[s];
      nav_real *x = calloc(3 * (size_t)N, sizeof *x), *y = calloc(3 * (size_t)N, sizeof *y),
               *w = calloc(3 * (size_t)N, sizeof *w);
      double *xd = malloc((size_t)N * sizeof *xd), scale = 0;
      for (int n = 0; n < N; n++) {
        x[3 * n] = (nav_real)(rand() / (double)RAND_MAX - 0.5);
        xd[n] = x[3 * n];
        scale = fmax(scale, fabs(xd[n]));
      }
      through_fft((nav_fft_kind)kind, N, x, y);
      for (int k = 0; k < N; k++) worst = fmax(worst, fabs(y[3 * k] - reference((nav_fft_kind)kind, N, xd, k)) / (N * scale));
      through_fft((nav_fft_kind)inverse[kind], N, y, w); /* round trip: x times 2N (N) */
      const double norm = kind >= NAV_FFT_R2HC ? N : 2.0 * N;
      for (int n = 0; n < N; n++) worst_round = fmax(worst_round, fabs(w[3 * n] / norm - xd[n]) / scale);
      free(x);
      free(y);
      free(w);
      free(xd);
    }
    const int ok = worst <= tol && worst_round <= tol;
    printf("%s %s through a complex FFT: max error %.2e, round trip %.2e (<= %.0e)\n", ok ? "ok  " : "FAIL",
           names[kind], worst, worst_round, tol);
    failures += !ok;
  }
  return failures ? 1 : 0;
}
