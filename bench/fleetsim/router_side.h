/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_FLEETSIM_ROUTER_SIDE_H
#define KVR_BENCH_FLEETSIM_ROUTER_SIDE_H

/*
 * The simulator's only contact with the router: one decision core
 * (router/decide.h) per simulated router, configured from kvroute's own
 * flags by kvroute's own parser, asked to route with the virtual clock, and
 * told when a request's first byte came back and when it ended. Everything
 * the router decides (engine table, shadow counters, pins, feed views,
 * policy, admission, decision log) is the router's code, unchanged.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/engine_spec.h"
#include "router/admission.h"
#include "router/policy.h"

typedef struct kvr_fleet_router_s kvr_fleet_router_t;

/** What the simulator imposes on every router over the user's router flags. */
typedef struct kvr_fleet_router_setup_s {
    char *const *engine_urls; /* the fleet, in engine index order */
    size_t n_engines;
    const char *shm_name;     /* the feed segment (read only when ES=1) */
    const char *decision_log; /* "" = none */
    int es;                   /* -1 = the router's default (ES env, else 1) */
    const char *policy;       /* NULL = from the router flags */
    bool seed_set;
    uint64_t seed; /* the policies' seed when seed_set */
    kvr_admission_order_t
        admission_order;   /* after: kvroute's; before: the peer gateway's, for comparison */
    uint32_t router_index; /* k of M: each router's own draws among near-equal picks */
    /* Engine i's role=, NULL: every engine both; with roles the decode phase is routed by
     * --pd-decode-policy, as kvroute routes it with --pd-protocol */
    const kvr_engine_role_t *engine_roles;
} kvr_fleet_router_setup_t;

/**
 * Parses the router flags argv[0..argc) (as kvroute takes them, without a
 * program name), applies setup and builds the router. 0, or -EINVAL /
 * -ENOMEM with a one-line reason in err. Flags naming engines, a listen
 * address or a config file are refused: the simulator owns them.
 */
int kvr_fleet_router_create(kvr_fleet_router_t **out, int argc, char **argv,
                            const kvr_fleet_router_setup_t *setup, char *err, size_t err_len);
void kvr_fleet_router_destroy(kvr_fleet_router_t *r);

/** Prints the router flags the simulator passes through (kvroute's --help list). */
void kvr_fleet_router_help(FILE *out);

/** The routing outcome the simulator keeps per request (opaque to it but for these fields). */
typedef struct kvr_fleet_route_s {
    int engine; /* engine index, -1 when refused */
    int status; /* 0 routed, 429, 503 */
    void *impl; /* the router's charge and result */
} kvr_fleet_route_t;

/** Routes req at req->now_ns; on success the engine is charged until kvr_fleet_router_end. */
void kvr_fleet_router_route(kvr_fleet_router_t *r, const kvr_route_request_t *req,
                            kvr_fleet_route_t *route);
/** The engine's first response byte reached the router. */
void kvr_fleet_router_first_byte(kvr_fleet_route_t *route);
/** The answer's first token reached the router at now_ns: the policy's first-byte hook, as the proxy calls it. */
void kvr_fleet_router_first_token(kvr_fleet_route_t *route, uint64_t now_ns);
/** generated tokens streamed so far. */
void kvr_fleet_router_progress(kvr_fleet_route_t *route, uint64_t generated);
/**
 * The request ended with status (the answer's, or the refusal's): releases
 * the charge and any seeding lease, writes the decision log line, frees the
 * route's state. Called exactly once per kvr_fleet_router_route.
 */
void kvr_fleet_router_end(kvr_fleet_router_t *r, kvr_fleet_route_t *route, const char *request_id,
                          const char *session_id, int status, uint64_t now_ns);

/** Sum over engines of this router's shadow counters (all zero once every request ended). */
typedef struct kvr_fleet_shadow_s {
    uint64_t requests, pending_prefill_tokens, kv_tokens;
} kvr_fleet_shadow_t;
void kvr_fleet_router_shadow(const kvr_fleet_router_t *r, kvr_fleet_shadow_t *out);

/** The configured policy name, placement and ES arm, for the run's header. */
const char *kvr_fleet_router_policy(const kvr_fleet_router_t *r);
bool kvr_fleet_router_es(const kvr_fleet_router_t *r);

/** Decisions by feed state (ES=1): fresh reads and each fallback reason, as "name=count ..." into out. */
void kvr_fleet_router_feed_counts(const kvr_fleet_router_t *r, char *out, size_t len);

#endif
