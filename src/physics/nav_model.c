/* Helpers of the model interface that the models call (see nav_model.h): below the registry
 * (nav_models.c), which calls the models. */
#include "physics/nav_model.h"

#include <math.h>
#include <stdio.h>

const char *nav_json_real(double v, const char *fmt, char buf[32]) {
  if (!isfinite(v)) return "null";
  snprintf(buf, 32, fmt, v);
  return buf;
}
