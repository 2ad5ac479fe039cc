/* SPDX-License-Identifier: Apache-2.0 */
#include "router/prefix_index.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Layout: a pool of (block, engine) entries, each on three lists — the
 * holders of its block (singly linked, reached from an open-addressing
 * table keyed by block hash), its engine's LRU list and the fleet-wide LRU
 * list (both doubly linked). Indices instead of pointers halve the size of
 * an entry; index 0 is the null entry.
 */
typedef struct entry_s {
    uint64_t hash;
    uint64_t placed_ns;    /* first sent to this engine */
    uint64_t touched_ns;   /* last sent to this engine: LRU order and TTL */
    uint32_t next_holder;  /* next entry of the same block; free-list link when unused */
    uint32_t eprev, enext; /* engine LRU, prev = more recent */
    uint32_t gprev, gnext; /* fleet LRU */
    uint16_t engine;
} entry_t;

typedef struct slot_s {
    uint64_t hash;
    uint32_t head;      /* first holder; 0 = empty slot */
    uint32_t n_holders; /* lets a walk see where engines drop out without reading entries */
} slot_t;

typedef struct engine_s {
    uint32_t head, tail; /* head = most recently sent */
    uint64_t tokens;
    uint32_t mark; /* survivor mark at a walk's drop point */
} engine_t;

struct kvr_prefix_index_s {
    entry_t *entries; /* [0] unused */
    uint32_t max_entries;
    uint32_t free_head;
    uint32_t next_unused; /* entries never handed out start here */
    uint32_t ghead, gtail;
    slot_t *slots;
    uint64_t slot_mask;
    uint32_t slot_shift;
    uint64_t default_budget;
    uint64_t ttl_ns;
    uint32_t mark;
    uint16_t alive[KVR_MAX_ENGINES]; /* scratch of a walk: engines matching every block so far */
    /*
     * The last walk's result: matched blocks per engine index, 0 for the
     * engines it did not match, which are all but the n_matched listed in
     * matched (cleared by the next walk, so no walk costs more than its
     * matches). Kept apart from engines[] so that a pass over a fleet's
     * views reads 4 bytes per engine, and budgets likewise 8.
     */
    uint32_t match[KVR_MAX_ENGINES];
    uint16_t matched[KVR_MAX_ENGINES];
    uint32_t n_matched;
    uint64_t budget[KVR_MAX_ENGINES]; /* 0 = the index default */
    uint32_t *prompt;                 /* scratch of an insert: the prompt's entry per block */
    size_t prompt_cap;
    kvr_prefix_index_stats_t stats;
    engine_t engines[KVR_MAX_ENGINES];
};

#define TPB KVR_PREFIX_INDEX_TOKENS_PER_BLOCK

static inline uint64_t slot_of(const kvr_prefix_index_t *idx, uint64_t hash)
{
    /* Fibonacci hashing: callers and tests may use small sequential hashes. */
    return (hash * 0x9E3779B97F4A7C15ull) >> idx->slot_shift;
}

/*
 * A walk touches one random slot and one random entry per block, each a
 * likely cache miss in a table of this size. Blocks are known in advance,
 * so the walk prefetches the slot a few blocks ahead and, once that slot
 * has arrived, its first holder.
 */
#define PREFETCH_SLOT 8
#define PREFETCH_ENTRY 4

static inline void prefetch_slot(const kvr_prefix_index_t *idx, uint64_t hash)
{
    __builtin_prefetch(&idx->slots[slot_of(idx, hash)]);
}

static inline void prefetch_holder(const kvr_prefix_index_t *idx, uint64_t hash)
{
    const slot_t *s = &idx->slots[slot_of(idx, hash)];
    if (s->hash == hash && s->head)
        __builtin_prefetch(&idx->entries[s->head]);
}

