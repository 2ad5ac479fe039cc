/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_TRACEGEN_RNG_H
#define KVR_BENCH_TRACEGEN_RNG_H

#include <math.h>
#include <stdint.h>

/*
 * A small seeded generator (xoshiro256** seeded through splitmix64), so a
 * trace is the same bytes for a seed on every machine and libc: rand() and
 * random() differ between C libraries.
 */
typedef struct kvr_rng_s {
    uint64_t s[4];
} kvr_rng_t;

static inline uint64_t kvr_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void kvr_rng_seed(kvr_rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = kvr_splitmix64(&seed);
}

static inline uint64_t kvr_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t kvr_rng_next(kvr_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = kvr_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = kvr_rng_rotl(s[3], 45);
    return result;
}

/** Uniform in (0, 1): never 0, so log() of it is finite. */
static inline double kvr_rng_uniform(kvr_rng_t *r)
{
    return ((double)(kvr_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static inline double kvr_rng_exponential(kvr_rng_t *r, double mean)
{
    return -mean * log(kvr_rng_uniform(r));
}

static inline double kvr_rng_normal(kvr_rng_t *r)
{
    double u1 = kvr_rng_uniform(r), u2 = kvr_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/** Lognormal with the given median and shape sigma (heavy right tail for sigma ~1). */
static inline double kvr_rng_lognormal(kvr_rng_t *r, double median, double sigma)
{
    return median * exp(sigma * kvr_rng_normal(r));
}

#endif
