/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The push state frame codec: what a hook encodes is what statefeed decodes,
 * and anything else that arrives on the socket (truncated, foreign, hostile,
 * another schema version) is rejected with a reason, never a crash.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <msgpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/state_frame.h"

static kvr_state_frame_t full_frame(void)
{
    kvr_state_frame_t f;
    memset(&f, 0, sizeof(f));
    snprintf(f.state.engine_id, sizeof(f.state.engine_id), "http://10.0.0.7:8000");
    f.sample_unix_ns = 1764460000123456789ull;
    f.has_seq = true;
    f.seq = 4242;
    f.state.running = 38;
    f.state.waiting = 116;
    f.state.max_running = 256;
    f.state.dp_ranks = 2;
    f.state.kv_tokens_used = 1234567;
    f.state.kv_tokens_capacity = 2000000;
    f.state.kv_usage = 0.6172835;
    f.state.pending_prefill_tokens = 100000;
    f.state.max_prefill_remaining = 65536;
    f.state.utilization = 0.93;
    f.state.flags = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL |
                    KVR_SLOT_HAS_UTILIZATION;
    return f;
}

Test(state_frame, round_trip_every_field, .timeout = 5.)
{
    kvr_state_frame_t in = full_frame(), out;
    char buf[KVR_STATE_FRAME_MAX];
    size_t len = 0;
    cr_assert_eq(kvr_state_frame_encode(&in, buf, sizeof(buf), &len), 0);
    cr_assert(len > 0 && len < 400, "a full frame is small: %zu bytes", len);
    const char *reason = NULL;
    cr_assert_eq(kvr_state_frame_decode(buf, len, &out, &reason), 0, "%s", reason);
    cr_assert_eq(out.version, KVR_STATE_FRAME_VERSION);
    cr_assert_str_eq(out.state.engine_id, in.state.engine_id);
    cr_assert_eq(out.sample_unix_ns, in.sample_unix_ns);
    cr_assert(out.has_seq);
    cr_assert_eq(out.seq, 4242);
    cr_assert_eq(out.state.running, 38);
    cr_assert_eq(out.state.waiting, 116);
    cr_assert_eq(out.state.max_running, 256);
    cr_assert_eq(out.state.dp_ranks, 2);
    cr_assert_eq(out.state.kv_tokens_used, 1234567);
    cr_assert_eq(out.state.kv_tokens_capacity, 2000000);
    cr_assert(out.state.kv_usage == in.state.kv_usage);
    cr_assert_eq(out.state.pending_prefill_tokens, 100000);
    cr_assert_eq(out.state.max_prefill_remaining, 65536);
    cr_assert(out.state.utilization == 0.93);
    cr_assert_eq(out.state.flags, in.state.flags);
}

Test(state_frame, minimal_frame_leaves_optional_fields_unset, .timeout = 5.)
{
    kvr_state_frame_t in, out;
    memset(&in, 0, sizeof(in));
    snprintf(in.state.engine_id, sizeof(in.state.engine_id), "unix:/run/engine0");
    in.sample_unix_ns = 1;
    in.state.running = 1;
    /* Fields a decoder must never let through from a frame. */
    in.state.sample_time_ns = 99;
    in.state.consecutive_failures = 3;
    char buf[256];
    size_t len = 0;
    cr_assert_eq(kvr_state_frame_encode(&in, buf, sizeof(buf), &len), 0);
    cr_assert_eq(kvr_state_frame_decode(buf, len, &out, NULL), 0);
    cr_assert_eq(out.state.flags, 0, "no pending-prefill, utilization or caps claimed");
    cr_assert_not(out.has_seq);
    cr_assert_eq(out.state.max_running, 0);
    cr_assert_eq(out.state.sample_time_ns, 0);
    cr_assert_eq(out.state.consecutive_failures, 0);
    cr_assert_eq(out.state.running, 1);
}