static int64_t find_slot(const kvr_prefix_index_t *idx, uint64_t hash)
{
    for (uint64_t i = slot_of(idx, hash);; i = (i + 1) & idx->slot_mask) {
        const slot_t *s = &idx->slots[i];
        if (s->head == 0)
            return -1;
        if (s->hash == hash)
            return (int64_t)i;
    }
}

/* The table holds at most max_entries blocks at twice that capacity, so a free slot always exists. */
static uint64_t find_or_add_slot(kvr_prefix_index_t *idx, uint64_t hash, bool *added)
{
    for (uint64_t i = slot_of(idx, hash);; i = (i + 1) & idx->slot_mask) {
        slot_t *s = &idx->slots[i];
        if (s->head == 0) {
            s->hash = hash;
            *added = true;
            return i;
        }
        if (s->hash == hash) {
            *added = false;
            return i;
        }
    }
}

/* Backward-shift deletion keeps linear probing free of tombstones. */
static void delete_slot(kvr_prefix_index_t *idx, uint64_t hole)
{
    uint64_t i = hole;
    for (;;) {
        i = (i + 1) & idx->slot_mask;
        slot_t *s = &idx->slots[i];
        if (s->head == 0)
            break;
        uint64_t home = slot_of(idx, s->hash);
        /* Move s into the hole unless its home lies cyclically in (hole, i]. */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (!stays) {
            idx->slots[hole] = *s;
            hole = i;
        }
    }
    idx->slots[hole].head = 0;
    idx->slots[hole].hash = 0;
    idx->slots[hole].n_holders = 0;
    idx->stats.blocks--;
}

static void unlink_lists(kvr_prefix_index_t *idx, uint32_t e)
{
    entry_t *x = &idx->entries[e];
    engine_t *eng = &idx->engines[x->engine];
    if (x->eprev)
        idx->entries[x->eprev].enext = x->enext;
    else
        eng->head = x->enext;
    if (x->enext)
        idx->entries[x->enext].eprev = x->eprev;
    else
        eng->tail = x->eprev;
    if (x->gprev)
        idx->entries[x->gprev].gnext = x->gnext;
    else
        idx->ghead = x->gnext;
    if (x->gnext)
        idx->entries[x->gnext].gprev = x->gprev;
    else
        idx->gtail = x->gprev;
    x->eprev = x->enext = x->gprev = x->gnext = 0;
}

static void push_front(kvr_prefix_index_t *idx, uint32_t e)
{
    entry_t *x = &idx->entries[e];
    engine_t *eng = &idx->engines[x->engine];
    x->eprev = 0;
    x->enext = eng->head;
    if (eng->head)
        idx->entries[eng->head].eprev = e;
    else
        eng->tail = e;
    eng->head = e;
    x->gprev = 0;
    x->gnext = idx->ghead;
    if (idx->ghead)
        idx->entries[idx->ghead].gprev = e;
    else
        idx->gtail = e;
    idx->ghead = e;
}

static void remove_entry(kvr_prefix_index_t *idx, uint32_t e)
{
    entry_t *x = &idx->entries[e];
    int64_t si = find_slot(idx, x->hash);
    assert(si >= 0);
    slot_t *s = &idx->slots[si];
    s->n_holders--;
    if (s->head == e) {
        s->head = x->next_holder;
    } else {
        uint32_t p = s->head;
        while (idx->entries[p].next_holder != e)
            p = idx->entries[p].next_holder;
        idx->entries[p].next_holder = x->next_holder;
    }
    if (s->head == 0)
        delete_slot(idx, (uint64_t)si);
    unlink_lists(idx, e);
    idx->engines[x->engine].tokens -= TPB;
    x->next_holder = idx->free_head;
    idx->free_head = e;
    idx->stats.entries--;
}

static inline bool expired(const kvr_prefix_index_t *idx, const entry_t *x, uint64_t now_ns)
{
    return idx->ttl_ns != 0 && now_ns > x->touched_ns && now_ns - x->touched_ns > idx->ttl_ns;
}

