#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# perfetto-check.py - check a `vmscope export --perfetto` file against the
# rules of the Trace Event Format (JSON Object Format) that viewers rely on:
# a traceEvents array; every event has ph, name, pid; X slices have ts,
# tid and a dur >= 0, C counters a ts and numeric args, M metadata an
# args.name; timestamps never go back within a track (a thread for slices,
# a process and name for counters); slices on one thread nest (each is
# inside the one it starts in, or after it). Prints "ph name count" lines
# of the events for the test to compare, or the first broken rule and exits 1.
import collections
import json
import sys


def fail(msg):
    print("perfetto-check: " + msg)
    sys.exit(1)


with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
events = doc.get("traceEvents")
if not isinstance(events, list):
    fail("no traceEvents array")
last_ts = {}
stacks = collections.defaultdict(list)
counts = collections.Counter()
for i, e in enumerate(events):
    for key in ("ph", "name", "pid"):
        if key not in e:
            fail("event %d lacks %s" % (i, key))
    ph = e["ph"]
    if not isinstance(e["pid"], int):
        fail("event %d: pid not an integer" % i)
    if ph == "M":
        if not isinstance(e.get("args", {}).get("name"), str):
            fail("metadata event %d lacks args.name" % i)
    elif ph == "X":
        if not all(k in e for k in ("ts", "dur", "tid")) or e["dur"] < 0:
            fail("slice %d lacks ts/dur/tid or has dur < 0" % i)
        track = ("X", e["pid"], e["tid"])
        if e["ts"] < last_ts.get(track, float("-inf")):
            fail("slice %d (%s) goes back in time on its thread" % (i, e["name"]))
        last_ts[track] = e["ts"]
        stack = stacks[track]
        while stack and e["ts"] >= stack[-1] - 1e-3:
            stack.pop()
        end = e["ts"] + e["dur"]
        if stack and end > stack[-1] + 1e-3:
            fail("slice %d (%s) overlaps the slice it starts in without nesting" % (i, e["name"]))
        stack.append(end)
    elif ph == "C":
        if "ts" not in e or not e.get("args"):
            fail("counter %d lacks ts or args" % i)
        if not all(isinstance(v, (int, float)) for v in e["args"].values()):
            fail("counter %d has a non-numeric value" % i)
        track = ("C", e["pid"], e["name"])
        if e["ts"] < last_ts.get(track, float("-inf")):
            fail("counter %d (%s) goes back in time" % (i, e["name"]))
        last_ts[track] = e["ts"]
    else:
        fail("event %d has an unexpected ph %r" % (i, ph))
    counts[(ph, e["name"])] += 1
for (ph, name), n in sorted(counts.items()):
    print("%s\t%s\t%d" % (ph, name, n))
