/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PREFIX_INDEX_H
#define KVR_ROUTER_PREFIX_INDEX_H

/*
 * The router's guess of what each engine holds in its prefix (KV) cache:
 * chained 64-byte block hashes (common/prefix_hash.h) mapped to the engines
 * they were recently sent to. Each engine's entries form an LRU list bounded
 * by a token budget that approximates its KV capacity; entries older than a
 * TTL count as gone; a fleet-wide cap on entries bounds memory. Matching
 * walks the request's blocks once and yields every engine's matched prefix
 * length, so its cost depends on the prompt, not on how many sessions live
 * in the index.
 */

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
 * Walks hashes[0..n_blocks) once. match_blocks[v] receives the matched prefix
 * length (in blocks) of views[v]'s engine; when placed_ns is not NULL,
 * placed_ns[v] receives when that engine was first sent its deepest matched
 * block (0 without a match). Returns the longest match over the views.
 */
uint32_t kvr_prefix_index_match(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                                uint64_t now_ns, const kvr_engine_view_t *views, size_t n_views,
                                uint32_t *match_blocks, uint64_t *placed_ns);

/**
 * kvr_prefix_index_learn then kvr_prefix_index_match, in one pass over the
 * views while no capacity changed: what a policy runs per decision.
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
