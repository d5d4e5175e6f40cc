/* Inside the configuration core (core/nav_config*.c only): the schema flattened into rows, and the
 * value conversions. */
#ifndef NAV_CONFIG_IMPL_H
#define NAV_CONFIG_IMPL_H

#include <stddef.h>

#include "core/nav_config_schema.h"

/* The rows of a schema, in block order (row index = position here), and its numbered section. */
typedef struct nav_rows {
  const nav_config_schema *schema;
  const nav_key *row[NAV_CONFIG_MAX_KEYS];
  int n;
  const nav_config_section *item; /* the numbered section, or NULL */
  int item_row0, item_nrows;      /* its rows: item_row0 .. item_row0 + item_nrows - 1 */
} nav_rows;

/* Flatten schema into rows; aborts on a schema the core cannot hold (too many keys, a numbered section
 * whose rows are not together or too many, two numbered sections, a check or section missing). */
void nav_rows_build(nav_rows *r, const nav_config_schema *schema);

/* Shortest "%.Ng" text that reads back as exactly v. */
void nav_format_real(double v, char *buf, size_t n);
/* Parse `text` as the value of key k into cfg. Returns 0, or 1 with the reason in why (cfg unchanged). */
int nav_parse_value(const nav_key *k, const char *text, nav_config *cfg, char *why, size_t n);
/* Text of key k's value in cfg, as it would be written in a case file. */
void nav_format_value(const nav_key *k, const nav_config *cfg, char *buf, size_t n);

#endif
