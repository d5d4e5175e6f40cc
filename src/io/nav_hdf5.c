/* Parallel HDF5 snapshots (see nav_hdf5.h). */
#include "io/nav_hdf5.h"

#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "grid/nav_geometry.h"
#include "grid/nav_reduce.h"
#include "io/nav_cellfields.h"

/* Host copies of the block's u and p (ghosts included) and the cell fields computed from them. */
static nav_err nav_hdf5_fetch(nav_flow *f, nav_real *u[3], nav_real **p, nav_real **T) {
  const size_t bytes = (size_t)f->box.ntot * sizeof(nav_real);
  for (int c = 0; c < f->dim; c++) {
    u[c] = malloc(bytes);
    NAV_CHECK(u[c], NAV_ERR_MEMORY, "cannot allocate the snapshot buffers");
    NAV_CALL(f->ops->to_host(u[c], f->u[c], bytes));
  }
  if (f->scalar.T) {
    *T = malloc(bytes);
    NAV_CHECK(*T, NAV_ERR_MEMORY, "cannot allocate the snapshot buffers");
    NAV_CALL(f->ops->to_host(*T, f->scalar.T, bytes));
  }
  *p = malloc(bytes);
  NAV_CHECK(*p, NAV_ERR_MEMORY, "cannot allocate the snapshot buffers");
  return f->ops->to_host(*p, f->p, bytes);
}

/* Write dataset name of the global shape of f (times ncomp) from this rank's block values v
 * (x fastest, ncomp per cell), or (coord = d >= 0) the n[d] + 1 face coordinates v, which rank 0
 * writes whole. Returns 0 or -1. Collective. */
static int nav_hdf5_dataset(hid_t file, hid_t dxpl, const nav_flow *f, const char *name, int ncomp, const double *v,
                            int coord) {
  hsize_t dims[4], count[4], start[4];
  int rank = 0;
  if (coord >= 0) {
    dims[0] = (hsize_t)f->n[coord] + 1;
    count[0] = f->dc.rank == 0 ? dims[0] : 0;
    start[0] = 0;
    rank = 1;
  } else {
    for (int d = f->dim - 1; d >= 0; d--, rank++) {
      dims[rank] = (hsize_t)f->n[d];
      count[rank] = (hsize_t)f->box.n[d];
      start[rank] = (hsize_t)f->box.g0[d];
    }
    if (ncomp > 1) {
      dims[rank] = count[rank] = (hsize_t)ncomp;
      start[rank++] = 0;
    }
  }
  int rc = -1;
  hid_t fs = H5Screate_simple(rank, dims, NULL);
  hid_t ms = H5Screate_simple(rank, count, NULL);
  hid_t ds = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, fs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (fs >= 0 && ms >= 0 && ds >= 0) {
    herr_t sel = 0;
    if (count[0] == 0) { /* coordinates: written by rank 0 alone, the others join the collective call */
      H5Sselect_none(fs);
      H5Sselect_none(ms);
    } else {
      sel = H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    }
    if (sel >= 0 && H5Dwrite(ds, H5T_NATIVE_DOUBLE, ms, fs, dxpl, v) >= 0) rc = 0;
  }
  if (ds >= 0) H5Dclose(ds);
  if (ms >= 0) H5Sclose(ms);
  if (fs >= 0) H5Sclose(fs);
  return rc;
}

