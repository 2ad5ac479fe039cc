/* SPDX-License-Identifier: Apache-2.0 */
#include "common/prefix_hash.h"

#include <criterion/criterion.h>
#include <string.h>
#include <xxhash.h>

/* The documented definition: xxHash3 of the ids as 4-byte little-endian words, seeded with the parent. */
Test(prefix_hash, token_block_is_xxh3_of_little_endian_ids_seeded_with_parent, .timeout = 5.)
{
    uint32_t ids[600];
    unsigned char bytes[sizeof ids];
    for (size_t i = 0; i < 600; i++) {
        ids[i] = (uint32_t)(i * 2654435761u);
        bytes[4 * i] = (unsigned char)ids[i];
        bytes[4 * i + 1] = (unsigned char)(ids[i] >> 8);
        bytes[4 * i + 2] = (unsigned char)(ids[i] >> 16);
        bytes[4 * i + 3] = (unsigned char)(ids[i] >> 24);
    }
    /* 600 ids cross the hasher's internal chunk of 256. */
    uint64_t want = XXH3_64bits_withSeed(bytes, sizeof bytes, 77);
    cr_assert_eq(kvr_token_block_hash(77, ids, 600), want ? want : 1);
    uint64_t first = XXH3_64bits_withSeed(bytes, 16 * 4, KVR_TOKEN_CHAIN_ROOT);
    cr_assert_eq(kvr_token_block_hash(KVR_TOKEN_CHAIN_ROOT, ids, 16), first);
}

Test(prefix_hash, chain_names_the_whole_prefix, .timeout = 5.)
{
    uint32_t a[64], b[64];
    for (uint32_t i = 0; i < 64; i++)
        a[i] = b[i] = 1000 + i;
    b[40] = 7; /* inside block 2 of 16-token blocks */
    uint64_t ha[4], hb[4];
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, a, 64, 16, ha, 4), 4);
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, b, 64, 16, hb, 4), 4);
    cr_assert_eq(ha[0], hb[0]);
    cr_assert_eq(ha[1], hb[1]);
    cr_assert_neq(ha[2], hb[2]);
    cr_assert_neq(ha[3], hb[3], "a change in block 2 changes every later block");
    /* Each link is one block hash on its parent, so events can be hashed block by block. */
    cr_assert_eq(ha[1], kvr_token_block_hash(ha[0], a + 16, 16));
    /* The same ids in a different position are a different block. */
    cr_assert_neq(kvr_token_block_hash(KVR_TOKEN_CHAIN_ROOT, a + 16, 16), ha[1]);
}

Test(prefix_hash, partial_blocks_and_limits, .timeout = 5.)
{
    uint32_t ids[50] = {0};
    uint64_t out[8] = {0};
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids, 50, 16, out, 8), 3,
                 "only full blocks count");
    cr_assert_eq(out[3], 0);
    memset(out, 0, sizeof out);
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids, 50, 16, out, 2), 3);
    cr_assert_eq(out[2], 0, "no more than max are written");
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids, 50, 0, out, 8), 0);
}

Test(prefix_hash, adapters_root_their_own_chains, .timeout = 5.)
{
    cr_assert_eq(kvr_token_chain_root(NULL, 0), KVR_TOKEN_CHAIN_ROOT);
    cr_assert_eq(kvr_token_chain_root("x", 0), KVR_TOKEN_CHAIN_ROOT);
    uint64_t r1 = kvr_token_chain_root("sql-lora", 8), r2 = kvr_token_chain_root("chat-lora", 9);
    cr_assert_neq(r1, KVR_TOKEN_CHAIN_ROOT);
    cr_assert_neq(r1, r2);
    uint32_t ids[16] = {5};
    cr_assert_neq(kvr_token_block_hash(r1, ids, 16), kvr_token_block_hash(r2, ids, 16));
}
