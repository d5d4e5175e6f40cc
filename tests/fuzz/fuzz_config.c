/* libFuzzer target: the case-file parser and its --set overrides (nav_config_load).
 *
 * Input: the bytes of a case file, then optionally a NUL byte followed by --set overrides
 * separated by NUL bytes (at most 16). The file goes through the same path as `navier run
 * FILE --set ...`: inih, the key table, the cross-key checks. Properties checked beyond the
 * sanitizers (abort on violation):
 *   - an accepted case round-trips: the effective configuration written by nav_config_print
 *     (DIR/config.ini of a run) loads again without error and prints the same text;
 *   - a rejected case reports at least one error line in the form the README promises.
 * Build and run: bench/fuzz.sh (a clang build with -DNAV_FUZZ=ON). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_config.h"

#define NAV_FUZZ_MAX_SETS 16

static char nav_fuzz_case[64], nav_fuzz_echo[64];

/* Scratch files in memory (/dev/shm) where there is one: each input is written to a file. */
static const char *nav_fuzz_tmp(void) { return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"; }
static void nav_fuzz_cleanup(void) {
  remove(nav_fuzz_case);
  remove(nav_fuzz_echo);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(nav_fuzz_case, sizeof nav_fuzz_case, "%s/nav_fuzz_case_%d.ini", nav_fuzz_tmp(), (int)getpid());
  snprintf(nav_fuzz_echo, sizeof nav_fuzz_echo, "%s/nav_fuzz_echo_%d.ini", nav_fuzz_tmp(), (int)getpid());
  atexit(nav_fuzz_cleanup);
  return 0;
}

static void nav_fuzz_write(const char *path, const uint8_t *data, size_t n) {
  FILE *fp = fopen(path, "wb");
  if (!fp) abort();
  if (n && fwrite(data, 1, n, fp) != n) abort();
  fclose(fp);
}

/* The effective configuration as text (malloc'd, NUL-terminated). */
static char *nav_fuzz_print(const nav_config *cfg) {
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);
  if (!fp) abort();
  nav_config_print(cfg, fp);
  fclose(fp);
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  const size_t file_n = nul ? (size_t)(nul - data) : size;
  nav_fuzz_write(nav_fuzz_case, data, file_n);
  /* the overrides: NUL-separated strings after the first NUL */
  char *rest = NULL, *sets[NAV_FUZZ_MAX_SETS];
  int nset = 0;
  if (nul) {
    const size_t m = size - file_n - 1;
    rest = malloc(m + 1);
    memcpy(rest, nul + 1, m);
    rest[m] = 0;
    for (char *s = rest; s <= rest + m && nset < NAV_FUZZ_MAX_SETS; s += strlen(s) + 1) sets[nset++] = s;
  }
  static nav_config cfg, again;
  static nav_config_errors errs;
  nav_err e = nav_config_load(&cfg, nav_fuzz_case, nset, sets, &errs);
  if (e != NAV_OK) {
    if (errs.count < 1 || strncmp(errs.text, nav_fuzz_case, strlen(nav_fuzz_case)) &&
                              strncmp(errs.text, "--set:", 6)) {
      fprintf(stderr, "fuzz_config: rejected input without a located error (count %d): %s\n", errs.count, errs.text);
      abort();
    }
  } else {
    char *first = nav_fuzz_print(&cfg);
    nav_fuzz_write(nav_fuzz_echo, (const uint8_t *)first, strlen(first));
    if (nav_config_load(&again, nav_fuzz_echo, 0, NULL, &errs) != NAV_OK) {
      fprintf(stderr, "fuzz_config: the printed configuration does not load again:\n%s\n--- printed:\n%s", errs.text,
              first);
      abort();
    }
    char *second = nav_fuzz_print(&again);
    if (strcmp(first, second)) {
      fprintf(stderr, "fuzz_config: the printed configuration changes when read back:\n%s\n--- then:\n%s", first,
              second);
      abort();
    }
    free(second);
    free(first);
  }
  free(rest);
  return 0;
}
