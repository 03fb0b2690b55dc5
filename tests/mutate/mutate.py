#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mutate.py - the mutation smoke behind `make mutate` (tests/README.md).

Each mutation in tests/mutate/mutations.txt is a small deliberate bug: one
exact piece of text in one file replaced by another. For each, in a scratch
copy of the tree (so the worktree is never touched), the runner applies it,
rebuilds, and runs the tests named for it; the mutation is

  killed    when one of those tests fails (or the build fails: noted),
  survived  when they all pass: the suite would let that bug through,
  stale     when its text is no longer in the file exactly once (the code was
            moved or rewritten; refresh the entry), reported apart and not
            counted in the score.

Usage: python3 tests/mutate/mutate.py [--list FILE] [--keep] [ID...]
Prints one line per mutation, then "N mutations: K killed, S survived,
T stale; score K/(K+S) = P%". Exit status 0 when the score is at least
--min (default 90), 1 otherwise, 2 on a bad list.

Mutation list format, one block per mutation, blocks separated by blank
lines, '#' lines are comments:

  id: scan-kswapd-direct-swapped
  file: plots/kind-scan.c
  test: t4200 u-policies t1200:usage*
        (tNNNN: sh tests/tNNNN-*.sh; tNNNN:PAT: only its tests whose title
        matches PAT; u-x: tests/unit/u-x)
  from: int col = (kswapd ? 0 : 2) + (anon ? 1 : 0);
  to: int col = (kswapd ? 2 : 0) + (anon ? 1 : 0);
  survives: why it is an equivalent mutant (optional; still counted as survived)

from/to are one line each; a literal \\n or \\t in them stands for a newline or a tab.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TEST_TIMEOUT = 300


def parse(path):
    muts, cur = [], {}
    for n, line in enumerate(open(path), 1):
        line = line.rstrip('\n')
        if line.startswith('#'):
            continue
        if not line.strip():
            if cur:
                muts.append(cur)
            cur = {}
            continue
        key, sep, val = line.partition(':')
        if not sep or key not in ('id', 'file', 'test', 'from', 'to', 'survives'):
            sys.exit('%s:%d: expected "key: value" with key id/file/test/from/to/survives' %
                     (path, n))
        cur[key] = val[1:] if val.startswith(' ') else val
        cur.setdefault('line', n)
    if cur:
        muts.append(cur)
    ids = set()
    for m in muts:
        for k in ('id', 'file', 'test', 'from', 'to'):
            if k not in m:
                sys.exit('%s:%d: mutation without %s' % (path, m['line'], k))
        if m['id'] in ids:
            sys.exit('%s:%d: duplicate id %s' % (path, m['line'], m['id']))
        ids.add(m['id'])
        m['from'] = m['from'].replace('\\n', '\n').replace('\\t', '\t')
        m['to'] = m['to'].replace('\\n', '\n').replace('\\t', '\t')
    return muts


def run(cmd, cwd, timeout=TEST_TIMEOUT, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout.decode(errors='replace')
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b'').decode(errors='replace') + '\n(timed out)'


def test_cmd(tree, name):
    """[argv, env] of a test name: u-x, tNNNN, or tNNNN:PATTERN (only the
    tests of tNNNN whose title matches the shell pattern, see test-lib.sh)."""
    env = dict(os.environ)
    env.pop('VMSCOPE_TEST_ONLY', None)
    if name.startswith('u-'):
        path = os.path.join(tree, 'tests', 'unit', name)
        return ([path], env) if os.path.exists(path) else None
    script, _, only = name.partition(':')
    hits = [f for f in os.listdir(os.path.join(tree, 'tests'))
            if f.startswith(script + '-') and f.endswith('.sh')]
    if len(hits) != 1:
        return None
    if only:
        env['VMSCOPE_TEST_ONLY'] = only
    return (['sh', os.path.join(tree, 'tests', hits[0])], env)


def build(tree):
    return run(['make', '-j2', '-s', 'all', 'test-tools', 'samples'], tree, 600)


def copy_tree(dest):
    ignore = shutil.ignore_patterns('.git', 'trash', '*.db', '*.db-wal', '*.db-shm')
    shutil.copytree(SRC, dest, symlinks=True, ignore=ignore)


