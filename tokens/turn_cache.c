/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The turn cache: a text's parts (cut where kvr__tok_cut_points allows),
 * each keyed by a chained 128-bit hash of the text up to the part's end,
 * seeded per cache and rooted in the tokenizer's fingerprint. A lookup
 * walks the parts in order and stops at the first one not held: after it
 * every key differs, since each hashes its whole prefix.
 */
#include "tokens/turn_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "common/xmalloc.h"
#include "tokens/internal.h"

/* Cut points used per text; past them the rest is one part (a chat has one per message or so). */
#define MAX_PARTS 4096

typedef struct entry_s {
    XXH128_hash_t key;
    size_t text_len; /* the part's bytes: a second check on the key */
    size_t n_ids;
    struct entry_s *bucket_next;
    struct entry_s *lru_prev, *lru_next; /* lru_next: less recent */
    uint32_t ids[];
} entry_t;

struct kvr_turn_cache_s {
    pthread_mutex_t lock;
    size_t max_bytes, bytes, n;
    entry_t **buckets;
    size_t n_buckets;
    entry_t *newest, *oldest; /* the LRU list, by lru_next from newest */
    uint64_t seed;
    uint64_t hits, misses, hit_text_bytes, miss_text_bytes, evictions;
};

/* What an entry costs: itself, its ids and its share of the bucket array. */
static size_t entry_cost(size_t n_ids)
{
    return sizeof(entry_t) + n_ids * sizeof(uint32_t) + 2 * sizeof(entry_t *);
}

int kvr_turn_cache_create(size_t max_bytes, kvr_turn_cache_t **out)
{
    *out = NULL;
    kvr_turn_cache_t *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    c->n_buckets = 1024;
    c->buckets = calloc(c->n_buckets, sizeof *c->buckets);
    if (!c->buckets) {
        free(c);
        return -ENOMEM;
    }
    pthread_mutex_init(&c->lock, NULL);
    c->max_bytes = max_bytes ? max_bytes : 1;
    /* A seed nobody outside knows, so texts cannot be made to collide on purpose. */
    if (getrandom(&c->seed, sizeof c->seed, GRND_NONBLOCK) != sizeof c->seed) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        c->seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)c;
    }
    *out = c;
    return 0;
}

