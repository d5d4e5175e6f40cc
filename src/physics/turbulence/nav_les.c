/* LES eddy-viscosity closures, a model of physics/nav_model.h (see nav_les.h). */
#include "physics/turbulence/nav_les.h"

#include <stdlib.h>
#include <string.h>

#include "backend/nav_les_kernels.h"
#include "backend/nav_monitor_kernels.h"
#include "core/nav_error.h"
#include "grid/nav_reduce.h"

typedef struct nav_les {
  const nav_les_kernels *k; /* the model's kernel table for the flow's backend */
  nav_les_params a;         /* closure, constant, nu, u_tau of each wall face (the host's) */
  nav_real *wd, *wi;        /* the walls of each direction (nav_les_nearest_wall), one allocation; NULL: no damping */
  double area[3];           /* the area of a face of each direction (0 beyond dim) */
  /* u_tau on the device (one rank on a backend with the u_tau kernel: no host wait), one allocation of backend
   * memory: the wall shear integrals (nav_models_wall_shear_to, 18 doubles, zeroed) and u_tau of each wall face
   * (6 values, read by nut_cells); NULL: u_tau on the host, in a */
  double *sh;
  nav_real *u_tau;
  int walls; /* the case has wall faces */
  double nut_max, dissipation_sgs;
} nav_les;

/* The closure of [turbulence] model, or -1. */
static int nav_les_kind_of(const nav_config *cfg) {
  static const char *const names[] = {"smagorinsky", "wale", "vreman"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(cfg->turbulence_model, names[i])) return i;
  return -1;
}

static int nav_les_active(const nav_config *cfg) { return nav_les_kind_of(cfg) >= 0; }

/* The walls of each direction of the block: for cell i along d the distance of its centre to the nearer wall face
 * of d and that face 2 d + s (-1: none), n[0] + ... entries (nav_les_nearest_wall; host loop, once). */
static nav_err nav_les_walls(const nav_flow_view *v, nav_les *L) {
  const nav_box *b = v->box;
  const size_t m = (size_t)b->n[0] + b->n[1] + b->n[2];
  nav_real *host = malloc(2 * m * sizeof *host);
  NAV_CHECK(host, NAV_ERR_MEMORY, "cannot allocate the wall distance");
  nav_real *dist = host, *face = host + m;
  size_t o = 0;
  for (int d = 0; d < 3; d++) {
    for (int i = 0; i < b->n[d]; i++) {
      dist[o + i] = 0;
      face[o + i] = -1;
      if (d >= v->dim) continue;
      const int g = i + b->g0[d];
      const double x = v->xf[d][g] + 0.5 * v->w[d][g];
      for (int s = 0; s < 2; s++) {
        if (v->cfg->bc[d][s] != NAV_BC_WALL) continue;
        const double y = s ? v->xf[d][v->n[d]] - x : x - v->xf[d][0];
        if (face[o + i] < 0 || y < dist[o + i]) {
          dist[o + i] = (nav_real)y;
          face[o + i] = (nav_real)(2 * d + s);
        }
      }
    }
    o += (size_t)b->n[d];
  }
  nav_err e = v->ops->alloc((void **)&L->wd, 2 * m * sizeof *host);
  if (!e) e = v->ops->from_host(L->wd, host, 2 * m * sizeof *host);
  if (!e) L->wi = L->wd + m;
  free(host);
  return e;
}

/* u_tau of every wall face from the mean resolved wall shear nu du_t/dn over it (one reduction): on the device
 * (L->u_tau: one rank, the sums stay in backend memory, no host wait) or on the host (a sum over the ranks); on
 * one rank both give the same bits. */
static nav_err nav_les_u_tau(const nav_flow_view *v, nav_les *L) {
  if (L->u_tau) {
    NAV_CALL(nav_models_wall_shear_to(v, L->sh));
    return L->k->u_tau(v->dim, L->sh, L->area, v->cfg->nu, L->u_tau);
  }
  double sh[6][3];
  NAV_CALL(nav_models_wall_shear(v, sh));
  nav_reduce_sum(v->comm, &sh[0][0], 6 * 3);
  for (int f = 0; f < 6; f++)
    L->a.u_tau[f] = nav_les_face_u_tau(v->dim, f, sh[f], v->cfg->nu, L->area[f / 2]);
  return NAV_OK;
}

/* The device's u_tau (L->sh, L->u_tau) where it applies: one rank (every wall face of the block, no sum over the
 * ranks) on a backend with the u_tau kernel. */
static nav_err nav_les_u_tau_device(const nav_flow_view *v, nav_les *L) {
  if (v->comm != MPI_COMM_NULL || !L->k->u_tau) return NAV_OK;
  const size_t bytes = 18 * sizeof(double) + 6 * sizeof(nav_real);
  void *zero = calloc(1, bytes), *mem = NULL;
  NAV_CHECK(zero, NAV_ERR_MEMORY, "cannot allocate the wall shear");
  nav_err e = v->ops->alloc(&mem, bytes);
  if (!e) e = v->ops->from_host(mem, zero, bytes);
  free(zero);
  if (e) {
    if (mem) v->ops->free(mem);
    return e;
  }
  L->sh = mem;
  L->u_tau = (nav_real *)(L->sh + 18);
  return NAV_OK;
}

