// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - read a trace file as a stream of bytes or lines, whatever it is
 * compressed with (gzip, zstd, xz, or nothing), recognised by its magic
 * bytes. Used by the importers; bug-report attachments are often compressed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "vms.h"

#define RAW_CHUNK (256 * 1024)
#define BUF_INIT (1024 * 1024)

enum codec { C_NONE, C_GZIP, C_ZSTD, C_XZ };

struct vms_input {
	char *path;
	int fd;
	enum codec codec;
	uint64_t raw_pos, raw_size;
	int raw_eof;
	unsigned char *raw;		/* compressed bytes not yet decoded */
	size_t raw_have, raw_off;
	z_stream z;
	ZSTD_DStream *zstd;
	lzma_stream xz;
	int codec_done;			/* the decoder reached the end of its stream */
	uint64_t decoded;		/* decompressed bytes produced */
	unsigned char *buf;		/* decoded bytes */
	size_t alloc, start, end;	/* buf[start..end) not yet consumed */
	int eof;
	uint64_t consumed;		/* decoded bytes before buf[start] */
	uint64_t line_offset;
};

static int raw_fill(struct vms_input *in)
{
	ssize_t n;

	if (in->raw_off < in->raw_have || in->raw_eof)
		return 0;
	n = read(in->fd, in->raw, RAW_CHUNK);
	if (n < 0)
		return vms_error("cannot read '%s': %s", in->path, strerror(errno));
	in->raw_off = 0;
	in->raw_have = n;
	in->raw_pos += n;
	if (n == 0)
		in->raw_eof = 1;
	return 0;
}

static long truncated(struct vms_input *in)
{
	return vms_error("'%s': compressed data ends early (truncated %s file)", in->path,
			 vms_input_compression(in));
}

/*
 * Decode into out[0..len). At the end of the compressed file the decoder is
 * still called with no input, to flush what it holds. Return: bytes
 * produced, 0 at the end, -1 on error.
 */
static long decode(struct vms_input *in, unsigned char *out, size_t len)
{
	size_t produced = 0;

	while (produced == 0) {
		size_t avail;

		if (raw_fill(in))
			return -1;
		avail = in->raw_have - in->raw_off;
		if (in->codec == C_NONE) {
			size_t n = avail < len ? avail : len;

			memcpy(out, in->raw + in->raw_off, n);
			in->raw_off += n;
			return (long)n;
		}
		if (in->codec == C_GZIP) {
			int rc;

			if (in->codec_done) {
				if (!avail)
					return 0;
				inflateReset(&in->z);	/* another gzip member follows */
				in->codec_done = 0;
			}
			in->z.next_in = in->raw + in->raw_off;
			in->z.avail_in = avail;
			in->z.next_out = out;
			in->z.avail_out = len;
			rc = inflate(&in->z, Z_NO_FLUSH);
			in->raw_off = in->raw_have - in->z.avail_in;
			produced = len - in->z.avail_out;
			if (rc == Z_STREAM_END)
				in->codec_done = 1;
			else if (rc != Z_OK && rc != Z_BUF_ERROR)
				return vms_error("'%s': corrupt gzip data near byte %llu: %s", in->path,
						 (unsigned long long)in->raw_pos, in->z.msg ? in->z.msg : "?");
			if (!produced && in->raw_eof && !avail)
				return in->codec_done ? 0 : truncated(in);
		} else if (in->codec == C_ZSTD) {
			ZSTD_inBuffer ib = { in->raw + in->raw_off, avail, 0 };
			ZSTD_outBuffer ob = { out, len, 0 };
			size_t rc = ZSTD_decompressStream(in->zstd, &ob, &ib);

			if (ZSTD_isError(rc))
				return vms_error("'%s': corrupt zstd data near byte %llu: %s", in->path,
						 (unsigned long long)in->raw_pos, ZSTD_getErrorName(rc));
			in->raw_off += ib.pos;
			produced = ob.pos;
			/* a call with nothing in and nothing out says nothing about the frame */
			if (ib.pos || ob.pos)
				in->codec_done = rc == 0;
			if (!produced && in->raw_eof && !avail)
				return in->codec_done ? 0 : truncated(in);
		} else {
			lzma_ret rc;

			in->xz.next_in = in->raw + in->raw_off;
			in->xz.avail_in = avail;
			in->xz.next_out = out;
			in->xz.avail_out = len;
			/* LZMA_CONCATENATED reports the end only once told the input ended */
			rc = lzma_code(&in->xz, in->raw_eof ? LZMA_FINISH : LZMA_RUN);
			in->raw_off = in->raw_have - in->xz.avail_in;
			produced = len - in->xz.avail_out;
			if (rc == LZMA_STREAM_END) {
				in->codec_done = 1;
				in->decoded += produced;
				return (long)produced;
			}
			if (rc != LZMA_OK && rc != LZMA_BUF_ERROR)
				return vms_error("'%s': corrupt xz data near byte %llu (lzma error %d)",
						 in->path, (unsigned long long)in->raw_pos, (int)rc);
			if (!produced && in->raw_eof && !avail)
				return truncated(in);
		}
	}
	in->decoded += produced;
	return (long)produced;
}

