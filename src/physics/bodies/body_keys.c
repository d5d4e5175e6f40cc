/* The keys of the immersed bodies ([body.N]: shape, placement, motion; [bodies]: the forcing; [forces]: the
 * reference values of the coefficients) and their cross-key check. [body.N] is the schema's numbered
 * section: its rows address body[0], the core shifts them to body[N-1]. The registry of sections
 * (solvers/nav_sections.c) lists them. */
#include "physics/bodies/body_keys.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const nav_body_kind_values[] = {"none", "circle", "cylinder", "sphere",
                                                   "box",  "points", "stl",      NULL};
static const char *const nav_body_forcing_values[] = {"diffuse", "sharp", NULL};

/* [body.N]: the rows of one body (body[0]); they stay together in one block */
static const nav_key nav_body_rows[] = {
    {"body", "kind", NAV_KT_CHOICE, NAV_FIELD(body[0].kind), "none",
     "Shape of the body: circle (2D), cylinder (3D, axis along z, spanning the domain), sphere (3D), box (a "
     "rectangle in 2D, a block in 3D: edge lengths `size`), points (a closed 2D polyline from `file`, extruded "
     "along z in 3D) or stl (a closed triangulated surface from `file`, 3D).",
     .values = nav_body_kind_values},
    {"body", "name", NAV_KT_TEXT, NAV_FIELD(body[0].name), "",
     "Label of the body in monitor.csv (columns cd_<name>, cl_<name>, cs_<name>) and summary.json: up to 31 of "
     "A-Z a-z 0-9 _ -; empty = body<N>.",
     .values = NULL},
    {"body", "center", NAV_KT_VEC3, NAV_FIELD(body[0].center), "0,0,0",
     "Position x,y,z of the body frame's origin (the centre of a circle, cylinder, sphere or box; z is ignored in "
     "2D and by a cylinder).",
     NAV_ANY},
    {"body", "radius", NAV_KT_REAL, NAV_FIELD(body[0].radius), "0.5", "Radius of a circle, cylinder or sphere.",
     NAV_ABOVE(0)},
    {"body", "size", NAV_KT_VEC3, NAV_FIELD(body[0].size), "1,1,1",
     "Box: edge lengths along the body frame's axes (each > 0; the third ignored in 2D).", NAV_ANY},
    {"body", "scale", NAV_KT_REAL, NAV_FIELD(body[0].scale), "1",
     "Factor on every length of the shape (radius, size, the coordinates of a file).", NAV_ABOVE(0)},
    {"body", "angle", NAV_KT_REAL, NAV_FIELD(body[0].angle), "0",
     "Rotation of the body about the z axis, in degrees, counter-clockwise seen from +z (a body at angle of "
     "attack a in a stream along +x has angle = -a).",
     NAV_RANGE(-360, 0, 360, 0)},
    {"body", "velocity", NAV_KT_VEC3, NAV_FIELD(body[0].velocity), "0,0,0",
     "Velocity u,v,w of the body surface: the no-slip condition imposes it (a rigid translation of a body whose "
     "position is held; w = 0 in 2D).",
     NAV_ANY},
    {"body", "motion_velocity", NAV_KT_VEC3, NAV_FIELD(body[0].motion_velocity), "0,0,0",
     "Prescribed motion: the body translates with this velocity, x(t) = center + motion_velocity t + "
     "motion_amplitude sin(2 pi motion_frequency t); its surface moves with dx/dt (plus `velocity`). The body must "
     "stay inside the domain up to end_time.",
     NAV_ANY},
    {"body", "motion_amplitude", NAV_KT_VEC3, NAV_FIELD(body[0].motion_amplitude), "0,0,0",
     "Prescribed motion: amplitude of the sinusoidal displacement (see motion_velocity).", NAV_ANY},
    {"body", "motion_frequency", NAV_KT_REAL, NAV_FIELD(body[0].motion_frequency), "0",
     "Prescribed motion: frequency f of the sinusoidal displacement (cycles per unit time).", NAV_ATLEAST(0)},
    {"body", "rotation_rate", NAV_KT_REAL, NAV_FIELD(body[0].rotation_rate), "0",
     "Prescribed rotation about the z axis through the (moving) centre, degrees per unit time: angle(t) = angle + "
     "rotation_rate t + pitch_amplitude sin(2 pi pitch_frequency t); the surface moves with the rigid velocity "
     "dx/dt + omega x (x - center).",
     NAV_ANY},
    {"body", "pitch_amplitude", NAV_KT_REAL, NAV_FIELD(body[0].pitch_amplitude), "0",
     "Prescribed rotation: amplitude of a sinusoidal pitch about z, degrees (see rotation_rate).", NAV_ANY},
    {"body", "pitch_frequency", NAV_KT_REAL, NAV_FIELD(body[0].pitch_frequency), "0",
     "Prescribed rotation: frequency of the pitch (cycles per unit time).", NAV_ATLEAST(0)},
    {"body", "file", NAV_KT_TEXT, NAV_FIELD(body[0].file), "",
     "points: a text file of x,y rows (the closed polyline); stl: an ASCII or binary STL file; a relative path is "
     "taken from the case file's folder. Other kinds: must be empty.",
     .values = NULL},
};

