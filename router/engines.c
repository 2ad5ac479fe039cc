/* SPDX-License-Identifier: Apache-2.0 */
#include "router/engines.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kvr_engine_table_init(kvr_engine_table_t *t, uint32_t max_engines)
{
    memset(t, 0, sizeof *t);
    if (max_engines == 0)
        max_engines = KVR_ENGINES_DEFAULT;
    if (max_engines > KVR_MAX_ENGINES)
        return -EINVAL;
    t->engines = calloc(max_engines, sizeof *t->engines);
    t->generations = calloc(max_engines, sizeof *t->generations);
    t->free_indexes = calloc(max_engines, sizeof *t->free_indexes);
    if (!t->engines || !t->generations || !t->free_indexes) {
        free(t->engines);
        free(t->generations);
        free(t->free_indexes);
        memset(t, 0, sizeof *t);
        return -ENOMEM;
    }
    t->max_engines = max_engines;
    return 0;
}

static void engine_free(kvr_engine_t *e)
{
    kvr_model_list_close(&e->models);
    free(e->id);
    free(e);
}

void kvr_engine_table_close(kvr_engine_table_t *t)
{
    for (uint32_t i = 0; i < t->n_slots; i++)
        if (t->engines[i])
            engine_free(t->engines[i]);
    free(t->engines);
    free(t->generations);
    free(t->free_indexes);
    memset(t, 0, sizeof *t);
}

kvr_engine_t *kvr_engine_table_find(const kvr_engine_table_t *t, const char *id)
{
    for (uint32_t i = 0; i < t->n_slots; i++) {
        kvr_engine_t *e = t->engines[i];
        if (e && !e->removed && strcmp(e->id, id) == 0)
            return e;
    }
    return NULL;
}

kvr_engine_t *kvr_engine_table_get(const kvr_engine_table_t *t, uint32_t index)
{
    return index < t->n_slots ? t->engines[index] : NULL;
}

kvr_engine_t *kvr_engine_table_lookup(const kvr_engine_table_t *t, uint32_t index,
                                      uint32_t generation)
{
    kvr_engine_t *e = kvr_engine_table_get(t, index);
    return e && e->generation == generation ? e : NULL;
}

int kvr_engine_table_add(kvr_engine_table_t *t, const char *id, kvr_engine_t **out)
{
    if (!id[0])
        return -EINVAL;
    if (strlen(id) >= KVR_SHM_ENGINE_ID_MAX)
        return -ENAMETOOLONG; /* the feed could never name it */

    /* One pass: the same id in the table is either a duplicate or a removed engine coming back. */
    kvr_engine_t *e = NULL;
    for (uint32_t i = 0; i < t->n_slots; i++) {
        kvr_engine_t *same = t->engines[i];
        if (!same || strcmp(same->id, id) != 0)
            continue;
        if (!same->removed)
            return -EEXIST;
        e = same;
    }
    if (!e) {
        if (t->n_free == 0 && t->n_slots >= t->max_engines)
            return -ENOSPC;
        e = calloc(1, sizeof *e);
        if (!e)
            return -ENOMEM;
        e->id = strdup(id);
        if (!e->id) {
            free(e);
            return -ENOMEM;
        }
        if (t->n_free > 0) {
            /* The index freed longest ago: whatever still names it by number had the most time to go. */
            e->index = t->free_indexes[t->free_first];
            t->free_first = (t->free_first + 1) % t->max_engines;
            t->n_free--;
        } else {
            e->index = t->n_slots++;
        }
        e->generation = t->generations[e->index];
        t->engines[e->index] = e;
    }
    e->removed = false;
    e->healthy = true; /* optimistic: the first failure or health check says otherwise */
    e->consecutive_failures = 0;
    e->feed_slot = -1;
    e->feed_generation = 0;
    t->count++;
    *out = e;
    return 0;
}

void kvr_engine_table_remove(kvr_engine_table_t *t, kvr_engine_t *e)
{
    if (e->removed)
        return;
    e->removed = true;
    e->healthy = false;
    t->count--;
}

int kvr_engine_table_free(kvr_engine_table_t *t, kvr_engine_t *e)
{
    if (!e->removed || e->shadow_requests != 0)
        return -EBUSY;
    uint32_t index = e->index;
    assert(index < t->n_slots && t->engines[index] == e && t->n_free < t->max_engines);
    t->engines[index] = NULL;
    t->generations[index] = e->generation + 1;
    t->free_indexes[(t->free_first + t->n_free) % t->max_engines] = index;
    t->n_free++;
    t->freed_total++;
    engine_free(e);
    return 0;
}

void kvr_charge_begin(kvr_charge_t *c, kvr_engine_t *e, uint32_t prompt_tokens)
{
    assert(!c->engine);
    c->engine = e;
    c->prompt_tokens = prompt_tokens;
    c->prefill_pending = true;
    c->kv_tokens = prompt_tokens;
    c->seed_lease = false;
    c->sent_ns = 0;
    e->shadow_requests++;
    e->shadow_pending_prefill_tokens += prompt_tokens;
    e->shadow_kv_tokens += prompt_tokens;
    e->dispatched_total++;
}

void kvr_charge_first_byte(kvr_charge_t *c)
{
    if (!c->engine || !c->prefill_pending)
        return;
    c->prefill_pending = false;
    assert(c->engine->shadow_pending_prefill_tokens >= c->prompt_tokens);
    c->engine->shadow_pending_prefill_tokens -= c->prompt_tokens;
}

void kvr_charge_progress(kvr_charge_t *c, uint64_t generated_tokens)
{
    if (!c->engine)
        return;
    uint64_t kv = (uint64_t)c->prompt_tokens + generated_tokens;
    if (kv <= c->kv_tokens)
        return;
    c->engine->shadow_kv_tokens += kv - c->kv_tokens;
    c->kv_tokens = kv;
}

void kvr_charge_end(kvr_charge_t *c)
{
    kvr_engine_t *e = c->engine;
    if (!e)
        return;
    kvr_charge_first_byte(c);
    assert(e->shadow_requests > 0 && e->shadow_kv_tokens >= c->kv_tokens);
    e->shadow_requests--;
    e->shadow_kv_tokens -= c->kv_tokens;
    /* Ended before a sample showed it: no sample will, so it is no longer sent-since either. */
    for (uint32_t i = 0; c->sent_ns && i < KVR_ENGINE_SENT_RING; i++)
        if (e->sent_ns[i] == c->sent_ns) {
            e->sent_ns[i] = 0;
            break;
        }
    c->sent_ns = 0;
    c->engine = NULL;
    c->kv_tokens = 0;
}
