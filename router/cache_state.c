/* SPDX-License-Identifier: Apache-2.0 */
#include "router/cache_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"

const char *const kvr_cache_state_names[] = {"auto", "events", "own", NULL};

/* A missing or refused table is looked for again this often. */
#define REOPEN_NS (1000 * KVR_NS_PER_MS)

const char *kvr_match_from_name(kvr_match_from_t from)
{
    return from == KVR_MATCH_FROM_EVENTS ? "events" : "own";
}

static void drop(kvr_cache_state_t *cs)
{
    if (cs->open)
        kvr_residency_reader_close(&cs->reader);
    cs->open = false;
}

/* The table is usable for this decision: open, its writer alive and the state segment's own. */
static bool table_up(kvr_cache_state_t *cs, uint64_t now_ns)
{
    int rc = 0;
    if (!cs->feed || !cs->feed->open || !cs->feed->writer_ok || !cs->name[0]) {
        rc = KVR_ESHM_WRITER_GONE; /* slots come from the segment: no segment, no table */
        drop(cs);
    } else if (!cs->open) {
        if (now_ns < cs->next_open_ns)
            return false;
        cs->next_open_ns = now_ns + REOPEN_NS;
        rc = kvr_residency_reader_open(&cs->reader, cs->name, cs->owner_uid);
        if (rc == 0) {
            cs->open = true;
            cs->opens_total++;
            KVR_INFO("cache_state_open table=%s engines=%u buckets=%llu", cs->name,
                     cs->reader.engines, (unsigned long long)cs->reader.bucket_count);
        }
    }
    if (rc == 0 && cs->open) {
        rc = kvr_residency_reader_check(&cs->reader, now_ns, cs->max_age_ns);
        /* Slots index the state segment its writer keeps: another writer's table names others. */
        if (rc == 0 && atomic_load(&cs->reader.header->writer_pid) !=
                           atomic_load(&cs->feed->shm.header->writer_pid))
            rc = KVR_ESHM_CHANGED;
        if (rc == KVR_ESHM_CHANGED)
            drop(cs);
    }
    if (rc != cs->last_error) {
        if (rc != 0)
            KVR_WARN("cache_state_unavailable table=%s reason=\"%s\" fallback=%s", cs->name,
                     kvr_strerror(rc), cs->mode == KVR_CACHE_STATE_AUTO ? "own" : "none");
        cs->last_error = rc;
    }
    return rc == 0 && cs->open;
}

/* Blocks held per tier as one count, host and disk credited less: they must be copied back. */
static uint32_t credited_blocks(const kvr_res_match_t *m)
{
    double gpu = m->blocks[KVR_RES_TIER_GPU];
    double host = (double)m->blocks[KVR_RES_TIER_HOST] - gpu;
    double disk = (double)m->blocks[KVR_RES_TIER_DISK] - m->blocks[KVR_RES_TIER_HOST];
    return (uint32_t)(gpu + KVR_CACHE_HOST_CREDIT * host + KVR_CACHE_DISK_CREDIT * disk);
}

/* Counts a candidate's match by its source and keeps the deepest few for the log. */
static void note(kvr_cache_state_t *cs, const kvr_engine_view_t *views, size_t v, uint32_t blocks,
                 bool again)
{
    if (blocks == 0)
        return;
    if (!again)
        cs->hits_total[cs->from[v]]++;
    size_t at = cs->n_deepest;
    while (at > 0 && cs->deepest[at - 1].blocks < blocks)
        at--;
    if (at >= KVR_CACHE_LOG_MATCHES)
        return;
    size_t keep = cs->n_deepest < KVR_CACHE_LOG_MATCHES ? cs->n_deepest : KVR_CACHE_LOG_MATCHES - 1;
    memmove(&cs->deepest[at + 1], &cs->deepest[at], (keep - at) * sizeof cs->deepest[0]);
    const kvr_engine_t *e = kvr_engine_table_get(cs->engines, views[v].index);
    cs->deepest[at] = (kvr_cache_match_t){.engine_index = views[v].index,
                                          .engine_generation = e ? e->generation : 0,
                                          .blocks = blocks,
                                          .from = cs->from[v]};
    if (cs->n_deepest < KVR_CACHE_LOG_MATCHES)
        cs->n_deepest++;
}

/*
 * The decision's table answer, once: a decision may walk the index more than once (admission's
 * base pick before the pick), and each walk must read the same answer and count nothing twice.
 */
