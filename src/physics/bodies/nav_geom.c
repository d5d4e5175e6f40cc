/* Geometry module, common parts: file reading and the rigid placement (scale, rotation, translation)
 * (contracts in nav_geom.h; the placed body that the immersed-boundary code queries: nav_geom_body.c).
 *
 * Placement X = c + R (s x - c) + t, R = Rz(angle_z) Ry(angle_y) Rx(angle_x) (degrees, right-handed,
 * fixed axes: x first). A distance in the file scales by s; R is orthogonal, so the inverse is
 * x = (R^T (X - t - c) + c) / s and a normal turns by R. */
#include "physics/bodies/nav_geom.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/bodies/nav_geom_impl.h"

nav_err nav_geom_slurp(const char *path, char **data, size_t *len, char *msg, size_t size) {
  *data = NULL, *len = 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return nav_geom_fail(NAV_ERR_IO, msg, size, "%s: cannot read: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  int err = 0;
  while (buf) {
    const size_t got = fread(buf + n, 1, cap - n, fp);
    n += got;
    if (got == 0 || n < cap) {
      if (ferror(fp)) err = errno ? errno : EIO;
      if (feof(fp) || err) break;
      continue;
    }
    char *grown = cap < ((size_t)1 << 40) ? realloc(buf, 2 * cap + 1) : NULL;
    if (!grown) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = grown, cap *= 2;
  }
  fclose(fp);
  if (!buf) return nav_geom_fail(NAV_ERR_MEMORY, msg, size, "%s: out of memory reading the file", path);
  if (err) {
    free(buf);
    return nav_geom_fail(NAV_ERR_IO, msg, size, "%s: cannot read: %s", path, strerror(err));
  }
  buf[n] = '\0';
  *data = buf, *len = n;
  return NAV_OK;
}

/* ---- placement ---------------------------------------------------------------------------------- */

void nav_geom_xform_identity(nav_geom_xform *xf) {
  memset(xf, 0, sizeof *xf);
  xf->scale = 1;
  for (int d = 0; d < 3; d++)
    xf->rot[d][d] = 1;
}

nav_err nav_geom_xform_update(nav_geom_xform *xf, char *msg, size_t size) {
  if (!(isfinite(xf->scale) && xf->scale > 0))
    return nav_geom_fail(NAV_ERR_INPUT, msg, size, "scale %g: must be a finite number > 0", xf->scale);
  for (int d = 0; d < 3; d++)
    if (!isfinite(xf->centre[d]) || !isfinite(xf->angle[d]) || !isfinite(xf->shift[d]))
      return nav_geom_fail(NAV_ERR_INPUT, msg, size, "the centre, angles and shift must be finite numbers");
  double c[3], s[3];
  for (int d = 0; d < 3; d++) {
    const double a = xf->angle[d] * (NAV_PI / 180);
    c[d] = cos(a), s[d] = sin(a);
  }
  /* R = Rz Ry Rx */
  const double R[3][3] = {{c[2] * c[1], c[2] * s[1] * s[0] - s[2] * c[0], c[2] * s[1] * c[0] + s[2] * s[0]},
                          {s[2] * c[1], s[2] * s[1] * s[0] + c[2] * c[0], s[2] * s[1] * c[0] - c[2] * s[0]},
                          {-s[1], c[1] * s[0], c[1] * c[0]}};
  memcpy(xf->rot, R, sizeof R);
  return NAV_OK;
}

nav_err nav_geom_xform_2d(nav_geom_xform *xf, double scale, double aoa_deg, const double centre[2],
                          const double shift[2], char *msg, size_t size) {
  nav_geom_xform_identity(xf);
  xf->scale = scale;
  xf->angle[2] = -aoa_deg;
  for (int d = 0; d < 2; d++) {
    xf->centre[d] = centre ? centre[d] : 0;
    xf->shift[d] = shift ? shift[d] : 0;
  }
  return nav_geom_xform_update(xf, msg, size);
}

void nav_geom_xform_apply(const nav_geom_xform *xf, const double x[3], double X[3]) {
  double r[3];
  for (int d = 0; d < 3; d++)
    r[d] = xf->scale * x[d] - xf->centre[d];
  for (int d = 0; d < 3; d++)
    X[d] = xf->centre[d] + xf->rot[d][0] * r[0] + xf->rot[d][1] * r[1] + xf->rot[d][2] * r[2] + xf->shift[d];
}

void nav_geom_xform_inverse(const nav_geom_xform *xf, const double X[3], double x[3]) {
  double r[3];
  for (int d = 0; d < 3; d++)
    r[d] = X[d] - xf->shift[d] - xf->centre[d];
  for (int d = 0; d < 3; d++)
    x[d] = (xf->rot[0][d] * r[0] + xf->rot[1][d] * r[1] + xf->rot[2][d] * r[2] + xf->centre[d]) / xf->scale;
}
