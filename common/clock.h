/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_CLOCK_H
#define KVR_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

#define KVR_NS_PER_MS 1000000ull
#define KVR_NS_PER_SEC 1000000000ull

/** CLOCK_MONOTONIC in nanoseconds: every age and heartbeat in kvroute uses it. */
static inline uint64_t kvr_clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * KVR_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/** CLOCK_REALTIME in nanoseconds, for logs and for what crosses hosts. */
static inline uint64_t kvr_clock_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * KVR_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/** now - then, or 0 when then lies in the future (a clock step or a bad sample). */
static inline uint64_t kvr_clock_age_ns(uint64_t now, uint64_t then)
{
    return now > then ? now - then : 0;
}

#endif