/* Make sure at least @want decoded bytes are buffered (fewer at end of input). */
static int buf_fill(struct vms_input *in, size_t want)
{
	while (!in->eof && in->end - in->start < want) {
		long n;

		if (in->start > 0 && in->alloc - in->end < RAW_CHUNK) {
			memmove(in->buf, in->buf + in->start, in->end - in->start);
			in->consumed += in->start;
			in->end -= in->start;
			in->start = 0;
		}
		if (in->alloc - in->end < RAW_CHUNK) {
			unsigned char *nb = realloc(in->buf, in->alloc * 2);

			if (!nb)
				return vms_error("out of memory");
			in->buf = nb;
			in->alloc *= 2;
		}
		n = decode(in, in->buf + in->end, in->alloc - in->end);
		if (n < 0)
			return -1;
		if (n == 0)
			in->eof = 1;
		in->end += n;
	}
	return 0;
}

struct vms_input *vms_input_open(const char *path)
{
	struct vms_input *in = calloc(1, sizeof(*in));
	unsigned char *m;
	struct stat st;

	if (!in) {
		vms_error("out of memory");
		return NULL;
	}
	in->fd = -1;
	in->path = strdup(path);
	in->raw = malloc(RAW_CHUNK);
	in->buf = malloc(BUF_INIT);
	in->alloc = BUF_INIT;
	if (!in->path || !in->raw || !in->buf) {
		vms_error("out of memory");
		goto err;
	}
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0 || fstat(in->fd, &st)) {
		vms_error("cannot open '%s': %s", path, strerror(errno));
		goto err;
	}
	if (S_ISDIR(st.st_mode)) {
		vms_error("'%s' is a directory, not a trace", path);
		goto err;
	}
	in->raw_size = st.st_size;
	if (raw_fill(in))
		goto err;
	m = in->raw;
	if (in->raw_have >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
		in->codec = C_GZIP;
		if (inflateInit2(&in->z, 15 + 32) != Z_OK) {
			vms_error("cannot start the gzip decoder");
			goto err;
		}
	} else if (in->raw_have >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
		in->codec = C_ZSTD;
		in->zstd = ZSTD_createDStream();
		if (!in->zstd || ZSTD_isError(ZSTD_initDStream(in->zstd))) {
			vms_error("cannot start the zstd decoder");
			goto err;
		}
	} else if (in->raw_have >= 6 && !memcmp(m, "\xfd" "7zXZ\0", 6)) {
		in->codec = C_XZ;
		if (lzma_stream_decoder(&in->xz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
			vms_error("cannot start the xz decoder");
			goto err;
		}
	}
	return in;
err:
	vms_input_close(in);
	return NULL;
}

void vms_input_close(struct vms_input *in)
{
	if (!in)
		return;
	if (in->codec == C_GZIP)
		inflateEnd(&in->z);
	if (in->zstd)
		ZSTD_freeDStream(in->zstd);
	if (in->codec == C_XZ)
		lzma_end(&in->xz);
	if (in->fd >= 0)
		close(in->fd);
	free(in->raw);
	free(in->buf);
	free(in->path);
	free(in);
}

const char *vms_input_compression(const struct vms_input *in)
{
	static const char *const names[] = { "none", "gzip", "zstd", "xz" };

	return names[in->codec];
}

uint64_t vms_input_raw_pos(const struct vms_input *in)
{
	return in->raw_pos;
}

uint64_t vms_input_raw_size(const struct vms_input *in)
{
	return in->raw_size;
}

uint64_t vms_input_decoded_bytes(const struct vms_input *in)
{
	return in->codec == C_NONE ? in->raw_pos : in->decoded;
}

size_t vms_input_peek(struct vms_input *in, const unsigned char **data, size_t len)
{
	if (buf_fill(in, len))
		return 0;
	*data = in->buf + in->start;
	return in->end - in->start < len ? in->end - in->start : len;
}

long vms_input_read(struct vms_input *in, void *out, size_t len)
{
	size_t n;

	if (buf_fill(in, 1))
		return -1;
	n = in->end - in->start;
	if (n > len)
		n = len;
	memcpy(out, in->buf + in->start, n);
	in->start += n;
	return (long)n;
}

const char *vms_input_getline(struct vms_input *in, size_t *len, int *had_newline)
{
	size_t scanned = 0;

	for (;;) {
		unsigned char *nl = memchr(in->buf + in->start + scanned, '\n',
					   in->end - in->start - scanned);
		const char *line;

		if (nl) {
			line = (const char *)in->buf + in->start;
			*len = nl - (in->buf + in->start);
			*had_newline = 1;
			in->line_offset = in->consumed + in->start;
			in->start += *len + 1;
			return line;
		}
		if (in->eof) {
			if (in->end == in->start) {
				*len = 0;
				return NULL;
			}
			line = (const char *)in->buf + in->start;
			*len = in->end - in->start;
			*had_newline = 0;
			in->line_offset = in->consumed + in->start;
			in->start = in->end;
			return line;
		}
		scanned = in->end - in->start;
		if (buf_fill(in, scanned + 1)) {
			*len = (size_t)-1;
			return NULL;
		}
	}
}

uint64_t vms_input_line_offset(const struct vms_input *in)
{
	return in->line_offset;
}
