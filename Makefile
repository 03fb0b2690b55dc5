# SPDX-License-Identifier: GPL-2.0
# Makefile - builds vmscope (one binary, subcommands), libvms.a, the tests and
# the benchmark. Non-recursive; `make V=1` shows full commands, DEVELOPER=1
# turns warnings into errors, SANITIZE=address,undefined adds sanitizers.
# Put local settings in config.mak.

-include config.mak

prefix ?= /usr/local
PREFIX ?= $(prefix)
bindir ?= $(PREFIX)/bin
docdir ?= $(PREFIX)/share/doc/vmscope
mandir ?= $(PREFIX)/share/man
includedir ?= $(PREFIX)/include
libdir ?= $(PREFIX)/lib
pkgconfigdir ?= $(libdir)/pkgconfig
completiondir ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

CC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -MMD -MP
CPPFLAGS += -D_GNU_SOURCE -Iinclude
ifdef DEVELOPER
CFLAGS += -Werror
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifeq ($(V),1)
Q =
QUIET_CC =
QUIET_AR =
QUIET_GEN =
QUIET_LINK =
else
Q = @
QUIET_CC = @echo '   CC ' $@;
QUIET_AR = @echo '   AR ' $@;
QUIET_GEN = @echo '   GEN' $@;
QUIET_LINK = @echo '   LINK' $@;
endif

# Dependencies, found with pkg-config; a missing one stops the build with
# the Debian package that provides it (`make deps` installs them all).
DEP_PKGS = libtracecmd:libtracecmd-dev libtracefs:libtracefs-dev \
	   libtraceevent:libtraceevent-dev sqlite3:libsqlite3-dev zlib:zlib1g-dev \
	   libzstd:libzstd-dev liblzma:liblzma-dev
ifeq ($(filter deps clean check demo,$(MAKECMDGOALS)),)
DEP_MISSING := $(strip $(foreach d,$(DEP_PKGS),$(if $(shell $(PKG_CONFIG) --exists $(firstword $(subst :, ,$(d))) && echo y),,$(d))))
ifneq ($(DEP_MISSING),)
$(error missing libraries: $(foreach d,$(DEP_MISSING),$(firstword $(subst :, ,$(d))) (Debian package $(lastword $(subst :, ,$(d))))). Run 'make deps' as root to install them)
endif
ifneq ($(shell $(PKG_CONFIG) --atleast-version=3.35 sqlite3 && echo y),y)
$(error sqlite3 3.35 or newer is needed (window functions, RETURNING))
endif
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(foreach d,$(DEP_PKGS),$(firstword $(subst :, ,$(d)))))
DEP_LIBS := $(shell $(PKG_CONFIG) --libs $(foreach d,$(DEP_PKGS),$(firstword $(subst :, ,$(d)))))
endif
CPPFLAGS += $(DEP_CFLAGS)
LIBS = $(DEP_LIBS) -lm -ldl -lpthread

