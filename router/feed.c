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
/* Growth of an engine's external load from sample to sample: EWMA weight, bound, and the most
 * requests its extrapolation over one sample's age may add. */
#define FEED_GROWTH_WEIGHT 0.5
#define FEED_MAX_GROWTH_PER_S 1e6
#define FEED_MAX_OTHERS_SINCE 4096u
#define FEED_MIN_GROWTH_NS KVR_NS_PER_MS /* samples closer than this give no rate */

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
    kvr_feed_slots_close(&feed->slots);
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

static uint32_t sat_add32(uint32_t a, uint32_t b)
{
    return b > UINT32_MAX - a ? UINT32_MAX : a + b;
}

/* What this router had in flight at the sample: in flight now, less sent since, plus ended since. */
static uint32_t own_at_sample(const kvr_engine_view_t *v)
{
    uint32_t own = v->shadow_requests > v->sent_since_requests
                       ? v->shadow_requests - v->sent_since_requests
                       : 0;
    return sat_add32(own, v->finished_since_requests);
}

static uint32_t real_requests(const kvr_engine_view_t *v)
{
    return sat_add32(v->real_running, v->real_waiting); /* both from the segment: saturate */
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
 * What this router sent to e after the sample of age_ns was taken (the
 * engine had not seen it yet, so the sample's counts lack it) and what of
 * its own ended since (the sample still counts it). With both, the sample
 * splits into this router's part at sample time and the rest: a 50 ms old
 * sample read as is counts requests that ended since, and taking the larger
 * of it and the shadow prefers that stale figure.
 */
static void sent_since(const kvr_engine_t *e, uint64_t now_ns, uint64_t age_ns,
                       kvr_engine_view_t *v)
{
    uint64_t sample_ns = age_ns <= now_ns ? now_ns - age_ns : 0;
    for (uint32_t i = 0; i < KVR_ENGINE_SENT_RING; i++) {
        if (e->sent_ns[i] != 0 && e->sent_ns[i] >= sample_ns && e->sent_ns[i] <= now_ns) {
            v->sent_since_requests++;
            v->sent_since_tokens = sat_add(v->sent_since_tokens, e->sent_tokens[i]);
        }
        /* In flight at the sample (sent at or before it), ended after it, not in the future. */
        if (e->finish_ns[i] != 0 && e->finish_ns[i] > sample_ns && e->finish_ns[i] <= now_ns &&
            e->finish_sent_ns[i] <= sample_ns) {
            v->finished_since_requests++;
            v->finished_since_kv_tokens = sat_add(v->finished_since_kv_tokens,
                                                  e->finish_kv_tokens[i]);
        }
    }
}

void kvr_feed_note_end(kvr_feed_t *feed, kvr_engine_t *e, uint64_t sent_ns, uint64_t kv_tokens,
                       uint64_t now_ns)
{
    if (!feed->enabled || !feed->add_sent || sent_ns == 0)
        return;
    uint32_t i = e->finish_next % KVR_ENGINE_SENT_RING;
    e->finish_ns[i] = now_ns ? now_ns : 1;
    e->finish_sent_ns[i] = sent_ns;
    e->finish_kv_tokens[i] = kv_tokens > UINT32_MAX ? UINT32_MAX : (uint32_t)kv_tokens;
    e->finish_next = (i + 1) % KVR_ENGINE_SENT_RING;
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
        /* Own in flight at the sample (ends since counted back): the rest of the sample is not ours. */
        uint64_t own = own_at_sample(v);
        uint64_t real = own + v->external_requests;
        others += v->external_requests > 0 && own > 0;
        fresh++;
        own_total += own;
        real_total += real;
    }
    /*
     * Routers spread their work, this router's and the others' alike: they
     * show as load not ours on engines that hold ours too. Load on engines
     * this router has nothing on is a client sending there directly (or a
     * pin), which takes no pick from the sample and is no reason to doubt
     * this router's own.
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
    /*
     * One request's worth: each router's own view already holds what it sent
     * since the sample; a wider window (the others' share, up to 7) drew
     * among engines a prefix or a speed set apart, and lost more than
     * herding cost (fleetsim, 4 routers, agentic and long-tail).
     */
    uint32_t slack = 1;
    for (size_t i = 0; i < n; i++) {
        views[i].herd_slack = slack;
        views[i].tie_draw = kvr_splitmix64(&feed->spread_rng);
    }
}

/*
 * The sample's load that is not this router's (external = real - own at the
 * sample, at least 0: an engine that has not yet seen a dispatch shows less
 * than was sent) and what other senders added since the sample, from how
 * fast external grew between the samples this router saw. One router with
 * no other client: external is 0 and eff is the shadow, exactly.
 */
static void split_external(kvr_engine_t *e, uint64_t sample_ns, uint64_t age_ns,
                           kvr_engine_view_t *v)
{
    uint32_t real = real_requests(v);
    uint32_t own = own_at_sample(v);
    v->external_requests = real > own ? real - own : 0;
    if (sample_ns != e->external_sample_ns) {
        if (e->external_sample_ns != 0 && sample_ns >= e->external_sample_ns + FEED_MIN_GROWTH_NS) {
            double dt_s = (double)(sample_ns - e->external_sample_ns) / 1e9;
            double growth = ((double)v->external_requests - (double)e->external_requests) / dt_s;
            if (growth > FEED_MAX_GROWTH_PER_S)
                growth = FEED_MAX_GROWTH_PER_S;
            if (growth < -FEED_MAX_GROWTH_PER_S)
                growth = -FEED_MAX_GROWTH_PER_S;
            e->external_growth_per_s += FEED_GROWTH_WEIGHT * (growth - e->external_growth_per_s);
        } else {
            e->external_growth_per_s = 0; /* first sample, or a writer whose clock went back */
        }
        e->external_sample_ns = sample_ns;
        e->external_requests = v->external_requests;
    }
    double since = e->external_growth_per_s > 0
                       ? e->external_growth_per_s * ((double)age_ns / 1e9) + 0.5
                       : 0;
    /* Others at most double their share within one sample's age: a jump is no trend. */
    if (since > (double)v->external_requests)
        since = (double)v->external_requests;
    v->others_since_requests = since >= FEED_MAX_OTHERS_SINCE ? FEED_MAX_OTHERS_SINCE
                                                              : (uint32_t)since;
}

/* Shadow in-flight counts as running up to max_running (all running when the cap is unknown). */
static void fill_eff(kvr_engine_view_t *v, bool split)
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
    uint32_t real = real_requests(v);
    if (!split) {
        /* --es-sent 0: the sample as is against the shadow. */
        v->eff_running = v->real_running > shadow_running ? v->real_running : shadow_running;
        v->eff_waiting = v->real_waiting > shadow_waiting ? v->real_waiting : shadow_waiting;
        v->eff_requests = real > v->shadow_requests ? real : v->shadow_requests;
        v->eff_pending_prefill_tokens = v->real_pending_prefill_tokens >
                                                v->shadow_pending_prefill_tokens
                                            ? v->real_pending_prefill_tokens
                                            : v->shadow_pending_prefill_tokens;
        v->eff_kv_tokens = v->real_kv_tokens > v->shadow_kv_tokens ? v->real_kv_tokens
                                                                   : v->shadow_kv_tokens;
        return;
    }
    uint32_t eff = sat_add32(sat_add32(v->shadow_requests, v->external_requests),
                             v->others_since_requests);
    /*
     * Split as the shadow splits its own, all of them: running up to the
     * batch cap, the rest waiting. The sample's own split is not laid on
     * them: an engine whose sample had most of its queue waiting for
     * prefill then showed this router's requests and the others' as
     * waiting, and a rule reading the batch alone (lmetric_paper) took an
     * engine with 180 queued for one with a batch of 7. One router with no
     * other client: the shadow's split, as ES=0; with others, their load
     * counted as ES=0 counts its own.
     */
    uint32_t cap = v->real_running > v->max_running ? v->real_running : v->max_running;
    uint32_t running = v->max_running > 0 && eff > cap ? cap : eff;
    uint32_t waiting = eff - running;
    v->eff_running = running;
    v->eff_waiting = waiting;
    v->eff_requests = eff;
    /*
     * Tokens: the engine's pending prefill is exact at the sample (the shadow
     * releases a prompt when the engine accepts it, before any prefill), so
     * the sample plus what was sent since, own and others' at the average
     * size of own. Never below the shadow.
     */
    uint64_t since_tokens = v->sent_since_tokens;
    if (v->sent_since_requests > 0)
        since_tokens = sat_add(since_tokens, v->sent_since_tokens / v->sent_since_requests *
                                                 v->others_since_requests);
    uint64_t pending = sat_add(v->real_pending_prefill_tokens, since_tokens);
    /*
     * KV: the shadow plus the external requests' share of the sample's KV.
     * The engine counts a shared prefix once and the shadow once per request,
     * so the sample read as is calls an engine full of one prefix's requests
     * light; with no external load this is the shadow, as for requests.
     * Others since hold KV too, each at the average size of own sent since
     * (else of the sample's): without it a rule reading KV alone (cost)
     * saw each of this router's sends but not the others' sent alike from
     * the same sample, and four routers put a group arriving together on
     * one engine (fleetsim grouped: 19 of one millisecond's requests).
     */
    uint64_t ext_kv = 0;
    if (real > 0 && v->external_requests > 0) {
        double x = (double)v->real_kv_tokens * ((double)v->external_requests / (double)real);
        ext_kv = x >= (double)FEED_MAX_TOKENS ? FEED_MAX_TOKENS : (uint64_t)x;
    }
    if (v->others_since_requests > 0) {
        uint64_t each = v->sent_since_requests > 0 ? v->sent_since_tokens / v->sent_since_requests
                        : real > 0                 ? v->real_kv_tokens / real
                                                   : 0;
        ext_kv = sat_add(ext_kv, each * v->others_since_requests); /* < 2^48 x 2^12: no wrap */
    }
    uint64_t kv = sat_add(v->shadow_kv_tokens, ext_kv);
    v->eff_pending_prefill_tokens = pending > v->shadow_pending_prefill_tokens
                                        ? pending
                                        : v->shadow_pending_prefill_tokens;
    v->eff_kv_tokens = kv > v->shadow_kv_tokens ? kv : v->shadow_kv_tokens;
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
        e->feed_slot = kvr_feed_slots_find(&feed->slots, &feed->shm, key, e->id);
        e->feed_generation = key;
        e->feed_cache.valid = false; /* a copy from another mapping or slot proves nothing */
        e->external_sample_ns = 0;   /* nor does growth measured on another writer's samples */
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
        fill_eff(view, false);
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
        if (feed->add_sent) {
            uint64_t age = age_ns == UINT64_MAX ? 0 : age_ns;
            sent_since(e, now_ns, age, view);
            split_external(e, age <= now_ns ? now_ns - age : 0, age, view);
            /*
             * Routers that read this sample and chose alike sent here too: each
             * of this router's sends since stands for peer_ratio of theirs (0
             * while no other router shows). The larger of that and the growth.
             */
            double alike = (double)view->sent_since_requests * feed->peer_ratio + 0.5;
            uint32_t others = alike >= FEED_MAX_OTHERS_SINCE ? FEED_MAX_OTHERS_SINCE
                                                             : (uint32_t)alike;
            if (others > view->others_since_requests)
                view->others_since_requests = others;
        }
    }
    if (count)
        feed->fallbacks_total[state]++;
    fill_eff(view, feed->add_sent);
    return state;
}
