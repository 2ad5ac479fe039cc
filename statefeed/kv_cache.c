/* SPDX-License-Identifier: Apache-2.0 */
/* One engine's KV blocks from its events (kv_cache.h). */
#include "statefeed/kv_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefix_hash.h"

#define INITIAL_CAP 1024

static size_t bucket_of(uint64_t h, size_t cap)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static kvr_kv_entry_t *find(const kvr_kv_cache_t *kc, uint64_t engine_hash)
{
    if (engine_hash == 0)
        return kc->has_zero ? (kvr_kv_entry_t *)&kc->zero_entry : NULL;
    for (size_t i = bucket_of(engine_hash, kc->cap);; i = (i + 1) & (kc->cap - 1)) {
        kvr_kv_entry_t *e = &kc->table[i];
        if (e->engine_hash == engine_hash)
            return e;
        if (e->engine_hash == 0)
            return NULL;
    }
}

static kvr_kv_entry_t *insert_slot(kvr_kv_entry_t *table, size_t cap, uint64_t engine_hash)
{
    size_t i = bucket_of(engine_hash, cap);
    while (table[i].engine_hash != 0 && table[i].engine_hash != engine_hash)
        i = (i + 1) & (cap - 1);
    return &table[i];
}

static int grow(kvr_kv_cache_t *kc)
{
    size_t cap = kc->cap * 2;
    kvr_kv_entry_t *t = calloc(cap, sizeof(*t));
    if (t == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < kc->cap; i++)
        if (kc->table[i].engine_hash != 0)
            *insert_slot(t, cap, kc->table[i].engine_hash) = kc->table[i];
    free(kc->table);
    kc->table = t;
    kc->cap = cap;
    return 0;
}

/* Backward-shift deletion keeps linear probing free of tombstones. */
static void erase(kvr_kv_cache_t *kc, kvr_kv_entry_t *e)
{
    if (e == &kc->zero_entry) {
        kc->has_zero = false;
        return;
    }
    size_t mask = kc->cap - 1;
    size_t i = (size_t)(e - kc->table);
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (kc->table[j].engine_hash == 0)
            break;
        size_t home = bucket_of(kc->table[j].engine_hash, kc->cap);
        /* move j back to i when its home is not in (i, j] cyclically */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            kc->table[i] = kc->table[j];
            i = j;
        }
    }
    kc->table[i].engine_hash = 0;
    kc->used--;
}

int kvr_kv_cache_init(kvr_kv_cache_t *kc, uint32_t slot, const kvr_kv_sink_t *sink,
                      size_t max_blocks)
{
    memset(kc, 0, sizeof(*kc));
    kc->slot = slot;
    if (sink != NULL)
        kc->sink = *sink;
    kc->max_blocks = max_blocks;
    kc->trusted = true;
    kc->cap = INITIAL_CAP;
    kc->table = calloc(kc->cap, sizeof(*kc->table));
    kc->scratch = malloc(KVR_KV_MAX_BLOCKS * sizeof(*kc->scratch));
    if (kc->table == NULL || kc->scratch == NULL) {
        kvr_kv_cache_close(kc);
        return -ENOMEM;
    }
    return 0;
}

void kvr_kv_cache_close(kvr_kv_cache_t *kc)
{
    free(kc->table);
    free(kc->scratch);
    kc->table = NULL;
    kc->scratch = NULL;
}

uint64_t kvr_kv_cache_blocks(const kvr_kv_cache_t *kc)
{
    uint64_t n = 0;
    for (int t = 0; t < KVR_KV_TIERS; t++)
        n += kc->blocks[t];
    return n;
}

uint64_t kvr_kv_cache_lookup(const kvr_kv_cache_t *kc, uint64_t engine_hash)
{
    const kvr_kv_entry_t *e = find(kc, engine_hash);
    return e != NULL ? e->kvr_hash : 0;
}

void kvr_kv_cache_set_trust(kvr_kv_cache_t *kc, bool trusted)
{
    if (kc->trusted == trusted)
        return;
    kc->trusted = trusted;
    if (kc->sink.trust != NULL)
        kc->sink.trust(kc->sink.ctx, kc->slot, trusted);
}

void kvr_kv_cache_clear(kvr_kv_cache_t *kc)
{
    memset(kc->table, 0, kc->cap * sizeof(*kc->table));
    kc->used = 0;
    kc->has_zero = false;
    memset(kc->blocks, 0, sizeof(kc->blocks));
    if (kc->sink.cleared != NULL)
        kc->sink.cleared(kc->sink.ctx, kc->slot);
}

