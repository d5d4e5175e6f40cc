/* Values of the case file: text -> field (parse, with the type and range checks of the key's row)
 * and field -> text (the shortest text that reads back exactly). Used by the loader, the echo and
 * the reference (core/nav_config.c, core/nav_config_doc.c). */
#include "core/nav_config_impl.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Same order as nav_bc_type: the index is the enum value. */
const char *const nav_bc_values[] = {"wall", "free_slip", "periodic", "inflow", "outflow", NULL};
const char *const nav_bool_values[] = {"false", "true", NULL};

/* Decimal integer with nothing else around it but spaces; NULL on success, else what is wrong. */
static const char *nav_to_long(const char *s, long *v) {
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  while (isspace((unsigned char)*end))
    end++;
  if (end == s || *end) return "expected an integer";
  if (errno == ERANGE) return "integer out of range";
  return NULL;
}

/* Finite real number (strtod syntax) with nothing else around it but spaces; NULL on success. */
static const char *nav_to_real(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  while (isspace((unsigned char)*end))
    end++;
  if (end == s || *end) return "expected a real number";
  if (errno == ERANGE) return "number out of range"; /* overflow, or underflow to a denormal or zero */
  if (!isfinite(*v)) return "expected a finite real number";
  return NULL;
}

/* Shortest "%.Ng" text that reads back as exactly v. */
void nav_format_real(double v, char *buf, size_t n) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) return;
  }
}

static int nav_check_range(const nav_key *k, double v, const char *text, char *why, size_t n) {
  char b[32];
  if (v < k->lo || (k->lo_open && v == k->lo)) {
    nav_format_real(k->lo, b, sizeof b);
    return nav_why(1, why, n, "must be %s %s, got %s", k->lo_open ? ">" : ">=", b, text);
  }
  if (v > k->hi || (k->hi_open && v == k->hi)) {
    nav_format_real(k->hi, b, sizeof b);
    return nav_why(1, why, n, "must be %s %s, got %s", k->hi_open ? "<" : "<=", b, text);
  }
  return 0;
}

/* Copy text into a char field of `size` bytes, zero-filling the rest (the caller checked the length). */
static void nav_store_string(void *field, size_t size, const char *text) {
  memset(field, 0, size);
  memcpy(field, text, strlen(text));
}

