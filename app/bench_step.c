/* navier bench step: the time of a full step and the bandwidth of each kernel in it.
 *
 *   navier bench step --case FILE [--set section.key=value ...] [--steps K] [--json]
 *
 * 1. The step: 3 warm-up steps (the first pressure solve starts from zero), then K steps timed
 *    with the backend synchronised at both ends; prints seconds per step and nanoseconds per cell
 *    per step (wall / (global cells K)), and the mean pressure iterations per step.
 * 2. The copy bandwidth of the backend, measured: ops->copy of one field-sized array into another
 *    (cudaMemcpy device to device on the GPU, memcpy on the CPU), 2 x bytes moved per copy.
 * 3. Each main kernel of the step on rank 0's block (the flow's own fields, after the steps),
 *    repeated until about 0.1 s has passed, against the bytes it must move at the least. Counted
 *    per point of the block (ghosts included, as the arrays are), D components in D dimensions:
 *      momentum_rhs  read u (D), write N(u) (D)                           2D arrays
 *      advance       read u, N, N_old, write u (D each)                   4D
 *      momentum_advance  read u, N_old, write N, u* (D each; the fused predictor)   4D
 *      divergence    read u (D), write div                                D + 1
 *      correct       read u (D) and p, write u (D)                        2D + 1
 *      relax (1 colour)  read and write x, read rhs and the inverse diagonal: 4 (the colours
 *                    interleave within every cache line, so whole arrays move)
 *      relax_line x/y (1 colour of the zebra lines of level 0, when it has lines along x/y)
 *                    read x (the other colour's lines are the neighbours), read rhs and write x on the
 *                    colour's lines: 2 along x (whole rows), 3 along y (the colours interleave within
 *                    every cache line)
 *      residual      read x and rhs, write r                              3
 *      restrict      read the fine residual, write the coarse right-hand side   1 + 1/2^D
 *      prolong       read the coarse correction, read and write the fine x      2 + 1/2^D
 *      pack/unpack   one face plane of p: read it and write the buffer (and back)   2 planes
 *    with an eddy viscosity filled by a model (an LES closure):
 *      nut (model)   the models' viscosity hooks: read u (D), write nu_t              D + 1
 *      face_viscosity  read nu_t, write nu + nu_t at the faces of each component (D)  D + 1
 *      viscosity_changed  what the step runs after the hooks (nav_diffusion_viscosity_changed): the ghosts of
 *                    nu_t (read and write them), and unless the predictor makes the face viscosities from the
 *                    cells, face_viscosity and the ghosts of its D arrays
 *      advance_stress  the one-pass predictor in stress form as the step runs it: momentum_advance's 4D
 *                    and the face viscosities (D), or nu_t where it makes them from the cells (1)   5D or 4D + 1
 *    bandwidth = bytes / time; "% copy" = against step 2.
 * Under mpirun every rank runs the steps; rank 0 prints. Collective. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/nav_bench.h"
#include "backend/nav_mg_kernels.h"
#include "core/nav_error.h"
#include "core/nav_timer.h"
#include "solvers/nav_flow.h"
#include "solvers/poisson/poisson_impl.h"

typedef struct nav_bench_kernel {
  const char *name;
  double bytes; /* per call, at the least */
  double seconds; /* per call */
} nav_bench_kernel;

/* One call of kernel k of the list below on the flow f (levels l0, l1 of its multigrid). */
typedef nav_err (*nav_bench_call)(nav_flow *f, nav_level *l0, nav_level *l1);

