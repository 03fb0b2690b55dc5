// SPDX-License-Identifier: GPL-2.0
/*
 * text-line.c - the anatomy of one line of a text trace:
 *
 *   <comm>-<pid> [(<tgid>)] [<cpu>] [<latency flags>] <timestamp>: <event>: <payload>
 *
 * as the tracefs `trace` file prints it (latency flags 4 or 5 characters
 * wide depending on the kernel), as `trace-cmd report` prints it (no flags,
 * or `-l`: "<comm>-<pid> <cpu><flags> <ts>:"), with µs or ns timestamps, or a
 * bare integer for the counter/uptime/x86-tsc clocks. The comm may contain
 * spaces, '-' and ':', so the line is anchored on the "-<pid> [<cpu>]"
 * column, not split from the left.
 */
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "text.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parse the digits at s[*i] (all of them). Return: 0 and the value, -1 if
 * there is no digit, 1 if the number is beyond @max (the value is then
 * meaningless): numbers never wrap.
 */
static int read_num(const char *s, size_t len, size_t *i, long long max, long long *v)
{
	size_t start = *i;
	int over = 0;

	*v = 0;
	while (*i < len && is_digit(s[*i])) {
		int d = s[(*i)++] - '0';

		if (over || *v > (max - d) / 10)
			over = 1;
		else
			*v = *v * 10 + d;
	}
	return *i > start ? over : -1;
}

static int read_uint(const char *s, size_t len, size_t *i, long long *v)
{
	return read_num(s, len, i, LLONG_MAX, v);
}

static void skip_spaces(const char *s, size_t len, size_t *i)
{
	while (*i < len && is_space(s[*i]))
		(*i)++;
}

/* "<secs>[.<frac>]:" at s[*i]. Return: 0, -1 (not one), -2 (beyond 2^63 ns: out->range). */
static int read_timestamp(const char *s, size_t len, size_t *i, struct text_line *out)
{
	long long secs, frac = 0;
	size_t fstart;
	int rc;

	if ((rc = read_uint(s, len, i, &secs)) < 0)
		return -1;
	if (rc) {
		out->range = "timestamp out of range";
		return -2;
	}
	out->ts_raw = 1;
	out->ts_digits = 0;
	if (*i < len && s[*i] == '.') {
		(*i)++;
		fstart = *i;
		if (read_uint(s, len, i, &frac) || *i - fstart > 9)
			return -1;
		out->ts_digits = *i - fstart;
		for (size_t d = out->ts_digits; d < 9; d++)
			frac *= 10;
		out->ts_raw = 0;
	}
	if (*i >= len || s[*i] != ':')
		return -1;
	(*i)++;
	/* the database stores signed 64-bit ns: at most 9223372036.854775807 s */
	if (!out->ts_raw && (secs > 9223372036LL ||
			     (secs == 9223372036LL && frac > 854775807LL))) {
		out->range = "timestamp out of range";
		return -2;
	}
	out->ts = out->ts_raw ? (uint64_t)secs : (uint64_t)secs * 1000000000ULL + frac;
	return 0;
}

/*
 * Does s[0..end) end with "-<pid>" (optionally followed by " (<tgid>)")?
 * Fills comm/pid/tgid. Return: 0, -1 (no), -2 (a pid beyond int: out->range).
 */