/* Parse `text` as the value of key k into cfg. Returns 0, or 1 with the reason in why (cfg unchanged). */
int nav_parse_value(const nav_key *k, const char *text, nav_config *cfg, char *why, size_t n) {
  void *field = (char *)cfg + k->offset;
  const char *bad;
  switch (k->type) {
  case NAV_KT_INT:
  case NAV_KT_LONG: {
    long v;
    if ((bad = nav_to_long(text, &v))) return nav_why(1, why, n, "%s, got '%.80s'", bad, text);
    if (k->type == NAV_KT_INT && (v < INT_MIN || v > INT_MAX))
      return nav_why(1, why, n, "integer out of range, got '%.80s'", text);
    if (nav_check_range(k, (double)v, text, why, n)) return 1;
    if (k->type == NAV_KT_INT)
      *(int *)field = (int)v;
    else
      *(long *)field = v;
    return 0;
  }
  case NAV_KT_REAL: {
    double v;
    if ((bad = nav_to_real(text, &v))) return nav_why(1, why, n, "%s, got '%.80s'", bad, text);
    if (nav_check_range(k, v, text, why, n)) return 1;
    *(double *)field = v;
    return 0;
  }
  case NAV_KT_CHOICE:
  case NAV_KT_ENUM:
  case NAV_KT_BC: {
    char list[128] = "";
    for (int i = 0; k->values[i]; i++) {
      if (!strcmp(text, k->values[i])) {
        if (k->type == NAV_KT_BC)
          *(nav_bc_type *)field = (nav_bc_type)i;
        else if (k->type == NAV_KT_ENUM)
          *(int *)field = i;
        else
          nav_store_string(field, k->size, text);
        return 0;
      }
      if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
      strncat(list, k->values[i], sizeof list - strlen(list) - 1);
    }
    return nav_why(1, why, n, "must be one of %s, got '%.80s'", list, text);
  }
  case NAV_KT_NAME: {
    size_t len = strlen(text);
    int ok = len > 0 && len < k->size;
    for (const char *c = text; ok && *c; c++)
      ok = isalnum((unsigned char)*c) || *c == '_' || *c == '.' || *c == '-';
    if (!ok)
      return nav_why(1, why, n, "must be 1 to %zu characters among A-Z a-z 0-9 _ . -, got '%.80s'", k->size - 1, text);
    nav_store_string(field, k->size, text);
    return 0;
  }
  case NAV_KT_TEXT:
    if (strlen(text) >= k->size)
      return nav_why(1, why, n, "must be at most %zu characters, got %zu", k->size - 1, strlen(text));
    nav_store_string(field, k->size, text);
    return 0;
  case NAV_KT_VEC3: {
    double v[3];
    int nv = 0;
    const char *s = text;
    for (;;) {
      const char *comma = strchr(s, ',');
      size_t len = comma ? (size_t)(comma - s) : strlen(s);
      char piece[64];
      if (nv == 3 || len >= sizeof piece) break;
      memcpy(piece, s, len);
      piece[len] = '\0';
      if (nav_to_real(piece, &v[nv])) break;
      nv++;
      if (!comma) {
        if (nv != 3) break;
        memcpy(field, v, sizeof v);
        return 0;
      }
      s = comma + 1;
    }
    return nav_why(1, why, n, "expected three comma-separated real numbers u,v,w, got '%.80s'", text);
  }
  case NAV_KT_DECOMP: {
    int *v = field, p[3];
    char extra;
    if (!strcmp(text, "auto")) {
      v[0] = v[1] = v[2] = 0;
      return 0;
    }
    if (sscanf(text, "%d,%d,%d%c", &p[0], &p[1], &p[2], &extra) != 3 || p[0] < 1 || p[1] < 1 || p[2] < 1)
      return nav_why(1, why, n, "expected auto or three integers >= 1 px,py,pz, got '%.80s'", text);
    memcpy(v, p, sizeof p);
    return 0;
  }
  }
  return nav_why(1, why, n, "internal error: key type %d", (int)k->type);
}

/* Text of key k's value in cfg, as it would be written in a case file. */
void nav_format_value(const nav_key *k, const nav_config *cfg, char *buf, size_t n) {
  const void *field = (const char *)cfg + k->offset;
  switch (k->type) {
  case NAV_KT_INT:
    snprintf(buf, n, "%d", *(const int *)field);
    return;
  case NAV_KT_LONG:
    snprintf(buf, n, "%ld", *(const long *)field);
    return;
  case NAV_KT_REAL:
    nav_format_real(*(const double *)field, buf, n);
    return;
  case NAV_KT_BC:
    snprintf(buf, n, "%s", k->values[*(const nav_bc_type *)field]);
    return;
  case NAV_KT_ENUM:
    snprintf(buf, n, "%s", k->values[*(const int *)field]);
    return;
  case NAV_KT_VEC3: {
    const double *v = field;
    char c[3][32];
    for (int i = 0; i < 3; i++)
      nav_format_real(v[i], c[i], sizeof c[i]);
    snprintf(buf, n, "%s,%s,%s", c[0], c[1], c[2]);
    return;
  }
  case NAV_KT_DECOMP: {
    const int *v = field;
    if (v[0] == 0)
      snprintf(buf, n, "auto");
    else
      snprintf(buf, n, "%d,%d,%d", v[0], v[1], v[2]);
    return;
  }
  case NAV_KT_CHOICE:
  case NAV_KT_NAME:
  case NAV_KT_TEXT:
    snprintf(buf, n, "%s", (const char *)field);
    return;
  }
}
