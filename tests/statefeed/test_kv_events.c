/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The KV event decoder (statefeed/kv_events.h): both encodings the engines
 * send, 64-bit hashes above INT64_MAX, the older shapes (num_toks_per_block,
 * bytes hashes, signed hashes), and hostile bytes refused with a reason.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "statefeed/kv_events.h"
#include "tests/statefeed/kv_frames.h"

typedef struct seen_s {
    kvr_kv_event_t ev[8];
    uint64_t hashes[8][8];
    uint32_t tokens[8][64];
    size_t n;
} seen_t;

static int collect(void *arg, const kvr_kv_event_t *ev)
{
    seen_t *s = arg;
    cr_assert_lt(s->n, 8);
    s->ev[s->n] = *ev;
    cr_assert_leq(ev->n_hashes, 8);
    cr_assert_leq(ev->n_tokens, 64);
    if (ev->n_hashes)
        memcpy(s->hashes[s->n], ev->engine_hashes, ev->n_hashes * sizeof(uint64_t));
    if (ev->n_tokens)
        memcpy(s->tokens[s->n], ev->token_ids, ev->n_tokens * sizeof(uint32_t));
    s->n++;
    return 0;
}

static kvr_kv_decoder_t dec;
static void setup(void)
{
    cr_assert_eq(kvr_kv_decoder_init(&dec), 0);
}
static void teardown(void)
{
    kvr_kv_decoder_close(&dec);
}

static int decode(const msgpack_sbuffer *sb, seen_t *s, kvr_kv_batch_t *b, const char **why)
{
    memset(s, 0, sizeof(*s));
    return kvr_kv_batch_decode(&dec, sb->data, sb->size, collect, s, b, why);
}

static void both_encodings(bool map)
{
    const uint64_t hashes[] = {UINT64_C(0xfedcba9876543210), UINT64_MAX, 7};
    uint32_t tokens[12];
    for (int i = 0; i < 12; i++)
        tokens[i] = 1000u + (uint32_t)i;
    kv_stored_t st = {.hashes = hashes,
                      .n_hashes = 3,
                      .has_parent = true,
                      .parent = UINT64_C(0x8000000000000000),
                      .tokens = tokens,
                      .n_tokens = 12,
                      .block_size = 4,
                      .medium = "CPU",
                      .lora_name = "sql-adapter"};
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, map, 3);
    kv_pack_stored(&pk, map, &st);
    kv_pack_removed(&pk, map, &hashes[1], 1, NULL);
    kv_pack_cleared(&pk, map);
    seen_t s;
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(decode(&sb, &s, &b, &why), 0, "%s", why);
    cr_assert_eq(b.events, 3);
    cr_assert_eq(b.positional, !map);
    cr_assert_eq(b.dp_rank, map ? 0 : -1);
    cr_assert_eq(s.n, 3);
    cr_assert_eq(s.ev[0].kind, KVR_KV_EVENT_STORED);
    cr_assert_eq(s.ev[0].n_hashes, 3);
    cr_assert_eq(s.hashes[0][0], UINT64_C(0xfedcba9876543210));
    cr_assert_eq(s.hashes[0][1], UINT64_MAX);
    cr_assert(s.ev[0].has_parent);
    cr_assert_eq(s.ev[0].parent, UINT64_C(0x8000000000000000));
    cr_assert_eq(s.ev[0].n_tokens, 12);
    cr_assert_eq(s.tokens[0][11], 1011u);
    cr_assert_eq(s.ev[0].block_size, 4);
    cr_assert_eq(s.ev[0].tier, KVR_KV_TIER_CPU);
    cr_assert_eq(s.ev[0].lora_name_len, strlen("sql-adapter"));
    cr_assert_eq(s.ev[0].group_idx, -1);
    cr_assert_eq(s.ev[0].extra_keys_from, 3);
    cr_assert_eq(s.ev[1].kind, KVR_KV_EVENT_REMOVED);
    cr_assert_eq(s.ev[1].n_hashes, 1);
    cr_assert_eq(s.hashes[1][0], UINT64_MAX);
    cr_assert_eq(s.ev[1].tier, KVR_KV_TIER_GPU);
    cr_assert_eq(s.ev[2].kind, KVR_KV_EVENT_CLEARED);
    msgpack_sbuffer_destroy(&sb);
}

TestSuite(kv_events, .init = setup, .fini = teardown);

Test(kv_events, map_tagged_vllm_batch, .timeout = 5.)
{
    both_encodings(true);
}
Test(kv_events, positional_sglang_batch, .timeout = 5.)
{
    both_encodings(false);
}

