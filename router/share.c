/* SPDX-License-Identifier: Apache-2.0 */
#include "router/share.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"

/* A segment that failed is tried again this often (housekeeping runs every second). */
#define SHARE_REOPEN_NS (1 * KVR_NS_PER_SEC)
/* The name is checked to still name the mapped object this often (an lstat). */
#define SHARE_IDENTITY_NS (100 * KVR_NS_PER_MS)

static void note(kvr_share_t *s, int rc, const char *step)
{
    if (rc == s->last_error)
        return;
    s->last_error = rc;
    if (rc == 0) {
        KVR_INFO("share_ok name=%s row=%d rows=%u engines_per_row=%u ring=%u", s->name, s->dsp.row,
                 s->dsp.row_capacity, s->dsp.engines_per_row, s->dsp.ring_capacity);
        return;
    }
    char text[512];
    KVR_WARN("share_unavailable name=%s step=%s error=\"%s\" fallback=own_shadow", s->name, step,
             kvr_dsp_explain(&s->dsp, rc, text, sizeof text));
}

/* Leaves the segment after a fault: own counters only until a reopen succeeds. */
static void fall_back(kvr_share_t *s, int rc, const char *step, kvr_engine_table_t *t)
{
    note(s, rc, step);
    s->fallbacks_total++;
    if (s->open) {
        kvr_dsp_close(&s->dsp);
        s->open = false;
    }
    s->next_open_ns = 0;
    s->rows_live = s->rows_stale = 0;
    for (uint32_t i = 0; t != NULL && i < t->n_slots; i++) {
        kvr_engine_t *e = t->engines[i];
        if (e) {
            e->peer_requests = 0;
            e->peer_pending_prefill_tokens = 0;
            e->peer_kv_tokens = 0;
        }
    }
}

/*
 * A segment refused at open or claim (foreign, another user's, writable by
 * others, every row taken) leaves the router on its own counters as a fault
 * of an open one does: one fallback when it starts so, not one per retry
 * (last_error is negative only while the router is already on its own).
 */
static void open_failed(kvr_share_t *s, int rc, const char *step)
{
    if (s->last_error >= 0)
        s->fallbacks_total++;
    note(s, rc, step);
}

static void try_open(kvr_share_t *s, uint64_t now_ns, unsigned wait_ms)
{
    if (s->open || now_ns < s->next_open_ns)
        return;
    s->next_open_ns = now_ns + SHARE_REOPEN_NS;
    kvr_dsp_geometry_t geo = KVR_DSP_DEFAULT_GEOMETRY;
    /* A segment this router creates holds its whole table; an existing one keeps its own geometry. */
    if (s->max_engines > geo.engines_per_row)
        geo.engines_per_row = s->max_engines < KVR_DSP_MAX_ENGINES ? s->max_engines
                                                                   : KVR_DSP_MAX_ENGINES;
    int rc = kvr_dsp_open(&s->dsp, s->name, &geo, wait_ms);
    if (rc < 0) {
        open_failed(s, rc, "open");
        return;
    }
    rc = kvr_dsp_claim(&s->dsp, s->label, now_ns, s->max_age_ns);
    if (rc < 0) {
        open_failed(s, rc, "claim");
        kvr_dsp_close(&s->dsp);
        return;
    }
    s->open = true;
    s->published_n = UINT32_MAX; /* the first publish writes whatever there is */
    kvr_dsp_cursor_init(&s->dsp, &s->cursor);
    note(s, 0, "open");
}

int kvr_share_init(kvr_share_t *s, const char *name, const char *label, uint64_t max_age_ns,
                   uint32_t max_engines, uint64_t now_ns)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    size_t len = strnlen(label, sizeof s->label - 1);
    memcpy(s->label, label, len);
    s->label[len] = '\0';
    s->max_age_ns = max_age_ns;
    s->last_error = 1; /* neither 0 nor a code: the first outcome is logged */
    s->max_engines = max_engines;
    s->pins = calloc(KVR_SHARE_PIN_SLOTS, sizeof *s->pins);
    s->keys = calloc(max_engines, sizeof *s->keys);
    s->published = calloc(max_engines, sizeof *s->published);
    s->published_keys = calloc(max_engines, sizeof *s->published_keys);
    s->scratch_keys = calloc(max_engines, sizeof *s->scratch_keys);
    s->scratch_loads = calloc(max_engines, sizeof *s->scratch_loads);
    if (!s->pins || !s->keys || !s->published || !s->published_keys || !s->scratch_keys ||
        !s->scratch_loads) {
        kvr_share_close(s);
        return -ENOMEM;
    }
    /* At start the loop is not running yet: another router's creation is worth a short wait. */
    try_open(s, now_ns, KVR_DSP_CREATE_WAIT_MS);
    return 0;
}

void kvr_share_close(kvr_share_t *s)
{
    if (s->open)
        kvr_dsp_close(&s->dsp);
    s->open = false;
    free(s->pins);
    free(s->keys);
    free(s->published);
    free(s->published_keys);
    free(s->scratch_keys);
    free(s->scratch_loads);
    s->pins = NULL;
    s->keys = s->published_keys = s->scratch_keys = NULL;
    s->published = s->scratch_loads = NULL;
}