static nav_err nav_les_create(nav_model *m, nav_flow_view *v) {
  const nav_config *cfg = v->cfg;
  NAV_CHECK(v->nut, NAV_ERR_INTERNAL, "nav_les_create: no eddy viscosity to fill");
  m->data = calloc(1, sizeof(nav_les));
  NAV_CHECK(m->data, NAV_ERR_MEMORY, "cannot allocate the LES model");
  nav_les *L = m->data;
  L->k = nav_les_kernels_get(v->ops);
  NAV_CHECK(L->k, NAV_ERR_INTERNAL, "no LES kernels for backend %s", v->ops->name);
  L->a.kind = nav_les_kind_of(cfg);
  L->a.c = (nav_real)(L->a.kind == NAV_LES_SMAGORINSKY ? cfg->smagorinsky_cs
                      : L->a.kind == NAV_LES_WALE      ? cfg->wale_cw
                                                       : cfg->vreman_c);
  L->a.nu = (nav_real)cfg->nu;
  for (int d = 0; d < v->dim; d++)
    for (int s = 0; s < 2; s++) L->walls |= cfg->bc[d][s] == NAV_BC_WALL;
  if (L->a.kind == NAV_LES_SMAGORINSKY && L->walls) {
    for (int d = 0; d < v->dim; d++)
      L->area[d] = v->volume / (v->xf[d][v->n[d]] - v->xf[d][0]);
    NAV_CALL(nav_les_walls(v, L));
    NAV_CALL(nav_les_u_tau_device(v, L));
  }
  return NAV_OK;
}

static void nav_les_destroy(nav_model *m, nav_flow_view *v) {
  nav_les *L = m->data;
  if (!L) return;
  if (L->wd) v->ops->free(L->wd); /* wi lies in the same allocation */
  if (L->sh) v->ops->free(L->sh); /* and u_tau in that of sh */
  free(L);
  m->data = NULL;
}

/* nu_t from u (every call: nu_t is a function of u, also after a restart). */
static nav_err nav_les_viscosity(nav_model *m, nav_flow_view *v, nav_viscosity_when when) {
  (void)when;
  nav_les *L = m->data;
  if (L->wd) NAV_CALL(nav_les_u_tau(v, L));
  return L->k->nut_cells(v->box, v->u, L->wd, L->wi, &L->a, L->u_tau, v->nut);
}

/* The modelled dissipation of the current u and nu_t (the face viscosities of the last viscosity call): the energy
 * the stress operator removes beyond the molecular part (nav_point_monitor.h); the max of nu_t over the ranks. */
static nav_err nav_les_diagnose(nav_model *m, nav_flow_view *v) {
  nav_les *L = m->data;
  double sum;
  const int bnd = nav_boundary_sides(v->box, v->n, v->vbc);
  NAV_CALL(v->face_viscosities(v->solver));
  NAV_CALL(nav_monitor_kernels_of(v->ops)->eddy_sum(v->box, v->u, v->kf, (nav_real)v->cfg->nu, bnd, &sum));
  nav_reduce_sum(v->comm, &sum, 1);
  L->dissipation_sgs = sum / v->volume;
  return nav_models_nut_max(v, &L->nut_max);
}

static void nav_les_monitor_header(const nav_model *m, const nav_flow_view *v, FILE *out) {
  (void)m;
  (void)v;
  fprintf(out, ",dissipation_sgs,nut_max");
}

static void nav_les_monitor_row(const nav_model *m, const nav_flow_view *v, FILE *out) {
  (void)v;
  const nav_les *L = m->data;
  fprintf(out, ",%.10e,%.6e", L->dissipation_sgs, L->nut_max);
}

static void nav_les_summary(const nav_model *m, const nav_flow_view *v, FILE *out) {
  const nav_les *L = m->data;
  char a[3][32];
  fprintf(out, ",\n  \"les\": {\"model\": \"%s\", \"constant\": %s, \"nut_max\": %s, \"dissipation_sgs\": %s}",
          v->cfg->turbulence_model, nav_json_real(L->a.c, "%.6g", a[0]), nav_json_real(L->nut_max, "%.16e", a[1]),
          nav_json_real(L->dissipation_sgs, "%.16e", a[2]));
}

static int nav_les_fields(const nav_model *m, const nav_flow_view *v, nav_state_array *a) {
  (void)m;
  a[0] = (nav_state_array){"nut", v->nut};
  return 1;
}

const nav_model_ops nav_model_les = {
    .name = "les",
    .sections = {"turbulence", NULL},
    .plots = "channel",
    .active = nav_les_active,
    .create = nav_les_create,
    .destroy = nav_les_destroy,
    .viscosity = nav_les_viscosity,
    .diagnose = nav_les_diagnose,
    .monitor_header = nav_les_monitor_header,
    .monitor_row = nav_les_monitor_row,
    .summary = nav_les_summary,
    .fields = nav_les_fields,
};
