/* Immersed rigid bodies: shapes, the direct forcing on the MAC faces, forces and their reports.
 *
 * Method (docs/design.md says why): diffuse direct forcing with a solid fraction per velocity face
 * (Kajishima et al. 2001, "Turbulence structure of particle-laden flow in a vertical plane channel due to
 * vortex shedding", JSME Int. J. B 44; the volume-fraction form of Uhlmann's direct forcing). Once, at
 * set-up, every face of component c gets
 *   alpha = clamp(1/2 - phi / delta, 0, 1),   phi the signed distance of the face centre to the surface
 *                                             (negative inside), delta = sum_d |n_d| h_d the extent of the
 *                                             face's control volume along the surface normal n,
 * from the nearest body (the owner). Each step, after the predictor and before the projection,
 *   u_c <- u_c + alpha (V_c - (u_c - g dp/dx_c))      (nav_point_ibm.h; g = dt with explicit diffusion,
 *                                                      whose predictor lacks the pressure gradient, 0 with
 *                                                      implicit diffusion, whose predictor has it)
 * V the body's surface velocity. The pressure equation stays the plain Laplacian, so every pressure
 * solver serves bodies unchanged; the projection keeps div u at the solver tolerance. The force of the
 * fluid on body k is the momentum exchange F = -(1/dt) sum_faces(k) du dV_c (density 1; the inner fluid
 * of a body at constant velocity has constant momentum, so no further term). du has two parts: alpha
 * (V - u^n), the slip that the last projection left on the partly solid faces (of the size of the previous
 * step dt_old times the momentum residual there), and the rest, of this step; each is divided by its own
 * step, F = -(1/dt_old) sum alpha (V - u^n) dV - (1/dt) sum (du - alpha (V - u^n)) dV, which is the same
 * for a constant step and keeps a short last step (cut by end_time) from scaling the first part up. Forcing is local to each
 * face: it needs no halo and works across rank boundaries; the force sums are reduced over ranks.
 *
 * Prescribed motion (translation): x(t) = center + motion_velocity t + motion_amplitude sin(2 pi f t); each
 * step the bodies are placed where they are at t + dt and the tags recomputed on the host (one pass over
 * the block and an upload per step: a cost of moving bodies only), the surface velocity is dx/dt (plus
 * `velocity`) and the force gains the inner fluid's rate of momentum, volume times acceleration.
 *
 * Prescribed rotation about z through the centre (rotation_rate, pitch_amplitude, pitch_frequency): the
 * surface velocity V + omega x (x - center) varies over the body, so it is written per face (vel arrays,
 * with the tags). Rotation about the centre adds no momentum to the inner fluid; torques are not reported.
 *
 * Sharp-interface forcing ([bodies] forcing = sharp; nav_body_sharp.c; Fadlun et al. 2000, J. Comput. Phys.
 * 161; Balaras 2004, Comput. Fluids 33; Yang & Balaras 2006, J. Comput. Phys. 215): per component c, a face with
 * phi < 0 is solid and takes the rigid velocity of its body; a fluid face with a solid neighbour face (+-1 along
 * some direction) is a forcing face and takes the linear reconstruction along the normal n = grad phi,
 *   u_f = V_s + (u_ip - V_s) phi / (phi + s),      V_s the rigid velocity at the surface point x_f - phi n,
 * from the image point x_ip = x_f + s n on the first grid plane of c-faces that the normal crosses (s = min over
 * d of the spacing to the next c-face along d / |n_d|), u_ip linear in the 2^(dim-1) faces of that plane around
 * it (a solid one counts with its rigid velocity). The sources lie within one face of the target along every
 * direction, so one ghost layer serves any rank split; all faces are updated from the values before the update
 * (Jacobi; a source may be another forcing face). As the diffuse forcing, it acts on u* - g grad p and adds
 * g grad p back (ops->correct before and after), so the projection leaves the reconstructed values; p is set to 0
 * before each forcing at the cells whose faces are all forced, where it would otherwise grow by the projection's
 * multiplier every step (nav_body_sharp.c, "The enclosed cells"). Forces:
 * the same momentum exchange over the solid and forcing faces; motion and rotation rebuild the stencils on the
 * host each step, as they rebuild the tags.
 *
 * Shapes: each body has a kind, a signed distance in its own frame (negative inside) and the bounds
 * there; the body frame maps to the world by x = center + R(angle) scale q (R a rotation about z), so
 * phi_world(x) = scale phi_body(q). Built in: circle (2D), cylinder (3D, axis z), sphere, box. */
