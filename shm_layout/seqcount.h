/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_SEQCOUNT_H
#define KVR_SHM_SEQCOUNT_H

/*
 * The seqlock steps every seqlocked record of the segments uses (the state
 * slots, the dispatch rows, the placement ring's entries), after DPDK's
 * rte_seqcount.h and Boehm's fence-based reader. The payload is relaxed
 * atomic words, so a read racing a write is defined C11 (and ThreadSanitizer
 * agrees). Not part of the ABI; nothing outside shm_layout/ uses it.
 *
 * Writer: kvr__seqcount_write() when the counter is the writer's alone; the
 * ring, whose counter writers claim with a compare-and-swap, calls the steps
 * itself: its odd claim, kvr__seqcount_write_fence(), kvr__seqcount_store(),
 * its even release.
 *
 * Reader: begin = kvr__seqcount_read_begin(); an odd begin is a write in
 * progress; kvr__seqcount_load() copies words; kvr__seqcount_read_retry()
 * is true when a write overlapped the copy, which must then be discarded.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Relaxed stores of n payload words. */
static inline void kvr__seqcount_store(_Atomic uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        atomic_store_explicit(&dst[i], src[i], memory_order_relaxed);
}

/** Orders the odd counter before every payload store (DPDK rte_seqcount_write_begin). */
static inline void kvr__seqcount_write_fence(void)
{
    atomic_thread_fence(memory_order_release);
}

/**
 * Stores n words under the counter seq, whose stable (even) value is held.
 * held comes from the writer's own copy: a counter overwritten in the mapping
 * (odd, or anything) must not make a write in progress look stable.
 * @return the new stable value, held + 2, for the writer to keep.
 */
static inline uint64_t kvr__seqcount_write(_Atomic uint64_t *seq, uint64_t held,
                                           _Atomic uint64_t *dst, const uint64_t *src, size_t n)
{
    atomic_store_explicit(seq, held + 1, memory_order_relaxed);
    kvr__seqcount_write_fence();
    kvr__seqcount_store(dst, src, n);
    atomic_store_explicit(seq, held + 2, memory_order_release);
    return held + 2;
}

/** The counter a read begins at; odd while a write is in progress. */
static inline uint64_t kvr__seqcount_read_begin(const _Atomic uint64_t *seq)
{
    return atomic_load_explicit(seq, memory_order_acquire);
}

/** Relaxed loads of n payload words. */
static inline void kvr__seqcount_load(uint64_t *dst, const _Atomic uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = atomic_load_explicit(&src[i], memory_order_relaxed);
}

/** True when the counter moved from begin since the read began: the copy is torn. */
static inline bool kvr__seqcount_read_retry(const _Atomic uint64_t *seq, uint64_t begin)
{
    /* Orders the payload loads before the re-check (Boehm's fence-based reader). */
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(seq, memory_order_relaxed) != begin;
}

/** A pause between read attempts, so a spinning reader leaves the writer its core. */
static inline void kvr__seqcount_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
