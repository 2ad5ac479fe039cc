/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --engine-dns for the daemon: one DNS watch (common/dns_watch.h) per name
 * on a private libuv loop that each tick runs without waiting, so the
 * resolver works on libuv's threadpool and its answers are applied between
 * polls, on the loop thread. A new address gets a slot through
 * kvr__feed_engine_add; a vanished one loses it through
 * kvr__feed_engine_remove (the table generation bumps, its memory goes once
 * its poll ended), the same path SIGHUP takes. The same loop resolves the
 * names of --engine URLs added while the daemon runs (engines.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/dns_watch.h"
#include "common/error.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "statefeed/feed.h"

typedef struct kvr__discovery_s {
    uv_loop_t loop;
    kvr__feed_t *feed;
    kvr_dns_watch_t *watches[KVR_FEED_MAX_ENGINE_DNS];
    kvr__feed_kind_t kinds[KVR_FEED_MAX_ENGINE_DNS];
    size_t n_watches;
} kvr__discovery_t;

static kvr__feed_kind_t watch_kind(const kvr__discovery_t *d, const kvr_dns_watch_t *w)
{
    for (size_t i = 0; i < d->n_watches; i++)
        if (d->watches[i] == w)
            return d->kinds[i];
    return KVR_FEED_KIND_VLLM;
}

static int on_join(kvr_dns_watch_t *w, const char *url, void *user)
{
    kvr__discovery_t *d = user;
    if (kvr__feed_engine_find(d->feed, url))
        return -EEXIST;
    return kvr__feed_engine_add(d->feed, url, watch_kind(d, w), false);
}

static void on_leave(kvr_dns_watch_t *w, const char *url, void *user)
{
    kvr__discovery_t *d = user;
    /* Another name that answers this address too takes it over: the slot stays. */
    for (size_t i = 0; i < d->n_watches; i++) {
        kvr_dns_watch_member_t *m = d->watches[i] == w ? NULL
                                                       : kvr_dns_watch_find(d->watches[i], url);
        if (m && m->missing == 0) {
            m->owned = true;
            return;
        }
    }
    kvr__feed_engine_t *e = kvr__feed_engine_find(d->feed, url);
    if (e && !e->from_file)
        kvr__feed_engine_remove(d->feed, e);
}

uv_loop_t *kvr__feed_resolver_loop(kvr__feed_t *feed)
{
    return feed->discovery ? &feed->discovery->loop : NULL;
}

/* The loop exists without --engine-dns too: engines named by --engine resolve on it. */
int kvr__feed_discovery_start(kvr__feed_t *feed)
{
    kvr__discovery_t *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    int rc = uv_loop_init(&d->loop);
    if (rc < 0) {
        free(d);
        return rc;
    }
    d->feed = feed;
    feed->discovery = d;
    for (unsigned i = 0; i < feed->cfg.engine_dns_count; i++) {
        kvr_dns_watch_config_t wc = {
            .spec = feed->cfg.engine_dns[i].spec,
            .interval_ms = feed->cfg.engine_dns_interval_s * 1000,
            .drain_after = feed->cfg.engine_dns_drain_after,
            .max_members = feed->cfg.capacity,
            .join = on_join,
            .leave = on_leave,
            .family = kvr_dns_watch_family(feed->cfg.engine_dns_family),
            .user = d,
        };
        kvr_dns_watch_t *w = calloc(1, sizeof *w);
        rc = w ? kvr_dns_watch_init(w, &d->loop, &wc) : -ENOMEM;
        if (rc == 0) {
            d->kinds[d->n_watches] = feed->cfg.engine_dns[i].kind;
            d->watches[d->n_watches++] = w;
            rc = kvr_dns_watch_start(w);
        } else {
            free(w);
        }
        if (rc < 0) {
            KVR_ERROR("discovery_start_failed name=%s error=\"%s\"", wc.spec, kvr_strerror(rc));
            kvr__feed_discovery_stop(feed);
            return rc;
        }
    }
    return 0;
}

void kvr__feed_discovery_tick(kvr__feed_t *feed)
{
    if (feed->discovery)
        uv_run(&feed->discovery->loop, UV_RUN_NOWAIT);
}

void kvr__feed_discovery_stop(kvr__feed_t *feed)
{
    kvr__discovery_t *d = feed->discovery;
    if (!d)
        return;
    for (size_t i = 0; i < d->n_watches; i++)
        kvr_dns_watch_stop(d->watches[i], NULL);
    /* A resolution running on the threadpool is waited for: its request points into the watch. */
    uv_run(&d->loop, UV_RUN_DEFAULT);
    for (size_t i = 0; i < d->n_watches; i++) {
        kvr_dns_watch_close(d->watches[i]);
        free(d->watches[i]);
    }
    if (uv_loop_close(&d->loop) != 0)
        KVR_WARN("discovery_close reason=\"libuv handles still open\"");
    free(d);
    feed->discovery = NULL;
}

void kvr__feed_discovery_metrics(kvr__feed_t *feed, kvr_prom_writer_t *w)
{
    kvr__discovery_t *d = feed->discovery;
    if (d && d->n_watches)
        kvr_dns_watch_metrics(w, "kvroute_statefeed", d->watches, d->n_watches);
}