/* The fleet LRU tail is the oldest entry, so expiry is amortised O(1) per insert. */
static void expire_old(kvr_prefix_index_t *idx, uint64_t now_ns)
{
    while (idx->gtail && expired(idx, &idx->entries[idx->gtail], now_ns)) {
        remove_entry(idx, idx->gtail);
        idx->stats.expired++;
    }
}

static inline uint64_t budget_of(const kvr_prefix_index_t *idx, uint32_t engine)
{
    uint64_t b = idx->budget[engine];
    return b ? b : idx->default_budget;
}

static void enforce_budget(kvr_prefix_index_t *idx, uint32_t engine)
{
    engine_t *eng = &idx->engines[engine];
    uint64_t budget = budget_of(idx, engine);
    while (eng->tokens > budget && eng->tail) {
        remove_entry(idx, eng->tail);
        idx->stats.evicted_budget++;
        /* As in evict_oldest: fetch the next victims while this one goes. */
        if (eng->tail && idx->entries[eng->tail].eprev) {
            const entry_t *next = &idx->entries[idx->entries[eng->tail].eprev];
            prefetch_slot(idx, next->hash);
            if (next->eprev)
                __builtin_prefetch(&idx->entries[next->eprev]);
        }
    }
}

static void evict_oldest(kvr_prefix_index_t *idx)
{
    remove_entry(idx, idx->gtail);
    idx->stats.evicted_global++;
    /*
     * Evictions come in runs (one per new block of a prompt) and walk the
     * LRU list from its tail, so the next victim's slot and the one after
     * it are fetched while this one is removed.
     */
    if (idx->gtail && idx->entries[idx->gtail].gprev) {
        /* Two ahead: the entry one ahead was fetched by the previous eviction. */
        const entry_t *next = &idx->entries[idx->entries[idx->gtail].gprev];
        prefetch_slot(idx, next->hash);
        if (next->gprev)
            __builtin_prefetch(&idx->entries[next->gprev]);
    }
}

static uint32_t alloc_entry(kvr_prefix_index_t *idx)
{
    if (idx->free_head) {
        uint32_t e = idx->free_head;
        idx->free_head = idx->entries[e].next_holder;
        return e;
    }
    if (idx->next_unused <= idx->max_entries)
        return idx->next_unused++;
    /* Full: the fleet-wide least recently sent entry goes. */
    evict_oldest(idx);
    uint32_t e = idx->free_head;
    idx->free_head = idx->entries[e].next_holder;
    return e;
}

int kvr_prefix_index_create(uint64_t tokens_per_engine, uint64_t ttl_ns, uint64_t max_entries,
                            kvr_prefix_index_t **out)
{
    if (max_entries < 1 || max_entries > (1ull << 30) || tokens_per_engine < TPB)
        return -EINVAL;
    kvr_prefix_index_t *idx = calloc(1, sizeof(*idx));
    if (!idx)
        return -ENOMEM;
    idx->max_entries = (uint32_t)max_entries;
    idx->entries = calloc(max_entries + 1, sizeof(entry_t));
    if (!idx->entries)
        goto fail_entries;
    uint32_t bits = 4;
    while ((1ull << bits) < 2 * max_entries)
        bits++;
    idx->slot_mask = (1ull << bits) - 1;
    idx->slot_shift = 64 - bits;
    idx->slots = calloc(1ull << bits, sizeof(slot_t));
    if (!idx->slots)
        goto fail_slots;
    idx->next_unused = 1;
    idx->default_budget = tokens_per_engine;
    idx->ttl_ns = ttl_ns;
    *out = idx;
    return 0;

fail_slots:
    free(idx->entries);
fail_entries:
    free(idx);
    return -ENOMEM;
}

void kvr_prefix_index_destroy(kvr_prefix_index_t *idx)
{
    if (!idx)
        return;
    free(idx->prompt);
    free(idx->slots);
    free(idx->entries);
    free(idx);
}

