/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One engine's blocks from its KV events (statefeed/kv_cache.h): the kvroute
 * hashes are the token chain of common/prefix_hash.h whatever the engine
 * calls its blocks, a BlockRemoved finds them through the engine's hashes,
 * and blocks kvroute cannot name are counted, never stored.
 */
#include <criterion/criterion.h>

#include "common/prefix_hash.h"
#include "statefeed/kv_cache.h"
#include "tests/statefeed/kv_frames.h"

/* The sink's test double: the set of (hash, tier) it was told about. */
typedef struct held_s {
    uint64_t hash[64];
    int tier[64];
    size_t n;
    unsigned clears, untrusted;
} held_t;

static void on_stored(void *ctx, uint32_t slot, uint64_t h, kvr_kv_tier_t tier)
{
    held_t *d = ctx;
    cr_assert_eq(slot, 7);
    cr_assert_lt(d->n, 64);
    d->hash[d->n] = h;
    d->tier[d->n++] = (int)tier;
}
static void on_removed(void *ctx, uint32_t slot, uint64_t h, kvr_kv_tier_t tier)
{
    held_t *d = ctx;
    (void)slot;
    for (size_t i = 0; i < d->n; i++)
        if (d->hash[i] == h && d->tier[i] == (int)tier) {
            d->hash[i] = d->hash[--d->n];
            d->tier[i] = d->tier[d->n];
            return;
        }
    cr_assert_fail("removed a block the sink never held");
}
static void on_cleared(void *ctx, uint32_t slot)
{
    held_t *d = ctx;
    (void)slot;
    d->n = 0;
    d->clears++;
}
static void on_trust(void *ctx, uint32_t slot, bool trusted)
{
    (void)slot;
    if (!trusted)
        ((held_t *)ctx)->untrusted++;
}
static bool holds(const held_t *d, uint64_t h)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->hash[i] == h)
            return true;
    return false;
}

static kvr_kv_decoder_t dec;
static kvr_kv_cache_t kc;
static held_t held;

static void setup(void)
{
    memset(&held, 0, sizeof held);
    kvr_kv_sink_t sink = {&held, on_stored, on_removed, on_cleared, on_trust};
    cr_assert_eq(kvr_kv_decoder_init(&dec), 0);
    cr_assert_eq(kvr_kv_cache_init(&kc, 7, &sink, 32), 0);
}
static void teardown(void)
{
    kvr_kv_cache_close(&kc);
    kvr_kv_decoder_close(&dec);
}
TestSuite(kv_cache, .init = setup, .fini = teardown);

static int apply(void *arg, const kvr_kv_event_t *ev)
{
    return kvr_kv_cache_apply(arg, ev);
}

static void feed_stored(bool map, const kv_stored_t *st)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, map, 1);
    kv_pack_stored(&pk, map, st);
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(kvr_kv_batch_decode(&dec, sb.data, sb.size, apply, &kc, &b, &why), 0, "%s", why);
    msgpack_sbuffer_destroy(&sb);
}

static void feed_removed(bool map, const uint64_t *h, size_t n, const char *medium)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, map, 1);
    kv_pack_removed(&pk, map, h, n, medium);
    kvr_kv_batch_t b;
    const char *why;
    cr_assert_eq(kvr_kv_batch_decode(&dec, sb.data, sb.size, apply, &kc, &b, &why), 0, "%s", why);
    msgpack_sbuffer_destroy(&sb);
}

static uint32_t toks[16];

