/* Case-file configuration: loading (INI through inih, then --set overrides), the generic checks of every
 * value (type, range, choice, unknown section or key, given twice), the cross-key checks of the schema,
 * where each value came from, and the echo of the effective configuration.
 *
 * The core knows no key: the schema (core/nav_config_schema.h) is handed in by the registry of sections
 * above it (solvers/nav_sections.c), which defines nav_config_defaults, nav_config_load and
 * nav_config_markdown as calls of the *_schema functions here; nav_config_defaults_schema stores the
 * schema in cfg->schema, so that the functions that take a filled configuration (print, value, where)
 * need no registry. Loading a case is
 *
 *   defaults (rows) -> case file (inih, line by line) -> --set overrides -> the schema's checks, in order
 *
 * and every stage appends its errors to one nav_config_errors, as "FILE:LINE: key 'section.key':
 * reason". For each key we remember where its value came from (default, file line, --set index) so
 * that a cross-key conflict is reported at the key that completed it (the one given later).
 *
 * inih: the Debian build has INI_HANDLER_LINENO = 0, so line numbers come from our own reader
 * (nav_read_line), which counts lines; inih calls the handler right after reading the line of the
 * key, so the reader's count is the key's line. The reader also strips leading whitespace, which
 * turns off inih's multi-line values (an indented line would otherwise continue the previous value)
 * in a way that does not depend on how the library was built. */
#include "core/nav_config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_config_impl.h"
#include "core/nav_error.h"

/* ---------------------------------------------------------------------------------------------- */
/* The schema as rows                                                                             */

static int nav_find_key(const nav_rows *r, const char *section, const char *name) {
  for (int k = 0; k < r->n; k++)
    if (!strcmp(r->row[k]->section, section) && !strcmp(r->row[k]->name, name)) return k;
  return -1;
}

static const nav_config_section *nav_find_section(const nav_rows *r, const char *name) {
  for (int s = 0; s < r->schema->nsections; s++)
    if (!strcmp(r->schema->sections[s]->name, name)) return r->schema->sections[s];
  return NULL;
}

void nav_rows_build(nav_rows *r, const nav_config_schema *schema) {
  if (!schema) NAV_ABORT("nav_config: no schema: fill the configuration with nav_config_defaults or nav_config_load");
  r->schema = schema;
  r->n = 0;
  r->item = NULL;
  r->item_row0 = -1;
  r->item_nrows = 0;
  for (int b = 0; b < schema->nblocks; b++)
    for (int i = 0; i < schema->blocks[b]->n; i++) {
      if (r->n == NAV_CONFIG_MAX_KEYS)
        NAV_ABORT("nav_config: more keys in the schema than NAV_CONFIG_MAX_KEYS = %d", NAV_CONFIG_MAX_KEYS);
      r->row[r->n++] = &schema->blocks[b]->rows[i];
    }
  for (int s = 0; s < schema->nsections; s++) {
    if (!schema->sections[s]->count) continue;
    if (r->item)
      NAV_ABORT("nav_config: two numbered sections in the schema, [%s] and [%s]", r->item->name,
                schema->sections[s]->name);
    r->item = schema->sections[s];
    if (r->item->count > NAV_MAX_BODIES)
      NAV_ABORT("nav_config: [%s.N] up to %d, NAV_MAX_BODIES is %d", r->item->name, r->item->count, NAV_MAX_BODIES);
  }
  for (int k = 0; k < r->n; k++) {
    if (!nav_find_section(r, r->row[k]->section))
      NAV_ABORT("nav_config: key %s.%s of no section of the schema", r->row[k]->section, r->row[k]->name);
    if (!r->item || strcmp(r->row[k]->section, r->item->name)) continue;
    if (r->item_row0 < 0) r->item_row0 = k;
    if (k != r->item_row0 + r->item_nrows++)
      NAV_ABORT("nav_config: the [%s] rows of the schema are not together", r->item->name);
  }
  if (r->item_nrows > NAV_BODY_MAX_KEYS)
    NAV_ABORT("nav_config: %d [%s] keys, NAV_BODY_MAX_KEYS is %d", r->item_nrows, r->item->name, NAV_BODY_MAX_KEYS);
}

