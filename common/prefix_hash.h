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

/*
 * Token blocks: what engines cache. A block of n token ids is hashed with
 * xxHash3 over the ids as 4-byte little-endian words, seeded with the hash of
 * the block before it (the chain root for the first block), so one 64-bit
 * value names a whole prefix of full blocks. kvroute computes it from token
 * ids alone (the request's after tokenizing, an engine's KV events'
 * token_ids), so it depends on no engine's own hash algorithm or seed. The
 * result is never 0, which callers may use as "no block".
 */
/** The chain root of the base model; an adapter's root is kvr_token_chain_root(its name). */
#define KVR_TOKEN_CHAIN_ROOT UINT64_C(0)
/** Root for a LoRA adapter name (len bytes, no NUL); the base model (NULL or len 0) is KVR_TOKEN_CHAIN_ROOT. */
uint64_t kvr_token_chain_root(const char *adapter, size_t len);
/** Hash of one block of n token ids chained on parent (a previous block's hash or a root). */
uint64_t kvr_token_block_hash(uint64_t parent, const uint32_t *tokens, size_t n);
/**
 * The chain of the full blocks of block_tokens ids each in tokens[0..n) from root:
 * writes at most max hashes to out and returns the number of full blocks.
 * block_tokens 0 yields no blocks.
 */
size_t kvr_token_hash_blocks(uint64_t root, const uint32_t *tokens, size_t n, size_t block_tokens,
                             uint64_t *out, size_t max);

#endif
