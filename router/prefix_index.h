/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PREFIX_INDEX_H
#define KVR_ROUTER_PREFIX_INDEX_H

/*
 * The router's guess of what each engine holds in its prefix (KV) cache:
 * chained 64-byte block hashes (common/prefix_hash.h) mapped to the engines
 * they were recently sent to. Each engine's entries form an LRU list bounded
 * by a token budget that approximates its KV capacity; entries older than a
 * TTL count as gone; a fleet-wide cap on entries bounds memory. Matching
 * walks the request's blocks once and yields the matched prefix length of
 * the engines that hold its first block, so its cost depends on the prompt
 * and on those engines, not on how many sessions live in the index nor on
 * the fleet's size.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "router/policy.h"

/** Tokens one 64-byte block stands for when there is no tokenizer. */
#define KVR_PREFIX_INDEX_TOKENS_PER_BLOCK 16u

typedef struct kvr_prefix_index_s kvr_prefix_index_t;

typedef struct kvr_prefix_index_stats_s {
    uint64_t blocks;         /* distinct block hashes held */
    uint64_t entries;        /* (block, engine) entries held */
    uint64_t evicted_budget; /* entries dropped because an engine's token budget was full */
    uint64_t evicted_global; /* entries dropped because the fleet-wide cap was reached */
    uint64_t expired;        /* entries dropped because their TTL passed */
} kvr_prefix_index_stats_t;

/**
 * Creates an index: tokens_per_engine is the default LRU budget, ttl_ns the
 * entry lifetime (0 = none), max_entries the fleet-wide cap. 0 or -errno.
 */
int kvr_prefix_index_create(uint64_t tokens_per_engine, uint64_t ttl_ns, uint64_t max_entries,
                            kvr_prefix_index_t **out);
void kvr_prefix_index_destroy(kvr_prefix_index_t *idx);

/** Sets one engine's token budget (its KV capacity as the feed reports it); 0 restores the default. */
void kvr_prefix_index_set_budget(kvr_prefix_index_t *idx, uint32_t engine_index, uint64_t tokens);

/** Learns budgets from the views' kv_capacity_tokens where the feed knows them. */
void kvr_prefix_index_learn(kvr_prefix_index_t *idx, const kvr_engine_view_t *views, size_t n);

/**
 * Walks hashes[0..n_blocks) once (dropping expired entries first). Until the
 * next walk, kvr_prefix_index_matches(idx)[e] is then engine e's matched
 * prefix length in blocks, 0 for every engine not matched; the walk's cost
 * depends on the prompt and on the engines it matches, not on the fleet.
 * Returns how many engines matched at least one block.
 */
size_t kvr_prefix_index_walk(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                             uint64_t now_ns);

/** The last walk's matched blocks per engine index (KVR_MAX_ENGINES entries). */
const uint32_t *kvr_prefix_index_matches(const kvr_prefix_index_t *idx);

/** Each engine index's token budget (KVR_MAX_ENGINES entries; 0 = the index default). */
const uint64_t *kvr_prefix_index_budgets(const kvr_prefix_index_t *idx);

/**
 * True when an engine's KV capacity (cap, 0 unknown) is known and is not its
 * budget: kvr_prefix_index_learn would change it. budgets from kvr_prefix_index_budgets.
 */
static inline bool kvr_prefix_index_capacity_differs(const uint64_t *budgets, uint32_t index,
                                                     uint64_t cap)
{
    if (cap == 0 || index >= KVR_MAX_ENGINES)
        return false;
    return budgets[index] !=
           (cap < KVR_PREFIX_INDEX_TOKENS_PER_BLOCK ? KVR_PREFIX_INDEX_TOKENS_PER_BLOCK : cap);
}

/** kvr_prefix_index_capacity_differs for the view's engine and capacity. */
static inline bool kvr_prefix_index_budget_differs(const uint64_t *budgets,
                                                   const kvr_engine_view_t *v)
{
    return kvr_prefix_index_capacity_differs(budgets, v->index, v->kv_capacity_tokens);
}

/** When engine_index was first sent hashes[blocks - 1] (a match's deepest block); 0 if it holds none. */
uint64_t kvr_prefix_index_placed_ns(const kvr_prefix_index_t *idx, const uint64_t *hashes,
                                    uint32_t blocks, uint32_t engine_index);

/**
 * kvr_prefix_index_walk, then per view: match_blocks[v] receives the matched
 * prefix length (in blocks) of views[v]'s engine; when placed_ns is not
 * NULL, placed_ns[v] receives when that engine was first sent its deepest
 * matched block (0 without a match). Returns the longest match over the views.
 */
uint32_t kvr_prefix_index_match(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                                uint64_t now_ns, const kvr_engine_view_t *views, size_t n_views,
                                uint32_t *match_blocks, uint64_t *placed_ns);

/**
 * kvr_prefix_index_learn then kvr_prefix_index_match, checking the budgets
 * in the match's pass over the views while no capacity changed.
 */
uint32_t kvr_prefix_index_learn_match(kvr_prefix_index_t *idx, const uint64_t *hashes,
                                      size_t n_blocks, uint64_t now_ns,
                                      const kvr_engine_view_t *views, size_t n_views,
                                      uint32_t *match_blocks, uint64_t *placed_ns);

/** Records that the blocks were sent to engine_index now (touching the ones it already holds). */
void kvr_prefix_index_insert(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                             uint32_t engine_index, uint64_t now_ns);

/** Forgets everything held by engine_index (it left the table). */
void kvr_prefix_index_remove_engine(kvr_prefix_index_t *idx, uint32_t engine_index);

/** Tokens the index currently attributes to engine_index. */
uint64_t kvr_prefix_index_engine_tokens(const kvr_prefix_index_t *idx, uint32_t engine_index);

void kvr_prefix_index_stats(const kvr_prefix_index_t *idx, kvr_prefix_index_stats_t *out);

#endif
