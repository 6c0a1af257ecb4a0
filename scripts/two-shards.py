#!/usr/bin/env python3
"""Two shards of one campaign into one results directory on this machine, each with its
triage lane; one shard is killed with kill -9 while its lane works, then resumed.

It checks what a cluster relies on: both lanes triaged, no finding was triaged twice (a
finding's triage/triage.json is written once: with --reduce-budget 0 nothing rewrites it,
so a second write is a second triage), and nothing was lost: every finding on disk ends
triaged. The compiler is the fake of the test suite with two planted bugs, so that findings
come quickly and triage takes seconds.

    scripts/two-shards.py [DIR [K]]   (DIR: where the results go, a new temporary one by default;
                                       K: the shard killed, 0 or 1, by default 1)
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOME = Path(__file__).resolve().parent.parent
FAKE = HOME / "src/test/resources/fake-compilers/two-planted-bugs.sh"
POLICY = HOME / "src/test/resources/policies/small.yaml"
KINDS = ["wrong-code", "compiler-crash", "runtime-crash", "program-rejected", "compile-hang"]


def findings(results):
    out = []
    for k in KINDS:
        for meta in sorted((results / k).glob("*/*/meta.json")):
            out.append(meta.parent)
    return out


def shard(results, tb, k, *extra):
    cmd = [str(HOME / "yarpj"), "fuzz", "--quiet", "--out", str(results), "--reduce-budget", "0"]
    if not extra:
        cmd += ["--seeds", "1..40", "--shard", f"{k}/2", "-j", "1", "--testbeds", str(tb), "--policy", str(POLICY), "--triage-share", "50"]
    else:
        cmd += list(extra) + ["--shard", f"{k}/2"]
    log = open(results.parent / f"shard{k}{'-resumed' if extra else ''}.out", "w")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def main():
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="two-shards-"))
    victim = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if victim not in (0, 1):
        print("two-shards.py: the shard to kill is 0 or 1", file=sys.stderr)
        return 2
    base.mkdir(parents=True, exist_ok=True)
    results = base / "results"
    tb = base / "testbeds.yaml"
    os.chmod(FAKE, 0o755)
    tb.write_text("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: space\n    c: " + str(FAKE)
                  + "\n    axes:\n      opt: [-O1, -O2]\n      planted: [\"\", -mplanted-wrong, -mplanted-ice]\n")
    writes = {}  # triage.json -> the mtimes seen

    def look():
        for f in findings(results):
            t = f / "triage/triage.json"
            if t.exists():
                writes.setdefault(t, set()).add(t.stat().st_mtime_ns)

    shards = [shard(results, tb, 0)]
    time.sleep(2)  # the first to start saves the settings
    shards.append(shard(results, tb, 1))
    killed_at = None
    while any(p.poll() is None for p in shards):
        look()
        # Kill one shard once the lanes have triaged two findings and it is still at work.
        if killed_at is None and shards[victim].poll() is None and len(writes) >= 2:
            os.kill(shards[victim].pid, signal.SIGKILL)  # the JVM alone: a triage it started runs on, an orphan that holds its finding
            shards[victim].wait()
            killed_at = len(writes)
            print(f"killed shard {victim} with kill -9 after {killed_at} findings were triaged")
        time.sleep(0.5)
    if killed_at is None:
        print("the shard ended before it could be killed: too few findings", file=sys.stderr)
        return 2
    resumed = shard(results, tb, victim, "--resume")
    while resumed.poll() is None:
        look()
        time.sleep(0.5)
    look()
    on_disk = findings(results)
    untriaged = [str(f) for f in on_disk if not (f / "triage/triage.json").exists()]
    twice = [str(t) for t, m in writes.items() if len(m) > 1]
    survivor = 1 - victim
    lanes = {}
    for name in [f"shard{survivor}", f"shard{victim}-resumed"]:
        text = (base / f"{name}.out").read_text()
        line = next((l for l in text.splitlines() if l.startswith("triage lane:")), "")
        lanes[name] = int(line.split()[2]) if line else 0
    book = json.loads((results / "bugs.json").read_text())
    print(f"findings: {len(on_disk)}; triaged: {book['findings_triaged']}; bugs: {len(book['bugs'])}")
    before_kill = len(on_disk) - lanes[f"shard{survivor}"] - lanes[f"shard{victim}-resumed"]
    print(f"triaged by shard {survivor}'s lane: {lanes[f'shard{survivor}']}; by shard {victim}'s before the kill and its resumed lane: "
          f"{before_kill} and {lanes[f'shard{victim}-resumed']}")
    print(f"triaged twice: {len(twice)} {twice}")
    print(f"not triaged: {len(untriaged)} {untriaged}")
    both = lanes[f"shard{survivor}"] > 0 and before_kill + lanes[f"shard{victim}-resumed"] > 0
    ok = not twice and not untriaged and both and book["findings_triaged"] == len(on_disk)
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
