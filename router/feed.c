/* SPDX-License-Identifier: Apache-2.0 */
#include "router/feed.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/rng.h"

#define FEED_REOPEN_INTERVAL_NS (500 * KVR_NS_PER_MS)
#define FEED_IDENTITY_INTERVAL_NS (250 * KVR_NS_PER_MS)
/*
 * Token counts from the segment are capped here, far above any engine's
 * (2^48 tokens), so the policies' sums of them (pending prefill + uncached
 * prompt, kv tokens + a block) cannot wrap to "idle" on a value near 2^64.
 */
#define FEED_MAX_TOKENS (1ull << 48)
/* Other routers' work per unit of this router's, as an EWMA over decisions, capped. */
#define FEED_MAX_PEER_RATIO 7.0
#define FEED_PEER_RATIO_WEIGHT 0.05

static const char *const state_names[KVR_FEED_N_STATES] = {
    "fresh",      "no_segment",     "writer_stale", "slot_missing",
    "slot_stale", "slot_unhealthy", "slot_busy",    "segment_rejected",
};

const char *kvr_feed_state_name(kvr_feed_state_t state)
{
    return state < KVR_FEED_N_STATES ? state_names[state] : "unknown";
}

void kvr_feed_init(kvr_feed_t *feed, bool enabled, const char *name, uint64_t max_age_ns)
{
    memset(feed, 0, sizeof *feed);
    feed->enabled = enabled;
    feed->add_sent = true;
    feed->spread = true;
    snprintf(feed->name, sizeof feed->name, "%s%s", name[0] == '/' ? "" : "/", name);
    feed->max_age_ns = max_age_ns;
    feed->owner_uid = geteuid();
}

void kvr_feed_close(kvr_feed_t *feed)
{
    if (feed->open)
        kvr_shm_close(&feed->shm);
    feed->open = false;
}

/* POSIX shm objects live under /dev/shm on Linux; their inode tells a new writer's object apart. */
static int object_identity(const char *name, dev_t *dev, ino_t *ino)
{
    char path[300];
    snprintf(path, sizeof path, "/dev/shm%s", name);
    struct stat st;
    if (lstat(path, &st) < 0)
        return -errno;
    *dev = st.st_dev;
    *ino = st.st_ino;
    return 0;
}

static void note_error(kvr_feed_t *feed, int rc, const char *what, const kvr_shm_t *shm)
{
    if (rc == feed->last_error)
        return;
    feed->last_error = rc;
    char text[512];
    if (rc == 0)
        KVR_INFO("feed_ok shm=%s", feed->name);
    else if (rc == KVR_ESHM_OWNER)
        KVR_ERROR("feed_rejected shm=%s step=%s error=\"%s\" fallback=shadow", feed->name, what,
                  kvr_shm_explain(shm, rc, text, sizeof text));
    else
        KVR_WARN("feed_unavailable shm=%s step=%s error=\"%s\" fallback=shadow", feed->name, what,
                 kvr_shm_explain(shm, rc, text, sizeof text));
}

static void try_open(kvr_feed_t *feed, uint64_t now_ns)
{
    if (now_ns < feed->next_open_ns)
        return;
    feed->next_open_ns = now_ns + FEED_REOPEN_INTERVAL_NS;
    dev_t dev = 0;
    ino_t ino = 0;
    int id_rc = object_identity(feed->name, &dev, &ino);
    if (feed->open && id_rc == 0 && dev == feed->shm.dev && ino == feed->shm.ino)
        return; /* the same object: a stale writer stays stale until a new one replaces it */
    kvr_shm_t shm;
    int rc = kvr_shm_open_as(&shm, feed->name, feed->owner_uid);
    feed->rejected = rc == KVR_ESHM_OWNER;
    if (rc < 0) {
        note_error(feed, rc, "open", &shm);
        return;
    }
    if (feed->open)
        kvr_shm_close(&feed->shm);
    feed->shm = shm;
    feed->open = true;
    feed->opens_total++; /* part of every engine's mapping key: all re-map */
    KVR_INFO("feed_open shm=%s generation=%llu capacity=%u", feed->name,
             (unsigned long long)kvr_shm_generation(&feed->shm), feed->shm.capacity);
}