Test(state_frame, pending_prefill_zero_is_still_measured, .timeout = 5.)
{
    kvr_state_frame_t in = full_frame(), out;
    in.state.pending_prefill_tokens = 0;
    in.state.max_prefill_remaining = 0;
    char buf[KVR_STATE_FRAME_MAX];
    size_t len;
    cr_assert_eq(kvr_state_frame_encode(&in, buf, sizeof(buf), &len), 0);
    cr_assert_eq(kvr_state_frame_decode(buf, len, &out, NULL), 0);
    cr_assert(out.state.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_assert_eq(out.state.pending_prefill_tokens, 0);
}

Test(state_frame, encode_refuses_what_cannot_be_sent, .timeout = 5.)
{
    kvr_state_frame_t f = full_frame();
    char small[32];
    size_t len;
    cr_assert_eq(kvr_state_frame_encode(&f, small, sizeof(small), &len), -EMSGSIZE);
    f.state.engine_id[0] = '\0';
    char buf[KVR_STATE_FRAME_MAX];
    cr_assert_eq(kvr_state_frame_encode(&f, buf, sizeof(buf), &len), -EINVAL);
    memset(f.state.engine_id, 'x', sizeof(f.state.engine_id)); /* not NUL-terminated */
    cr_assert_eq(kvr_state_frame_encode(&f, buf, sizeof(buf), &len), -EINVAL);
}

Test(state_frame, every_truncation_is_rejected, .timeout = 5.)
{
    kvr_state_frame_t in = full_frame(), out;
    char buf[KVR_STATE_FRAME_MAX];
    size_t len;
    cr_assert_eq(kvr_state_frame_encode(&in, buf, sizeof(buf), &len), 0);
    for (size_t cut = 0; cut < len; cut++) {
        const char *reason = NULL;
        int rc = kvr_state_frame_decode(buf, cut, &out, &reason);
        cr_assert(rc == KVR_EPARSE || (cut == 0 && rc == -EMSGSIZE), "cut %zu: rc %d", cut, rc);
        cr_assert_not_null(reason);
        cr_assert_eq(out.state.engine_id[0], '\0', "a rejected frame leaves nothing behind");
    }
}

Test(state_frame, trailing_bytes_and_oversize_are_rejected, .timeout = 5.)
{
    kvr_state_frame_t in = full_frame(), out;
    char buf[KVR_STATE_FRAME_MAX + 64];
    size_t len;
    cr_assert_eq(kvr_state_frame_encode(&in, buf, KVR_STATE_FRAME_MAX, &len), 0);
    buf[len] = (char)0xc0; /* a second object (nil) after the map */
    cr_assert_eq(kvr_state_frame_decode(buf, len + 1, &out, NULL), KVR_EPARSE);
    memset(buf, 0x90, sizeof(buf));
    cr_assert_eq(kvr_state_frame_decode(buf, KVR_STATE_FRAME_MAX + 1, &out, NULL), -EMSGSIZE);
}

/* ---- hand-built frames ---------------------------------------------------- */

typedef struct {
    msgpack_sbuffer sbuf;
    msgpack_packer pk;
} builder_t;

static void b_init(builder_t *b, size_t entries)
{
    msgpack_sbuffer_init(&b->sbuf);
    msgpack_packer_init(&b->pk, &b->sbuf, msgpack_sbuffer_write);
    msgpack_pack_map(&b->pk, entries);
}

static void b_key(builder_t *b, const char *k)
{
    msgpack_pack_str(&b->pk, strlen(k));
    msgpack_pack_str_body(&b->pk, k, strlen(k));
}

static void b_uint(builder_t *b, const char *k, uint64_t v)
{
    b_key(b, k);
    msgpack_pack_uint64(&b->pk, v);
}

/* The five required keys with sane values, minus `skip`, with `version`. */
static void b_required(builder_t *b, uint64_t version, const char *skip)
{
    if (!skip || strcmp(skip, "v"))
        b_uint(b, "v", version);
    if (!skip || strcmp(skip, "engine")) {
        b_key(b, "engine");
        msgpack_pack_str(&b->pk, 3);
        msgpack_pack_str_body(&b->pk, "e-1", 3);
    }
    if (!skip || strcmp(skip, "ts_ns"))
        b_uint(b, "ts_ns", 1000);
    if (!skip || strcmp(skip, "running"))
        b_uint(b, "running", 2);
    if (!skip || strcmp(skip, "waiting"))
        b_uint(b, "waiting", 3);
}

static int b_decode(builder_t *b, kvr_state_frame_t *out, const char **reason)
{
    int rc = kvr_state_frame_decode(b->sbuf.data, b->sbuf.size, out, reason);
    msgpack_sbuffer_destroy(&b->sbuf);
    return rc;
}

Test(state_frame, unknown_keys_are_ignored_int_widths_accepted, .timeout = 5.)
{
    builder_t b;
    b_init(&b, 8);
    b_required(&b, 1, NULL);
    b_key(&b, "future_field");
    msgpack_pack_array(&b.pk, 2);
    msgpack_pack_int(&b.pk, -1);
    msgpack_pack_nil(&b.pk);
    b_key(&b, "kv_usage");
    msgpack_pack_float(&b.pk, 0.5f); /* float32 from a compact sender */
    b_key(&b, "max_running");
    msgpack_pack_uint8(&b.pk, 7);
    kvr_state_frame_t out;
    const char *reason = NULL;
    cr_assert_eq(b_decode(&b, &out, &reason), 0, "%s", reason);
    cr_assert_str_eq(out.state.engine_id, "e-1");
    cr_assert_eq(out.state.running, 2);
    cr_assert_eq(out.state.waiting, 3);
    cr_assert_eq(out.state.max_running, 7);
    cr_assert(out.state.kv_usage == 0.5);
}

Test(state_frame, unknown_schema_version_is_refused, .timeout = 5.)
{
    uint64_t versions[] = {0, 2, 255, UINT64_MAX};
    for (size_t i = 0; i < 4; i++) {
        builder_t b;
        b_init(&b, 5);
        b_required(&b, versions[i], NULL);
        kvr_state_frame_t out;
        const char *reason = NULL;
        int rc = b_decode(&b, &out, &reason);
        if (versions[i] > UINT32_MAX)
            cr_assert_eq(rc, KVR_EPARSE);
        else
            cr_assert_eq(rc, -EPROTONOSUPPORT, "v=%llu: rc %d", (unsigned long long)versions[i],
                         rc);
        cr_assert_not_null(reason);
    }
}

Test(state_frame, missing_required_key_is_a_foreign_map, .timeout = 5.)
{
    const char *keys[] = {"v", "engine", "ts_ns", "running", "waiting"};
    for (size_t i = 0; i < 5; i++) {
        builder_t b;
        b_init(&b, 4);
        b_required(&b, 1, keys[i]);
        kvr_state_frame_t out;
        const char *reason = NULL;
        cr_assert_eq(b_decode(&b, &out, &reason), -EBADMSG, "without %s", keys[i]);
        cr_assert_not_null(reason);
    }
}

/* One extra key with a bad value; each must be refused as KVR_EPARSE. */
enum bad_value {
    BAD_RUNNING_NEGATIVE,
    BAD_RUNNING_STRING,
    BAD_RUNNING_TOO_BIG,
    BAD_RUNNING_FLOAT,
    BAD_KV_USAGE_ABOVE_ONE,
    BAD_KV_USAGE_NAN,
    BAD_UTILIZATION_STRING,
    BAD_CAPS_INT,
    BAD_ENGINE_EMPTY,
    BAD_ENGINE_TOO_LONG,
    BAD_ENGINE_BINARY,
    BAD_ENGINE_NUL,
    BAD_DUPLICATE_KEY,
    BAD_INT_KEY,
    BAD_PENDING_NIL,
    BAD_VALUE_COUNT,
};

ParameterizedTestParameters(state_frame, wrong_types_are_rejected)
{
    static int cases[BAD_VALUE_COUNT];
    for (int i = 0; i < BAD_VALUE_COUNT; i++)
        cases[i] = i;
    return cr_make_param_array(int, cases, BAD_VALUE_COUNT);
}

ParameterizedTest(int *which, state_frame, wrong_types_are_rejected, .timeout = 5.)
{
    builder_t b;
    int overrides_running = *which <= BAD_RUNNING_FLOAT;
    int overrides_engine = *which >= BAD_ENGINE_EMPTY && *which <= BAD_ENGINE_NUL;
    b_init(&b, overrides_running || overrides_engine ? 5 : 6);
    if (overrides_running) {
        b_uint(&b, "v", 1);
        b_key(&b, "engine");
        msgpack_pack_str(&b.pk, 1);
        msgpack_pack_str_body(&b.pk, "e", 1);
        b_uint(&b, "ts_ns", 1);
        b_uint(&b, "waiting", 0);
        b_key(&b, "running");
    } else if (overrides_engine) {
        b_required(&b, 1, "engine");
        b_key(&b, "engine");
    } else {
        b_required(&b, 1, NULL);
    }
    char long_id[KVR_SHM_ENGINE_ID_MAX];
    memset(long_id, 'a', sizeof(long_id));
    switch (*which) {
    case BAD_RUNNING_NEGATIVE: msgpack_pack_int(&b.pk, -3); break;
    case BAD_RUNNING_STRING:
        msgpack_pack_str(&b.pk, 1), msgpack_pack_str_body(&b.pk, "3", 1);
        break;
    case BAD_RUNNING_TOO_BIG: msgpack_pack_uint64(&b.pk, 1ull << 32); break;
    case BAD_RUNNING_FLOAT: msgpack_pack_double(&b.pk, 3.0); break;
    case BAD_KV_USAGE_ABOVE_ONE: b_key(&b, "kv_usage"), msgpack_pack_double(&b.pk, 1.5); break;
    case BAD_KV_USAGE_NAN: b_key(&b, "kv_usage"), msgpack_pack_double(&b.pk, NAN); break;
    case BAD_UTILIZATION_STRING:
        b_key(&b, "utilization"), msgpack_pack_str(&b.pk, 0), msgpack_pack_str_body(&b.pk, "", 0);
        break;
    case BAD_CAPS_INT: b_key(&b, "caps_complete"), msgpack_pack_uint8(&b.pk, 1); break;
    case BAD_ENGINE_EMPTY: msgpack_pack_str(&b.pk, 0), msgpack_pack_str_body(&b.pk, "", 0); break;
    case BAD_ENGINE_TOO_LONG:
        msgpack_pack_str(&b.pk, sizeof(long_id)),
            msgpack_pack_str_body(&b.pk, long_id, sizeof(long_id));
        break;
    case BAD_ENGINE_BINARY: msgpack_pack_bin(&b.pk, 1), msgpack_pack_bin_body(&b.pk, "e", 1); break;
    case BAD_ENGINE_NUL: msgpack_pack_str(&b.pk, 3), msgpack_pack_str_body(&b.pk, "a\0b", 3); break;
    case BAD_DUPLICATE_KEY: b_uint(&b, "waiting", 9); break;
    case BAD_INT_KEY: msgpack_pack_int(&b.pk, 1), msgpack_pack_int(&b.pk, 1); break;
    case BAD_PENDING_NIL: b_key(&b, "pending_prefill"), msgpack_pack_nil(&b.pk); break;
    }
    kvr_state_frame_t out;
    const char *reason = NULL;
    int rc = b_decode(&b, &out, &reason);
    cr_assert_eq(rc, KVR_EPARSE, "case %d: rc %d", *which, rc);
    cr_assert_not_null(reason);
    cr_assert_eq(out.state.running, 0);
}

struct raw_case {
    const char *bytes;
    size_t len;
};

/* Hostile or foreign datagrams, byte for byte (indexes: see criterion re-exec note in test_prom.c). */
static const struct raw_case raw_cases[] = {
    {"\xdd\xff\xff\xff\xff\x01", 6},      /* array32 claiming 4 G elements */
    {"\xdf\xff\xff\xff\xff\xa1v\x01", 8}, /* map32 claiming 4 G pairs */
    {"\x81\xa1x\xdd\x7f\xff\xff\xff", 8}, /* huge array nested in a map value */
    {"\xdb\xff\xff\xff\xff", 5},          /* str32 longer than the datagram */
    {"\xc1", 1},                          /* the never-used byte */
    {"\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x91\x01", 13}, /* deep nesting */
    {"\x93\x01\x02\x03", 4},                                      /* an array, not a map */
    {"\xa5hello", 6},                                             /* a string */
    {"\x80", 1},                                                  /* an empty map */
    {"GET / HTTP/1.1\r\n\r\n", 18},                               /* text on the wrong socket */
    {"{\"v\":1,\"engine\":\"e\"}", 20},                           /* JSON instead of msgpack */
    {"\x85\xa1v\x01\xa6"
     "engine\xa1"
     "e\xa5ts_ns\x01\xa7running\x01\xa7waiting",
     36}, /* last value cut */
};
#define RAW_CASES (sizeof(raw_cases) / sizeof(raw_cases[0]))

ParameterizedTestParameters(state_frame, hostile_bytes_are_rejected)
{
    static size_t index[RAW_CASES];
    for (size_t i = 0; i < RAW_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, RAW_CASES);
}

ParameterizedTest(size_t *i, state_frame, hostile_bytes_are_rejected, .timeout = 5.)
{
    kvr_state_frame_t out;
    const char *reason = NULL;
    int rc = kvr_state_frame_decode(raw_cases[*i].bytes, raw_cases[*i].len, &out, &reason);
    cr_assert(rc == KVR_EPARSE || rc == -EBADMSG, "case %zu: rc %d", *i, rc);
    cr_assert_not_null(reason);
}

Test(state_frame, mutated_frames_never_crash, .timeout = 20.)
{
    kvr_state_frame_t in = full_frame(), out;
    char good[KVR_STATE_FRAME_MAX], buf[KVR_STATE_FRAME_MAX];
    size_t len;
    cr_assert_eq(kvr_state_frame_encode(&in, good, sizeof(good), &len), 0);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    int accepted = 0, bad_round = -1;
    /* Checked in plain C and asserted once: 20,000 assertions through
     * Criterion's --full-stats channel take longer than the test's timeout. */
    for (int round = 0; round < 20000 && bad_round < 0; round++) {
        memcpy(buf, good, len);
        for (int m = 0; m < 1 + round % 4; m++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            buf[rng % len] = (char)(rng >> 40);
        }
        int rc = kvr_state_frame_decode(buf, len, &out, NULL);
        if (!(rc == 0 || rc == KVR_EPARSE || rc == -EBADMSG || rc == -EPROTONOSUPPORT))
            bad_round = round;
        if (rc == 0) {
            accepted++;
            if (!(out.state.kv_usage >= 0 && out.state.kv_usage <= 1) ||
                strlen(out.state.engine_id) == 0)
                bad_round = round;
        }
    }
    cr_assert_eq(bad_round, -1, "mutation round %d gave an unexpected result", bad_round);
    cr_assert(accepted < 20000);
}

Test(state_frame, local_sample_time_keeps_honest_age, .timeout = 5.)
{
    kvr_state_frame_t f;
    memset(&f, 0, sizeof(f));
    bool skewed = true;
    uint64_t mono = 5000000000ull, unix_now = 1764460000000000000ull;
    f.sample_unix_ns = unix_now - 30000000ull; /* 30 ms old */
    cr_assert_eq(kvr_state_frame_local_sample_time(&f, mono, unix_now, &skewed),
                 mono - 30000000ull);
    cr_assert_not(skewed);
    f.sample_unix_ns = unix_now + 5000000ull; /* slightly ahead: age 0 */
    cr_assert_eq(kvr_state_frame_local_sample_time(&f, mono, unix_now, &skewed), mono);
    cr_assert_not(skewed);
    f.sample_unix_ns = unix_now - 120000000000ull; /* two minutes old: stays old, flagged */
    cr_assert_eq(kvr_state_frame_local_sample_time(&f, mono, unix_now, &skewed), 0);
    cr_assert(skewed);
    f.sample_unix_ns = unix_now + 120000000000ull;
    kvr_state_frame_local_sample_time(&f, mono, unix_now, &skewed);
    cr_assert(skewed);
}

Test(state_frame, stream_objects_decode_like_datagrams, .timeout = 5.)
{
    kvr_state_frame_t a = full_frame(), b = full_frame(), out;
    b.state.running = 1;
    msgpack_sbuffer sbuf;
    msgpack_sbuffer_init(&sbuf);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sbuf, msgpack_sbuffer_write);
    cr_assert_eq(kvr_state_frame_pack(&pk, &a), 0);
    cr_assert_eq(kvr_state_frame_pack(&pk, &b), 0);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    cr_assert_eq(msgpack_unpack_next(&u, sbuf.data, sbuf.size, &off), MSGPACK_UNPACK_SUCCESS);
    cr_assert_eq(kvr_state_frame_from_object(&u.data, &out, NULL), 0);
    cr_assert_eq(out.state.running, 38);
    cr_assert_eq(msgpack_unpack_next(&u, sbuf.data, sbuf.size, &off), MSGPACK_UNPACK_SUCCESS);
    cr_assert_eq(kvr_state_frame_from_object(&u.data, &out, NULL), 0);
    cr_assert_eq(out.state.running, 1);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sbuf);
}

