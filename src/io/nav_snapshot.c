/* Field snapshots in the chosen formats, and the plot tool (see nav_snapshot.h). */
#include "io/nav_snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_error.h"
#include "grid/nav_reduce.h"
#include "io/nav_output.h"
#ifdef NAV_HAVE_HDF5
#include "io/nav_hdf5.h"
#endif

#ifdef NAV_HAVE_HDF5
#define NAV_HDF5_BUILT 1
#else
#define NAV_HDF5_BUILT 0
#endif

void nav_snapshot_formats(const nav_config *cfg, int *vtk, int *hdf5) {
  const char *fmt = cfg->format;
  if (!strcmp(fmt, "auto")) fmt = NAV_HDF5_BUILT ? "hdf5" : "vtk";
  *vtk = !strcmp(fmt, "vtk") || !strcmp(fmt, "both");
  *hdf5 = !strcmp(fmt, "hdf5") || !strcmp(fmt, "both");
}

nav_err nav_snapshot_write(const char *dir, nav_flow *f) {
  int vtk, hdf5;
  nav_snapshot_formats(f->cfg, &vtk, &hdf5);
  if (vtk) {
    nav_host_fields h;
    nav_err e = nav_host_fields_fetch(f, &h);
    if (e == NAV_OK && f->dc.rank == 0) e = nav_fields_write(dir, f, &h);
    nav_host_fields_free(&h);
    const int code = nav_reduce_err(f->comm, (int)e);
    if (code != NAV_OK && e == NAV_OK)
      return nav_error_set((nav_err)code, __FILE__, __LINE__, __func__, "failed on another rank (rank 0 reports it)");
    NAV_CALL(e);
  }
#ifdef NAV_HAVE_HDF5
  if (hdf5) NAV_CALL(nav_hdf5_write(dir, f));
#else
  NAV_CHECK(!hdf5, NAV_ERR_INPUT, "%s: key 'output.format': this navier is built without HDF5", f->cfg->source);
#endif
  return NAV_OK;
}

/* The Python of the plot tool: the one the build found with numpy, matplotlib and h5py (an
 * absolute path); if it found none (NAV_PLOT_PYTHON is then plain "python3"), the system one, and
 * the tool names the module that is missing. */
static const char *nav_plot_python(void) {
  if (NAV_PLOT_PYTHON[0] == '/') return NAV_PLOT_PYTHON;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

/* The plot tool: the installed copy beside the running program (PREFIX/bin/navier ->
 * PREFIX/share/navier/tools/navier-plot, after `cmake --install`), else the source tree's. */
static const char *nav_plot_tool(void) {
  static char path[4200];
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(path, sizeof path, "%s/../share/navier/tools/navier-plot", exe);
    if (access(path, R_OK) == 0) return path;
  }
  return NAV_PLOT_TOOL;
}

int nav_plot_exec(int argc, char **argv) {
  const char *tool = getenv("NAVIER_PLOT");
  const int own = !(tool && tool[0]);
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (!args) return 1;
  int n = 0;
  if (own) args[n++] = (char *)nav_plot_python();
  args[n++] = (char *)(own ? nav_plot_tool() : tool);
  for (int i = 0; i < argc; i++) args[n++] = argv[i];
  args[n] = NULL;
  fflush(stdout);
  execvp(args[0], args);
  fprintf(stderr, "navier: error: cannot run the plot tool %s: %s\n", args[0], strerror(errno));
  free(args);
  return 1;
}

int nav_plots_run(const char *dir) {
  const char *tool = getenv("NAVIER_PLOT"), *python = NULL;
  if (!tool || !tool[0]) {
    tool = nav_plot_tool();
    python = nav_plot_python();
  }
  /* the whole command, however long the paths (a fixed buffer cut it short silently) */
  const int len =
      python ? snprintf(NULL, 0, "'%s' '%s' '%s'", python, tool, dir) : snprintf(NULL, 0, "'%s' '%s'", tool, dir);
  char *cmd = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (!cmd) {
    fprintf(stderr, "navier: warning: no memory for the plot command; the run is unaffected\n");
    return 1;
  }
  if (python)
    snprintf(cmd, (size_t)len + 1, "'%s' '%s' '%s'", python, tool, dir);
  else
    snprintf(cmd, (size_t)len + 1, "'%s' '%s'", tool, dir);
  printf("plots: %s\n", cmd);
  fflush(stdout);
  const int rc = system(cmd);
  free(cmd);
  if (rc != 0)
    fprintf(stderr, "navier: warning: the plot tool failed (%s exited with status %d); the run is unaffected\n", tool,
            rc);
  return rc;
}
