/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay protocol's frames (statefeed/relay_wire.h): what an exporter
 * builds is what an importer decodes, and a peer's bytes that are not a
 * table (a container header claiming gigabytes, a length past the cap,
 * another version) are refused with a reason before anything large is
 * allocated.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "statefeed/relay_wire.h"

static kvr_state_frame_t frame_for(unsigned i)
{
    kvr_state_frame_t f;
    memset(&f, 0, sizeof(f));
    f.version = KVR_STATE_FRAME_VERSION;
    snprintf(f.state.engine_id, sizeof(f.state.engine_id), "http://10.0.0.%u:8000", i);
    f.sample_unix_ns = 1764460000000000000ull + i;
    f.state.running = 10 + i;
    f.state.waiting = i;
    f.state.kv_usage = 0.25;
    return f;
}

/* A table of count engines as the exporter frames it; caller frees sb. */
static void build(msgpack_sbuffer *sb, unsigned count)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_table_begin(&pk, sb, count);
    for (unsigned i = 0; i < count; i++) {
        kvr_state_frame_t f = frame_for(i);
        kvr__relay_table_add(&pk, &f, 1000u * i, i % 2 == 0, i != 3);
    }
    cr_assert_eq(kvr__relay_table_end(sb), 0);
}

Test(relay_wire, table_round_trip, .timeout = 5.)
{
    msgpack_sbuffer sb;
    build(&sb, 5);
    uint32_t n = 0;
    cr_assert_eq(kvr__relay_frame_length((const uint8_t *)sb.data, KVR_RELAY_FRAME_MAX, &n), 0);
    cr_assert_eq(n, sb.size - KVR_RELAY_HEADER);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_assert_eq(kvr__relay_table_decode(sb.data + KVR_RELAY_HEADER, n, &t, &reason), 0, "%s",
                 reason);
    cr_assert_eq(t.count, 5);
    for (unsigned i = 0; i < 5; i++) {
        kvr_state_frame_t want = frame_for(i);
        cr_expect_str_eq(t.entries[i].frame.state.engine_id, want.state.engine_id);
        cr_expect_eq(t.entries[i].frame.state.running, 10 + i);
        cr_expect_eq(t.entries[i].age_ns, 1000u * i);
        cr_expect_eq(t.entries[i].healthy, i % 2 == 0);
        cr_expect_eq(t.entries[i].sampled, i != 3);
    }
    kvr__relay_table_free(&t);
    msgpack_sbuffer_destroy(&sb);
}

Test(relay_wire, every_truncation_is_rejected, .timeout = 10.)
{
    msgpack_sbuffer sb;
    build(&sb, 3);
    const char *body = sb.data + KVR_RELAY_HEADER;
    size_t len = sb.size - KVR_RELAY_HEADER;
    for (size_t cut = 0; cut < len; cut++) {
        kvr__relay_table_t t;
        cr_assert_lt(kvr__relay_table_decode(body, cut, &t, NULL), 0, "a table cut at %zu decoded",
                     cut);
        cr_assert_null(t.entries);
    }
    msgpack_sbuffer_destroy(&sb);
}

/* Bodies that announce far more than they hold; each would have msgpack-c allocate gigabytes. */
static const struct {
    const char *what;
    unsigned char bytes[24];
    size_t len;
} hostile[] = {
    {"array32 of 2^32-1 as the whole body", {0xdd, 0xff, 0xff, 0xff, 0xff}, 5},
    {"map32 of 2^32-1 as the whole body", {0xdf, 0xff, 0xff, 0xff, 0xff}, 5},
    {"engines: array32 of 2^32-1",
     {0x82, 0xa5, 'r', 'e', 'l', 'a',  'y',  0x02, 0xa7, 'e', 'n',
      'g',  'i',  'n', 'e', 's', 0xdd, 0xff, 0xff, 0xff, 0xff},
     21},
    {"str32 of 2^32-1", {0xdb, 0xff, 0xff, 0xff, 0xff, 'x'}, 6},
    {"bin32 of 2^32-1", {0xc6, 0xff, 0xff, 0xff, 0xff, 'x'}, 6},
    {"relay version 1",
     {0x82, 0xa5, 'r', 'e', 'l', 'a', 'y', 0x01, 0xa7, 'e', 'n', 'g', 'i', 'n', 'e', 's', 0x90},
     17},
    {"never-used type byte", {0xc1}, 1},
};