void kvr_prefix_index_set_budget(kvr_prefix_index_t *idx, uint32_t engine_index, uint64_t tokens)
{
    assert(engine_index < KVR_MAX_ENGINES);
    if (tokens != 0 && tokens < TPB)
        tokens = TPB;
    idx->budget[engine_index] = tokens;
    enforce_budget(idx, engine_index);
}

void kvr_prefix_index_learn(kvr_prefix_index_t *idx, const kvr_engine_view_t *views, size_t n)
{
    for (size_t v = 0; v < n; v++) {
        uint64_t cap = views[v].kv_capacity_tokens;
        if (cap != 0 && views[v].index < KVR_MAX_ENGINES && idx->budget[views[v].index] != cap)
            kvr_prefix_index_set_budget(idx, views[v].index, cap);
    }
}

static uint32_t find_holder(const kvr_prefix_index_t *idx, uint64_t hash, uint32_t engine_index)
{
    int64_t si = find_slot(idx, hash);
    if (si < 0)
        return 0;
    for (uint32_t e = idx->slots[si].head; e; e = idx->entries[e].next_holder)
        if (idx->entries[e].engine == engine_index)
            return e;
    return 0;
}

/*
 * find_holder for recording: the entry found moves to the front of its
 * block's holders, so a session's next turn on the same engine finds it
 * first even when a shared prefix has many holders.
 */
static uint32_t find_holder_to_front(kvr_prefix_index_t *idx, uint64_t hash, uint32_t engine_index)
{
    int64_t si = find_slot(idx, hash);
    if (si < 0)
        return 0;
    slot_t *s = &idx->slots[si];
    for (uint32_t prev = 0, e = s->head; e; prev = e, e = idx->entries[e].next_holder) {
        if (idx->entries[e].engine != engine_index)
            continue;
        if (prev) {
            idx->entries[prev].next_holder = idx->entries[e].next_holder;
            idx->entries[e].next_holder = s->head;
            s->head = e;
        }
        return e;
    }
    return 0;
}

static void touch(kvr_prefix_index_t *idx, uint32_t e, uint64_t now_ns)
{
    entry_t *x = &idx->entries[e];
    if (expired(idx, x, now_ns))
        x->placed_ns = now_ns;
    x->touched_ns = now_ns;
    unlink_lists(idx, e);
    push_front(idx, e);
}

/* A fresh entry for (hash, engine), on its block's holders but on no LRU list yet. */
static uint32_t new_entry(kvr_prefix_index_t *idx, uint64_t hash, uint32_t engine_index,
                          uint64_t now_ns)
{
    /* Allocation may evict and shift slots, so the slot is found after it. */
    uint32_t e = alloc_entry(idx);
    bool added;
    uint64_t slot = find_or_add_slot(idx, hash, &added);
    entry_t *x = &idx->entries[e];
    memset(x, 0, sizeof(*x));
    x->hash = hash;
    x->placed_ns = now_ns;
    x->touched_ns = now_ns;
    x->engine = (uint16_t)engine_index;
    x->next_holder = idx->slots[slot].head;
    idx->slots[slot].head = e;
    idx->slots[slot].n_holders++;
    if (added)
        idx->stats.blocks++;
    idx->stats.entries++;
    idx->engines[engine_index].tokens += TPB;
    return e;
}

/* Links e into both LRU lists just behind `after` (same engine), or at the front. */
static void insert_behind(kvr_prefix_index_t *idx, uint32_t e, uint32_t after)
{
    if (!after) {
        push_front(idx, e);
        return;
    }
    entry_t *x = &idx->entries[e], *a = &idx->entries[after];
    engine_t *eng = &idx->engines[x->engine];
    x->eprev = after;
    x->enext = a->enext;
    if (a->enext)
        idx->entries[a->enext].eprev = e;
    else
        eng->tail = e;
    a->enext = e;
    x->gprev = after;
    x->gnext = a->gnext;
    if (a->gnext)
        idx->entries[a->gnext].gprev = e;
    else
        idx->gtail = e;
    a->gnext = e;
}

