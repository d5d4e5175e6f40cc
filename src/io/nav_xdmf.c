/* DIR/fields.xmf: the XDMF description of the HDF5 snapshots (see nav_hdf5.h).
 *
 * XDMF 3: a temporal collection of uniform grids, one per snapshot file, each a rectilinear mesh
 * (2DRectMesh / 3DRectMesh; geometry VXVY / VXVYVZ from the /x, /y, /z datasets, so any spacing
 * works) with the cell-centred attributes of io/nav_cellfields.h. Dimensions are listed slowest
 * first (z y x), as in the HDF5 datasets. */
#include <dirent.h>
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nav_error.h"
#include "io/nav_cellfields.h"
#include "io/nav_hdf5.h"
#include "io/nav_output.h"

typedef struct nav_snap {
  long step;
  double t;
} nav_snap;

static int nav_snap_cmp(const void *a, const void *b) {
  const long x = ((const nav_snap *)a)->step, y = ((const nav_snap *)b)->step;
  return (x > y) - (x < y);
}

/* Time attribute of a snapshot file, or -1 (unreadable: left out of the description). */
static int nav_snap_time(const char *path, double *t) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return -1;
  hid_t at = H5Aopen(file, "time", H5P_DEFAULT);
  int rc = at >= 0 && H5Aread(at, H5T_NATIVE_DOUBLE, t) >= 0 ? 0 : -1;
  if (at >= 0) H5Aclose(at);
  H5Fclose(file);
  return rc;
}

static nav_err nav_snap_list(const char *dir, long last, nav_snap **out, size_t *count) {
  *out = NULL;
  *count = 0;
  DIR *d = opendir(dir);
  NAV_CHECK(d, NAV_ERR_IO, "%s: cannot list: %s", dir, strerror(errno));
  size_t cap = 0;
  struct dirent *e;
  nav_err err = NAV_OK;
  while ((e = readdir(d))) {
    long s;
    char tail[8] = "", name[64], path[1200];
    if (sscanf(e->d_name, "fields_%ld.%7s", &s, tail) != 2 || strcmp(tail, "h5") || s > last) continue;
    snprintf(name, sizeof name, "fields_%08ld.h5", s);
    if (strcmp(name, e->d_name)) continue;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    double t;
    if (nav_snap_time(path, &t)) continue;
    if (*count == cap) {
      cap = cap ? 2 * cap : 64;
      nav_snap *grown = realloc(*out, cap * sizeof **out);
      if (!grown) {
        err = nav_error_set(NAV_ERR_MEMORY, __FILE__, __LINE__, __func__, "cannot allocate the snapshot list");
        break;
      }
      *out = grown;
    }
    (*out)[(*count)++] = (nav_snap){s, t};
  }
  closedir(d);
  if (*count) qsort(*out, *count, sizeof **out, nav_snap_cmp);
  return err;
}

/* One cell attribute of a snapshot: dataset name of ncomp (1 or 3) components in file. */
static void nav_xdmf_attribute(FILE *out, const char *name, int ncomp, const char *cells, const char *file) {
  fprintf(out,
          "    <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Cell\">\n"
          "     <DataItem Dimensions=\"%s%s\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/%s</DataItem>\n"
          "    </Attribute>\n",
          name, ncomp == 3 ? "Vector" : "Scalar", cells, ncomp == 3 ? " 3" : "", file, name);
}

nav_err nav_xdmf_write(const char *dir, const nav_flow *f) {
  nav_snap *snaps;
  size_t ns;
  NAV_CALL(nav_snap_list(dir, f->step, &snaps, &ns));
  char path[1100], tmp[1110];
  snprintf(path, sizeof path, "%s/fields.xmf", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  if (!out) free(snaps);
  NAV_CHECK(out, NAV_ERR_IO, "%s: cannot write: %s", tmp, strerror(errno));
  nav_cell_field list[NAV_CELL_MAX_FIELDS];
  const int nf = nav_cell_fields(f, list);
  char cells[64], points[64];
  if (f->dim == 3) {
    snprintf(cells, sizeof cells, "%d %d %d", f->n[2], f->n[1], f->n[0]);
    snprintf(points, sizeof points, "%d %d %d", f->n[2] + 1, f->n[1] + 1, f->n[0] + 1);
  } else {
    snprintf(cells, sizeof cells, "%d %d", f->n[1], f->n[0]);
    snprintf(points, sizeof points, "%d %d", f->n[1] + 1, f->n[0] + 1);
  }
  fprintf(out,
          "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
          "  <Grid Name=\"%s\" GridType=\"Collection\" CollectionType=\"Temporal\">\n",
          f->cfg->name);
  for (size_t s = 0; s < ns; s++) {
    char file[64];
    snprintf(file, sizeof file, "fields_%08ld.h5", snaps[s].step);
    fprintf(out,
            "   <Grid Name=\"step_%ld\" GridType=\"Uniform\">\n    <Time Value=\"%.17g\"/>\n"
            "    <Topology TopologyType=\"%dDRectMesh\" Dimensions=\"%s\"/>\n    <Geometry GeometryType=\"%s\">\n",
            snaps[s].step, snaps[s].t, f->dim, points, f->dim == 3 ? "VXVYVZ" : "VXVY");
    static const char *const axis[3] = {"x", "y", "z"};
    for (int d = 0; d < f->dim; d++)
      fprintf(
          out,
          "     <DataItem Dimensions=\"%d\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/%s</DataItem>\n",
          f->n[d] + 1, file, axis[d]);
    fprintf(out, "    </Geometry>\n");
    for (int q = 0; q < nf; q++) nav_xdmf_attribute(out, list[q].name, list[q].ncomp, cells, file);
    const char *mname[NAV_MODEL_SNAPSHOT_MAX]; /* the models' fields (nav_model.h snapshot hooks) */
    int mcomp[NAV_MODEL_SNAPSHOT_MAX], mmodel[NAV_MODEL_SNAPSHOT_MAX], mindex[NAV_MODEL_SNAPSHOT_MAX];
    const int nm = nav_models_snapshot_fields(&f->models, &f->view, mname, mcomp, mmodel, mindex);
    for (int q = 0; q < nm; q++) nav_xdmf_attribute(out, mname[q], mcomp[q], cells, file);
    fprintf(out, "   </Grid>\n");
  }
  fprintf(out, "  </Grid>\n </Domain>\n</Xdmf>\n");
  free(snaps);
  return nav_output_commit(out, tmp, path);
}
