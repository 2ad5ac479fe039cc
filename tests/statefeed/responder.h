/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_STATEFEED_RESPONDER_H
#define KVR_TESTS_STATEFEED_RESPONDER_H

/*
 * Stand-in engines for statefeed tests: a thread serving HTTP/1.1 keep-alive
 * on loopback ports, one per engine, each answering /metrics and
 * /v1/loads with a body the test sets, stalling (reads the request, never
 * answers) or down (port closed: connections refused).
 */

#include <stdint.h>

typedef enum {
    RESPONDER_OK = 0,
    RESPONDER_STALL,
    RESPONDER_DOWN,
} responder_mode_t;

typedef struct responder_s responder_t;

/** Starts n engines on free loopback ports. */
responder_t *responder_start(unsigned n);
/** Stops the thread and closes everything. */
void responder_stop(responder_t *r);
uint16_t responder_port(const responder_t *r, unsigned i);
/** Sets engine i's /metrics body and /v1/loads body (NULL: 404). Copies. */
void responder_set_bodies(responder_t *r, unsigned i, const char *metrics, const char *loads);
/** Switches engine i's mode; returns once it holds (DOWN: the port refuses, else it listens). */
void responder_set_mode(responder_t *r, unsigned i, responder_mode_t mode);
/** Closes engine i's open connections, done when it returns (the listener stays): idle keep-alive closed by the peer. */
void responder_drop_connections(responder_t *r, unsigned i);
/** Requests answered by engine i so far, and connections it accepted. */
unsigned responder_requests(responder_t *r, unsigned i);
unsigned responder_connections(responder_t *r, unsigned i);

#endif
