/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ENGINES_H
#define KVR_ROUTER_ENGINES_H

/*
 * The engine table and its shadow counters. An engine keeps its index for
 * its whole life (policies key their state by it); a removed engine stays
 * in the table, out of the candidate set, until its last in-flight request
 * finished, so every shadow charge is released against the struct it was
 * taken on. Only then may its index be freed (kvr_engine_table_free) and
 * handed to a new engine, with the next generation: an engine handle is
 * (index, generation), and whatever outlives an engine under its index
 * either checks the generation or is cleared when the index is freed
 * (router/decide.c, "Index reuse"). Engines are known by id only: resolving an id to an address
 * and the upstream connection pool are the libuv router's (router.h), so
 * the table links without sockets (router/decide.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include "router/models.h"
#include "router/policy.h"
#include "shm_layout/shm_layout.h"

#define KVR_ENGINE_SENT_RING 32

typedef struct kvr_engine_s {
    uint32_t index;
    uint32_t generation; /* of the index: bumped each time the index is freed */
    char *id;            /* base URL exactly as configured */
    /* The models it serves (router/models.h): empty = not known yet, serves any. */
    kvr_model_list_t models;
    bool models_pinned;      /* given in its spec: never replaced by /v1/models */
    bool models_failing;     /* the last /v1/models refresh failed (logged once per change) */
    kvr_engine_role_t role;  /* its spec's role=: only requests of that phase reach it */
    uint16_t bootstrap_port; /* its spec's bootstrap_port= (SGLang's KV server), 0: none */

    bool removed;                  /* left the table; kept while requests drain */
    bool healthy;                  /* in the candidate set */
    uint32_t consecutive_failures; /* connect failures and failed health checks in a row */
    uint64_t down_since_ns;

    /* Shadow counters: dispatched and not yet finished, on this router. */
    uint32_t shadow_requests;
    uint64_t shadow_pending_prefill_tokens;
    uint64_t shadow_kv_tokens;
    /* --share: the other live routers' shadow counters on this engine, summed before each decision. */
    uint32_t peer_requests;
    uint64_t peer_pending_prefill_tokens;
    uint64_t peer_kv_tokens;

    /* Feed mapping (ES=1): slot index valid for feed_generation, -1 when unknown;
     * the slot's last copy, reused while its seqlock counter has not moved. */
    int feed_slot;
    uint64_t feed_generation;
    kvr_shm_slot_cache_t feed_cache;
    /* ES=1: this router's latest dispatches here, so a decision adds those its feed sample
     * predates (router/feed.c). A ring: dispatches past KVR_ENGINE_SENT_RING since one sample
     * are not counted, and the shadow counters still bound eff from below. */
    uint64_t sent_ns[KVR_ENGINE_SENT_RING];
    uint32_t sent_tokens[KVR_ENGINE_SENT_RING]; /* uncached prompt tokens of each */
    uint32_t sent_next;
    /* ES=1: this router's latest ends here (time, its dispatch time, the KV it held), so a
     * decision knows what it had in flight when the feed sample was taken: a sample counts
     * requests that finished since. Ends past the ring since one sample are not counted. */
    uint64_t finish_ns[KVR_ENGINE_SENT_RING];
    uint64_t finish_sent_ns[KVR_ENGINE_SENT_RING];
    uint32_t finish_kv_tokens[KVR_ENGINE_SENT_RING];
    uint32_t finish_next;
    /* ES=1: load this router did not send, at the last sample seen (router/feed.c), and how
     * fast it grew from sample to sample (requests per second, EWMA). */
    uint64_t external_sample_ns; /* 0: none seen yet */
    uint32_t external_requests;
    double external_growth_per_s;

    /* Totals for /metrics. */
    uint64_t dispatched_total;
    uint64_t failures_total;
    uint64_t models_failures_total; /* /v1/models refreshes that failed or listed nothing */
    /* ES=0 reconciliation: shadow requests minus the engine's running + waiting at the last scrape. */
    int64_t reconcile_drift;
    uint64_t reconciled_ns; /* 0 = never */
} kvr_engine_t;

/** Engine indexes a table holds unless told otherwise (--max-engines). */
#define KVR_ENGINES_DEFAULT 1024u
_Static_assert(KVR_ENGINES_DEFAULT == KVR_SHM_DEFAULT_CAPACITY,
               "a default segment must hold a default router's engines");

