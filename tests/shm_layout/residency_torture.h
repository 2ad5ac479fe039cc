/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SHM_RESIDENCY_TORTURE_H
#define KVR_TESTS_SHM_RESIDENCY_TORTURE_H

/*
 * The residency table's torture pattern: every hash the writer stores for
 * engine slot s carries s in its low 16 bits, so a reader that is ever told
 * an engine holds a block whose hash names another slot has accepted a torn
 * or stale entry. The writer stores, removes and clears chains flat out in a
 * small table, so buckets fill, chains cross and deletions shift entries.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/clock.h"
#include "common/rng.h"
#include "shm_layout/residency.h"

#define KVR_RT_ENGINES 8u
#define KVR_RT_CHAINS 48u
#define KVR_RT_BLOCKS 32u

/** Block i of chain c as engine slot's writer stores it (never 0). */
static inline uint64_t kvr_rt_hash(uint32_t slot, uint32_t chain, uint32_t i)
{
    uint64_t x = ((uint64_t)chain << 32) | i;
    x = kvr_splitmix64(&x);
    return (x << 16) | slot | (1ull << 63);
}

/** True when every block m claims for its slot names that slot, within the chain's length. */
static inline bool kvr_rt_match_ok(const kvr_res_match_t *m, uint32_t asked_slot)
{
    return m->slot == asked_slot && m->blocks[0] <= m->blocks[1] && m->blocks[1] <= m->blocks[2] &&
           m->blocks[2] <= KVR_RT_BLOCKS;
}

/** Writes flat out until *stop (when not NULL) or for max_ns. */
static inline void kvr_rt_write(kvr_residency_writer_t *w, atomic_bool *stop, uint64_t seed,
                                uint64_t max_ns)
{
    uint64_t x = seed;
    uint64_t deadline = kvr_clock_now_ns() + max_ns;
    for (uint32_t s = 0; s < KVR_RT_ENGINES; s++)
        kvr_residency_trust(w, s, true);
    for (unsigned n = 1; stop == NULL || !atomic_load_explicit(stop, memory_order_relaxed); n++) {
        uint64_t r = kvr_splitmix64(&x);
        uint32_t slot = (uint32_t)(r % KVR_RT_ENGINES);
        uint32_t chain = (uint32_t)((r >> 8) % KVR_RT_CHAINS);
        uint32_t len = 1 + (uint32_t)((r >> 20) % KVR_RT_BLOCKS);
        uint32_t tier = (uint32_t)((r >> 28) % KVR_RES_TIERS);
        switch ((r >> 32) % 8) {
        case 0: kvr_residency_cleared(w, slot); break;
        case 1:
        case 2:
            for (uint32_t i = 0; i < len; i++)
                kvr_residency_removed(w, slot, kvr_rt_hash(slot, chain, i), tier);
            break;
        default:
            for (uint32_t i = 0; i < len; i++)
                kvr_residency_stored(w, slot, kvr_rt_hash(slot, chain, i), tier);
        }
        if (n % 64 == 0)
            kvr_residency_writer_tick(w, kvr_clock_now_ns(), 64);
        if (n % 256 == 0 && kvr_clock_now_ns() > deadline)
            break;
    }
}

#endif
