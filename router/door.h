/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_DOOR_H
#define KVR_ROUTER_DOOR_H

/*
 * The one way into the decision core (router/decide.h) from the gateway's
 * request path and periodic work: the proxy, the HTTP endpoints, the health
 * checks and discovery call these, never kvr_decide_* directly. Beside the
 * decider it holds what the gateway keys by engine index (the upstream
 * pools) and what it counts per decision (/metrics, the decision log), so
 * an engine taken out drops its idle connections and every decision is
 * counted in one place. The router (router/router.c) builds it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "router/decide.h"
#include "router/metrics.h"
#include "router/upstream.h"

typedef struct kvr_door_s {
    kvr_decider_t *decider;
    kvr_upstream_pool_t **pools; /* KVR_MAX_ENGINES, by engine index */
    kvr_router_metrics_t *metrics;
    FILE *decision_log; /* NULL without --decision-log */
} kvr_door_t;

/**
 * Routes one request (kvr_decide_route) and counts the outcome in /metrics.
 * On success the engine is charged in charge; the caller ends the attempt
 * with kvr_door_release on every path.
 */
void kvr_door_route(kvr_door_t *door, const kvr_route_request_t *req, const uint32_t *exclude,
                    size_t n_exclude, kvr_charge_t *charge, kvr_decide_result_t *out);
/** Ends an attempt: its shadow charge and any seeding lease. Idempotent. */
void kvr_door_release(kvr_door_t *door, kvr_charge_t *charge);
/** The first body byte of the answer to req (routed as res) arrived at now_ns: tells the policy. */
void kvr_door_first_byte(kvr_door_t *door, const kvr_route_request_t *req,
                         const kvr_decide_result_t *res, uint64_t now_ns);
/** True when some candidate engine serving model (NULL: any) is not in exclude. */
bool kvr_door_has_candidate(const kvr_door_t *door, const char *model, const uint32_t *exclude,
                            size_t n_exclude);
/** True when some candidate engine of role serving model is not in exclude. */
bool kvr_door_has_role_candidate(const kvr_door_t *door, const char *model, uint8_t role,
                                 const uint32_t *exclude, size_t n_exclude);
/** kvr_decide_resolve_model: which pool the request's model names. */
kvr_pool_t kvr_door_resolve_model(const kvr_door_t *door, const char *model, char *resolved,
                                  size_t cap);
/** kvr_decide_served_models: the distinct models served, sorted. */
size_t kvr_door_served_models(const kvr_door_t *door, const char **out, size_t cap);
/** Writes one decision log line (no-op without --decision-log). */
void kvr_door_log_decision(kvr_door_t *door, const char *request_id, const char *session_id,
                           const kvr_decide_result_t *res, int status, uint32_t attempt);

/** An engine failed (connect, health): counted; when it leaves the candidate set its idle connections go. */
void kvr_door_engine_failed(kvr_door_t *door, kvr_engine_t *e, const char *why);
/** An engine answered: its failures reset, back in the candidate set when it was out. */
void kvr_door_engine_ok(kvr_door_t *door, kvr_engine_t *e);

/** The upstream pool of engine index, or NULL. */
kvr_upstream_pool_t *kvr_door_pool(const kvr_door_t *door, uint32_t index);
/** The engine table, for reading (every slot, removed ones included). */
const kvr_engine_table_t *kvr_door_engines(const kvr_door_t *door);
/** The engine at index, removed or not, or NULL. */
kvr_engine_t *kvr_door_engine(const kvr_door_t *door, uint32_t index);
/** The engine at index if it still has that generation (its index was not given to another), or NULL. */
kvr_engine_t *kvr_door_lookup(const kvr_door_t *door, uint32_t index, uint32_t generation);
/** The engine with this id that is not removed, or NULL. */
kvr_engine_t *kvr_door_find_engine(const kvr_door_t *door, const char *id);

/** Housekeeping at now_ns: session pins idle past the TTL dropped (returns how many). */
size_t kvr_door_expire_sessions(kvr_door_t *door, uint64_t now_ns);
/** Housekeeping at now_ns: --share's tick (nothing when off). */
void kvr_door_share_tick(kvr_door_t *door, uint64_t now_ns);

#endif
