/* Unit test of the case-file configuration (src/core/nav_config*.c, the key files of the modules and their
 * registry src/solvers/nav_sections.c).
 *
 * Every fixture is written by the test itself into a fresh temporary folder (mkdtemp), so the
 * program needs no arguments and no files from the source tree. Error messages are checked
 * line by line, exactly, including the line numbers. Exit status: 0 if every check passed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_config.h"
#include "core/nav_config_schema.h"

static int nav_checks, nav_failures;

#define NAV_TEST(cond, descr)                                                                                          \
  do {                                                                                                                 \
    nav_checks++;                                                                                                      \
    if (cond) {                                                                                                        \
      printf("ok   %s\n", descr);                                                                                      \
    } else {                                                                                                           \
      nav_failures++;                                                                                                  \
      printf("FAIL %s (%s:%d)\n", descr, __FILE__, __LINE__);                                                          \
      if (errs.count) printf("     errors (%d):\n%s", errs.count, errs.text);                                          \
    }                                                                                                                  \
  } while (0)

static char tmpdir[] = "/tmp/test_config_XXXXXX";
static char case_path[256]; /* tmpdir/case.ini, the file that load() writes */
static nav_config cfg;
static nav_config_errors errs;

/* Write text to tmpdir/name and return the path (in buf). */
static const char *write_fixture(char *buf, size_t n, const char *name, const char *text) {
  snprintf(buf, n, "%s/%s", tmpdir, name);
  FILE *f = fopen(buf, "w");
  if (!f) {
    perror(buf);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
  return buf;
}

/* Load `text` as the case file case.ini with the overrides sets[0..nset-1]; returns the error count. */
static int load(const char *text, int nset, char **sets) {
  write_fixture(case_path, sizeof case_path, "case.ini", text);
  nav_err e = nav_config_load(&cfg, case_path, nset, sets, &errs);
  if ((e != NAV_OK) != (errs.count > 0)) printf("FAIL return code %d but %d errors\n", (int)e, errs.count);
  return errs.count;
}

/* 1 if the error text has a line equal to the formatted one; "%s" at its start is usually the case path. */
static int has_error(const char *fmt, const char *arg) {
  char want[1024];
  snprintf(want, sizeof want, fmt, arg);
  size_t n = strlen(want);
  for (const char *line = errs.text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len == n && !strncmp(line, want, n)) return 1;
    line += len + (end != NULL);
  }
  return 0;
}

#define ONE_ERROR(descr, text, fmt) NAV_TEST(load(text, 0, NULL) == 1 && has_error(fmt, case_path), descr)

static void test_defaults(void) {
  nav_config d;
  nav_config_defaults(&d);
  NAV_TEST(!strcmp(d.source, "(default)") && !strcmp(d.name, "cavity2d_re100") && !strcmp(d.backend, "auto"),
           "defaults: [run]");
  NAV_TEST(d.dim == 2 && d.nx == 128 && d.ny == 128 && d.nz == 1 && d.lx == 1 && d.ly == 1 && d.lz == 1 && d.x0 == 0 &&
               d.y0 == 0 && d.z0 == 0,
           "defaults: [grid] 2D 128x128 unit square");
  NAV_TEST(d.dt == 0 && d.cfl == 0.5 && d.fourier == 0.24 && d.end_time == 0 && d.max_steps == 0 && d.steady_tol == 1e-5,
           "defaults: [time] adaptive, to steady state");
  NAV_TEST(d.nu == 0.01 && !strcmp(d.initial, "rest") && d.amplitude == 1, "defaults: [physics] Re = 100");
  int walls = 1, still = 1;
  for (int dir = 0; dir < 3; dir++)
    for (int s = 0; s < 2; s++) {
      walls &= d.bc[dir][s] == NAV_BC_WALL;
      for (int c = 0; c < 3; c++) still &= d.wall_velocity[dir][s][c] == ((dir == 1 && s == 1 && c == 0) ? 1 : 0);
    }
  NAV_TEST(walls && still, "defaults: [boundary] walls, lid y_high moving at 1,0,0");
  NAV_TEST(!strcmp(d.solver, "auto") && d.tolerance == 1e-8 && d.max_iterations == 200 && !strcmp(d.cycle, "v") &&
               d.pre_smooth == 2 && d.post_smooth == 2,
           "defaults: [pressure]");
  NAV_TEST(d.dir[0] == '\0' && d.fields_every == 0 && d.fields_dt == 0 && d.monitor_every == 10 &&
               d.progress_interval == 2.0,
           "defaults: [output]");
  nav_err e = nav_config_load(&cfg, NULL, 0, NULL, &errs);
  static nav_config dp; /* the default case: the defaults, and its figures at the end */
  dp = d;
  snprintf(dp.plots, sizeof dp.plots, "true");
  NAV_TEST(e == NAV_OK && errs.count == 0 && !memcmp(&cfg, &dp, sizeof dp),
           "load(NULL) is the valid default case (the defaults with output.plots = true)");
  NAV_TEST(!strcmp(nav_face_name(0, 0), "x_low") && !strcmp(nav_face_name(1, 1), "y_high") &&
               !strcmp(nav_face_name(2, 1), "z_high"),
           "nav_face_name");
}

