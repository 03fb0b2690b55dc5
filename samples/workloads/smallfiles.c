// SPDX-License-Identifier: GPL-2.0
/*
 * smallfiles - reproduces the 2019 boosted-kswapd report: a file-creation
 * workload (fs_mark style) where every new file is one inode, one dentry and
 * one dirty page, so that the inode and dentry slab caches grow as fast as
 * the page cache and reclaim has to balance the two: page cache reclaim
 * alone cannot keep up, the slab shrinkers (mm_shrink_slab_start/_end) have
 * to free inodes and dentries, and slab takes an ever larger share of the
 * memory the files use.
 *
 * How: create --files files of --size bytes (default 4096: one page) spread
 * over --dirs directories under --dir, writing each with one write(2) and
 * closing it without fsync: one dirty inode per dirty page. Run in a memory
 * cgroup whose limit is well below what the files need. Every --report files
 * a progress line gives the rate, the machine's Slab, SReclaimable and Cached
 * from /proc/meminfo, and the cgroup's kernel memory (v1 kmem, v2
 * slab_reclaimable) against its page cache. A final pass stat(2)s every file,
 * which has to read the inodes back from disk for those the shrinkers freed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD "smallfiles"
#include "workload.h"

static const char usage[] =
	"usage: smallfiles --dir DIR [options]\n"
	"\n"
	"Create many small files across many directories (one dirty page and one\n"
	"inode per file), printing the creation rate and slab versus page cache.\n"
	"\n"
	"  --dir DIR         where to create the directories (must exist)\n"
	"  --files N         files to create (default 200000)\n"
	"  --dirs N          directories to spread them over (default 1000)\n"
	"  --size BYTES      bytes written to each file (default 4096)\n"
	"  --report N        progress line every N files (default files/10)\n"
	"  --no-stat         skip the final stat(2) pass\n"
	"  -h, --help        this help\n"
	"\n"
	"Exit status: 0 done, 1 error, 2 usage error.\n";

/* Slab, SReclaimable and Cached of /proc/meminfo in MiB (-1 if unreadable). */
static void meminfo(double *slab, double *srecl, double *cached)
{
	char line[256];
	long kb;
	FILE *f = fopen("/proc/meminfo", "r");

	*slab = *srecl = *cached = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %ld", &kb) == 1)
			*slab = kb / 1024.0;
		else if (sscanf(line, "SReclaimable: %ld", &kb) == 1)
			*srecl = kb / 1024.0;
		else if (sscanf(line, "Cached: %ld", &kb) == 1)
			*cached = kb / 1024.0;
	}
	fclose(f);
}

