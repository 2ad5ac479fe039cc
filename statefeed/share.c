/* SPDX-License-Identifier: Apache-2.0 */
/* --share: the dispatch segment across hosts, over the relay (share.h). */
#include "statefeed/share.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"

/* A segment that failed is opened again this often. */
#define SHARE_REOPEN_NS (1 * KVR_NS_PER_SEC)
/* An import whose last table is older than this many periods adds nothing to the row. */
#define SHARE_SILENT_PERIODS 4

typedef struct {
    kvr_dsp_engine_t
        *loads; /* grown to the largest share received, up to KVR_RELAY_MAX_SHARE_LOADS */
    uint32_t load_count, load_cap;
    uint64_t received_ns; /* 0: no table with a share yet */
    double tokens;        /* --relay-max-placements bucket */
    uint64_t tokens_at_ns;
    bool limited; /* logged once per episode */
} import_share_t;

typedef struct kvr__share_s {
    kvr_dsp_t dsp;
    bool open;
    int last_error;
    uint64_t epoch; /* bumped at each open: cursors of an older mapping start again */
    uint64_t next_open_ns;
    import_share_t *imports; /* one per import place (relay.c) */
    unsigned import_cap;
    /* scratch of one export */
    uint64_t keys[KVR_RELAY_MAX_SHARE_LOADS];
    kvr_dsp_load_t sums[KVR_RELAY_MAX_SHARE_LOADS];
    kvr_dsp_placement_t placed[KVR_RELAY_MAX_PLACEMENTS];
    kvr__share_stats_t stats;
} kvr__share_t;

static kvr__share_t *share_of(const kvr__feed_t *feed)
{
    return feed->share;
}

bool kvr__feed_share_enabled(const kvr__feed_t *feed)
{
    return feed->share != NULL;
}

static void note(kvr__share_t *s, const char *name, int rc, const char *step)
{
    if (rc == s->last_error)
        return;
    s->last_error = rc;
    if (rc == 0) {
        KVR_INFO("share_ok name=%s row=%d rows=%u engines_per_row=%u ring=%u", name, s->dsp.row,
                 s->dsp.row_capacity, s->dsp.engines_per_row, s->dsp.ring_capacity);
        return;
    }
    char text[512];
    KVR_WARN(
        "share_unavailable name=%s step=%s error=\"%s\" reason=\"remote load and placements are not "
        "written here until it opens again\"",
        name, step, kvr_dsp_explain(&s->dsp, rc, text, sizeof text));
}

static void try_open(kvr__feed_t *feed, kvr__share_t *s, uint64_t now_ns, unsigned wait_ms)
{
    if (s->open || now_ns < s->next_open_ns)
        return;
    s->next_open_ns = now_ns + SHARE_REOPEN_NS;
    kvr_dsp_geometry_t geo = KVR_DSP_DEFAULT_GEOMETRY;
    int rc = kvr_dsp_open(&s->dsp, feed->cfg.share_name, &geo, wait_ms);
    if (rc < 0) {
        note(s, feed->cfg.share_name, rc, "open");
        return;
    }
    rc = kvr_dsp_claim(&s->dsp, "statefeed-relay", now_ns, feed->cfg.share_max_age_ns);
    if (rc < 0) {
        note(s, feed->cfg.share_name, rc, "claim");
        kvr_dsp_close(&s->dsp);
        return;
    }
    s->open = true;
    s->epoch++;
    s->stats.open = true;
    note(s, feed->cfg.share_name, 0, "open");
}

static void fall_back(kvr__feed_t *feed, kvr__share_t *s, int rc, const char *step)
{
    note(s, feed->cfg.share_name, rc, step);
    s->stats.fallbacks++;
    s->stats.open = false;
    if (s->open)
        kvr_dsp_close(&s->dsp);
    s->open = false;
    s->next_open_ns = 0;
}

int kvr__feed_share_start(kvr__feed_t *feed)
{
    if (feed->cfg.share_name[0] == '\0')
        return 0;
    kvr__share_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return -ENOMEM;
    s->last_error = 1; /* neither 0 nor a code: the first outcome is logged */
    s->import_cap = feed->cfg.import_count +
                    (feed->cfg.import_dns_count ? feed->cfg.import_dns_max_peers : 0);
    s->imports = s->import_cap ? calloc(s->import_cap, sizeof *s->imports) : NULL;
    if (s->import_cap && s->imports == NULL) {
        free(s);
        return -ENOMEM;
    }
    for (unsigned k = 0; k < s->import_cap; k++)
        s->imports[k].tokens = (double)feed->cfg.relay_max_placements;
    feed->share = s;
    try_open(feed, s, kvr_clock_now_ns(), KVR_DSP_CREATE_WAIT_MS);
    return 0;
}

