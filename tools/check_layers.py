#!/usr/bin/python3
"""Layering check of navier's compiled files (issue 39, "No call circles"; /work/shared/DESIGN.md,
"Who may call whom": app -> solvers -> physics/poisson -> grid/backend -> core; io -> solvers' state and
the model interface; no file calls back up, no two compiled files call each other in a circle).

Run it on a build folder after a build (the objects of navier_core, navier_cuda when CUDA is on,
navier_petsc when PETSc is on, and the navier binary are read with `nm -P`):

    cmake --build build -j2 --target navier && tools/check_layers.py build
    tools/check_layers.py build --edges      # also list every arrow with the symbols it uses
    tools/check_layers.py build --source DIR # the includes of DIR/src/core instead of the build's source
                                             # folder (a build of an older commit than its folder holds)

File A -> file B when A's object uses a global symbol that B's object defines (a symbol with more
than one definition, e.g. a weak C++ instance in the CUDA objects, is left out). It prints
  1. every call circle: a strongly connected component of more than one file, its files, and the
     arrows inside it with up to three symbols each;
  2. every upward arrow: A -> B with layer(A) below layer(B) in LAYERS;
  3. the files of src/core that include a header of a higher layer (the core knows no backend);
  4. object files whose source has no layer in LAYERS (add a row).
Exit 0 when all four are empty, 1 otherwise, 2 on bad usage. Python 3 standard library only; needs nm.
Not in ctest yet: it fails on the code before the redesign (6 circles of 19 files).
"""
import os
import re
import subprocess
import sys

# Layer of each source path: (path prefix relative to the repository, or to the build folder for
# generated sources; rank; name). The longest matching prefix wins. A file may use the files of its
# own rank and of lower ranks, never of a higher rank.
LAYERS = [
    ("embed_", 0, "core"),                   # generated from data/ in the build folder: tables only
    ("src/core/", 0, "core"),
    ("src/grid/", 1, "grid"),
    ("src/backend/", 1, "backend"),          # nav_backend.c, common/, cpu/, cuda/
    ("src/physics/", 2, "physics"),
    ("src/solvers/poisson/", 2, "poisson"),
    ("src/io/", 3, "io"),                    # called by the solvers; uses models through the interface
    ("src/solvers/", 4, "solvers"),
    ("src/solvers/nav_flow_state", 3, "solvers' state"),  # the state io may read (checkpoints)
    ("src/lib/", 5, "lib"),                  # the Poisson library API and navier-petsc (after issue 39)
    ("src/petsc/", 5, "lib"),                # navier-petsc before issue 39
    ("app/", 6, "app"),
    ("bench/", 6, "app"),                    # bench_step.c, bench_poisson.c: compiled into navier today
]

TARGETS = ("navier_core", "navier_cuda", "navier_petsc", "navier")
DEFINED = set("TDBRGSCVWiu")   # nm types of a global definition
UNDEFINED = set("Uwv")         # nm types of a use (undefined, weak undefined)


def layer_of(path):
    best = None
    for prefix, rank, name in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, rank, name)
    return (best[1], best[2]) if best else None


def listed_objects(build, target):
    """The target's objects as the build system lists them (Makefile: <target>_OBJECTS in build.make;
    Ninja: the build.ninja rules), so that objects of deleted or moved sources are not read; None when
    neither lists them."""
    make = os.path.join(build, "CMakeFiles", target + ".dir", "build.make")
    if os.path.exists(make):
        with open(make) as f:
            text = f.read()
        m = re.search(r"^" + re.escape(target) + r"_OBJECTS = ((?:.*\\\n)*.*)$", text, re.M)
        return re.findall(r'"([^"]+)"', m.group(1)) if m else []
    ninja = os.path.join(build, "build.ninja")
    if os.path.exists(ninja):
        with open(ninja) as f:
            pat = re.compile(r"^build (CMakeFiles/" + re.escape(target) + r"\.dir/\S+\.o(?:bj)?):", re.M)
            return pat.findall(f.read())
    return None


def objects(build):
    """{source path: object path} of the targets' objects (CMakeFiles/<target>.dir/<source>.o)."""
    out = {}
    for target in TARGETS:
        top = os.path.join(build, "CMakeFiles", target + ".dir")
        listed = listed_objects(build, target)
        if listed is None:  # no build system files: every object under the target's folder
            listed = [os.path.relpath(os.path.join(r, f), build) for r, _, fs in os.walk(top)
                      for f in fs if f.endswith((".o", ".obj"))]
        for rel in listed:
            obj = os.path.join(build, rel)
            if os.path.exists(obj):
                src = os.path.relpath(obj, top)
                out[src[: src.rindex(".")]] = obj
    return out


