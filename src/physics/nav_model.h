/* The model interface: a physics model is a table of hooks that the time step calls in a fixed
 * order (as PETSc's KSP calls a PC's ops, or Oceananigans' momentum tendency a closure's methods).
 * The step, the run loop and the output name no model: they iterate over the active models of a
 * nav_model_set (nav_models.c) and call the hooks below. A model sees the flow through a narrow
 * view (nav_flow_view), never through the solver struct.
 *
 * One step of the projection method (solvers/nav_flow.c) calls, for every active model in the
 * order of the registry (nav_models.c):
 *   1. rhs               terms added to N(u^n) (a body force, a mean pressure gradient) and the
 *                        model's own explicit tendencies; a transported scalar of the scheme's AB2
 *                        or Crank-Nicolson form may advance here (it reads u^n only);
 *   2. (the solver advances u^n -> u*: AB2 or the implicit Helmholtz solves)
 *   3. force             a forcing of u* (a held flow rate, immersed bodies), before the projection;
 *   4. (the solver projects: L p = div u* / dt, u^{n+1} = u* - dt grad p; ghosts filled)
 *   5. after_projection  transported scalars with u^{n+1} (k, omega), statistics;
 *   6. viscosity         nu_t for the variable-viscosity operators of the next step (the solver then
 *                        refills nu_t's ghosts and the face viscosities: nav_diffusion.h);
 *   7. on monitor steps: diagnose (the model's monitors), then change (its steady-state change,
 *                        folded into the flow's by max).
 * Artificial compressibility (solvers/nav_ac.c) calls diagnose on its monitor iterations.
 * At set-up: create (after the grid, the fields, the initial condition, open boundaries and the
 * diffusion set-up), then viscosity (NAV_VISCOSITY_START), then diagnose (the monitors of the
 * initial state). At a restart: after the state arrays were read, restored, then viscosity
 * (NAV_VISCOSITY_RESTART). Output: monitor_header / monitor_row (monitor.csv columns), summary
 * (summary.json entries), log (the final lines of the log), report (a report from the global host
 * fields at the end of a run), state (checkpoint arrays), host_state (checkpoint host values: running
 * sums of statistics). Every hook may be NULL (nothing to do).
 *
 * Who may call whom: solvers -> physics (this interface) -> grid/backend -> core; io -> this
 * interface. A model never calls the solver (solvers/) or the output (io/); the few services of
 * the solver a model needs are in the view. Every hook is collective over the flow's ranks unless
 * it says otherwise, and returns nav_err (0: success). */
#ifndef NAV_MODEL_H
#define NAV_MODEL_H

#include <stdio.h>

#include "backend/nav_kernels.h"
#include "core/nav_config.h"
#include "grid/nav_boundary.h"
#include "grid/nav_decomp.h"
#include "grid/nav_halo.h"

struct nav_host_fields; /* io/nav_validation.h: the global fields gathered on rank 0 */

#define NAV_MODELS_MAX 16        /* models of one run */
struct nav_model_set;
#define NAV_MODEL_SECTIONS 4     /* key sections of one model */
#define NAV_MODEL_SNAPSHOT_MAX 8 /* snapshot fields of one model, and of all models of a run */
#define NAV_STATE_MAX 40         /* state arrays of a run (solver and models: 13 of statistics fields) */

/* One array of the state of a run: what a checkpoint stores (interior points) and a restart reads. */
typedef struct nav_state_array {
  const char *name; /* "u", "rhs_old_u", ..., "p", "T", "k": unique within a run */
  nav_real *data;   /* backend memory, one block array (the view's box) */
} nav_state_array;

/* The transported cell scalar of the solver's time schemes (the temperature): its arrays belong to
 * the model that creates it (heat), which fills this slot; the pseudo-time march (nav_ac.c), the
 * output and the checkpoint read it through the flow. T == NULL: none. */
typedef struct nav_scalar_slot {
  nav_real *T;                 /* T^n at the cells, ghosts filled */
  nav_real *rhs_T, *rhs_T_old; /* S(T^n), S(T^{n-1}) (the AB2 history) */
  nav_real *T_prev;            /* T^n kept on monitor steps (the steady-state change) */
  nav_temperature_bc tbc;      /* its ghost rules */
  double t_scale;              /* the temperature scale of the steady-state change (0: max |T|) */
  double kappa;                /* its diffusivity (the explicit time-step limit) */
  double rprt;                 /* 1 / Pr_t of its eddy diffusivity nu_t / Pr_t (0: none); the explicit time-step
                                  limit then takes kappa + max nu_t / Pr_t */
} nav_scalar_slot;