static void chain_then_remove(bool map)
{
    for (int i = 0; i < 16; i++)
        toks[i] = 500u + (uint32_t)i * 3;
    /* two events: blocks 0-1, then 2-3 chained on block 1; hashes past INT64_MAX */
    const uint64_t first[] = {UINT64_C(0x9000000000000001), UINT64_C(0x9000000000000002)};
    const uint64_t second[] = {UINT64_C(0xffffffffffffff03), 4};
    feed_stored(
        map, &(kv_stored_t){
                 .hashes = first, .n_hashes = 2, .tokens = toks, .n_tokens = 8, .block_size = 4});
    feed_stored(map, &(kv_stored_t){.hashes = second,
                                    .n_hashes = 2,
                                    .has_parent = true,
                                    .parent = first[1],
                                    .tokens = toks + 8,
                                    .n_tokens = 8,
                                    .block_size = 4});
    uint64_t want[4];
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, toks, 16, 4, want, 4), 4);
    cr_assert_eq(kc.blocks[KVR_KV_TIER_GPU], 4);
    cr_assert_eq(held.n, 4);
    for (int i = 0; i < 4; i++)
        cr_assert(holds(&held, want[i]), "block %d is named by its tokens", i);
    cr_assert_eq(kvr_kv_cache_lookup(&kc, second[0]), want[2]);
    feed_removed(map, (const uint64_t[]){first[0], second[1]}, 2, NULL);
    cr_assert_eq(kc.blocks[KVR_KV_TIER_GPU], 2);
    cr_assert_not(holds(&held, want[0]));
    cr_assert(holds(&held, want[1]));
    cr_assert_not(holds(&held, want[3]));
    cr_assert_eq(kc.removed, 2);
    cr_assert_eq(kc.orphans, 0);
    cr_assert(kc.trusted);
}

Test(kv_cache, chain_and_removal_map_tagged, .timeout = 5.)
{
    chain_then_remove(true);
}
Test(kv_cache, chain_and_removal_positional, .timeout = 5.)
{
    chain_then_remove(false);
}

Test(kv_cache, unknown_parent_is_an_orphan_and_so_are_its_children, .timeout = 5.)
{
    feed_stored(true, &(kv_stored_t){.hashes = (const uint64_t[]){11, 12},
                                     .n_hashes = 2,
                                     .has_parent = true,
                                     .parent = 99,
                                     .tokens = toks,
                                     .n_tokens = 8,
                                     .block_size = 4});
    feed_stored(true, &(kv_stored_t){.hashes = (const uint64_t[]){13},
                                     .n_hashes = 1,
                                     .has_parent = true,
                                     .parent = 12,
                                     .tokens = toks + 8,
                                     .n_tokens = 4,
                                     .block_size = 4});
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 0);
    cr_assert_eq(held.n, 0);
    cr_assert_eq(kc.orphans, 3);
    /* removing what was never stored is counted and harmless */
    feed_removed(true, (const uint64_t[]){11, 13}, 2, NULL);
    cr_assert_eq(kc.unknown_removed, 2);
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 0);
}

Test(kv_cache, tokens_not_a_multiple_of_the_block_size, .timeout = 5.)
{
    for (int i = 0; i < 16; i++)
        toks[i] = 7u + (uint32_t)i;
    /* 10 tokens, blocks of 4, three hashes: two full blocks are named, the third is not */
    feed_stored(false, &(kv_stored_t){.hashes = (const uint64_t[]){1, 2, 3},
                                      .n_hashes = 3,
                                      .tokens = toks,
                                      .n_tokens = 10,
                                      .block_size = 4});
    uint64_t want[2];
    kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, toks, 8, 4, want, 2);
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 2);
    cr_assert(holds(&held, want[0]) && holds(&held, want[1]));
    cr_assert_eq(kc.partial_tokens, 1);
    cr_assert_eq(kc.orphans, 1);
}

Test(kv_cache, adapter_name_roots_the_chain_and_tiers_are_separate, .timeout = 5.)
{
    feed_stored(true, &(kv_stored_t){.hashes = (const uint64_t[]){5},
                                     .n_hashes = 1,
                                     .tokens = toks,
                                     .n_tokens = 4,
                                     .block_size = 4,
                                     .lora_name = "sql"});
    feed_stored(true, &(kv_stored_t){.hashes = (const uint64_t[]){5},
                                     .n_hashes = 1,
                                     .tokens = toks,
                                     .n_tokens = 4,
                                     .block_size = 4,
                                     .medium = "CPU",
                                     .lora_name = "sql"});
    uint64_t want;
    kvr_token_hash_blocks(kvr_token_chain_root("sql", 3), toks, 4, 4, &want, 1);
    cr_assert_eq(kvr_kv_cache_lookup(&kc, 5), want);
    cr_assert_eq(kc.blocks[KVR_KV_TIER_GPU], 1);
    cr_assert_eq(kc.blocks[KVR_KV_TIER_CPU], 1);
    feed_removed(false, (const uint64_t[]){5}, 1, "GPU");
    cr_assert_eq(kc.blocks[KVR_KV_TIER_GPU], 0);
    cr_assert_eq(kc.blocks[KVR_KV_TIER_CPU], 1);
    cr_assert_eq(kvr_kv_cache_lookup(&kc, 5), want, "the CPU copy keeps the mapping");
}