static const char good_case[] = "# a 3D Taylor-Green case\n"
                                "; both comment styles\n"
                                "[run]\n"
                                "name = tgv3d-test.1\n"
                                "backend = cpu\n"
                                "\n"
                                "[grid]\n"
                                "dim = 3\n"
                                "nx = 32\n"
                                "ny=16\n"
                                "    nz = 8   ; indented: a key, not a continuation of ny\n"
                                "lx = 6.283185307179586\n"
                                "x0 = -3.25\n"
                                "[time]\n"
                                "cfl: 0.5\n"
                                "end_time = 10\n"
                                "max_steps = 5000000000\n"
                                "steady_tol = 0\n"
                                "[physics]\n"
                                "nu = 1e-3\n"
                                "initial = taylor_green\n"
                                "amplitude = 2\n"
                                "[boundary]\n"
                                "x_low = periodic\n"
                                "x_high = periodic\n"
                                "y_low = periodic\n"
                                "y_high = periodic\r\n"
                                "y_high_velocity = 0,0,0\n"
                                "z_low = free_slip\n"
                                "z_high = wall\n"
                                "z_high_velocity = 0.5, -0.25 ,0\n"
                                "[pressure]\n"
                                "solver = pcg\n"
                                "tolerance = 1e-10\n"
                                "max_iterations = 500\n"
                                "cycle = f\n"
                                "pre_smooth = 0\n"
                                "post_smooth = 20\n"
                                "[output]\n"
                                "dir = runs/my case\n"
                                "fields_every = 100\n"
                                "fields_dt = 0.5\n"
                                "monitor_every = 1\n"
                                "progress_interval = 0.5\n";

