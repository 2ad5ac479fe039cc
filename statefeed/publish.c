/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The publisher: the only code that writes slots. Its rules are the feed's
 * promise to routers: a sample time moves only with a new sample, so an age
 * never lies; failures count up and turn a slot unhealthy; garbage is never
 * published as zeros.
 */
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "statefeed/feed.h"
#include "statefeed/kv_feed.h"

const double kvr__feed_latency_bounds_ns[KVR_FEED_LATENCY_BUCKETS] = {
    1e5, 2.5e5, 5e5, 1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7, 1e8, 2.5e8, 1e9,
};

void kvr__feed_histogram_add(uint64_t *buckets, uint64_t value_ns)
{
    kvr_prom_histogram_observe(buckets, kvr__feed_latency_bounds_ns, KVR_FEED_LATENCY_BUCKETS,
                               (double)value_ns);
}

void kvr__feed_record_latency(kvr__feed_engine_t *engine, uint64_t latency_ns)
{
    kvr__feed_histogram_add(engine->latency_buckets, latency_ns);
    engine->latency_sum_ns += latency_ns;
    engine->latency_count++;
}

/* Measured fields only: identity, times and health are the publisher's. */
static void copy_measurements(kvr_engine_state_t *dst, const kvr_engine_state_t *src)
{
    const uint32_t telemetry = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_UTILIZATION |
                               KVR_SLOT_HAS_PENDING_PREFILL;
    dst->dp_ranks = src->dp_ranks;
    dst->running = src->running;
    dst->waiting = src->waiting;
    dst->max_running = src->max_running;
    dst->kv_tokens_used = src->kv_tokens_used;
    dst->kv_tokens_capacity = src->kv_tokens_capacity;
    dst->kv_usage = src->kv_usage;
    dst->pending_prefill_tokens = src->pending_prefill_tokens;
    dst->max_prefill_remaining = src->max_prefill_remaining;
    dst->utilization = src->utilization;
    dst->flags = (dst->flags & ~telemetry) | (src->flags & telemetry);
}

void kvr__feed_publish_sample(kvr__feed_t *feed, kvr__feed_engine_t *engine,
                              const kvr_engine_state_t *sample, kvr_source_t source,
                              uint64_t sample_ns, uint64_t now_ns)
{
    kvr_engine_state_t state;
    kvr_shm_writer_state(&feed->shm, engine->slot, &state);
    /* An older sample than the one published (a late poll racing a push, a
     * relayed table behind a local one) would move the age backwards. */
    if (sample_ns < state.sample_time_ns)
        return;
    copy_measurements(&state, sample);
    state.flags = kvr_slot_with_source(state.flags | KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY, source);
    state.sample_time_ns = sample_ns;
    state.publish_time_ns = now_ns;
    state.sample_seq++;
    state.consecutive_failures = 0;
    kvr_shm_write_slot(&feed->shm, engine->slot, &state);
    kvr__feed_kv_sample(engine, &state);
    if (engine->logged_unhealthy) {
        KVR_INFO("engine_healthy engine=%s source=%s", engine->id, kvr_source_name(source));
        engine->logged_unhealthy = false;
    }
    engine->last_reason = NULL;
}

void kvr__feed_publish_failure(kvr__feed_t *feed, kvr__feed_engine_t *engine, const char *reason,
                               bool immediate, uint64_t now_ns)
{
    kvr_engine_state_t state;
    kvr_shm_writer_state(&feed->shm, engine->slot, &state);
    if (state.consecutive_failures < UINT32_MAX)
        state.consecutive_failures++;
    bool unhealthy = immediate || state.consecutive_failures >= feed->cfg.fail_threshold;
    bool was_healthy = (state.flags & KVR_SLOT_HEALTHY) != 0;
    if (unhealthy)
        state.flags &= ~KVR_SLOT_HEALTHY;
    state.publish_time_ns = now_ns;
    kvr_shm_write_slot(&feed->shm, engine->slot, &state);
    if (unhealthy && was_healthy)
        kvr__feed_kv_unhealthy(engine); /* it may be restarting: its blocks are history */
    if (unhealthy && (!engine->logged_unhealthy || engine->last_reason != reason)) {
        uint64_t age = state.sample_time_ns ? kvr_clock_age_ns(now_ns, state.sample_time_ns) : 0;
        KVR_WARN("engine_unhealthy engine=%s reason=\"%s\" failures=%u age_ms=%llu", engine->id,
                 reason, state.consecutive_failures, (unsigned long long)(age / KVR_NS_PER_MS));
        engine->logged_unhealthy = true;
    }
    engine->last_reason = reason;
}

void kvr__feed_publish_relayed(kvr__feed_t *feed, kvr__feed_engine_t *engine,
                               const kvr_engine_state_t *sample, uint64_t sample_ns, bool healthy,
                               uint64_t now_ns)
{
    kvr_engine_state_t state;
    kvr_shm_writer_state(&feed->shm, engine->slot, &state);
    /* The remote table repeats a sample until it changes: same sample, same
     * time, so nothing moves here either except the remote health. */
    if (sample_ns < state.sample_time_ns)
        sample_ns = state.sample_time_ns;
    bool new_sample = sample_ns != state.sample_time_ns;
    copy_measurements(&state, sample);
    state.flags = kvr_slot_with_source(state.flags | KVR_SLOT_IN_USE, KVR_SOURCE_RELAY);
    if (healthy)
        state.flags |= KVR_SLOT_HEALTHY;
    else
        state.flags &= ~KVR_SLOT_HEALTHY;
    state.sample_time_ns = sample_ns;
    state.publish_time_ns = now_ns;
    if (new_sample)
        state.sample_seq++;
    state.consecutive_failures = sample->consecutive_failures;
    kvr_shm_write_slot(&feed->shm, engine->slot, &state);
}