def symbols(obj):
    """(defined globals, used symbols) of one object file."""
    text = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind in DEFINED:
            defined.add(name)
        elif kind in UNDEFINED:
            used.add(name)
    return defined, used


def graph(objs):
    """{A: {B: [symbols]}} over the source paths of objs."""
    defs, uses, owner = {}, {}, {}
    for src, obj in objs.items():
        defs[src], uses[src] = symbols(obj)
        for s in defs[src]:
            owner.setdefault(s, []).append(src)
    edges = {src: {} for src in objs}
    for a in objs:
        for s in sorted(uses[a]):
            own = owner.get(s, [])
            if len(own) == 1 and own[0] != a:
                edges[a].setdefault(own[0], []).append(s)
    return edges


def demangle(edges):
    """edges with C++ (CUDA) symbol names demangled for printing, when c++filt is there."""
    names = sorted({s for e in edges.values() for syms in e.values() for s in syms if s.startswith("_Z")})
    if not names:
        return edges
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    except OSError:
        return edges
    plain = dict(zip(names, out.splitlines()))
    return {a: {b: [plain.get(s, s) for s in syms] for b, syms in e.items()} for a, e in edges.items()}


def circles(edges):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def core_includes(repo):
    """(file, line number, included header, its layer name) for src/core files that include a header
    of a higher layer (includes are taken relative to src/, as the build's include path)."""
    out = []
    core = os.path.join(repo, "src", "core")
    if not os.path.isdir(core):
        return out
    for f in sorted(os.listdir(core)):
        path = os.path.join(core, f)
        if not f.endswith((".h", ".c", ".cuh", ".cu")):
            continue
        with open(path, errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if not m:
                    continue
                inc = m.group(1)
                lay = layer_of("src/" + inc) if "/" in inc else (0, "core")
                if lay and lay[0] > 0:
                    out.append((f"src/core/{f}", n, inc, lay[1]))
    return out


def repo_of(build):
    """The source folder of a CMake build folder (CMAKE_HOME_DIRECTORY in CMakeCache.txt)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return os.path.dirname(os.path.abspath(__file__)) + "/.."


def main(argv):
    edges_wanted, source = False, None
    rest = argv[1:]
    while rest:
        if rest[0] == "--edges":
            edges_wanted, rest = True, rest[1:]
        elif rest[0] == "--source" and len(rest) > 1:
            source, rest = rest[1], rest[2:]
        else:
            break
    if not argv or argv[0].startswith("-") or rest:
        sys.stderr.write(__doc__)
        return 2
    build = argv[0]
    objs = objects(build)
    if not objs:
        sys.stderr.write(f"check_layers.py: no object files under {build}/CMakeFiles/{{{','.join(TARGETS)}}}.dir\n")
        return 2
    edges = demangle(graph(objs))
    n_edges = sum(len(v) for v in edges.values())
    print(f"{len(objs)} object files, {n_edges} arrows (file A -> file B: A uses a symbol B defines)")
    if edges_wanted:
        for a in sorted(edges):
            for b, syms in sorted(edges[a].items()):
                print(f"  {a} -> {b}: {', '.join(syms)}")

    circ = circles(edges)
    print(f"\ncall circles: {len(circ)} ({sum(len(c) for c in circ)} files)")
    for i, comp in enumerate(circ, 1):
        print(f"  circle {i}: {' '.join(comp)}")
        for a in comp:
            for b, syms in sorted(edges[a].items()):
                if b in comp:
                    more = f" +{len(syms) - 3}" if len(syms) > 3 else ""
                    print(f"      {a} -> {b}: {', '.join(syms[:3])}{more}")

    unlayered = sorted(src for src in objs if layer_of(src) is None)
    up = []
    for a in sorted(edges):
        la = layer_of(a)
        for b, syms in sorted(edges[a].items()):
            lb = layer_of(b)
            if la and lb and la[0] < lb[0]:
                up.append((a, la[1], b, lb[1], syms))
    print(f"\nupward arrows: {len(up)}")
    for a, na, b, nb, syms in up:
        more = f" +{len(syms) - 3}" if len(syms) > 3 else ""
        print(f"  {a} ({na}) -> {b} ({nb}): {', '.join(syms[:3])}{more}")

    inc = core_includes(source or repo_of(build))
    print(f"\ncore files including a higher layer's header: {len(inc)}")
    for f, n, h, name in inc:
        print(f"  {f}:{n}: includes {h} ({name})")

    print(f"\nobject files without a layer: {len(unlayered)}")
    for src in unlayered:
        print(f"  {src}")
    bad = circ or up or inc or unlayered
    print("\ncheck_layers: " + ("FAIL" if bad else "OK"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