static void look_up(kvr_cache_state_t *cs, const kvr_route_request_t *req)
{
    if (cs->looked_up)
        return;
    cs->looked_up = true;
    cs->tokens = req->token_hashes && req->n_token_blocks > 0 && req->block_tokens > 0;
    cs->up = cs->tokens && table_up(cs, req->now_ns);
    cs->n_found = 0;
    if (!cs->tokens) {
        cs->no_tokens_total++; /* until the request is tokenized, the own index answers */
        return;
    }
    if (!cs->up) {
        cs->table_down_total++;
        return;
    }
    cs->lookups_total++;
    if (cs->results_cap < cs->reader.engines) {
        free(cs->results);
        cs->results = calloc(cs->reader.engines, sizeof *cs->results);
        cs->results_cap = cs->results ? cs->reader.engines : 0;
    }
    cs->n_found = kvr_residency_lookup(&cs->reader, req->token_hashes, req->n_token_blocks,
                                       cs->results, cs->results_cap);
}

static uint32_t apply(void *ctx, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, uint32_t *match_blocks, uint32_t own)
{
    kvr_cache_state_t *cs = ctx;
    if (n > cs->n_from)
        n = cs->n_from;         /* views never outnumber the engine table */
    bool again = cs->looked_up; /* hits were counted by this decision's first walk */
    look_up(cs, req);
    memset(cs->from, KVR_MATCH_FROM_OWN, n);
    cs->n_applied = n;
    cs->n_deepest = 0;
    bool up = cs->up;
    if (!cs->tokens || (!up && cs->mode == KVR_CACHE_STATE_AUTO)) {
        for (size_t v = 0; v < n; v++)
            note(cs, views, v, match_blocks[v], again);
        return own;
    }
    uint32_t best = 0;
    uint64_t untrusted = 0, stale = 0;
    for (size_t v = 0; v < n; v++) {
        const kvr_engine_t *e = kvr_engine_table_get(cs->engines, views[v].index);
        int slot = e ? e->feed_slot : -1;
        /*
         * The table names the engine by its state-segment slot: only a fresh slot is known to be
         * this engine's and followed by the writer now (a stale, unhealthy or missing one may be
         * another engine's since, or its events may have stopped with its polls).
         */
        bool fresh = views[v].feed_fresh;
        bool known = up && fresh && slot >= 0 && (uint32_t)slot < cs->reader.engines &&
                     kvr_residency_reader_trusted(&cs->reader, (uint32_t)slot);
        if (up && !fresh)
            stale++;
        else if (up && slot >= 0 && !known)
            untrusted++;
        if (known || cs->mode == KVR_CACHE_STATE_EVENTS) {
            uint32_t m = 0;
            for (size_t k = 0; known && k < cs->n_found; k++)
                if (cs->results[k].slot == (uint32_t)slot)
                    m = credited_blocks(&cs->results[k]);
            match_blocks[v] = m;
            cs->from[v] = KVR_MATCH_FROM_EVENTS;
        }
        note(cs, views, v, match_blocks[v], again);
        if (match_blocks[v] > best)
            best = match_blocks[v];
    }
    cs->untrusted_engines = untrusted + stale;
    if (!again) {
        cs->stale_slots_total += stale;
        cs->untrusted_total += untrusted;
    }
    return best;
}

int kvr_cache_state_init(kvr_cache_state_t *cs, kvr_cache_state_mode_t mode,
                         const kvr_engine_table_t *engines, const kvr_feed_t *feed,
                         const char *shm_name, uid_t owner_uid, uint64_t max_age_ns)
{
    memset(cs, 0, sizeof *cs);
    cs->mode = mode;
    cs->engines = engines;
    cs->feed = feed;
    cs->owner_uid = owner_uid;
    cs->max_age_ns = max_age_ns;
    if (mode == KVR_CACHE_STATE_OWN)
        return 0;
    /* No segment name (ES=0): no table either; the source answers with the own index. */
    int rc = shm_name && shm_name[0] ? kvr_residency_name(cs->name, sizeof cs->name, shm_name) : 0;
    if (rc < 0)
        return rc;
    cs->n_from = engines->max_engines;
    cs->from = calloc(cs->n_from ? cs->n_from : 1, 1);
    if (!cs->from)
        return -ENOMEM;
    cs->source = (kvr_match_source_t){.apply = apply, .ctx = cs};
    return 0;
}

void kvr_cache_state_close(kvr_cache_state_t *cs)
{
    drop(cs);
    free(cs->results);
    free(cs->from);
    memset(cs, 0, sizeof *cs);
}

void kvr_cache_state_begin(kvr_cache_state_t *cs)
{
    cs->n_applied = 0;
    cs->n_deepest = 0;
    cs->looked_up = false;
}

const kvr_match_source_t *kvr_cache_state_source(const kvr_cache_state_t *cs)
{
    return cs->source.apply ? &cs->source : NULL;
}

kvr_match_from_t kvr_cache_state_from(const kvr_cache_state_t *cs, size_t v)
{
    return v < cs->n_applied ? (kvr_match_from_t)cs->from[v] : KVR_MATCH_FROM_OWN;
}