#ifndef NAV_BODY_H
#define NAV_BODY_H

#include "core/nav_config.h"
#include "navier/nav_types.h"
#include "physics/nav_model.h"

/* The shape of one body in its own frame: the signed distance (negative inside) and its bounds. */
typedef struct nav_shape {
  const char *kind;
  double (*distance)(const void *shape, const double q[3]);
  void (*bounds)(const void *shape, double lo[3], double hi[3]);
  void *data;                 /* the shape's parameters, owned (destroy frees them) */
  void (*destroy)(void *data);
} nav_shape;

/* Build the shape of body n (0-based) of cfg. NAV_ERR_INPUT with "FILE:LINE: key 'body.N.kind': ..."
 * for a kind this build cannot make. Not collective. */
nav_err nav_shape_create(const nav_config *cfg, int n, nav_shape *s);
void nav_shape_destroy(nav_shape *s);

typedef struct nav_body_one {
  char name[40];
  nav_shape shape;
  double center[3], scale, cosa, sina; /* the body frame */
  double velocity[3];                  /* surface velocity V (now) */
  double accel[3];                     /* acceleration of a prescribed motion (now) */
  double omega;                        /* angular velocity about z, radians per unit time (now) */
  double volume;                       /* sum of the solid fractions of the u faces times their volumes (local) */
  double lo[3], hi[3];                 /* world bounding box */
  double force[3];                     /* fluid on body, last diagnosed step */
  double coef[3];                      /* cd, cl, cs = 2 F / (U^2 A) */
  /* coefficient history of the monitor steps with t >= average_start (summary.json) */
  double *hist;                        /* rows of (t, cd, cl) */
  int nhist, cap;
} nav_body_one;

/* The statistics of one body at the end of a run (nav_body_report.c). */
typedef struct nav_body_stats {
  double cd_mean, cl_mean, cs_mean, cl_amplitude, st, lw_over_d, slip_max, slip_rms;
  double slip_ext_max, slip_ext_rms; /* the no-slip error extrapolated from the fluid side (nav_body_report.c) */
  int samples;
} nav_body_stats;

/* The model's data (nav_model.data of "bodies"). */
typedef struct nav_body {
  int n;
  nav_body_one b[NAV_MAX_BODIES];
  nav_real *tag[3];   /* backend arrays: 2 k + alpha per face (nav_point_ibm.h) */
  nav_real *scratch[3]; /* backend arrays: a copy of u^n on monitor steps (the force estimate) */
  long forced_faces;  /* faces with alpha > 0 on this rank */
  int moving;         /* a body has a prescribed motion: the tags follow it every step */
  int rotating;       /* a body rotates: the surface velocity varies over it (vel arrays) */
  nav_real *host, *host_vel; /* host buffers of one tag array and one velocity array */
  nav_real *vel[3];   /* backend arrays: the surface velocity per face (rotating bodies only) */
  double area;        /* reference area of the coefficients */
  struct nav_sharp *sharp; /* the stencils of the sharp-interface forcing (NULL: diffuse forcing, the tags) */
  nav_body_stats stats[NAV_MAX_BODIES]; /* of the end of the run (rank 0, when reported) */
  int reported;       /* stats are set: the summary has the "bodies" list */
} nav_body;

/* The body frame in the world and the faces of the grid (nav_body_frame.c). */
/* o->lo, o->hi: the world bounding box of body o where its frame is now (center, angle, scale). */
void nav_body_world_bounds(nav_body_one *o);
/* Signed distance of the world point x to body o (negative inside). */
double nav_body_distance(const nav_body_one *o, const double x[3]);
/* The unit normal n (outward) of body o's distance at x in dim directions, by central differences of step
 * eps; returns |grad phi| (0: no direction; n is then 0). */