static int split_task(const char *s, size_t end, struct text_line *out)
{
	size_t j = end, digits_end;
	long long v;
	int rc;

	while (j > 0 && is_space(s[j - 1]))
		j--;
	out->tgid = -1;
	if (j > 0 && s[j - 1] == ')') {
		size_t close = j - 1, open = close;

		while (open > 0 && s[open] != '(')
			open--;
		if (s[open] != '(')
			return -1;
		{
			size_t k = open + 1;

			skip_spaces(s, close, &k);
			if (k < close && s[k] == '-')
				out->tgid = -1;	/* "(-------)": tgid unknown */
			else if ((rc = read_num(s, close, &k, INT_MAX, &v)) == 1)
				return out->range = "tgid out of range", -2;
			else if (!rc)
				out->tgid = (int)v;
		}
		j = open;
		while (j > 0 && is_space(s[j - 1]))
			j--;
	}
	digits_end = j;
	while (j > 0 && is_digit(s[j - 1]))
		j--;
	if (j == digits_end || j == 0 || s[j - 1] != '-')
		return -1;
	{
		size_t k = j;

		if (read_num(s, digits_end, &k, INT_MAX, &v))
			return out->range = "pid out of range", -2;
		out->pid = (int)v;
	}
	j--;	/* the '-' */
	{
		size_t start = 0, k;

		/*
		 * trace-cmd report puts the buffer instance first, at column 0:
		 * "NAME:    <comm>-<pid> [cpu] ...". A word ending in ':' followed
		 * by two spaces at the start of the line is that, not the comm.
		 */
		for (k = 0; k + 2 < j && s[k] != ' ' && s[k] != '\t'; k++)
			;
		if (k > 1 && k + 2 < j && s[k - 1] == ':' && s[k] == ' ' && s[k + 1] == ' ')
			start = k;
		skip_spaces(s, j, &start);
		out->comm = s + start;
		out->comm_len = j - start;
	}
	return 0;
}

/* After the timestamp: "<event>: <payload>". */
static int read_event(const char *s, size_t len, size_t i, struct text_line *out)
{
	size_t start;

	skip_spaces(s, len, &i);
	start = i;
	while (i < len && s[i] != ':' && !is_space(s[i]))
		i++;
	if (i == start || i >= len || s[i] != ':')
		return -1;
	out->event = s + start;
	out->event_len = i - start;
	i++;
	skip_spaces(s, len, &i);
	out->payload = s + i;
	out->payload_len = len - i;
	return 0;
}

/*
 * "CPU:%d [LOST %lu EVENTS]", "CPU:%d [%lld EVENTS DROPPED]", "CPU:%d [EVENTS DROPPED]".
 * Return: 0, -1 (not one), -2 (one with a CPU or count out of range or not
 * decimal: out->range says which).
 */
static int parse_lost(const char *s, size_t len, struct text_line *out)
{
	size_t i = 4;
	long long cpu, n;
	int rc;

	if (len < 8 || memcmp(s, "CPU:", 4) || (rc = read_num(s, len, &i, INT_MAX, &cpu)) < 0)
		return -1;
	out->cpu = (int)cpu;
	out->lost = -1;
	if (i + 2 > len || s[i] != ' ' || s[i + 1] != '[' || !memmem(s, len, "EVENTS", 6))
		return -1;
	if (rc)
		return out->range = "CPU number out of range", -2;
	i += 2;
	if (len - i >= 5 && !memcmp(s + i, "LOST ", 5))
		i += 5;
	rc = read_uint(s, len, &i, &n);
	if (rc > 0)
		return out->range = "lost event count out of range", -2;
	if (!rc && (i >= len || s[i] != ' '))
		return out->range = "lost event count is not a decimal number", -2;
	if (!rc)
		out->lost = n;
	return 0;
}

/* trace-cmd report's "version = <n>" (a task line may also start with "version") */
static int is_version_header(const char *s, size_t len)
{
	size_t i = 7;
	long long v;

	if (len < 7 || memcmp(s, "version", 7))
		return 0;
	skip_spaces(s, len, &i);
	if (i >= len || s[i++] != '=')
		return 0;
	skip_spaces(s, len, &i);
	return !read_uint(s, len, &i, &v) && i == len;
}

/* Return: 0, or -1 with out->range (an entries line whose numbers are out of range). */
static int parse_comment(const char *s, size_t len, struct text_line *out)
{
	static const char key[] = "# entries-in-buffer/entries-written:";
	long long in_buf, written;
	size_t i = sizeof(key) - 1;
	int a, b = 0;

	out->entries_lost = -1;
	if (len < i || memcmp(s, key, i))
		return 0;
	skip_spaces(s, len, &i);
	if ((a = read_uint(s, len, &i, &in_buf)) < 0 || i >= len || s[i++] != '/' ||
	    (b = read_uint(s, len, &i, &written)) < 0)
		return 0;
	if (a || b)
		return out->range = "entries-in-buffer/entries-written count out of range", -1;
	out->entries_lost = written > in_buf ? written - in_buf : 0;
	return 0;
}