LIB_OBJS += analyze/report-audit.o
LIB_OBJS += analyze/export-perfetto.o
LIB_OBJS += analyze/report-buckets.o
LIB_OBJS += analyze/report-episodes.o
LIB_OBJS += analyze/kf-direct-trace.o
LIB_OBJS += analyze/kf-direct-vmstat.o
LIB_OBJS += analyze/kf-unreclaimable.o
LIB_OBJS += analyze/kf-zero-runs.o
LIB_OBJS += analyze/kf-trim-retry.o
LIB_OBJS += analyze/report-kswapd-failures.o
LIB_OBJS += analyze/report-ratio.o
LIB_OBJS += analyze/report-refaults.o
LIB_OBJS += analyze/report-replay.o
LIB_OBJS += analyze/report-sections.o
LIB_OBJS += analyze/report-shrinkers.o
LIB_OBJS += analyze/report-summary.o
LIB_OBJS += analyze/report-throttle.o
LIB_OBJS += analyze/report-util.o
LIB_OBJS += analyze/report-vmstat.o
LIB_OBJS += analyze/vmstat-metrics.o
LIB_OBJS += analyze/compare-tdist.o
LIB_OBJS += analyze/compare-stats.o
LIB_OBJS += analyze/compare-episodes.o
LIB_OBJS += analyze/compare-run.o
LIB_OBJS += analyze/compare-rows.o
LIB_OBJS += analyze/compare-brief.o
LIB_OBJS += analyze/compare-out.o
LIB_OBJS += analyze/compare-pair.o
LIB_OBJS += analyze/compare-labels.o
LIB_OBJS += lib/db.o
LIB_OBJS += lib/db-replace.o
LIB_OBJS += lib/derive.o
LIB_OBJS += lib/derive-episodes.o
LIB_OBJS += lib/derive-inactive.o
LIB_OBJS += lib/derive-kswapd.o
LIB_OBJS += lib/reclaim-marks.o
LIB_OBJS += lib/derive-pairs.o
LIB_OBJS += lib/derive-slab.o
LIB_OBJS += plots/dat.o
LIB_OBJS += plots/dat-merge.o
LIB_OBJS += plots/kinds.o
LIB_OBJS += plots/kind-kswapd.o
LIB_OBJS += plots/kind-lru.o
LIB_OBJS += plots/kind-ratio.o
LIB_OBJS += plots/kind-refaults.o
LIB_OBJS += plots/kind-replay.o
LIB_OBJS += plots/kind-scan.o
LIB_OBJS += plots/kind-shrinkers.o
LIB_OBJS += plots/sample-series.o
LIB_OBJS += plots/kind-stalls.o
LIB_OBJS += plots/kind-whatif.o
LIB_OBJS += lib/error.o
LIB_OBJS += lib/input.o
LIB_OBJS += lib/progress.o
LIB_OBJS += lib/sink.o
LIB_OBJS += lib/sink-reader.o
LIB_OBJS += lib/sink-schema.o
LIB_OBJS += lib/sink-generate.o
LIB_OBJS += lib/sink-writer.o
LIB_OBJS += lib/sink-bins.o
LIB_OBJS += lib/strmap.o
LIB_OBJS += lib/upgrade.o
LIB_OBJS += lib/util.o
LIB_OBJS += lib/table.o
LIB_OBJS += lib/window.o
LIB_OBJS += record/counters.o
LIB_OBJS += record/exec-maps.o
LIB_OBJS += record/cgroup-run.o
LIB_OBJS += replay/decisions.o
LIB_OBJS += replay/discriminate.o
LIB_OBJS += replay/trace-inference.o
LIB_OBJS += replay/evaluate.o
LIB_OBJS += replay/evaluate-parallel.o
LIB_OBJS += replay/kernel-logic.o
LIB_OBJS += replay/kernel-logic-4.o
LIB_OBJS += replay/plugin.o
LIB_OBJS += replay/policies.o
LIB_OBJS += replay/policy-v4.12-actual-reclaim.o
LIB_OBJS += replay/policy-v5.0-boost-noslab.o
LIB_OBJS += replay/policy-v5.3-refault-anon.o
LIB_OBJS += replay/policy-v6.18.o
LIB_OBJS += replay/policy-v6.8-cache-trim.o
LIB_OBJS += replay/sim-lru.o
LIB_OBJS += replay/sim-reclaim.o
LIB_OBJS += replay/sim-recording.o
LIB_OBJS += replay/sim-pids.o
LIB_OBJS += replay/sim-access.o
LIB_OBJS += replay/sim-sequential.o
LIB_OBJS += replay/sim-fallback.o
LIB_OBJS += replay/sim-swap.o
LIB_OBJS += replay/sim-pinned.o
LIB_OBJS += replay/sim-run.o
LIB_OBJS += replay/sim-store.o
LIB_OBJS += replay/sim-consistency.o
LIB_OBJS += replay/sim-vfs.o
LIB_OBJS += replay/sim-exec.o
LIB_OBJS += replay/whatif-rerun.o
LIB_OBJS += replay/sim-xarray.o
LIB_OBJS += replay/sim-index.o
LIB_OBJS += record/decode.o
LIB_OBJS += record/import.o
LIB_OBJS += record/import-dat.o
LIB_OBJS += record/import-text.o
LIB_OBJS += record/live.o
LIB_OBJS += record/spool.o
LIB_OBJS += replay/policy-v2.6.33-mapped-activate.o
LIB_OBJS += record/spool-decode.o
LIB_OBJS += record/recover.o
LIB_OBJS += record/text-line.o
LIB_OBJS += record/text-payload.o
LIB_OBJS += record/text-filemap.o
LIB_OBJS += record/text-table.o
LIB_OBJS += record/counters-align.o
LIB_OBJS += record/counters-csv.o
LIB_OBJS += record/counters-mmtests.o
LIB_OBJS += record/counters-proc.o
LIB_OBJS += record/counters-set.o
LIB_OBJS += record/counters-store.o
LIB_OBJS += replay/decision-series.o
LIB_OBJS += replay/decision-stream.o
LIB_OBJS += record/instance.o
LIB_OBJS += record/exact-inputs.o
LIB_OBJS += record/exact-inputs-info.o
LIB_OBJS += replay/exact-inputs.o