/*
 * Recording in one pass, for prompts that may not fit the index at all: the
 * fleet-wide eviction can then reach the prompt's own entries.
 */
static void insert_one_pass(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                            uint32_t engine_index, uint64_t now_ns)
{
    /*
     * When new entries will have to evict fleet-wide, first move this
     * prompt's own entries out of the LRU tail, so the eviction cannot take
     * a block the walk below is about to touch.
     */
    if (idx->stats.entries + n_blocks > idx->max_entries) {
        for (size_t k = 0; k < n_blocks; k++) {
            uint32_t e = find_holder(idx, hashes[k], engine_index);
            if (e)
                touch(idx, e, now_ns);
        }
    }
    /*
     * Last block first, so the first blocks end up most recent and LRU
     * eviction trims a prompt from its tail, as engines' radix caches do.
     * The budget is enforced after the walk for the same reason.
     */
    for (size_t k = n_blocks; k-- > 0;) {
        if (k >= PREFETCH_SLOT)
            prefetch_slot(idx, hashes[k - PREFETCH_SLOT]);
        if (k >= PREFETCH_ENTRY)
            prefetch_holder(idx, hashes[k - PREFETCH_ENTRY]);
        uint64_t hash = hashes[k];
        uint32_t found = find_holder_to_front(idx, hash, engine_index);
        if (found) {
            touch(idx, found, now_ns);
            continue;
        }
        push_front(idx, new_entry(idx, hash, engine_index, now_ns));
    }
}

void kvr_prefix_index_insert(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                             uint32_t engine_index, uint64_t now_ns)
{
    assert(engine_index < KVR_MAX_ENGINES);
    expire_old(idx, now_ns);
    /* With room for every block no eviction can reach the prompt: one pass does. */
    bool room = idx->stats.entries + n_blocks <= idx->max_entries;
    if (!room && n_blocks > idx->prompt_cap && n_blocks <= idx->max_entries / 2) {
        uint32_t *grown = realloc(idx->prompt, n_blocks * sizeof(uint32_t));
        if (grown) {
            idx->prompt = grown;
            idx->prompt_cap = n_blocks;
        }
    }
    if (room || n_blocks > idx->prompt_cap) {
        insert_one_pass(idx, hashes, n_blocks, engine_index, now_ns);
        enforce_budget(idx, engine_index);
        return;
    }
    /*
     * Two passes. The first touches the blocks the engine already holds,
     * last block first, so the first blocks end up most recent and LRU
     * eviction trims a prompt from its tail, as engines' radix caches do;
     * they are then all at the front of the LRU lists, out of reach of the
     * fleet-wide eviction that makes room for the missing ones. The second
     * adds the missing blocks, each just behind the block before it.
     */
    uint32_t *ids = idx->prompt;
    size_t missing = 0, first_missing = n_blocks;
    for (size_t k = n_blocks; k-- > 0;) {
        if (k >= PREFETCH_SLOT)
            prefetch_slot(idx, hashes[k - PREFETCH_SLOT]);
        if (k >= PREFETCH_ENTRY)
            prefetch_holder(idx, hashes[k - PREFETCH_ENTRY]);
        ids[k] = find_holder_to_front(idx, hashes[k], engine_index);
        if (ids[k]) {
            touch(idx, ids[k], now_ns);
        } else {
            missing++;
            first_missing = k;
        }
    }
    if (missing > 0) {
        /* The prompt is at most half the index, so the room never comes from its own entries. */
        while (idx->max_entries - idx->stats.entries < missing)
            evict_oldest(idx);
        for (size_t k = first_missing; k < n_blocks; k++) {
            if (k + PREFETCH_SLOT < n_blocks && !ids[k + PREFETCH_SLOT])
                prefetch_slot(idx, hashes[k + PREFETCH_SLOT]);
            if (ids[k])
                continue;
            ids[k] = new_entry(idx, hashes[k], engine_index, now_ns);
            insert_behind(idx, ids[k], k ? ids[k - 1] : 0);
        }
    }
    enforce_budget(idx, engine_index);
}