/* The number N of a section "NAME.N" of the numbered section (1..count); 0 if the section is not of
 * that form, -1 if N is out of range. */
static int nav_item_number(const nav_rows *r, const char *section) {
  if (!r->item) return 0;
  const size_t len = strlen(r->item->name);
  if (strncmp(section, r->item->name, len) || section[len] != '.' || !section[len + 1]) return 0;
  long n = 0;
  for (const char *c = section + len + 1; *c; c++) {
    if (!isdigit((unsigned char)*c)) return 0;
    n = 10 * n + (*c - '0');
    if (n > r->item->count) return -1;
  }
  return n >= 1 ? (int)n : -1;
}

/* 1 if row k is a key of the numbered section. */
static int nav_is_item(const nav_rows *r, int k) {
  return r->item && k >= r->item_row0 && k < r->item_row0 + r->item_nrows;
}

/* Row k as the key of instance n of the numbered section: the field shifted to that instance. */
static nav_key nav_item_key(const nav_rows *r, int k, int n) {
  nav_key key = *r->row[k];
  key.offset += (size_t)(n - 1) * r->item->stride;
  return key;
}

/* How many instances of the numbered section cfg has (set by the section's check). */
static int nav_item_count(const nav_config *cfg, const nav_rows *r) {
  return r->item ? *(const int *)((const char *)cfg + r->item->given_offset) : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Loading: where each value came from, errors                                                    */

/* Order matters: a later source overrides an earlier one, and conflicts are reported at the later key. */
typedef enum nav_source { NAV_SRC_DEFAULT = 0, NAV_SRC_FILE = 1, NAV_SRC_SET = 2 } nav_source;

typedef struct nav_origin {
  nav_source src;
  int line; /* file line, or --set index (1-based); 0 for a default */
  int bad;  /* the last value given was rejected (and reported) */
} nav_origin;

/* The load in progress; the checks see it as the opaque nav_config_check. */
typedef struct nav_config_check {
  nav_rows r;
  nav_config *cfg;
  nav_config_errors *errs;
  const char *path;         /* case file, for messages */
  const char *default_name; /* "file" of defaults in messages: path, or "(default)" */
  nav_source src;           /* source being read, and its current line */
  int line;
  FILE *fp;
  int read_errno;       /* errno of a failed read */
  int section_line;     /* line of the last [section] header read */
  int reported_section; /* header line of the last unknown section reported */
  nav_origin at[NAV_CONFIG_MAX_KEYS];
  nav_origin item_at[NAV_MAX_BODIES][NAV_BODY_MAX_KEYS]; /* the keys of [NAME.N], by row - r.item_row0 */
} nav_load;

/* Append one line to errs; count every error, keep the text of those that fit whole. */
static void NAV_PRINTF(2, 3) nav_add_error(nav_config_errors *errs, const char *fmt, ...) {
  char line[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  errs->count++;
  size_t used = strlen(errs->text), len = strlen(line);
  if (used + len + 2 <= sizeof errs->text) {
    memcpy(errs->text + used, line, len);
    memcpy(errs->text + used + len, "\n", 2);
  }
}

static const char *nav_source_name(const nav_load *ld, nav_source src) {
  return src == NAV_SRC_FILE ? ld->path : src == NAV_SRC_SET ? "--set" : ld->default_name;
}

/* "FILE:LINE: key 'section.key': reason" at the given source and line. */
static void nav_key_verror(nav_load *ld, int k, nav_source src, int line, const char *fmt, va_list ap) {
  char reason[400];
  vsnprintf(reason, sizeof reason, fmt, ap);
  nav_add_error(ld->errs, "%s:%d: key '%s.%s': %s", nav_source_name(ld, src), line, ld->r.row[k]->section,
                ld->r.row[k]->name, reason);
}

static void NAV_PRINTF(5, 6) nav_key_error(nav_load *ld, int k, nav_source src, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  nav_key_verror(ld, k, src, line, fmt, ap);
  va_end(ap);
}

/* A section header that names no section is reported once per header (a --set names its section every
 * time); returns 1 if this one is reported already. */
static int nav_section_reported(nav_load *ld, int *line) {
  *line = ld->src == NAV_SRC_FILE ? ld->section_line : ld->line;
  if (ld->src == NAV_SRC_FILE && ld->reported_section == *line) return 1;
  ld->reported_section = *line;
  return 0;
}

/* Apply "NAME.N.key = value" of the numbered section (n = N, or -1 for a number out of range). */
static void nav_apply_item(nav_load *ld, int n, const char *section, const char *name, const char *value) {
  const char *where = nav_source_name(ld, ld->src);
  const nav_config_section *item = ld->r.item;
  int line;
  if (n < 0) {
    if (!nav_section_reported(ld, &line))
      nav_add_error(ld->errs, "%s:%d: section '[%.80s]': %s are numbered 1 to %d", where, line, section, item->plural,
                    item->count);
    return;
  }
  const int k = nav_find_key(&ld->r, item->name, name);
  if (k < 0) {
    nav_add_error(ld->errs, "%s:%d: key '%s.%.80s': unknown key (%s)", where, ld->line, section, name, item->key_list);
    return;
  }
  nav_origin *o = &ld->item_at[n - 1][k - ld->r.item_row0];
  if (o->src == ld->src) {
    nav_add_error(ld->errs, "%s:%d: key '%s.%s': given twice (first %s %d)", where, ld->line, section, name,
                  ld->src == NAV_SRC_FILE ? "on line" : "as --set", o->line);
    return;
  }
  const nav_key key = nav_item_key(&ld->r, k, n);
  char why[400];
  o->bad = nav_parse_value(&key, value, ld->cfg, why, sizeof why);
  o->src = ld->src;
  o->line = ld->line;
  if (o->bad) nav_add_error(ld->errs, "%s:%d: key '%s.%s': %s", where, ld->line, section, name, why);
}

/* Apply one "section.key = value" from the current source (ld->src, ld->line). */
static void nav_apply(nav_load *ld, const char *section, const char *name, const char *value) {
  const char *where = nav_source_name(ld, ld->src);
  const nav_config_section *item = ld->r.item;
  int line;
  const int n = nav_item_number(&ld->r, section);
  if (n) {
    nav_apply_item(ld, n, section, name, value);
    return;
  }
  if (item && !strcmp(section, item->name)) { /* the rows' section of a numbered one is not a section of a case */
    if (!nav_section_reported(ld, &line))
      nav_add_error(ld->errs, "%s:%d: section '[%s]': %s are numbered sections [%s.1], [%s.2], ...", where, line,
                    item->name, item->plural, item->name, item->name);
    return;
  }
  if (section[0] && !nav_find_section(&ld->r, section)) {
    if (nav_section_reported(ld, &line)) return;
    char known[128] = "";
    for (int i = 0; i < ld->r.schema->nsections; i++) {
      const nav_config_section *s = ld->r.schema->sections[i];
      if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
      strncat(known, s->name, sizeof known - strlen(known) - 1);
      if (s->count) strncat(known, ".N", sizeof known - strlen(known) - 1);
    }
    nav_add_error(ld->errs, "%s:%d: section '[%.80s]': unknown section (known: %s)", where, line, section, known);
    return;
  }
  int k = nav_find_key(&ld->r, section, name);
  if (k < 0) {
    char hint[128] = "";
    for (int j = 0; j < ld->r.n; j++)
      if (!strcmp(ld->r.row[j]->name, name))
        snprintf(hint, sizeof hint, " (did you mean '%s%s.%s'?)", ld->r.row[j]->section,
                 nav_is_item(&ld->r, j) ? ".N" : "", name);
    nav_add_error(ld->errs, "%s:%d: key '%s%s%.80s': unknown key%s%s", where, ld->line, section, section[0] ? "." : "",
                  name, section[0] ? "" : " outside any [section]", hint);
    return;
  }
  nav_origin *o = &ld->at[k];
  if (o->src == ld->src) {
    nav_key_error(ld, k, ld->src, ld->line, "given twice (first %s %d)",
                  ld->src == NAV_SRC_FILE ? "on line" : "as --set", o->line);
    return;
  }
  char why[400];
  o->bad = nav_parse_value(ld->r.row[k], value, ld->cfg, why, sizeof why);
  o->src = ld->src;
  o->line = ld->line;
  if (o->bad) nav_key_error(ld, k, ld->src, ld->line, "%s", why);
}

/* inih reader (fgets contract): one physical line per call, counted in ld->line. A line too long
 * for inih's buffer is reported here and handed on as an empty line; leading whitespace is removed
 * (no multi-line values); the line of a [section] header is remembered for unknown-section errors. */
static char *nav_read_line(char *buf, int size, void *stream) {
  nav_load *ld = stream;
  if (!fgets(buf, size, ld->fp)) {
    if (ferror(ld->fp)) ld->read_errno = errno;
    return NULL;
  }
  ld->line++;
  size_t len = strlen(buf);
  if (len > 0 && buf[len - 1] != '\n') {
    int c = fgetc(ld->fp);
    if (c != EOF && c != '\n') {
      while (c != EOF && c != '\n')
        c = fgetc(ld->fp);
      nav_add_error(ld->errs, "%s:%d: syntax error: line longer than %d characters", ld->path, ld->line, size - 1);
      buf[0] = '\0';
      return buf;
    }
  }
  size_t skip = 0;
  while (isspace((unsigned char)buf[skip]))
    skip++;
  memmove(buf, buf + skip, len - skip + 1);
  if (buf[0] == '[') ld->section_line = ld->line;
  return buf;
}

static int nav_ini_handler(void *user, const char *section, const char *name, const char *value) {
  nav_apply(user, section, name, value);
  return 1; /* errors are ours to report: a non-zero return keeps inih's status for syntax errors only */
}

static void nav_load_file(nav_load *ld) {
  ld->fp = fopen(ld->path, "r");
  if (!ld->fp) {
    nav_add_error(ld->errs, "%s: cannot open: %s", ld->path, strerror(errno));
    return;
  }
  ld->src = NAV_SRC_FILE;
  ld->line = 0;
  int rc = ini_parse_stream(nav_read_line, ld, nav_ini_handler, ld);
  if (ferror(ld->fp))
    nav_add_error(ld->errs, "%s: cannot read: %s", ld->path, strerror(ld->read_errno));
  else if (rc > 0) /* inih reports the first malformed line only */
    nav_add_error(ld->errs, "%s:%d: syntax error", ld->path, rc);
  else if (rc < 0)
    nav_add_error(ld->errs, "%s: cannot parse (inih error %d)", ld->path, rc);
  fclose(ld->fp);
  ld->fp = NULL;
}

static char *nav_trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
  return s;
}

/* One override "section.key=value" (spaces around the parts are ignored), reported as --set:index. */
static void nav_load_set(nav_load *ld, int index, const char *arg) {
  char buf[NAV_CONFIG_STR + 64];
  ld->src = NAV_SRC_SET;
  ld->line = index;
  if (strlen(arg) >= sizeof buf) {
    nav_add_error(ld->errs, "--set:%d: override longer than %zu characters", index, sizeof buf - 1);
    return;
  }
  strcpy(buf, arg);
  char *eq = strchr(buf, '=');
  char *dot = NULL; /* the last dot before '=': keys have none, sections may ("body.2") */
  for (char *q = buf; eq && q < eq; q++)
    if (*q == '.') dot = q;
  if (!dot) {
    nav_add_error(ld->errs, "--set:%d: malformed override '%.80s': expected section.key=value", index, arg);
    return;
  }
  *dot = *eq = '\0';
  char *section = nav_trim(buf), *name = nav_trim(dot + 1);
  if (!section[0] || !name[0]) {
    nav_add_error(ld->errs, "--set:%d: malformed override '%.80s': expected section.key=value", index, arg);
    return;
  }
  nav_apply(ld, section, name, nav_trim(eq + 1));
}

/* ---------------------------------------------------------------------------------------------- */
/* For the cross-key checks (core/nav_config_schema.h)                                            */

int nav_key_id(const nav_config_check *ck, const char *section, const char *name) {
  int k = nav_find_key(&ck->r, section, name);
  if (k < 0) NAV_ABORT("nav_config: no key %s.%s in the schema table", section, name);
  return k;
}

int nav_section_rows(const nav_config_check *ck, const char *section, int *first) {
  int n = 0;
  *first = -1;
  for (int k = 0; k < ck->r.n; k++)
    if (!strcmp(ck->r.row[k]->section, section) && n++ == 0) *first = k;
  return n;
}

int nav_key_bad(const nav_config_check *ck, int k) { return ck->at[k].bad; }

int nav_key_given(const nav_config_check *ck, int k) { return ck->at[k].src != NAV_SRC_DEFAULT; }

int nav_later(const nav_config_check *ck, int a, int b) {
  if (a < 0 || b < 0 || ck->at[a].bad || ck->at[b].bad) return -1;
  const nav_origin *x = &ck->at[a], *y = &ck->at[b];
  return (y->src > x->src || (y->src == x->src && y->line > x->line)) ? b : a;
}

void nav_conflict(nav_config_check *ck, int k, const char *fmt, ...) {
  if (k < 0) return;
  va_list ap;
  va_start(ap, fmt);
  nav_key_verror(ck, k, ck->at[k].src, ck->at[k].line, fmt, ap);
  va_end(ap);
}

int nav_item_given(const nav_config_check *ck, int n, int k) {
  return ck->item_at[n - 1][k - ck->r.item_row0].src != NAV_SRC_DEFAULT;
}

void nav_item_error(nav_config_check *ck, int n, int k, const char *fmt, ...) {
  const nav_origin *o = &ck->item_at[n - 1][k - ck->r.item_row0];
  if (o->bad) return;
  char reason[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  nav_add_error(ck->errs, "%s:%d: key '%s.%d.%s': %s", nav_source_name(ck, o->src), o->line, ck->r.item->name, n,
                ck->r.row[k]->name, reason);
}

/* ---------------------------------------------------------------------------------------------- */
/* Public functions                                                                               */

void nav_config_defaults_schema(nav_config *cfg, const nav_config_schema *schema) {
  nav_rows r;
  nav_rows_build(&r, schema);
  memset(cfg, 0, sizeof *cfg);
  cfg->schema = schema;
  snprintf(cfg->source, sizeof cfg->source, "(default)");
  for (int k = 0; k < r.n; k++) {
    char why[400];
    if (nav_parse_value(r.row[k], r.row[k]->def, cfg, why, sizeof why))
      NAV_ABORT("nav_config: bad default of %s.%s in the schema table: %s", r.row[k]->section, r.row[k]->name, why);
    for (int n = 2; nav_is_item(&r, k) && n <= r.item->count; n++) { /* every instance's row */
      const nav_key key = nav_item_key(&r, k, n);
      nav_parse_value(&key, key.def, cfg, why, sizeof why);
    }
  }
}

nav_err nav_config_load_schema(nav_config *cfg, const nav_config_schema *schema, const char *path, int nset,
                               char *const *sets, nav_config_errors *errs) {
  nav_load load, *ld = &load;
  memset(ld, 0, sizeof *ld);
  nav_rows_build(&ld->r, schema);
  ld->cfg = cfg;
  ld->errs = errs;
  ld->path = path;
  ld->default_name = path ? path : "(default)";
  errs->count = 0;
  errs->text[0] = '\0';
  nav_config_defaults_schema(cfg, schema);
  if (!path) snprintf(cfg->plots, sizeof cfg->plots, "true"); /* the default case ends with its figures */
  if (path) {
    snprintf(cfg->source, sizeof cfg->source, "%s", path);
    nav_load_file(ld);
  }
  for (int i = 0; i < nset; i++)
    nav_load_set(ld, i + 1, sets[i]);
  for (int c = 0; c < schema->nchecks; c++)
    schema->checks[c](ld, cfg);
  for (int k = 0; k < ld->r.n; k++) {
    cfg->origin[k].src = (unsigned char)ld->at[k].src;
    cfg->origin[k].line = ld->at[k].line;
  }
  for (int n = 0; n < NAV_MAX_BODIES; n++)
    for (int k = 0; k < NAV_BODY_MAX_KEYS; k++) {
      cfg->body_origin[n][k].src = (unsigned char)ld->item_at[n][k].src;
      cfg->body_origin[n][k].line = ld->item_at[n][k].line;
    }
  return errs->count ? NAV_ERR_INPUT : NAV_OK;
}

void nav_config_print(const nav_config *cfg, FILE *out) {
  nav_rows r;
  nav_rows_build(&r, cfg->schema);
  for (int s = 0; s < r.schema->nsections; s++) { /* one header per section, wherever its keys sit in the table */
    const nav_config_section *sec = r.schema->sections[s];
    if (sec->count) { /* one section per instance given */
      for (int n = 1; n <= nav_item_count(cfg, &r); n++) {
        fprintf(out, "\n[%s.%d]\n", sec->name, n);
        for (int k = r.item_row0; k < r.item_row0 + r.item_nrows; k++) {
          const nav_key key = nav_item_key(&r, k, n);
          char value[NAV_CONFIG_STR + 8];
          nav_format_value(&key, cfg, value, sizeof value);
          fprintf(out, "%s = %s\n", key.name, value);
        }
      }
      continue;
    }
    fprintf(out, "%s[%s]\n", s ? "\n" : "", sec->name);
    for (int k = 0; k < r.n; k++) {
      const nav_key *key = r.row[k];
      if (strcmp(key->section, sec->name)) continue;
      char value[NAV_CONFIG_STR + 8];
      nav_format_value(key, cfg, value, sizeof value);
      fprintf(out, "%s = %s\n", key->name, value);
    }
  }
}

int nav_config_print_changed(const nav_config *cfg, FILE *out, const char *indent) {
  static nav_config def; /* static: the struct is large */
  nav_rows r;
  nav_config_defaults_schema(&def, cfg->schema);
  nav_rows_build(&r, cfg->schema);
  int count = 0;
  for (int k = 0; k < r.n; k++) {
    const int item = nav_is_item(&r, k);
    for (int n = 1; n <= (item ? nav_item_count(cfg, &r) : 1); n++) {
      const nav_key key = item ? nav_item_key(&r, k, n) : *r.row[k];
      char value[NAV_CONFIG_STR + 8], base[NAV_CONFIG_STR + 8], section[16];
      nav_format_value(&key, cfg, value, sizeof value);
      nav_format_value(&key, &def, base, sizeof base);
      if (item)
        snprintf(section, sizeof section, "%s.%d", key.section, n);
      else
        snprintf(section, sizeof section, "%s", key.section);
      if (strcmp(value, base)) {
        fprintf(out, "%s%s.%s = %s\n", indent, section, key.name, value);
        count++;
      }
    }
  }
  return count;
}

/* Row of key section.name of cfg's schema in k, and the instance of a numbered section in *n (0: not
 * numbered, -1: out of range). */
static int nav_lookup(const nav_rows *r, const char *section, const char *name, int *n) {
  *n = nav_item_number(r, section);
  return nav_find_key(r, *n > 0 ? r->item->name : section, name);
}

int nav_config_value(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n) {
  nav_rows r;
  nav_rows_build(&r, cfg->schema);
  int item;
  const int k = nav_lookup(&r, section, name, &item);
  if (k < 0 || item < 0) return -1;
  const nav_key key = item > 0 ? nav_item_key(&r, k, item) : *r.row[k];
  nav_format_value(&key, cfg, buf, n);
  return 0;
}

const char *nav_config_where(const nav_config *cfg, const char *section, const char *name, char *buf, size_t n) {
  nav_rows r;
  nav_rows_build(&r, cfg->schema);
  int item;
  const int k = nav_lookup(&r, section, name, &item);
  const struct nav_config_origin *o = k >= 0 ? &cfg->origin[k] : NULL;
  if (item > 0 && k >= 0) o = &cfg->body_origin[item - 1][k - r.item_row0];
  if (o && o->src == NAV_SRC_SET)
    snprintf(buf, n, "--set:%d", o->line);
  else
    snprintf(buf, n, "%s:%d", cfg->source, o && o->src == NAV_SRC_FILE ? o->line : 0);
  return buf;
}

/* The tangential direction along which an inflow table of face direction d varies: the first
 * non-periodic one, or -1 if every tangential direction is periodic. */
int nav_profile_direction(const nav_config *c, int d) {
  for (int e = 0; e < (c->dim == 3 ? 3 : 2); e++)
    if (e != d && c->bc[e][0] != NAV_BC_PERIODIC) return e;
  return -1;
}

const char *nav_face_name(int dir, int side) {
  static const char *const names[3][2] = {{"x_low", "x_high"}, {"y_low", "y_high"}, {"z_low", "z_high"}};
  if (dir < 0 || dir > 2 || side < 0 || side > 1) return "?";
  return names[dir][side];
}
