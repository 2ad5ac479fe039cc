/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_ROUTER_FAKE_ENGINE_H
#define KVR_TESTS_ROUTER_FAKE_ENGINE_H

/*
 * Scripted engines for the gateway's integration tests: n HTTP servers on
 * one libuv loop in a thread of the test process. Each request's behaviour
 * comes from its X-Fake header (forwarded by kvroute untouched) or from a
 * per-engine override, e.g. "chunks=5,interval_ms=20", "status=500",
 * "hang=1", "hold=1", "cut=2,chunks=10", "delay_ms=100", "echo=1" (answers
 * {"len":N,"fnv":"<FNV-1a of the body>"}).
 * Non-streamed answers are {"engine":i,...}; streams are SSE events
 * "data: {\"engine\":i,\"n\":k}\n\n" then "data: [DONE]\n\n".
 */

#include <stdatomic.h>
#include <stdint.h>

#define KVR_FAKE_MAX 8

typedef struct kvr_fake_fleet_s kvr_fake_fleet_t;

/** Starts n engines on free loopback ports; aborts the test on failure. */
kvr_fake_fleet_t *kvr_fake_start(int n);
/** Stops every engine (parked requests are dropped) and joins the thread. */
void kvr_fake_stop(kvr_fake_fleet_t *f);
uint16_t kvr_fake_port(const kvr_fake_fleet_t *f, int i);
/** Behaviour for every request of engine i, overriding X-Fake ("" clears). */
void kvr_fake_force(kvr_fake_fleet_t *f, int i, const char *script);
/** Answers every request parked by hold=1. */
void kvr_fake_release(kvr_fake_fleet_t *f);
/** Requests received (POST only), aborted by the client (kvroute), on engine i; -1 = all engines. */
unsigned kvr_fake_requests(const kvr_fake_fleet_t *f, int i);
unsigned kvr_fake_aborted(const kvr_fake_fleet_t *f, int i);
/** Requests parked by hold=1 right now. */
unsigned kvr_fake_held(const kvr_fake_fleet_t *f);

/*
 * A raw engine for byte-level answers the HTTP server above cannot produce
 * (interim 1xx heads, malformed framing): a thread that reads each request
 * whole and writes reply byte for byte, then closes the connection. With
 * reply NULL it reads requests and never answers (the connections stay
 * open until stop).
 */
typedef struct kvr_raw_engine_s kvr_raw_engine_t;

/** Starts it on a free loopback port; aborts the test on failure. */
kvr_raw_engine_t *kvr_raw_engine_start(const char *reply);
uint16_t kvr_raw_engine_port(const kvr_raw_engine_t *e);
/** Requests answered so far (any method). */
unsigned kvr_raw_engine_requests(const kvr_raw_engine_t *e);
/** Connections accepted so far: the kernel completed their handshake. */
unsigned kvr_raw_engine_accepted(const kvr_raw_engine_t *e);
/** Stops the thread and frees the engine. */
void kvr_raw_engine_stop(kvr_raw_engine_t *e);

#endif
