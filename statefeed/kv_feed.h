/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_KV_FEED_H
#define KVR_STATEFEED_KV_FEED_H

/*
 * Subscriptions to the engines' KV events (an engine's kv_events=PORT option):
 * one ZMQ SUB per data-parallel rank on HOST:PORT+rank, and a DEALER to the
 * replay ROUTER on HOST:REPLAY+rank when kv_replay= is given. The sockets are
 * drained on the feed's tick, on the loop thread (see kv_feed.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include "shm_layout/shm_layout.h"
#include "statefeed/kv_cache.h"

struct kvr__feed_s;
struct kvr__feed_engine_s;
struct kvr__feed_engine_spec_s;
struct kvr_prom_writer_s;

/** Creates the ZMQ context (only when some engine has kv_events=); 0 or negative (logged). */
int kvr__feed_kv_start(struct kvr__feed_s *feed, const kvr_kv_sink_t *sink);
/** Subscribes engine as spec says (nothing without kv_events=); 0 or negative (logged). */
int kvr__feed_kv_attach(struct kvr__feed_s *feed, struct kvr__feed_engine_s *engine,
                        const struct kvr__feed_engine_spec_s *spec);
/** Closes the engine's sockets and forgets its blocks (the sink hears cleared). */
void kvr__feed_kv_detach(struct kvr__feed_engine_s *engine);
/** Drains every subscription, times replays out, runs the self-check. */
void kvr__feed_kv_tick(struct kvr__feed_s *feed, uint64_t now_ns);
/** A new sample of engine: the self-check's figures, and a sharp fall of KV usage drops blocks. */
void kvr__feed_kv_sample(struct kvr__feed_engine_s *engine, const kvr_engine_state_t *sample);
/** The engine's slot turned unhealthy: its blocks are dropped. */
void kvr__feed_kv_unhealthy(struct kvr__feed_engine_s *engine);
/** The kvroute_statefeed_kv_* families. */
void kvr__feed_kv_metrics(struct kvr__feed_s *feed, struct kvr_prom_writer_s *w);
void kvr__feed_kv_stop(struct kvr__feed_s *feed);

#endif