static void test_good_file(void) {
  NAV_TEST(load(good_case, 0, NULL) == 0, "good file: no errors");
  NAV_TEST(!strcmp(cfg.source, case_path) && !strcmp(cfg.name, "tgv3d-test.1") && !strcmp(cfg.backend, "cpu"),
           "good file: [run]");
  NAV_TEST(cfg.dim == 3 && cfg.nx == 32 && cfg.ny == 16 && cfg.nz == 8 && cfg.lx == 6.283185307179586 && cfg.ly == 1 &&
               cfg.x0 == -3.25,
           "good file: [grid], indented line, no spaces around '='");
  NAV_TEST(cfg.cfl == 0.5 && cfg.end_time == 10 && cfg.max_steps == 5000000000L && cfg.steady_tol == 0 &&
               cfg.fourier == 0.24,
           "good file: [time], 'key: value', long max_steps");
  NAV_TEST(cfg.nu == 1e-3 && !strcmp(cfg.initial, "taylor_green") && cfg.amplitude == 2, "good file: [physics]");
  NAV_TEST(cfg.bc[0][0] == NAV_BC_PERIODIC && cfg.bc[1][1] == NAV_BC_PERIODIC && cfg.bc[2][0] == NAV_BC_FREE_SLIP &&
               cfg.bc[2][1] == NAV_BC_WALL && cfg.wall_velocity[2][1][0] == 0.5 &&
               cfg.wall_velocity[2][1][1] == -0.25 && cfg.wall_velocity[1][1][0] == 0,
           "good file: [boundary], CRLF line, spaces in a vector");
  NAV_TEST(!strcmp(cfg.solver, "pcg") && cfg.tolerance == 1e-10 && cfg.max_iterations == 500 &&
               !strcmp(cfg.cycle, "f") && cfg.pre_smooth == 0 && cfg.post_smooth == 20,
           "good file: [pressure]");
  NAV_TEST(!strcmp(cfg.dir, "runs/my case") && cfg.fields_every == 100 && cfg.fields_dt == 0.5 &&
               cfg.monitor_every == 1 && cfg.progress_interval == 0.5,
           "good file: [output]");

  char *sets[] = {"grid.nx=64", " time . end_time = 2.5 ", "run.name=renamed"};
  NAV_TEST(load(good_case, 3, sets) == 0 && cfg.nx == 64 && cfg.end_time == 2.5 && !strcmp(cfg.name, "renamed") &&
               cfg.ny == 16,
           "--set overrides file values");

  char where[300], want_ny[300], want_dt[300];
  snprintf(want_ny, sizeof want_ny, "%s:10", cfg.source); /* ny=16 on line 10 */
  snprintf(want_dt, sizeof want_dt, "%s:0", cfg.source);
  NAV_TEST(!strcmp(nav_config_where(&cfg, "grid", "nx", where, sizeof where), "--set:1") &&
               !strcmp(nav_config_where(&cfg, "grid", "ny", where, sizeof where), want_ny) &&
               !strcmp(nav_config_where(&cfg, "time", "dt", where, sizeof where), want_dt),
           "nav_config_where: --set:N for an override, FILE:LINE from the file, FILE:0 for a default");

  /* nav_config_print writes a case file that loads back to the same configuration. */
  nav_config printed = cfg;
  char path[256];
  write_fixture(path, sizeof path, "printed.ini", "");
  FILE *f = fopen(path, "w");
  nav_config_print(&printed, f);
  fclose(f);
  nav_err e = nav_config_load(&cfg, path, 0, NULL, &errs);
  memcpy(cfg.source, printed.source, sizeof cfg.source); /* where the values came from differs */
  memcpy(cfg.origin, printed.origin, sizeof cfg.origin);
  NAV_TEST(e == NAV_OK && !memcmp(&cfg, &printed, sizeof cfg), "nav_config_print output loads back identically");
  nav_config d;
  nav_config_defaults(&d);
  write_fixture(path, sizeof path, "printed.ini", "");
  f = fopen(path, "w");
  nav_config_print(&d, f);
  fclose(f);
  e = nav_config_load(&cfg, path, 0, NULL, &errs);
  memcpy(cfg.source, d.source, sizeof cfg.source);
  memcpy(cfg.origin, d.origin, sizeof cfg.origin);
  NAV_TEST(e == NAV_OK && !memcmp(&cfg, &d, sizeof cfg), "defaults printed and loaded back are the defaults");

  /* nav_config_where: the origin of a key, for errors found after loading */
  char expect[400];
  char *set_solver[] = {"pressure.tolerance=1e-6"};
  write_fixture(path, sizeof path, "where.ini", "[run]\nname = w\n[pressure]\nsolver = fft\n");
  e = nav_config_load(&cfg, path, 1, set_solver, &errs);
  nav_config_where(&cfg, "pressure", "solver", where, sizeof where);
  snprintf(expect, sizeof expect, "%s:4", path);
  const int file_ok = !strcmp(where, expect);
  nav_config_where(&cfg, "pressure", "tolerance", where, sizeof where);
  NAV_TEST(e == NAV_OK && file_ok && !strcmp(where, "--set:1"), "nav_config_where: file line 4 and --set:1");
}

