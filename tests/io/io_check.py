#!/usr/bin/env python3
"""Checks of output, restart and clean stops: they run the navier command and assert on what it
writes. Each prints the figures it asserts on, then PASS or FAIL (exit 0 / 1; 77: skipped).

usage: io_check.py MPIEXEC NAVIER SCRATCH CHECK [args] [--set k=v ...]
  restart R1 R2 CASE N   N steps on R1 ranks against N/2 steps, a checkpoint, and N/2 more from it on
                         R2 ranks, twice (the second time as after a crash past the checkpoint):
                         final_fields.bin equal byte for byte (and monitor.csv equal) when
                         R1 = R2, else to 1e-12 relative
  threads T CASE N       N steps on one rank with OMP_NUM_THREADS=T, three times: final_fields.bin and
                         monitor.csv equal byte for byte (the CPU kernels' sums add the threads' partials
                         in thread order, not in the order the threads finish)
  badckpt R CASE         truncated, corrupt (payload, header), other grid, domain, viscosity, solver, initial guess,
                         boundary, wall velocity, temperature input (ra, a face value, the model off;
                         from a natural-convection checkpoint), other precision, not a checkpoint, missing: exit 2 on R ranks before any step,
                         a message naming the file and the fault, nothing written; an output folder
                         that cannot be written: exit 2
  signal R CASE [SIG]    SIGTERM (or SIG, e.g. SIGINT) to one rank during a run: exit 3, summary.json
                         status "stopped", a checkpoint of the last step that a restart continues (exit 0)
  signal2 CASE           two SIGINTs 0.05 s apart during a long step: the second ends the process at once
                         (killed by SIGINT, no summary), the checkpoints left intact
  cadence CASE           output.fields_dt and checkpoint_dt with a dt that does not divide them: the
                         snapshots and checkpoints at the first step at or after each multiple (and at
                         t = 0 / the end), their steps computed from dt
  blowup CASE            a huge dt after a checkpoint: exit 1, status "failed", a message with the
                         step, time and place, the checkpoints untouched; NaN (max_cfl = 0): the
                         checkpoints left are good (checksums recomputed here, values finite), and the
                         summary's validation reports the failed state's deviations as null or > 0, never 0
  blowup_nan R CASE      the NaN part of blowup on R ranks
  hdf5 R CASE N          HDF5 snapshots on R ranks read back with h5py equal final_fields.bin
                         (pressure exactly, cell-centre velocity to round-off) and the VTK
                         snapshot (vorticity); fields.xmf parses and names exactly the datasets of
                         the files, with their shapes and times
  vorticity R CASE       the vorticity (and its magnitude) of the snapshot at t = 0 of an analytic field
                         (taylor_green, abc) in the VTK and HDF5 files against the exact curl,
                         within the truncation bound of the output's differences (check_vorticity)
  paraview R CASE N      ParaView's pvbatch (when installed; else skipped) opens fields.xmf: every
                         time, the cells, the domain and every cell array of the HDF5 files
  plot CASE              [output] plots = true makes valid PNGs; a failing plot tool is a warning; the
                         natural-convection figures from a made-up folder (Nu, u_max, v_max, T)
  progress CASE          on a terminal (a pty) the progress line is rewritten in place; in a pipe
                         it is plain lines
  diskfull CASE          a full disk (a 320 KiB tmpfs; needs root) during a checkpoint: exit 1 with
                         the file named, the previous checkpoint intact, no .tmp left; a disk full
                         before the run: exit 2, nothing written
"""
import glob
import json
import math
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

SKIP = 77


def cmd_of(mpiexec, navier, ranks, args):
    base = [navier] + args
    return base if ranks == 1 else [mpiexec, "-n", str(ranks), "--oversubscribe"] + base


def run(mpiexec, navier, ranks, args, log, env=None, timeout=300):
    with open(log, "w") as out:
        res = subprocess.run(cmd_of(mpiexec, navier, ranks, args), stdout=out, stderr=subprocess.STDOUT,
                             timeout=timeout, env=env)
    return res.returncode, open(log).read()


def summary(d):
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def doubles(path):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // 8}d", data)


def sets_args(sets):
    out = []
    for s in sets:
        out += ["--set", s]
    return out


def has_hdf5(navier):
    return "hdf5" in subprocess.run([navier, "--version"], stdout=subprocess.PIPE, text=True).stdout.split(
        "snapshots:")[1].split("\n")[0].replace("without HDF5", "")


# ---------------------------------------------------------------------------------------- checkpoints
MASK = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
    return z ^ (z >> 31)


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & MASK
    return h


def read_checkpoint(path):
    """Parse a checkpoint as docs/design.md describes it and verify every checksum here."""
    data = open(path, "rb").read()
    head = data[:4096].split(b"\0")[0].decode()
    lines = head.splitlines()
    assert lines[0] == "navier checkpoint", lines[0]
    body = head[:head.index("header_checksum ")]
    assert int(lines[-1].split()[1], 16) == fnv1a(body.encode()), "header checksum"
    fields = {l.split(" ", 1)[0]: l.split(" ", 1)[1] for l in lines[1:] if " " in l and not l.startswith(("array ", "key "))}
    arrays = [(l.split()[1], int(l.split()[2], 16)) for l in lines if l.startswith("array ")]
    size = int(fields["precision_bytes"])
    points = int(fields["points"])
    fmt = "d" if size == 8 else "f"
    ncoord = int(fields.get("coordinates", 0))  # format 2: the face coordinates follow the arrays
    assert len(data) == 4096 + len(arrays) * points * size + 8 * ncoord, "size"
    values = {}
    for q, (name, want) in enumerate(arrays):
        raw = data[4096 + q * points * size:4096 + (q + 1) * points * size]
        bits = struct.unpack(f"<{points}{'Q' if size == 8 else 'I'}", raw)
        s = 0
        for g, b in enumerate(bits):
            s = (s + mix64(b ^ mix64((g + 0x9e3779b97f4a7c15) & MASK))) & MASK
        assert s == want, f"checksum of {name}"
        values[name] = struct.unpack(f"<{points}{fmt}", raw)
    at = 4096 + len(arrays) * points * size
    coords = struct.unpack(f"<{ncoord}d", data[at:at + 8 * ncoord])
    return {"step": int(fields["step"]), "time": float.fromhex(fields["time"]), "values": values, "header": head,
            "coordinates": coords}


def checkpoints(d):
    return sorted(glob.glob(os.path.join(d, "checkpoint_*.nck")))