void kvr__feed_share_stop(kvr__feed_t *feed)
{
    kvr__share_t *s = share_of(feed);
    if (s == NULL)
        return;
    if (s->open)
        kvr_dsp_close(&s->dsp);
    for (unsigned k = 0; k < s->import_cap; k++)
        free(s->imports[k].loads);
    free(s->imports);
    free(s);
    feed->share = NULL;
}

/* The row: every fresh import's loads, summed per engine (saturating), as much as the row holds. */
static int publish_row(kvr__feed_t *feed, kvr__share_t *s, uint64_t now_ns)
{
    uint64_t silent = SHARE_SILENT_PERIODS * feed->cfg.period_ns;
    uint32_t cap = s->dsp.engines_per_row < KVR_RELAY_MAX_SHARE_LOADS ? s->dsp.engines_per_row
                                                                      : KVR_RELAY_MAX_SHARE_LOADS;
    uint32_t n = 0;
    uint64_t truncated = 0;
    for (unsigned k = 0; k < s->import_cap; k++) {
        const import_share_t *imp = &s->imports[k];
        if (imp->received_ns == 0 || kvr_clock_age_ns(now_ns, imp->received_ns) > silent)
            continue;
        for (uint32_t i = 0; i < imp->load_count; i++) {
            const kvr_dsp_engine_t *e = &imp->loads[i];
            uint32_t at = 0;
            while (at < n && s->keys[at] != e->key)
                at++;
            if (at == n) {
                if (n == cap) {
                    truncated++;
                    continue;
                }
                s->keys[n] = e->key;
                s->sums[n++] = (kvr_dsp_load_t){0};
            }
            kvr_dsp_load_t *sum = &s->sums[at];
            sum->in_flight = e->load.in_flight > UINT64_MAX - sum->in_flight
                                 ? UINT64_MAX
                                 : sum->in_flight + e->load.in_flight;
            sum->pending_prefill_tokens = e->load.pending_prefill_tokens >
                                                  UINT64_MAX - sum->pending_prefill_tokens
                                              ? UINT64_MAX
                                              : sum->pending_prefill_tokens +
                                                    e->load.pending_prefill_tokens;
            sum->kv_tokens = e->load.kv_tokens > UINT64_MAX - sum->kv_tokens
                                 ? UINT64_MAX
                                 : sum->kv_tokens + e->load.kv_tokens;
        }
    }
    s->stats.loads_truncated += truncated;
    s->stats.remote_engines = n;
    return kvr_dsp_publish(&s->dsp, s->keys, s->sums, n, now_ns);
}

void kvr__feed_share_tick(kvr__feed_t *feed, uint64_t now_ns)
{
    kvr__share_t *s = share_of(feed);
    if (s == NULL)
        return;
    try_open(feed, s, now_ns, 0);
    if (!s->open)
        return;
    const char *step = "size";
    int rc = kvr_dsp_check(&s->dsp);
    if (rc == 0) {
        step = "identity";
        rc = kvr_dsp_check_identity(&s->dsp);
    }
    if (rc == 0) {
        step = "heartbeat";
        rc = kvr_dsp_heartbeat(&s->dsp, now_ns);
    }
    if (rc == 0) {
        step = "publish";
        rc = publish_row(feed, s, now_ns);
    }
    if (rc < 0)
        fall_back(feed, s, rc, step);
}

void kvr__feed_share_export(kvr__feed_t *feed, kvr__share_cursor_t *c, msgpack_packer *pk,
                            uint64_t now_ns)
{
    kvr__share_t *s = share_of(feed);
    size_t loads = 0;
    uint32_t placed = 0;
    if (s != NULL && s->open && kvr_dsp_check(&s->dsp) == 0) {
        kvr_dsp_sum_stats_t st;
        loads = kvr_dsp_sum_others_any(&s->dsp, now_ns, feed->cfg.share_max_age_ns, s->keys,
                                       s->sums, KVR_RELAY_MAX_SHARE_LOADS, &st);
        if (c->epoch != s->epoch) {
            /* A new subscriber, or a new mapping: it gets what is placed from now on. */
            kvr_dsp_cursor_init(&s->dsp, &c->cursor);
            c->epoch = s->epoch;
        }
        uint64_t lost = c->cursor.lost;
        while (placed < KVR_RELAY_MAX_PLACEMENTS &&
               kvr_dsp_ring_next(&s->dsp, &c->cursor, now_ns, &s->placed[placed]) == 0)
            placed++;
        s->stats.ring_lost += c->cursor.lost - lost;
    }
    kvr__relay_share_begin(pk, (uint32_t)loads);
    for (size_t i = 0; i < loads; i++)
        kvr__relay_share_load(pk, &(kvr_dsp_engine_t){.key = s->keys[i], .load = s->sums[i]});
    kvr__relay_share_placed(pk, placed);
    for (uint32_t i = 0; i < placed; i++)
        kvr__relay_share_placement(pk, &s->placed[i],
                                   kvr_clock_age_ns(now_ns, s->placed[i].time_ns));
    if (s != NULL)
        s->stats.placements_exported += placed;
}

