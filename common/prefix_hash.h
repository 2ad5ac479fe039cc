/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_PREFIX_HASH_H
#define KVR_COMMON_PREFIX_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Prefix block hashing shared by the router's prefix index and the engine
 * simulator's cache: text is cut into fixed 64-byte blocks and each block's
 * hash is chained on the previous one (xxHash3 seeded with it), so equal
 * hashes at position i mean equal text up to the end of block i. Only full
 * blocks are hashed, as engines only cache full blocks.
 */
#define KVR_PREFIX_BLOCK_BYTES 64
/** Bytes per token the router assumes when it has no tokenizer (≈16 tokens per block). */
#define KVR_BYTES_PER_TOKEN 4

typedef struct kvr_prefix_hasher_s {
    uint64_t chain;     /* hash of the last full block, 0 before the first */
    size_t partial_len; /* bytes waiting for a full block */
    unsigned char partial[KVR_PREFIX_BLOCK_BYTES];
    size_t blocks; /* full blocks hashed so far */
} kvr_prefix_hasher_t;

/** Starts an empty chain. */
void kvr_prefix_hasher_init(kvr_prefix_hasher_t *h);
/**
 * Feeds more text; writes the hash of each block completed by it into
 * out[h->blocks] while h->blocks < max (blocks past max are counted, not stored).
 */
void kvr_prefix_hasher_feed(kvr_prefix_hasher_t *h, const void *data, size_t len, uint64_t *out,
                            size_t max);
/** One-shot: hashes of the full blocks of text into out (at most max); returns the number of full blocks. */
size_t kvr_prefix_hash_blocks(const void *text, size_t len, uint64_t *out, size_t max);

#endif