def check_restart(mpiexec, navier, scratch, r1, r2, case, n, sets):
    base = [case, "--set", "output.dump_final=true", "--set", "output.monitor_every=1"] + sets_args(sets)
    full, half = os.path.join(scratch, "full"), os.path.join(scratch, "half")
    for d in (full, half):
        shutil.rmtree(d, ignore_errors=True)
    rc1, _ = run(mpiexec, navier, r1, ["run"] + base + ["--set", f"time.max_steps={n}", "--output", full],
                 os.path.join(scratch, "full.log"))
    rc2, _ = run(mpiexec, navier, r1, ["run"] + base + ["--set", f"time.max_steps={n // 2}", "--set",
                                                        f"output.checkpoint_interval={n // 2}", "--output", half],
                 os.path.join(scratch, "half.log"))
    ck = os.path.join(half, f"checkpoint_{n // 2:08d}.nck")
    rc3, log3 = run(mpiexec, navier, r2, ["run"] + base + ["--set", f"time.max_steps={n}", "--restart", ck,
                                                           "--output", half], os.path.join(scratch, "cont.log"))
    print(f"{n} steps on {r1} rank(s): exit {rc1}; {n // 2} steps + checkpoint: exit {rc2}; restart from {ck} "
          f"on {r2} rank(s) to step {n}: exit {rc3}")
    if rc1 or rc2 or rc3:
        print(log3[-2000:])
        return False
    # again from the same checkpoint, as after a crash past it: the rows after it are replaced
    rc4, log4 = run(mpiexec, navier, r2, ["run"] + base + ["--set", f"time.max_steps={n}", "--restart", ck,
                                                           "--output", half], os.path.join(scratch, "again.log"))
    print(f"restart again from {os.path.basename(ck)} into the same folder (monitor.csv already at step {n}): exit {rc4}")
    if rc4:
        print(log4[-2000:])
        return False
    a, b = open(os.path.join(full, "final_fields.bin"), "rb").read(), open(os.path.join(half, "final_fields.bin"), "rb").read()
    s1, s2 = summary(full), summary(half)
    same_steps = s1["steps"] == s2["steps"] == n and s1["time"] == s2["time"]
    if r1 == r2:
        mon_same = open(os.path.join(full, "monitor.csv")).read() == open(os.path.join(half, "monitor.csv")).read()
        print(f"final_fields.bin: {len(a)} bytes, identical: {a == b}; monitor.csv identical: {mon_same}; "
              f"steps {s1['steps']} / {s2['steps']}, time {s1['time']!r} / {s2['time']!r}")
        return a == b and mon_same and same_steps
    x, y = doubles(os.path.join(full, "final_fields.bin")), doubles(os.path.join(half, "final_fields.bin"))
    rel = max(abs(p - q) for p, q in zip(x, y)) / max(abs(p) for p in x)
    print(f"final_fields.bin: max relative difference {rel:.2e} (tolerance 1e-12); steps {s1['steps']} / {s2['steps']}")
    return len(x) == len(y) and rel <= 1e-12 and same_steps


def check_threads(mpiexec, navier, scratch, threads, case, n, sets):
    base = [case, "--set", "output.dump_final=true", "--set", "output.monitor_every=1",
            "--set", f"time.max_steps={n}"] + sets_args(sets)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    outs = []
    for i in range(3):
        d = os.path.join(scratch, f"run{i}")
        shutil.rmtree(d, ignore_errors=True)
        rc, log = run(mpiexec, navier, 1, ["run"] + base + ["--output", d], os.path.join(scratch, f"run{i}.log"), env)
        if rc:
            print(f"run {i}: exit {rc}\n{log[-2000:]}")
            return False
        outs.append((open(os.path.join(d, "final_fields.bin"), "rb").read(),
                     open(os.path.join(d, "monitor.csv")).read()))
    same = [outs[i] == outs[0] for i in (1, 2)]
    print(f"{n} steps with OMP_NUM_THREADS={threads}, three runs: final_fields.bin ({len(outs[0][0])} bytes) and "
          f"monitor.csv ({outs[0][1].count(chr(10))} lines) of runs 2 and 3 identical to run 1's: {same}")
    return all(same)


def with_header(path, out, edit):
    """Copy checkpoint path to out with its header text edited and its header checksum redone."""
    data = bytearray(open(path, "rb").read())
    head = data[:4096].split(b"\0")[0].decode()
    body = edit(head[:head.index("header_checksum ")])
    text = (body + f"header_checksum {fnv1a(body.encode()):016x}\n").encode()
    data[:4096] = text + b"\0" * (4096 - len(text))
    open(out, "wb").write(bytes(data))


