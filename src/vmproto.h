#ifndef MMCMP_VMPROTO_H
#define MMCMP_VMPROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"
#include "strmap.h"

/*
 * vmproto: the messages between mmcmp on the host and its agent in a
 * guest (guest/mmcmp-agent.c), over a serial port: binary-safe frames
 * with a version, a length, a sequence number and CRC-32s, so a corrupt
 * or truncated frame is recognised, bytes that are no frame are skipped,
 * and a result is paired with the request it answers, never another.
 *
 * A writer builds a frame with vmproto_begin(), the put functions and
 * vmproto_end(). vmproto_frame_parse() returns VMPROTO_NEED_MORE until a
 * whole frame is there, so a reader feeds it what arrived so far, then
 * reads the fields with the get functions; decoded fields point into the
 * caller's buffer. A host waiting for one answer uses vmproto_await(),
 * which drops what comes before it. The layout of a frame: at
 * VMPROTO_VERSION. Functions returning int give 0, or -1 with one line
 * in err.
 */

/*
 * A frame is, all integers little-endian:
 *
 *   "MMVP"  magic, 4 bytes
 *   u8      version (VMPROTO_VERSION)
 *   u8      type (enum vmproto_type)
 *   u16     0
 *   u32     payload length, at most VMPROTO_MAX_PAYLOAD
 *   u32     sequence number (below)
 *   u32     CRC-32 of the 16 header bytes before it
 *   ...     payload: fields, each u16 tag, u32 length, bytes
 *   u32     CRC-32 (IEEE 802.3, as zlib's crc32()) of all that precedes
 *
 * The host numbers its requests 1, 2, ... in each boot, and the RESULT
 * of a request carries its number; a RESULT numbered 0 says the agent
 * could not read a frame it was sent, HELLO and POWEROFF are numbered
 * 0. The header's own checksum lets a reader refuse a damaged or false
 * header at once, rather than wait for the payload it would announce.
 * Tags repeat where a list is meant (argv, env); a reader skips tags it
 * does not know, so fields can be added without a new version. Numbers
 * are fields of 8 bytes (u64, or the bits of an IEEE double).
 */
#define VMPROTO_VERSION	    2
#define VMPROTO_HEADER	    20
#define VMPROTO_MAX_PAYLOAD ((uint32_t)256 * 1024 * 1024)

enum vmproto_type {
	VMPROTO_HELLO = 1,    /* guest: ready, with its facts */
	VMPROTO_REQUEST = 2,  /* host: run a command */
	VMPROTO_RESULT = 3,   /* guest: what the command did */
	VMPROTO_POWEROFF = 4, /* host: power the guest off */
};

enum vmproto_tag {
	/* REQUEST */
	VMPROTO_T_ARGV = 1,	  /* one per argument, in order */
	VMPROTO_T_ENV = 2,	  /* one per NAME=VALUE */
	VMPROTO_T_CWD = 3,	  /* absent: the agent's */
	VMPROTO_T_TIMEOUT_MS = 4, /* u64; 0: none */
	VMPROTO_T_MONITOR = 5,	  /* u64 0/1: take the snapshots */
	VMPROTO_T_STDOUT_MAX = 6, /* u64 bytes of stdout kept; 0: default */
	VMPROTO_T_PERF = 7,	  /* one per perf event (monitor-perf.h) */
	/*
	 * u64 1: the environment of the boot's last request that had one,
	 * in place of its ENV fields (each request's would cross the
	 * serial link again).
	 */
	VMPROTO_T_ENV_SAME = 8,
	/*
	 * u64 Hz: run the command under the sampler (profile.h) rather
	 * than the runner, its stdout and stderr to /dev/null, and answer
	 * with its profile (the PROFILE fields below) besides the result.
	 */
	VMPROTO_T_PROFILE_HZ = 9,
	/* u64 bytes of folded stacks the answer may carry (0: no cap) */
	VMPROTO_T_PROFILE_MAX = 10,
	/* RESULT */
	VMPROTO_T_STATUS = 20,	    /* u64 enum runner_status */
	VMPROTO_T_EXIT_CODE = 21,   /* u64 */
	VMPROTO_T_SIGNAL = 22,	    /* u64 */
	VMPROTO_T_STDOUT = 23,	    /* bytes, capped by the agent */
	VMPROTO_T_TRUNCATED = 24,   /* u64 0/1 */
	VMPROTO_T_STDERR_TAIL = 25, /* bytes */
	VMPROTO_T_ELAPSED_NS = 26,  /* u64, guest CLOCK_MONOTONIC */
	VMPROTO_T_USER_NS = 27,	    /* u64 */
	VMPROTO_T_SYS_NS = 28,	    /* u64 */
	VMPROTO_T_MAXRSS_KB = 29,   /* u64 */
	/*
	 * u8 source, then "name value" lines as monitor_encode() writes
	 * them: BEFORE the values a record keeps, AFTER those that changed.
	 */
	VMPROTO_T_SNAP_BEFORE = 30,
	VMPROTO_T_SNAP_AFTER = 31,
	VMPROTO_T_MONITOR_ERR = 32, /* why there are no snapshots */
	VMPROTO_T_PERF_COUNTS = 33, /* "event count" lines */
	VMPROTO_T_PERF_ABSENT = 34, /* the events not counted and why */
	/* A profile (VMPROTO_T_PROFILE_HZ): see vmproto_put_profile(). */
	VMPROTO_T_PROFILE_STATUS = 35,	/* "ok", "exit", ... (profile.h) */
	VMPROTO_T_PROFILE_STACKS = 36,	/* folded "a;b;c N" lines */
	VMPROTO_T_PROFILE_SAMPLES = 37, /* u64, in the stacks sent */
	VMPROTO_T_PROFILE_LOST = 38,	/* u64, lost in the guest */
	VMPROTO_T_PROFILE_MISSING = 39, /* what had no symbol, or absent */
	/* HELLO */
	VMPROTO_T_RELEASE = 40, /* uname -r */
	VMPROTO_T_CMDLINE = 41, /* /proc/cmdline */
	VMPROTO_T_FACT = 42,	/* NAME=VALUE, a machine fact */
	/* RESULT, of a profile that could not be taken: why */
	VMPROTO_T_PROFILE_ERR = 43,
	/*
	 * As SNAP_BEFORE and SNAP_AFTER, the lines packed by
	 * vmproto_names_pack(): what an agent of this version sends.
	 */
	VMPROTO_T_SNAP_BEFORE_PACKED = 44,
	VMPROTO_T_SNAP_AFTER_PACKED = 45,
};