/* The flow as a model sees it. The solver owns every pointer; the grid part is fixed for the run,
 * the field pointers u and rhs change between steps (the AB2 histories rotate), so the solver
 * refreshes the view before each round of hooks: read them at each call, never keep them. */
typedef struct nav_flow_view {
  const nav_config *cfg;
  const nav_kernel_ops *ops;   /* the core kernel table */
  int dim;
  const int *n;                /* GLOBAL cells per direction [3] */
  double *const *w;            /* host cell widths of the global grid per direction, index -1..n */
  double *const *xf;           /* host face coordinates of the global grid per direction, 0..n */
  double volume;               /* of the global domain */
  const nav_decomp *dc;        /* this rank's block of the global grid */
  nav_halo *halo;              /* exchange with the neighbour ranks (NULL on one rank) */
  MPI_Comm comm;               /* reductions (MPI_COMM_NULL on one rank) */
  const nav_box *box;          /* this rank's block */
  const nav_velocity_bc *vbc;  /* the velocity's boundaries */
  const nav_scalar_bc (*pbc)[2]; /* the pressure's boundary kinds [3][2] */
  /* fields (backend memory, one block array each) */
  nav_real *u[3];              /* the velocity: u^n (rhs), u* (force, ghosts not filled), u^{n+1} (after) */
  nav_real *u_prev[3];         /* u^n with its ghosts, kept on monitor steps (s->diagnose) only */
  nav_real *rhs[3];            /* N(u^n) being assembled (rhs hooks only; else NULL) */
  nav_real *p;                 /* the pressure (ghosts filled) */
  nav_real *div;               /* work: the divergence of the last projection */
  nav_real *nut;               /* the eddy viscosity at the cells that viscosity hooks fill (NULL: constant nu) */
  nav_real *kf[3];             /* nu + nu_t at the faces of each component as the viscous operator reads them,
                                  ghosts filled, once face_viscosities was called after the viscosity hooks
                                  (NULL: no nu_t) */
  nav_scalar_slot *scalar;     /* the transported scalar slot (a model fills it in create) */
  double *max_diffusivity;     /* the largest scalar diffusivity of the explicit time-step limit: create may raise it */
  int implicit;                /* the solver's time scheme: [time] diffusion = implicit (Crank-Nicolson) */
  const struct nav_model_set *models; /* every active model (nav_models_field: another model's fields) */
  /* services of the solver, called with v->solver (NULL where the solver has none) */
  void *solver;
  /* the increment r of u_c over the last predictor of a step dt from a unit body force along c (explicit:
   * NULL, r = dt e_c; implicit: the Helmholtz response, backend memory owned by the solver) and its bulk
   * velocity (1/V) sum r dV_c */
  nav_err (*response)(void *solver, int c, double dt, const nav_real **r, double *bulk);
  /* the same response computed into r (backend memory of the block's size), not cached (implicit only) */
  nav_err (*response_into)(void *solver, int c, double dt, nav_real *r, double *bulk);
  /* the volume flux through every inflow and outflow face, outward positive (0 on other faces) */
  nav_err (*open_fluxes)(void *solver, double flux[3][2]);
  /* fills kf from the current nu_t (the one-pass predictor makes them from the cells and leaves kf stale) */
  nav_err (*face_viscosities)(void *solver);
  /* time: of u^n in rhs and force hooks, of u^{n+1} in after_projection and later hooks */
  double t;
  long step;
  double dt_old;               /* the previous step (0 before the first) */
} nav_flow_view;

