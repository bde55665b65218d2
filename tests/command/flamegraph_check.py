#!/usr/bin/env python3
"""Checks SVG flame graphs with an XML parser.

flamegraph_check.py fixed DTPP_FLAMEGRAPH
    draws fixed folded stacks with dtpp-flamegraph and requires every frame of them, with its
    count, depth and place, and widths that add up.
flamegraph_check.py command DTPP
    requires `dtpp -x flamegraph=FILE` of a ustack() aggregation to draw its one sample.
flamegraph_check.py kernel DTPP AVAILABLE
    profiles the kernel (profile-997, stack()) while a shell spins: the folded lines' shape, and a
    graph of the same samples. Prints dtpp-kernel-skip: and the reason where the kernel refuses.
"""
import re
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
WIDTH, PAD = 1200.0, 10.0


def boxes(svg_text):
    """(depth, name, samples, x, width) of every frame box, after checks of the document."""
    root = ET.fromstring(svg_text)
    assert root.tag == SVG + "svg", root.tag
    assert float(root.get("width")) == WIDTH
    scripts = root.findall(SVG + "script")
    assert len(scripts) == 1 and scripts[0].get("href") is None and "function zoom" in scripts[0].text
    for element in root.iter():
        assert element.get("href") is None and element.get("{http://www.w3.org/1999/xlink}href") is None
    found = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "f":
            continue
        title = g.find(SVG + "title").text
        name, rest = title[: title.rindex(" (")], title[title.rindex(" (") + 2:]
        samples = int(rest.split(" ")[0])
        rect = g.find(SVG + "rect")
        found.append((int(g.get("data-d")), name, samples, float(rect.get("x")), float(rect.get("width"))))
    return found


def expected_tree(stacks):
    """{(path tuple): samples} of every frame the folded stacks give, "all" the root."""
    tree = {}
    for stack, count in stacks.items():
        if count <= 0:
            continue
        path = ("all",)
        tree[path] = tree.get(path, 0) + count
        for frame in stack.split(";"):
            path = path + (frame,)
            tree[path] = tree.get(path, 0) + count
    return tree


def check_geometry(found):
    total = max(samples for depth, name, samples, x, w in found if depth == 0)
    scale = (WIDTH - 2 * PAD) / total
    for depth, name, samples, x, w in found:
        assert abs(w - samples * scale) < 0.002, (name, w, samples * scale)
        callees = [b for b in found if b[0] == depth + 1 and x - 0.002 <= b[3] and b[3] + b[4] <= x + w + 0.002]
        assert sum(b[2] for b in callees) <= samples, name
        assert abs(sum(b[4] for b in callees) - sum(b[2] for b in callees) * scale) < 0.01
        # Callees are sorted by name, left to right, each starting where the one before ended.
        callees.sort(key=lambda b: b[3])
        assert [b[1] for b in callees] == sorted(b[1] for b in callees), [b[1] for b in callees]
        at = x
        for b in callees:
            assert abs(b[3] - at) < 0.002, (b, at)
            at += b[2] * scale  # from the counts: the rounded widths would add up their rounding
    return total


def fixed(tool):
    stacks = {
        "main;parse;lex": 5,
        "main;parse": 2,
        "main;eval;add": 3,
        "main;eval;mul": 1,
        "main;eval;add;carry": 4,
        "start;main;eval": 1,
        "idle": 0,
        "odd<&\"'>;frame with spaces": 2,
    }
    text = "".join(f"{s} {c}\n" for s, c in stacks.items())
    # The same stack twice is one, its counts added.
    text += "main;parse 1\n"
    stacks["main;parse"] += 1
    svg = subprocess.run([tool, "--title", "fixed <data>"], input=text.encode(), capture_output=True, check=True).stdout
    found = boxes(svg)
    tree = expected_tree(stacks)
    # Every frame: its name, depth and samples, and nothing else.
    got = sorted((d, n, s) for d, n, s, x, w in found)
    want = sorted((len(path) - 1, path[-1], samples) for path, samples in tree.items())
    assert got == want, (got, want)
    assert check_geometry(found) == 19
    assert b"fixed &lt;data&gt;" in svg
    bad = subprocess.run([tool], input=b"main;parse\n", capture_output=True)
    assert bad.returncode == 1 and b"line 1: not a folded stack" in bad.stderr, bad


def command(dtpp):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "graph.svg")
        with open(path, "w") as stale:
            stale.write("x" * 100000)  # a longer file before: the graph replaces it
        run = subprocess.run([dtpp, "-q", "-x", "flamegraph=" + path, "-x", "oformat=folded", "-n",
                              "BEGIN { @[ustack()] = count(); @[ustack()] = count(); @n = count(); exit(0); }"],
                             capture_output=True, check=True)
        with open(path, "rb") as f:
            found = boxes(f.read())
        # The folded output has the stack (its frames root first) and the keyless count.
        lines = run.stdout.decode().splitlines()
        assert len(lines) == 2 and lines[0].endswith(" 2") and lines[1] == "@n 1", lines
        frames = lines[0][: -len(" 2")].split(";")
        assert len(frames) >= 2 and all(f.startswith("dtpp`") or "`" in f or f.startswith("0x") for f in frames), frames
        assert check_geometry(found) == 2
        assert sorted((d, n) for d, n, s, x, w in found) == [(0, "all")] + [(i + 1, f) for i, f in enumerate(frames)]
        # A file that cannot be opened stops the run before it starts.
        bad = subprocess.run([dtpp, "-x", "flamegraph=" + directory + "/no/such/dir.svg", "-n", "BEGIN { exit(0); }"],
                             capture_output=True)
        assert bad.returncode == 1 and b"failed to open flame graph file" in bad.stderr, bad


def kernel(dtpp, available):
    why = subprocess.run([available], capture_output=True, text=True)
    if why.returncode != 0:
        print("dtpp-kernel-skip: " + why.stdout.strip())
        return
    spinner = subprocess.Popen(["sh", "-c", "while :; do :; done"])
    try:
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "cpu.svg")
            run = subprocess.run([dtpp, "-q", "-x", "oformat=folded", "-x", "flamegraph=" + path, "-n",
                                  "profile-997 { @[stack()] = count(); } tick-1s { exit(0); }"],
                                 capture_output=True, text=True, check=True)
            with open(path, "rb") as f:
                found = boxes(f.read())
    finally:
        spinner.kill()
        spinner.wait()
    lines = run.stdout.splitlines()
    assert lines, "no samples"
    frame = r"[A-Za-z0-9_.-]+`[^;` ]+|0x[0-9a-f]+|\[no frames\]"
    shape = re.compile(rf"(?P<stack>(?:{frame})(?:;(?:{frame}))*) (?P<count>[1-9][0-9]*)")
    total = 0
    for line in lines:
        match = shape.fullmatch(line)
        assert match, line
        assert "+0x" not in match["stack"], line
        total += int(match["count"])
    # The graph holds the same samples, its root their sum.
    assert check_geometry(found) == total
    assert len(set(lines)) == len(lines)


if __name__ == "__main__":
    {"fixed": fixed, "command": command, "kernel": kernel}[sys.argv[1]](*sys.argv[2:])
    print("ok")
