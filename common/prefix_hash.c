/* SPDX-License-Identifier: Apache-2.0 */
#include "common/prefix_hash.h"

#include <string.h>
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
