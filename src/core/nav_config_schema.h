/* The case-file schema as the modules declare it: key rows, sections, cross-key checks and the rules
 * that document them, plus the helpers a check uses to report a conflict at the right key.
 *
 * Each module owns its keys and checks in its own file (grid/grid_keys.c, solvers/flow_keys.c,
 * solvers/poisson/pressure_keys.c, physics/heat/heat_keys.c, physics/turbulence/turbulence_keys.c,
 * physics/bodies/body_keys.c, physics/drive/drive_keys.c). The registry of sections,
 * solvers/nav_sections.c, sits above all of them: it lists their parts, in order, in one
 * nav_config_schema and defines nav_config_defaults, nav_config_load and nav_config_markdown with it
 * (thin calls of the *_schema functions below). The core parses, checks and prints whatever schema it
 * is given and names no module: no arrow runs from core/ up to the modules. */
#ifndef NAV_CONFIG_SCHEMA_H
#define NAV_CONFIG_SCHEMA_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/nav_config.h"
#include "core/nav_error.h"

typedef enum nav_key_type {
  NAV_KT_INT,    /* int */
  NAV_KT_LONG,   /* long */
  NAV_KT_REAL,   /* double, finite */
  NAV_KT_CHOICE, /* char[]: one of values[] */
  NAV_KT_NAME,   /* char[]: non-empty, [A-Za-z0-9_.-] */
  NAV_KT_TEXT,   /* char[]: any text, may be empty */
  NAV_KT_BC,     /* nav_bc_type: index into values[] */
  NAV_KT_VEC3,   /* double[3]: "u,v,w" */
  NAV_KT_DECOMP, /* int[3]: "px,py,pz" (each >= 1) or "auto" (stored 0,0,0) */
  NAV_KT_ENUM    /* an enum stored as int: index into values[] */
} nav_key_type;

/* One key: section, name, type, where it lives in nav_config (offsetof), default (as text, parsed by
 * the same code as user input), range and a documentation sentence (no machine timings: the help
 * points to docs/performance.md for those). */
typedef struct nav_key {
  const char *section, *name;
  nav_key_type type;
  size_t offset, size; /* of the field in nav_config */
  const char *def;     /* default, as it would be written in a case file */
  const char *doc;
  double lo, hi;             /* numbers: bounds (+-HUGE_VAL = none) */
  int lo_open, hi_open;      /* 1 = strict bound */
  const char *const *values; /* CHOICE, ENUM and BC: allowed values, NULL-terminated */
} nav_key;

#define NAV_FIELD(member) offsetof(nav_config, member), sizeof(((nav_config *)0)->member)
#define NAV_RANGE(a, ao, b, bo) .lo = (a), .lo_open = (ao), .hi = (b), .hi_open = (bo)
#define NAV_ANY NAV_RANGE(-HUGE_VAL, 0, HUGE_VAL, 0)
#define NAV_ATLEAST(a) NAV_RANGE(a, 0, HUGE_VAL, 0)
#define NAV_ABOVE(a) NAV_RANGE(a, 1, HUGE_VAL, 0)

/* A block of consecutive rows of the schema (a module's keys of one section, or of several). */
typedef struct nav_config_keys {
  const nav_key *rows;
  int n;
} nav_config_keys;
#define NAV_CONFIG_KEYS(array)                                                                                         \
  { (array), (int)(sizeof(array) / sizeof((array)[0])) }

/* A section: its name and the paragraph of the reference. A numbered section (count > 0) is given as
 * [name.1] .. [name.count]: its rows address instance 1, instance N lies (N - 1) * stride bytes further,
 * and the int at given_offset of nav_config says how many instances the case has (its check sets it).
 * The schema may hold one numbered section (nav_config.body_origin keeps its origins). */
typedef struct nav_config_section {
  const char *name, *doc;
  int count;
  size_t stride, given_offset;
  const char *plural;   /* numbered: "bodies", in "bodies are numbered 1 to 8" */
  const char *key_list; /* numbered: the unknown-key hint, "a body has kind, name, ..." */
} nav_config_section;

/* The load in progress, as the cross-key checks see it (opaque). */
typedef struct nav_config_check nav_config_check;

/* A cross-key check: runs after every value is read; reports conflicts with nav_conflict and may set
 * derived (non-key) fields of cfg. */
typedef void (*nav_config_check_fn)(nav_config_check *ck, nav_config *cfg);

/* The whole schema, assembled by the registry (solvers/nav_sections.c). The orders are the product's:
 * sections as the echo and docs/case-file.md show them; blocks as the rows of the table (the order of
 * nav_config_print_changed); checks as their errors are reported; rules and scaling paragraphs as the
 * reference prints them. */
typedef struct nav_config_schema {
  const nav_config_section *const *sections;
  int nsections;
  const nav_config_keys *const *blocks;
  int nblocks;
  const nav_config_check_fn *checks;
  int nchecks;
  const char *const *rules; /* "## Consistency rules" of the reference, one item each */
  int nrules;
  const char *const *scaling; /* "## Scaling" of the reference, one paragraph each */
  int nscaling;
} nav_config_schema;

/* The value names of nav_bc_type, in its order (index = enum value), and of a boolean choice. */
extern const char *const nav_bc_values[];
extern const char *const nav_bool_values[];

/* ---- the core's functions behind nav_config_defaults, nav_config_load, nav_config_markdown ---- */
void nav_config_defaults_schema(nav_config *cfg, const nav_config_schema *schema);
nav_err nav_config_load_schema(nav_config *cfg, const nav_config_schema *schema, const char *path, int nset,
                               char *const *sets, nav_config_errors *errs);
void nav_config_markdown_schema(FILE *out, const nav_config_schema *schema);

/* ---- for the checks ---- */

/* Row of key section.name (section of a numbered one: its bare name, "body"); aborts if there is none. */
int nav_key_id(const nav_config_check *ck, const char *section, const char *name);
/* The first row of section's keys (they are consecutive for a numbered section) and their count. */
int nav_section_rows(const nav_config_check *ck, const char *section, int *first);
/* 1 if the last value given to row k was rejected (its error is reported already). */
int nav_key_bad(const nav_config_check *ck, int k);
/* 1 if row k got its value from the case file or a --set, 0 if it has its default. */
int nav_key_given(const nav_config_check *ck, int k);
/* Whichever of rows a and b was given later (default < file line < --set), or -1 if a or b is -1 or
 * its value was rejected: its error is reported already and a conflict with it would be noise. */
int nav_later(const nav_config_check *ck, int a, int b);
/* Report "FILE:LINE: key 'section.key': reason" at where row k got its value; nothing if k < 0. */
void nav_conflict(nav_config_check *ck, int k, const char *fmt, ...) NAV_PRINTF(3, 4);
/* Instance n (1-based) of a numbered section: 1 if its row k was given, and a report at that key
 * ("FILE:LINE: key 'body.N.key': reason"; nothing if its value was rejected). */
int nav_item_given(const nav_config_check *ck, int n, int k);
void nav_item_error(nav_config_check *ck, int n, int k, const char *fmt, ...) NAV_PRINTF(4, 5);

#endif
