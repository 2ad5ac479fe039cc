/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block cache of the simulated engine: a hash table of shared prompt blocks,
 * an LRU list of the unreferenced ones, and a count of private blocks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/kvcache.h"
#include "common/xmalloc.h"

int kvr_sim_cache_init(kvr_sim_cache_t *c, size_t capacity_blocks)
{
    memset(c, 0, sizeof *c);
    c->capacity_blocks = capacity_blocks;
    /* About one bucket per block of capacity keeps chains short without resizing. */
    c->nbuckets = 1024;
    while (c->nbuckets < capacity_blocks && c->nbuckets < ((size_t)1 << 24))
        c->nbuckets <<= 1;
    c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
    return c->buckets ? 0 : -ENOMEM;
}

void kvr_sim_cache_close(kvr_sim_cache_t *c)
{
    for (size_t i = 0; c->buckets && i < c->nbuckets; i++) {
        kvr_sim_block_t *b = c->buckets[i];
        while (b) {
            kvr_sim_block_t *next = b->hnext;
            free(b);
            b = next;
        }
    }
    free(c->buckets);
    memset(c, 0, sizeof *c);
}

static size_t bucket_of(const kvr_sim_cache_t *c, uint64_t hash)
{
    /* Chained xxHash values are already uniform. */
    return (size_t)(hash ^ (hash >> 32)) & (c->nbuckets - 1);
}

static kvr_sim_block_t *lookup(const kvr_sim_cache_t *c, uint64_t hash)
{
    for (kvr_sim_block_t *b = c->buckets[bucket_of(c, hash)]; b; b = b->hnext)
        if (b->hash == hash)
            return b;
    return NULL;
}

static void lru_remove(kvr_sim_cache_t *c, kvr_sim_block_t *b)
{
    if (b->lru_prev)
        b->lru_prev->lru_next = b->lru_next;
    else
        c->lru_head = b->lru_next;
    if (b->lru_next)
        b->lru_next->lru_prev = b->lru_prev;
    else
        c->lru_tail = b->lru_prev;
    b->lru_prev = b->lru_next = NULL;
    c->lru_blocks--;
}

static void lru_push_tail(kvr_sim_cache_t *c, kvr_sim_block_t *b)
{
    b->lru_next = NULL;
    b->lru_prev = c->lru_tail;
    if (c->lru_tail)
        c->lru_tail->lru_next = b;
    else
        c->lru_head = b;
    c->lru_tail = b;
    c->lru_blocks++;
}

static void table_remove(kvr_sim_cache_t *c, kvr_sim_block_t *b)
{
    kvr_sim_block_t **pp = &c->buckets[bucket_of(c, b->hash)];
    while (*pp != b)
        pp = &(*pp)->hnext;
    *pp = b->hnext;
    c->hashed_blocks--;
    c->used_blocks--;
    free(b);
}

static void ref(kvr_sim_cache_t *c, kvr_sim_block_t *b)
{
    if (b->refs++ == 0)
        lru_remove(c, b);
}

static void unref(kvr_sim_cache_t *c, kvr_sim_block_t *b)
{
    if (--b->refs > 0)
        return;
    if (b->ready) {
        lru_push_tail(c, b);
        return;
    }
    /* Never computed: nothing worth keeping; announced ones are removed as an eviction is. */
    if (b->announced && c->on_evict)
        c->on_evict(c->evict_ctx, b->hash);
    table_remove(c, b);
}

/* Frees room for want more blocks by evicting LRU blocks; 0 or -ENOSPC (nothing evicted). */
static int make_room(kvr_sim_cache_t *c, size_t want)
{
    size_t free_blocks = c->capacity_blocks - c->used_blocks;
    if (free_blocks >= want)
        return 0;
    if (free_blocks + c->lru_blocks < want)
        return -ENOSPC;
    while (c->capacity_blocks - c->used_blocks < want) {
        kvr_sim_block_t *victim = c->lru_head;
        lru_remove(c, victim);
        if (c->on_evict)
            c->on_evict(c->evict_ctx, victim->hash);
        table_remove(c, victim);
        c->evictions++;
    }
    return 0;
}

size_t kvr_sim_cache_match(const kvr_sim_cache_t *c, const uint64_t *hashes, size_t n)
{
    size_t i = 0;
    for (; i < n; i++) {
        const kvr_sim_block_t *b = lookup(c, hashes[i]);
        if (!b || !b->ready)
            break;
    }
    return i;
}

int kvr_sim_cache_admit(kvr_sim_cache_t *c, const uint64_t *hashes, size_t n, size_t extra_private,
                        kvr_sim_block_t **held, size_t *n_private)
{
    size_t matched = kvr_sim_cache_match(c, hashes, n);
    /* Referencing the hits first takes them out of the LRU, so making room
     * for the rest can never evict them. */
    for (size_t i = 0; i < matched; i++) {
        held[i] = lookup(c, hashes[i]);
        ref(c, held[i]);
    }
    if (make_room(c, n - matched + extra_private) < 0) {
        for (size_t i = 0; i < matched; i++)
            unref(c, held[i]);
        return -ENOSPC;
    }
    size_t priv = extra_private;
    for (size_t i = matched; i < n; i++) {
        if (lookup(c, hashes[i])) {
            /* Another request is computing this block (or it sits after a
             * miss): hold a private copy, as an engine does. */
            held[i] = NULL;
            priv++;
            continue;
        }
        kvr_sim_block_t *b = kvr_xcalloc(1, sizeof *b);
        b->hash = hashes[i];
        b->refs = 1;
        size_t k = bucket_of(c, b->hash);
        b->hnext = c->buckets[k];
        c->buckets[k] = b;
        c->hashed_blocks++;
        c->used_blocks++;
        held[i] = b;
    }
    c->private_blocks += priv;
    c->used_blocks += priv;
    *n_private = priv;
    return (int)matched;
}

int kvr_sim_cache_grow(kvr_sim_cache_t *c)
{
    if (make_room(c, 1) < 0)
        return -ENOSPC;
    c->private_blocks++;
    c->used_blocks++;
    return 0;
}

void kvr_sim_cache_release(kvr_sim_cache_t *c, kvr_sim_block_t **held, size_t n, size_t n_private)
{
    for (size_t i = 0; i < n; i++) {
        if (held[i]) {
            unref(c, held[i]);
            held[i] = NULL;
        }
    }
    c->private_blocks -= n_private;
    c->used_blocks -= n_private;
}