ParameterizedTestParameters(relay_wire, hostile_bodies_are_refused_without_allocating)
{
    static size_t idx[sizeof(hostile) / sizeof(hostile[0])];
    for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++)
        idx[i] = i;
    return cr_make_param_array(size_t, idx, sizeof(idx) / sizeof(idx[0]));
}

ParameterizedTest(size_t *i, relay_wire, hostile_bodies_are_refused_without_allocating,
                  .timeout = 5.)
{
    /* Under ASan an attempt to allocate the announced size aborts the test
     * (allocation-size-too-big); the fuzz build's -malloc_limit_mb does the same. */
    kvr__relay_table_t t;
    const char *reason = NULL;
    int rc = kvr__relay_table_decode(hostile[*i].bytes, hostile[*i].len, &t, &reason);
    cr_expect_lt(rc, 0, "%s decoded", hostile[*i].what);
    cr_expect(rc == KVR_EPARSE || rc == -EPROTONOSUPPORT, "%s: %s", hostile[*i].what,
              kvr_strerror(rc));
    cr_expect_not_null(reason);
}

Test(relay_wire, frame_of_many_small_objects_is_refused_before_msgpack, .timeout = 10.)
{
    /* {"relay": 2, "engines": [nil x 1M]}: 1 MiB of bytes that would make
     * msgpack-c allocate 24 MiB of objects before the engine count is seen. */
    size_t count = 1u << 20;
    uint8_t *body = malloc(21 + count);
    static const uint8_t head[] = {0x82, 0xa5, 'r', 'e', 'l', 'a',  'y',  0x02, 0xa7, 'e', 'n',
                                   'g',  'i',  'n', 'e', 's', 0xdd, 0x00, 0x10, 0x00, 0x00};
    memcpy(body, head, sizeof(head));
    memset(body + sizeof(head), 0xc0, count);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_expect_eq(kvr__relay_table_decode(body, sizeof(head) + count, &t, &reason), KVR_EPARSE);
    cr_expect(reason != NULL && strstr(reason, "more objects") != NULL, "refused late: %s", reason);
    free(body);
}

Test(relay_wire, frame_length_is_capped, .timeout = 5.)
{
    /* KVR_RELAY_FRAME_MAX is 20 MiB: 0x01400000. */
    uint32_t n = 0;
    const uint8_t zero[4] = {0, 0, 0, 0}, over[4] = {0x01, 0x40, 0x00, 0x01},
                  max[4] = {0x01, 0x40, 0x00, 0x00};
    const uint8_t v1[4] = {0x82, 0xa5, 'r', 'e'}; /* a relay v1 stream read as a header */
    cr_expect_eq(kvr__relay_frame_length(zero, KVR_RELAY_FRAME_MAX, &n), -EMSGSIZE);
    cr_expect_eq(kvr__relay_frame_length(over, KVR_RELAY_FRAME_MAX, &n), -EMSGSIZE);
    cr_expect_eq(kvr__relay_frame_length(v1, KVR_RELAY_FRAME_MAX, &n), -EMSGSIZE);
    cr_expect_eq(kvr__relay_frame_length(max, KVR_RELAY_FRAME_MAX, &n), 0);
    cr_expect_eq(n, KVR_RELAY_FRAME_MAX);
}

Test(relay_wire, table_with_too_many_engines_is_refused, .timeout = 10.)
{
    msgpack_sbuffer sb;
    build(&sb, KVR_RELAY_MAX_TABLE_ENGINES + 1);
    kvr__relay_table_t t;
    cr_expect_eq(
        kvr__relay_table_decode(sb.data + KVR_RELAY_HEADER, sb.size - KVR_RELAY_HEADER, &t, NULL),
        -EMSGSIZE);
    msgpack_sbuffer_destroy(&sb);
}

