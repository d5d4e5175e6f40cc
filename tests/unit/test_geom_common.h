/* Shared by the unit tests of the geometry module (test_geom.c, test_geom_stl.c): a CHECK macro that
 * counts checks and failures, a uniform random number, the scratch folder, a message buffer and a file
 * writer. Header-only; each test program includes it once. */
#ifndef TEST_GEOM_COMMON_H
#define TEST_GEOM_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "physics/bodies/nav_geom.h"

static int checks, failures;
#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    checks++;                                                                                                          \
    if (!(cond)) {                                                                                                     \
      failures++;                                                                                                      \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                      \
      printf(__VA_ARGS__);                                                                                             \
      printf("\n");                                                                                                    \
    }                                                                                                                  \
  } while (0)

static const char *scratch;    /* the folder of the test's files */
static char msg[NAV_GEOM_MSG]; /* messages of the module */

static double urand(double a, double b) { return a + (b - a) * (rand() / (RAND_MAX + 1.0)); }

/* Write len bytes of text to path (exit 1 when that fails). */
static void write_file(const char *path, const char *text, size_t len) {
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(text, 1, len, fp) != len) {
    printf("cannot write %s\n", path);
    exit(1);
  }
  fclose(fp);
}

#endif
