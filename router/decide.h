/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_DECIDE_H
#define KVR_ROUTER_DECIDE_H

/*
 * The decision core: everything the router decides per request, with no
 * event loop, no socket and no clock of its own. It owns the engine table
 * and its shadow counters, the session pins and their TTL, the feed reader
 * (views with eff = shadow + the sample's load not its own and their age checks, through
 * shm_layout/), the policy, and admission with its seeding leases. Every
 * call that depends on time takes it as now_ns (CLOCK_MONOTONIC in the
 * gateway, virtual time in a simulation), so the same inputs give the same
 * decisions.
 *
 * The libuv router (router/router.h) embeds one kvr_decider_t and keeps
 * what talks to engines (upstream pools, health checks, the proxy) on its
 * side, keyed by engine index. A simulator links kvr_decide alone.
 *
 * Single-threaded: a decider is used from one thread. A routed request
 * holds a kvr_charge_t (shadow counters, and any seeding lease) from
 * kvr_decide_route until kvr_decide_release, which every path that ends an
 * attempt calls exactly once (a second call does nothing).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "router/admission.h"
#include "router/cache_state.h"
#include "router/engines.h"
#include "router/feed.h"
#include "router/policy.h"
#include "router/sessions.h"

/** What the core is built from; strings are copied. */
typedef struct kvr_decide_config_s {
    const char *policy;        /* a registered policy name (kvr_policy_find) */
    const char *decode_policy; /* for role=decode engines' phase; NULL or "": policy */
    kvr_policy_config_t policy_config;
    kvr_placement_t placement; /* oneshot: a session's first pick is pinned */
    uint32_t migrate_load;     /* re-home a pin whose engine has more eff requests; 0 = off */
    kvr_admission_mode_t admission;
    kvr_admission_order_t
        admission_order; /* after (kvroute) or before (the peer gateway's order) */
    uint32_t max_waiting;
    uint64_t session_ttl_ns; /* idle time after which a pin is forgotten */
    size_t max_sessions;
    uint32_t fail_threshold; /* failures in a row that take an engine out (>= 1) */
    bool es;                 /* read the statefeed segment (ES=1) */
    const char *shm_name;    /* the segment's name (ES=1) */
    int64_t shm_owner_uid;   /* the uid that must own the segment; -1: this process's own */
    uint64_t max_age_ns;     /* heartbeat and sample age beyond which the feed is stale */
    uint32_t max_engines;    /* engine indexes (1..KVR_MAX_ENGINES); 0: KVR_ENGINES_DEFAULT */
    bool es_max_only;     /* eff = max(shadow, real), the sample not split into own and the rest */
    bool es_no_spread;    /* no herding guard: the plain argmin even when other routers show */
    uint64_t spread_seed; /* this router's draws among near-equal picks; give each router its own */
    kvr_cache_state_mode_t cache_state; /* where prefix matches come from (router/cache_state.h) */
} kvr_decide_config_t;

/** What became of the request's session pin in this decision. */
typedef enum {
    KVR_DECIDE_PIN_NONE = 0, /* no session, per-request placement, kept pin, or no pick */
    KVR_DECIDE_PIN_NEW,      /* first placement of the session */
    KVR_DECIDE_PIN_REPLACED, /* the pin's engine is unhealthy, gone or excluded: placed again */
    KVR_DECIDE_PIN_MIGRATED, /* the pin's engine was overloaded: re-homed */
} kvr_decide_pin_t;

/** The outcome of one routing decision. */
typedef struct kvr_decide_result_s {
    kvr_engine_t *engine;   /* NULL: no engine (see status) */
    int status;             /* 0 routed, 503 no candidate, 429 admission rejected */
    const char *reason;     /* policy label, "sticky_pin", "seed_lease", "no_candidate", ... */
    const char *placement;  /* "oneshot" / "per-request" */
    bool pinned;            /* served from an existing session pin */
    bool seed_lease;        /* admitted under a seeding lease (also held in the charge) */
    bool pressure_fallback; /* the policy set KVR_DECISION_PRESSURE_FALLBACK */
    bool input_clamped;     /* the policy set KVR_DECISION_INPUT_CLAMPED */
    kvr_decide_pin_t pin;
    uint32_t prefix_match_blocks;
    uint32_t prompt_tokens;   /* the request's, as routed on */
    bool prompt_tokens_exact; /* counted by the model's tokenizer, not bytes/4 */
    kvr_engine_view_t view;   /* the chosen engine's view, before its own charge */
    kvr_feed_state_t feed_state;
    kvr_match_from_t match_from; /* where prefix_match_blocks came from */
    size_t n_matches;            /* candidates with a match, deepest first (at most 8) */
    kvr_cache_match_t matches[KVR_CACHE_LOG_MATCHES];
    const char *prefill_engine; /* disaggregated: the engine that prefilled for engine, else NULL */
} kvr_decide_result_t;