void kvr_turn_cache_destroy(kvr_turn_cache_t *c)
{
    if (!c)
        return;
    for (entry_t *e = c->newest, *next; e; e = next) {
        next = e->lru_next;
        free(e);
    }
    free(c->buckets);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void kvr_turn_cache_stats(kvr_turn_cache_t *c, kvr_turn_cache_stats_t *out)
{
    pthread_mutex_lock(&c->lock);
    *out = (kvr_turn_cache_stats_t){
        .hits = c->hits,
        .misses = c->misses,
        .hit_text_bytes = c->hit_text_bytes,
        .miss_text_bytes = c->miss_text_bytes,
        .evictions = c->evictions,
        .bytes = c->bytes,
        .entries = c->n,
        .max_bytes = c->max_bytes,
    };
    pthread_mutex_unlock(&c->lock);
}

static entry_t **bucket_of(kvr_turn_cache_t *c, XXH128_hash_t key)
{
    return &c->buckets[key.low64 & (c->n_buckets - 1)];
}

static entry_t *find(kvr_turn_cache_t *c, XXH128_hash_t key, size_t text_len)
{
    for (entry_t *e = *bucket_of(c, key); e; e = e->bucket_next)
        if (XXH128_isEqual(e->key, key) && e->text_len == text_len)
            return e;
    return NULL;
}

static void lru_unlink(kvr_turn_cache_t *c, entry_t *e)
{
    if (e->lru_prev)
        e->lru_prev->lru_next = e->lru_next;
    else
        c->newest = e->lru_next;
    if (e->lru_next)
        e->lru_next->lru_prev = e->lru_prev;
    else
        c->oldest = e->lru_prev;
}

static void lru_push_front(kvr_turn_cache_t *c, entry_t *e)
{
    e->lru_prev = NULL;
    e->lru_next = c->newest;
    if (c->newest)
        c->newest->lru_prev = e;
    else
        c->oldest = e;
    c->newest = e;
}

static void evict_one(kvr_turn_cache_t *c)
{
    entry_t *e = c->oldest;
    lru_unlink(c, e);
    for (entry_t **p = bucket_of(c, e->key); *p; p = &(*p)->bucket_next) {
        if (*p == e) {
            *p = e->bucket_next;
            break;
        }
    }
    c->bytes -= entry_cost(e->n_ids);
    c->n--;
    c->evictions++;
    free(e);
}

/* Doubling the buckets is best effort: without memory the chains grow longer. */
static void maybe_grow(kvr_turn_cache_t *c)
{
    if (c->n < c->n_buckets)
        return;
    size_t cap = c->n_buckets * 2;
    entry_t **b = calloc(cap, sizeof *b);
    if (!b)
        return;
    for (size_t i = 0; i < c->n_buckets; i++) {
        for (entry_t *e = c->buckets[i], *next; e; e = next) {
            next = e->bucket_next;
            entry_t **head = &b[e->key.low64 & (cap - 1)];
            e->bucket_next = *head;
            *head = e;
        }
    }
    free(c->buckets);
    c->buckets = b;
    c->n_buckets = cap;
}

static void insert(kvr_turn_cache_t *c, XXH128_hash_t key, size_t text_len, const uint32_t *ids,
                   size_t n_ids)
{
    size_t cost = entry_cost(n_ids);
    if (cost > c->max_bytes || find(c, key, text_len))
        return; /* too big to keep, or another request put it here meanwhile */
    while (c->oldest && c->bytes + cost > c->max_bytes)
        evict_one(c);
    entry_t *e = kvr_xmalloc(sizeof *e + n_ids * sizeof *ids);
    e->key = key;
    e->text_len = text_len;
    e->n_ids = n_ids;
    if (n_ids)
        memcpy(e->ids, ids, n_ids * sizeof *ids);
    maybe_grow(c);
    entry_t **head = bucket_of(c, key);
    e->bucket_next = *head;
    *head = e;
    lru_push_front(c, e);
    c->bytes += cost;
    c->n++;
}

static XXH128_hash_t chain(uint64_t seed, XXH128_hash_t prev, const char *part, size_t len)
{
    XXH3_state_t st;
    XXH3_128bits_reset_withSeed(&st, seed);
    XXH3_128bits_update(&st, &prev, sizeof prev);
    XXH3_128bits_update(&st, part, len);
    return XXH3_128bits_digest(&st);
}

int kvr_turn_cache_encode(kvr_turn_cache_t *c, const kvr_tokenizer_t *tok, const char *text,
                          size_t len, kvr_token_ids_t *ids)
{
    if (!c || !tok || !ids || !text || len == 0 || !kvr__tok_utf8_valid(text, len))
        return kvr_tokenizer_encode(tok, text, len, false, ids); /* nothing to cut, or not as is */
    size_t *bounds = kvr_xmalloc((MAX_PARTS + 1) * sizeof *bounds);
    bounds[0] = 0;
    size_t n_parts = kvr__tok_cut_points(tok, text, len, bounds + 1, MAX_PARTS - 1) + 1;
    bounds[n_parts] = len;
    XXH128_hash_t *keys = kvr_xmalloc(n_parts * sizeof *keys);
    size_t *ends = kvr_xmalloc(n_parts * sizeof *ends);
    XXH128_hash_t prev = {.low64 = tok->fingerprint, .high64 = 0};
    for (size_t i = 0; i < n_parts; i++)
        prev = keys[i] = chain(c->seed, prev, text + bounds[i], bounds[i + 1] - bounds[i]);

    size_t base = ids->len, reused = 0;
    pthread_mutex_lock(&c->lock);
    for (; reused < n_parts; reused++) {
        entry_t *e = find(c, keys[reused], bounds[reused + 1] - bounds[reused]);
        if (!e)
            break;
        for (size_t k = 0; k < e->n_ids; k++)
            kvr__tok_ids_push(ids, e->ids[k]);
        lru_unlink(c, e);
        lru_push_front(c, e);
    }
    pthread_mutex_unlock(&c->lock);

    int rc = 0;
    size_t tokenized_from = ids->len;
    if (reused < n_parts)
        rc = kvr__tok_encode_ranges(tok, text, bounds + reused, n_parts - reused, ids, ends);
    pthread_mutex_lock(&c->lock);
    if (rc == 0) {
        c->hits += reused;
        c->hit_text_bytes += bounds[reused];
        c->misses += n_parts - reused;
        c->miss_text_bytes += len - bounds[reused];
        size_t from = tokenized_from;
        for (size_t i = reused; i < n_parts; i++) {
            size_t to = ends[i - reused];
            insert(c, keys[i], bounds[i + 1] - bounds[i], ids->ids + from, to - from);
            from = to;
        }
    }
    pthread_mutex_unlock(&c->lock);
    if (rc < 0)
        ids->len = base;
    free(ends);
    free(keys);
    free(bounds);
    return rc;
}