/* What a hook of one step knows about it. */
typedef struct nav_step_info {
  double dt;      /* the step */
  double ca, cb;  /* the AB2 weights of N^n and N^{n-1} (cb = 0 at the first step) */
  double pdt;     /* force: the dt of the pressure gradient the predictor left out of u* (explicit: dt;
                     implicit: 0, its u* holds grad p^{n-1/2}) */
  int implicit;   /* [time] diffusion = implicit: Crank-Nicolson predictor */
  double theta;   /* implicit: the implicit weight of this step (1: backward Euler, 1/2: Crank-Nicolson) */
  int diagnose;   /* a monitor step */
  /* force hooks of a monitor step of an implicit run whose dt differs from the last (dt_old > 0), when an
   * active model asks (nav_model_ops.force_reference; else NULL): the predictor of this step at the last
   * step's dt_ref, u^n + e with (I - theta dt_ref V_diag) e = (dt_ref / dt) rhs (solvers/nav_diffusion.h,
   * nav_diffusion_reference), ghosts not filled. A force hook that changes u* (a held flow rate) does the
   * same to ref at dt_ref, in ref_work (3 block arrays, free); one that reports forces reports those of ref
   * over dt_ref: the forcing of the predictor at the new dt misses the part that its other Helmholtz
   * operator spreads from the forced faces onto the fluid faces beside them. The step itself ignores ref. */
  nav_real *const *ref;
  nav_real *const *ref_work;
  double dt_ref;
} nav_step_info;

/* When a viscosity hook runs. */
typedef enum nav_viscosity_when {
  NAV_VISCOSITY_START,   /* after create: nu_t of the initial state */
  NAV_VISCOSITY_STEP,    /* after after_projection: nu_t of the next step */
  NAV_VISCOSITY_RESTART  /* after restored: nu_t is state, only its ghosts and its max are wanted */
} nav_viscosity_when;

typedef struct nav_model nav_model;

typedef struct nav_model_ops {
  const char *name;                            /* "heat", "sst", "drive", "bodies" */
  const char *sections[NAV_MODEL_SECTIONS];    /* its case-file key sections (registered with the config
                                                  parser by its <model>_keys.c), NULL-terminated */
  const char *plots;                           /* the `navier plot` kinds of its output ("convection"), or NULL */
  int pseudo_time_diagnose;                    /* 1: the pseudo-time march calls diagnose too (nav_ac.c) */
  int force_reference;                         /* 1: its force hook reports from nav_step_info.ref (the solver
                                                  makes ref only when an active model asks) */
  /* Is the model on in this case? Not collective; no allocation. NULL: always on. */
  int (*active)(const nav_config *cfg);
  /* Set m->data. Called once by nav_flow_create in registry order after the solver's own set-up;
   * may read u^n, p, the grid; may allocate backend arrays, fill v->scalar, raise *v->max_diffusivity. */
  nav_err (*create)(nav_model *m, nav_flow_view *v);
  /* Free what create made (also after a failed create: m->data may be partial or NULL). Not collective. */
  void (*destroy)(nav_model *m, nav_flow_view *v);
  /* Step phase 1: add to v->rhs (N(u^n) at the interior faces, u^n ghosts filled) and advance the
   * model's explicit parts; may touch its own arrays, v->rhs and v->scalar; never u or p. */
  nav_err (*rhs)(nav_model *m, nav_flow_view *v, const nav_step_info *s);
  /* Step phase 6 (and after create / restored): write nu_t at the cells into v->nut (interior points;
   * the solver fills the ghosts; its max, the explicit time-step limit, rides on the solver's next
   * time-step reduction: no host wait here). */
  nav_err (*viscosity)(nav_model *m, nav_flow_view *v, nav_viscosity_when when);
  /* Step phase 3: change u* at the interior faces (its ghosts are not filled; the solver fills them
   * after the last force hook); may read p (ghosts filled, of the previous step) and set it at cells
   * whose faces are all forced, where it is only the projection's multiplier (refilling p's ghosts). */
  nav_err (*force)(nav_model *m, nav_flow_view *v, const nav_step_info *s);
  /* Step phase 5: with u^{n+1} and p (ghosts filled); touches the model's own arrays only. */
  nav_err (*after_projection)(nav_model *m, nav_flow_view *v, const nav_step_info *s);
  /* Measure the model's monitors from the current fields (monitor steps, the initial state; the
   * pseudo-time march's monitor iterations). */
  nav_err (*diagnose)(nav_model *m, nav_flow_view *v);
  /* The model's steady-state change of the last (monitor) step of size dt into *change (-1: none):
   * max |x^{n+1} - x^n| / (dt scale) over its fields; NAV_ERR_BLOWUP when they are NaN or Inf. */
  nav_err (*change)(nav_model *m, nav_flow_view *v, double dt, double *change);
  /* monitor.csv: its column names (",name" each) and the values of one row, in the same order.
   * Rank 0, not collective; the header is written after create and diagnose. */
  void (*monitor_header)(const nav_model *m, const nav_flow_view *v, FILE *out);
  void (*monitor_row)(const nav_model *m, const nav_flow_view *v, FILE *out);
  /* summary.json: its entries, each as ",\n  \"key\": value". Rank 0, not collective. */
  void (*summary)(const nav_model *m, const nav_flow_view *v, FILE *out);
  /* The model's lines of the final log (stdout). Rank 0, not collective. */
  void (*log)(const nav_model *m, const nav_flow_view *v);
  /* At the end of a run, from the final state and the global host fields h (rank 0; NULL pointers on
   * the others): a report the summary writes afterwards (forces on bodies, a channel's profile), files
   * into the output folder dir (rank 0). Collective. */
  nav_err (*report)(nav_model *m, nav_flow_view *v, const struct nav_host_fields *h, const char *dir);
  /* Its checkpoint arrays (the current pointers) into a[]; returns their count. Not collective. */
  int (*state)(nav_model *m, nav_state_array *a);
  /* Its cell-centred output fields (ghosts filled) by name ("k", "omega", "nut") into a[]; returns
   * their count. Not collective. */
  int (*fields)(const nav_model *m, const nav_flow_view *v, nav_state_array *a);
  /* Its host state for the checkpoint (io/nav_checkpoint.c): values that are the same on every rank (already
   * reduced over the ranks: running sums, counters), *count doubles at *data, owned by the model. The
   * checkpoint writes them (rank 0) and a restart overwrites them in place before restored, when the
   * checkpoint holds this model's block of the same count (else they stay as create left them). NULL or
   * *count = 0: none. Not collective. */
  void (*host_state)(nav_model *m, double **data, size_t *count);
  /* Its extra cell fields of the HDF5 snapshots (io/nav_hdf5.c writes them after the flow's own, io/nav_xdmf.c
   * lists them): the names and components (1 or 3) of at most NAV_MODEL_SNAPSHOT_MAX fields into name[],
   * ncomp[]; returns their count. Not collective. */
  int (*snapshot_fields)(const nav_model *m, const nav_flow_view *v, const char **name, int *ncomp);
  /* The values of its snapshot field i at the interior cells of this rank's block, x fastest, ncomp values
   * per cell, into out (host memory). Collective. */
  nav_err (*snapshot_values)(nav_model *m, nav_flow_view *v, int i, double *out);
  /* After a restart set the interior points of the state arrays: refill their ghosts and what
   * depends on them. */
  nav_err (*restored)(nav_model *m, nav_flow_view *v);
} nav_model_ops;

