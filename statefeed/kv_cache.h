/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_KV_CACHE_H
#define KVR_STATEFEED_KV_CACHE_H

/*
 * What one engine's KV events say it holds, named the kvroute way: each
 * BlockStored's token ids are chained into kvroute block hashes
 * (common/prefix_hash.h) from the kvroute hash of its parent, and the
 * engine's hash -> kvroute hash map is kept so a BlockRemoved, which names
 * engine hashes only, can be applied. Changes go to a sink (the residency
 * table, or a test double); counts per tier stay here for the metrics.
 *
 * A block whose kvroute hash cannot be computed (its parent was never seen,
 * it carries extra keys such as image hashes, or an adapter is named by id
 * only) is an orphan: counted, not stored, and so are its descendants.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "statefeed/kv_events.h"

/** Where the cache's changes go; every callback may be NULL. slot is the engine's state slot. */
typedef struct kvr_kv_sink_s {
    void *ctx;
    void (*stored)(void *ctx, uint32_t slot, uint64_t kvr_hash, kvr_kv_tier_t tier);
    void (*removed)(void *ctx, uint32_t slot, uint64_t kvr_hash, kvr_kv_tier_t tier);
    void (*cleared)(void *ctx, uint32_t slot);
    void (*trust)(void *ctx, uint32_t slot, bool trusted);
} kvr_kv_sink_t;

typedef struct kvr_kv_entry_s {
    uint64_t engine_hash; /* 0 marks an empty bucket; engine hash 0 lives in zero_entry */
    uint64_t kvr_hash;
    uint8_t tiers; /* bit per kvr_kv_tier_t */
} kvr_kv_entry_t;

typedef struct kvr_kv_cache_s {
    uint32_t slot;
    kvr_kv_sink_t sink;
    kvr_kv_entry_t *table;
    size_t cap, used; /* cap a power of two, used <= cap / 2 */
    bool has_zero;
    kvr_kv_entry_t zero_entry;
    size_t max_blocks; /* entries beyond this: untrusted, the store is dropped */
    bool trusted;
    uint64_t blocks[KVR_KV_TIERS]; /* held now */
    uint64_t block_size;           /* of the last BlockStored */
    /* counters */
    uint64_t stored, removed, cleared, orphans, unknown_removed, partial_tokens, other_groups,
        overflows;
    uint64_t *scratch; /* KVR_KV_MAX_BLOCKS kvroute hashes of one event */
} kvr_kv_cache_t;

/** An empty, trusted cache for slot; 0 or -ENOMEM. */
int kvr_kv_cache_init(kvr_kv_cache_t *kc, uint32_t slot, const kvr_kv_sink_t *sink,
                      size_t max_blocks);
void kvr_kv_cache_close(kvr_kv_cache_t *kc);
/** Applies one decoded event; 0 (anomalies are counted, not errors). */
int kvr_kv_cache_apply(kvr_kv_cache_t *kc, const kvr_kv_event_t *ev);
/** Forgets every block (AllBlocksCleared, a restart, a gap that cannot be replayed). */
void kvr_kv_cache_clear(kvr_kv_cache_t *kc);
/** Marks the state trusted or not; tells the sink on a change. */
void kvr_kv_cache_set_trust(kvr_kv_cache_t *kc, bool trusted);
/** Blocks held over every tier. */
uint64_t kvr_kv_cache_blocks(const kvr_kv_cache_t *kc);
/** The kvroute hash the engine's hash maps to; 0 when unknown. */
uint64_t kvr_kv_cache_lookup(const kvr_kv_cache_t *kc, uint64_t engine_hash);

#endif