static nav_err nav_k_momentum(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  return f->ops->momentum_rhs(&f->box, f->u, (nav_real)f->cfg->nu, f->rhs);
}
static nav_err nav_k_advance(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  return f->ops->advance(&f->box, f->u, f->rhs, f->rhs_old, 0, 0); /* u += 0: the same traffic */
}
static nav_err nav_k_momentum_advance(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  /* c != 0: rhs_old read as in every AB2 step (rhs_old = u + rhs_old here) */
  return f->ops->momentum_advance(&f->box, f->u, (nav_real)f->cfg->nu, 0, 1, f->rhs, f->rhs_old);
}
static nav_err nav_k_divergence(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  return f->ops->divergence(&f->box, f->u, 1, f->div, NULL, NULL);
}
static nav_err nav_k_correct(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  return f->ops->correct(&f->box, f->u, f->p, 0);
}
static nav_err nav_k_relax(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l1;
  return f->ops->relax_colour(&l0->box, l0->x, l0->b, l0->inv_diag, 0, 1);
}
/* One colour of the zebra line relaxation of level 0 along x or y (mg_line.c; lines on one rank). */
static nav_err nav_k_line(nav_level *l0, int d) {
  return nav_mg_kernels_of(l0->ops)->relax_line(&l0->box, l0->x, l0->b, l0->lw, l0->r, d, 0, l0->line_kind[d], 1);
}
static nav_err nav_k_line_x(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)f, (void)l1;
  return nav_k_line(l0, 0);
}
static nav_err nav_k_line_y(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)f, (void)l1;
  return nav_k_line(l0, 1);
}
/* 1 if level 0 relaxes lines along d that lie on this rank alone. */
static int nav_bench_has_lines(const nav_level *l0, int d) {
  for (int q = 0; q < l0->nline; q++)
    if (l0->line_dir[q] == d && !l0->split[d]) return 1;
  return 0;
}
static nav_err nav_k_residual(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l1;
  return f->ops->residual(&l0->box, l0->x, l0->b, l0->r, NULL);
}
static nav_err nav_k_restrict(nav_flow *f, nav_level *l0, nav_level *l1) {
  return f->ops->restrict_residual(&l0->box, l0->r, &l1->box, l1->b);
}
static nav_err nav_k_prolong(nav_flow *f, nav_level *l0, nav_level *l1) {
  return f->ops->prolong_add(&l1->box, l1->x, &l0->box, l0->x);
}
static nav_err nav_k_ibm(nav_flow *f, nav_level *l0, nav_level *l1) { /* the body forcing, with its pressure term */
  (void)l0, (void)l1;
  const nav_step_info si = {.dt = 1, .pdt = 1};
  for (int i = 0; i < f->models.n; i++) /* the force hook of the model "bodies" (physics/bodies/nav_body.h) */
    if (!strcmp(f->models.m[i].ops->name, "bodies"))
      return f->models.m[i].ops->force(&f->models.m[i], nav_flow_view_sync(f), &si);
  return NAV_OK;
}
/* The eddy viscosity of the step (f->diff with a model's nu_t, nav_flow.c: the hooks after the projection, then
 * the face viscosities; the one-pass predictor with the stress-form term). */
static nav_err nav_k_nut(nav_flow *f, nav_level *l0, nav_level *l1) { /* the models' viscosity hooks (nu_t) */
  (void)l0, (void)l1;
  for (int i = 0; i < f->models.n; i++)
    if (f->models.m[i].ops->viscosity)
      NAV_CALL(f->models.m[i].ops->viscosity(&f->models.m[i], nav_flow_view_sync(f), NAV_VISCOSITY_STEP));
  return NAV_OK;
}
static nav_err nav_k_face_viscosity(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l0, (void)l1;
  return f->diff->k->face_viscosity(&f->box, (nav_real)f->cfg->nu, f->diff->nut, f->diff->kf);
}
static nav_err nav_k_viscosity_changed(nav_flow *f, nav_level *l0, nav_level *l1) { /* after the hooks */
  (void)l0, (void)l1;
  return nav_diffusion_viscosity_changed(f);
}
static nav_err nav_k_advance_stress(nav_flow *f, nav_level *l0, nav_level *l1) { /* as the step calls it */
  (void)l0, (void)l1;
  return nav_diffusion_advance_stress(f, 0, 1);
}
static nav_err nav_k_pack(nav_flow *f, nav_level *l0, nav_level *l1) {
  (void)l1;
  const int d = f->dim - 1; /* the slowest direction: a plane of contiguous rows */
  NAV_CALL(f->ops->pack_face(&l0->box, l0->x, d, 1, l0->box.n[d] - 1, l0->r));
  return f->ops->unpack_face(&l0->box, l0->x, d, 1, l0->box.n[d], l0->r);
}