static inline uint32_t holders_of(const kvr_prefix_index_t *idx, uint64_t hash)
{
    int64_t si = find_slot(idx, hash);
    return si < 0 ? 0 : idx->slots[si].n_holders;
}

/*
 * The first block after pos whose holder count is not count (block pos has
 * count holders), or n_blocks when none: doubling steps from pos, then
 * bisection of the last step. Counts never rise along a prompt, so each
 * probe says on which side the drop is. The slots the next bisection step
 * may read are fetched while this one is read.
 */
static size_t next_drop(const kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                        size_t pos, uint32_t count)
{
    size_t lo = pos, hi = n_blocks;
    for (size_t step = 1; lo + 1 < n_blocks; step *= 2) {
        size_t probe = lo + step < n_blocks ? lo + step : n_blocks - 1;
        if (holders_of(idx, hashes[probe]) != count) {
            hi = probe;
            break;
        }
        lo = probe;
    }
    if (hi >= n_blocks)
        return n_blocks;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        prefetch_slot(idx, hashes[lo + (mid - lo) / 2]);
        prefetch_slot(idx, hashes[mid + (hi - mid) / 2]);
        if (holders_of(idx, hashes[mid]) == count)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

size_t kvr_prefix_index_walk(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                             uint64_t now_ns)
{
    /* Expired entries leave first, so holder counts mean live holders. */
    expire_old(idx, now_ns);
    for (uint32_t k = 0; k < idx->n_matched; k++)
        idx->match[idx->matched[k]] = 0;
    idx->n_matched = 0;
    /*
     * Every prompt is recorded from its first block, last block first, so an
     * engine that holds block i also holds block i - 1 (more recent, so
     * evicted and expired later). The holders of block i are then a subset
     * of the holders of block i - 1, and an unchanged count means nobody
     * dropped out: the walk reads only slots, and entries only where the
     * count falls. As the count never rises along the prompt, the block
     * where it falls is found by galloping then bisecting, not by reading
     * every block: a 512-block prompt matched to its last eighth reads about
     * 17 slots instead of 512.
     */
    int64_t si = n_blocks ? find_slot(idx, hashes[0]) : -1;
    if (si < 0)
        return 0;
    uint32_t n_alive = 0;
    for (uint32_t e = idx->slots[si].head; e; e = idx->entries[e].next_holder) {
        uint16_t engine = idx->entries[e].engine;
        if (idx->match[engine] != 0)
            continue;                            /* listed already */
        idx->match[engine] = (uint32_t)n_blocks; /* until it drops out */
        idx->matched[idx->n_matched++] = engine;
        idx->alive[n_alive++] = engine;
    }
    uint32_t count = idx->slots[si].n_holders;
    size_t pos = 0; /* the last block known to have count holders */
    while (n_alive > 0) {
        size_t hi = next_drop(idx, hashes, n_blocks, pos, count);
        if (hi >= n_blocks)
            break;
        pos = hi;
        si = find_slot(idx, hashes[hi]);
        count = si < 0 ? 0 : idx->slots[si].n_holders;
        if (++idx->mark == 0) {
            for (size_t k = 0; k < KVR_MAX_ENGINES; k++)
                idx->engines[k].mark = 0;
            idx->mark = 1;
        }
        if (si >= 0)
            for (uint32_t e = idx->slots[si].head; e; e = idx->entries[e].next_holder)
                idx->engines[idx->entries[e].engine].mark = idx->mark;
        uint32_t kept = 0;
        for (uint32_t k = 0; k < n_alive; k++) {
            if (idx->engines[idx->alive[k]].mark == idx->mark)
                idx->alive[kept++] = idx->alive[k];
            else
                idx->match[idx->alive[k]] = (uint32_t)hi;
        }
        n_alive = kept;
    }
    return idx->n_matched;
}

const uint32_t *kvr_prefix_index_matches(const kvr_prefix_index_t *idx)
{
    return idx->match;
}

const uint64_t *kvr_prefix_index_budgets(const kvr_prefix_index_t *idx)
{
    return idx->budget;
}

uint64_t kvr_prefix_index_placed_ns(const kvr_prefix_index_t *idx, const uint64_t *hashes,
                                    uint32_t blocks, uint32_t engine_index)
{
    if (blocks == 0 || engine_index >= KVR_MAX_ENGINES)
        return 0;
    uint32_t e = find_holder(idx, hashes[blocks - 1], engine_index);
    return e ? idx->entries[e].placed_ns : 0;
}

/*
 * The last walk's matches copied per view, with the budgets checked in the
 * same pass (true: some view's capacity differs from its engine's budget).
 */
static bool views_of_walk(const kvr_prefix_index_t *idx, const uint64_t *hashes,
                          const kvr_engine_view_t *views, size_t n_views, uint32_t *match_blocks,
                          uint64_t *placed_ns, uint32_t *best)
{
    bool stale = false;
    *best = 0;
    for (size_t v = 0; v < n_views; v++) {
        uint32_t ei = views[v].index;
        uint32_t m = ei < KVR_MAX_ENGINES ? idx->match[ei] : 0;
        match_blocks[v] = m;
        stale |= kvr_prefix_index_budget_differs(idx->budget, &views[v]);
        if (placed_ns)
            placed_ns[v] = m ? kvr_prefix_index_placed_ns(idx, hashes, m, ei) : 0;
        if (m > *best)
            *best = m;
    }
    return stale;
}

uint32_t kvr_prefix_index_match(kvr_prefix_index_t *idx, const uint64_t *hashes, size_t n_blocks,
                                uint64_t now_ns, const kvr_engine_view_t *views, size_t n_views,
                                uint32_t *match_blocks, uint64_t *placed_ns)
{
    uint32_t best;
    kvr_prefix_index_walk(idx, hashes, n_blocks, now_ns);
    views_of_walk(idx, hashes, views, n_views, match_blocks, placed_ns, &best);
    return best;
}

uint32_t kvr_prefix_index_learn_match(kvr_prefix_index_t *idx, const uint64_t *hashes,
                                      size_t n_blocks, uint64_t now_ns,
                                      const kvr_engine_view_t *views, size_t n_views,
                                      uint32_t *match_blocks, uint64_t *placed_ns)
{
    uint32_t best;
    kvr_prefix_index_walk(idx, hashes, n_blocks, now_ns);
    if (!views_of_walk(idx, hashes, views, n_views, match_blocks, placed_ns, &best))
        return best;
    /* A capacity changed (rare): the budgets first, as kvr_prefix_index_learn then match would. */
    kvr_prefix_index_learn(idx, views, n_views);
    return kvr_prefix_index_match(idx, hashes, n_blocks, now_ns, views, n_views, match_blocks,
                                  placed_ns);
}

void kvr_prefix_index_remove_engine(kvr_prefix_index_t *idx, uint32_t engine_index)
{
    assert(engine_index < KVR_MAX_ENGINES);
    engine_t *eng = &idx->engines[engine_index];
    while (eng->head)
        remove_entry(idx, eng->head);
    idx->budget[engine_index] = 0;
}

uint64_t kvr_prefix_index_engine_tokens(const kvr_prefix_index_t *idx, uint32_t engine_index)
{
    return engine_index < KVR_MAX_ENGINES ? idx->engines[engine_index].tokens : 0;
}

void kvr_prefix_index_stats(const kvr_prefix_index_t *idx, kvr_prefix_index_stats_t *out)
{
    *out = idx->stats;
}
