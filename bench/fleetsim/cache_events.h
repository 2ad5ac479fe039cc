/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_FLEETSIM_CACHE_EVENTS_H
#define KVR_BENCH_FLEETSIM_CACHE_EVENTS_H

/*
 * The engines' KV events in virtual time (kvroute-fleetsim --kv-events):
 * each engine rank's prefix cache reports what it stores (when the step
 * computing a block is planned, as vLLM announces it) and what it evicts;
 * each report reaches a real residency table (shm_layout/residency.h) beside
 * the feed segment a fixed delay later, as statefeed's subscriber would
 * write it, and the routers read the table with their own code
 * (router/cache_state.c, --cache-state). A delay of 0 makes the table the
 * simulator's true caches: an oracle of what exact cache state can give.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/sim/model.h"

typedef struct kvr_fleet_cache_events_s kvr_fleet_cache_events_t;

/**
 * Creates the table "<state_name>-residency" for slots engine slots, sized
 * for kv_blocks blocks held at once over the fleet; events are applied
 * delay_ns after the virtual time *now_ns says they happened. 0, or -errno
 * with a reason in err (*out NULL).
 */
int kvr_fleet_cache_events_create(kvr_fleet_cache_events_t **out, const char *state_name,
                                  uint32_t slots, uint64_t kv_blocks, uint64_t delay_ns,
                                  const uint64_t *now_ns, char *err, size_t err_len);
/** Removes the table and frees everything (NULL is fine). */
void kvr_fleet_cache_events_destroy(kvr_fleet_cache_events_t *ce);

/** Makes model (one rank of the engine in slot) report its stores and evictions. */
void kvr_fleet_cache_events_attach(kvr_fleet_cache_events_t *ce, kvr_sim_model_t *model,
                                   uint32_t slot);

/** Applies every event due by *now_ns: call before a router reads the table. */
void kvr_fleet_cache_events_deliver(kvr_fleet_cache_events_t *ce);

/** The writer's tick (with the feed's heartbeat): due events, heartbeat, sweep. */
void kvr_fleet_cache_events_tick(kvr_fleet_cache_events_t *ce);

/** The table's counters as one JSON object, for --stats. */
void kvr_fleet_cache_events_write_stats(const kvr_fleet_cache_events_t *ce, FILE *out);

#endif
