/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SHM_TORTURE_H
#define KVR_TESTS_SHM_TORTURE_H

/*
 * DPDK's seqlock torture pattern: every write stores one random value into
 * fields on different cache lines of slot 0 (engine_id on the first line,
 * counts on the third, utilization on the fourth); a reader that ever gets a
 * copy whose fields disagree has accepted a torn read.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "common/clock.h"
#include "common/rng.h"
#include "shm_layout/shm_layout.h"

static inline void kvr_torture_fill(kvr_engine_state_t *s, uint64_t v)
{
    memset(s, 0, sizeof *s);
    memcpy(s->engine_id, &v, sizeof v);
    memcpy(s->engine_id + 64, &v, sizeof v);
    s->flags = KVR_SLOT_IN_USE;
    s->sample_seq = v;
    s->running = (uint32_t)v;
    s->waiting = (uint32_t)(v >> 32);
    s->kv_tokens_used = v;
    s->max_prefill_remaining = v;
    memcpy(&s->utilization, &v, sizeof v);
}

static inline bool kvr_torture_consistent(const kvr_engine_state_t *s)
{
    uint64_t a, b, u;
    memcpy(&a, s->engine_id, sizeof a);
    memcpy(&b, s->engine_id + 64, sizeof b);
    memcpy(&u, &s->utilization, sizeof u);
    uint64_t v = s->sample_seq;
    return a == v && b == v && u == v && s->running == (uint32_t)v &&
           s->waiting == (uint32_t)(v >> 32) && s->kv_tokens_used == v &&
           s->max_prefill_remaining == v;
}

/* Writes slot 0 flat out until *stop (when not NULL) or for max_ns. */
static inline void kvr_torture_write(kvr_shm_t *shm, atomic_bool *stop, uint64_t seed,
                                     uint64_t max_ns)
{
    kvr_engine_state_t s;
    uint64_t x = seed;
    uint64_t deadline = kvr_clock_now_ns() + max_ns;
    /* Readers may look before the first random store: start consistent. */
    kvr_torture_fill(&s, 1);
    kvr_shm_write_slot(shm, 0, &s);
    for (unsigned n = 1; stop == NULL || !atomic_load_explicit(stop, memory_order_relaxed); n++) {
        kvr_torture_fill(&s, kvr_splitmix64(&x));
        kvr_shm_write_slot(shm, 0, &s);
        if (n % 4096 == 0 && kvr_clock_now_ns() > deadline)
            break;
    }
}

#endif
