#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lint-asserts.py - reject test checks whose exit status is thrown away.

Run by tests/t0040-test-lint.sh (so by `make check`) over tests/*.sh:

    python3 tests/lint-asserts.py tests/t*.sh tests/test-lib.sh

A check is a call of assert_*, test_must_fail, no_match or test_cmp. Test
bodies run under `set -e`, but the shell ignores set -e for every command of
an && / || list except the last, and a failed command's status is lost
when another command follows it. So a check counts only when its failure
reaches the test's result:

  - it is followed by `|| exit/return/false ...` (a handler), or
  - it ends its and-or list, at the top of a test body (set -e stops), or
  - its and-or list is the last command of the enclosing body, function,
    brace group or if-branch, and that enclosing command counts in turn.

Anything else (`assert_eq a b; next`, `assert_eq a b && x` followed by more
commands, a check inside a loop of a function, a check before a pipe) is
reported as FILE:LINE with the reason, and the exit status is 1.

How it works: the test bodies (the last single-quoted argument of
test_expect_success) and the rest of the file are tokenized separately with
a small sh tokenizer (quotes, $(...), comments, here-documents), then parsed
into and-or lists and compound commands, enough of sh for these scripts.
"""
import re
import sys

CHECKS = re.compile(r'^(assert_[a-z_]+|test_must_fail|no_match|test_cmp)$')
OPS = ('&&', '||', ';;', '|', ';', '&', '(', ')')
OPENERS = {'if', 'while', 'until', 'for', 'case', '{'}
HANDLERS = {'exit', 'return', 'false'}


class Tok:
    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line  # kind: 'w', 'op', 'nl'

    def __repr__(self):
        return '%s:%r@%d' % (self.kind, self.text, self.line)


def skip_quoted(src, i):
    """Index after the character, quoted string or $(...) at src[i]."""
    n, c = len(src), src[i]
    if c == '\\':
        return i + 2
    if c == "'":
        j = src.find("'", i + 1)
        return n if j < 0 else j + 1
    if c == '`':
        j = src.find('`', i + 1)
        return n if j < 0 else j + 1
    if c == '"':
        i += 1
        while i < n and src[i] != '"':
            if src[i] in '\\`' or src.startswith('$(', i):
                i = skip_quoted(src, i)
            else:
                i += 1
        return i + 1
    if src.startswith('$(', i):
        i += 2
        depth = 1
        while i < n and depth:
            if src[i] == '(':
                depth += 1
                i += 1
            elif src[i] == ')':
                depth -= 1
                i += 1
            elif src[i] in '\'"\\`' or src.startswith('$(', i):
                i = skip_quoted(src, i)
            else:
                i += 1
        return i
    return i + 1


def tokenize(src, line0):
    """Split sh source into words, operators and newlines."""
    toks, i, n, line = [], 0, len(src), line0
    heredocs = []
    while i < n:
        c = src[i]
        if c == '\n':
            toks.append(Tok('nl', '\n', line))
            line += 1
            i += 1
            for tag, strip in heredocs:  # skip here-document bodies
                while i < n:
                    j = src.find('\n', i)
                    j = n if j < 0 else j
                    text = src[i:j]
                    i = j + 1
                    line += 1
                    if (text.lstrip('\t') if strip else text) == tag:
                        break
            heredocs = []
            continue
        if c in ' \t':
            i += 1
            continue
        if c == '\\' and i + 1 < n and src[i + 1] == '\n':
            i += 2
            line += 1
            continue
        if c == '#':
            while i < n and src[i] != '\n':
                i += 1
            continue
        op = next((o for o in OPS if src.startswith(o, i)), None)
        if op:
            toks.append(Tok('op', op, line))
            i += len(op)
            continue
        if src.startswith('<<', i):
            j = i + 2
            strip = j < n and src[j] == '-'
            j += strip
            while j < n and src[j] in ' \t':
                j += 1
            m = re.match(r"\\?['\"]?([A-Za-z_0-9]+)['\"]?", src[j:])
            if m:
                heredocs.append((m.group(1), strip))
                i = j + m.end()
                continue
        # a word: up to an unquoted blank or operator
        start, startline = i, line
        while i < n:
            c = src[i]
            if c in ' \t\n;&|()':
                break
            if c in '<>':  # a redirection belongs to the command: 2>&1, >|, <&-
                i += 1
                while i < n and src[i] in '&|>-':
                    i += 1
                continue
            i = skip_quoted(src, i)
        line += src.count('\n', start, i)
        toks.append(Tok('w', src[start:i], startline))
    return toks


class Parser:
    """Parse tokens into nested lists; report checks whose status is lost."""

    def __init__(self, toks, path, errors):
        self.t, self.k, self.path, self.errors = toks, 0, path, errors

    def peek(self):
        return self.t[self.k] if self.k < len(self.t) else None

    def word(self, w):
        p = self.peek()
        return p is not None and p.kind == 'w' and p.text == w

    def skip_nl(self):
        while self.peek() is not None and self.peek().kind == 'nl':
            self.k += 1

    def body(self, enders, live, counts):
        """A command list until a word in enders (or the end). live: set -e
        stops at a failure here; counts: the status of the list's last
        and-or list reaches the result."""
        lists = []
        while True:
            self.skip_nl()
            p = self.peek()
            if p is None or (p.kind == 'w' and p.text in enders) or \
               (p.kind == 'op' and p.text in (')', ';;')):
                break
            before = self.k
            lists.append(self.and_or(live))
            if self.k == before:  # a token this parser does not know: step over it
                self.k += 1
                continue
            p = self.peek()
            if p is not None and p.kind in ('nl',) or (p is not None and p.kind == 'op' and p.text in (';', '&')):
                self.k += 1
        for idx, items in enumerate(lists):
            last = idx == len(lists) - 1
            self.judge(items, live, counts and last)

    def judge(self, items, live, tail):
        """items: [(command, op_after)] of one and-or list."""
        for j, (cmd, op) in enumerate(items):
            # a failure skips the && commands after it to the next ||
            rest = items[j:]
            k = next((k for k, (_, o) in enumerate(rest) if o == '||'), None)
            handled = k is not None and k + 1 < len(rest) and rest[k + 1][0].handler
            if handled and cmd.kind == 'check':
                continue
            if handled:
                ok = True
            elif op == '||':
                ok = False
            elif op == '&&':
                ok = tail
            else:  # last of the list
                ok = live or tail
            if cmd.kind == 'check' and not ok:
                why = ('its failure is lost: a later command runs' if op in ('&&', None, ';')
                       else 'followed by ' + op)
                self.errors.append('%s:%d: %s: %s' % (self.path, cmd.line, cmd.name, why))
            if cmd.kind == 'compound':
                here = live and op is None  # set -e stops at this compound
                for sub, mode in cmd.parts:
                    if mode == 'cond':
                        sub.parser.body_judge(sub, False, False)
                    elif mode == 'loop':  # the status is the last iteration's
                        sub.parser.body_judge(sub, here, False)
                    elif mode == 'func':  # called from anywhere: assume no set -e
                        sub.parser.body_judge(sub, False, True)
                    else:
                        sub.parser.body_judge(sub, here, ok)

    def and_or(self, live):
        items = []
        while True:
            cmd = self.command(live)
            p = self.peek()
            op = p.text if p is not None and p.kind == 'op' and p.text in ('&&', '||', '|') else None
            if op == '|':
                if cmd.kind == 'check':
                    self.errors.append('%s:%d: %s: piped, its status is lost' %
                                       (self.path, cmd.line, cmd.name))
                self.k += 1
                self.skip_nl()
                continue
            items.append((cmd, op))
            if op is None:
                return items
            self.k += 1
            self.skip_nl()

    def command(self, live):
        p = self.peek()
        cmd = Cmd(p.line if p else 0)
        if p is not None and p.kind == 'w' and p.text == '!':
            self.k += 1
            p = self.peek()
        if p is None:
            return cmd
        if p.kind == 'op' and p.text == '(':
            self.k += 1
            cmd.kind = 'compound'
            cmd.parts.append((self.sub(live, ')'), True))
            self.k += 1  # ')'
            self.simple_words()
            return cmd
        if p.kind == 'w' and p.text in OPENERS:
            return self.compound(cmd, p.text, live)
        words = self.simple_words()
        # a function definition: NAME ( ) { ... }
        if len(words) == 1 and self.peek() is not None and self.peek().kind == 'op' \
           and self.peek().text == '(':
            self.k += 2
            self.skip_nl()
            cmd.kind = 'compound'
            p = self.peek()
            if p is not None and p.text == '{':
                self.k += 1
                cmd.parts.append((self.sub(False, '}'), 'func'))
                self.k += 1
            return cmd
        if words:
            name = words[0]
            if name in ('then', 'do', 'else', 'fi', 'done', 'esac', 'elif', '}'):
                return cmd
            if CHECKS.match(name):
                cmd.kind, cmd.name = 'check', name
            # `|| exit 1`, `|| return 1`, `|| false`, or `|| bad=1` (a flag returned later)
            if name in HANDLERS or re.match(r'^[A-Za-z_][A-Za-z_0-9]*=', name):
                cmd.handler = True
        return cmd

    def simple_words(self):
        words = []
        while True:
            p = self.peek()
            if p is None or p.kind != 'w':
                return words
            if words == [] and p.text in ('then', 'do', 'else', 'fi', 'done', 'esac', 'elif',
                                          '}', 'in'):
                return words
            words.append(p.text)
            self.k += 1

    def sub(self, live, *enders):
        s = Sub(self, self.k, enders)
        # parse once to find the end; judging happens with the outer context
        saved = self.errors
        self.errors = []
        self.body(set(enders), live, True)
        self.errors = saved
        s.end = self.k
        return s

    def body_judge(self, s, live, counts):
        saved = self.k
        self.k = s.start
        self.body(set(s.enders), live, counts)
        self.k = saved

    def compound(self, cmd, kw, live):
        cmd.kind = 'compound'
        self.k += 1
        if kw == '{':
            s = self.sub(live, '}')
            cmd.parts.append((s, True))
            cmd.handler = any(t.kind == 'w' and t.text in ('exit', 'return', 'false')
                              for t in self.t[s.start:s.end])
            self.k += 1
        elif kw == 'if':
            while True:
                cond = self.sub(False, 'then')
                cmd.parts.append((cond, 'cond'))
                self.k += 1  # then
                br = self.sub(live, 'elif', 'else', 'fi')
                cmd.parts.append((br, True))
                p = self.peek()
                self.k += 1
                if p is None or p.text == 'fi':
                    break
                if p.text == 'else':
                    cmd.parts.append((self.sub(live, 'fi'), True))
                    self.k += 1
                    break
        elif kw in ('while', 'until'):
            cond = self.sub(False, 'do')
            cmd.parts.append((cond, 'cond'))
            self.k += 1
            loop = self.sub(live, 'done')
            cmd.parts.append((loop, 'loop'))
            self.k += 1
        elif kw == 'for':
            while self.peek() is not None and not self.word('do'):
                self.k += 1
            self.k += 1
            loop = self.sub(live, 'done')
            cmd.parts.append((loop, 'loop'))
            self.k += 1
        elif kw == 'case':
            while self.peek() is not None and not self.word('in'):
                self.k += 1
            self.k += 1
            while True:
                self.skip_nl()
                if self.peek() is None or self.word('esac'):
                    self.k += 1
                    break
                while self.peek() is not None and not (self.peek().kind == 'op' and self.peek().text == ')'):
                    self.k += 1
                self.k += 1
                arm = self.sub(live, 'esac')
                cmd.parts.append((arm, True))
                if self.peek() is not None and self.peek().kind == 'op' and self.peek().text == ';;':
                    self.k += 1
        self.simple_words()  # redirections after the compound
        return cmd


class Sub:
    def __init__(self, parser, start, enders):
        self.parser, self.start, self.enders, self.end = parser, start, enders, start


class Cmd:
    def __init__(self, line):
        self.kind, self.name, self.line, self.handler = 'simple', '', line, False
        self.parts = []


def bodies(src):
    """Yield (start_line, text, is_test_body) for test bodies, then the rest."""
    out, rest, i, line = [], [], 0, 1
    pat = re.compile(r"^test_expect_success\b[^\n'\"]*('[^'\n]*'|\"[^\"\n]*\")[ \t]*'\n", re.M)
    pos = 0
    for m in pat.finditer(src):
        if m.start() < pos:
            continue
        end = src.find("\n'", m.end() - 1)
        if end < 0:
            break
        rest.append(src[pos:m.start()])
        body_line = src.count('\n', 0, m.end()) + 1
        out.append((body_line, src[m.end():end + 1].replace("'\\''", "'"), True))
        pos = end + 2
        rest.append('\n' * (src.count('\n', m.start(), pos)))
    rest.append(src[pos:])
    out.append((1, ''.join(rest), False))
    return out


def lint(path):
    errors = []
    src = open(path).read()
    for line0, text, is_body in bodies(src):
        toks = tokenize(text, line0)
        p = Parser(toks, path, errors)
        p.body(set(), is_body, True)
    return errors


def main(argv):
    errors = []
    for path in argv[1:]:
        errors += lint(path)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
