#!/usr/bin/env python3
"""The labelled grouping benchmark: findings of known bugs (bench/grouping/<kind>/<bug>/<seed>/,
each a finding as a campaign saves it, with the bug's reduced test as its reduced/ test),
triaged afresh and grouped into bugs by their keys, then compared with their labels (the
<bug> directory, which stands where a campaign puts the signature).

A merge is a bug of the triage that holds findings of two labelled bugs: it hides one of
them. A split is a labelled bug whose findings end in more than one bug: it is shown twice.
The goal is no merges and at most one split in ten bugs.

    scripts/grouping-bench.py [--jar JAR] [DIR]

JAR: the yarpj jar to run (default: this checkout's, built by ./yarpj); DIR: where the
copy and its triage go (default: a new temporary directory). Needs the compilers of the
findings: scripts/setup.sh installs them (the newest gcc and clang, the AArch64 and RISC-V
cross compilers and qemu); gcc 12 and clang 14 are Debian's.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HOME = Path(__file__).resolve().parent.parent
BENCH = HOME / "bench" / "grouping"


def main():
    ap = argparse.ArgumentParser(description="The labelled grouping benchmark: merges and splits of the bug keys.")
    ap.add_argument("--jar", help="the yarpj jar to run (default: this checkout's)")
    ap.add_argument("dir", nargs="?", help="where the copy and its triage go")
    a = ap.parse_args()
    base = Path(a.dir) if a.dir else Path(tempfile.mkdtemp(prefix="grouping-"))
    results = base / "results"
    if results.exists():
        shutil.rmtree(results)
    shutil.copytree(BENCH, results)
    empty = base / "no-known-bugs"
    empty.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, YARPJ_HOME=str(HOME))
    tools = HOME / ".tools" / "compilers" / "bin"
    if tools.is_dir():
        env["PATH"] = f"{tools}:{env['PATH']}"
    if a.jar:
        cmd = ["java", "-jar", a.jar]
    else:
        cmd = [str(HOME / "yarpj")]
    # No record: every bug is new, so that the keys alone group the findings.
    cmd += ["bugs", str(results), "--triage", "--reduce-budget", "0", "--known-bugs", str(empty)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        print(run.stderr.strip() or run.stdout.strip(), file=sys.stderr)
        return 2
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    book = json.loads((results / "bugs.json").read_text())
    labels_of_bug = {}
    bugs_of_label = defaultdict(set)
    findings = 0
    for b in book["bugs"]:
        labels = set()
        for f in b["findings"]:
            label = Path(f["finding"]).parts[1]
            labels.add(label)
            bugs_of_label[label].add(b["id"])
            findings += 1
        labels_of_bug[b["id"]] = (labels, b)
    refused = book.get("findings_refused", [])
    labelled = sorted({p.parent.parent.name for p in BENCH.glob("*/*/*/meta.json")})
    merges = [(i, sorted(l)) for i, (l, _) in labels_of_bug.items() if len(l) > 1]
    splits = {l: len(bs) - 1 for l, bs in bugs_of_label.items() if len(bs) > 1}
    for i, (labels, b) in labels_of_bug.items():
        k = b["key"]
        line = f"{k['kind']}{'' if k['target'] == 'host' else ' on ' + k['target']}, {k['family']}, blamed: {k['blamed'] or '(nothing)'}, " \
               f"options: {' '.join(k['options']) or '(the level alone)'}{', crash: ' + k['crash'] if k.get('crash') else ''}"
        print(f"{i}: {', '.join(sorted(labels))} ({len(b['findings'])} finding(s)): {line}")
    for r in refused:
        print(f"refused: {r}")
    print(f"{len(labelled)} labelled bugs, {findings} findings triaged ({len(refused)} refused), {len(book['bugs'])} bugs by key; "
          f"merges: {len(merges)} {merges}; splits: {sum(splits.values())} {splits}; triage CPU {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