/* Older vLLM: [ts, events] arrays, signed or bytes hashes, num_toks_per_block, a map key order with the tag last. */
Test(kv_events, older_shapes, .timeout = 5.)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 3);
    msgpack_pack_int(&pk, 5); /* an integer ts */
    msgpack_pack_array(&pk, 2);
    /* ["BlockStored", [-5, bytes], nil, [1..4], [2, 2], nil] */
    msgpack_pack_array(&pk, 6);
    kv_str(&pk, "BlockStored");
    msgpack_pack_array(&pk, 2);
    msgpack_pack_int64(&pk, -5);
    msgpack_pack_bin(&pk, 32);
    char digest[32] = {1, 2, 3};
    msgpack_pack_bin_body(&pk, digest, 32);
    msgpack_pack_nil(&pk);
    msgpack_pack_array(&pk, 4);
    for (int i = 1; i <= 4; i++)
        msgpack_pack_int(&pk, i);
    msgpack_pack_array(&pk, 2);
    msgpack_pack_int(&pk, 2);
    msgpack_pack_int(&pk, 2);
    msgpack_pack_nil(&pk);
    /* a map with unknown keys and the tag last */
    msgpack_pack_map(&pk, 4);
    kv_str(&pk, "block_hashes");
    kv_hashes(&pk, (const uint64_t[]){9}, 1);
    kv_str(&pk, "future_field");
    msgpack_pack_map(&pk, 1);
    kv_str(&pk, "x");
    msgpack_pack_array(&pk, 0);
    kv_str(&pk, "group_idx");
    msgpack_pack_int(&pk, 1);
    kv_str(&pk, "type");
    kv_str(&pk, "BlockRemoved");
    msgpack_pack_int(&pk, 3); /* dp rank */
    seen_t s;
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(decode(&sb, &s, &b, &why), 0, "%s", why);
    cr_assert_eq(b.dp_rank, 3);
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.hashes[0][0], (uint64_t)INT64_C(-5));
    cr_assert_neq(s.hashes[0][1], 0);
    cr_assert_eq(s.ev[0].block_size, 2);
    cr_assert_not(s.ev[0].has_parent);
    cr_assert_eq(s.ev[1].kind, KVR_KV_EVENT_REMOVED);
    cr_assert_eq(s.ev[1].group_idx, 1);
    msgpack_sbuffer_destroy(&sb);
}

/* A batch that starts fine and then goes wrong, built by fn. */
static void expect_refused_prefix(void (*fn)(msgpack_packer *), int code, bool prefixes)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fn(&pk);
    seen_t s;
    kvr_kv_batch_t b;
    const char *why = NULL;
    cr_assert_eq(decode(&sb, &s, &b, &why), code, "got %s", why ? why : "success");
    cr_assert_not_null(why);
    /* every prefix of the bytes is refused too, never read past */
    for (size_t cut = 0; prefixes && cut < sb.size; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, sb.data, cut);
        cr_assert_lt(kvr_kv_batch_decode(&dec, copy, cut, NULL, NULL, &b, &why), 0);
        free(copy);
    }
    msgpack_sbuffer_destroy(&sb);
}

static void expect_refused(void (*fn)(msgpack_packer *), int code)
{
    expect_refused_prefix(fn, code, true);
}

static void unknown_tag(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 2);
    kv_str(pk, "BlockMoved");
    msgpack_pack_array(pk, 0);
}
static void map_without_type(msgpack_packer *pk)
{
    kv_batch_begin(pk, true, 1);
    msgpack_pack_map(pk, 1);
    kv_str(pk, "block_hashes");
    msgpack_pack_array(pk, 0);
}
static void token_too_big(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 5);
    kv_str(pk, "BlockStored");
    kv_hashes(pk, (const uint64_t[]){1}, 1);
    msgpack_pack_nil(pk);
    msgpack_pack_array(pk, 1);
    msgpack_pack_uint64(pk, UINT64_C(1) << 32);
    msgpack_pack_int(pk, 1);
}
/* A map batch holding a positional event: each event is read by its own shape. */
static void mixed_encodings(msgpack_packer *pk)
{
    kv_batch_begin(pk, true, 1);
    kv_pack_removed(pk, false, (const uint64_t[]){1}, 1, NULL);
}
static void hash_is_float(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 2);
    kv_str(pk, "BlockRemoved");
    msgpack_pack_array(pk, 1);
    msgpack_pack_double(pk, 1.5);
}
static void stored_missing_fields(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 3);
    kv_str(pk, "BlockStored");
    kv_hashes(pk, (const uint64_t[]){1}, 1);
    msgpack_pack_nil(pk);
}
static void block_size_zero(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 5);
    kv_str(pk, "BlockStored");
    kv_hashes(pk, (const uint64_t[]){1}, 1);
    msgpack_pack_nil(pk);
    msgpack_pack_array(pk, 0);
    msgpack_pack_int(pk, 0);
}
static void too_many_hashes(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 1);
    msgpack_pack_array(pk, 2);
    kv_str(pk, "BlockRemoved");
    msgpack_pack_array(pk, KVR_KV_MAX_BLOCKS + 1);
    for (int i = 0; i <= KVR_KV_MAX_BLOCKS; i++)
        msgpack_pack_int(pk, i);
}
static void batch_not_container(msgpack_packer *pk)
{
    msgpack_pack_double(pk, 1.0);
}
static void trailing_bytes(msgpack_packer *pk)
{
    kv_batch_begin(pk, false, 0);
    msgpack_pack_nil(pk);
}
static void deep_nesting(msgpack_packer *pk)
{
    kv_batch_begin(pk, true, 1);
    msgpack_pack_map(pk, 2);
    kv_str(pk, "type");
    kv_str(pk, "AllBlocksCleared");
    kv_str(pk, "x");
    for (int i = 0; i < 40; i++)
        msgpack_pack_array(pk, 1);
    msgpack_pack_nil(pk);
}