void kvr_share_forget_engine(kvr_share_t *s, uint32_t engine_index)
{
    if (engine_index < s->max_engines)
        s->keys[engine_index] = 0;
}

static uint64_t key_of(kvr_share_t *s, const kvr_engine_t *e)
{
    /* An index keeps its id until it is freed (kvr_share_forget_engine), so its key is computed once. */
    if (e->index >= s->max_engines)
        return kvr_dsp_engine_key(e->id);
    if (s->keys[e->index] == 0)
        s->keys[e->index] = kvr_dsp_engine_key(e->id);
    return s->keys[e->index];
}

/* The mapping must still be what was validated before anything touches it. */
static int check(kvr_share_t *s, uint64_t now_ns, const char **step)
{
    *step = "size";
    int rc = kvr_dsp_check(&s->dsp);
    if (rc == 0 && now_ns >= s->next_identity_ns) {
        s->next_identity_ns = now_ns + SHARE_IDENTITY_NS;
        *step = "identity";
        rc = kvr_dsp_check_identity(&s->dsp);
    }
    return rc;
}

static int engine_of_key(kvr_share_t *s, const kvr_engine_table_t *t, uint64_t key)
{
    for (uint32_t i = 0; i < t->n_slots; i++) {
        const kvr_engine_t *e = t->engines[i];
        if (e && !e->removed && key_of(s, e) == key)
            return (int)i;
    }
    return -1;
}

static void remember_pin(kvr_share_t *s, uint64_t hash, const kvr_engine_t *e, uint64_t placed_ns)
{
    kvr_share_pin_t *p = &s->pins[hash & (KVR_SHARE_PIN_SLOTS - 1)];
    if (p->hash == hash && p->placed_ns > placed_ns)
        return; /* a newer pin of the same session already arrived */
    *p = (kvr_share_pin_t){
        .hash = hash, .placed_ns = placed_ns, .engine = e->index, .generation = e->generation};
}

static void apply_ring(kvr_share_t *s, const kvr_engine_table_t *t, uint64_t now_ns,
                       const kvr_share_apply_t *apply)
{
    kvr_dsp_placement_t p;
    uint64_t lost = s->cursor.lost, torn = s->cursor.torn;
    for (int n = 0;
         n < KVR_SHARE_APPLY_BUDGET && kvr_dsp_ring_next(&s->dsp, &s->cursor, now_ns, &p) == 0;
         n++) {
        int engine = engine_of_key(s, t, p.engine_key);
        if (engine < 0)
            continue; /* an engine this router does not route to */
        s->ring_applied_total++;
        if (p.kind == KVR_DSP_PLACE_PREFIX && apply && apply->prefix && p.block_count > 0)
            apply->prefix(apply->ctx, p.blocks, p.block_count, (uint32_t)engine, now_ns);
        else if (p.kind == KVR_DSP_PLACE_SESSION && p.session_hash != 0)
            remember_pin(s, p.session_hash, t->engines[engine], p.time_ns);
    }
    if (s->cursor.lost != lost)
        KVR_WARN("share_ring_loss name=%s lost=%llu total=%llu", s->name,
                 (unsigned long long)(s->cursor.lost - lost), (unsigned long long)s->cursor.lost);
    s->ring_lost_total = s->cursor.lost;
    s->ring_torn_total = s->cursor.torn;
    (void)torn;
}

void kvr_share_sync(kvr_share_t *s, kvr_engine_table_t *t, uint64_t now_ns,
                    const kvr_share_apply_t *apply)
{
    if (!s->open)
        return;
    const char *step;
    int rc = check(s, now_ns, &step);
    if (rc < 0) {
        fall_back(s, rc, step, t);
        return;
    }
    uint64_t *keys = s->scratch_keys;
    kvr_dsp_load_t *peers = s->scratch_loads;
    uint32_t n = t->n_slots < s->max_engines ? t->n_slots : s->max_engines;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = t->engines[i] ? key_of(s, t->engines[i]) : 0;
    kvr_dsp_sum_stats_t st;
    kvr_dsp_sum_others(&s->dsp, now_ns, s->max_age_ns, keys, n, peers, &st);
    s->rows_live = st.live;
    s->rows_stale = st.stale;
    s->rows_busy_total += st.busy;
    s->rows_bad_total += st.bad;
    for (uint32_t i = 0; i < n; i++) {
        kvr_engine_t *e = t->engines[i];
        if (!e)
            continue;
        e->peer_requests = peers[i].in_flight > UINT32_MAX ? UINT32_MAX
                                                           : (uint32_t)peers[i].in_flight;
        e->peer_pending_prefill_tokens = peers[i].pending_prefill_tokens;
        e->peer_kv_tokens = peers[i].kv_tokens;
    }
    apply_ring(s, t, now_ns, apply);
}

