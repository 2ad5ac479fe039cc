/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ROUTER_H
#define KVR_ROUTER_ROUTER_H

/*
 * The gateway: the composition root that creates the decision core
 * (router/decide.h) and the parts around it on one libuv loop thread, and
 * wires them: the decider door (router/door.h), one upstream pool per
 * engine index, the proxy, the endpoints, the periodic work and discovery.
 * The router is opaque: its parts see one another only through the narrow
 * environments the router hands each of them. Single-threaded by design (the
 * shadow counters change synchronously inside the pick).
 */

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "common/engine_spec.h"
#include "router/config.h"
#include "router/door.h"
#include "router/models.h"

typedef struct kvr_router_s kvr_router_t;

/**
 * Creates the router from cfg (moved in: the router frees its engine list):
 * engine table, feed reader (ES=1 only), sessions, policy, admission,
 * decision log. No sockets yet. 0 with *out set, or -errno with a log line.
 */
int kvr_router_create(uv_loop_t *loop, kvr_router_config_t *cfg, kvr_router_t **out);
/** Frees what kvr_router_create made; after kvr_router_stop finished (or when it never started). */
void kvr_router_destroy(kvr_router_t *r);
/**
 * Starts serving: the HTTP server on --listen, the periodic work
 * (router/health.h) and discovery. 0 or -errno with a log line; on error,
 * kvr_router_stop closes whatever was started.
 */
int kvr_router_start(kvr_router_t *r);
/**
 * Stops serving: ends the requests in flight (kvr_proxy_cut_all: an SSE
 * error event or a 503, given up to a second to reach their clients), then
 * closes the server, the timers
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
 * Starts draining: new inference requests get 503, /readiness says
 * draining, and drained(r) runs when the last proxied request finishes
 * (not at all when none is in flight now: see kvr_router_in_flight).
 */
void kvr_router_drain(kvr_router_t *r, void (*drained)(kvr_router_t *r));
/** True once kvr_router_drain was called. */
bool kvr_router_draining(const kvr_router_t *r);
/** Proxied requests not finished. */
uint32_t kvr_router_in_flight(const kvr_router_t *r);
/** The loop the router runs on. */
uv_loop_t *kvr_router_loop(const kvr_router_t *r);
/** The configuration the router runs with. */
const kvr_router_config_t *kvr_router_config(const kvr_router_t *r);
/** The port the server listens on, or -1 before (or without) a successful start. */
int kvr_router_port(const kvr_router_t *r);
/** The admin listener's port (--admin-listen), -1 when off or not started. */
int kvr_router_admin_port(const kvr_router_t *r);
/** The decider door (router/door.h): the engine table, the pools, routing, for readers outside the parts. */
kvr_door_t *kvr_router_door(kvr_router_t *r);

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

#endif
