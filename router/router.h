/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ROUTER_H
#define KVR_ROUTER_ROUTER_H

/*
 * The gateway: the decision core (router/decide.h) on a libuv loop, with
 * what talks to engines on this side: one upstream pool per engine index,
 * health checks, the HTTP server and the proxy. One router runs on one
 * libuv loop thread; everything here is single-threaded by design (the
 * shadow counters change synchronously inside the pick).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "common/http_server.h"
#include "router/config.h"
#include "router/decide.h"
#include "router/keys.h"
#include "router/metrics.h"
#include "router/upstream.h"

typedef struct kvr_router_s {
    uv_loop_t *loop;
    kvr_router_config_t cfg;
    kvr_decider_t decider;          /* engines, shadow counters, sessions, feed, policy, admission */
    /*
     * The upstream pool of each engine index (--max-engines entries), and
     * the generation of the engine it was made for: kept while the engine is
     * out or removed (a removed engine that comes back reuses it); replaced
     * when its index is given to another engine; otherwise destroyed only by
     * kvr_router_stop / kvr_router_close.
     */
    kvr_upstream_pool_t **pools;
    uint32_t *pool_generations;
    /* Finished objects kept for the next requests: the proxy's state, the pools' upstream requests. */
    kvr_recycle_t proxies;
    kvr_recycle_t upstream_requests;
    kvr_router_metrics_t metrics;
    FILE *decision_log;
    kvr_http_server_t *server;

    uv_timer_t health_timer;
    uv_timer_t housekeeping_timer;  /* session expiry, ES=0 reconciliation */
    bool timers_started;
    uint64_t next_reconcile_ns;
    uint32_t in_flight;             /* proxied requests not finished */
    bool draining;
    uint64_t request_seq;           /* for generated request ids */
    uint64_t id_prefix;
    void (*on_drained)(struct kvr_router_s *r); /* draining and the last request finished */
    void (*on_stopped)(struct kvr_router_s *r); /* kvr_router_stop finished */
    struct kvr_router_checks_s *checks;         /* health checks and reconciliation in flight */
    struct kvr_share_s *share;                  /* --share, NULL when off */
    uv_prepare_t share_prepare;                 /* publishes this router's row once per loop turn */
    struct kvr_router_discovery_s *discovery;   /* --engine-dns, NULL when none */
    struct kvr_router_add_s *adds;              /* engines waiting for their name's address */
} kvr_router_t;

/**
 * Creates the router state from cfg (moved in: the router frees its engine
 * list): engine table, feed reader (ES=1 only), sessions, policy, admission,
 * decision log. No sockets yet. 0 or -errno with a log line.
 */
int kvr_router_init(kvr_router_t *r, uv_loop_t *loop, kvr_router_config_t *cfg);
/** Frees what kvr_router_init made; after kvr_router_stop finished (or when it never started). */
void kvr_router_close(kvr_router_t *r);
/**
 * Starts serving: the HTTP server on --listen and the periodic work
 * (router/health.h). 0 or -errno with a log line; on error, kvr_router_stop
 * closes whatever was started.
 */
int kvr_router_start(kvr_router_t *r);
/**
 * Stops serving: closes the server (open requests are dropped), the timers
 * and checks, then every upstream pool (the one place they are destroyed).
 * stopped(r) runs when the server's and timers' handles are closed; the loop
 * then ends once the pools' last connections closed.
 */
void kvr_router_stop(kvr_router_t *r, void (*stopped)(kvr_router_t *r));
/**
 * Re-reads the engine list of --config (SIGHUP): engines not in it are
 * removed (their requests finish; engines an --engine-dns name added stay),
 * new ones added; other flags keep their start-up values. 0, -ENOENT without --config, or the file's error (logged;
 * the table is unchanged).
 */
int kvr_router_reload(kvr_router_t *r);

/**
 * Routes one request through the decision core (kvr_decide_route) and
 * counts the outcome in /metrics. On success the chosen engine is already
 * charged in charge (the caller ends the attempt with kvr_decide_release on
 * every path) and the policy was told of the dispatch.
 */
void kvr_router_route(kvr_router_t *r, const kvr_route_request_t *req, const uint32_t *exclude,
                      size_t n_exclude, kvr_charge_t *charge, kvr_decide_result_t *out);
/** True when some candidate engine is not in exclude. */
bool kvr_router_has_candidate(const kvr_router_t *r, const uint32_t *exclude, size_t n_exclude);
/** True when some candidate engine serving model (NULL: any) is not in exclude. */
bool kvr_router_has_candidate_for(const kvr_router_t *r, const char *model, const uint32_t *exclude,
                                  size_t n_exclude);

/** An engine failed (connect, health): counts it, takes it out after fail_threshold in a row (idle connections dropped). */
void kvr_router_engine_failed(kvr_router_t *r, kvr_engine_t *e, const char *why);
/** An engine answered: resets its failures and brings it back when it was out. */
void kvr_router_engine_ok(kvr_router_t *r, kvr_engine_t *e);
/** The first body byte of the streamed answer to req (routed as res) arrived now: tells the policy. */
void kvr_router_first_byte(kvr_router_t *r, const kvr_route_request_t *req, const kvr_decide_result_t *res,
                           uint64_t now_ns);
/**
 * Adds an engine from its spec "URL[,model=NAME]...": 0 or -errno. A host
 * name is resolved now, blocking: for start-up, before the loop runs, and
 * for address literals (--engine-dns answers); a running router adds named
 * engines with kvr_router_add_engine_async.
 */
int kvr_router_add_engine(kvr_router_t *r, const char *spec, kvr_engine_t **out);
/**
 * How an add ended: 0 with e, or -EEXIST, -EHOSTUNREACH (the name does not
 * resolve), -EAGAIN (the resolver failed), -ECANCELED (the router stopped
 * or a later reload replaced it), other -errno; why says it in one line.
 */
typedef void (*kvr_router_added_fn)(kvr_router_t *r, int status, const char *url, kvr_engine_t *e,
                                    const char *why, void *arg);
/**
 * Adds the engine of spec serving the pinned models (moved from; none:
 * learnt from /v1/models) once its host resolved on libuv's threadpool, so
 * the loop never waits for a resolver; an address literal is added at once.
 * done runs exactly once, possibly before this returns.
 */
void kvr_router_add_engine_async(kvr_router_t *r, const kvr_engine_spec_t *spec,
                                 kvr_model_list_t *pinned, bool from_reload,
                                 kvr_router_added_fn done, void *arg);
/** Removes an engine (admin, SIGHUP); its in-flight requests finish. */
void kvr_router_remove_engine(kvr_router_t *r, kvr_engine_t *e);
/** The upstream pool of engine index, or NULL. */
static inline kvr_upstream_pool_t *kvr_router_pool(const kvr_router_t *r, uint32_t index)
{
    return r->pools && index < r->decider.engines.max_engines ? r->pools[index] : NULL;
}



/** Writes one decision log line (no-op without --decision-log). */
void kvr_router_log_decision(kvr_router_t *r, const char *request_id, const char *session_id,
                             const kvr_decide_result_t *res, int status, uint32_t attempt);

#endif