void kvr_share_publish(kvr_share_t *s, const kvr_engine_table_t *t, uint64_t now_ns)
{
    if (!s->open)
        return;
    uint64_t *keys = s->scratch_keys;
    kvr_dsp_load_t *loads = s->scratch_loads;
    uint32_t n = 0;
    bool changed = false;
    for (uint32_t i = 0; i < t->n_slots && n < s->max_engines; i++) {
        const kvr_engine_t *e = t->engines[i];
        if (!e || (e->removed && e->shadow_requests == 0))
            continue;
        keys[n] = key_of(s, e);
        loads[n] = (kvr_dsp_load_t){e->shadow_requests, e->shadow_pending_prefill_tokens,
                                    e->shadow_kv_tokens};
        changed |= n >= s->published_n || keys[n] != s->published_keys[n] ||
                   memcmp(&loads[n], &s->published[n], sizeof loads[n]) != 0;
        n++;
    }
    if (!changed && n == s->published_n)
        return;
    const char *step;
    int rc = check(s, now_ns, &step);
    if (rc == 0)
        rc = kvr_dsp_publish(&s->dsp, keys, loads,
                             n > s->dsp.engines_per_row ? s->dsp.engines_per_row : n, now_ns);
    if (rc < 0) {
        fall_back(s, rc, rc == KVR_EDSP_ROW_LOST ? "publish" : step, (kvr_engine_table_t *)t);
        return;
    }
    memcpy(s->published, loads, n * sizeof *loads);
    memcpy(s->published_keys, keys, n * sizeof *keys);
    s->published_n = n;
    s->publishes_total++;
}

void kvr_share_tick(kvr_share_t *s, kvr_engine_table_t *t, uint64_t now_ns,
                    const kvr_share_apply_t *apply)
{
    try_open(s, now_ns, 0); /* never blocks the loop */
    if (!s->open)
        return;
    const char *step;
    int rc = check(s, now_ns, &step);
    if (rc == 0) {
        step = "heartbeat";
        rc = kvr_dsp_heartbeat(&s->dsp, now_ns);
    }
    if (rc < 0) {
        fall_back(s, rc, step, t);
        return;
    }
    kvr_share_publish(s, t, now_ns);
    /* A router with no traffic still follows the ring, so it never falls a lap behind; what it
     * reads here is applied as before a decision (read and not applied, a placement is lost). */
    kvr_share_sync(s, t, now_ns, apply);
}

static void append(kvr_share_t *s, kvr_dsp_placement_t *p)
{
    int rc = kvr_dsp_append(&s->dsp, p);
    if (rc < 0)
        s->ring_dropped_total++;
}

void kvr_share_place_prefix(kvr_share_t *s, const kvr_engine_t *e, const uint64_t *blocks, size_t n,
                            uint64_t now_ns)
{
    if (!s->open || n == 0)
        return;
    if (n > KVR_SHARE_MAX_BLOCKS)
        n = KVR_SHARE_MAX_BLOCKS;
    /* Last chunk first: the first blocks are inserted last, most recent, as the index records a prompt. */
    size_t chunks = (n + KVR_DSP_ENTRY_BLOCKS - 1) / KVR_DSP_ENTRY_BLOCKS;
    for (size_t c = chunks; c-- > 0;) {
        size_t first = c * KVR_DSP_ENTRY_BLOCKS;
        size_t count = n - first < KVR_DSP_ENTRY_BLOCKS ? n - first : KVR_DSP_ENTRY_BLOCKS;
        kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_PREFIX,
                                 .block_count = (uint16_t)count,
                                 .first_block = (uint32_t)first,
                                 .engine_key = key_of(s, e),
                                 .time_ns = now_ns};
        memcpy(p.blocks, blocks + first, count * sizeof *blocks);
        append(s, &p);
    }
}

void kvr_share_place_pin(kvr_share_t *s, const kvr_engine_t *e, const char *session_id,
                         uint64_t now_ns)
{
    if (!s->open)
        return;
    kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_SESSION,
                             .engine_key = key_of(s, e),
                             .session_hash = kvr_dsp_session_hash(session_id, strlen(session_id)),
                             .time_ns = now_ns};
    append(s, &p);
}

int kvr_share_pin_lookup(kvr_share_t *s, const char *session_id, uint64_t since_ns, uint64_t now_ns,
                         uint64_t ttl_ns, uint32_t *engine_index, uint32_t *generation)
{
    if (!s->pins)
        return 0;
    uint64_t hash = kvr_dsp_session_hash(session_id, strlen(session_id));
    kvr_share_pin_t *p = &s->pins[hash & (KVR_SHARE_PIN_SLOTS - 1)];
    if (p->hash != hash)
        return 0;
    if (ttl_ns > 0 && kvr_clock_age_ns(now_ns, p->placed_ns) > ttl_ns) {
        p->hash = 0;
        return 0;
    }
    if (p->placed_ns <= since_ns)
        return 0;
    *engine_index = p->engine;
    *generation = p->generation;
    return 1;
}
