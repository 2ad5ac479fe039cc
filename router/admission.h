/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ADMISSION_H
#define KVR_ROUTER_ADMISSION_H

/*
 * Admission runs after the policy scored the candidates, never before: a
 * hot owner's queue must not turn a request away while a peer is idle.
 * It rejects (429 + Retry-After) only when no candidate has headroom
 * (running + waiting below max_running + max_waiting), and it grants an
 * idle peer with complete telemetry a one-in-flight seeding lease.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "router/policy.h"

typedef enum {
    KVR_ADMISSION_OFF = 0,
    KVR_ADMISSION_SHADOW, /* decide and count, never reject */
    KVR_ADMISSION_ENFORCE,
} kvr_admission_mode_t;

/*
 * Where admission sits in a decision. kvroute's order is after the policy
 * scored the candidates. Before is the order of SGLang's gateway, kept for
 * comparison (kvroute-fleetsim --admission-order): the verdict is taken on
 * the engine the policy's base rule would pick (the cache owner, with no
 * owner pressure), before the policy runs, with no seeding lease; a reject
 * is a 429 even when a peer sits idle.
 */
typedef enum {
    KVR_ADMISSION_AFTER = 0,
    KVR_ADMISSION_BEFORE,
} kvr_admission_order_t;

typedef enum {
    KVR_ADMIT = 0,        /* go to decision->view as picked */
    KVR_ADMIT_SEED_LEASE, /* decision->view was moved to an idle peer under a seeding lease */
    KVR_ADMIT_REJECT,     /* answer 429 with Retry-After (enforce only) */
} kvr_admission_verdict_t;

typedef struct kvr_admission_s kvr_admission_t;

/** Creates the admission controller; mode off admits everything. 0 or -errno. */
int kvr_admission_create(kvr_admission_mode_t mode, uint32_t max_waiting, kvr_admission_t **out);
void kvr_admission_destroy(kvr_admission_t *adm);
/** Parses "off", "shadow", "enforce"; -EINVAL otherwise. */
int kvr_admission_mode_parse(const char *text, kvr_admission_mode_t *out);
/**
 * Judges the policy's decision against the candidates; may move
 * decision->view (and set decision->reason to "seed_lease"). In shadow mode
 * a would-be reject is counted and admitted.
 */
kvr_admission_verdict_t kvr_admission_decide(kvr_admission_t *adm, const kvr_engine_view_t *views,
                                             size_t n, kvr_route_decision_t *decision);
/** Parses "after", "before"; -EINVAL otherwise. */
int kvr_admission_order_parse(const char *text, kvr_admission_order_t *out);
/**
 * Admission before routing: judges view alone (the engine the base rule
 * would pick), with no seeding lease and no look at the other candidates.
 * KVR_ADMIT or, in enforce mode, KVR_ADMIT_REJECT; shadow counts a
 * would-be reject and admits.
 */
kvr_admission_verdict_t kvr_admission_gate(kvr_admission_t *adm, const kvr_engine_view_t *view);
/** A request admitted under a seeding lease on engine_index finished (any path). */
void kvr_admission_release_lease(kvr_admission_t *adm, uint32_t engine_index);
/** Counters for /metrics: admitted, seed leases granted, rejected, would-reject (shadow). */
typedef struct kvr_admission_stats_s {
    uint64_t admitted, seed_leases, rejected, shadow_would_reject;
} kvr_admission_stats_t;
void kvr_admission_stats(const kvr_admission_t *adm, kvr_admission_stats_t *out);

#endif
