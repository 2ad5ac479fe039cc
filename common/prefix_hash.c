/* SPDX-License-Identifier: Apache-2.0 */
#include "common/prefix_hash.h"

#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

void kvr_prefix_hasher_init(kvr_prefix_hasher_t *h)
{
    h->chain = 0;
    h->partial_len = 0;
    h->blocks = 0;
}

static void hash_block(kvr_prefix_hasher_t *h, const void *block, uint64_t *out, size_t max)
{
    h->chain = XXH3_64bits_withSeed(block, KVR_PREFIX_BLOCK_BYTES, h->chain);
    if (h->blocks < max)
        out[h->blocks] = h->chain;
    h->blocks++;
}

void kvr_prefix_hasher_feed(kvr_prefix_hasher_t *h, const void *data, size_t len, uint64_t *out,
                            size_t max)
{
    const unsigned char *p = data;
    if (h->partial_len > 0) {
        size_t take = KVR_PREFIX_BLOCK_BYTES - h->partial_len;
        if (take > len)
            take = len;
        memcpy(h->partial + h->partial_len, p, take);
        h->partial_len += take;
        p += take;
        len -= take;
        if (h->partial_len < KVR_PREFIX_BLOCK_BYTES)
            return;
        hash_block(h, h->partial, out, max);
        h->partial_len = 0;
    }
    while (len >= KVR_PREFIX_BLOCK_BYTES) {
        hash_block(h, p, out, max);
        p += KVR_PREFIX_BLOCK_BYTES;
        len -= KVR_PREFIX_BLOCK_BYTES;
    }
    memcpy(h->partial, p, len);
    h->partial_len = len;
}

size_t kvr_prefix_hash_blocks(const void *text, size_t len, uint64_t *out, size_t max)
{
    kvr_prefix_hasher_t h;
    kvr_prefix_hasher_init(&h);
    kvr_prefix_hasher_feed(&h, text, len, out, max);
    return h.blocks;
}

uint64_t kvr_token_chain_root(const char *adapter, size_t len)
{
    if (adapter == NULL || len == 0)
        return KVR_TOKEN_CHAIN_ROOT;
    uint64_t h = XXH3_64bits(adapter, len);
    return h ? h : 1;
}

uint64_t kvr_token_block_hash(uint64_t parent, const uint32_t *tokens, size_t n)
{
    enum { CHUNK = 256 };
    unsigned char bytes[CHUNK * 4];
    XXH3_state_t st;
    XXH3_64bits_reset_withSeed(&st, parent);
    for (size_t done = 0; done < n;) {
        size_t take = n - done < CHUNK ? n - done : CHUNK;
        for (size_t i = 0; i < take; i++) {
            uint32_t t = tokens[done + i];
            bytes[4 * i] = (unsigned char)t;
            bytes[4 * i + 1] = (unsigned char)(t >> 8);
            bytes[4 * i + 2] = (unsigned char)(t >> 16);
            bytes[4 * i + 3] = (unsigned char)(t >> 24);
        }
        XXH3_64bits_update(&st, bytes, take * 4);
        done += take;
    }
    uint64_t h = XXH3_64bits_digest(&st);
    return h ? h : 1;
}

size_t kvr_token_hash_blocks(uint64_t root, const uint32_t *tokens, size_t n, size_t block_tokens,
                             uint64_t *out, size_t max)
{
    if (block_tokens == 0)
        return 0;
    size_t blocks = n / block_tokens;
    uint64_t chain = root;
    for (size_t b = 0; b < blocks && b < max; b++) {
        chain = kvr_token_block_hash(chain, tokens + b * block_tokens, block_tokens);
        out[b] = chain;
    }
    return blocks;
}
