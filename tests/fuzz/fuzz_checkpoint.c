/* libFuzzer target: the checkpoint reader (nav_checkpoint_read) on a small 2D case.
 *
 * The flow is the default cavity on 8x8 cells, one rank, CPU backend (the case that
 * bench/fuzz.sh writes its seed checkpoint with). Each input is written to a file and read as a
 * checkpoint. The header carries a checksum of itself, which a mutation breaks nearly always; so
 * that the fuzzer reaches the parsing behind it, an input whose header has a "header_checksum"
 * line gets the right checksum written into that line first (the checksum check itself is
 * reached by inputs without the line, and by tests/io). Contract checked beyond the sanitizers:
 * a rejected checkpoint leaves the flow unchanged (step, time) and sets an input error.
 * With NAV_FUZZ_SEED_DIR set, the start writes a checkpoint of this case after two steps there
 * (the seed of the corpus). */
#include <inttypes.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nav_config.h"
#include "core/nav_error.h"
#include "io/nav_checkpoint.h"
#include "solvers/nav_flow.h"

#define NAV_FUZZ_HEADER 4096

static nav_config nav_fuzz_cfg;
static nav_flow nav_fuzz_flow;
static char nav_fuzz_path[64];

/* Scratch files in memory (/dev/shm) where there is one: each input is written to a file. */
static const char *nav_fuzz_tmp(void) { return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"; }
static void nav_fuzz_cleanup(void) { remove(nav_fuzz_path); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  char *sets[] = {"grid.nx=8", "grid.ny=8"};
  nav_config_errors errs;
  if (nav_config_load(&nav_fuzz_cfg, NULL, 2, sets, &errs) != NAV_OK) abort();
  if (nav_flow_create(&nav_fuzz_cfg, nav_backend_get("cpu", 0), &nav_fuzz_flow) != NAV_OK) abort();
  const char *seed = getenv("NAV_FUZZ_SEED_DIR");
  if (seed) {
    double dt, cfl;
    for (int s = 0; s < 2; s++)
      if (nav_flow_dt(&nav_fuzz_flow, &dt, &cfl) != NAV_OK || nav_flow_step(&nav_fuzz_flow, dt, 1) != NAV_OK) abort();
    if (nav_checkpoint_write(seed, &nav_fuzz_flow, NULL, 0) != NAV_OK) abort();
  }
  snprintf(nav_fuzz_path, sizeof nav_fuzz_path, "%s/nav_fuzz_ckpt_%d.nck", nav_fuzz_tmp(), (int)getpid());
  atexit(nav_fuzz_cleanup);
  return 0;
}

/* FNV-1a 64 of the header up to and including the newline before "header_checksum" (the
 * checksum nav_checkpoint.c writes). */
static uint64_t nav_fuzz_fnv1a(const uint8_t *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
  return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *buf = malloc(size + 1);
  memcpy(buf, data, size);
  buf[size] = 0;
  /* the header as the reader sees it: the first 4096 bytes, NUL-terminated at the first NUL */
  const size_t hn = size < NAV_FUZZ_HEADER ? size : NAV_FUZZ_HEADER;
  char header[NAV_FUZZ_HEADER + 1];
  memcpy(header, buf, hn);
  header[hn] = 0;
  char *hc = strstr(header, "\nheader_checksum ");
  if (hc) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, nav_fuzz_fnv1a((const uint8_t *)header, (size_t)(hc + 1 - header)));
    const size_t at = (size_t)(hc - header) + 17;
    for (size_t i = 0; i < 16 && at + i < hn; i++) buf[at + i] = (uint8_t)hex[i];
  }
  FILE *fp = fopen(nav_fuzz_path, "wb");
  if (!fp) abort();
  if (size && fwrite(buf, 1, size, fp) != size) abort();
  fclose(fp);
  free(buf);
  nav_flow *f = &nav_fuzz_flow;
  const long step = f->step;
  const double t = f->t;
  nav_err e = nav_checkpoint_read(nav_fuzz_path, f);
  if (e != NAV_OK && (e != NAV_ERR_INPUT || f->step != step || f->t != t)) {
    fprintf(stderr, "fuzz_checkpoint: rejected checkpoint changed the flow or failed with %s: %s\n", nav_err_name(e),
            nav_error_message());
    abort();
  }
  nav_error_clear();
  return 0;
}