static void test_file_errors(void) {
  ONE_ERROR("unknown section, reported once at its header", "[run]\nname = a\n[gird]\nnx = 4\nny = 4\n",
            "%s:3: section '[gird]': unknown section (known: run, grid, time, physics, boundary, pressure, output, temperature, turbulence, body.N, bodies, forces, statistics)");
  ONE_ERROR("unknown key", "[grid]\nnx = 4\nnxx = 5\n", "%s:3: key 'grid.nxx': unknown key");
  ONE_ERROR("key in the wrong section", "[grid]\n\nnu = 0.1\n",
            "%s:3: key 'grid.nu': unknown key (did you mean 'physics.nu'?)");
  ONE_ERROR("key before any section", "nx = 4\n[grid]\n",
            "%s:1: key 'nx': unknown key outside any [section] (did you mean 'grid.nx'?)");
  ONE_ERROR("int: not a number", "[grid]\nnx = abc\n", "%s:2: key 'grid.nx': expected an integer, got 'abc'");
  ONE_ERROR("int: trailing garbage", "[grid]\nny = 12x\n", "%s:2: key 'grid.ny': expected an integer, got '12x'");
  ONE_ERROR("int: real given", "[grid]\nnz = 1.5\n", "%s:2: key 'grid.nz': expected an integer, got '1.5'");
  ONE_ERROR("int: empty", "[pressure]\nmax_iterations =\n",
            "%s:2: key 'pressure.max_iterations': expected an integer, got ''");
  ONE_ERROR("int: beyond int", "[grid]\nnx = 4294967296\n",
            "%s:2: key 'grid.nx': integer out of range, got '4294967296'");
  ONE_ERROR("long: overflow", "[time]\nmax_steps = 99999999999999999999999\n",
            "%s:2: key 'time.max_steps': integer out of range, got '99999999999999999999999'");
  ONE_ERROR("real: not a number", "[grid]\nlx = 1.0.0\n", "%s:2: key 'grid.lx': expected a real number, got '1.0.0'");
  ONE_ERROR("real: nan", "[physics]\nnu = nan\n", "%s:2: key 'physics.nu': expected a finite real number, got 'nan'");
  ONE_ERROR("real: inf", "[time]\nend_time = inf\n",
            "%s:2: key 'time.end_time': expected a finite real number, got 'inf'");
  ONE_ERROR("real: overflow", "[grid]\nly = 1e999\n", "%s:2: key 'grid.ly': number out of range, got '1e999'");
  ONE_ERROR("enum: bc", "[boundary]\nx_low = foo\n",
            "%s:2: key 'boundary.x_low': must be one of wall, free_slip, periodic, inflow, outflow, got 'foo'");
  ONE_ERROR("enum: choice", "[run]\nbackend = gpu\n",
            "%s:2: key 'run.backend': must be one of auto, cpu, cuda, got 'gpu'");
  ONE_ERROR("enum: case-sensitive", "[pressure]\nsolver = MG\n",
            "%s:2: key 'pressure.solver': must be one of auto, fft, mg, mgpcg, pcg, sor, jacobi, got 'MG'");
  ONE_ERROR("vector: two components", "[boundary]\ny_high_velocity = 1,0\n",
            "%s:2: key 'boundary.y_high_velocity': expected three comma-separated real numbers u,v,w, got '1,0'");
  ONE_ERROR("vector: four components", "[boundary]\ny_high_velocity = 1,0,0,0\n",
            "%s:2: key 'boundary.y_high_velocity': expected three comma-separated real numbers u,v,w, got '1,0,0,0'");
  ONE_ERROR("vector: empty component", "[boundary]\ny_high_velocity = 1,,0\n",
            "%s:2: key 'boundary.y_high_velocity': expected three comma-separated real numbers u,v,w, got '1,,0'");
  ONE_ERROR("range: int >= 1", "[grid]\nnx = 0\n", "%s:2: key 'grid.nx': must be >= 1, got 0");
  ONE_ERROR("range: int <= 2^20", "[grid]\nny = 2000000\n", "%s:2: key 'grid.ny': must be <= 1048576, got 2000000");
  ONE_ERROR("range: dim", "[grid]\ndim = 4\n", "%s:2: key 'grid.dim': must be <= 3, got 4");
  ONE_ERROR("range: real > 0", "[physics]\nnu = 0\n", "%s:2: key 'physics.nu': must be > 0, got 0");
  ONE_ERROR("range: real <= 1", "[time]\ncfl = 2\n", "%s:2: key 'time.cfl': must be <= 1, got 2");
  ONE_ERROR("range: real < 1", "[pressure]\ntolerance = 1\n", "%s:2: key 'pressure.tolerance': must be < 1, got 1");
  ONE_ERROR("range: long >= 1", "[output]\nmonitor_every = 0\n",
            "%s:2: key 'output.monitor_every': must be >= 1, got 0");
  ONE_ERROR("range: negative", "[time]\ndt = -1e-3\n", "%s:2: key 'time.dt': must be >= 0, got -1e-3");
  ONE_ERROR("name: bad character", "[run]\nname = my case\n",
            "%s:2: key 'run.name': must be 1 to 63 characters among A-Z a-z 0-9 _ . -, got 'my case'");
  ONE_ERROR("name: empty", "[run]\nname =\n",
            "%s:2: key 'run.name': must be 1 to 63 characters among A-Z a-z 0-9 _ . -, got ''");
  ONE_ERROR("duplicate key", "[grid]\nnx = 4\n\n[grid]\nnx = 5\n",
            "%s:5: key 'grid.nx': given twice (first on line 2)");
  NAV_TEST(load("[grid]\nnx 4\nny = abc\n[oops\n", 0, NULL) == 2 && has_error("%s:2: syntax error", case_path) &&
               has_error("%s:3: key 'grid.ny': expected an integer, got 'abc'", case_path),
           "syntax error (first malformed line) and the errors after it");
  char long_line[400];
  snprintf(long_line, sizeof long_line, "[run]\nname = %0300d\n[grid]\nnx = 0\n", 7);
  NAV_TEST(load(long_line, 0, NULL) == 2 &&
               has_error("%s:2: syntax error: line longer than 199 characters", case_path) &&
               has_error("%s:4: key 'grid.nx': must be >= 1, got 0", case_path),
           "line too long, line count kept");
  NAV_TEST(load("[grid]\nnx = 0\nny = x\n[time]\ncfl = 0\n[foo]\na = 1\n[boundary]\nz_low = 3\n", 0, NULL) == 5 &&
               has_error("%s:2: key 'grid.nx': must be >= 1, got 0", case_path) &&
               has_error("%s:5: key 'time.cfl': must be > 0, got 0", case_path) &&
               has_error("%s:9: key 'boundary.z_low': must be one of wall, free_slip, periodic, inflow, outflow, got '3'", case_path),
           "all errors are collected");

  nav_err e = nav_config_load(&cfg, "/nonexistent/case.ini", 0, NULL, &errs);
  NAV_TEST(e == NAV_ERR_INPUT && errs.count == 1 &&
               has_error("%s: cannot open: No such file or directory", "/nonexistent/case.ini"),
           "missing file");
  e = nav_config_load(&cfg, tmpdir, 0, NULL, &errs);
  NAV_TEST(e == NAV_ERR_INPUT && errs.count == 1 && has_error("%s: cannot read: Is a directory", tmpdir),
           "a folder as the case file");

  char many[8000] = "[grid]\n";
  for (int i = 0; i < 400; i++) strcat(many, "nx=0\n");
  NAV_TEST(load(many, 0, NULL) == 400 && strlen(errs.text) < sizeof errs.text &&
               errs.text[strlen(errs.text) - 1] == '\n',
           "more errors than fit: all counted, whole lines kept");
}