static int nav_hdf5_attributes(hid_t file, const nav_flow *f) {
  hid_t sp = H5Screate(H5S_SCALAR);
  const long long step = f->step;
  hid_t at = H5Acreate2(file, "time", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = at >= 0 && H5Awrite(at, H5T_NATIVE_DOUBLE, &f->t) >= 0 ? 0 : -1;
  if (at >= 0) H5Aclose(at);
  at = H5Acreate2(file, "step", H5T_NATIVE_LLONG, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (at < 0 || H5Awrite(at, H5T_NATIVE_LLONG, &step) < 0) rc = -1;
  if (at >= 0) H5Aclose(at);
  H5Sclose(sp);
  return rc;
}

nav_err nav_hdf5_write(const char *dir, nav_flow *f) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* failures are reported here, with the file name */
  nav_real *u[3] = {NULL, NULL, NULL}, *p = NULL, *T = NULL;
  nav_err e = nav_hdf5_fetch(f, u, &p, &T);
  const nav_box *lb = &f->box;
  const size_t cells = (size_t)lb->n[0] * lb->n[1] * lb->n[2];
  double *buf = e == NAV_OK ? malloc(3 * cells * sizeof *buf) : NULL;
  if (e == NAV_OK && !buf) e = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate");
  const int code = nav_reduce_err(f->comm, (int)e);
  if (code != NAV_OK) {
    for (int c = 0; c < 3; c++)
      free(u[c]);
    free(p);
    free(T);
    free(buf);
    if (e != NAV_OK) NAV_CALL(e);
    return nav_error_set((nav_err)code, __FILE__, __LINE__, __func__, "snapshot failed on another rank");
  }
  char path[1100], tmp[1110];
  snprintf(path, sizeof path, "%s/fields_%08ld.h5", dir, f->step);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_fapl_mpio(fapl, f->dc.comm, MPI_INFO_NULL);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  hid_t file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  const char *what = file < 0 ? "cannot create" : NULL;
  if (file >= 0) {
    /* the block as a global box would see it: ghosts filled (halo, boundaries) by the last step */
    const nav_cell_input in = {f, lb, {u[0], u[1], u[2]}, p, T};
    nav_cell_field list[NAV_CELL_MAX_FIELDS];
    const int nf = nav_cell_fields(f, list);
    for (int q = 0; q < nf && !what; q++) {
      size_t m = 0;
      for (int k = 0; k < lb->n[2]; k++)
        for (int j = 0; j < lb->n[1]; j++)
          for (int i = 0; i < lb->n[0]; i++, m += (size_t)list[q].ncomp) {
            double v[3];
            list[q].value(&in, i, j, k, v);
            memcpy(buf + m, v, (size_t)list[q].ncomp * sizeof *v);
          }
      if (nav_hdf5_dataset(file, dxpl, f, list[q].name, list[q].ncomp, buf, -1)) what = "cannot write a dataset";
    }
    /* the models' fields (nav_model.h snapshot hooks) */
    const char *mname[NAV_MODEL_SNAPSHOT_MAX];
    int mcomp[NAV_MODEL_SNAPSHOT_MAX], mmodel[NAV_MODEL_SNAPSHOT_MAX], mindex[NAV_MODEL_SNAPSHOT_MAX];
    nav_flow_view *view = &f->view; /* refreshed by the caller (nav_snapshot.h) */
    const int nm = nav_models_snapshot_fields(&f->models, view, mname, mcomp, mmodel, mindex);
    for (int q = 0; q < nm && !what; q++) {
      nav_model *m = &f->models.m[mmodel[q]];
      if (m->ops->snapshot_values(m, view, mindex[q], buf) != NAV_OK)
        what = "cannot compute a model's field";
      else if (nav_hdf5_dataset(file, dxpl, f, mname[q], mcomp[q], buf, -1))
        what = "cannot write a dataset";
    }
    static const char *const axis[3] = {"x", "y", "z"};
    for (int d = 0; d < f->dim && !what; d++)
      if (nav_hdf5_dataset(file, dxpl, f, axis[d], 1, f->xf[d], d)) what = "cannot write the coordinates";
    if (!what && nav_hdf5_attributes(file, f)) what = "cannot write the attributes";
    if (H5Fclose(file) < 0 && !what) what = "write failed (disk full?)";
  }
  H5Pclose(fapl);
  H5Pclose(dxpl);
  for (int c = 0; c < 3; c++)
    free(u[c]);
  free(p);
  free(T);
  free(buf);
  int failed = what != NULL, any = failed;
  if (f->comm != MPI_COMM_NULL) MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, f->comm);
  if (any) {
    if (f->dc.rank == 0) remove(tmp);
    NAV_CHECK(0, NAV_ERR_IO, "%s: %s", tmp, what ? what : "failed on another rank");
  }
  e = NAV_OK;
  if (f->dc.rank == 0) {
    if (rename(tmp, path) != 0)
      e = nav_error_set(NAV_ERR_IO, __FILE__, __LINE__, __func__, "%s: cannot rename to %s: %s", tmp, path,
                        strerror(errno));
    else
      e = nav_xdmf_write(dir, f);
  }
  const int agreed = nav_reduce_err(f->comm, (int)e);
  if (agreed != NAV_OK && e == NAV_OK)
    return nav_error_set((nav_err)agreed, __FILE__, __LINE__, __func__, "snapshot failed on rank 0");
  NAV_CALL(e);
  return NAV_OK;
}
