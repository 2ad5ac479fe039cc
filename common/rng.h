/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_RNG_H
#define KVR_COMMON_RNG_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The tree's one family of seeded generators, so a run is the same for a seed
 * on every machine and libc (rand() and random() differ between C libraries):
 * splitmix64 where one 64-bit word of state is enough (policies, simulated
 * engines, jitter), and xoshiro256** seeded through it where a long stream
 * needs more state (traces, clients).
 */
typedef struct kvr_rng_s {
    uint64_t s[4];
} kvr_rng_t;

/** splitmix64's finalizer: a bijective mix of one word, also usable as a hash. */
static inline uint64_t kvr_rng_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/** Next value of the splitmix64 stream whose state is *x. */
static inline uint64_t kvr_splitmix64(uint64_t *x)
{
    return kvr_rng_mix64(*x += 0x9e3779b97f4a7c15ull);
}

/** The high 64 bits of the 128-bit product a * b (ISO C has no 128-bit type). */
static inline uint64_t kvr_rng_mul_high64(uint64_t a, uint64_t b)
{
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

/** Uniform in [0, n), n >= 1, from the splitmix64 stream *x: the high half of a draw times n. */
static inline size_t kvr_splitmix64_below(uint64_t *x, size_t n)
{
    return (size_t)kvr_rng_mul_high64(kvr_splitmix64(x), (uint64_t)n);
}

/** Uniform in [0, 1) from the splitmix64 stream *x. */
static inline double kvr_splitmix64_unit(uint64_t *x)
{
    return (double)(kvr_splitmix64(x) >> 11) * 0x1.0p-53;
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