# Exact decision inputs (record/exact-inputs.c): a BPF program built with
# clang against this machine's kernel BTF (CO-RE: it loads on other kernels
# with BTF too) and embedded as a libbpf skeleton. Without clang, bpftool,
# libbpf or /sys/kernel/btf/vmlinux, vmscope is built without it and
# `record` samples the inputs instead. BPF=0 leaves it out on purpose.
BPF ?= $(shell command -v clang >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1 && \
	$(PKG_CONFIG) --exists libbpf && test -r /sys/kernel/btf/vmlinux && echo 1)
.DEFAULT_GOAL := all
BPF_CLANG ?= clang
BPFTOOL ?= bpftool
ifeq ($(BPF),1)
CPPFLAGS += -DVMS_HAVE_BPF
LIBS += $(shell $(PKG_CONFIG) --libs libbpf)
record/exact-inputs.o: record/bpf/exact-inputs.skel.h
record/bpf/vmlinux.h:
	$(QUIET_GEN)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@+ && mv $@+ $@
record/bpf/exact-inputs.bpf.o: record/bpf/exact-inputs.bpf.c record/bpf/exact-inputs.h record/bpf/vmlinux.h
	$(QUIET_GEN)$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -Irecord/bpf -c -o $@ $<
record/bpf/exact-inputs.skel.h: record/bpf/exact-inputs.bpf.o
	$(QUIET_GEN)$(BPFTOOL) gen skeleton $< name exact_inputs_bpf > $@+ && mv $@+ $@
else ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
$(info vmscope: building without the BPF exact inputs (BPF=0, or clang, bpftool, libbpf-dev or /sys/kernel/btf/vmlinux missing; 'make deps' installs them): record will sample the decision inputs)
endif
LIB_OBJS += record/dat-check.o
LIB_OBJS += record/dat-check-bg.o
LIB_OBJS += replay/summary.o
LIB_OBJS += replay/decision-load.o
LIB_OBJS += replay/decision-json.o
LIB_OBJS += replay/decision-row.o
LIB_OBJS += replay/decision-writer.o
LIB_OBJS += analyze/report-boost.o

CMD_OBJS += main.o
CMD_OBJS += cli/parse-options.o
CMD_OBJS += cli/manual.o
CMD_OBJS += record/cmd-import.o
CMD_OBJS += record/cmd-record.o
CMD_OBJS += analyze/cmd-compare.o
CMD_OBJS += analyze/cmd-export.o
CMD_OBJS += analyze/cmd-info.o
CMD_OBJS += analyze/cmd-report.o
CMD_OBJS += analyze/cmd-upgrade.o
CMD_OBJS += plots/cmd-plot.o
CMD_OBJS += replay/cmd-replay.o
CMD_OBJS += replay/cmd-whatif.o
CMD_OBJS += record/cmd-counters.o