static const nav_key nav_bodies_rows[] = {
    {"bodies", "forcing", NAV_KT_CHOICE, NAV_FIELD(bodies_forcing), "diffuse",
     "No-slip forcing of every body (docs/design.md, \"Immersed bodies\"): diffuse (weighted by each face's solid "
     "fraction, a ramp over a cell: first order) or sharp (faces inside take the body's velocity, fluid faces next to "
     "them the linear reconstruction along the normal from an image point on the next grid plane: second order, one "
     "more halo exchange per step).",
     .values = nav_body_forcing_values},
    {"forces", "reference_velocity", NAV_KT_REAL, NAV_FIELD(reference_velocity), "1",
     "Velocity U of the force coefficients C = 2 F / (U^2 A) (density 1).", NAV_ABOVE(0)},
    {"forces", "reference_length", NAV_KT_REAL, NAV_FIELD(reference_length), "1",
     "2D: the length A of the force coefficients (per unit span; the diameter of a cylinder), also the length of "
     "the Strouhal number St = f L / U and of the recirculation length L_w / L.",
     NAV_ABOVE(0)},
    {"forces", "reference_area", NAV_KT_REAL, NAV_FIELD(reference_area), "1",
     "3D: the area A of the force coefficients (pi D^2 / 4 for a sphere, D times the span for a cylinder).",
     NAV_ABOVE(0)},
    {"forces", "average_start", NAV_KT_REAL, NAV_FIELD(average_start), "0",
     "Time from which summary.json averages the coefficients (cd_mean, cl_mean), takes the lift amplitude and the "
     "Strouhal number (monitor steps with t >= average_start of this run).",
     NAV_ATLEAST(0)},
};

const nav_config_keys nav_body_keys = NAV_CONFIG_KEYS(nav_body_rows);
const nav_config_keys nav_bodies_keys = NAV_CONFIG_KEYS(nav_bodies_rows);

const nav_config_section nav_body_section = {
    .name = "body",
    .doc = "Immersed bodies, one numbered section each: [body.1], [body.2], ... up to [body.8], numbered without "
           "gaps (the header is `[body.N]`; the keys below belong to each). The no-slip condition on the body is "
           "imposed by direct forcing on the velocity faces, diffuse or sharp (`[bodies] forcing`; docs/design.md); "
           "the force on each body is reported as coefficients in monitor.csv and summary.json.",
    .count = NAV_MAX_BODIES,
    .stride = sizeof(nav_body_config),
    .given_offset = offsetof(nav_config, nbodies),
    .plural = "bodies",
    .key_list = "a body has kind, name, center, radius, size, scale, angle, velocity, file"};
const nav_config_section nav_bodies_section = {.name = "bodies", .doc = "Options common to all bodies."};
const nav_config_section nav_forces_section = {
    .name = "forces",
    .doc = "Reference values of the force coefficients of the bodies, and the window of their time averages."};

const char nav_rule_bodies[] =
    "Bodies `[body.N]` are numbered 1, 2, ... without gaps, each with a `kind`; circle is 2D, cylinder, sphere and stl "
    "are 3D; a body lies inside the domain (its extent along each direction, a cylinder's along x and y); "
    "`file` is given for points and stl only; bodies need `method = projection`; names are unique.";