Test(relay_wire, handshake_round_trip_and_mac, .timeout = 5.)
{
    uint8_t nonce[KVR_RELAY_NONCE_LEN], buf[KVR_RELAY_HEADER + KVR_RELAY_HELLO_MAX];
    for (unsigned i = 0; i < sizeof(nonce); i++)
        nonce[i] = (uint8_t)(i * 7 + 1);
    int len = kvr__relay_handshake_encode(nonce, NULL, buf, sizeof(buf));
    cr_assert_gt(len, KVR_RELAY_HEADER);
    uint32_t n = 0;
    cr_assert_eq(kvr__relay_frame_length(buf, KVR_RELAY_HELLO_MAX, &n), 0);
    cr_assert_eq(n + KVR_RELAY_HEADER, (uint32_t)len);
    kvr__relay_handshake_t h;
    cr_assert_eq(kvr__relay_handshake_decode(buf + KVR_RELAY_HEADER, n, &h, NULL), 0);
    cr_expect(h.has_nonce);
    cr_expect_not(h.has_mac);
    cr_assert_eq(memcmp(h.nonce, nonce, sizeof(nonce)), 0);

    uint8_t mac[KVR_RELAY_MAC_LEN], other[KVR_RELAY_MAC_LEN];
    cr_assert_eq(kvr__relay_mac("s3cret", 6, KVR_RELAY_ROLE_IMPORTER, nonce, mac), 0);
    cr_assert_eq(kvr__relay_mac("s3cres", 6, KVR_RELAY_ROLE_IMPORTER, nonce, other), 0);
    cr_expect_not(kvr__relay_mac_equal(mac, other), "another secret gave the same mac");
    cr_assert_eq(kvr__relay_mac("s3cret", 6, KVR_RELAY_ROLE_EXPORTER, nonce, other), 0);
    cr_expect_not(kvr__relay_mac_equal(mac, other),
                  "the importer's proof would pass as the exporter's");
    nonce[0] ^= 1;
    cr_assert_eq(kvr__relay_mac("s3cret", 6, KVR_RELAY_ROLE_IMPORTER, nonce, other), 0);
    cr_expect_not(kvr__relay_mac_equal(mac, other), "another nonce gave the same mac: replayable");

    len = kvr__relay_handshake_encode(nonce, mac, buf, sizeof(buf));
    cr_assert_gt(len, 0);
    cr_assert_eq(kvr__relay_handshake_decode(buf + KVR_RELAY_HEADER, (size_t)len - KVR_RELAY_HEADER,
                                             &h, NULL),
                 0);
    cr_expect(h.has_mac && h.has_nonce);
    cr_expect(kvr__relay_mac_equal(h.mac, mac));
    len = kvr__relay_handshake_encode(NULL, NULL, buf, sizeof(buf));
    cr_assert_eq(kvr__relay_handshake_decode(buf + KVR_RELAY_HEADER, (size_t)len - KVR_RELAY_HEADER,
                                             &h, NULL),
                 0);
    cr_expect_not(h.has_mac || h.has_nonce);
    /* A short nonce is refused, not padded. */
    static const uint8_t short_nonce[] = {0x82, 0xa5, 'r', 'e', 'l', 'a',  'y',  0x02, 0xa5,
                                          'n',  'o',  'n', 'c', 'e', 0xc4, 0x01, 0x00};
    cr_expect_eq(kvr__relay_handshake_decode(short_nonce, sizeof(short_nonce), &h, NULL),
                 KVR_EPARSE);
}

Test(relay_wire, secret_file_rules, .timeout = 5.)
{
    char path[] = "/tmp/kvr-relay-secret-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    uint8_t secret[KVR_RELAY_SECRET_MAX];
    size_t len = 0;
    const char *reason = NULL;
    cr_expect_eq(kvr__relay_secret_read(path, secret, sizeof(secret), &len, &reason), -EINVAL,
                 "empty accepted");
    cr_assert_eq(write(fd, "hunter2\n", 8), 8);
    cr_expect_eq(kvr__relay_secret_read(path, secret, sizeof(secret), &len, &reason), 0);
    cr_expect_eq(len, 7, "trailing newline kept");
    cr_expect_eq(memcmp(secret, "hunter2", 7), 0);
    char big[KVR_RELAY_SECRET_MAX];
    memset(big, 'a', sizeof(big));
    cr_assert_eq(write(fd, big, sizeof(big)), (ssize_t)sizeof(big));
    cr_expect_eq(kvr__relay_secret_read(path, secret, sizeof(secret), &len, &reason), -EMSGSIZE);
    close(fd);
    unlink(path);
    cr_expect_lt(kvr__relay_secret_read(path, secret, sizeof(secret), &len, &reason), 0);
}

/* A table of two engines with a share: loads, then placements p[0..n). */
static void build_shared(msgpack_sbuffer *sb, const kvr_dsp_engine_t *loads, uint32_t nl,
                         const kvr_dsp_placement_t *p, uint32_t np)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    kvr__relay_frame_begin(&pk, sb, 2, true);
    for (unsigned i = 0; i < 2; i++) {
        kvr_state_frame_t f = frame_for(i);
        kvr__relay_table_add(&pk, &f, 10, true, true);
    }
    kvr__relay_share_begin(&pk, nl);
    for (uint32_t i = 0; i < nl; i++)
        kvr__relay_share_load(&pk, &loads[i]);
    kvr__relay_share_placed(&pk, np);
    for (uint32_t i = 0; i < np; i++)
        kvr__relay_share_placement(&pk, &p[i], 1000 + i);
    cr_assert_eq(kvr__relay_table_end(sb), 0);
}

