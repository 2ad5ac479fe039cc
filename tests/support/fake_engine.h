/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SUPPORT_FAKE_ENGINE_H
#define KVR_TESTS_SUPPORT_FAKE_ENGINE_H

/*
 * Scripted engines for the integration tests of both processes: n HTTP/1.1
 * keep-alive servers on one libuv loop in a thread of the test process, each
 * on a loopback port taken below the ephemeral range (kvr_test_free_port_range),
 * so that nothing else takes it while the engine is down.
 *
 * What a request gets:
 * - POST: its X-Fake header (forwarded by kvroute untouched) or a per-engine
 *   override, e.g. "chunks=5,interval_ms=20", "status=500", "hang=1",
 *   "hold=1", "cut=2,chunks=10", "delay_ms=100", "drop=1" (closes the
 *   connection without an answer), "echo=1" (answers
 *   {"len":N,"fnv":"<FNV-1a of the body>"}). Non-streamed answers are
 *   {"engine":i,...}; streams are SSE events "data: {\"engine\":i,\"n\":k}\n\n"
 *   then "data: [DONE]\n\n".
 * - GET: once kvr_fake_set_bodies was called for the engine, /metrics and
 *   /v1/loads answer the bodies it set (NULL: 404) and any other path 404;
 *   before, /v1/models lists "m" (or what kvr_fake_set_models set), /metrics
 *   is an idle vLLM page and anything else {"status":"ok"}.
 *
 * Modes: OK; STALL (requests are read and never answered, until the mode is
 * OK again, when they are answered); DOWN (the port refuses connections).
 * Only the loop thread opens or closes sockets, and never while it waits in
 * the kernel: a socket closed by another thread during a poll stays open
 * until the poll returns, so a listener "closed" that way still accepts a
 * connection and resets it a moment later. Mode changes and dropped
 * connections are done when the call returns.
 */

#include <stdatomic.h>
#include <stdint.h>

#define KVR_FAKE_MAX 16

typedef enum {
    KVR_FAKE_OK = 0,
    KVR_FAKE_STALL,
    KVR_FAKE_DOWN,
} kvr_fake_mode_t;

typedef struct kvr_fake_fleet_s kvr_fake_fleet_t;

/** Starts n engines; aborts the test on failure. */
kvr_fake_fleet_t *kvr_fake_start(int n);
/** Stops every engine (parked requests are dropped) and joins the thread. */
void kvr_fake_stop(kvr_fake_fleet_t *f);
uint16_t kvr_fake_port(const kvr_fake_fleet_t *f, int i);
/** The model ids engine i's /v1/models lists from now on, comma-separated ("" = an empty list). Copies. */
void kvr_fake_set_models(kvr_fake_fleet_t *f, int i, const char *models);
/** Behaviour for every POST of engine i, overriding X-Fake ("" clears). */
void kvr_fake_force(kvr_fake_fleet_t *f, int i, const char *script);
/** Answers every request parked by hold=1. */
void kvr_fake_release(kvr_fake_fleet_t *f);
/** Engine i's /metrics and /v1/loads bodies from now on (NULL: 404). Copies. */
void kvr_fake_set_bodies(kvr_fake_fleet_t *f, int i, const char *metrics, const char *loads);
/** Switches engine i's mode; returns once it holds (DOWN: the port refuses, else it listens). */
void kvr_fake_set_mode(kvr_fake_fleet_t *f, int i, kvr_fake_mode_t mode);
/** Closes engine i's open connections, done when it returns (the port keeps listening). */
void kvr_fake_drop_connections(kvr_fake_fleet_t *f, int i);
/** POST requests received, and aborted by the client (kvroute), on engine i; -1 = all engines. */
unsigned kvr_fake_requests(const kvr_fake_fleet_t *f, int i);
unsigned kvr_fake_aborted(const kvr_fake_fleet_t *f, int i);
/** GET requests engine i answered (polls, health checks), and connections it accepted. */
unsigned kvr_fake_polls(const kvr_fake_fleet_t *f, int i);
unsigned kvr_fake_connections(const kvr_fake_fleet_t *f, int i);
/** Requests parked by hold=1 right now. */
unsigned kvr_fake_held(const kvr_fake_fleet_t *f);

/*
 * A raw engine for byte-level answers an HTTP server cannot produce
 * (interim 1xx heads, malformed framing): a thread that reads each request
 * whole and writes reply byte for byte, then closes the connection. With
 * reply NULL it reads requests and never answers (the connections stay
 * open until stop).
 */
typedef struct kvr_raw_engine_s kvr_raw_engine_t;

/** Starts it on a free loopback port below the ephemeral range; aborts the test on failure. */
kvr_raw_engine_t *kvr_raw_engine_start(const char *reply);
uint16_t kvr_raw_engine_port(const kvr_raw_engine_t *e);
/** Requests answered so far (any method). */
unsigned kvr_raw_engine_requests(const kvr_raw_engine_t *e);
/** Connections accepted so far: the kernel completed their handshake. */
unsigned kvr_raw_engine_accepted(const kvr_raw_engine_t *e);
/** Stops the thread and frees the engine. */
void kvr_raw_engine_stop(kvr_raw_engine_t *e);

#endif
