/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_STATE_FRAME_H
#define KVR_COMMON_STATE_FRAME_H

/*
 * The push state frame: one msgpack map per datagram, sent by an engine-side
 * hook (deploy/hooks/vllm/, kvroute-sim) to kvroute-statefeed over a Unix
 * datagram socket or UDP. deploy/push-frame.md is the schema for people
 * writing hooks in other languages; this codec is its reference.
 *
 * Map keys (strings) and value types:
 *   "v"                      uint  schema version, required, must be 1
 *   "engine"                 str   engine id = base URL as configured in statefeed, required
 *   "ts_ns"                  uint  sample time, sender's CLOCK_REALTIME ns, required
 *   "running"                uint  required
 *   "waiting"                uint  required
 *   "seq"                    uint  sender's frame counter (reordering/loss), optional
 *   "dp_ranks"               uint  ranks summed into the counts, optional
 *   "max_running"            uint  batch slots summed over ranks, 0/absent = unknown
 *   "caps_complete"          bool  every rank reported its max_running, optional (false)
 *   "kv_used"                uint  KV tokens held, optional
 *   "kv_capacity"            uint  KV token capacity, optional (0 = unknown)
 *   "kv_usage"               float or uint, 0..1, optional
 *   "pending_prefill"        uint  tokens admitted but not prefilled; presence sets HAS_PENDING_PREFILL
 *   "max_prefill_remaining"  uint  largest remaining prefill of one request, optional
 *   "utilization"            float or uint, 0..1; presence sets HAS_UTILIZATION
 * Unknown keys are ignored (additive changes keep "v" at 1); a known key with
 * the wrong type, a duplicate key, or anything but one map in the buffer is
 * rejected. Integers may be sent in any msgpack int width; floats as float32
 * or float64.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "shm_layout/shm_layout.h"

#define KVR_STATE_FRAME_VERSION 1
/** Largest frame accepted or produced, in bytes; a receiver's buffer needs one byte more to see oversize. */
#define KVR_STATE_FRAME_MAX 1024
/** Clocks further apart than this are reported as skewed (see local_sample_time). */
#define KVR_STATE_FRAME_MAX_SKEW_NS (60ull * 1000000000ull)

typedef struct kvr_state_frame_s {
    uint32_t version;        /* as decoded; encode always writes KVR_STATE_FRAME_VERSION */
    uint64_t sample_unix_ns; /* "ts_ns": sender's CLOCK_REALTIME */
    bool has_seq;
    uint64_t seq;
    /*
     * engine_id, running, waiting, max_running, kv_tokens_used,
     * kv_tokens_capacity, kv_usage, pending_prefill_tokens,
     * max_prefill_remaining, utilization, dp_ranks, and the flags
     * CAPS_COMPLETE / HAS_UTILIZATION / HAS_PENDING_PREFILL. Decode zeroes
     * every other field (times, seq, IN_USE, HEALTHY, source).
     */
    kvr_engine_state_t state;
} kvr_state_frame_t;

/**
 * Encodes f into buf (cap bytes). Optional keys are written when they carry
 * information: pending_prefill and max_prefill_remaining with
 * HAS_PENDING_PREFILL, utilization with HAS_UTILIZATION, caps_complete when
 * set, seq with has_seq, the others when non-zero.
 * Returns 0 with *len_out set, -EMSGSIZE when the frame would not fit cap or
 * KVR_STATE_FRAME_MAX, -EINVAL when engine_id is empty or not NUL-terminated.
 */
int kvr_state_frame_encode(const kvr_state_frame_t *f, void *buf, size_t cap, size_t *len_out);

/** Appends f as one msgpack map to pk (for streams, e.g. relay). 0 or -ENOMEM. */
int kvr_state_frame_pack(msgpack_packer *pk, const kvr_state_frame_t *f);

/**
 * Decodes one datagram. Never reads past len, never crashes on any input.
 * Returns 0, or with *reason set (static text; reason may be NULL):
 *   -EMSGSIZE         len > KVR_STATE_FRAME_MAX or 0
 *   KVR_EPARSE        not msgpack, truncated, trailing bytes, not a map,
 *                     wrong type or range on a known key, duplicate key,
 *                     engine id empty or too long, kv_usage/utilization
 *                     outside 0..1 or NaN
 *   -EPROTONOSUPPORT  "v" is not KVR_STATE_FRAME_VERSION
 *   -EBADMSG          a required key ("v", "engine", "ts_ns", "running",
 *                     "waiting") is missing (a foreign map)
 * On failure *out is zeroed.
 */
int kvr_state_frame_decode(const void *buf, size_t len, kvr_state_frame_t *out,
                           const char **reason);

/**
 * 1 when buf holds at least one complete msgpack object whose every declared
 * container and string length fits in the bytes that remain, nested at most
 * 8 deep, made of at most max_objects objects (every key, value and
 * element counts one); 0 otherwise. msgpack-c's C unpacker allocates a
 * container's elements as soon as it reads the header, so any stream decoder
 * calls this on a length-bounded buffer before msgpack_unpack_next:
 * allocation then stays within a few dozen bytes per object.
 */
int kvr_state_frame_shape_fits(const void *buf, size_t len, size_t max_objects);

/** Same rules as decode, for one already-unpacked msgpack object (streams). */
int kvr_state_frame_from_object(const msgpack_object *obj, kvr_state_frame_t *out,
                                const char **reason);

/**
 * Translates the frame's wall-clock sample time into this host's
 * CLOCK_MONOTONIC: now_mono_ns - max(0, now_unix_ns - sample_unix_ns), so a
 * late frame keeps its honest age and a sample time in the future counts as
 * age 0. *skewed (may be NULL) is set when the two clocks differ by more than
 * KVR_STATE_FRAME_MAX_SKEW_NS either way, for the caller to log: an old
 * frame then reads as stale, which is the safe side.
 */
uint64_t kvr_state_frame_local_sample_time(const kvr_state_frame_t *f, uint64_t now_mono_ns,
                                           uint64_t now_unix_ns, bool *skewed);

#endif