typedef struct kvr_decider_s {
    kvr_decide_config_t cfg; /* cfg.policy and cfg.shm_name point at the copies below */
    char policy_name[64];
    char shm_name[256];
    kvr_engine_table_t engines;
    kvr_feed_t feed;
    kvr_cache_state_t cache; /* --cache-state: engines' own reports of their caches */
    kvr_session_table_t sessions;
    const kvr_policy_ops_t *policy;
    void *policy_state;
    const kvr_policy_ops_t *decode_policy; /* NULL: policy decides the decode phase too */
    void *decode_policy_state;
    kvr_admission_t *admission;
    /* Rebuilt per decision: one buffer for the whole table avoids a big stack frame. */
    kvr_engine_view_t *views;
    kvr_engine_columns_t columns; /* the views' fields the policies' passes read */
    kvr_feed_state_t *states;
    /* Per-pool keys of the request being routed: block hashes and session id with the model folded in. */
    uint64_t *pool_hashes;
    size_t pool_hashes_cap;
    char *pool_session;
    size_t pool_session_cap;
    /* --share (router/share.h): other routers' charge, placements and pins; NULL when off. */
    struct kvr_share_s *share;
    bool reclaim_due; /* a removed engine may have no charge left: free its index */
} kvr_decider_t;

/**
 * Builds the core with no engine: policy, admission, sessions, and the feed
 * reader (with es false it never opens the segment). 0, -EINVAL (unknown
 * policy or bad value, logged) or -ENOMEM.
 */
int kvr_decide_init(kvr_decider_t *d, const kvr_decide_config_t *cfg);
/** Frees what kvr_decide_init made and every engine. */
void kvr_decide_close(kvr_decider_t *d);

/**
 * Adds engine id (a removed one still draining comes back at its old index;
 * otherwise a freed index may be reused, with the next generation): 0 with
 * *out set or a kvr_engine_table_add error.
 */
int kvr_decide_add_engine(kvr_decider_t *d, const char *id, kvr_engine_t **out);
/**
 * Frees the index of every removed engine with no charge left, clearing what
 * the core keeps under it (policy state, pins, share key). Adds, decisions
 * and session expiry do it themselves; an engine pointer of a freed index
 * must not be used after it.
 */
void kvr_decide_reclaim(kvr_decider_t *d);
/** Takes e out of the candidate set for good and tells the policy; false when it was removed already. */
bool kvr_decide_remove_engine(kvr_decider_t *d, kvr_engine_t *e);
/** The engine with this id that is not removed, or NULL. */
kvr_engine_t *kvr_decide_find_engine(const kvr_decider_t *d, const char *id);
/** The engine at index, removed or not, or NULL. */
kvr_engine_t *kvr_decide_engine(const kvr_decider_t *d, uint32_t index);

/**
 * Routes one request at req->now_ns: refreshes the feed, builds a view of
 * every healthy candidate not in exclude, then the session pin (oneshot) or
 * the policy's pick, then admission. On success (engine set, status 0) the
 * engine is charged in charge (which must hold no charge) and the policy was
 * told of the dispatch; the caller ends the attempt with kvr_decide_release.
 * On 503 or 429 nothing is charged or leased.
 */
void kvr_decide_route(kvr_decider_t *d, const kvr_route_request_t *req, const uint32_t *exclude,
                      size_t n_exclude, kvr_charge_t *charge, kvr_decide_result_t *out);
/** Ends an attempt: releases the shadow charge and any seeding lease it holds. Idempotent. */
void kvr_decide_release(kvr_decider_t *d, kvr_charge_t *charge);
/** kvr_decide_release at now_ns (CLOCK_MONOTONIC, or a simulator's clock; the plain call reads
 * CLOCK_MONOTONIC): the feed counts the end back into what this router had in flight at a
 * sample taken before now_ns. */
