#!/usr/bin/env python3
"""CPU seconds per test by stage, from a campaign's log: generation, each testbed's compile
(and link), runs, and the share of the tests that had a compile-time outlier.

    scripts/stage-cpu.py DIR/campaign.jsonl [FIRST_SEED LAST_SEED]

Two campaigns on the same seeds, each through this, are the side-by-side comparison of
docs/measurements.md ("CPU per test by stage"). Only the log's rows are read: the driver's
build and the harness's own time are in summary.json, the triage lane's in the summary line.
"""
import collections
import json
import sys


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit("usage: stage-cpu.py CAMPAIGN.jsonl [FIRST_SEED LAST_SEED]")
    first = int(sys.argv[2]) if len(sys.argv) == 4 else None
    last = int(sys.argv[3]) if len(sys.argv) == 4 else None
    rows, done = collections.defaultdict(list), {}
    with open(sys.argv[1]) as log:
        for line in log:
            j = json.loads(line)
            if j.get("event") == "done":
                done[j["seed"]] = j
            elif "testbed" in j:
                rows[j["seed"]].append(j)
    seeds = [s for s in done if (first is None or s >= first) and (last is None or s <= last)]
    if not seeds:
        sys.exit("no finished test in the log" + ("" if first is None else " between those seeds"))
    n = len(seeds)
    gen = sum(done[s].get("gen_s", 0) for s in seeds)
    compile_by = collections.Counter()
    run = outlier_cpu = 0.0
    outlier_tests = 0
    for s in seeds:
        test = 0.0
        for r in rows[s]:
            compile_by[r["testbed"]] += r["compile_s"]
            run += r["run_s"]
            test += r["compile_s"] + r["run_s"]
        if any(f["kind"] == "compile-hang" for f in done[s].get("findings", [])):
            outlier_tests += 1
            outlier_cpu += test
    total = gen + sum(compile_by.values()) + run
    print(f"tests {n}; CPU-s per test: generation {gen / n:.3f}, compile {sum(compile_by.values()) / n:.3f},"
          f" runs {run / n:.3f}, all {total / n:.3f}")
    for tb, c in sorted(compile_by.items()):
        print(f"  {tb}: {c / n:.3f}")
    print(f"tests with a compile-time outlier: {outlier_tests}, {outlier_cpu:.1f} of {total:.1f} CPU-s"
          f" ({100 * outlier_cpu / total:.1f}%)")
    print(f"tests per CPU-hour of the tests' rows: {3600 * n / total:.0f}")


if __name__ == "__main__":
    main()