/* The mapping must still be what was validated before anything reads it. */
static void check_mapping(kvr_feed_t *feed, uint64_t now_ns)
{
    const char *level = "size";
    int rc = kvr_shm_check_size(&feed->shm);
    if (rc == 0 && now_ns >= feed->next_identity_ns) {
        feed->next_identity_ns = now_ns + FEED_IDENTITY_INTERVAL_NS;
        level = "identity";
        rc = kvr_shm_check_identity(&feed->shm);
    }
    if (rc == 0)
        return;
    char text[512];
    feed->changes_total++;
    if (rc == KVR_ESHM_CHANGED && level[0] == 'i')
        /* Replaced, by a restarted writer or by anyone else: reopen validates whatever is there now. */
        KVR_INFO("feed_replaced shm=%s action=reopen", feed->name);
    else
        KVR_WARN("feed_changed shm=%s check=%s error=\"%s\" fallback=shadow action=reopen",
                 feed->name, level, kvr_shm_explain(&feed->shm, rc, text, sizeof text));
    kvr_feed_close(feed);
    feed->next_open_ns = 0;
}

void kvr_feed_refresh(kvr_feed_t *feed, uint64_t now_ns)
{
    if (!feed->enabled)
        return;
    if (feed->open)
        check_mapping(feed, now_ns);
    if (!feed->open)
        try_open(feed, now_ns);
    if (!feed->open) {
        feed->writer_ok = false;
        return;
    }
    uint64_t hb = atomic_load_explicit(&feed->shm.header->heartbeat_ns, memory_order_acquire);
    feed->last_heartbeat_age_ns = kvr_shm_age_ns(now_ns, hb);
    int rc = kvr_shm_check_heartbeat(&feed->shm, now_ns, feed->max_age_ns);
    feed->writer_ok = rc == 0;
    feed->generation = kvr_shm_generation(&feed->shm);
    note_error(feed, rc, "heartbeat", &feed->shm);
    if (!feed->writer_ok)
        try_open(feed, now_ns); /* a writer that restarted under the same name shows up here */
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static void fill_shadow(const kvr_engine_t *e, kvr_engine_view_t *v)
{
    memset(v, 0, sizeof *v);
    v->index = e->index;
    v->id = e->id;
    /* Several routers sharing (--share) act as one: the shadow is everyone's charge. */
    v->shadow_requests = e->peer_requests > UINT32_MAX - e->shadow_requests
                             ? UINT32_MAX
                             : e->shadow_requests + e->peer_requests;
    v->shadow_pending_prefill_tokens = sat_add(e->shadow_pending_prefill_tokens,
                                               e->peer_pending_prefill_tokens);
    v->shadow_kv_tokens = sat_add(e->shadow_kv_tokens, e->peer_kv_tokens);
    v->kv_usage = -1.0;
    v->utilization = -1.0;
}

/*
 * What this router sent to e after the sample of age_ns was taken: the
 * engine had not seen it yet, so the sample's counts lack it. Routers that
 * read one sample and add only max(shadow, real) all see the same engine
 * idle for a whole feed period and pile onto it; adding their own sends
 * since the sample keeps each router's view of its own burst.
 */
static void sent_since(const kvr_engine_t *e, uint64_t now_ns, uint64_t age_ns,
                       kvr_engine_view_t *v)
{
    uint64_t sample_ns = age_ns <= now_ns ? now_ns - age_ns : 0;
    for (uint32_t i = 0; i < KVR_ENGINE_SENT_RING; i++) {
        if (e->sent_ns[i] == 0 || e->sent_ns[i] < sample_ns || e->sent_ns[i] > now_ns)
            continue;
        v->sent_since_requests++;
        v->sent_since_tokens = sat_add(v->sent_since_tokens, e->sent_tokens[i]);
    }
}

uint64_t kvr_feed_note_sent(kvr_feed_t *feed, kvr_engine_t *e, uint64_t now_ns,
                            uint64_t uncached_tokens)
{
    if (!feed->enabled || !feed->add_sent)
        return 0;
    uint32_t i = e->sent_next % KVR_ENGINE_SENT_RING;
    e->sent_ns[i] = now_ns ? now_ns : 1; /* 0 marks an empty entry */
    e->sent_tokens[i] = uncached_tokens > UINT32_MAX ? UINT32_MAX : (uint32_t)uncached_tokens;
    e->sent_next = (i + 1) % KVR_ENGINE_SENT_RING;
    return e->sent_ns[i];
}

void kvr_feed_mark_herd(kvr_feed_t *feed, kvr_engine_view_t *views, size_t n)
{
    if (!feed->enabled)
        return;
    size_t others = 0, fresh = 0;
    uint64_t own_total = 0, real_total = 0;
    for (size_t i = 0; i < n; i++) {
        const kvr_engine_view_t *v = &views[i];
        if (!v->feed_fresh)
            continue;
        /* Own in flight at the sample: the shadow less what was sent since (finishes only lower it). */
        uint64_t own = v->shadow_requests > v->sent_since_requests
                           ? v->shadow_requests - v->sent_since_requests
                           : 0;
        uint64_t real = (uint64_t)v->real_running + v->real_waiting;
        others += real > own;
        fresh++;
        own_total += own;
        real_total += real;
    }
    /*
     * Routers spread their work: load this router did not send on one engine
     * alone is a client sending there directly (or a pin), which takes no
     * pick from the sample and is no reason to doubt this router's own.
     */
    bool routers = others >= 2 && others * 2 >= fresh;
    if (feed->add_sent && real_total > 0) {
        /*
         * Others' share of the fleet's work against this router's: each of its
         * sends since a sample stands for this many more from routers that read
         * the same sample and chose alike.
         */
        double ratio = routers && real_total > own_total
                           ? (double)(real_total - own_total) / (double)(own_total + 1)
                           : 0;
        if (ratio > FEED_MAX_PEER_RATIO)
            ratio = FEED_MAX_PEER_RATIO;
        feed->peer_ratio = feed->peer_ratio_known
                               ? feed->peer_ratio +
                                     FEED_PEER_RATIO_WEIGHT * (ratio - feed->peer_ratio)
                               : ratio;
        feed->peer_ratio_known = true;
    }
    if (!routers || !feed->spread)
        return;
    feed->spread_decisions_total++;
    /* Each other router may take the same pick from the same sample: that many requests are slack. */
    uint32_t slack = feed->peer_ratio < 1.0 ? 1 : (uint32_t)(feed->peer_ratio + 0.5);
    for (size_t i = 0; i < n; i++) {
        views[i].herd_slack = slack;
        views[i].tie_draw = kvr_splitmix64(&feed->spread_rng);
    }
}

/* count x (1 + ratio), rounded to nearest, ratio in [0, FEED_MAX_PEER_RATIO]. */
static uint32_t scale(uint32_t count, double ratio)
{
    double x = (double)count * (1.0 + ratio) + 0.5;
    return x >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

/* Shadow in-flight counts as running up to max_running (all running when the cap is unknown). */
static void fill_eff(kvr_engine_view_t *v, double peer_ratio)
{
    uint32_t shadow_running = v->shadow_requests;
    if (v->max_running > 0 && shadow_running > v->max_running)
        shadow_running = v->max_running;
    uint32_t shadow_waiting = v->shadow_requests - shadow_running;
    if (!v->feed_fresh) {
        v->eff_running = shadow_running;
        v->eff_waiting = shadow_waiting;
        v->eff_requests = v->shadow_requests;
        v->eff_pending_prefill_tokens = v->shadow_pending_prefill_tokens;
        v->eff_kv_tokens = v->shadow_kv_tokens;
        return;
    }
    /* Both come from the segment: their sum saturates rather than wrap to "idle". */
    uint32_t real_requests = v->real_running > UINT32_MAX - v->real_waiting
                                 ? UINT32_MAX
                                 : v->real_running + v->real_waiting;
    /* Sent since the sample: running while the sample's batch has free slots, then waiting. */
    uint32_t since = scale(v->sent_since_requests, peer_ratio);
    uint32_t free_slots = v->max_running > v->real_running ? v->max_running - v->real_running : 0;
    uint32_t since_running = v->max_running == 0 ? since : since < free_slots ? since : free_slots;
    uint32_t real_running = v->real_running +
                            since_running; /* both below 2^32 - 33 or saturated below */
    uint32_t real_waiting = v->real_waiting > UINT32_MAX - (since - since_running)
                                ? UINT32_MAX
                                : v->real_waiting + (since - since_running);
    if (v->real_running > UINT32_MAX - since_running)
        real_running = UINT32_MAX;
    real_requests = real_requests > UINT32_MAX - since ? UINT32_MAX : real_requests + since;
    uint64_t since_tokens = v->sent_since_requests
                                ? v->sent_since_tokens / v->sent_since_requests * since
                                : 0;
    uint64_t real_pending = sat_add(v->real_pending_prefill_tokens, since_tokens);
    uint64_t real_kv = sat_add(v->real_kv_tokens, since_tokens);
    v->eff_running = real_running > shadow_running ? real_running : shadow_running;
    v->eff_waiting = real_waiting > shadow_waiting ? real_waiting : shadow_waiting;
    v->eff_requests = real_requests > v->shadow_requests ? real_requests : v->shadow_requests;
    v->eff_pending_prefill_tokens = real_pending > v->shadow_pending_prefill_tokens
                                        ? real_pending
                                        : v->shadow_pending_prefill_tokens;
    v->eff_kv_tokens = real_kv > v->shadow_kv_tokens ? real_kv : v->shadow_kv_tokens;
}

/* On a state other than no_segment/writer_stale/slot_missing/slot_busy, *st points at the slot's copy. */
static kvr_feed_state_t read_slot(kvr_feed_t *feed, kvr_engine_t *e, uint64_t now_ns,
                                  const kvr_engine_state_t **st, uint64_t *age_ns)
{
    if (!feed->open)
        return feed->rejected ? KVR_FEED_SEGMENT_REJECTED : KVR_FEED_NO_SEGMENT;
    if (!feed->writer_ok)
        return KVR_FEED_WRITER_STALE;
    /* Slot indexes are valid for one table generation of one mapped object. */
    uint64_t key = kvr_shm_generation(&feed->shm) ^ (feed->opens_total << 48);
    if (e->feed_generation != key) {
        e->feed_slot = kvr_shm_find(&feed->shm, e->id);
        e->feed_generation = key;
        e->feed_cache.valid = false; /* a copy from another mapping or slot proves nothing */
    }
    if (e->feed_slot < 0)
        return KVR_FEED_SLOT_MISSING;
    int rc = kvr_shm_read_slot_cached(&feed->shm, (uint32_t)e->feed_slot, now_ns, &e->feed_cache,
                                      age_ns);
    if (rc == KVR_ESHM_BUSY)
        return KVR_FEED_SLOT_BUSY;
    if (rc < 0 || strcmp(e->feed_cache.state.engine_id, e->id) != 0) {
        e->feed_generation =
            0; /* the slot changed hands without a generation bump: re-map next time */
        return KVR_FEED_SLOT_MISSING;
    }
    *st = &e->feed_cache.state;
    if (!((*st)->flags & KVR_SLOT_HEALTHY))
        return KVR_FEED_SLOT_UNHEALTHY;
    if (*age_ns > feed->max_age_ns)
        return KVR_FEED_SLOT_STALE;
    return KVR_FEED_FRESH;
}

static uint64_t tokens(uint64_t value)
{
    return value > FEED_MAX_TOKENS ? FEED_MAX_TOKENS : value;
}

/* A 0..1 figure from the segment: NaN or negative is unknown (-1), above 1 is 1. */
static double fraction(double value)
{
    if (isnan(value) || value < 0.0)
        return -1.0;
    return value > 1.0 ? 1.0 : value;
}

kvr_feed_state_t kvr_feed_view(kvr_feed_t *feed, kvr_engine_t *e, uint64_t now_ns, bool count,
                               kvr_engine_view_t *view)
{
    fill_shadow(e, view);
    if (!feed->enabled) {
        fill_eff(view, feed->peer_ratio);
        return KVR_FEED_NO_SEGMENT; /* ES=0: shadow by design, not a fallback */
    }
    const kvr_engine_state_t *st = NULL;
    uint64_t age_ns = 0;
    kvr_feed_state_t state = read_slot(feed, e, now_ns, &st, &age_ns);
    /* A sample time from the future has no age (stale, shown as null), never 2^64 ns. */
    if ((state == KVR_FEED_FRESH || state == KVR_FEED_SLOT_STALE ||
         state == KVR_FEED_SLOT_UNHEALTHY) &&
        age_ns != UINT64_MAX)
        view->feed_age_ns = age_ns;
    if (state == KVR_FEED_FRESH) {
        view->feed_fresh = true;
        view->real_running = st->running;
        view->real_waiting = st->waiting;
        view->real_pending_prefill_tokens = tokens(st->pending_prefill_tokens);
        view->real_kv_tokens = tokens(st->kv_tokens_used);
        view->max_prefill_remaining = tokens(st->max_prefill_remaining);
        view->max_running = st->max_running;
        view->dp_ranks = st->dp_ranks;
        view->caps_complete = (st->flags & KVR_SLOT_CAPS_COMPLETE) != 0;
        view->kv_capacity_tokens = tokens(st->kv_tokens_capacity);
        view->kv_usage = fraction(st->kv_usage);
        view->utilization = (st->flags & KVR_SLOT_HAS_UTILIZATION) ? fraction(st->utilization)
                                                                   : -1.0;
        if (feed->add_sent)
            sent_since(e, now_ns, age_ns == UINT64_MAX ? 0 : age_ns, view);
    }
    if (count)
        feed->fallbacks_total[state]++;
    fill_eff(view, feed->peer_ratio);
    return state;
}