/* Spends one placement of the import's budget; false when none is left. */
static bool take_placement(const kvr__feed_t *feed, import_share_t *imp, uint64_t now_ns)
{
    double rate = (double)feed->cfg.relay_max_placements;
    if (imp->tokens < rate) {
        double refill = (double)kvr_clock_age_ns(now_ns, imp->tokens_at_ns) /
                        (double)KVR_NS_PER_SEC * rate;
        imp->tokens = imp->tokens + refill < rate ? imp->tokens + refill : rate;
    }
    imp->tokens_at_ns = now_ns;
    if (imp->tokens < 1.0)
        return false;
    imp->tokens -= 1.0;
    return true;
}

void kvr__feed_share_import(kvr__feed_t *feed, unsigned index, const kvr__relay_share_t *share,
                            uint64_t now_ns)
{
    kvr__share_t *s = share_of(feed);
    if (s == NULL || index >= s->import_cap || !share->present)
        return;
    import_share_t *imp = &s->imports[index];
    uint32_t n = share->load_count < KVR_RELAY_MAX_SHARE_LOADS ? share->load_count
                                                               : KVR_RELAY_MAX_SHARE_LOADS;
    if (n > imp->load_cap) {
        kvr_dsp_engine_t *grown = realloc(imp->loads, n * sizeof *imp->loads);
        if (grown == NULL) {
            n = imp->load_cap; /* the first engines only, counted as truncated by the row */
            s->stats.loads_truncated += share->load_count - n;
        } else {
            imp->loads = grown;
            imp->load_cap = n;
        }
    }
    if (n > 0)
        memcpy(imp->loads, share->loads, n * sizeof *imp->loads);
    imp->load_count = n;
    imp->received_ns = now_ns;
    if (!s->open)
        return;
    uint64_t over = 0;
    for (uint32_t i = 0; i < share->placement_count; i++) {
        if (!take_placement(feed, imp, now_ns)) {
            over++;
            continue;
        }
        kvr_dsp_placement_t p = share->placements[i].placement;
        uint64_t age = share->placements[i].age_ns < now_ns ? share->placements[i].age_ns
                                                            : now_ns - 1;
        p.time_ns = now_ns - age;
        if (kvr_dsp_append(&s->dsp, &p) == 0)
            s->stats.placements_imported++;
        else
            s->stats.placements_ring_busy++;
    }
    s->stats.placements_over_limit += over;
    if ((over > 0) != imp->limited) {
        imp->limited = over > 0;
        if (over > 0)
            KVR_WARN(
                "share_placements_over_limit import=%u dropped=%llu max_per_sec=%u reason=\"the peer "
                "places faster than --relay-max-placements\"",
                index, (unsigned long long)over, feed->cfg.relay_max_placements);
        else
            KVR_INFO("share_placements_within_limit import=%u", index);
    }
    /* The routers here count the remote charge from this table on, not from the next tick. */
    int rc = publish_row(feed, s, now_ns);
    if (rc < 0)
        fall_back(feed, s, rc, "publish");
}

void kvr__feed_share_forget(kvr__feed_t *feed, unsigned index)
{
    kvr__share_t *s = share_of(feed);
    if (s == NULL || index >= s->import_cap)
        return;
    import_share_t *imp = &s->imports[index];
    imp->load_count = 0;
    imp->received_ns = 0;
    imp->tokens = (double)feed->cfg.relay_max_placements;
    imp->limited = false;
}

void kvr__feed_share_stats(const kvr__feed_t *feed, kvr__share_stats_t *out)
{
    const kvr__share_t *s = share_of(feed);
    if (s == NULL) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = s->stats;
}
