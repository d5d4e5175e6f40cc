#!/usr/bin/env python3
"""Mutation check: does the test suite catch small bugs put into the code on purpose?

usage: mutate.py [--work DIR] [--jobs N] [--list FILE] [ID ...]

Copies the source tree (the files git tracks, and the untracked ones it does not ignore) to
DIR/src (default /tmp/navier-mutations; the working tree is never changed), configures DIR/build
(Release, CPU only: -DNAV_ENABLE_CUDA=OFF) and builds it, runs every test that a selected mutation
names on the unchanged copy (they must all pass), then for each mutation of the list (or the IDs
given): applies it to the copy, rebuilds (incrementally), runs its tests with ctest (stopping at the
first failure; a time limit of 60 s + 4 times their time on the unchanged copy, past which the mutant
counts as killed: it hangs or crawls) and puts the file back. A mutation is KILLED when a test fails (or the mutant does
not build: reported as such), SURVIVED when all its tests pass. Prints one line per mutation and a
summary; exits 1 when a mutation survived, 2 when the setup failed.

List format (mutations.txt): blocks separated by blank lines, '#' lines are comments,
    id: short-name
    why: what the change breaks
    file: path/in/the/repository
    old: exact text that occurs exactly once in the file
    new: its replacement            (old/new pairs may repeat, applied in order)
    tests: ctest names, space-separated (run as ^(a|b)$)
    env: NAME=value ...             (optional: the environment of those tests, e.g. to run a part)"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def parse(path):
    muts, cur = [], None
    for raw in open(path):
        line = raw.rstrip("\n")
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                muts.append(cur)
            cur = None
            continue
        key, _, val = line.partition(":")
        key, val = key.strip(), val[1:] if val.startswith(" ") else val
        if cur is None:
            cur = {"pairs": []}
        if key == "old":
            cur["pairs"].append([val, None])
        elif key == "new":
            cur["pairs"][-1][1] = val
        elif key in ("id", "why", "file", "tests", "env"):
            cur[key] = val
        else:
            sys.exit(f"{path}: unknown line {line!r}")
    if cur:
        muts.append(cur)
    for m in muts:
        if not all(k in m for k in ("id", "why", "file", "tests")) or not m["pairs"] or \
                any(n is None for _, n in m["pairs"]):
            sys.exit(f"{path}: incomplete mutation {m}")
    return muts


def sh(cmd, log, cwd=None, timeout=None):
    with open(log, "w") as out:
        return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode


def copy_tree(work):
    src = os.path.join(work, "src")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, stdout=subprocess.PIPE,
                           text=True, check=True).stdout.split("\n")
    keep = set()
    for f in files:
        if not f or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        keep.add(f)
        dst = os.path.join(src, f)
        s = os.path.join(ROOT, f)
        if os.path.exists(dst) and open(dst, "rb").read() == open(s, "rb").read():
            continue  # unchanged: keep its time stamp (no rebuild)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(s, dst)  # a new time stamp: make rebuilds what it changed
    for dirpath, _, names in os.walk(src):  # files gone from the tree
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), src)
            if rel not in keep:
                os.remove(os.path.join(dirpath, n))
    return src


def run_tests(build, tests, log, limit=None, env=None):
    """ctest on the tests (stopping at the first failure); limit: seconds for all of them, after which
    the tests are stopped and count as failed (a mutant that hangs or crawls), rc 124."""
    regex = "^(" + "|".join(re.escape(t) for t in tests) + ")$"
    cmd = ["ctest", "-R", regex, "--stop-on-failure", "--output-on-failure"]
    with open(log, "w") as out:
        p = subprocess.Popen(cmd, cwd=build, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                             env=dict(os.environ, **(env or {})))
        try:
            rc = p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = 124
    text = open(log).read()
    ran = len(re.findall(r"Test +#\d+: ", text))
    failed = re.findall(r"Test +#\d+: (\S+) \.*\s*\*+\w+", text)
    if rc == 124:
        failed.append(f"the time limit ({limit:.0f} s)")
    times = {m.group(1): float(m.group(2)) for m in re.finditer(r"Test +#\d+: (\S+) \.+ +Passed +([0-9.]+) sec", text)}
    return rc, ran, failed, times


def stop(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")  # unwinds through the finally that puts the file back


def main():
    signal.signal(signal.SIGTERM, stop)
    args = sys.argv[1:]
    work, jobs, listfile = "/tmp/navier-mutations", "2", os.path.join(HERE, "mutations.txt")
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--work":
            work = os.path.abspath(args.pop(0))
        elif opt == "--jobs":
            jobs = args.pop(0)
        elif opt == "--list":
            listfile = args.pop(0)
        else:
            sys.exit(__doc__)
    muts = parse(listfile)
    ids = [m["id"] for m in muts]
    if len(set(ids)) != len(ids):
        sys.exit("duplicate mutation ids")
    if args:
        unknown = set(args) - set(ids)
        if unknown:
            sys.exit(f"unknown mutation ids: {sorted(unknown)}")
        muts = [m for m in muts if m["id"] in args]
    os.makedirs(work, exist_ok=True)
    src = copy_tree(work)
    build = os.path.join(work, "build")
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    t0 = time.time()
    if sh(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DNAV_ENABLE_CUDA=OFF"],
          os.path.join(logs, "configure.log")) or \
            sh(["cmake", "--build", build, "-j", jobs], os.path.join(logs, "build.log")):
        print(f"setup failed: see {logs}/configure.log and build.log")
        return 2
    # every mutation must apply to the copy as it is
    for m in muts:
        text = open(os.path.join(src, m["file"])).read()
        for old, _ in m["pairs"]:
            if text.count(old) != 1:
                print(f"mutation {m['id']}: the text {old!r} occurs {text.count(old)} times in {m['file']} (needs 1)")
                return 2
    everything = sorted({t for m in muts for t in m["tests"].split()})
    base_s = {}  # seconds of each test (per environment) on the unchanged copy
    for envs in sorted({m.get("env", "") for m in muts}):
        names = sorted({t for m in muts if m.get("env", "") == envs for t in m["tests"].split()})
        env = dict(kv.split("=", 1) for kv in envs.split())
        log = os.path.join(logs, f"baseline{len(base_s)}.log")
        rc, ran, failed, times = run_tests(build, names, log, None, env)
        if rc or ran != len(names):
            print(f"the unchanged copy fails (or lacks) tests: {failed or names} ({ran} of {len(names)} ran; "
                  f"environment {envs or 'plain'}); see {log}")
            return 2
        base_s.update({(t, envs): s for t, s in times.items()})
    print(f"mutation check: {len(muts)} mutations, {len(everything)} tests pass on the unchanged copy "
          f"(set-up {time.time() - t0:.0f} s; work folder {work})")
    survived, killed = [], 0
    for m in muts:
        t1 = time.time()
        path = os.path.join(src, m["file"])
        original = open(path).read()
        text = original
        for old, new in m["pairs"]:
            text = text.replace(old, new, 1)
        open(path, "w").write(text)
        try:
            blog = os.path.join(logs, f"{m['id']}.build.log")
            if sh(["cmake", "--build", build, "-j", jobs], blog):
                verdict, by = "KILLED", "does not build"
            else:
                names = m["tests"].split()
                limit = 60 + 4 * sum(base_s.get((t, m.get("env", "")), 60) for t in names)
                env = dict(kv.split("=", 1) for kv in m.get("env", "").split())
                rc, ran, failed, _ = run_tests(build, names, os.path.join(logs, f"{m['id']}.test.log"), limit, env)
                if rc:
                    verdict, by = "KILLED", "by " + (", ".join(failed) if failed else "a test (see the log)")
                else:
                    verdict, by = "SURVIVED", f"{ran} tests passed"
        finally:
            open(path, "w").write(original)
        if verdict == "KILLED":
            killed += 1
        else:
            survived.append(m["id"])
        print(f"{verdict:8s} {m['id']:24s} {m['file']}: {m['why']} -- {by} ({time.time() - t1:.0f} s)", flush=True)
    sh(["cmake", "--build", build, "-j", jobs], os.path.join(logs, "restore.build.log"))
    print(f"{len(muts)} mutations: {killed} killed, {len(survived)} survived" +
          (f": {' '.join(survived)}" if survived else "") + f" ({time.time() - t0:.0f} s in all)")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
