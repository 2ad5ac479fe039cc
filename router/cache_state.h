/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_CACHE_STATE_H
#define KVR_ROUTER_CACHE_STATE_H

/*
 * --cache-state: where a prefix-aware policy's match length of an engine
 * comes from. "own" is the router's prefix index (what it sent where); the
 * residency table (shm_layout/residency.h), which statefeed fills from the
 * engines' KV events, says what each engine holds. The source is consulted
 * through kvr_match_source_t (router/policy.h) after the own index, so every
 * policy reading matches sees it alike:
 *  - auto (default): an engine's match comes from the table while the table
 *    is up (its writer's heartbeat fresh, the same writer as the state
 *    segment's), trusts that engine and the engine's state-segment slot is
 *    fresh (healthy, younger than the max age: the slot is this engine's and
 *    its writer follows it now); from the own index otherwise;
 *  - events: from the table alone, 0 where the table does not know;
 *  - own: the own index alone, the table is never opened.
 * The table names blocks by token ids, so a request needs token block
 * hashes (a pool with --tokenizer: req->token_blocks); one keyed on text
 * uses the own index.
 * Engines are found in the table by their state segment slot, so the table
 * needs ES=1.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "router/engines.h"
#include "router/feed.h"
#include "router/policy.h"
#include "shm_layout/residency.h"

typedef enum {
    KVR_CACHE_STATE_AUTO = 0,
    KVR_CACHE_STATE_EVENTS,
    KVR_CACHE_STATE_OWN,
} kvr_cache_state_mode_t;

/** Where one candidate's match came from. */
typedef enum {
    KVR_MATCH_FROM_OWN = 0,
    KVR_MATCH_FROM_EVENTS = 1,
} kvr_match_from_t;

/** One candidate's match as the decision log shows it. */
typedef struct kvr_cache_match_s {
    uint32_t engine_index;
    uint32_t engine_generation;
    uint32_t blocks; /* in the request's blocks (KVR_ROUTE_BLOCK_TOKENS tokens each) */
    uint8_t from;    /* kvr_match_from_t */
} kvr_cache_match_t;

/* Deepest candidates' matches a decision keeps for its log line. */
#define KVR_CACHE_LOG_MATCHES 8

/* Credit of a block held off the GPU: it must be copied back before prefill reuses it. */
#define KVR_CACHE_HOST_CREDIT 0.5
#define KVR_CACHE_DISK_CREDIT 0.25

typedef struct kvr_cache_state_s {
    kvr_cache_state_mode_t mode;
    kvr_match_source_t source; /* what the core hands the policies; apply is NULL in own mode */
    const kvr_engine_table_t *engines;
    const kvr_feed_t *feed;
    char name[300]; /* the table's shm name, beside the state segment */
    uid_t owner_uid;
    uint64_t max_age_ns;
    kvr_residency_reader_t reader;
    bool open;
    uint64_t next_open_ns;
    int last_error;           /* logged once per change */
    kvr_res_match_t *results; /* per lookup, up to the table's engines */
    size_t results_cap;
    /* The current decision's table answer, taken at its first walk (kvr_cache_state_begin resets). */
    bool looked_up;
    bool tokens;    /* the request has token hashes */
    bool up;        /* the table served it */
    size_t n_found; /* results of its lookup */
    /* The current decision's candidates: where each view's match came from. */
    uint8_t *from;
    size_t n_from;
    size_t n_applied; /* views the source saw in this decision (0: none, all own) */
    kvr_cache_match_t
        deepest[KVR_CACHE_LOG_MATCHES]; /* its candidates with a match, deepest first */
    size_t n_deepest;
    /* Counters for /metrics. */
    uint64_t lookups_total;     /* table lookups, one per decision at most */
    uint64_t hits_total[2];     /* candidates with a match > 0, by kvr_match_from_t */
    uint64_t no_tokens_total;   /* decisions without token hashes: own index */
    uint64_t table_down_total;  /* decisions the table could not serve */
    uint64_t untrusted_engines; /* candidates of the last lookup the table distrusts */
    uint64_t stale_slots_total; /* candidates the table was not read for: their slot not fresh */
    uint64_t untrusted_total;   /* candidates with a fresh slot the table did not trust */
    uint64_t opens_total;
} kvr_cache_state_t;

/** "auto", "events", "own"; NULL-terminated, for the flag's row. */
extern const char *const kvr_cache_state_names[];

/**
 * Sets up --cache-state mode for a router reading the state segment through
 * feed (engines' slots) and the table beside shm_name owned by owner_uid.
 * Nothing is opened yet. 0, -EINVAL (bad name), -ENOMEM.
 */
int kvr_cache_state_init(kvr_cache_state_t *cs, kvr_cache_state_mode_t mode,
                         const kvr_engine_table_t *engines, const kvr_feed_t *feed,
                         const char *shm_name, uid_t owner_uid, uint64_t max_age_ns);
void kvr_cache_state_close(kvr_cache_state_t *cs);

/** A decision begins: nothing of the previous one's candidates is reported for it. */
void kvr_cache_state_begin(kvr_cache_state_t *cs);

/** The source to put in a request (NULL in own mode). */
const kvr_match_source_t *kvr_cache_state_source(const kvr_cache_state_t *cs);

/** Where view v's match came from in the last decision. */
kvr_match_from_t kvr_cache_state_from(const kvr_cache_state_t *cs, size_t v);

/** "events" or "own". */
const char *kvr_match_from_name(kvr_match_from_t from);

#endif
