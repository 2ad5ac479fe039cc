/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_SIM_KVCACHE_H
#define KVR_BENCH_SIM_KVCACHE_H

/*
 * The simulated engine's KV cache, counted in blocks of 16 tokens (one
 * 64-byte text block at 4 bytes per token). Full prompt blocks are known by
 * their chained hash (common/prefix_hash.h) and shared by every request with
 * the same prefix; other blocks (the partial tail of a prompt, generated
 * tokens, a block whose hash another request is still computing) are
 * private. A hashed block nobody references stays cached in LRU order until
 * its room is needed.
 */

#include <stddef.h>
#include <stdint.h>

typedef struct kvr_sim_block_s kvr_sim_block_t;

struct kvr_sim_block_s {
    uint64_t hash;
    uint32_t refs;
    uint16_t ready;                       /* computed: only ready blocks are cache hits */
    uint16_t announced;                   /* published as stored (KV events), maybe before ready */
    kvr_sim_block_t *lru_prev, *lru_next; /* in the LRU list while refs == 0 */
    kvr_sim_block_t *hnext;               /* hash bucket chain */
};

typedef struct kvr_sim_cache_s {
    size_t capacity_blocks;
    size_t used_blocks; /* hashed blocks in the table + private blocks */
    size_t private_blocks;
    size_t hashed_blocks;
    size_t lru_blocks; /* unreferenced hashed blocks: evictable */
    kvr_sim_block_t **buckets;
    size_t nbuckets;                      /* power of two */
    kvr_sim_block_t *lru_head, *lru_tail; /* head = least recently used */
    uint64_t evictions;
    /* told of each evicted block (KV events), NULL: nobody listens */
    void (*on_evict)(void *ctx, uint64_t hash);
    void *evict_ctx;
} kvr_sim_cache_t;

/** Sets up an empty cache of capacity_blocks; -ENOMEM. */
int kvr_sim_cache_init(kvr_sim_cache_t *c, size_t capacity_blocks);
/** Frees every block. */
void kvr_sim_cache_close(kvr_sim_cache_t *c);

/**
 * Admits a request: references the longest run of ready cached blocks at the
 * start of hashes[0..n), then reserves n - matched more hashed blocks plus
 * extra_private private blocks, evicting unreferenced blocks (LRU first) as
 * needed. held[i] receives block i, or NULL where a private block stands in.
 * Returns the number of matched blocks, or -ENOSPC (nothing changed) when
 * the blocks do not fit even after evicting everything evictable.
 */
int kvr_sim_cache_admit(kvr_sim_cache_t *c, const uint64_t *hashes, size_t n, size_t extra_private,
                        kvr_sim_block_t **held, size_t *n_private);

/** Reserves one more private block (evicting if needed); -ENOSPC when none can be found. */
int kvr_sim_cache_grow(kvr_sim_cache_t *c);

/**
 * Releases what a request held: its hashed blocks (unready ones are dropped,
 * ready ones become evictable at the MRU end) and n_private private blocks.
 */
void kvr_sim_cache_release(kvr_sim_cache_t *c, kvr_sim_block_t **held, size_t n, size_t n_private);

/** Number of ready blocks present at the start of hashes (no reference taken). */
size_t kvr_sim_cache_match(const kvr_sim_cache_t *c, const uint64_t *hashes, size_t n);

#endif