static long read_long(const char *dir, const char *file)
{
	char path[1100];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long stat_field(const char *dir, const char *name)
{
	char path[1100], key[128];
	long v, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%127s %ld", key, &v) == 2)
		if (!strcmp(key, name)) {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

/*
 * The memory cgroup this task runs in, for the cgroup's own numbers: on v1
 * kernel memory (memory.kmem.usage_in_bytes: slab mostly) against page cache
 * ("cache" in memory.stat); on v2 slab_reclaimable against "file".
 */
static char memcg_dir[1024];
static int memcg_v2;

static void find_memcg(void)
{
	char line[1000];
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, ":memory:");

		line[strcspn(line, "\n")] = '\0';
		if (p) {
			snprintf(memcg_dir, sizeof(memcg_dir), "/sys/fs/cgroup/memory%s", p + 8);
			memcg_v2 = 0;
			break;
		}
		if (!strncmp(line, "0::", 3)) {
			snprintf(memcg_dir, sizeof(memcg_dir), "/sys/fs/cgroup%s", line + 3);
			memcg_v2 = 1;
		}
	}
	fclose(f);
	if (!strcmp(memcg_dir, "/sys/fs/cgroup/memory/") || !strcmp(memcg_dir, "/sys/fs/cgroup/"))
		memcg_dir[0] = '\0';	/* the root: the machine's numbers say it all */
}

static void progress(long done, double t0, double tlast, long since)
{
	double slab, srecl, cached, t = now();

	meminfo(&slab, &srecl, &cached);
	printf("created %ld files in %.2f s (%.0f files/s now): Slab %.0f MiB, SReclaimable %.0f MiB, "
	       "Cached %.0f MiB, slab share %.1f%%",
	       done, t - t0, t > tlast ? since / (t - tlast) : 0.0, slab, srecl, cached,
	       srecl + cached > 0 ? 100.0 * srecl / (srecl + cached) : 0.0);
	if (memcg_dir[0]) {
		long k = memcg_v2 ? stat_field(memcg_dir, "slab_reclaimable") :
			 read_long(memcg_dir, "memory.kmem.usage_in_bytes");
		long c = stat_field(memcg_dir, memcg_v2 ? "file" : "cache");

		if (k >= 0 && c >= 0)
			printf("; memcg %s %.0f MiB, page cache %.0f MiB, share %.1f%%",
			       memcg_v2 ? "slab_reclaimable" : "kmem", k / 1048576.0, c / 1048576.0,
			       k + c > 0 ? 100.0 * k / (k + c) : 0.0);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "files", required_argument, NULL, 'n' },
		{ "dirs", required_argument, NULL, 'D' },
		{ "size", required_argument, NULL, 's' },
		{ "report", required_argument, NULL, 'r' },
		{ "no-stat", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long files = 200000, dirs = 1000, size = 4096, report = 0, i, since = 0;
	const char *top = NULL;
	int do_stat = 1, c, fd;
	char path[4096], *buf;
	double t0, tlast;
	struct stat st;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': top = optarg; break;
		case 'n': files = parse_num("--files", optarg, 1); break;
		case 'D': dirs = parse_num("--dirs", optarg, 1); break;
		case 's': size = parse_num("--size", optarg, 0); break;
		case 'r': report = parse_num("--report", optarg, 1); break;
		case 'S': do_stat = 0; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!top || optind != argc) {
		fprintf(stderr, "smallfiles: error: %s\n%s", !top ? "--dir is required" :
			"unexpected argument", usage);
		return 2;
	}
	if (!report)
		report = files / 10 ? files / 10 : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (stat(top, &st))
		die("cannot stat", top);
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		die("cannot use", top);
	}
	buf = malloc(size ? size : 1);
	if (!buf)
		die("out of memory", NULL);
	memset(buf, 'x', size);

	find_memcg();
	t0 = tlast = now();
	for (i = 0; i < dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%05ld", top, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			die("cannot create directory", path);
	}
	printf("smallfiles: %ld files of %ld bytes in %ld directories under %s\n", files, size, dirs,
	       top);
	progress(0, t0, tlast, 0);
	for (i = 0; i < files; i++) {
		/* round robin over the directories, like fs_mark's -D */
		snprintf(path, sizeof(path), "%s/d%05ld/f%08ld", top, i % dirs, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("cannot create", path);
		if (size && write(fd, buf, size) != size)
			die("cannot write", path);
		if (close(fd))
			die("cannot close", path);
		since++;
		if ((i + 1) % report == 0 || i + 1 == files) {
			progress(i + 1, t0, tlast, since);
			tlast = now();
			since = 0;
		}
	}
	printf("create: %ld files in %.3f s (%.0f files/s)\n", files, now() - t0,
	       files / (now() - t0));
	if (do_stat) {
		double t1 = now();

		for (i = 0; i < files; i++) {
			snprintf(path, sizeof(path), "%s/d%05ld/f%08ld", top, i % dirs, i);
			if (stat(path, &st))
				die("cannot stat", path);
		}
		printf("stat: %ld files in %.3f s (%.0f files/s)\n", files, now() - t1,
		       files / (now() - t1));
	}
	free(buf);
	return 0;
}