def check_badckpt(mpiexec, navier, scratch, ranks, case, sets):
    base = ["run", case] + sets_args(sets)
    good_dir = os.path.join(scratch, "good")
    shutil.rmtree(good_dir, ignore_errors=True)
    rc, _ = run(mpiexec, navier, 1, base + ["--set", "time.max_steps=4", "--set", "output.checkpoint_interval=4",
                                            "--output", good_dir], os.path.join(scratch, "good.log"))
    good = os.path.join(good_dir, "checkpoint_00000004.nck")
    assert rc == 0 and os.path.exists(good), "the good run"
    data = open(good, "rb").read()
    bad = {}

    def put(name, content):
        p = os.path.join(scratch, name)
        open(p, "wb").write(content)
        return p

    bad["truncated"] = (put("truncated.nck", data[:len(data) - 1000]), [], r"truncated: \d+ bytes, expected \d+")
    bad["header cut"] = (put("cut.nck", data[:100]), [], r"truncated: 100 bytes, shorter than the 4096-byte header")
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x10
    bad["corrupt payload"] = (put("corrupt.nck", bytes(flipped)), [], r"corrupt: the checksum of array '\w+'")
    bad["corrupt header"] = (put("header.nck", data.replace(b"\nstep 4\n", b"\nstep 5\n", 1)), [],
                             r"corrupt header \(header checksum mismatch\)")
    bad["other grid"] = (good, ["--set", "grid.nx=16"], r"written for grid.nx = \d+, but the case .* has grid.nx = 16")
    bad["other viscosity"] = (good, ["--set", "physics.nu=0.02"], r"written for physics.nu = [0-9.e-]+, but")
    bad["other solver"] = (good, ["--set", "pressure.solver=pcg"], r"written for pressure.solver = mg")
    bad["other initial guess"] = (good, ["--set", "pressure.initial_guess=extrapolated"],
                                  r"written for pressure.initial_guess = previous, but .* = extrapolated")
    bad["other domain"] = (good, ["--set", "grid.lx=2"], r"written for grid.lx = 1, but the case .* has grid.lx = 2")
    bad["other boundary"] = (good, ["--set", "boundary.x_low=free_slip"],
                             r"written for boundary.x_low = wall, but the case .* has boundary.x_low = free_slip")
    bad["other wall velocity"] = (good, ["--set", "boundary.y_high_velocity=2,0,0"],
                                  r"written for boundary.y_high_velocity = 1,0,0, but .* = 2,0,0")
    # the temperature input: a checkpoint of a natural-convection case (its own short run)
    nc_case = os.path.join(os.path.dirname(case), "natconv2d_ra1e4.ini")
    nc_dir = os.path.join(scratch, "good_nc")
    shutil.rmtree(nc_dir, ignore_errors=True)
    rc, _ = run(mpiexec, navier, 1, ["run", nc_case] + sets_args(sets) + [
        "--set", "time.max_steps=2", "--set", "output.checkpoint_interval=2", "--output", nc_dir],
        os.path.join(scratch, "good_nc.log"))
    nc = os.path.join(nc_dir, "checkpoint_00000002.nck")
    assert rc == 0 and os.path.exists(nc), "the good natural-convection run"
    bad["other temperature ra"] = (nc, ["--set", "temperature.ra=2e4"], r"written for temperature.ra = 10000, but",
                                   nc_case)
    bad["other temperature face"] = (nc, ["--set", "temperature.x_low_value=2"],
                                     r"written for temperature.x_low_value = 1, but", nc_case)
    bad["temperature model off"] = (nc, ["--set", "temperature.model=off", "--set", "temperature.ra=0",
                                         "--set", "temperature.pr=0", "--set", "physics.nu=0.71"],
                                    r"written for temperature.model = boussinesq, but .* has temperature.model = off",
                                    nc_case)
    bad["other spacing"] = (good, ["--set", "grid.y_spacing=tanh"],
                            r"written on other face coordinates: y face 1 was [0-9.e-]+, the case .* has [0-9.e-]+")
    other = os.path.join(scratch, "single.nck")
    with_header(good, other, lambda h: h.replace("precision_bytes 8", "precision_bytes 4"))
    bad["other precision"] = (other, [], r"written in single precision \(4-byte reals\), this navier is double")
    bad["not a checkpoint"] = (put("text.nck", b"hello\n" * 1000), [], r"not a navier checkpoint")
    bad["missing"] = (os.path.join(scratch, "missing.nck"), [], r"cannot open")
    ok = True
    for what, (path, extra, pattern, *own) in bad.items():
        out = os.path.join(scratch, "out_" + what.replace(" ", "_"))
        shutil.rmtree(out, ignore_errors=True)
        keys = [e.split("=")[0] for e in extra if "=" in e]  # a key may be given once: drop the case's own
        mine = ["run", own[0] if own else case] + sets_args([s for s in sets if s.split("=")[0] not in keys])
        rc, log = run(mpiexec, navier, ranks, mine + ["--set", "time.max_steps=8", "--restart", path, "--output", out]
                      + extra, out + ".log")
        msg = [l for l in log.splitlines() if "error" in l]
        good_msg = bool(re.search(re.escape(f"checkpoint {path}: ") + pattern, log))
        nothing = not os.path.exists(os.path.join(out, "summary.json")) and not os.path.exists(os.path.join(out, "monitor.csv"))
        this = rc == 2 and good_msg and nothing and "step " not in log.split("navier: error")[0].split("# effective")[0]
        ok &= this
        print(f"{what}: exit {rc}, message {msg[0] if msg else '(none)'!r}, nothing written {nothing}"
              + ("" if this else "  FAIL"))
    blocker = os.path.join(scratch, "a_file")
    open(blocker, "w").write("in the way\n")
    for what, out in (("a file in the way", os.path.join(blocker, "out")), ("a read-only place", "/proc/navier_out")):
        rc, log = run(mpiexec, navier, ranks, base + ["--set", "time.max_steps=2", "--output", out],
                      os.path.join(scratch, "dir.log"))
        msg = [l for l in log.splitlines() if "error" in l]
        this = rc == 2 and "output folder" in log
        ok &= this
        print(f"output folder {out} ({what}): exit {rc}, message {msg[0] if msg else '(none)'!r}"
              + ("" if this else "  FAIL"))
    return ok