void kvr_decide_release_at(kvr_decider_t *d, kvr_charge_t *charge, uint64_t now_ns);
/** --share housekeeping (kvr_share_tick): the other routers' placements read there reach the policy too. */
void kvr_decide_share_tick(kvr_decider_t *d, uint64_t now_ns);
/** True when some candidate engine is not in exclude. */
bool kvr_decide_has_candidate(const kvr_decider_t *d, const uint32_t *exclude, size_t n_exclude);
/** True when some candidate engine serving model (NULL: any) is not in exclude. */
bool kvr_decide_has_candidate_for(const kvr_decider_t *d, const char *model,
                                  const uint32_t *exclude, size_t n_exclude);
/** Like kvr_decide_has_candidate_for among engines of role (kvr_engine_role_t) only. */
bool kvr_decide_has_role_candidate(const kvr_decider_t *d, const char *model, uint8_t role,
                                   const uint32_t *exclude, size_t n_exclude);

/** Which pool a request's model names (kvr_decide_resolve_model). */
typedef enum {
    KVR_POOL_ANY = 0,   /* no model given and none is known: every engine is a candidate */
    KVR_POOL_LISTED,    /* some engine lists the model (or it is the one model served) */
    KVR_POOL_UNLISTED,  /* no engine lists it, but some engine's list is not known yet */
    KVR_POOL_UNKNOWN,   /* no engine serves it: 404 model_not_found */
    KVR_POOL_AMBIGUOUS, /* no model given and several are served: 400 */
} kvr_pool_t;

/**
 * Resolves a request's model (NULL when the body names none) against the
 * engines in the table: with no model and exactly one served, that one is
 * copied into resolved (cap bytes, "" otherwise). Engines whose list is
 * not known yet serve any model (router/models.h).
 */
kvr_pool_t kvr_decide_resolve_model(const kvr_decider_t *d, const char *model, char *resolved,
                                    size_t cap);
/**
 * The distinct models the engines in the table list, sorted, into out (at
 * most cap; returns how many there are in all). The pointers are valid
 * until an engine's list changes.
 */
size_t kvr_decide_served_models(const kvr_decider_t *d, const char **out, size_t cap);

/**
 * An attempt on e failed at now_ns (connect, reset, 5xx, health): counts it;
 * after fail_threshold in a row e leaves the candidate set. True when this
 * call took it out (the caller drops its idle connections).
 */
bool kvr_decide_engine_failed(kvr_decider_t *d, kvr_engine_t *e, const char *why, uint64_t now_ns);
/** e answered at now_ns: resets its failures and brings it back when it was out (and not removed). */
void kvr_decide_engine_ok(kvr_decider_t *d, kvr_engine_t *e, uint64_t now_ns);
/** The first body byte of the streamed answer to req (routed as res) arrived at now_ns: tells the policy. */
void kvr_decide_first_byte(kvr_decider_t *d, const kvr_route_request_t *req,
                           const kvr_decide_result_t *res, uint64_t now_ns);

/** Drops session pins idle past the TTL at now_ns; returns how many. */
size_t kvr_decide_expire_sessions(kvr_decider_t *d, uint64_t now_ns);
/** Refreshes the feed at now_ns (route does it itself): for readers outside a decision. */
void kvr_decide_refresh_feed(kvr_decider_t *d, uint64_t now_ns);
/**
 * e's view at now_ns without counting it as a decision's read (for /engines
 * and /metrics); call kvr_decide_refresh_feed first. Returns the feed state.
 */
kvr_feed_state_t kvr_decide_view(kvr_decider_t *d, kvr_engine_t *e, uint64_t now_ns,
                                 kvr_engine_view_t *view);

/**
 * Writes res as one decision log line to f (the format of router/README.md,
 * "Decision log") and flushes it. status: what the client got; attempt:
 * engines tried; ts_ms: the line's time (the wall clock in the gateway,
 * virtual time in a simulation).
 */
void kvr_decide_log(const kvr_decider_t *d, FILE *f, const char *request_id, const char *session_id,
                    const kvr_decide_result_t *res, int status, uint32_t attempt, uint64_t ts_ms);

#endif