static int decode_shared(msgpack_sbuffer *sb, kvr__relay_table_t *t, const char **reason)
{
    return kvr__relay_table_decode(sb->data + KVR_RELAY_HEADER, sb->size - KVR_RELAY_HEADER, t,
                                   reason);
}

Test(relay_wire, share_round_trip, .timeout = 5.)
{
    kvr_dsp_engine_t loads[2] = {{.key = 11, .load = {3, 4000, 5000}},
                                 {.key = 12, .load = {0, 0, 1}}};
    kvr_dsp_placement_t p[2] = {
        {.kind = KVR_DSP_PLACE_PREFIX,
         .block_count = 3,
         .first_block = 8,
         .engine_key = 11,
         .blocks = {7, 8, 9}},
        {.kind = KVR_DSP_PLACE_SESSION, .engine_key = 12, .session_hash = 99},
    };
    msgpack_sbuffer sb;
    build_shared(&sb, loads, 2, p, 2);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_assert_eq(decode_shared(&sb, &t, &reason), 0, "%s", reason);
    cr_assert_eq(t.count, 2);
    cr_assert(t.share.present);
    cr_assert_eq(t.share.load_count, 2);
    cr_expect_eq(t.share.loads[0].key, 11);
    cr_expect_eq(t.share.loads[0].load.pending_prefill_tokens, 4000);
    cr_expect_eq(t.share.loads[1].load.kv_tokens, 1);
    cr_assert_eq(t.share.placement_count, 2);
    cr_expect_eq(t.share.placements[0].placement.kind, KVR_DSP_PLACE_PREFIX);
    cr_expect_eq(t.share.placements[0].placement.block_count, 3);
    cr_expect_eq(t.share.placements[0].placement.first_block, 8);
    cr_expect_eq(t.share.placements[0].placement.blocks[2], 9);
    cr_expect_eq(t.share.placements[0].age_ns, 1000);
    cr_expect_eq(t.share.placements[1].placement.session_hash, 99);
    cr_expect_eq(t.share.placements[1].age_ns, 1001);
    kvr__relay_table_free(&t);
    msgpack_sbuffer_destroy(&sb);
    /* A table without a share (an exporter without --share) decodes as before. */
    build(&sb, 2);
    cr_assert_eq(decode_shared(&sb, &t, &reason), 0, "%s", reason);
    cr_expect_not(t.share.present);
    kvr__relay_table_free(&t);
    msgpack_sbuffer_destroy(&sb);
}

typedef struct bad_placement_s {
    kvr_dsp_placement_t p;
    const char *why;
} bad_placement_t;

