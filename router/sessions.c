/* SPDX-License-Identifier: Apache-2.0 */
#include "router/sessions.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/xmalloc.h"

#define SESSIONS_INITIAL_BUCKETS 1024

int kvr_sessions_init(kvr_session_table_t *t, uint64_t ttl_ns, size_t max_sessions)
{
    memset(t, 0, sizeof *t);
    t->buckets = calloc(SESSIONS_INITIAL_BUCKETS, sizeof *t->buckets);
    if (!t->buckets)
        return -ENOMEM;
    t->n_buckets = SESSIONS_INITIAL_BUCKETS;
    t->ttl_ns = ttl_ns;
    t->max_sessions = max_sessions ? max_sessions : 1;
    return 0;
}

void kvr_sessions_close(kvr_session_table_t *t)
{
    kvr_session_t *s = t->newest;
    while (s) {
        kvr_session_t *next = s->older;
        free(s->id);
        free(s);
        s = next;
    }
    free(t->buckets);
    memset(t, 0, sizeof *t);
}

static void list_unlink(kvr_session_table_t *t, kvr_session_t *s)
{
    if (s->newer)
        s->newer->older = s->older;
    else
        t->newest = s->older;
    if (s->older)
        s->older->newer = s->newer;
    else
        t->oldest = s->newer;
    s->newer = s->older = NULL;
}

static void list_push_newest(kvr_session_table_t *t, kvr_session_t *s)
{
    s->newer = NULL;
    s->older = t->newest;
    if (t->newest)
        t->newest->newer = s;
    t->newest = s;
    if (!t->oldest)
        t->oldest = s;
}

static void drop(kvr_session_table_t *t, kvr_session_t *s)
{
    kvr_session_t **pp = &t->buckets[s->hash & (t->n_buckets - 1)];
    while (*pp != s)
        pp = &(*pp)->hnext;
    *pp = s->hnext;
    list_unlink(t, s);
    t->count--;
    free(s->id);
    free(s);
}

/* Doubling keeps chains short; on allocation failure the table just stays denser. */
static void maybe_grow(kvr_session_table_t *t)
{
    if (t->count < t->n_buckets)
        return;
    size_t n = t->n_buckets * 2;
    kvr_session_t **b = calloc(n, sizeof *b);
    if (!b)
        return;
    for (size_t i = 0; i < t->n_buckets; i++) {
        kvr_session_t *s = t->buckets[i];
        while (s) {
            kvr_session_t *next = s->hnext;
            s->hnext = b[s->hash & (n - 1)];
            b[s->hash & (n - 1)] = s;
            s = next;
        }
    }
    free(t->buckets);
    t->buckets = b;
    t->n_buckets = n;
}

static kvr_session_t *lookup(const kvr_session_table_t *t, const char *id, uint64_t hash)
{
    for (kvr_session_t *s = t->buckets[hash & (t->n_buckets - 1)]; s; s = s->hnext)
        if (s->hash == hash && strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

kvr_session_t *kvr_sessions_get(kvr_session_table_t *t, const char *id, uint64_t now_ns)
{
    uint64_t hash = XXH3_64bits(id, strlen(id));
    kvr_session_t *s = lookup(t, id, hash);
    if (s && now_ns - s->last_used_ns > t->ttl_ns) {
        drop(t, s);
        t->expired_total++;
        return NULL;
    }
    return s;
}

void kvr_sessions_touch(kvr_session_table_t *t, kvr_session_t *s, uint64_t now_ns)
{
    s->last_used_ns = now_ns;
    if (t->newest != s) {
        list_unlink(t, s);
        list_push_newest(t, s);
    }
}

kvr_session_t *kvr_sessions_pin(kvr_session_table_t *t, const char *id, uint32_t engine,
                                uint64_t now_ns)
{
    uint64_t hash = XXH3_64bits(id, strlen(id));
    kvr_session_t *s = lookup(t, id, hash);
    if (!s) {
        while (t->count >= t->max_sessions && t->oldest) {
            drop(t, t->oldest);
            t->evicted_total++;
        }
        s = kvr_xcalloc(1, sizeof *s);
        s->id = kvr_xstrdup(id);
        s->hash = hash;
        s->hnext = t->buckets[hash & (t->n_buckets - 1)];
        t->buckets[hash & (t->n_buckets - 1)] = s;
        t->count++;
        list_push_newest(t, s);
        maybe_grow(t);
    }
    s->engine = engine;
    s->placed_ns = now_ns;
    kvr_sessions_touch(t, s, now_ns);
    return s;
}

size_t kvr_sessions_expire(kvr_session_table_t *t, uint64_t now_ns)
{
    size_t n = 0;
    while (t->oldest && now_ns - t->oldest->last_used_ns > t->ttl_ns) {
        drop(t, t->oldest);
        n++;
    }
    t->expired_total += n;
    return n;
}

size_t kvr_sessions_forget_engine(kvr_session_table_t *t, uint32_t engine)
{
    size_t n = 0;
    for (kvr_session_t *s = t->newest, *older; s; s = older) {
        older = s->older;
        if (s->engine == engine) {
            drop(t, s);
            n++;
        }
    }
    return n;
}

size_t kvr_sessions_count_on(const kvr_session_table_t *t, uint32_t engine)
{
    size_t n = 0;
    for (const kvr_session_t *s = t->newest; s; s = s->older)
        n += s->engine == engine;
    return n;
}