/* One active model: its hooks and its data (owned by the model). */
struct nav_model {
  const nav_model_ops *ops;
  void *data;
  int rhs_off; /* create sets 1 when its rhs hook adds nothing in this case (the solver may then fuse
                  N(u) and the AB2 update in one pass) */
};

/* The active models of a run, in registry order. */
typedef struct nav_model_set {
  nav_model m[NAV_MODELS_MAX];
  int n;
} nav_model_set;

/* The registry (nav_models.c): every model compiled in, NULL-terminated, in the order the step
 * calls them. */
extern const nav_model_ops *const nav_model_registry[];

/* The registered model called name, or NULL. Not collective. */
const nav_model_ops *nav_model_find(const char *name);
/* Fill set with the registered models active in cfg (no create). Not collective. */
void nav_models_select(const nav_config *cfg, nav_model_set *set);
/* 1 if a model of set has a viscosity hook (the solver then keeps a nu_t array). Not collective. */
int nav_models_viscous(const nav_model_set *set);
/* 1 if an active model of set asks for the reference predictor (force_reference). Not collective. */
int nav_models_force_reference(const nav_model_set *set);
/* 1 if an active model of set adds to N(u) (an rhs hook not switched off). Not collective. */
int nav_models_rhs_on(const nav_model_set *set);
/* The cell field called name of some model of set (nav_model_ops.fields), or NULL. Not collective. */
nav_real *nav_models_field(const nav_model_set *set, const nav_flow_view *v, const char *name);
/* diagnose of the one model called name (if active). */
nav_err nav_models_diagnose_one(nav_model_set *set, nav_flow_view *v, const char *name);
/* The model of set called name (its data), or NULL: for a test or a model that reads another's
 * output; the solver and the output never use it. */
