/* The check macro of the verification programs: prints "ok" or "FAIL" and the figures, counts the
 * failures in the program's `failures`. */
#ifndef NAV_TEST_H
#define NAV_TEST_H

#include <stdio.h>

static int failures = 0;
#define NAV_TEST(cond, ...)                                                                        \
  do {                                                                                             \
    int ok_ = (cond);                                                                              \
    printf("%s ", ok_ ? "ok  " : "FAIL");                                                          \
    printf(__VA_ARGS__);                                                                           \
    printf("\n");                                                                                  \
    if (!ok_) failures++;                                                                          \
  } while (0)

#endif
