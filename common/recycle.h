/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_RECYCLE_H
#define KVR_COMMON_RECYCLE_H

/*
 * The one object recycler (h2o's h2o_mem_recycle_t): a bounded stack of
 * finished objects of one kind kept for the next ones, so a hot path does
 * not pay malloc + free (and the re-growth of the buffers an object owns)
 * per request. It lives in the object that owns the objects' lifetime (the
 * router, the HTTP server), never at file scope, and is used from that
 * object's one thread. What an object keeps across a reuse, and how it is
 * reset, is its module's business: the recycler only stores pointers.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct kvr_recycle_s {
    void **items; /* allocated at the first put */
    size_t count;
    size_t max;                 /* objects kept at most */
    void (*destroy)(void *obj); /* frees an object and what it owns */
} kvr_recycle_t;

/** Sets up an empty recycler keeping at most max objects; destroy frees one (kvr_recycle_close, full puts). */
static inline void kvr_recycle_init(kvr_recycle_t *r, size_t max, void (*destroy)(void *obj))
{
    r->items = NULL;
    r->count = 0;
    r->max = max;
    r->destroy = destroy;
}

/** A kept object (the caller resets it), or NULL when none is kept. */
static inline void *kvr_recycle_take(kvr_recycle_t *r)
{
    return r->count ? r->items[--r->count] : NULL;
}

/** Keeps obj for a later take; when the recycler is full (or cannot grow) obj is destroyed. */
static inline void kvr_recycle_put(kvr_recycle_t *r, void *obj)
{
    if (!r->items && r->max)
        r->items = malloc(r->max * sizeof *r->items);
    if (!r->items || r->count >= r->max) {
        r->destroy(obj);
        return;
    }
    r->items[r->count++] = obj;
}

/** Destroys every kept object; the recycler is empty and reusable afterwards. */
static inline void kvr_recycle_close(kvr_recycle_t *r)
{
    while (r->count)
        r->destroy(r->items[--r->count]);
    free(r->items);
    r->items = NULL;
}

#endif