/* Seconds per call of fn, repeated until about 0.1 s has passed (at least 3 calls). */
static nav_err nav_bench_time(nav_flow *f, nav_level *l0, nav_level *l1, nav_bench_call fn, double *seconds) {
  NAV_CALL(fn(f, l0, l1)); /* warm: first-touch, module loading */
  NAV_CALL(f->ops->sync());
  int calls = 0;
  const double t0 = nav_wtime();
  double t = t0;
  while (calls < 3 || t - t0 < 0.1) {
    NAV_CALL(fn(f, l0, l1));
    calls++;
    if (calls % 4 == 0 || calls < 3) {
      NAV_CALL(f->ops->sync());
      t = nav_wtime();
    }
  }
  NAV_CALL(f->ops->sync());
  *seconds = (nav_wtime() - t0) / calls;
  return NAV_OK;
}

/* The copy bandwidth of the backend: one field-sized array into another, bytes/s. */
static nav_err nav_bench_copy(nav_flow *f, double *bandwidth) {
  const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
  int calls = 0;
  NAV_CALL(f->ops->copy(f->u_prev[0], f->div, bytes));
  NAV_CALL(f->ops->sync());
  const double t0 = nav_wtime();
  while (calls < 3 || nav_wtime() - t0 < 0.1) {
    for (int i = 0; i < 4; i++) NAV_CALL(f->ops->copy(f->u_prev[0], f->div, bytes));
    NAV_CALL(f->ops->sync());
    calls += 4;
  }
  *bandwidth = 2.0 * (double)bytes * calls / (nav_wtime() - t0);
  return NAV_OK;
}