Test(state_frame, shape_check_refuses_sizes_the_bytes_cannot_hold, .timeout = 5.)
{
    /* What a stream decoder (the relay) relies on before msgpack-c allocates. */
    static const unsigned char array32[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
    static const unsigned char nested[] = {0x91, 0x91, 0x91, 0x91, 0x91, 0x91,
                                           0x91, 0x91, 0x91, 0x91, 0x00};
    static const unsigned char fits[] = {0x92, 0x01, 0xa1, 'x'};
    cr_expect_eq(kvr_state_frame_shape_fits(array32, sizeof(array32), 1000), 0);
    cr_expect_eq(kvr_state_frame_shape_fits(nested, sizeof(nested), 1000), 0,
                 "nesting past 8 accepted");
    cr_expect_eq(kvr_state_frame_shape_fits(fits, sizeof(fits), 1000), 1);
    cr_expect_eq(kvr_state_frame_shape_fits(fits, sizeof(fits) - 1, 1000), 0,
                 "a cut string accepted");
    kvr_state_frame_t f = full_frame();
    char buf[KVR_STATE_FRAME_MAX];
    size_t len = 0;
    cr_assert_eq(kvr_state_frame_encode(&f, buf, sizeof(buf), &len), 0);
    cr_expect_eq(kvr_state_frame_shape_fits(buf, len, 1000), 1);
    cr_expect_eq(kvr_state_frame_shape_fits(fits, sizeof(fits), 2), 0,
                 "three objects passed a cap of two");
}