UNIT_TESTS = tests/unit/u-text-line tests/unit/u-text-payload tests/unit/u-json tests/unit/u-policies
UNIT_TESTS += tests/unit/u-parse-options
UNIT_TESTS += tests/unit/u-sim
UNIT_TESTS += tests/unit/u-policies-4 tests/unit/u-discriminate
UNIT_TESTS += tests/unit/u-import-lib
UNIT_TESTS += tests/unit/u-evaluate
UNIT_TESTS += tests/unit/u-window
UNIT_TESTS += tests/unit/u-hostile-names
UNIT_TESTS += tests/unit/u-compare-stats
UNIT_TESTS += tests/unit/u-exact-view
UNIT_TESTS += tests/unit/u-mapped-once

SCHEMA_SQL = $(sort $(wildcard schema/*.sql))
VMS_VERSION := $(shell sed -n 's/^\#define VMS_VERSION "\(.*\)"/\1/p' include/vms.h)
# Manual pages: every docs page but the architecture notes (scripts/md2man.sh).
MAN_SOURCES = $(filter-out docs/architecture.md,$(sort $(wildcard docs/*.md)))

all: vmscope

lib/schema-sql.h: $(SCHEMA_SQL) scripts/embed-sql.sh
	$(QUIET_GEN)sh scripts/embed-sql.sh $(SCHEMA_SQL) > $@+ && mv $@+ $@

lib/db.o: lib/schema-sql.h

%.o: %.c
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

libvms.a: $(LIB_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

vmscope: $(CMD_OBJS) libvms.a
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $(CMD_OBJS) libvms.a $(LIBS)

tests/unit/%: tests/unit/%.o libvms.a
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $< libvms.a $(LIBS)

# The parser is CLI code (not in libvms.a); the test brings its own error().
tests/unit/u-parse-options: tests/unit/u-parse-options.o cli/parse-options.o libvms.a
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $< cli/parse-options.o libvms.a $(LIBS)

lib: libvms.a

man: man/.stamp
man/.stamp: $(MAN_SOURCES) scripts/md2man.sh
	$(Q)rm -rf man && mkdir -p man/man1 man/man5 man/man7
	$(Q)for d in $(MAN_SOURCES); do sh scripts/md2man.sh $$d $(VMS_VERSION) man || exit 1; done
	$(QUIET_GEN)touch $@

vmscope.pc: vmscope.pc.in include/vms.h
	$(QUIET_GEN)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VMS_VERSION)|' $< > $@+ && mv $@+ $@
test-tools: $(UNIT_TESTS)

# Workload programs of the sample scenarios (samples/Makefile).
samples:
	@$(MAKE) --no-print-directory -C samples

# The README's two commands. Both install missing Debian packages first
# (scripts/install-deps.sh, quick when nothing is missing), then build.
check:
	@sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory test-run

demo:
	@sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory demo-run

test-run: all $(UNIT_TESTS) samples man
	@sh tests/run-all.sh

SAMPLE = samples/traces/memcg-fileread.dat
demo-run: all
	./vmscope import -f -o sample.db $(SAMPLE)
	./vmscope info sample.db
	./vmscope report sample.db episodes --table per-task
	xz -dc samples/traces/thrash.db.xz > thrash.db
	./vmscope report thrash.db vmstat
	./vmscope replay thrash.db --policy v4.12-actual-reclaim --show 5
	xz -dc samples/traces/thrash-pair-s0.db.xz > thrash-s0.db
	xz -dc samples/traces/thrash-pair-s60.db.xz > thrash-s60.db
	./vmscope whatif thrash-s0.db --set memcg.swappiness=60 --rerun thrash-s60.db

test: check

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer,
# from a clean build; any sanitizer report fails the test that caused it
# (UBSan stops the program; leaks inside libtracecmd itself are suppressed:
# tests/sanitizer/lsan.supp). CI runs it after `make check`.
SANITIZER_ENV = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/lsan.supp:print_suppressions=0
check-sanitize:
	@sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory clean
	@$(SANITIZER_ENV) $(MAKE) --no-print-directory test-run SANITIZE=address,undefined

# Valgrind over the unit tests and the import tests.
test-mem: all $(UNIT_TESTS)
	@VMSCOPE_VALGRIND=1 sh tests/run-all.sh

bench: all samples
	@sh bench/import-bench.sh
	@VMSCOPE_BENCH_WORKLOAD=smallfiles sh bench/import-bench.sh
	@sh bench/record-bench.sh
	@sh bench/replay-bench.sh
	@sh bench/report-bench.sh
	@sh bench/whatif-bench.sh
	@sh bench/whatif-bench.sh 3 files
	@sh bench/whatif-bench.sh 3 reads

# Mutation smoke (tests/README.md): each tests/mutate/mutations.txt bug in a
# scratch copy, with the tests named for it; MUTATE="ID ..." runs a few.
mutate: all $(UNIT_TESTS) samples
	@python3 tests/mutate/mutate.py $(MUTATE)

deps:
	@sh scripts/install-deps.sh

install: all man vmscope.pc
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(docdir)
	install -m 755 vmscope $(DESTDIR)$(bindir)/vmscope
	install -m 644 README.md docs/*.md $(DESTDIR)$(docdir)/
	install -d $(DESTDIR)$(PREFIX)/share/vmscope/plots
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/vmscope/plots/ 2>/dev/null || true
	install -d $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man5 $(DESTDIR)$(mandir)/man7
	install -m 644 man/man1/*.1 $(DESTDIR)$(mandir)/man1/
	install -m 644 man/man5/*.5 $(DESTDIR)$(mandir)/man5/
	install -m 644 man/man7/*.7 $(DESTDIR)$(mandir)/man7/
	install -d $(DESTDIR)$(completiondir) $(DESTDIR)$(includedir)/vmscope $(DESTDIR)$(pkgconfigdir)
	install -m 644 completion/vmscope.bash $(DESTDIR)$(completiondir)/vmscope
	install -m 644 include/vms-policy.h $(DESTDIR)$(includedir)/vmscope/
	install -m 644 vmscope.pc $(DESTDIR)$(pkgconfigdir)/

uninstall:
	rm -f $(DESTDIR)$(bindir)/vmscope
	rm -rf $(DESTDIR)$(docdir)
	rm -f $(DESTDIR)$(mandir)/man1/vmscope.1 $(DESTDIR)$(mandir)/man1/vmscope-*.1
	rm -f $(DESTDIR)$(mandir)/man5/vmscope-*.5 $(DESTDIR)$(mandir)/man7/vmscope-*.7
	rm -f $(DESTDIR)$(completiondir)/vmscope $(DESTDIR)$(pkgconfigdir)/vmscope.pc
	rm -rf $(DESTDIR)$(includedir)/vmscope

clean:
	@$(MAKE) --no-print-directory -C samples clean
	rm -f vmscope libvms.a lib/schema-sql.h $(UNIT_TESTS) vmscope.pc
	rm -rf man
	rm -f record/bpf/vmlinux.h record/bpf/exact-inputs.skel.h record/bpf/*.bpf.o
	find . -name '*.o' -o -name '*.d' | xargs rm -f
	rm -rf tests/trash

.PHONY: all lib samples test-tools check check-sanitize demo test-run demo-run test test-mem bench deps install uninstall clean
.PHONY: mutate man

-include $(shell find . -name '*.d' 2>/dev/null)

# libFuzzer targets under ASan and UBSan, built with clang in a scratch copy
# of the tree, each run FUZZ_SECONDS (tests/fuzz/README.md); FUZZ="dat ..." runs a few.
FUZZ_SECONDS ?= 60
fuzz: all
	@sh scripts/install-deps.sh fuzz
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ)
.PHONY: fuzz
