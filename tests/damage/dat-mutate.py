#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
dat-mutate.py - damage a trace-cmd .dat file in many ways and import every
variant, to measure whether vmscope ever calls a damaged file complete.

The ground truth is the import of the undamaged file (its event count). Each
variant is one damage: a single bit flip, an 8-byte overwrite with random
bytes, a zeroed 4 KiB block (all in the CPU ring-buffer data, whose place
the file's BUFFER options state), or a truncation anywhere. Each import runs
with a time limit and an address-space limit and is classed:

  complete-all       exit 0, status complete, every event of the original
  complete-missing   exit 0, status complete, fewer events (a lie: the bug)
  complete-extra     exit 0, status complete, more events than the original
  incomplete         a database marked incomplete (the damage is reported)
  refused            exit 1 and no database, with a message
  crash              killed by a signal, or exit status other than 0 and 1
  hang               over the time limit

Usage: dat-mutate.py [--count N] [--seed S] [--vmscope PATH] [--keep DIR] FILE.dat...
Prints one line per class and, with -v, one line per variant that lied,
crashed or hung. Exit status 1 when any variant is complete-missing,
crash or hang. Only version 7 files are understood for the placement.
"""
import argparse
import os
import random
import resource
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile

CLASSES = ["complete-all", "complete-missing", "complete-extra", "incomplete",
           "refused", "crash", "hang"]
BAD = {"complete-missing", "crash", "hang"}


def cstr(d, p):
    end = d.index(b"\0", p)
    return d[p:end], end + 1


def cpu_regions(d):
    """[(offset, size)] of every CPU's data in a version 7 file."""
    if d[:10] != b"\x17\x08Dtracing":
        raise ValueError("not a trace-cmd file")
    version, p = cstr(d, 10)
    if version != b"7":
        raise ValueError("only version 7 files are understood")
    p += 2 + 4
    compression, p = cstr(d, p)
    _, p = cstr(d, p)
    # compressed data starts with a chunk count (4 bytes) the size leaves out
    extra = 0 if compression == b"none" else 4
    (off,) = struct.unpack_from("<Q", d, p)
    regions = []
    while off:
        _, _, _, size = struct.unpack_from("<HHIQ", d, off)
        q, end, nxt = off + 16, off + 16 + size, 0
        while q < end:
            oid, osz = struct.unpack_from("<HI", d, q)
            q += 6
            data = d[q:q + osz]
            q += osz
            if oid == 0:
                (nxt,) = struct.unpack_from("<Q", data, 0)
            elif oid == 3:
                r = 8
                _, r = cstr(data, r)
                _, r = cstr(data, r)
                _, ncpus = struct.unpack_from("<II", data, r)
                r += 8
                for _ in range(ncpus):
                    _, coff, csize = struct.unpack_from("<IQQ", data, r)
                    r += 20
                    if csize:
                        regions.append((coff, csize + extra))
        off = nxt
    return regions


def variants(d, regions, count, rng):
    """Yield (name, bytes) of @count damaged copies of @d."""
    total = sum(s for _, s in regions)

    def data_pos(width=1):
        n = rng.randrange(total)
        for o, s in regions:
            if n < s:
                return o + min(n, max(0, s - width))
            n -= s
        raise AssertionError

    kinds = [("flip", 0.40), ("overwrite8", 0.25), ("zero4k", 0.15), ("truncate", 0.20)]
    for i in range(count):
        x, kind = rng.random(), kinds[-1][0]
        for k, w in kinds:
            if x < w:
                kind = k
                break
            x -= w
        b = bytearray(d)
        if kind == "flip":
            p = data_pos()
            bit = rng.randrange(8)
            b[p] ^= 1 << bit
            name = "flip-%d.%d" % (p, bit)
        elif kind == "overwrite8":
            p = data_pos(8)
            b[p:p + 8] = bytes(rng.randrange(256) for _ in range(8))
            name = "overwrite8-%d" % p
        elif kind == "zero4k":
            p = data_pos(1)
            b[p:p + 4096] = bytes(len(b[p:p + 4096]))
            name = "zero4k-%d" % p
        else:
            # half in the CPU data, half anywhere
            p = data_pos() if rng.random() < 0.5 else rng.randrange(1, len(d))
            del b[p:]
            name = "truncate-%d" % p
        yield "%04d-%s" % (i, name), bytes(b)


def limits(mem_mb):
    def set_limits():
        # AddressSanitizer maps terabytes of shadow: no address-space limit then
        if mem_mb:
            resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return set_limits


def run_import(vmscope, path, db, timeout, mem_mb):
    """Return (class, events, detail) of importing @path into @db."""
    try:
        p = subprocess.run([vmscope, "import", "-q", path, "-o", db], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout, preexec_fn=limits(mem_mb))
    except subprocess.TimeoutExpired:
        return "hang", None, "over %d s" % timeout
    err = p.stderr.decode(errors="replace").strip().splitlines()
    err = err[-1] if err else ""
    if p.returncode < 0 or p.returncode not in (0, 1):
        return "crash", None, "exit %d %s" % (p.returncode, err)
    if not os.path.exists(db):
        return ("refused" if p.returncode == 1 else "crash"), None, err
    con = sqlite3.connect(db)
    try:
        status, events = con.execute("SELECT status, events FROM run").fetchone()
    finally:
        con.close()
    if status != "complete" or p.returncode:
        return "incomplete", events, err
    return "complete", events, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--count", type=int, default=1000, help="variants per file")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--vmscope", default=os.path.join(os.path.dirname(__file__), "../../vmscope"))
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--mem-mb", type=int, default=2048, help="address-space limit of an import")
    ap.add_argument("--keep", help="copy the variants that lied, crashed or hung here")
    ap.add_argument("--log", help="write one line per variant (name, class, events) here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    vmscope = os.path.abspath(args.vmscope)
    with open(vmscope, "rb") as exe:
        if b"__asan_init" in exe.read():
            args.mem_mb = 0
    totals = dict.fromkeys(CLASSES, 0)
    tmp = tempfile.mkdtemp(prefix="vmscope-damage-")
    log = open(args.log, "w") if args.log else None
    try:
        for f in args.files:
            d = open(f, "rb").read()
            db = os.path.join(tmp, "v.db")
            if os.path.exists(db):
                os.unlink(db)
            cls, want, detail = run_import(vmscope, f, db, args.timeout, args.mem_mb)
            if cls != "complete":
                sys.exit("%s: the undamaged file does not import as complete: %s" % (f, detail))
            rng = random.Random("%d:%s" % (args.seed, os.path.basename(f)))
            counts = dict.fromkeys(CLASSES, 0)
            for name, data in variants(d, cpu_regions(d), args.count, rng):
                path = os.path.join(tmp, "v.dat")
                with open(path, "wb") as out:
                    out.write(data)
                if os.path.exists(db):
                    os.unlink(db)
                cls, events, detail = run_import(vmscope, path, db, args.timeout, args.mem_mb)
                if cls == "complete":
                    cls = ("complete-all" if events == want else
                           "complete-missing" if events < want else "complete-extra")
                counts[cls] += 1
                if log:
                    log.write("%s %s %s %s %s\n" % (os.path.basename(f), name, cls, events,
                                                     detail))
                if cls in BAD:
                    if args.verbose:
                        print("%s %s: %s (%s of %d events) %s" % (
                            os.path.basename(f), name, cls, events, want, detail))
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        shutil.copy(path, os.path.join(args.keep, "%s-%s.dat" % (
                            os.path.basename(f)[:-4], name)))
            print("%s (%d events), %d variants: %s" % (
                os.path.basename(f), want, args.count,
                ", ".join("%s %d" % (c, counts[c]) for c in CLASSES)))
            for c in CLASSES:
                totals[c] += counts[c]
    finally:
        shutil.rmtree(tmp)
        if log:
            log.close()
    if len(args.files) > 1:
        print("total: " + ", ".join("%s %d" % (c, totals[c]) for c in CLASSES))
    return 1 if any(totals[c] for c in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
