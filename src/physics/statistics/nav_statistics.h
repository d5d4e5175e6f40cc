/* DNS statistics ([statistics] enabled = true): time averages of the velocity, pressure and temperature,
 * the six Reynolds stresses and the r.m.s. values.
 *
 * Sampling (the after_projection hook, with u^{n+1}, p and T of step n+1 at t^{n+1}): every step with
 * t^{n+1} >= start_time and (n+1) mod every = 0 is one sample of equal weight. The quantities of a sample
 * are formed at the cell centres (backend/common/nav_point_statistics.h: the staggered velocity
 * interpolated to the centre, the products of the centre values): q = U, V, W, P, T, UU, VV, WW, UV, UW,
 * VW, PP, TT, and with an eddy viscosity (v->nut: a turbulence model, [physics] nu_t) NUT = nu_t / nu at the
 * cell (profiles only; the nu_t of the sample is the one the last step used: the viscosity hooks renew it
 * from u^{n+1} after the sample, so it lags u by one step).
 *
 * Profiles (the wall-normal direction e of statistics_keys.h: walls on both faces of e, every other
 * direction periodic, a channel): each sample sums q dA over every plane of constant index along e on
 * the device (nav_statistics_ops.planes: a fixed order per plane), copies the NAV_STAT_Q n_e(local)
 * plane sums to the host once, places them at their global index and reduces them over the ranks with
 * one MPI_Allreduce of doubles; the result is added to the HOST running sums S[q][j] in a fixed order.
 * The sums, the sample count and the window (first and last sample time) are the model's host state
 * in the checkpoint (nav_model.h host_state): a restart continues them exactly, so a restarted average
 * equals the uninterrupted one bit for bit (the same rank count and decomposition: the reduction order
 * is that of the ranks' blocks; another decomposition agrees to round-off).
 * At the end of a run (the report hook), with N samples and A the area of a plane:
 *   <q>_j = S[q][j] / (N A),  <a'b'>_j = <ab>_j - <a>_j <b>_j,  rms a = sqrt(<a'a'>);
 *   tau_w of each wall = nu |<U_s>_first cell - U_s,wall| / (d1) (d1 the wall to the first centre,
 *   U_s the streamwise component: forcing_direction with a forcing, else the first periodic direction),
 *   u_tau = sqrt(mean tau_w of the two walls), Re_tau = u_tau h / nu (h half the width), U_b = the mean
 *   over e of <U_s> (weighted by the widths), C_f = 2 tau_w / U_b^2 = 2 (u_tau / U_b)^2, U_b+ = U_b / u_tau.
 * Output (rank 0): DIR/statistics.csv, the two halves folded about the centre (the mean of cell j and
 * cell n - 1 - j; the wall-normal shear stresses uv, vw change sign with the wall's normal and are
 * folded as (uv_j - uv_{n-1-j}) / 2; an odd middle cell once) in wall units: y, y_plus, U_plus,
 * uu_plus, vv_plus, ww_plus, uv_plus (u streamwise, v wall-normal, w spanwise: the names of the
 * reference files), uw_plus, vw_plus, u_rms_plus, v_rms_plus, w_rms_plus, p_rms_plus (pressure /
 * u_tau^2), and with a temperature T_mean, T_rms, with an eddy viscosity nut_over_nu (<nu_t / nu>, even);
 * DIR/statistics_profile.csv: every cell along e unfolded in the flow's own components and units (y, then
 * <U>, <V>, <W>, <P>, <T>, <u'u'>, <v'v'>, <w'w'>, <u'v'>, <u'w'>, <v'w'>, <p'p'>, <T'T'>, and with an eddy
 * viscosity nut_over_nu); summary.json "statistics".
 * The host state holds nq = NAV_STAT_Q quantities with an eddy viscosity, NAV_STAT_NUT without (NUT is the
 * last quantity, so a checkpoint of a flow without one keeps the layout and size of the 13 before it; a
 * checkpoint of a flow with one from before nu_t / nu was kept fails the checkpoint's size check).
 *
 * Fields (any other flow: no direction qualifies): the running sums at every cell (backend arrays,
 * nav_statistics_ops.accumulate) are state arrays of the checkpoint (stat_*), and the snapshots hold
 * mean_velocity, mean_pressure, rms_velocity (and mean_temperature, rms_temperature) of the samples so
 * far (nav_model.h snapshot hook).
 *
 * A model of physics/nav_model.h ("statistics", key section [statistics]; active when enabled = true):
 * create, destroy, after_projection, summary, log, report, state (fields), host_state (sums and window),
 * snapshot (fields). */
#ifndef NAV_STATISTICS_H
#define NAV_STATISTICS_H

#include "backend/nav_statistics_kernels.h"
#include "physics/nav_model.h"

/* The host state: the window, then the profile sums S[q][j] (q-major, q < nq) when e >= 0. */
enum { NAV_STAT_SAMPLES, NAV_STAT_T_FIRST, NAV_STAT_T_LAST, NAV_STAT_HEAD };

typedef struct nav_statistics {
  const nav_statistics_ops *k;
  int e;               /* the profile direction, or -1 (fields) */
  int ne;              /* global cells along e */
  int nq;              /* profiles: the quantities kept, NAV_STAT_Q with an eddy viscosity, else NAV_STAT_NUT */
  int streamwise;      /* the streamwise component (profiles) */
  double area;         /* of a plane across e */
  double *dev;         /* backend memory: NAV_STAT_Q local planes of one sample */
  double *host;        /* host: the same, copied back */
  double *plane;       /* host: NAV_STAT_Q ne global plane sums of one sample (reduced over the ranks) */
  double *state;       /* host state: NAV_STAT_HEAD values, then NAV_STAT_Q ne sums (profiles) */
  size_t nstate;
  nav_real *sum[NAV_STAT_Q]; /* fields: running sums at the cells (backend memory) */
  nav_real *out;       /* fields: work array of a snapshot value (backend memory) */
  /* the report's results (profiles) */
  int done;
  double tau_w[2], u_tau, re_tau, cf, ub, ub_plus;
} nav_statistics;

/* The model ([statistics] enabled = true). */
extern const nav_model_ops nav_model_statistics;

/* The profiles of the report (nav_statistics_report.c): the results into s, the csv files into dir
 * (rank 0). Not collective (every rank holds the same sums). */
nav_err nav_statistics_profiles(nav_statistics *s, const nav_flow_view *v, const char *dir);

#endif