static void test_set_errors(void) {
  char *bad_value[] = {"grid.nx=0"};
  NAV_TEST(load("", 1, bad_value) == 1 && has_error("%s:1: key 'grid.nx': must be >= 1, got 0", "--set"),
           "--set: out of range");
  char *several[] = {"grid.ny=8", "grid.nx=0", "time.cfl=x", "physics.mu=1", "foo.bar=1"};
  NAV_TEST(load("", 5, several) == 4 && has_error("%s:2: key 'grid.nx': must be >= 1, got 0", "--set") &&
               has_error("%s:3: key 'time.cfl': expected a real number, got 'x'", "--set") &&
               has_error("%s:4: key 'physics.mu': unknown key", "--set") &&
               has_error("%s:5: section '[foo]': unknown section (known: run, grid, time, physics, boundary, pressure, "
                         "output, temperature, turbulence, body.N, bodies, forces, statistics)",
                         "--set"),
           "--set: numbered by position, every error reported");
  char *malformed[] = {"gridnx=4", "grid.nx", ".nx=4", "grid.=4"};
  NAV_TEST(load("", 4, malformed) == 4 &&
               has_error("%s:1: malformed override 'gridnx=4': expected section.key=value", "--set") &&
               has_error("%s:2: malformed override 'grid.nx': expected section.key=value", "--set") &&
               has_error("%s:3: malformed override '.nx=4': expected section.key=value", "--set") &&
               has_error("%s:4: malformed override 'grid.=4': expected section.key=value", "--set"),
           "--set: malformed overrides");
  char *twice[] = {"grid.nx=8", "grid.nx=16"};
  NAV_TEST(load("", 2, twice) == 1 && has_error("%s:2: key 'grid.nx': given twice (first as --set 1)", "--set"),
           "--set: the same key twice");
  char *with_path[] = {"output.dir=a=b.c"};
  NAV_TEST(load("", 1, with_path) == 0 && !strcmp(cfg.dir, "a=b.c"), "--set: value may contain '=' and '.'");
  nav_err e = nav_config_load(&cfg, NULL, 1, bad_value, &errs);
  NAV_TEST(e == NAV_ERR_INPUT && has_error("%s:1: key 'grid.nx': must be >= 1, got 0", "--set"),
           "--set on the embedded default case");
}