/* One field of a decoded frame; data points into the parsed buffer. */
struct vmproto_field {
	uint16_t tag;
	uint32_t len;
	const uint8_t *data;
};

struct vmproto_msg {
	enum vmproto_type type;
	uint32_t seq; /* the header's sequence number */
	struct vmproto_field *fields;
	size_t nr, alloc;
};

#define VMPROTO_MSG_INIT                                                       \
	{                                                                      \
		.fields = NULL                                                 \
	}

/* Free the field array; NULL is a no-op. */
void vmproto_msg_release(struct vmproto_msg *msg);

/* CRC-32 (IEEE, reflected, as zlib) of len bytes, continuing from crc. */
uint32_t vmproto_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * Building a frame: vmproto_begin() appends a header of type and
 * sequence number seq to out and returns its offset; the put functions
 * append fields; vmproto_end() fills in the length and appends the CRCs.
 */
size_t vmproto_begin(struct strbuf *out, enum vmproto_type type, uint32_t seq);
void vmproto_put(struct strbuf *out, uint16_t tag, const void *data,
		 size_t len);
void vmproto_put_str(struct strbuf *out, uint16_t tag, const char *s);
void vmproto_put_u64(struct strbuf *out, uint16_t tag, uint64_t v);
void vmproto_end(struct strbuf *out, size_t start);

enum vmproto_parse {
	VMPROTO_NEED_MORE = 0, /* no whole frame yet */
	VMPROTO_FRAME = 1,     /* msg holds one frame of *used bytes */
	VMPROTO_BAD = -1,      /* not a valid frame: err says why */
};

/*
 * Parse the frame at the start of buf (len bytes) into msg. On
 * VMPROTO_FRAME, *used is the frame's size; on VMPROTO_BAD, *used is how
 * much to drop before looking again (at least 1), and err has a line; on
 * VMPROTO_NEED_MORE, *used is the size the frame will have once its
 * header is there (checked), else 0.
 */
enum vmproto_parse vmproto_frame_parse(const uint8_t *buf, size_t len,
				       size_t *used, struct vmproto_msg *msg,
				       struct strbuf *err);

/* The first field tagged tag, or NULL. */
const struct vmproto_field *vmproto_get(const struct vmproto_msg *msg,
					uint16_t tag);
/* The u64 of field tag, or def when absent or not 8 bytes. */
uint64_t vmproto_get_u64(const struct vmproto_msg *msg, uint16_t tag,
			 uint64_t def);
/* Append field tag's bytes to sb; false when absent. */
bool vmproto_get_str(const struct vmproto_msg *msg, uint16_t tag,
		     struct strbuf *sb);

/*
 * What a reader skipped while it waited for one frame: bytes that were
 * no frame, and whole frames that answered nothing it asked (the RESULT
 * of an earlier request, a frame of another type).
 */
struct vmproto_skipped {
	size_t bytes, frames;
	struct strbuf first; /* why the first of them was skipped */
};

#define VMPROTO_SKIPPED_INIT                                                   \
	{                                                                      \
		.first = STRBUF_INIT                                           \
	}