enum text_line_kind text_line_parse(const char *s, size_t len, struct text_line *out,
				    const char **why)
{
	const char *bad = NULL;
	size_t i, lead = 0;

	memset(out, 0, sizeof(*out));
	out->header_cpus = out->entries_lost = -1;
	out->tgid = -1;
	*why = NULL;
	while (len && (s[len - 1] == '\r' || is_space(s[len - 1])))
		len--;
	skip_spaces(s, len, &lead);
	if (lead == len)
		return TL_BLANK;
	if (s[lead] == '#') {
		if (!parse_comment(s + lead, len - lead, out))
			return TL_COMMENT;
		*why = out->range;
		return TL_BAD;
	}
	if (len - lead > 5 && !memcmp(s + lead, "cpus=", 5)) {
		long long n;
		size_t k = lead + 5;

		if (!read_uint(s, len, &k, &n))
			out->header_cpus = n;
		return TL_HEADER;
	}
	if (is_version_header(s + lead, len - lead) ||
	    (len - lead > 4 && !memcmp(s + lead, "CPU ", 4) && memmem(s, len, "is empty", 8)))
		return TL_HEADER;
	{
		/* trace-cmd report of a buffer instance: "NAME: CPU:1 [LOST 5 EVENTS]" */
		size_t k = lead;

		while (k < len && !is_space(s[k]))
			k++;
		if (k > lead + 1 && s[k - 1] == ':' && len - k > 5 && memcmp(s + lead, "CPU:", 4)) {
			skip_spaces(s, len, &k);
			if (len - k > 4 && !memcmp(s + k, "CPU:", 4))
				lead = k;
			else if (len - k > 4 && !memcmp(s + k, "CPU ", 4) && memmem(s, len, "is empty", 8))
				return TL_HEADER;
		}
	}
	if (len - lead > 4 && !memcmp(s + lead, "CPU:", 4)) {
		int rc = parse_lost(s + lead, len - lead, out);

		if (!rc)
			return TL_LOST;
		if (rc == -2) {
			*why = out->range;
			return TL_BAD;
		}
	}

	/*
	 * The first "[<digits>]" whose left side ends in "-<pid>" is the CPU
	 * column. If what follows is not a timestamp and an event, the line may
	 * be in the -l format with brackets in its payload: try that too.
	 */
	for (i = lead; i < len; i++) {
		size_t k = i + 1;
		long long cpu;
		int over, rc;

		if (s[i] != '[' || (over = read_num(s, len, &k, INT_MAX, &cpu)) < 0 || k >= len ||
		    s[k] != ']')
			continue;
		if ((rc = split_task(s, i, out)) == -2) {
			bad = out->range;
			break;
		}
		if (rc)
			continue;
		if (over) {
			bad = "CPU number out of range";
			break;
		}
		out->cpu = (int)cpu;
		k++;
		skip_spaces(s, len, &k);
		{
			size_t t = k;

			if ((rc = read_timestamp(s, len, &t, out)) == -1) {
				/* latency flags, then the timestamp */
				while (k < len && !is_space(s[k]))
					k++;
				skip_spaces(s, len, &k);
				t = k;
				rc = read_timestamp(s, len, &t, out);
			}
			if (rc) {
				bad = rc == -2 ? out->range : "no timestamp after the CPU column";
				break;
			}
			if (read_event(s, len, t, out)) {
				bad = "no 'event:' after the timestamp";
				break;
			}
		}
		return TL_EVENT;
	}

	/* trace-cmd report -l: "<comm>-<pid> <cpu><flags> <ts>: <event>: ..." */
	for (i = lead; i < len; i++) {
		size_t k, t;
		long long cpu;

		if (!is_space(s[i]) || i == lead || is_space(s[i - 1]))
			continue;
		if (split_task(s, i, out))
			continue;
		k = i;
		skip_spaces(s, len, &k);
		if (read_num(s, len, &k, INT_MAX, &cpu))
			continue;
		out->cpu = (int)cpu;
		while (k < len && !is_space(s[k]))
			k++;
		skip_spaces(s, len, &k);
		t = k;
		if (read_timestamp(s, len, &t, out) || read_event(s, len, t, out))
			continue;
		return TL_EVENT;
	}
	*why = bad ? bad : "not a trace line (no \"<comm>-<pid> [<cpu>] <timestamp>: <event>:\")";
	return TL_BAD;
}
