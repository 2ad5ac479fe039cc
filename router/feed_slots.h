/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_FEED_SLOTS_H
#define KVR_ROUTER_FEED_SLOTS_H

/*
 * Which slot of the statefeed segment holds an engine, for the feed reader
 * (router/feed.c). Slot indexes hold for one table generation of one mapped
 * object; when it changes every engine looks its slot up again. One scan of
 * the segment per engine made that 16,384 × 16,384 slot reads on a full
 * table, so the first lookup of a generation reads every slot once into a
 * hash map of ids, and each engine's lookup then reads one slot to confirm
 * it. The answer is kvr_shm_find's: the lowest slot that holds the id.
 */

#include <stdbool.h>
#include <stdint.h>

#include "shm_layout/shm_layout.h"

typedef struct kvr_feed_slots_s {
    bool built;
    uint64_t key;       /* the generation key the map was built for */
    uint32_t n_buckets; /* a power of two, at least twice the slots */
    int32_t *slot;      /* per bucket: a slot index, -1 empty */
    uint64_t *hash;     /* per bucket: the hash of that slot's engine id */
} kvr_feed_slots_t;

/**
 * The slot of shm holding engine_id under generation key (the caller's
 * generation and mapping key), or -ENOENT; as kvr_shm_find, in one slot
 * read once the generation's map is built.
 */
int kvr_feed_slots_find(kvr_feed_slots_t *m, const kvr_shm_t *shm, uint64_t key,
                        const char *engine_id);
/** Frees the map. */
void kvr_feed_slots_close(kvr_feed_slots_t *m);

#endif