static void test_cross_key(void) {
  ONE_ERROR("unpaired periodic: reported at the key given", "[boundary]\nx_low = periodic\n",
            "%s:2: key 'boundary.x_low': periodic faces must be paired: x_low is periodic but x_high is wall");
  ONE_ERROR("unpaired periodic: reported at the later key",
            "[boundary]\nx_high = wall\ny_low = wall\nx_low = periodic\n",
            "%s:4: key 'boundary.x_low': periodic faces must be paired: x_low is periodic but x_high is wall");
  ONE_ERROR("unpaired periodic z in 3D", "[grid]\ndim = 3\n[boundary]\nz_high = periodic\n",
            "%s:4: key 'boundary.z_high': periodic faces must be paired: z_low is wall but z_high is periodic");
  NAV_TEST(load("[boundary]\nz_low = periodic\nz_low_velocity = 1,1,1\n", 0, NULL) == 0, "2D: z faces not checked");
  ONE_ERROR("2D with nz != 1", "[grid]\nnz = 4\n", "%s:2: key 'grid.nz': nz = 4 but a 2D case (dim = 2) needs nz = 1");
  ONE_ERROR("2D with nz != 1, dim given later", "[grid]\nnz = 4\ndim = 2\n",
            "%s:3: key 'grid.dim': nz = 4 but a 2D case (dim = 2) needs nz = 1");
  NAV_TEST(load("[grid]\ndim = three\nnz = 4\n", 0, NULL) == 1, "a rejected value raises no conflict");
  ONE_ERROR("no stop criterion", "[time]\nend_time = 0\nsteady_tol = 0\nmax_steps = 0\n",
            "%s:4: key 'time.max_steps': no stop criterion: end_time, max_steps and steady_tol are all 0");
  char *no_stop[] = {"time.steady_tol=0"};
  NAV_TEST(load("[time]\nend_time = 0\n", 1, no_stop) == 1 &&
               has_error("%s:1: key 'time.steady_tol': no stop criterion: end_time, max_steps and steady_tol are all 0",
                         "--set"),
           "no stop criterion, completed by --set");
  NAV_TEST(nav_config_load(&cfg, NULL, 1, no_stop, &errs) == NAV_ERR_INPUT && errs.count == 1 &&
               has_error("%s:1: key 'time.steady_tol': no stop criterion: end_time, max_steps and steady_tol are all 0",
                         "--set"),
           "no stop criterion on the default case");
  NAV_TEST(load("[grid]\nnx = 64\n", 1, (char *[]){"boundary.x_high=periodic"}) == 1 &&
               has_error("%s:1: key 'boundary.x_high': periodic faces must be paired: x_low is wall but x_high is "
                         "periodic",
                         "--set"),
           "conflict with a default value: reported at the given key");
  ONE_ERROR("abc needs 3D",
            "[physics]\ninitial = abc\n[boundary]\nx_low = periodic\nx_high = periodic\n"
            "y_low = periodic\ny_high = periodic\ny_high_velocity = 0,0,0\n",
            "%s:2: key 'physics.initial': initial = abc needs dim = 3, got dim = 2");
  ONE_ERROR("abc needs periodic faces", "[grid]\ndim = 3\n[physics]\ninitial = abc\n",
            "%s:4: key 'physics.initial': initial = abc needs all faces periodic, but x_low is wall");
  ONE_ERROR("taylor_green needs periodic x and y",
            "[boundary]\nx_low = periodic\nx_high = periodic\n[physics]\n"
            "initial = taylor_green\n",
            "%s:5: key 'physics.initial': initial = taylor_green needs periodic x and y faces, but y_low is wall");
  ONE_ERROR("wall velocity: normal component", "[boundary]\nx_low_velocity = 1,0.5,0\n",
            "%s:2: key 'boundary.x_low_velocity': x_low is a wall: the normal component u of x_low_velocity must be 0 "
            "(only tangential wall velocity), got 1");
  /* [temperature]: one input set, faces, initial field */
  ONE_ERROR("temperature: both inputs", "[temperature]\nmodel = boussinesq\npr = 0.71\nra = 1e4\nkappa = 0.1\n",
            "%s:5: key 'temperature.kappa': both inputs given: pr (nondimensional, with ra) and kappa (dimensional, "
            "with beta, gravity, physics.nu); give one");
  ONE_ERROR("temperature: neither input", "[temperature]\nmodel = boussinesq\nra = 1e4\n",
            "%s:2: key 'temperature.model': model = boussinesq needs the nondimensional input (ra, pr > 0) or the "
            "dimensional input (kappa > 0, beta, gravity, physics.nu)");
  ONE_ERROR("temperature: ra with the dimensional input", "[temperature]\nmodel = boussinesq\nkappa = 0.1\nra = 10\n",
            "%s:4: key 'temperature.ra': ra belongs to the nondimensional input (with pr); with kappa give beta and "
            "gravity, got ra = 10");
  ONE_ERROR("temperature: nu other than pr", "[physics]\nnu = 0.5\n[temperature]\nmodel = boussinesq\npr = 0.71\n",
            "%s:5: key 'temperature.pr': in the nondimensional input nu = Pr = 0.71, got physics.nu = 0.5");
  ONE_ERROR("temperature: periodic faces go together",
            "[boundary]\nx_low = periodic\nx_high = periodic\n[temperature]\nmodel = boussinesq\npr = 1\nx_low = periodic\n",
            "%s:3: key 'boundary.x_high': the temperature face x_high is flux but its velocity face is periodic: "
            "periodic goes with periodic");
  ONE_ERROR("temperature: conduction needs two fixed faces", "[temperature]\nmodel = boussinesq\npr = 1\ninitial = conduction\n",
            "%s:4: key 'temperature.initial': initial = conduction needs a direction whose two temperature faces are "
            "fixed");
  {
    nav_config t;
    nav_config_errors te;
    const char *sets[] = {"temperature.model=boussinesq", "temperature.ra=1e4", "temperature.pr=0.71",
                          "temperature.gravity=0,-2,0"};
    NAV_TEST(nav_config_load(&t, NULL, 4, (char *const *)sets, &te) == NAV_OK && t.nu == 0.71 && t.diffusivity == 1 &&
                 t.buoyancy[0] == 0 && fabs(t.buoyancy[1] + 7100) < 1e-9 && t.buoyancy[2] == 0,
             "temperature: nondimensional input gives nu = Pr, kappa = 1, b = Ra Pr g/|g|");
    const char *dsets[] = {"temperature.model=boussinesq", "temperature.kappa=0.2", "temperature.beta=0.003",
                           "temperature.gravity=0,-9.81,0"};
    NAV_TEST(nav_config_load(&t, NULL, 4, (char *const *)dsets, &te) == NAV_OK && t.nu == 0.01 && t.diffusivity == 0.2 &&
                 fabs(t.buoyancy[1] + 0.003 * 9.81) < 1e-15,
             "temperature: dimensional input gives kappa and b = beta g");
  }
  ONE_ERROR("lid velocity on a periodic face", "[boundary]\ny_low = periodic\ny_high = periodic\n",
            "%s:3: key 'boundary.y_high': y_high is periodic: y_high_velocity must be 0,0,0, got 1,0,0");
  ONE_ERROR("velocity on a free-slip face", "[boundary]\nx_high_velocity = 0,1,0\nx_high = free_slip\n",
            "%s:3: key 'boundary.x_high': x_high is free_slip: x_high_velocity must be 0,0,0, got 0,1,0");
}