static void store_one(kvr_kv_cache_t *kc, uint64_t engine_hash, uint64_t kvr_hash,
                      kvr_kv_tier_t tier)
{
    kvr_kv_entry_t *e = find(kc, engine_hash);
    if (e == NULL) {
        if (kc->used + kc->has_zero >= kc->max_blocks) {
            kc->overflows++;
            kvr_kv_cache_set_trust(kc, false);
            return;
        }
        if (engine_hash == 0) {
            e = &kc->zero_entry;
            kc->has_zero = true;
        } else {
            if ((kc->used + 1) * 2 > kc->cap && grow(kc) < 0) {
                kc->overflows++;
                kvr_kv_cache_set_trust(kc, false);
                return;
            }
            e = insert_slot(kc->table, kc->cap, engine_hash);
            kc->used++;
        }
        *e = (kvr_kv_entry_t){.engine_hash = engine_hash, .kvr_hash = kvr_hash};
    } else if (e->kvr_hash != kvr_hash) {
        /* the engine reused a hash for other tokens: the old block is gone */
        for (int t = 0; t < KVR_KV_TIERS; t++)
            if (e->tiers & (1u << t)) {
                kc->blocks[t]--;
                if (kc->sink.removed != NULL)
                    kc->sink.removed(kc->sink.ctx, kc->slot, e->kvr_hash, (kvr_kv_tier_t)t);
            }
        e->tiers = 0;
        e->kvr_hash = kvr_hash;
    }
    if (e->tiers & (1u << tier))
        return;
    e->tiers |= (uint8_t)(1u << tier);
    kc->blocks[tier]++;
    if (kc->sink.stored != NULL)
        kc->sink.stored(kc->sink.ctx, kc->slot, kvr_hash, tier);
}

static void apply_stored(kvr_kv_cache_t *kc, const kvr_kv_event_t *ev)
{
    kc->block_size = ev->block_size;
    uint64_t root;
    if (ev->has_parent) {
        const kvr_kv_entry_t *p = find(kc, ev->parent);
        if (p == NULL) {
            kc->orphans += ev->n_hashes;
            return;
        }
        root = p->kvr_hash;
    } else if (ev->lora_name != NULL) {
        root = kvr_token_chain_root(ev->lora_name, ev->lora_name_len);
    } else if (ev->has_lora_id) {
        kc->orphans += ev->n_hashes;
        return;
    } else {
        root = KVR_TOKEN_CHAIN_ROOT;
    }
    size_t full = ev->n_tokens / ev->block_size;
    if (ev->n_tokens % ev->block_size != 0 || full != ev->n_hashes)
        kc->partial_tokens++;
    size_t named = full < ev->n_hashes ? full : ev->n_hashes;
    if (named > ev->extra_keys_from)
        named = ev->extra_keys_from;
    size_t got = kvr_token_hash_blocks(root, ev->token_ids, named * ev->block_size, ev->block_size,
                                       kc->scratch, KVR_KV_MAX_BLOCKS);
    if (got < named)
        named = got;
    for (size_t i = 0; i < named; i++)
        store_one(kc, ev->engine_hashes[i], kc->scratch[i], ev->tier);
    kc->orphans += ev->n_hashes - named;
    kc->stored += named;
}

static void apply_removed(kvr_kv_cache_t *kc, const kvr_kv_event_t *ev)
{
    for (size_t i = 0; i < ev->n_hashes; i++) {
        kvr_kv_entry_t *e = find(kc, ev->engine_hashes[i]);
        if (e == NULL || !(e->tiers & (1u << ev->tier))) {
            kc->unknown_removed++;
            continue;
        }
        e->tiers &= (uint8_t) ~(1u << ev->tier);
        kc->blocks[ev->tier]--;
        kc->removed++;
        if (kc->sink.removed != NULL)
            kc->sink.removed(kc->sink.ctx, kc->slot, e->kvr_hash, ev->tier);
        if (e->tiers == 0)
            erase(kc, e);
    }
}

int kvr_kv_cache_apply(kvr_kv_cache_t *kc, const kvr_kv_event_t *ev)
{
    /* Hybrid models send a group per attention kind; prefix reuse is the first (full) one's. */
    if (ev->group_idx > 0) {
        kc->other_groups++;
        return 0;
    }
    switch (ev->kind) {
    case KVR_KV_EVENT_STORED: apply_stored(kc, ev); break;
    case KVR_KV_EVENT_REMOVED: apply_removed(kc, ev); break;
    case KVR_KV_EVENT_CLEARED:
        kc->cleared++;
        kvr_kv_cache_clear(kc);
        break;
    }
    return 0;
}