void *nav_models_data(const nav_model_set *set, const char *name);

/* The max of v->nut over every rank (the nut_max of a viscous model's monitors and summary; its diagnose hook).
 * Collective. */
nav_err nav_models_nut_max(const nav_flow_view *v, double *nut_max);

/* This rank's part of the wall shear integrals: sh[2 d + s][c] = the integral of the inward normal derivative
 * of the tangential component u_c over wall face (d, s), dA (ops->face_integral, what 1 + c), on the wall
 * faces of this block that no neighbour rank holds; 0 elsewhere. One face_integral, one host wait, per
 * direction with walls. The caller sums over the ranks. */
nav_err nav_models_wall_shear(const nav_flow_view *v, double sh[6][3]);
/* The same integrals left in backend memory, without a host wait (ops->face_integral_to): sh[3 (2 d + s) + c]
 * (sh: backend memory, 18 doubles) for the wall faces of this block that no neighbour rank holds, bit for bit
 * nav_models_wall_shear's; the other entries are left alone (the caller zeroes them once: the entries written
 * are the same at every call of a run). Not collective: this rank's part, as nav_models_wall_shear's. */
nav_err nav_models_wall_shear_to(const nav_flow_view *v, double *sh);
/* |tau_w| of one wall face from its shear integrals sh[c] summed over the ranks (nav_models_wall_shear) and
 * its area: sqrt(sum_c (nu sh_c / area)^2) (nav_wall_tau, nav_point_open.h). */
double nav_models_wall_tau(const nav_flow_view *v, const double sh[3], double area);

/* A number for JSON (summary hooks), printed by fmt into buf: "null" when it is NaN or Inf (a failed
 * run), which JSON cannot write. */
const char *nav_json_real(double v, const char *fmt, char buf[32]);

/* The hooks over every model of set, in order; the first error stops the loop. */
nav_err nav_models_create(nav_model_set *set, nav_flow_view *v);
void nav_models_destroy(nav_model_set *set, nav_flow_view *v);
nav_err nav_models_rhs(nav_model_set *set, nav_flow_view *v, const nav_step_info *s);
nav_err nav_models_force(nav_model_set *set, nav_flow_view *v, const nav_step_info *s);
nav_err nav_models_after_projection(nav_model_set *set, nav_flow_view *v, const nav_step_info *s);
/* *any = 1 if some model wrote nu_t, else 0. */
nav_err nav_models_viscosity(nav_model_set *set, nav_flow_view *v, nav_viscosity_when when, int *any);
nav_err nav_models_diagnose(nav_model_set *set, nav_flow_view *v);
/* diagnose of the models with pseudo_time_diagnose (the monitor iterations of artificial compressibility). */
nav_err nav_models_diagnose_pseudo(nav_model_set *set, nav_flow_view *v);
/* *change = max(*change, every model's change) (a model's -1 leaves it). */
nav_err nav_models_change(nav_model_set *set, nav_flow_view *v, double dt, double *change);
void nav_models_monitor_header(const nav_model_set *set, const nav_flow_view *v, FILE *out);
void nav_models_monitor_row(const nav_model_set *set, const nav_flow_view *v, FILE *out);
void nav_models_summary(const nav_model_set *set, const nav_flow_view *v, FILE *out);
void nav_models_log(const nav_model_set *set, const nav_flow_view *v);
nav_err nav_models_report(nav_model_set *set, nav_flow_view *v, const struct nav_host_fields *h, const char *dir);
/* The snapshot fields of the models of set (snapshot_fields hooks), in order, at most NAV_MODEL_SNAPSHOT_MAX: name,
 * components and which model (index into set->m) and which of its fields each is; returns their count. Not
 * collective. */
int nav_models_snapshot_fields(const nav_model_set *set, const nav_flow_view *v, const char **name, int *ncomp,
                               int *model, int *index);
/* Appends the models' state arrays to a[] after the first n; returns the new count. */
int nav_models_state(nav_model_set *set, nav_state_array *a, int n);
nav_err nav_models_restored(nav_model_set *set, nav_flow_view *v);

#endif
