/* SPDX-License-Identifier: Apache-2.0 */
/*
 * KV events in virtual time: the engine model's store and evict callbacks
 * (bench/sim/model.h, kvcache.h, the ones kvroute-sim publishes on ZMQ)
 * queue an event stamped with the virtual clock; an event is written into
 * the residency table when its delay has passed, at the next look a router
 * takes (or the writer's tick), so a router sees exactly the events older
 * than the delay. One FIFO suffices: every event has the same delay.
 */
#include "bench/fleetsim/cache_events.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/xmalloc.h"
#include "shm_layout/residency.h"

/* Entries one MiB of table holds before it refuses: 8192 buckets x 7 entries x the fill bound. */
#define ENTRIES_PER_MB                                                                             \
    ((1024u * 1024u / KVR_RES_BUCKET_SIZE) * KVR_RES_BUCKET_ENTRIES * KVR_RES_FILL_NUM /           \
     KVR_RES_FILL_DEN)
/* Buckets the writer's tick sweeps of cleared entries, as statefeed's loop does. */
#define SWEEP_BUCKETS 4096

typedef enum { EV_STORED = 0, EV_REMOVED = 1 } event_kind_t;

typedef struct pending_s {
    uint64_t due_ns;
    uint64_t hash;
    uint32_t slot;
    uint32_t kind; /* event_kind_t */
} pending_t;

/* What one rank's callbacks are handed: the stream and the engine's slot. */
typedef struct rank_ctx_s {
    kvr_fleet_cache_events_t *ce;
    uint32_t slot;
} rank_ctx_t;

struct kvr_fleet_cache_events_s {
    kvr_residency_writer_t table;
    bool table_open;
    uint64_t delay_ns;
    const uint64_t *now_ns;
    pending_t *queue; /* ring, oldest at head */
    size_t head, len, cap;
    rank_ctx_t **ranks;
    size_t n_ranks, ranks_cap;
    /* counters */
    uint64_t stored_events, removed_events, refused, rejected, max_in_flight;
};

static void enqueue(kvr_fleet_cache_events_t *ce, uint32_t slot, uint64_t hash, event_kind_t kind)
{
    if (ce->len == ce->cap) {
        size_t cap = ce->cap ? ce->cap * 2 : 4096;
        pending_t *q = kvr_xmalloc(cap * sizeof *q);
        for (size_t i = 0; i < ce->len; i++)
            q[i] = ce->queue[(ce->head + i) % ce->cap];
        free(ce->queue);
        ce->queue = q;
        ce->head = 0;
        ce->cap = cap;
    }
    ce->queue[(ce->head + ce->len++) % ce->cap] = (pending_t){
        .due_ns = *ce->now_ns + ce->delay_ns, .hash = hash, .slot = slot, .kind = kind};
    if (ce->len > ce->max_in_flight)
        ce->max_in_flight = ce->len;
}

static void on_stored(void *ctx, uint64_t hash, const uint64_t *parent, const uint32_t *tokens)
{
    (void)parent;
    (void)tokens;
    rank_ctx_t *rc = ctx;
    rc->ce->stored_events++;
    enqueue(rc->ce, rc->slot, hash, EV_STORED);
}

static void on_evict(void *ctx, uint64_t hash)
{
    rank_ctx_t *rc = ctx;
    rc->ce->removed_events++;
    enqueue(rc->ce, rc->slot, hash, EV_REMOVED);
}

static void apply(kvr_fleet_cache_events_t *ce, const pending_t *p)
{
    int rc = p->kind == EV_STORED
                 ? kvr_residency_stored(&ce->table, p->slot, p->hash, KVR_RES_TIER_GPU)
                 : kvr_residency_removed(&ce->table, p->slot, p->hash, KVR_RES_TIER_GPU);
    if (rc == -ENOSPC)
        ce->refused++; /* the table is full: the block is unknown to the routers, as in statefeed */
    else if (rc == -EINVAL)
        ce->rejected++; /* a block hash of 0, which the table cannot name */
    /* -ENOENT: a block removed whose store was refused; nothing to undo. */
}

void kvr_fleet_cache_events_deliver(kvr_fleet_cache_events_t *ce)
{
    uint64_t now = *ce->now_ns;
    while (ce->len && ce->queue[ce->head].due_ns <= now) {
        apply(ce, &ce->queue[ce->head]);
        ce->head = (ce->head + 1) % ce->cap;
        ce->len--;
    }
}

