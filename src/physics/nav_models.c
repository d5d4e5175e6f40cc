/* The registry of the physics models (see nav_model.h; the loops over them are in nav_model.c).
 * A new model is one module under src/physics/<model>/ and one line in nav_model_registry. */
#include "physics/nav_model.h"

#include <string.h>

#include "physics/bodies/nav_body.h"
#include "physics/drive/nav_drive.h"
#include "physics/heat/nav_heat.h"
#include "physics/statistics/nav_statistics.h"
#include "physics/turbulence/nav_les.h"
#include "physics/turbulence/nav_sst.h"

/* In the order the step calls them. */
const nav_model_ops *const nav_model_registry[] = {
    &nav_model_heat,
    &nav_model_drive,
    &nav_model_sst,
    &nav_model_les,
    &nav_model_bodies,
    &nav_model_statistics,
    NULL,
};

const nav_model_ops *nav_model_find(const char *name) {
  for (int i = 0; nav_model_registry[i]; i++)
    if (!strcmp(nav_model_registry[i]->name, name)) return nav_model_registry[i];
  return NULL;
}

void nav_models_select(const nav_config *cfg, nav_model_set *set) {
  memset(set, 0, sizeof *set);
  for (int i = 0; nav_model_registry[i] && set->n < NAV_MODELS_MAX; i++)
    if (!nav_model_registry[i]->active || nav_model_registry[i]->active(cfg))
      set->m[set->n++].ops = nav_model_registry[i];
}