static void test_markdown(void) {
  char path[256];
  write_fixture(path, sizeof path, "case-file.md", "");
  FILE *f = fopen(path, "w+");
  nav_config_markdown(f);
  long n = ftell(f);
  rewind(f);
  char *md = calloc((size_t)n + 1, 1);
  size_t got = fread(md, 1, (size_t)n, f);
  fclose(f);
  NAV_TEST(got == (size_t)n && !strncmp(md, "# Case file reference\n", 22), "markdown: title");
  NAV_TEST(strstr(md, "## [grid]") && strstr(md, "## [output]") &&
               strstr(md, "| `nx` | integer | `128` | 1 &lt;= nx &lt;= 1048576 |") &&
               strstr(md, "| `y_high_velocity` | vector | `1,0,0` |") &&
               strstr(md, "| `x_low` | choice | `wall` | `wall`, `free_slip`, `periodic`, `inflow`, `outflow` |") &&
               strstr(md, "max\\|u\\|") && strstr(md, "Re = U L / nu"),
           "markdown: section tables, ranges, escaped cells");
  free(md);
}

/* The core with a schema of the test's own (no module, no registry): two sections, one numbered, a check
 * that reports at the later key. The core must parse, locate, echo and document whatever schema it is
 * given. */
static const char *const mini_choice[] = {"a", "b", NULL};
static const nav_key mini_rows[] = {
    {"mesh", "nx", NAV_KT_INT, NAV_FIELD(nx), "8", "Cells.", NAV_RANGE(1, 0, 64, 0)},
    {"mesh", "mode", NAV_KT_CHOICE, NAV_FIELD(cycle), "a", "Mode.", .values = mini_choice},
    {"item", "radius", NAV_KT_REAL, NAV_FIELD(body[0].radius), "0.5", "Radius.", NAV_ABOVE(0)},
};
static const nav_config_keys mini_keys = NAV_CONFIG_KEYS(mini_rows);
static const nav_config_section mini_mesh = {.name = "mesh", .doc = "The mesh."};
static const nav_config_section mini_item = {.name = "item",
                                             .doc = "Items.",
                                             .count = 2,
                                             .stride = sizeof(nav_body_config),
                                             .given_offset = offsetof(nav_config, nbodies),
                                             .plural = "items",
                                             .key_list = "an item has radius"};