ParameterizedTestParameters(relay_wire,
                            a_share_placement_that_is_neither_prefix_nor_pin_fails_the_table)
{
    static bad_placement_t cases[] = {
        {{.kind = 3, .block_count = 1, .engine_key = 1, .blocks = {1}}, "unknown kind"},
        {{.kind = KVR_DSP_PLACE_PREFIX, .block_count = 0, .engine_key = 1},
         "prefix without blocks"},
        {{.kind = KVR_DSP_PLACE_PREFIX, .block_count = 1, .engine_key = 0, .blocks = {1}},
         "engine key 0"},
        {{.kind = KVR_DSP_PLACE_SESSION, .engine_key = 1, .session_hash = 0},
         "pin without a session"},
        {{.kind = KVR_DSP_PLACE_SESSION,
          .block_count = 1,
          .engine_key = 1,
          .session_hash = 5,
          .blocks = {1}},
         "pin with blocks"},
    };
    return cr_make_param_array(bad_placement_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_placement_t *c, relay_wire,
                  a_share_placement_that_is_neither_prefix_nor_pin_fails_the_table, .timeout = 5.)
{
    msgpack_sbuffer sb;
    build_shared(&sb, NULL, 0, &c->p, 1);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_expect_eq(decode_shared(&sb, &t, &reason), KVR_EPARSE, "%s", c->why);
    cr_expect_null(t.entries);
    cr_expect_null(t.share.placements);
    msgpack_sbuffer_destroy(&sb);
}

Test(relay_wire, a_share_over_its_bounds_fails_the_table, .timeout = 10.)
{
    static kvr_dsp_placement_t many[KVR_RELAY_MAX_PLACEMENTS + 1];
    for (size_t i = 0; i < sizeof many / sizeof many[0]; i++)
        many[i] = (kvr_dsp_placement_t){
            .kind = KVR_DSP_PLACE_SESSION, .engine_key = 1, .session_hash = i + 1};
    msgpack_sbuffer sb;
    build_shared(&sb, NULL, 0, many, KVR_RELAY_MAX_PLACEMENTS);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_assert_eq(decode_shared(&sb, &t, &reason), 0, "%s", reason);
    kvr__relay_table_free(&t);
    msgpack_sbuffer_destroy(&sb);
    build_shared(&sb, NULL, 0, many, KVR_RELAY_MAX_PLACEMENTS + 1);
    cr_expect_eq(decode_shared(&sb, &t, &reason), -EMSGSIZE);
    msgpack_sbuffer_destroy(&sb);
    static kvr_dsp_engine_t loads[KVR_RELAY_MAX_SHARE_LOADS + 1];
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++)
        loads[i].key = i + 1;
    build_shared(&sb, loads, KVR_RELAY_MAX_SHARE_LOADS + 1, NULL, 0);
    cr_expect_eq(decode_shared(&sb, &t, &reason), -EMSGSIZE);
    msgpack_sbuffer_destroy(&sb);
    /* Nine blocks in one placement: more than a ring entry holds. */
    kvr_dsp_placement_t nine = {.kind = KVR_DSP_PLACE_PREFIX, .block_count = 8, .engine_key = 1};
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    kvr__relay_frame_begin(&pk, &sb, 0, true);
    kvr__relay_share_begin(&pk, 0);
    kvr__relay_share_placed(&pk, 1);
    msgpack_pack_array(&pk, 6);
    msgpack_pack_uint16(&pk, nine.kind);
    msgpack_pack_uint32(&pk, 0);
    msgpack_pack_uint64(&pk, 1);
    msgpack_pack_uint64(&pk, 0);
    msgpack_pack_uint64(&pk, 0);
    msgpack_pack_array(&pk, 9);
    for (int i = 0; i < 9; i++)
        msgpack_pack_uint64(&pk, (uint64_t)i);
    cr_assert_eq(kvr__relay_table_end(&sb), 0);
    cr_expect_eq(decode_shared(&sb, &t, &reason), KVR_EPARSE);
    msgpack_sbuffer_destroy(&sb);
}

/* A fleet as large as a router and a dispatch row hold crosses in one table, share included. */
Test(relay_wire, a_table_of_16384_engines_and_their_loads_decodes, .timeout = 30.)
{
    cr_assert_eq(KVR_RELAY_MAX_TABLE_ENGINES, KVR_DSP_MAX_ENGINES);
    cr_assert_eq(KVR_RELAY_MAX_SHARE_LOADS, KVR_DSP_MAX_ENGINES);
    const uint32_t n = KVR_DSP_MAX_ENGINES;
    msgpack_packer pk;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    kvr__relay_frame_begin(&pk, &sb, n, true);
    for (uint32_t i = 0; i < n; i++) {
        kvr_state_frame_t f = frame_for(i);
        snprintf(f.state.engine_id, sizeof(f.state.engine_id), "http://10.%u.%u.%u:8000", i >> 16,
                 (i >> 8) & 255, i & 255);
        kvr__relay_table_add(&pk, &f, 10, true, true);
    }
    kvr__relay_share_begin(&pk, n);
    for (uint32_t i = 0; i < n; i++)
        kvr__relay_share_load(&pk, &(kvr_dsp_engine_t){.key = i + 1, .load = {i, 2u * i, 3u * i}});
    kvr__relay_share_placed(&pk, 0);
    cr_assert_eq(kvr__relay_table_end(&sb), 0, "a full table is %zu bytes", sb.size);
    kvr__relay_table_t t;
    const char *reason = NULL;
    cr_assert_eq(decode_shared(&sb, &t, &reason), 0, "%s", reason);
    cr_expect_eq(t.count, n);
    cr_expect_eq(t.share.load_count, n);
    cr_expect_str_eq(t.entries[n - 1].frame.state.engine_id, "http://10.0.63.255:8000");
    cr_expect_eq(t.share.loads[n - 1].key, n);
    cr_expect_eq(t.share.loads[n - 1].load.kv_tokens, 3ull * (n - 1));
    kvr__relay_table_free(&t);
    msgpack_sbuffer_destroy(&sb);
}