Test(kv_events, unknown_event_tag_refused, .timeout = 5.)
{
    expect_refused(unknown_tag, -EBADMSG);
}
Test(kv_events, map_event_without_type_refused, .timeout = 5.)
{
    expect_refused(map_without_type, -EBADMSG);
}
Test(kv_events, token_id_over_32_bits_refused, .timeout = 5.)
{
    expect_refused(token_too_big, -EBADMSG);
}
Test(kv_events, hash_of_a_wrong_type_refused, .timeout = 5.)
{
    expect_refused(hash_is_float, -EBADMSG);
}
Test(kv_events, positional_event_in_a_map_batch, .timeout = 5.)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    mixed_encodings(&pk);
    seen_t s;
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(decode(&sb, &s, &b, &why), 0, "%s", why);
    msgpack_sbuffer_destroy(&sb);
}
Test(kv_events, stored_without_its_fields_refused, .timeout = 5.)
{
    expect_refused(stored_missing_fields, -EBADMSG);
}
Test(kv_events, block_size_zero_refused, .timeout = 5.)
{
    expect_refused(block_size_zero, -EBADMSG);
}
Test(kv_events, oversize_hash_list_refused, .timeout = 5.)
{
    expect_refused(too_many_hashes, -E2BIG);
}
Test(kv_events, batch_that_is_not_a_container_refused, .timeout = 5.)
{
    expect_refused(batch_not_container, -EBADMSG);
}
Test(kv_events, trailing_bytes_refused, .timeout = 5.)
{
    expect_refused_prefix(trailing_bytes, -EBADMSG, false); /* its prefix is a valid batch */
}
Test(kv_events, deep_nesting_refused, .timeout = 5.)
{
    expect_refused(deep_nesting, -EBADMSG);
}

Test(kv_events, container_claiming_gigabytes_refused, .timeout = 5.)
{
    const uint8_t bytes[] = {0x92, 0xcb, 0,    0,    0,    0,    0,    0,
                             0,    0,    0xdd, 0xff, 0xff, 0xff, 0xff, 0x90};
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(kvr_kv_batch_decode(&dec, bytes, sizeof bytes, NULL, NULL, &b, &why), -EBADMSG);
}

Test(kv_events, sequence_frame, .timeout = 5.)
{
    int64_t seq;
    const uint8_t end[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const uint8_t five[8] = {0, 0, 0, 0, 0, 0, 0, 5};
    cr_assert_eq(kvr_kv_seq_parse(end, 8, &seq), 0);
    cr_assert_eq(seq, -1);
    cr_assert_eq(kvr_kv_seq_parse(five, 8, &seq), 0);
    cr_assert_eq(seq, 5);
    cr_assert_eq(kvr_kv_seq_parse(five, 7, &seq), -EBADMSG);
}

/* The tag after the fields (a producer other than msgspec): found first, the fields then read. */
Test(kv_events, map_event_with_its_type_last, .timeout = 5.)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, true, 2);
    msgpack_pack_map(&pk, 2);
    kv_str(&pk, "block_hashes");
    kv_hashes(&pk, (const uint64_t[]){UINT64_MAX, 9}, 2);
    kv_str(&pk, "type");
    kv_str(&pk, "BlockRemoved");
    msgpack_pack_map(&pk, 2);
    kv_str(&pk, "type");
    kv_str(&pk, "BlockRemoved");
    kv_str(&pk, "block_hashes");
    kv_hashes(&pk, (const uint64_t[]){3}, 1);
    seen_t s;
    kvr_kv_batch_t b;
    const char *why = NULL;
    cr_assert_eq(decode(&sb, &s, &b, &why), 0, "%s", why ? why : "");
    cr_assert_eq(s.n, 2);
    cr_expect_eq(s.ev[0].kind, KVR_KV_EVENT_REMOVED);
    cr_expect_eq(s.ev[0].n_hashes, 2);
    cr_expect_eq(s.hashes[0][0], UINT64_MAX);
    cr_expect_eq(s.hashes[0][1], 9);
    cr_expect_eq(s.ev[1].n_hashes, 1);
    cr_expect_eq(s.hashes[1][0], 3);
    msgpack_sbuffer_destroy(&sb);
}

static void type_twice(msgpack_packer *pk)
{
    kv_batch_begin(pk, true, 1);
    msgpack_pack_map(pk, 3);
    kv_str(pk, "type");
    kv_str(pk, "BlockRemoved");
    kv_str(pk, "block_hashes");
    kv_hashes(pk, (const uint64_t[]){1}, 1);
    kv_str(pk, "type");
    kv_str(pk, "AllBlocksCleared");
}
Test(kv_events, map_event_with_two_types_refused, .timeout = 5.)
{
    expect_refused(type_twice, -EBADMSG);
}
