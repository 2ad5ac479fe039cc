/* SPDX-License-Identifier: Apache-2.0 */
#include "router/feed_slots.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

void kvr_feed_slots_close(kvr_feed_slots_t *m)
{
    free(m->slot);
    free(m->hash);
    memset(m, 0, sizeof *m);
}

static uint64_t id_hash(const char *id)
{
    return XXH3_64bits(id, strlen(id));
}

/* Every slot read once, in slot order, so a probe meets the lowest slot of an id first. */
static int build(kvr_feed_slots_t *m, const kvr_shm_t *shm, uint64_t key)
{
    uint32_t want = 2;
    while (want < 2 * (uint64_t)shm->capacity && want < (1u << 31))
        want <<= 1;
    if (want != m->n_buckets) {
        kvr_feed_slots_close(m);
        m->slot = malloc(want * sizeof *m->slot);
        m->hash = malloc(want * sizeof *m->hash);
        if (!m->slot || !m->hash) {
            kvr_feed_slots_close(m);
            return -ENOMEM;
        }
        m->n_buckets = want;
    }
    for (uint32_t b = 0; b < m->n_buckets; b++)
        m->slot[b] = -1;
    kvr_engine_state_t state;
    for (uint32_t i = 0; i < shm->capacity; i++) {
        if (kvr_shm_read_slot(shm, i, 0, &state, NULL) != 0)
            continue;
        uint64_t h = id_hash(state.engine_id);
        uint32_t b = (uint32_t)h & (m->n_buckets - 1);
        while (m->slot[b] >= 0)
            b = (b + 1) & (m->n_buckets - 1);
        m->slot[b] = (int32_t)i;
        m->hash[b] = h;
    }
    m->built = true;
    m->key = key;
    return 0;
}

int kvr_feed_slots_find(kvr_feed_slots_t *m, const kvr_shm_t *shm, uint64_t key,
                        const char *engine_id)
{
    if ((!m->built || m->key != key) && build(m, shm, key) < 0)
        return kvr_shm_find(shm, engine_id);
    uint64_t h = id_hash(engine_id);
    kvr_engine_state_t state;
    for (uint32_t b = (uint32_t)h & (m->n_buckets - 1); m->slot[b] >= 0;
         b = (b + 1) & (m->n_buckets - 1)) {
        if (m->hash[b] != h)
            continue;
        /* The slot may have changed hands since the map was built: confirm it holds the id. */
        if (kvr_shm_read_slot(shm, (uint32_t)m->slot[b], 0, &state, NULL) == 0 &&
            strcmp(state.engine_id, engine_id) == 0)
            return m->slot[b];
        /* It changed hands without a new generation: the next lookup builds the map again. */
        m->built = false;
        break;
    }
    /* Not in the map (or no longer where it was): the scan answers, as it did for every engine. */
    return kvr_shm_find(shm, engine_id);
}