typedef struct kvr_engine_table_s {
    kvr_engine_t **engines; /* max_engines entries; NULL: a free index */
    uint32_t *generations;  /* per index: the generation its next engine gets */
    uint32_t *free_indexes; /* ring of freed indexes, reused first freed first */
    uint32_t free_first;    /* position of the oldest in the ring */
    uint32_t n_free;
    uint32_t max_engines;
    uint32_t n_slots;     /* indexes handed out so far (loops run to it); some may be free */
    uint32_t count;       /* engines not removed */
    uint64_t freed_total; /* indexes freed for reuse */
} kvr_engine_table_t;

/** A table of max_engines indexes (1..KVR_MAX_ENGINES; 0: KVR_ENGINES_DEFAULT). 0, -EINVAL or -ENOMEM. */
int kvr_engine_table_init(kvr_engine_table_t *t, uint32_t max_engines);
/** Frees every engine. */
void kvr_engine_table_close(kvr_engine_table_t *t);
/**
 * Adds the engine named id (a removed engine of the same id still in the
 * table comes back at its old index and generation; otherwise a freed index
 * is reused with its next generation, or a new one taken). 0 with *out set,
 * -EINVAL (empty id), -EEXIST, -ENAMETOOLONG (the feed could never name
 * it), -ENOSPC (every index held) or -ENOMEM.
 */
int kvr_engine_table_add(kvr_engine_table_t *t, const char *id, kvr_engine_t **out);
/**
 * Frees the index of e, a removed engine with no charge left: e is freed,
 * the index's generation bumped and the index kept for the next add. The
 * caller has cleared whatever it keyed by the index. -EBUSY when e is not
 * removed or still charged (nothing done), else 0.
 */
int kvr_engine_table_free(kvr_engine_table_t *t, kvr_engine_t *e);
/** The engine with this id that is not removed, or NULL. */
kvr_engine_t *kvr_engine_table_find(const kvr_engine_table_t *t, const char *id);
/** Takes e out of the candidate set for good (its in-flight requests finish). */
void kvr_engine_table_remove(kvr_engine_table_t *t, kvr_engine_t *e);
/** The engine at index, removed or not, or NULL. */
kvr_engine_t *kvr_engine_table_get(const kvr_engine_table_t *t, uint32_t index);
/** The engine at index if it is still the one of generation, else NULL. */
kvr_engine_t *kvr_engine_table_lookup(const kvr_engine_table_t *t, uint32_t index,
                                      uint32_t generation);
/** True when e serves model (NULL: any): it lists it, or its list is not known yet. */
static inline bool kvr_engine_serves(const kvr_engine_t *e, const char *model)
{
    return !model || e->models.n == 0 || kvr_model_list_has(&e->models, model);
}
/** True when e may receive new requests. */
static inline bool kvr_engine_is_candidate(const kvr_engine_t *e)
{
    return e && !e->removed && e->healthy;
}

/**
 * One request's charge on one engine's shadow counters. Taken in the pick,
 * moved along as the response streams, released exactly once whatever ends
 * the request (kvr_charge_end is idempotent).
 */
typedef struct kvr_charge_s {
    kvr_engine_t *engine; /* NULL when no charge is held */
    uint32_t prompt_tokens;
    bool prefill_pending; /* no response byte yet */
    uint64_t kv_tokens;   /* what this request adds to shadow_kv_tokens now */
    bool seed_lease;      /* admitted under a seeding lease: kvr_decide_release returns it */
    uint64_t sent_ns;     /* its entry in the engine's sent ring (0: none), cleared at the end */
} kvr_charge_t;

/** Charges a new request of prompt_tokens on e: one in flight, prefill pending, KV held. */
void kvr_charge_begin(kvr_charge_t *c, kvr_engine_t *e, uint32_t prompt_tokens);
/** The first response byte arrived: the prompt is prefilled. */
void kvr_charge_first_byte(kvr_charge_t *c);
/** generated_tokens so far (estimated from the stream): KV held = prompt + generated. */
void kvr_charge_progress(kvr_charge_t *c, uint64_t generated_tokens);
/** Releases everything the charge holds; a second call does nothing. */
void kvr_charge_end(kvr_charge_t *c);

#endif