double nav_body_normal(const nav_body_one *o, int dim, const double x[3], double eps, double n[3]);

/* Coordinates x of the face of component c with global index g (each -1 .. n[d]; the cell centre along d != c). */
void nav_body_face_x(const nav_flow_view *v, int c, const int g[3], double x[3]);
/* The control volume dV_c of the face of component c with global index g (each 0 .. n[d] - 1). */
double nav_body_face_volume(const nav_flow_view *v, int c, const int g[3]);
/* Whether x lies in body o's world bounding box widened by margin (dim directions). */
int nav_body_near(const nav_body_one *o, int dim, const double x[3], double margin);
/* Component c of body o's rigid velocity at x: V_c + (omega e_z x (x - center))_c. */
double nav_body_rigid_velocity(const nav_body_one *o, int c, const double x[3]);

/* The sharp-interface forcing (nav_body_sharp.c). create: B->sharp (empty). build: the stencils of this rank's
 * faces for the bodies where they are now (set-up, and each step of moving bodies), uploaded to the backend, and each
 * body's volume; not collective. force: u <- the forcing of u; gscale as in nav_point_ibm.h; fill: fill u's ghosts
 * first (collective: a halo exchange; 0 where they are current); sums as the diffuse forcing's (nav_ibm_kernels). */
nav_err nav_body_sharp_create(nav_body *B);
nav_err nav_body_sharp_build(nav_body *B, const nav_flow_view *v);
nav_err nav_body_sharp_force(nav_body *B, const nav_flow_view *v, nav_real *const *u, double gscale, int fill,
                             double *sums);
/* v->p <- 0 at the enclosed cells (every face forced) of the bodies where they are now, and p's ghosts filled: the
 * pressure there is only the multiplier of the step (nav_body_sharp.c). Collective (a halo exchange). */
nav_err nav_body_sharp_gauge(nav_body *B, const nav_flow_view *v);
void nav_body_sharp_destroy(nav_body *B, const nav_kernel_ops *ops);

/* The model "bodies" of physics/nav_model.h (nav_body.c), active when the case has [body.N] sections: create (the
 * shapes and the tags or stencils of this rank's faces; collective, the count of forced faces is reduced for the
 * log), destroy, force (the forcing of u* before the projection with the explicit predictor's pressure step s->pdt
 * as gscale of nav_point_ibm.h, which also resets p at the cells a sharp forcing encloses; on monitor steps also the
 * forces and coefficients of every body, collective; reads v->u_prev, u^n), monitor columns, summary entry and the
 * end-of-run report (nav_body_report.c). No state: the tags follow from the case and the time. */
extern const nav_model_ops nav_model_bodies;

/* The hooks of the reports (nav_body_report.c), rank 0 unless stated. */
/* monitor.csv columns cd_<name>, cl_<name> (and cs_<name> in 3D) and their values. */
void nav_body_monitor_header(const nav_model *m, const nav_flow_view *v, FILE *out);
void nav_body_monitor_row(const nav_model *m, const nav_flow_view *v, FILE *out);
/* After the run, from the global host fields h: the no-slip error at surface points (the velocity
 * interpolated at the projections onto the surface of the cell centres within half a cell of it, minus
 * the rigid velocity of the surface there, in units of reference_velocity; max and rms of |u - V|; also with u
 * extrapolated from the fluid side, slip_ext_*) and, in 2D, the recirculation length
 * behind each body (the first zero of u along y = center_y after a region of u < 0 that starts at the
 * rear of the body; 0 when u >= 0 there); with the time statistics of the coefficients into B->stats (rank 0,
 * where h has the fields; nothing on the other ranks). Prints one line per body. dir: unused. */
nav_err nav_body_report(nav_model *m, nav_flow_view *v, const struct nav_host_fields *h, const char *dir);
/* The "bodies" list of summary.json (after a report). */
void nav_body_summary(const nav_model *m, const nav_flow_view *v, FILE *out);

#endif
