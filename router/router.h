/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ROUTER_H
#define KVR_ROUTER_ROUTER_H

/*
 * The gateway's state and its decision step. One router runs on one libuv
 * loop thread; everything here is single-threaded by design (the shadow
 * counters change synchronously inside the pick).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "common/http_server.h"
#include "router/admission.h"
#include "router/config.h"
#include "router/engines.h"
#include "router/feed.h"
#include "router/keys.h"
#include "router/metrics.h"
#include "router/policy.h"
#include "router/sessions.h"

typedef struct kvr_router_s {
    uv_loop_t *loop;
    kvr_router_config_t cfg;
    kvr_engine_table_t engines;
    kvr_feed_t feed;
    kvr_session_table_t sessions;
    const kvr_policy_ops_t *policy;
    void *policy_state;
    kvr_admission_t *admission;
    kvr_router_metrics_t metrics;
    FILE *decision_log;
    kvr_http_server_t *server;

    uv_timer_t health_timer;
    uv_timer_t housekeeping_timer;  /* session expiry, ES=0 reconciliation */
    bool timers_started;
    uint64_t next_reconcile_ns;
    uint32_t in_flight;             /* proxied requests not finished */
    uint32_t health_checks_pending;
    bool draining;
    uint64_t request_seq;           /* for generated request ids */
    uint64_t id_prefix;
    void (*on_drained)(struct kvr_router_s *r); /* draining and the last request finished */
    struct kvr_router_checks_s *checks;         /* health checks and reconciliation in flight */
    struct kvr_share_s *share;                  /* --share, NULL when off */
    uv_prepare_t share_prepare;                 /* publishes this router's row once per loop turn */
} kvr_router_t;

/** The outcome of one routing decision. */
typedef struct kvr_route_result_s {
    kvr_engine_t *engine;           /* NULL: no engine (see status) */
    int status;                     /* 0 routed, 503 no candidate, 429 admission rejected */
    const char *reason;             /* label counted in /metrics */
    const char *placement;          /* "oneshot" / "per-request" */
    bool pinned;                    /* served from an existing session pin */
    bool seed_lease;                /* admission lease to release at the end */
    uint32_t prefix_match_blocks;
    kvr_engine_view_t view;         /* the chosen engine's view (eff values used) */
    kvr_feed_state_t feed_state;
} kvr_route_result_t;

/**
 * Creates the router state from cfg (moved in: the router frees its engine
 * list): engine table, feed reader (ES=1 only), sessions, policy, admission,
 * decision log. No sockets yet. 0 or -errno with a log line.
 */
int kvr_router_init(kvr_router_t *r, uv_loop_t *loop, kvr_router_config_t *cfg);
/** Frees what kvr_router_init made; timers and the server must be closed already. */
void kvr_router_close(kvr_router_t *r);

/**
 * Routes one request: session pin (oneshot) or policy pick over the healthy
 * candidates not in exclude, then admission. On success the chosen engine is
 * already charged in charge (the caller must kvr_charge_end it on every path)
 * and the policy was told of the dispatch.
 */
void kvr_router_route(kvr_router_t *r, const kvr_route_request_t *req, const uint32_t *exclude,
                      size_t n_exclude, kvr_charge_t *charge, kvr_route_result_t *out);
/** True when some candidate engine is not in exclude. */
bool kvr_router_has_candidate(const kvr_router_t *r, const uint32_t *exclude, size_t n_exclude);

/** An engine failed (connect, health): counts it and takes it out after fail_threshold in a row. */
void kvr_router_engine_failed(kvr_router_t *r, kvr_engine_t *e, const char *why);
/** An engine answered: resets its failures and brings it back when it was out. */
void kvr_router_engine_ok(kvr_router_t *r, kvr_engine_t *e);
/** Adds an engine at run time (admin, SIGHUP): 0 or -errno. */
int kvr_router_add_engine(kvr_router_t *r, const char *url, kvr_engine_t **out);
/** Removes an engine (admin, SIGHUP); its in-flight requests finish. */
void kvr_router_remove_engine(kvr_router_t *r, kvr_engine_t *e);



/** Writes one decision log line (no-op without --decision-log). */
void kvr_router_log_decision(kvr_router_t *r, const char *request_id, const char *session_id,
                             const kvr_route_result_t *res, int status, uint32_t attempt);

#endif