def child_pids(pid):
    try:
        return [int(p) for p in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def check_signal(mpiexec, navier, scratch, ranks, case, sets, signame="SIGTERM"):
    sig = getattr(signal, signame)
    out = os.path.join(scratch, "sig")
    shutil.rmtree(out, ignore_errors=True)
    args = ["run", case, "--output", out, "--set", "time.max_steps=10000000", "--set", "time.steady_tol=0",
            "--set", "time.end_time=0", "--set", "output.monitor_every=1"] + sets_args(sets)
    log = open(os.path.join(scratch, "sig.log"), "w")
    p = subprocess.Popen(cmd_of(mpiexec, navier, ranks, args), stdout=log, stderr=subprocess.STDOUT)
    mon = os.path.join(out, "monitor.csv")
    t0 = time.time()
    while time.time() - t0 < 60 and p.poll() is None:
        if os.path.exists(mon) and open(mon).read().count("\n") >= 6:
            break
        time.sleep(0.05)
    target = p.pid if ranks == 1 else (child_pids(p.pid) or [p.pid])[-1]
    os.kill(target, sig)
    rc = p.wait(timeout=120)
    log.close()
    s = summary(out)
    cks = checkpoints(out)
    print(f"{signame} to pid {target} ({'the rank' if ranks == 1 else 'the last rank of ' + str(ranks)}): exit {rc}, "
          f"status {s['status']!r}, message {s['message']!r}, checkpoints {[os.path.basename(c) for c in cks]}")
    ok = rc == 3 and s["status"] == "stopped" and signame in s["message"] and len(cks) == 1 and \
        cks[0].endswith(f"checkpoint_{s['steps']:08d}.nck")
    if not ok:
        print(open(os.path.join(scratch, "sig.log")).read()[-2000:])
        return False
    ck = read_checkpoint(cks[0])
    more = s["steps"] + 3
    rc2, log2 = run(mpiexec, navier, ranks, ["run", case, "--output", out, "--restart", cks[0], "--set",
                                             f"time.max_steps={more}", "--set", "time.steady_tol=0", "--set",
                                             "time.end_time=0"] + sets_args(sets), os.path.join(scratch, "cont.log"))
    s2 = summary(out)
    print(f"checkpoint: step {ck['step']}, time {ck['time']!r} (summary {s['time']!r}), checksums good; restart to "
          f"step {more}: exit {rc2}, status {s2['status']!r}, steps {s2['steps']}")
    return rc2 == 0 and s2["status"] == "completed" and s2["steps"] == more and ck["step"] == s["steps"]


def check_second_signal(mpiexec, navier, scratch, case, sets):
    """Two SIGINTs 0.05 s apart at the start of a step that lasts longer (512^2 cells, V(20,20)
    cycles to 1e-12: about 0.3 s), sent when the checkpoint of the step before appears: the first asks
    for a clean stop at the end of the step, the second ends the process at once (the default
    action: killed by SIGINT, no summary), and the checkpoint written before them is intact."""
    attempts = 4  # the first signal may fall at the very end of a step on a loaded machine: try again
    for attempt in range(attempts):
        out = os.path.join(scratch, f"sig2_{attempt}")
        shutil.rmtree(out, ignore_errors=True)
        args = ["run", case, "--output", out, "--set", "grid.nx=512", "--set", "grid.ny=512",
                "--set", "pressure.pre_smooth=20", "--set", "pressure.post_smooth=20", "--set", "pressure.tolerance=1e-12",
                "--set", "time.max_steps=1000", "--set", "time.steady_tol=0", "--set", "time.end_time=0",
                "--set", "output.checkpoint_interval=1", "--set", "output.checkpoint_keep=1"] + sets_args(sets)
        log = open(os.path.join(scratch, "sig2.log"), "w")
        p = subprocess.Popen([navier] + args, stdout=log, stderr=subprocess.STDOUT)
        t0 = time.time()
        while time.time() - t0 < 120 and p.poll() is None and not checkpoints(out):
            time.sleep(0.005)
        p.send_signal(signal.SIGINT)
        time.sleep(0.05)
        try:
            p.send_signal(signal.SIGINT)
            second = True
        except ProcessLookupError:
            second = False
        rc = p.wait(timeout=120)
        log.close()
        # the first signal fell between two steps (the stop is taken at the next step's start, not after a
        # long step): the run stopped cleanly before the second signal (exit 3), or the second came while
        # it was exiting (its summary written): once more
        if (rc == 3 or os.path.exists(os.path.join(out, "summary.json"))) and attempt < attempts - 1:
            print(f"attempt {attempt}: the run stopped cleanly before the second signal took effect (exit {rc}); again")
            continue
        cks = checkpoints(out)
        good = []
        for c in cks:
            try:
                good.append(read_checkpoint(c)["step"])
            except Exception as e:  # noqa: BLE001: any failure to read is a bad checkpoint
                print(f"{c}: {e}")
        print(f"two SIGINTs 0.05 s apart: exit {rc} (killed by SIGINT: {-signal.SIGINT}), second sent {second}, "
              f"summary written {os.path.exists(os.path.join(out, 'summary.json'))}, complete checkpoints of steps "
              f"{good} of {len(cks)}")
        return rc == -signal.SIGINT and second and len(cks) > 0 and len(good) == len(cks) and \
            not os.path.exists(os.path.join(out, "summary.json"))
    return False


def check_cadence(mpiexec, navier, scratch, case, sets):
    """output.fields_dt and checkpoint_dt with a fixed dt that does not divide them (dt = 0.003,
    fields_dt = 0.01, checkpoint_dt = 0.02, end_time = 0.05, the last step shortened to end there):
    a snapshot at t = 0, at the first step at or after each multiple of fields_dt and at the end;
    a checkpoint at the first step at or after each multiple of checkpoint_dt and at the end; the
    expected steps are computed here from dt alone, and each snapshot's TIME is its step's time."""
    out = os.path.join(scratch, "cadence")
    shutil.rmtree(out, ignore_errors=True)
    dt, fdt, cdt, end = 0.003, 0.01, 0.02, 0.05
    args = ["run", case, "--output", out, "--set", f"time.dt={dt}", "--set", f"time.end_time={end}",
            "--set", "time.max_steps=0", "--set", "time.steady_tol=0", "--set", f"output.fields_dt={fdt}",
            "--set", f"output.checkpoint_dt={cdt}", "--set", "output.checkpoint_keep=100",
            "--set", "output.format=vtk"] + sets_args(sets)
    rc, log = run(mpiexec, navier, 1, args, os.path.join(scratch, "cadence.log"))
    if rc:
        print(log[-2000:])
        return False
    last = math.ceil(end / dt - 1e-9)  # 17 steps, the last one shortened

    def firsts(interval):  # the first step n with n dt >= k interval, k = 1, 2, ... before the end
        return sorted({math.ceil(k * interval / dt - 1e-9) for k in range(1, int(end / interval + 1e-9) + 1)} - {last})

    want_fields = [0] + firsts(fdt) + [last]
    want_ckpt = firsts(cdt) + [last]
    got_fields = sorted(int(re.search(r"fields_(\d+)\.vtk", f).group(1)) for f in glob.glob(os.path.join(out, "*.vtk")))
    got_ckpt = sorted(int(re.search(r"checkpoint_(\d+)\.nck", f).group(1)) for f in checkpoints(out))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from navtest import read_vtk
    times = {n: read_vtk(os.path.join(out, f"fields_{n:08d}.vtk"))[1] for n in got_fields}
    time_ok = all(abs(t - (end if n == last else n * dt)) <= 1e-12 for n, t in times.items())
    print(f"dt {dt}, fields_dt {fdt}, checkpoint_dt {cdt}, end_time {end}: snapshots at steps {got_fields} (expected "
          f"{want_fields}), times {[round(t, 6) for t in times.values()]} (step x dt: {time_ok}); checkpoints at steps "
          f"{got_ckpt} (expected {want_ckpt})")
    return got_fields == want_fields and got_ckpt == want_ckpt and time_ok


def check_blowup(mpiexec, navier, scratch, case, sets):
    base = ["run", case] + sets_args(sets)
    out = os.path.join(scratch, "cfl")
    shutil.rmtree(out, ignore_errors=True)
    rc, _ = run(mpiexec, navier, 1, base + ["--set", "time.max_steps=10", "--set", "output.checkpoint_interval=5",
                                            "--output", out], os.path.join(scratch, "first.log"))
    before = {c: open(c, "rb").read() for c in checkpoints(out)}
    ck = os.path.join(out, "checkpoint_00000010.nck")
    rc2, log = run(mpiexec, navier, 1, base + ["--set", "time.max_steps=30", "--set", "time.dt=5", "--set",
                                               "output.checkpoint_interval=1", "--restart", ck, "--output", out],
                   os.path.join(scratch, "cfl.log"))
    s = summary(out)
    after = {c: open(c, "rb").read() for c in checkpoints(out)}
    msg = s["message"]
    print(f"run to step 10 with checkpoints: exit {rc}; restart with dt = 5: exit {rc2}, status {s['status']!r}, "
          f"message {msg!r}; checkpoints before {[os.path.basename(c) for c in before]}, after "
          f"{[os.path.basename(c) for c in after]}, unchanged {before == after}")
    ok = rc == 0 and rc2 == 1 and s["status"] == "failed" and before == after and len(before) == 2 and \
        re.search(r"blew up at step 11, time [0-9.]+: CFL number [0-9.e+]+ above \[time\] max_cfl = 5", msg) and \
        re.search(r"\(i,j,k\) = \(\d+,\d+,\d+\), \(x,y,z\) = \(", msg)
    nan_ok = check_blowup_nan(mpiexec, navier, scratch, 1, case, sets)
    return bool(ok) and nan_ok


def check_blowup_nan(mpiexec, navier, scratch, ranks, case, sets):
    """A NaN (max_cfl = 0, dt 0.02) on `ranks` ranks: exit 1, status "failed", the step and place in the
    message, the last 3 checkpoints good (checksums, finite values), the last one the step before the
    blow-up, no .tmp left, the validation's deviations null or > 0. On several ranks with a deferred check
    (the FFT slabs: the sum over the ranks) every rank must report the same step, or the run hangs."""
    base = ["run", case] + sets_args(sets)
    out = os.path.join(scratch, "nan")
    shutil.rmtree(out, ignore_errors=True)
    rc3, log = run(mpiexec, navier, ranks, base + ["--set", "time.max_steps=200", "--set", "time.dt=0.02", "--set",
                                                   "time.max_cfl=0", "--set", "output.checkpoint_interval=1",
                                                   "--set", "output.checkpoint_keep=3", "--output", out],
                   os.path.join(scratch, "nan.log"))
    s = summary(out)
    m = re.search(r"blew up at step (\d+), time ([0-9.e+-]+)", s["message"])
    cks = checkpoints(out)
    good = []
    for c in cks:
        k = read_checkpoint(c)
        good.append((k["step"], all(math.isfinite(v) for a in k["values"].values() for v in a)))
    print(f"NaN with max_cfl = 0: exit {rc3}, status {s['status']!r}, message {s['message']!r}; checkpoints left "
          f"(step, checksums good and all finite): {good}; leftover .tmp: {glob.glob(os.path.join(out, '*.tmp'))}")
    # the validation of the failed state: a NaN deviation is null (JSON has no NaN), never 0 (fmax drops a NaN)
    val = s.get("validation", {})
    devs = [val[k] for k in ("ghia_max_dev_u", "ghia_max_dev_v", "velocity_error_max", "velocity_error_rms") if k in val]
    print(f"validation block after the blow-up: {val}")
    ok = rc3 == 1 and s["status"] == "failed" and m and len(good) == 3 and all(g for _, g in good) and \
        max(st for st, _ in good) == int(m.group(1)) - 1 and "(i,j,k) =" in s["message"] and \
        not glob.glob(os.path.join(out, "*.tmp")) and devs and all(d is None or d > 0 for d in devs)
    return bool(ok)


# ---------------------------------------------------------------------------------------- HDF5 / XDMF
def check_hdf5(mpiexec, navier, scratch, ranks, case, n, sets):
    out = os.path.join(scratch, f"h5_{ranks}")
    shutil.rmtree(out, ignore_errors=True)
    args = ["run", case, "--output", out, "--set", f"time.max_steps={n}", "--set", "output.format=both",
            "--set", f"output.fields_every={max(n // 2, 1)}", "--set", "output.dump_final=true"] + sets_args(sets)
    if not has_hdf5(navier):
        rc, log = run(mpiexec, navier, ranks, args, os.path.join(scratch, "h5.log"))
        ok = rc == 2 and "key 'output.format': format = both needs HDF5" in log
        print(f"navier built without HDF5: format = both is refused with exit {rc}: {ok}")
        return ok
    try:
        import h5py
        import numpy as np
    except ImportError as e:
        print(f"skipped: {e}")
        return SKIP
    rc, log = run(mpiexec, navier, ranks, args, os.path.join(scratch, "h5.log"))
    if rc:
        print(log[-2000:])
        return False
    s = summary(out)
    nx, ny, nz = s["grid"]
    dim = s["dim"]
    shape = (nz, ny, nx) if dim == 3 else (ny, nx)
    vals = np.array(doubles(os.path.join(out, "final_fields.bin")))
    cells = nx * ny * nz
    names = ["u", "v", "w"][:dim] + ["p"]
    fld = {k: vals[i * cells:(i + 1) * cells].reshape(shape) for i, k in enumerate(names)}
    files = sorted(glob.glob(os.path.join(out, "fields_*.h5")))
    last = files[-1]
    with h5py.File(last, "r") as f:
        p = np.array(f["pressure"])
        vel = np.array(f["velocity"])
        vort = np.array(f["vorticity"])
        t, step = float(f.attrs["time"]), int(f.attrs["step"])
        xs = np.array(f["x"])
        ys = np.array(f["y"])
        mag = np.array(f["vorticity_magnitude"]) if dim == 3 else None
    # the cell-centre velocity from the faces; the high wall faces (not in final_fields.bin) are 0
    ok = True
    errs = {}
    for c, k in enumerate(names[:-1]):
        a = fld[k]
        ax = dim - 1 - c
        up = np.concatenate([np.take(a, range(1, a.shape[ax]), axis=ax), np.zeros_like(np.take(a, [0], axis=ax))],
                            axis=ax)
        errs[k] = float(np.max(np.abs(0.5 * (a + up) - vel[..., c])))
    p_equal = np.array_equal(p, fld["p"])
    vtk = os.path.join(out, f"fields_{step:08d}.vtk")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from navtest import read_vtk
    _, _, vtk_coords, arrays = read_vtk(vtk)
    # stretched grids: the real face coordinates in the HDF5 file (against the tanh formula of
    # docs/case-file.md when y_spacing = tanh is set; the domain is [0, 1]) and in the VTK file (float32)
    setd = dict(s_.split("=", 1) for s_ in sets if "=" in s_)
    if setd.get("grid.y_spacing") == "tanh":
        g = float(setd.get("grid.y_gamma", "2"))
        want = [0.5 * (1 + math.tanh(g * (2 * j / ny - 1)) / math.tanh(g)) for j in range(ny + 1)]
        y_err = float(np.max(np.abs(ys - np.array(want))))
        vtk_err = float(np.max(np.abs(np.array(vtk_coords[1]) - ys)))
        print(f"tanh y faces (gamma {g}): HDF5 max error {y_err:.1e}, VTK (float32) max difference {vtk_err:.1e}; "
              f"widths {ys[1] - ys[0]:.4g} .. {np.max(np.diff(ys)):.4g}")
        ok &= y_err <= 1e-14 and vtk_err <= 1e-6
    vv = np.array(arrays["vorticity"]).reshape(vort.shape)
    vort_err = float(np.max(np.abs(vv - vort)) / max(np.max(np.abs(vort)), 1e-30))
    mag_err = float(np.max(np.abs(mag - np.sqrt((vort ** 2).sum(axis=-1))))) if dim == 3 else 0.0
    print(f"{os.path.basename(last)}: step {step} time {t!r} (summary {s['steps']}, {s['time']!r}); pressure equal to "
          f"final_fields.bin: {p_equal}; cell-centre velocity max error " + ", ".join(f"{k} {e:.1e}" for k, e in errs.items())
          + f"; vorticity against the VTK snapshot (float32) {vort_err:.1e} relative"
          + (f"; |vorticity| max error {mag_err:.1e}" if dim == 3 else "") + f"; x from {xs[0]} to {xs[-1]}")
    ok &= p_equal and all(e <= 1e-14 for e in errs.values()) and vort_err < 1e-5 and mag_err < 1e-12 and \
        step == s["steps"] and abs(t - s["time"]) <= 1e-9 * s["time"] and len(xs) == nx + 1
    ok &= check_xdmf(out, files)
    return ok


def check_xdmf(out, files):
    import h5py

    root = ET.parse(os.path.join(out, "fields.xmf")).getroot()
    coll = root.find("Domain/Grid")
    grids = coll.findall("Grid")
    named, problems = set(), []
    for g in grids:
        tval = float(g.find("Time").get("Value"))
        for item in g.iter("DataItem"):
            fname, dset = item.text.strip().split(":")
            dims = tuple(int(v) for v in item.get("Dimensions").split())
            path = os.path.join(out, fname)
            named.add((fname, dset.lstrip("/")))
            if not os.path.exists(path):
                problems.append(f"{fname} missing")
                continue
            with h5py.File(path, "r") as f:
                if dset.lstrip("/") not in f:
                    problems.append(f"{fname}:{dset} missing")
                elif f[dset].shape != dims:
                    problems.append(f"{fname}:{dset} shape {f[dset].shape} != {dims}")
                if float(f.attrs["time"]) != tval:
                    problems.append(f"{fname}: time {f.attrs['time']} != {tval}")
    present = set()
    for p in files:
        with h5py.File(p, "r") as f:
            present |= {(os.path.basename(p), k) for k in f.keys()}
    order = [g.get("Name") for g in grids]
    print(f"fields.xmf: {coll.get('CollectionType')} collection of {len(grids)} grids {order}; "
          f"{len(named)} datasets named, {len(present)} in the {len(files)} files; named but absent "
          f"{sorted(named - present)}, present but not named {sorted(present - named)}; problems {problems}")
    return coll.get("CollectionType") == "Temporal" and len(grids) == len(files) and named == present and not problems


# ---------------------------------------------------------------------------------------- plots, progress, disk
def png_size(path):
    data = open(path, "rb").read(32)
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def check_plot(mpiexec, navier, scratch, case, sets):
    out = os.path.join(scratch, "plot")
    shutil.rmtree(out, ignore_errors=True)
    hdf5 = has_hdf5(navier)
    args = ["run", case, "--output", out, "--set", "output.plots=true", "--set", "output.fields_every=20",
            "--set", "output.format=" + ("hdf5" if hdf5 else "vtk")] + sets_args(sets)
    rc, log = run(mpiexec, navier, 1, args, os.path.join(scratch, "plot.log"))
    want = ["monitor.png"] + (["velocity.png", "vorticity.png", "cavity_centerlines.png"] if hdf5 else [])
    sizes = {w: png_size(os.path.join(out, "plots", w)) if os.path.exists(os.path.join(out, "plots", w)) else None
             for w in want}
    print(f"plots = true: exit {rc}; PNG (width, height): {sizes}")
    ok = rc == 0 and all(v and v[0] > 200 and v[1] > 200 for v in sizes.values())
    if rc:
        print(log[-2000:])
    env = dict(os.environ, NAVIER_PLOT="/bin/false")
    rc2, log2 = run(mpiexec, navier, 1, args, os.path.join(scratch, "plotfail.log"), env=env)
    warned = "warning: the plot tool failed" in log2
    print(f"a plot tool that fails (NAVIER_PLOT=/bin/false): exit {rc2}, warning printed {warned}, status "
          f"{summary(out)['status']!r}")
    ok = ok and rc2 == 0 and warned and summary(out)["status"] == "completed"
    if hdf5:
        ok &= check_plot_convection(navier, scratch, out)
    return ok


def check_plot_convection(navier, scratch, run_dir):
    """The natural-convection figures from a made-up output folder: monitor.csv with Nusselt and
    velocity-maximum columns, summary.json with Ra, and the last snapshot with a temperature."""
    import h5py
    import numpy as np

    conv = os.path.join(scratch, "plot_convection")
    shutil.rmtree(conv, ignore_errors=True)
    os.makedirs(conv)
    with open(os.path.join(conv, "monitor.csv"), "w") as f:
        f.write("step,time,dt,kinetic_energy,max_div,p_iterations,p_residual,Nu,u_max,v_max\n")
        for i in range(20):
            a = 1 - math.exp(-i / 5)
            f.write(f"{i},{i * 0.01},0.01,{a},1e-9,2,1e-9,{1 + 1.2 * a},{16 * a},{19 * a}\n")
    json.dump({"case": "made_up_convection", "rayleigh": 1e4, "status": "completed"},
              open(os.path.join(conv, "summary.json"), "w"))
    snap = os.path.join(conv, "fields_00000019.h5")
    shutil.copy(sorted(glob.glob(os.path.join(run_dir, "fields_*.h5")))[-1], snap)
    with h5py.File(snap, "a") as f:
        x = np.array(f["x"])
        f["temperature"] = np.tile(0.5 - 0.5 * (x[1:] + x[:-1]), (f["pressure"].shape[0], 1))
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "navier-plot")
    res = subprocess.run([sys.executable, tool, conv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    want = ["convection.png", "convection_midplanes.png", "temperature.png"]
    sizes = {w: png_size(os.path.join(conv, "plots", w)) if os.path.exists(os.path.join(conv, "plots", w)) else None
             for w in want}
    print(f"navier-plot on a made-up natural-convection folder: exit {res.returncode}; PNG (width, height): {sizes}")
    return res.returncode == 0 and all(v and v[0] > 200 and v[1] > 200 for v in sizes.values())


def check_progress(mpiexec, navier, scratch, case, sets):
    args = [navier, "run", case, "--output", os.path.join(scratch, "prog"), "--set", "output.progress_interval=0.001"] + sets_args(sets)
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        r, _, _ = select.select([master], [], [], 60)
        if not r:
            break
        try:
            b = os.read(master, 65536)
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
    p.wait()
    os.close(master)
    tty = b"".join(chunks).decode(errors="replace")
    pipe = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    rewrites = tty.count("\rstep ")
    plain = len(re.findall(r"(?m)^step ", pipe))
    ends = "\x1b[K\r\nstopped:" in tty or "\x1b[K\nstopped:" in tty
    print(f"terminal: {rewrites} in-place rewrites of the progress line (\\r ... ESC[K), line ended before the next "
          f"message: {ends}; pipe: {plain} plain progress lines, no \\r: {chr(13) not in pipe}")
    return p.returncode == 0 and rewrites >= 2 and ends and plain >= 2 and "\r" not in pipe


def check_diskfull(mpiexec, navier, scratch, case, sets):
    mnt = os.path.join(scratch, "tmpfs")
    os.makedirs(mnt, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs", mnt], stderr=subprocess.DEVNULL).returncode:
        print("skipped: cannot mount a small tmpfs (needs root)")
        return SKIP
    try:
        out = os.path.join(mnt, "o")
        rc, log = run(mpiexec, navier, 1, ["run", case, "--output", out, "--set", "time.max_steps=8", "--set",
                                           "output.checkpoint_interval=2", "--set", "output.checkpoint_keep=5",
                                           "--set", "output.fields_dt=0", "--set", "output.fields_every=0"]
                      + sets_args(sets), os.path.join(scratch, "disk.log"))
        msg = [l for l in log.splitlines() if l.startswith("navier: error")]
        cks = checkpoints(out)
        good = [read_checkpoint(c)["step"] for c in cks]
        tmp = glob.glob(os.path.join(out, "*.tmp"))
        print(f"320 KiB disk: exit {rc}, {msg[0] if msg else '(no message)'}; checkpoints left (verified): {good}; "
              f".tmp left: {tmp}")
        ok = rc == 1 and msg and "disk full" in msg[0] and ".nck.tmp" in msg[0] and len(good) >= 1 and not tmp
        fd = os.open(os.path.join(mnt, "filler"), os.O_WRONLY | os.O_CREAT)  # now fill the disk to the last byte
        try:
            while os.write(fd, b"\0" * 4096) > 0:
                pass
        except OSError:
            pass
        os.close(fd)
        out2 = os.path.join(mnt, "o2")
        os.makedirs(out2, exist_ok=True)
        rc2, log2 = run(mpiexec, navier, 1, ["run", case, "--output", out2, "--set", "time.max_steps=8"]
                        + sets_args(sets), os.path.join(scratch, "disk2.log"))
        msg2 = [l for l in log2.splitlines() if l.startswith("navier: error")]
        print(f"full disk before the run: exit {rc2}, {msg2[0] if msg2 else '(no message)'}; written: {os.listdir(out2)}")
        return ok and rc2 == 2 and msg2 and "No space left on device" in msg2[0] and not os.listdir(out2)
    finally:
        subprocess.run(["umount", mnt])


PARAVIEW_SCRIPT = """
import json, sys
from paraview.simple import OpenDataFile
r = OpenDataFile(sys.argv[1])
times = list(r.TimestepValues)
r.UpdatePipeline(times[-1])
info = r.GetDataInformation()
print("PVJSON" + json.dumps({"reader": r.GetXMLName(), "times": times, "cells": info.GetNumberOfCells(),
                             "bounds": list(info.GetBounds()),
                             "arrays": {a: r.CellData[a].GetNumberOfComponents() for a in r.CellData.keys()}}))
"""


def check_paraview(mpiexec, navier, scratch, ranks, case, n, sets):
    pvbatch = shutil.which("pvbatch")
    if not pvbatch or not has_hdf5(navier):
        print("skipped: needs ParaView's pvbatch (Debian: paraview python3-paraview) and navier with HDF5")
        if os.environ.get("NAV_CI"):  # CI (.ci/run) installs both: a skip there is a failure
            print("NAV_CI is set: ParaView must be checked in CI (./bootstrap.sh installs python3-paraview)")
            return False
        return SKIP
    out = os.path.join(scratch, "pv")
    shutil.rmtree(out, ignore_errors=True)
    rc, log = run(mpiexec, navier, ranks, ["run", case, "--output", out, "--set", f"time.max_steps={n}", "--set",
                                           "output.format=hdf5", "--set", f"output.fields_every={max(n // 2, 1)}"]
                  + sets_args(sets), os.path.join(scratch, "pv_run.log"))
    script = os.path.join(scratch, "open_xdmf.py")
    open(script, "w").write(PARAVIEW_SCRIPT)
    res = subprocess.run([pvbatch, script, os.path.join(out, "fields.xmf")], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=300)
    got = [l for l in res.stdout.splitlines() if l.startswith("PVJSON")]
    if rc or not got:
        print(log[-1500:], res.stdout[-1500:])
        return False
    pv = json.loads(got[0][6:])
    s = summary(out)
    import h5py

    times = []
    for p in sorted(glob.glob(os.path.join(out, "fields_*.h5"))):
        with h5py.File(p, "r") as f:
            times.append(float(f.attrs["time"]))
            names = {k: (f[k].shape[-1] if f[k].ndim > s["dim"] else 1) for k in f.keys() if k not in ("x", "y", "z")}
    cells = s["cells"]
    print(f"ParaView ({pv['reader']}) opens fields.xmf: times {pv['times']} (files {times}), {pv['cells']} cells "
          f"(summary {cells}), bounds {pv['bounds']}, cell arrays {pv['arrays']} (datasets {names})")
    return pv["times"] == times and pv["cells"] == cells and pv["arrays"] == names and \
        all(abs(a - b) < 1e-12 for a, b in zip(pv["bounds"][1::2][:s["dim"]], [1.0] * s["dim"]))


# ---------------------------------------------------------------------------------------- vorticity
def case_get(case, sets, section, key, default):
    for a in sets:
        if a.split("=", 1)[0].strip() == f"{section}.{key}":
            return a.split("=", 1)[1].strip()
    sec = None
    for line in open(case):
        line = line.split("#")[0].split(";")[0].strip()
        if line.startswith("["):
            sec = line.strip("[]").strip()
        elif "=" in line and sec == section and line.split("=", 1)[0].strip() == key:
            return line.split("=", 1)[1].strip()
    return default


def exact_curl(initial, amp, k, X, Y, Z):
    """The curl of the analytic initial field at t = 0, written out by hand (not from navier):
    Taylor-Green u = A sin(kx x) cos(ky y), v = -A kx/ky cos(kx x) sin(ky y):
        w_z = dv/dx - du/dy = A (kx^2/ky + ky) sin(kx x) sin(ky y);
    ABC (k = kx) u = A (sin kz + cos ky, sin kx + cos kz, sin ky + cos kx):
        w = (dw/dy - dv/dz, du/dz - dw/dx, dv/dx - du/dy)
          = A k (cos ky + sin kz, cos kz + sin kx, cos kx + sin ky).
    Also returns the sum of the amplitudes of the derivative terms of each component (the scale of
    the truncation bound)."""
    import numpy as np
    if initial == "taylor_green":
        kx, ky = k[0], k[1]
        return [amp * (kx * kx / ky + ky) * np.sin(kx * X) * np.sin(ky * Y)], amp * (kx * kx / ky + ky)
    kk = k[0]
    return [amp * kk * (np.cos(kk * Y) + np.sin(kk * Z)), amp * kk * (np.cos(kk * Z) + np.sin(kk * X)),
            amp * kk * (np.cos(kk * X) + np.sin(kk * Y))], 2 * amp * kk


def check_vorticity(mpiexec, navier, scratch, ranks, case, sets):
    """The vorticity of the snapshot at t = 0 of an analytic field (Taylor-Green 2D, ABC 3D) in the
    VTK and HDF5 files against the exact curl at the cell centres: the output interpolates the face
    velocities to the centres (factor cos(k h/2) on a mode) and differences the neighbours' centre
    values over 2h (factor sin(k h)/(k h)), so each derivative term is off by at most
    (1/8 + 1/6) (k h)^2 = 7/24 (k h)^2 of its amplitude: |w - w_exact| <= 7/24 (k h)^2 S per
    component, S the sum of the term amplitudes; the magnitude (HDF5, 3D) within sqrt(3) times that."""
    try:
        import numpy as np
    except ImportError as e:
        print(f"skipped: {e}")
        return SKIP
    out = os.path.join(scratch, "vort")
    shutil.rmtree(out, ignore_errors=True)
    both = has_hdf5(navier)
    args = ["run", case, "--output", out, "--set", "time.max_steps=1", "--set", "time.end_time=0",
            "--set", "output.fields_every=1", "--set", f"output.format={'both' if both else 'vtk'}"] + sets_args(sets)
    rc, log = run(mpiexec, navier, ranks, args, os.path.join(scratch, "vort.log"))
    if rc:
        print(log[-2000:])
        return False
    s = summary(out)
    dim = s["dim"]
    n = s["grid"]
    initial = case_get(case, sets, "physics", "initial", "rest")
    amp = float(case_get(case, sets, "physics", "amplitude", "1"))
    L = [float(case_get(case, sets, "grid", f"l{a}", "1")) for a in "xyz"]
    O = [float(case_get(case, sets, "grid", f"{a}0", "0")) for a in "xyz"]
    k = [2 * math.pi / l for l in L]
    h = [L[d] / n[d] for d in range(3)]
    centres = [O[d] + (np.arange(n[d]) + 0.5) * h[d] - O[d] for d in range(3)]
    if dim == 3:
        Z, Y, X = np.meshgrid(centres[2], centres[1], centres[0], indexing="ij")
    else:
        Y, X = np.meshgrid(centres[1], centres[0], indexing="ij")
        Z = None
    exact, S = exact_curl(initial, amp, k, X, Y, Z)
    bound = 7 / 24 * max(k[d] * h[d] for d in range(dim)) ** 2 * S
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from navtest import read_vtk
    files = {"vtk": os.path.join(out, "fields_00000000.vtk")}
    _, t0, _, arrays = read_vtk(files["vtk"])
    shape = X.shape + ((3,) if dim == 3 else ())
    got = {"vtk": np.array(arrays["vorticity"], dtype=float).reshape(shape)}
    mag = None
    if both:
        import h5py
        with h5py.File(os.path.join(out, "fields_00000000.h5"), "r") as f:
            got["hdf5"] = np.array(f["vorticity"]).reshape(shape)
            if dim == 3:
                mag = np.array(f["vorticity_magnitude"]).reshape(X.shape)
    ok = t0 == 0
    scale = max(float(np.max(np.abs(e))) for e in exact)
    for fmt, w in got.items():
        comps = [w[..., c] for c in range(3)] if dim == 3 else [w]
        errs = [float(np.max(np.abs(a - e))) for a, e in zip(comps, exact)]
        good = max(errs) <= bound * (1 + 1e-6) + 1e-6 * scale  # 1e-6: the float32 of the VTK file
        ok &= good
        print(f"{s['case']} {'x'.join(map(str, n[:dim]))}, t = 0, {fmt}: max |w - curl u_exact| per component "
              + ", ".join(f"{e:.3e}" for e in errs) + f" (max |w_exact| {scale:.3f}, bound 7/24 (kh)^2 S = {bound:.3e})"
              + ("" if good else "  FAIL"))
    if mag is not None:
        emag = np.sqrt(sum(e * e for e in exact))
        err = float(np.max(np.abs(mag - emag)))
        good = err <= math.sqrt(3) * bound * (1 + 1e-6)
        ok &= good
        print(f"  hdf5 vorticity_magnitude: max ||w| - |curl u_exact|| = {err:.3e} (bound sqrt(3) x {bound:.3e})"
              + ("" if good else "  FAIL"))
    return bool(ok)


def main():
    mpiexec, navier, scratch, check = sys.argv[1:5]
    rest = sys.argv[5:]
    sets = [a for a in rest if "=" in a and "." in a.split("=")[0]]
    args = [a for a in rest if a not in sets and a != "--set"]
    os.makedirs(scratch, exist_ok=True)
    if check == "restart":
        ok = check_restart(mpiexec, navier, scratch, int(args[0]), int(args[1]), args[2], int(args[3]), sets)
    elif check == "threads":
        ok = check_threads(mpiexec, navier, scratch, int(args[0]), args[1], int(args[2]), sets)
    elif check == "badckpt":
        ok = check_badckpt(mpiexec, navier, scratch, int(args[0]), args[1], sets)
    elif check == "signal":
        ok = check_signal(mpiexec, navier, scratch, int(args[0]), args[1], sets, *args[2:3])
    elif check == "cadence":
        ok = check_cadence(mpiexec, navier, scratch, args[0], sets)
    elif check == "signal2":
        ok = check_second_signal(mpiexec, navier, scratch, args[0], sets)
    elif check == "blowup":
        ok = check_blowup(mpiexec, navier, scratch, args[0], sets)
    elif check == "blowup_nan":
        ok = check_blowup_nan(mpiexec, navier, scratch, int(args[0]), args[1], sets)
    elif check == "hdf5":
        ok = check_hdf5(mpiexec, navier, scratch, int(args[0]), args[1], int(args[2]), sets)
    elif check == "vorticity":
        ok = check_vorticity(mpiexec, navier, scratch, int(args[0]), args[1], sets)
    elif check == "paraview":
        ok = check_paraview(mpiexec, navier, scratch, int(args[0]), args[1], int(args[2]), sets)
    elif check == "plot":
        ok = check_plot(mpiexec, navier, scratch, args[0], sets)
    elif check == "progress":
        ok = check_progress(mpiexec, navier, scratch, args[0], sets)
    elif check == "diskfull":
        ok = check_diskfull(mpiexec, navier, scratch, args[0], sets)
    else:
        sys.exit(f"unknown check {check}")
    if ok == SKIP:
        sys.exit(SKIP)
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