void vmproto_skipped_release(struct vmproto_skipped *sk);
/*
 * Append "skipped N bytes that were no frame and M frames (the first:
 * WHY)" to out; nothing when nothing was skipped.
 */
void vmproto_skipped_describe(const struct vmproto_skipped *sk,
			      struct strbuf *out);

enum vmproto_await {
	VMPROTO_AWAIT_MORE = 0,	 /* not there yet: add what arrives */
	VMPROTO_AWAIT_FRAME = 1, /* msg is the frame, *used bytes of in */
	VMPROTO_AWAIT_LOST = -1, /* the agent could not read a frame */
};

/*
 * Look in `in`, the bytes a host has read and not consumed, for the frame
 * of type and sequence number seq: what comes before it (bytes that are
 * no frame, frames of another type or number) is dropped from the front
 * of `in` and counted in sk, so the answer to request seq is the RESULT
 * numbered seq and no other. VMPROTO_AWAIT_FRAME leaves the frame at the
 * front of `in` (msg points into it; the caller drops its *used bytes);
 * VMPROTO_AWAIT_MORE sets *used as vmproto_frame_parse() does, the size
 * of a frame whose header has arrived. While a RESULT is awaited, a
 * RESULT numbered 0 is VMPROTO_AWAIT_LOST, with the agent's reason in
 * err: the request may never have reached it, so the exchange cannot go
 * on. The RESULT's fields are not checked (vmproto_get_result() does).
 */
enum vmproto_await vmproto_await(struct strbuf *in, enum vmproto_type type,
				 uint32_t seq, struct vmproto_msg *msg,
				 size_t *used, struct vmproto_skipped *sk,
				 struct strbuf *err);

/*
 * The names of the "name value" snapshot lines sent in one boot, by
 * number, with the last value sent of each: the serial port carries
 * each byte at a cost (about 4 us under TCG), and an iteration's
 * snapshots repeat the same 60-odd names, most with the value the one
 * before ended on. The agent packs a line as "=name value" the first
 * time it sends that name, then as "N value", N the name's number (0,
 * 1, ... in the order first sent), as "N+D" or "N-D" when both values
 * are decimal and the difference from the last sent for it is the
 * shorter, or as "N" alone when the value is that last one, a run of
 * such numbers N, N+1, ..., M as "N:M"; the host, unpacking the fields
 * in the order they were packed, turns them back into "name value". One
 * per boot on each side: the agent starts with each boot, the host
 * resets its own.
 */
struct vmproto_names {
	struct strmap number; /* the agent's: name -> N */
	char **name, **value; /* N -> name, its last value */
	size_t nr, alloc;
};

#define VMPROTO_NAMES_INIT                                                     \
	{                                                                      \
		.number = STRMAP_INIT, .name = NULL, .value = NULL             \
	}

void vmproto_names_release(struct vmproto_names *nm);
/* Append text's len bytes of "name value" lines to out, packed. */
void vmproto_names_pack(struct vmproto_names *nm, const char *text, size_t len,
			struct strbuf *out);
/*
 * Append packed lines (len bytes) to out as "name value" lines; -1 with
 * a line in err for a number or run not sent yet, a difference that is
 * not one from a decimal, a NUL, or a line that is none of the forms.
 */
int vmproto_names_unpack(struct vmproto_names *nm, const char *text, size_t len,
			 struct strbuf *out, struct strbuf *err);

struct runner_result;

/*
 * Append the fields of r (status, exit code or signal, stdout, stderr
 * tail, times, max RSS) to a RESULT frame being built.
 */
void vmproto_put_result(struct strbuf *out, const struct runner_result *r);
/*
 * Fill r (released by the caller) from a RESULT message; a missing or
 * unknown status is an error.
 */
int vmproto_get_result(const struct vmproto_msg *msg, struct runner_result *r,
		       struct strbuf *err);

struct profile_result;

/*
 * Append the fields of the profile p to a RESULT frame being built: its
 * status, lost count, what had no symbol, and its folded stacks, at most
 * max_bytes of them (0: all). Over the cap, the stacks with the fewest
 * samples are left out, whole lines, so that the shares of the others
 * stay as they were (the link carries a guest's answer only so fast);
 * SAMPLES counts what is sent, and MISSING says how much was left out.
 */
void vmproto_put_profile(struct strbuf *out, const struct profile_result *p,
			 size_t max_bytes);
/*
 * Fill p (released first, then the caller's) from a RESULT message that
 * answers a request with VMPROTO_T_PROFILE_HZ. -1 with a line in err
 * when the agent could not profile (its reason), or sent no profile (an
 * agent that predates profiles ignores the request's field) or one whose
 * stacks are not folded lines whose counts add up to its samples.
 */
int vmproto_get_profile(const struct vmproto_msg *msg, struct profile_result *p,
			struct strbuf *err);

#endif /* MMCMP_VMPROTO_H */