def main():
    ap = argparse.ArgumentParser(description='mutation smoke (tests/README.md)')
    ap.add_argument('--list', default=os.path.join(SRC, 'tests', 'mutate', 'mutations.txt'))
    ap.add_argument('--min', type=float, default=90.0, help='lowest passing score, %%')
    ap.add_argument('--keep', action='store_true', help='keep the scratch tree')
    ap.add_argument('-v', '--verbose', action='store_true', help='show failing test output')
    ap.add_argument('ids', nargs='*', help='run only these mutations')
    args = ap.parse_args()

    muts = parse(args.list)
    if args.ids:
        unknown = set(args.ids) - {m['id'] for m in muts}
        if unknown:
            print('no mutation %s in %s' % (', '.join(sorted(unknown)), args.list))
            return 2
        muts = [m for m in muts if m['id'] in args.ids]

    scratch = tempfile.mkdtemp(prefix='vmscope-mutate-')
    tree = os.path.join(scratch, 'tree')
    started = time.time()
    print('# scratch copy %s' % tree, flush=True)
    copy_tree(tree)
    rc, out = build(tree)
    if rc:
        print(out[-3000:])
        print('the unmutated tree does not build')
        return 2
    # every test must pass on the unmutated copy, or a kill would mean nothing
    names = sorted({n for m in muts for n in m['test'].split()})
    failing = []
    for name in names:
        c = test_cmd(tree, name)
        if c is None:
            continue  # reported as stale below
        rc, out = run(c[0], tree, env=c[1])
        if rc:
            failing.append(name)
            fails = [l for l in out.splitlines() if l.startswith(('not ok', '#   '))
                     and not l.startswith('#   + ')]
            print('\n'.join('# %s: %s' % (name, l) for l in fails[-25:]))
    print('# %d tests pass on the unmutated copy (%.0f s)' % (len(names) - len(failing),
                                                          time.time() - started), flush=True)
    if failing:
        print('these tests fail without any mutation: %s' % ' '.join(failing))
        shutil.rmtree(scratch, ignore_errors=True)
        return 2
    killed, survived, stale, broken = [], [], [], []
    for m in muts:
        t0 = time.time()
        path = os.path.join(tree, m['file'])
        try:
            orig = open(path).read()
        except OSError:
            orig = None
        hits = orig.count(m['from']) if orig is not None else 0
        if hits != 1:
            why = 'no file' if orig is None else \
                  'text not found' if hits == 0 else 'text found %d times' % hits
            stale.append(m)
            print('STALE    %-34s %s (%s)' % (m['id'], m['file'], why), flush=True)
            continue
        cmds = [(name, test_cmd(tree, name)) for name in m['test'].split()]
        missing = [name for name, c in cmds if c is None]
        if missing:
            stale.append(m)
            print('STALE    %-34s no test %s' % (m['id'], ' '.join(missing)), flush=True)
            continue
        with open(path, 'w') as f:
            f.write(orig.replace(m['from'], m['to']))
        try:
            rc, out = build(tree)
            by, detail = None, ''
            if rc:
                by, detail = 'build', out
                broken.append(m)
            else:
                for name, (argv, env) in cmds:
                    rc, out = run(argv, tree, env=env)
                    if rc:
                        by, detail = name, out
                        break
        finally:
            with open(path, 'w') as f:
                f.write(orig)
        took = time.time() - t0
        if by:
            killed.append(m)
            print('KILLED   %-34s by %-10s %5.1f s' % (m['id'], by, took), flush=True)
            if args.verbose:
                fails = [l for l in detail.splitlines() if l.startswith(('not ok', '#   '))]
                print('\n'.join('         ' + l for l in fails[:12]))
        else:
            survived.append(m)
            note = ' (accepted: %s)' % m['survives'] if 'survives' in m else ''
            print('SURVIVED %-34s %s; ran %s%s' % (m['id'], m['file'], m['test'], note),
                  flush=True)
    # leave the copy as the source was
    build(tree)
    if args.keep:
        print('# kept %s' % tree)
    else:
        shutil.rmtree(scratch, ignore_errors=True)

    judged = len(killed) + len(survived)
    score = 100.0 * len(killed) / judged if judged else 0.0
    print()
    if broken:
        print('killed by the build (the mutation does not compile: make it a real bug): %s' %
              ' '.join(m['id'] for m in broken))
    if survived:
        print('survived: %s' % ' '.join(m['id'] for m in survived))
    if stale:
        print('stale (refresh these entries): %s' % ' '.join(m['id'] for m in stale))
    print('%d mutations: %d killed, %d survived, %d stale; score %d/%d = %.1f%% (%.0f s)' %
          (len(muts), len(killed), len(survived), len(stale), len(killed), judged, score,
           time.time() - started))
    return 0 if judged and score >= args.min else 1


if __name__ == '__main__':
    sys.exit(main())