static void mini_check(nav_config_check *ck, nav_config *c) {
  c->nbodies = 2;
  if (c->nx > 16 && !strcmp(c->cycle, "b"))
    nav_conflict(ck, nav_later(ck, nav_key_id(ck, "mesh", "nx"), nav_key_id(ck, "mesh", "mode")),
                 "mode = b needs nx <= 16, got %d", c->nx);
}
static const nav_config_section *const mini_sections[] = {&mini_mesh, &mini_item};
static const nav_config_keys *const mini_blocks[] = {&mini_keys};
static const nav_config_check_fn mini_checks[] = {mini_check};
static const char *const mini_rules[] = {"`mode = b` needs `nx` <= 16."};
static const nav_config_schema mini_schema = {.sections = mini_sections,
                                              .nsections = 2,
                                              .blocks = mini_blocks,
                                              .nblocks = 1,
                                              .checks = mini_checks,
                                              .nchecks = 1,
                                              .rules = mini_rules,
                                              .nrules = 1};

static void test_own_schema(void) {
  char path[256], *sets[] = {"item.2.radius=2", "mesh.mode=b"};
  write_fixture(path, sizeof path, "mini.ini", "[mesh]\nnx = 20\n[grid]\nnx = 1\n[item.3]\nradius = 1\n[item.1]\nq = 1\n");
  nav_err e = nav_config_load_schema(&cfg, &mini_schema, path, 2, sets, &errs);
  char want[4][512];
  snprintf(want[0], sizeof want[0], "%s:3: section '[grid]': unknown section (known: mesh, item.N)\n", path);
  snprintf(want[1], sizeof want[1], "%s:5: section '[item.3]': items are numbered 1 to 2\n", path);
  snprintf(want[2], sizeof want[2], "%s:8: key 'item.1.q': unknown key (an item has radius)\n", path);
  snprintf(want[3], sizeof want[3], "--set:2: key 'mesh.mode': mode = b needs nx <= 16, got 20\n");
  char all[2048];
  snprintf(all, sizeof all, "%s%s%s%s", want[0], want[1], want[2], want[3]);
  NAV_TEST(e == NAV_ERR_INPUT && errs.count == 4 && !strcmp(errs.text, all),
           "own schema: unknown section, numbered section, its keys, a check at the later key");
  NAV_TEST(cfg.schema == &mini_schema && cfg.nx == 20 && cfg.body[1].radius == 2 && cfg.body[0].radius == 0.5,
           "own schema: values, numbered instances at their stride");
  char where[300], value[64];
  NAV_TEST(!strcmp(nav_config_where(&cfg, "item.2", "radius", where, sizeof where), "--set:1") &&
               nav_config_value(&cfg, "item.2", "radius", value, sizeof value) == 0 && !strcmp(value, "2") &&
               nav_config_value(&cfg, "grid", "nx", value, sizeof value) == -1,
           "own schema: where and value of its keys only");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  nav_config_print(&cfg, f);
  fclose(f);
  NAV_TEST(text && !strcmp(text, "[mesh]\nnx = 20\nmode = b\n\n[item.1]\nradius = 0.5\n\n[item.2]\nradius = 2\n"),
           "own schema: the echo");
  free(text);
  f = open_memstream(&text, &len);
  nav_config_markdown_schema(f, &mini_schema);
  fclose(f);
  NAV_TEST(text && strstr(text, "- `mode = b` needs `nx` <= 16.\n") && strstr(text, "## [item.N]\n\nItems.") &&
               strstr(text, "| `nx` | integer | `8` | 1 &lt;= nx &lt;= 64 | Cells. |") && !strstr(text, "## Scaling") &&
               !strstr(text, "[grid]"),
           "own schema: the reference");
  free(text);
  unlink(path);
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 2;
  }
  test_defaults();
  test_good_file();
  test_file_errors();
  test_set_errors();
  test_cross_key();
  test_markdown();
  test_own_schema();
  const char *names[] = {"case.ini", "printed.ini", "case-file.md"};
  for (int i = 0; i < 3; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
    unlink(path);
  }
  rmdir(tmpdir);
  printf("test_config: %d checks, %d failed\n", nav_checks, nav_failures);
  return nav_failures ? 1 : 0;
}