static nav_err nav_bench_step_run(nav_flow *f, int steps, int json) {
  const nav_kernel_ops *ops = f->ops;
  const double cells = (double)f->n[0] * f->n[1] * (f->dim == 3 ? f->n[2] : 1);
  double dt, cfl;
  for (int i = 0; i < 3; i++) {
    NAV_CALL(nav_flow_dt(f, &dt, &cfl));
    NAV_CALL(nav_flow_step(f, dt, 0));
  }
  long iterations = 0;
  NAV_CALL(ops->sync());
  if (f->comm != MPI_COMM_NULL) MPI_Barrier(f->comm);
  const double t0 = nav_wtime();
  for (int i = 0; i < steps; i++) {
    NAV_CALL(nav_flow_dt(f, &dt, &cfl));
    NAV_CALL(nav_flow_step(f, dt, 0));
    iterations += f->p_iterations;
  }
  NAV_CALL(ops->sync());
  if (f->comm != MPI_COMM_NULL) MPI_Barrier(f->comm);
  const double step_s = (nav_wtime() - t0) / steps;

  /* kernels on rank 0's block; the other ranks wait at the barrier below */
  nav_level *l0 = &f->poisson->lev[0];
  nav_level *l1 = f->poisson->nlev > 1 && f->poisson->gather > 1 ? &f->poisson->lev[1] : NULL;
  if (l1 && l1->ops != ops) l1 = NULL; /* a coarse level on the CPU: no device transfer to time */
  /* the mixed-precision multigrid (mg.c): its cycles see level 0 with float arrays (RM bytes per value) */
  nav_level lo0;
  nav_level *m0 = l0;
  if (f->poisson->lo) {
    lo0 = *l0;
    lo0.box.lo = 1;
    lo0.x = f->poisson->lo0[0];
    lo0.b = f->poisson->lo0[1];
    lo0.r = f->poisson->lo0[2];
    m0 = &lo0;
  }
  const double pts = (double)f->box.ntot, R = sizeof(nav_real), D = f->dim;
  const double RM = f->poisson->lo ? sizeof(float) : R;
  const int dp = f->dim - 1;
  const double plane = (double)f->box.ntot / (f->box.n[dp] + 2);
  int ends; /* the predictor makes the face viscosities from the cells (nav_diffusion_cells) */
  const int from_cells = nav_diffusion_cells(f, &ends);
  /* the ghost points of one array */
  const double ghost = pts - (double)f->box.n[0] * f->box.n[1] * (f->dim == 3 ? f->box.n[2] : 1);
  struct {
    const char *name;
    nav_bench_call fn;
    double bytes;
    int needs; /* 0: the flow's arrays; 1: the multigrid's level 0; 2: and level 1; 3: a body; 4, 5: level 0
                  relaxed by lines along x, y; 6: an eddy viscosity filled by a model */
  } list[] = {{"momentum_rhs", nav_k_momentum, 2 * D * pts * R, 0},
              {"advance", nav_k_advance, 4 * D * pts * R, 0},
              {"momentum_advance", nav_k_momentum_advance, 4 * D * pts * R, 0},
              {"divergence", nav_k_divergence, (D + 1) * pts * R, 0},
              {"correct", nav_k_correct, (2 * D + 1) * pts * R, 0},
              {"relax_colour", nav_k_relax, 4 * pts * RM, 1},
              {"relax_line x", nav_k_line_x, 2 * pts * R, 4},
              {"relax_line y", nav_k_line_y, 3 * pts * R, 5},
              {"residual", nav_k_residual, 3 * pts * RM, 1},
              {"restrict", nav_k_restrict, (1 + pow(0.5, D)) * pts * RM, 2},
              {"prolong_add", nav_k_prolong, (2 + pow(0.5, D)) * pts * RM, 2},
              {"pack+unpack", nav_k_pack, 4 * plane * R, 0},
              {"ibm_force", nav_k_ibm, 3 * D * pts * R + pts * R, 3},
              {"nut (model)", nav_k_nut, (D + 1) * pts * R, 6},
              {"face_viscosity", nav_k_face_viscosity, (D + 1) * pts * R, 6},
              {"viscosity_changed", nav_k_viscosity_changed,
               (from_cells ? 0 : (D + 1) * pts * R) + 2 * (from_cells ? 1 : D + 1) * ghost * R, 6},
              {"advance_stress", nav_k_advance_stress, (from_cells ? 4 * D + 1 : 5 * D) * pts * R, 6}};
  const int nk = (int)(sizeof list / sizeof list[0]);
  nav_bench_kernel k[sizeof list / sizeof list[0]];
  double copy_bw = 0;
  nav_err e = NAV_OK;
  if (f->dc.rank == 0) {
    e = nav_bench_copy(f, &copy_bw);
    for (int i = 0; i < nk && e == NAV_OK; i++) {
      k[i].name = list[i].name;
      k[i].bytes = list[i].bytes;
      k[i].seconds = -1;
      /* the FFT solver has no multigrid levels to smooth on (its level 0 keeps no inverse diagonal) */
      if (list[i].needs == 3 && !nav_models_data(&f->models, "bodies")) continue; /* no immersed body */
      if (list[i].needs == 6) {
        if (nav_models_viscous(&f->models)) e = nav_bench_time(f, l0, l1, list[i].fn, &k[i].seconds);
        continue;
      }
      if (list[i].needs && list[i].needs < 3 && f->poisson->impl == &nav_psolver_fft) continue;
      if (list[i].needs >= 4) {
        if (f->poisson->impl != &nav_psolver_fft && nav_bench_has_lines(l0, list[i].needs - 4))
          e = nav_bench_time(f, l0, l1, list[i].fn, &k[i].seconds);
        continue;
      }
      if (list[i].needs < 2 || l1) e = nav_bench_time(f, list[i].needs ? m0 : l0, l1, list[i].fn, &k[i].seconds);
    }
  }
  const int code = nav_reduce_err(f->comm, (int)e);
  NAV_CALL(e);
  NAV_CHECK(code == NAV_OK, (nav_err)code, "the kernel timings failed on rank 0");
  if (f->dc.rank != 0) return NAV_OK;
  const double ns_cell = 1e9 * step_s / cells, its = (double)iterations / steps;
  if (json) {
    printf("{\"case\": \"%s\", \"backend\": \"%s\", \"ranks\": %d, \"cells\": %.0f, \"steps\": %d, \"step_s\": %.6e, "
           "\"ns_per_cell_step\": %.4f, \"p_iterations_per_step\": %.2f, \"copy_GBps\": %.1f, \"kernels\": {",
           f->cfg->name, ops->name, f->dc.size, cells, steps, step_s, ns_cell, its, copy_bw / 1e9);
    for (int i = 0, first = 1; i < nk; i++) {
      if (k[i].seconds < 0) continue;
      printf("%s\"%s\": {\"s\": %.4e, \"bytes\": %.0f, \"GBps\": %.1f}", first ? "" : ", ", k[i].name, k[i].seconds,
             k[i].bytes, k[i].bytes / k[i].seconds / 1e9);
      first = 0;
    }
    printf("}}\n");
    return NAV_OK;
  }
  printf("bench step: case %s, %dD %dx%d%s%.0d cells, backend %s, %d rank(s), block of rank 0 %dx%dx%d\n",
         f->cfg->name, f->dim, f->n[0], f->n[1], f->dim == 3 ? "x" : "", f->dim == 3 ? f->n[2] : 0, ops->name,
         f->dc.size, f->box.n[0], f->box.n[1], f->box.n[2]);
  printf("step: %.4f ms, %.3f ns per cell per step (%d steps after 3 warm-up), %.2f pressure iterations per step\n",
         1e3 * step_s, ns_cell, steps, its);
  printf("copy bandwidth (measured, %s copy of %.1f MB): %.1f GB/s\n", ops->name, pts * R / 1e6, copy_bw / 1e9);
  printf("  %-13s %12s %12s %10s %8s\n", "kernel", "MB/call", "us/call", "GB/s", "% copy");
  for (int i = 0; i < nk; i++) {
    if (k[i].seconds < 0 && list[i].needs == 3) {
      printf("  %-13s %12s (not timed: no immersed body)\n", k[i].name, "-");
      continue;
    }
    if (k[i].seconds < 0 && list[i].needs == 6) {
      printf("  %-13s %12s (not timed: no model fills an eddy viscosity)\n", k[i].name, "-");
      continue;
    }
    if (k[i].seconds < 0 && list[i].needs >= 4) {
      printf("  %-13s %12s (not timed: level 0 has no lines along %c on one rank)\n", k[i].name, "-",
             "xy"[list[i].needs - 4]);
      continue;
    }
    if (k[i].seconds < 0) {
      printf("  %-13s %12s (not timed: the pressure solver is not a multigrid here, or it has no second level on this backend)\n", k[i].name, "-");
      continue;
    }
    const double bw = k[i].bytes / k[i].seconds;
    printf("  %-13s %12.2f %12.2f %10.1f %7.1f%%\n", k[i].name, k[i].bytes / 1e6, 1e6 * k[i].seconds, bw / 1e9,
           100 * bw / copy_bw);
  }
  return NAV_OK;
}

nav_err nav_bench_step(const nav_config *cfg, const nav_kernel_ops *ops, int steps, int json) {
  nav_flow f;
  nav_err e = nav_flow_create(cfg, ops, &f);
  if (e == NAV_OK) e = nav_bench_step_run(&f, steps, json);
  nav_flow_destroy(&f);
  return e;
}