Test(kv_cache, cleared_and_overflow, .timeout = 5.)
{
    uint64_t h[40];
    uint32_t many[160];
    for (int i = 0; i < 40; i++)
        h[i] = UINT64_C(0x8000000000000000) + (uint64_t)i;
    for (int i = 0; i < 160; i++)
        many[i] = (uint32_t)i;
    /* 40 blocks into a cache kept to 32: the rest is refused and the state untrusted */
    feed_stored(false,
                &(kv_stored_t){
                    .hashes = h, .n_hashes = 40, .tokens = many, .n_tokens = 160, .block_size = 4});
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 32);
    cr_assert_eq(kc.overflows, 8);
    cr_assert_not(kc.trusted);
    cr_assert_eq(held.untrusted, 1);
    kvr_kv_event_t cleared = {.kind = KVR_KV_EVENT_CLEARED, .group_idx = -1};
    kvr_kv_cache_apply(&kc, &cleared);
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 0);
    cr_assert_eq(held.clears, 1);
    cr_assert_eq(kvr_kv_cache_lookup(&kc, h[0]), 0);
}

Test(kv_cache, many_blocks_grow_and_erase_keep_every_mapping, .timeout = 5.)
{
    kvr_kv_cache_close(&kc);
    cr_assert_eq(kvr_kv_cache_init(&kc, 7, NULL, 1u << 20), 0);
    uint32_t t[4];
    for (uint64_t i = 1; i <= 5000; i++) {
        t[0] = (uint32_t)i;
        kvr_kv_event_t ev = {.kind = KVR_KV_EVENT_STORED,
                             .engine_hashes = &i,
                             .n_hashes = 1,
                             .token_ids = t,
                             .n_tokens = 1,
                             .block_size = 1,
                             .group_idx = -1,
                             .extra_keys_from = 1};
        kvr_kv_cache_apply(&kc, &ev);
    }
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 5000);
    for (uint64_t i = 1; i <= 5000; i += 2) {
        kvr_kv_event_t ev = {
            .kind = KVR_KV_EVENT_REMOVED, .engine_hashes = &i, .n_hashes = 1, .group_idx = -1};
        kvr_kv_cache_apply(&kc, &ev);
    }
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 2500);
    for (uint64_t i = 1; i <= 5000; i++) {
        t[0] = (uint32_t)i;
        uint64_t want = kvr_token_block_hash(KVR_TOKEN_CHAIN_ROOT, t, 1);
        cr_assert_eq(kvr_kv_cache_lookup(&kc, i), i % 2 ? 0 : want, "engine hash %llu",
                     (unsigned long long)i);
    }
    cr_assert_eq(kc.unknown_removed, 0);
}

Test(kv_cache, extra_keys_and_other_groups_are_not_named, .timeout = 5.)
{
    uint64_t h[2] = {1, 2};
    kvr_kv_event_t ev = {.kind = KVR_KV_EVENT_STORED,
                         .engine_hashes = h,
                         .n_hashes = 2,
                         .token_ids = toks,
                         .n_tokens = 8,
                         .block_size = 4,
                         .group_idx = -1,
                         .extra_keys_from = 1};
    kvr_kv_cache_apply(&kc, &ev);
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 1, "the block with an image hash is not named");
    cr_assert_eq(kc.orphans, 1);
    ev.group_idx = 1;
    ev.extra_keys_from = 2;
    h[0] = 3;
    h[1] = 4;
    kvr_kv_cache_apply(&kc, &ev);
    cr_assert_eq(kvr_kv_cache_blocks(&kc), 1);
    cr_assert_eq(kc.other_groups, 1);
}
