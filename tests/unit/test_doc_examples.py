#!/usr/bin/env python3
"""The `navier run` examples of README.md and docs/*.md are accepted as written (issue 17: a renamed
key, a removed case or a key that a case's method rejects would otherwise break them silently).

usage: test_doc_examples.py NAVIER SCRATCH

Collects every command that starts with `build/navier run`, `navier run` or `build/navier plot` from the fenced code blocks
and the inline code of README.md and docs/*.md (a trailing `# comment` dropped), leaves out those that
need something a short check cannot have (`--restart`, placeholders `...`/`CASE`/`FILE`/`DIR`, 256^3 GPU
grids), and runs each in SCRATCH (where `cases` links to the repository's cases) with
`--set time.max_steps=2 --set output.plots=false` appended (README.md's `plot` command as written, on the
folder of an earlier example): each must exit 0. The install and Python commands of README.md are run by unit_install and
unit_python_simulation. The default case runs
first, as `./bootstrap.sh run` does, so that the `output/cavity2d_re100/config.ini` example has its
file. Prints each command with its exit status and seconds."""
import glob
import os
import re
import shlex
import subprocess
import sys
import time

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def commands(path):
    text = open(path).read()
    found, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        spans = [line] if fenced else re.findall(r"`([^`]+)`", line)
        for s in spans:
            s = s.strip()
            if s.startswith(("build/navier run", "navier run", "build/navier plot")):
                found.append(s.split(" #")[0].strip())
    return found


def main():
    navier, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(scratch, exist_ok=True)
    link = os.path.join(scratch, "cases")
    if not os.path.islink(link):
        os.symlink(os.path.join(SRC, "cases"), link)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
    tail = ["--set", "time.max_steps=2", "--set", "output.plots=false"]
    files = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
    todo = [("(bootstrap.sh run)", "navier run")]
    for f in files:
        for c in commands(f):
            if c.startswith("build/navier plot") and not f.endswith("README.md"):
                continue  # figures cost seconds each: the README's plot command only
            if "--restart" in c or re.search(r"\.\.\.|\bCASE\b|\bFILE\b|\bDIR\b|=256\b", c):
                continue
            todo.append((os.path.relpath(f, SRC), c))
    fails, seen = 0, set()
    for where, c in todo:
        if c in seen:
            continue
        seen.add(c)
        argv = shlex.split(c)
        argv[0] = navier
        t0 = time.time()
        plot = argv[1:2] == ["plot"]  # a plot of a folder that an earlier example wrote: as written
        res = subprocess.run(argv + ([] if plot else tail), cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        print(f"{'ok' if res.returncode == 0 else 'FAIL'} exit {res.returncode} {time.time() - t0:.1f} s  {where}: {c}")
        if res.returncode != 0:
            fails += 1
            print("  " + "\n  ".join(res.stdout.strip().splitlines()[-5:]))
    print(f"{len(seen)} examples, {fails} failed")
    return 1 if fails or len(seen) < 5 else 0


if __name__ == "__main__":
    sys.exit(main())