void kvr_fleet_cache_events_tick(kvr_fleet_cache_events_t *ce)
{
    kvr_fleet_cache_events_deliver(ce);
    kvr_residency_writer_tick(&ce->table, *ce->now_ns, SWEEP_BUCKETS);
}

int kvr_fleet_cache_events_create(kvr_fleet_cache_events_t **out, const char *state_name,
                                  uint32_t slots, uint64_t kv_blocks, uint64_t delay_ns,
                                  const uint64_t *now_ns, char *err, size_t err_len)
{
    *out = NULL;
    kvr_fleet_cache_events_t *ce = kvr_xcalloc(1, sizeof *ce);
    ce->delay_ns = delay_ns;
    ce->now_ns = now_ns;
    char name[300];
    int rc = kvr_residency_name(name, sizeof name, state_name);
    if (rc < 0) {
        snprintf(err, err_len, "residency table beside %s: %s", state_name, kvr_strerror(rc));
        goto fail;
    }
    /* Twice the blocks the fleet can hold, so the table never refuses for want of room. */
    uint64_t mb = (2 * kv_blocks + ENTRIES_PER_MB - 1) / ENTRIES_PER_MB + 1;
    if (mb < KVR_RES_MIN_MB)
        mb = KVR_RES_MIN_MB;
    if (mb > KVR_RES_MAX_MB)
        mb = KVR_RES_MAX_MB;
    rc = kvr_residency_writer_open(&ce->table, name, (uint32_t)mb, slots);
    if (rc < 0) {
        snprintf(err, err_len, "residency table %s (%" PRIu64 " MiB): %s", name, mb,
                 kvr_strerror(rc));
        goto fail;
    }
    ce->table_open = true;
    /* Every event reaches the table in this model: no gap, no restart, so every engine is trusted. */
    for (uint32_t s = 0; s < slots; s++)
        kvr_residency_trust(&ce->table, s, true);
    /* The heartbeat is the virtual clock from the first store on, as the feed segment's. */
    kvr_residency_writer_tick(&ce->table, *now_ns, 0);
    *out = ce;
    return 0;

fail:
    kvr_fleet_cache_events_destroy(ce);
    return rc;
}

void kvr_fleet_cache_events_attach(kvr_fleet_cache_events_t *ce, kvr_sim_model_t *model,
                                   uint32_t slot)
{
    if (ce->n_ranks == ce->ranks_cap) {
        ce->ranks_cap = ce->ranks_cap ? ce->ranks_cap * 2 : 16;
        ce->ranks = kvr_xrealloc(ce->ranks, ce->ranks_cap * sizeof *ce->ranks);
    }
    rank_ctx_t *rc = kvr_xmalloc(sizeof *rc);
    *rc = (rank_ctx_t){.ce = ce, .slot = slot};
    ce->ranks[ce->n_ranks++] = rc;
    model->on_stored = on_stored;
    model->stored_ctx = rc;
    model->cache.on_evict = on_evict;
    model->cache.evict_ctx = rc;
}

void kvr_fleet_cache_events_write_stats(const kvr_fleet_cache_events_t *ce, FILE *out)
{
    kvr_res_stats_t st;
    kvr_residency_writer_stats(&ce->table, &st);
    fprintf(out,
            "{\"delay_ms\":%.3f,\"stored_events\":%" PRIu64 ",\"removed_events\":%" PRIu64
            ",\"in_flight_at_end\":%zu,\"max_in_flight\":%" PRIu64 ",\"entries\":%" PRIu64
            ",\"capacity_entries\":%" PRIu64 ",\"refused\":%" PRIu64 ",\"rejected\":%" PRIu64 "}",
            (double)ce->delay_ns / 1e6, ce->stored_events, ce->removed_events, ce->len,
            ce->max_in_flight, st.entries, st.capacity_entries, ce->refused, ce->rejected);
}

void kvr_fleet_cache_events_destroy(kvr_fleet_cache_events_t *ce)
{
    if (!ce)
        return;
    if (ce->table_open)
        kvr_residency_writer_destroy(&ce->table);
    for (size_t i = 0; i < ce->n_ranks; i++)
        free(ce->ranks[i]);
    free(ce->ranks);
    free(ce->queue);
    free(ce);
}
