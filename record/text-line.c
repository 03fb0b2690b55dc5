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

/* Parse digits at s[*i]; Return: 0 and the value, -1 if no digit. */
static int read_uint(const char *s, size_t len, size_t *i, long long *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < len && is_digit(s[*i]) && *i - start < 19)
		*v = *v * 10 + (s[(*i)++] - '0');
	return *i > start ? 0 : -1;
}

static void skip_spaces(const char *s, size_t len, size_t *i)
{
	while (*i < len && is_space(s[*i]))
		(*i)++;
}

/* "<secs>[.<frac>]:" at s[*i]. */
static int read_timestamp(const char *s, size_t len, size_t *i, struct text_line *out)
{
	long long secs, frac = 0;
	size_t fstart;

	if (read_uint(s, len, i, &secs))
		return -1;
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
	out->ts = out->ts_raw ? (uint64_t)secs : (uint64_t)secs * 1000000000ULL + frac;
	return 0;
}

/* Does s[0..end) end with "-<pid>" (optionally followed by " (<tgid>)")? Fills comm/pid/tgid. */
static int split_task(const char *s, size_t end, struct text_line *out)
{
	size_t j = end, digits_end;
	long long v;

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
			else if (!read_uint(s, close, &k, &v))
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

		read_uint(s, digits_end, &k, &v);
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

static int parse_lost(const char *s, size_t len, struct text_line *out)
{
	size_t i = 4;
	long long cpu, n;

	/* "CPU:%d [LOST %lu EVENTS]", "CPU:%d [%lld EVENTS DROPPED]", "CPU:%d [EVENTS DROPPED]" */
	if (len < 8 || memcmp(s, "CPU:", 4) || read_uint(s, len, &i, &cpu))
		return -1;
	out->cpu = (int)cpu;
	out->lost = -1;
	if (i + 2 > len || s[i] != ' ' || s[i + 1] != '[')
		return -1;
	i += 2;
	if (len - i >= 5 && !memcmp(s + i, "LOST ", 5))
		i += 5;
	if (!read_uint(s, len, &i, &n))
		out->lost = n;
	return memmem(s, len, "EVENTS", 6) ? 0 : -1;
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

static void parse_comment(const char *s, size_t len, struct text_line *out)
{
	static const char key[] = "# entries-in-buffer/entries-written:";
	long long in_buf, written;
	size_t i = sizeof(key) - 1;

	out->entries_lost = -1;
	if (len < i || memcmp(s, key, i))
		return;
	skip_spaces(s, len, &i);
	if (read_uint(s, len, &i, &in_buf) || i >= len || s[i++] != '/' ||
	    read_uint(s, len, &i, &written))
		return;
	out->entries_lost = written > in_buf ? written - in_buf : 0;
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
		parse_comment(s + lead, len - lead, out);
		return TL_COMMENT;
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
	if (len - lead > 4 && !memcmp(s + lead, "CPU:", 4)) {
		if (!parse_lost(s + lead, len - lead, out))
			return TL_LOST;
	}

	/*
	 * The first "[<digits>]" whose left side ends in "-<pid>" is the CPU
	 * column. If what follows is not a timestamp and an event, the line may
	 * be in the -l format with brackets in its payload: try that too.
	 */
	for (i = lead; i < len; i++) {
		size_t k = i + 1;
		long long cpu;

		if (s[i] != '[' || read_uint(s, len, &k, &cpu) || k >= len || s[k] != ']')
			continue;
		if (split_task(s, i, out))
			continue;
		out->cpu = (int)cpu;
		k++;
		skip_spaces(s, len, &k);
		{
			size_t t = k;

			if (read_timestamp(s, len, &t, out)) {
				/* latency flags, then the timestamp */
				while (k < len && !is_space(s[k]))
					k++;
				skip_spaces(s, len, &k);
				t = k;
				if (read_timestamp(s, len, &t, out)) {
					bad = "no timestamp after the CPU column";
					break;
				}
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
		if (read_uint(s, len, &k, &cpu))
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