/* [body.N]: numbered without gaps, a kind for every body given, shapes of the dimension, inside the domain. */
void nav_check_bodies(nav_config_check *ck, nav_config *c) {
  int row0;
  const int nrows = nav_section_rows(ck, "body", &row0), kkind = nav_key_id(ck, "body", "kind");
  const int kcenter = nav_key_id(ck, "body", "center"), ksize = nav_key_id(ck, "body", "size");
  const int kname = nav_key_id(ck, "body", "name"), kfile = nav_key_id(ck, "body", "file");
  const int kvel = nav_key_id(ck, "body", "velocity");
  c->nbodies = 0;
  for (int n = 1; n <= NAV_MAX_BODIES; n++) {
    const nav_body_config *b = &c->body[n - 1];
    int given = -1; /* a key of this body given in the case or by --set */
    for (int k = row0; k < row0 + nrows; k++)
      if (nav_item_given(ck, n, k) && given < 0) given = k;
    if (!strcmp(b->kind, "none")) { /* kind = none given: the body is switched off, its other keys stay unused */
      if (given >= 0 && given != kkind && !nav_item_given(ck, n, kkind))
        nav_item_error(ck, n, given,
                       "body %d has no kind: give body.%d.kind (circle, cylinder, sphere, box, points, stl)", n, n);
      continue;
    }
    if (n != c->nbodies + 1) {
      nav_item_error(ck, n, kkind, "body %d is given but body %d is not: number the bodies 1, 2, ... without gaps", n,
                     c->nbodies + 1);
      continue;
    }
    c->nbodies = n;
    const char *kind = b->kind;
    if (!strcmp(c->method, "artificial_compressibility"))
      nav_item_error(ck, n, kkind,
                     "immersed bodies need method = projection (artificial compressibility has no "
                     "body forcing)");
    if ((!strcmp(kind, "circle") && c->dim != 2) ||
        ((!strcmp(kind, "cylinder") || !strcmp(kind, "sphere") || !strcmp(kind, "stl")) && c->dim != 3))
      nav_item_error(ck, n, kkind,
                     "kind = %s needs dim = %d, got dim = %d (2D: circle, box, points; 3D: cylinder, "
                     "sphere, box, points, stl)",
                     kind, c->dim == 2 ? 3 : 2, c->dim);
    if (!strcmp(kind, "points") || !strcmp(kind, "stl")) { /* the file itself is read and checked once, by
                                                             nav_shape_create (physics/nav_body_shape.c) */
      if (!b->file[0]) {
        nav_item_error(ck, n, kfile, "kind = %s needs a file (%s)", kind,
                       !strcmp(kind, "points") ? "x,y rows of a closed polyline" : "an ASCII or binary STL surface");
        continue;
      }
    } else if (b->file[0]) {
      nav_item_error(ck, n, kfile, "kind = %s takes no file (only points and stl do)", kind);
    }
    for (const char *q = b->name; *q; q++)
      if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-') {
        nav_item_error(ck, n, kname, "must be up to 31 of A-Z a-z 0-9 _ -, got '%s'", b->name);
        break;
      }
    if (strlen(b->name) > 31) nav_item_error(ck, n, kname, "must be at most 31 characters");
    for (int m = 1; m < n; m++) {
      char a[40], o[40];
      snprintf(a, sizeof a, "%s", b->name[0] ? b->name : "");
      snprintf(o, sizeof o, "%s", c->body[m - 1].name);
      if (!a[0]) snprintf(a, sizeof a, "body%d", n);
      if (!o[0]) snprintf(o, sizeof o, "body%d", m);
      if (!strcmp(a, o)) nav_item_error(ck, n, kname, "body %d has the same name '%s' as body %d", n, a, m);
    }
    if (c->dim == 2 && b->velocity[2] != 0)
      nav_item_error(ck, n, kvel, "a 2D body has no z velocity, got w = %g", b->velocity[2]);
    /* half extents of the body along x, y, z */
    const double a = b->angle * acos(-1.0) / 180, ca = fabs(cos(a)), sa = fabs(sin(a));
    double half[3] = {b->radius * b->scale, b->radius * b->scale, b->radius * b->scale};
    if (!strcmp(kind, "box")) {
      const double *e = b->size;
      if (e[0] <= 0 || e[1] <= 0 || (c->dim == 3 && e[2] <= 0)) {
        nav_item_error(ck, n, ksize, "the edge lengths of a box must be > 0, got %g,%g,%g", e[0], e[1], e[2]);
        continue;
      }
      half[0] = 0.5 * b->scale * (ca * e[0] + sa * e[1]);
      half[1] = 0.5 * b->scale * (sa * e[0] + ca * e[1]);
      half[2] = 0.5 * b->scale * e[2];
      if (b->rotation_rate != 0 || b->pitch_amplitude != 0) /* any angle: the circumscribed circle in x, y */
        half[0] = half[1] = 0.5 * b->scale * sqrt(e[0] * e[0] + e[1] * e[1]);
    }
    const double lo[3] = {c->x0, c->y0, c->z0}, len[3] = {c->lx, c->ly, c->lz};
    const int ndir = !strcmp(kind, "cylinder") ? 2 : c->dim; /* a cylinder spans z */
    const int kmv = nav_key_id(ck, "body", "motion_velocity");
    const double *mv = b->motion_velocity, *ma = b->motion_amplitude;
    const int translates = mv[0] != 0 || mv[1] != 0 || mv[2] != 0;
    if (translates && c->end_time <= 0) {
      nav_item_error(ck, n, kmv, "a translating body needs time.end_time > 0 (it must stay inside the domain)");
      continue;
    }
    if (c->dim == 2 && (mv[2] != 0 || ma[2] != 0)) nav_item_error(ck, n, kmv, "a 2D body cannot move along z");
    const int key = translates || ma[0] != 0 || ma[1] != 0 || ma[2] != 0 ? kmv : kcenter;
    for (int d = 0; d < ndir; d++) { /* the positions of the centre up to end_time, bounded */
      const double T = c->end_time > 0 ? c->end_time : 0;
      const double clo = b->center[d] + fmin(0, mv[d] * T) - fabs(ma[d]) - half[d];
      const double chi = b->center[d] + fmax(0, mv[d] * T) + fabs(ma[d]) + half[d];
      if (clo <= lo[d] || chi >= lo[d] + len[d]) {
        nav_item_error(ck, n, key, "the body (%c from %g to %g%s) is not inside the domain (%c from %g to %g)",
                       "xyz"[d], clo, chi, key == kmv ? " over its motion up to end_time" : "", "xyz"[d], lo[d],
                       lo[d] + len[d]);
        break;
      }
    }
  }
}
