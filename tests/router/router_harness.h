/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_ROUTER_HARNESS_H
#define KVR_TESTS_ROUTER_HARNESS_H

/* Starting kvroute in front of scripted engines and reading its state back. */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tests/support/fake_engine.h"

typedef struct kvr_harness_s {
    kvr_fake_fleet_t *fleet;
    pid_t pid;
    uint16_t port;       /* the client listener: the API, /health, /readiness */
    uint16_t admin_port; /* --admin-listen: /metrics, /engines */
    char log_path[128];
} kvr_harness_t;

/**
 * Starts n scripted engines (n may be 0) and kvroute in front of them with
 * --es 0, quick health checks, its admin listener on a port of its own and
 * --engine-header (tests read which engine answered); extra: more kvroute
 * arguments, NULL-terminated.
 */
void kvr_harness_start(kvr_harness_t *h, int n_engines, const char *const *extra);
/**
 * The same kvroute in front of the first n_engines of a fleet the caller
 * owns (fleet may be NULL when n_engines is 0); kvr_harness_stop leaves the
 * fleet running. Flags in extra come last, so they override the defaults.
 */
void kvr_harness_start_router(kvr_harness_t *h, const kvr_fake_fleet_t *fleet, int n_engines,
                              const char *const *extra);
/** SIGTERM kvroute (SIGKILL after 5 s), stop the engines; returns kvroute's wait status. */
int kvr_harness_stop(kvr_harness_t *h);
/** Sum over engines of shadow requests + pending-prefill + KV tokens, from GET /engines; -1 on error. */
long kvr_harness_shadow_total(const kvr_harness_t *h);
/** Polls until the shadow counters are all zero; false after timeout_ms (a safety net, not a bound). */
bool kvr_harness_wait_zero(const kvr_harness_t *h, unsigned timeout_ms);
/** The value of one /metrics sample line ("name{labels}"), or -1 when absent. */
double kvr_harness_metric(const kvr_harness_t *h, const char *sample);
/** Waits until the /metrics sample equals value; false after timeout_ms (a safety net). */
bool kvr_harness_wait_metric(const kvr_harness_t *h, const char *sample, double value,
                             unsigned timeout_ms);
/** Waits until the /metrics sample is at least value; false after timeout_ms (a safety net). */
bool kvr_harness_wait_metric_reach(const kvr_harness_t *h, const char *sample, double value,
                                   unsigned timeout_ms);
/** The value of header name in a raw response (copied into out), or NULL. */
const char *kvr_harness_header(const char *response, const char *name, char *out, size_t cap);
/** Decodes a chunked body in place; returns its length, or -1 when malformed or unterminated. */
long kvr_harness_dechunk(char *body);

#endif
