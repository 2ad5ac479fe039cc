/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daemon's own /metrics on --listen, through the common libuv HTTP
 * server. libuv runs inside the io_uring loop: its backend fd is polled with
 * IORING_OP_POLL_ADD and the loop runs once (UV_RUN_NOWAIT) whenever that fd
 * is readable and on every tick, for libuv's own timers.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/http_server.h"
#include "common/log.h"
#include "common/prom_writer.h"
#include "common/xmalloc.h"
#include "statefeed/feed.h"
#include "statefeed/kv_feed.h"
#include "statefeed/share.h"

typedef struct kvr__metrics_s {
    uv_loop_t loop;
    kvr_http_server_t *server;
    kvr__op_t poll_op;
    bool poll_armed;
} kvr_metrics_t;

static void feed_histogram(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                           size_t n_labels, const uint64_t *buckets, uint64_t sum_ns)
{
    double bounds[KVR_FEED_LATENCY_BUCKETS];
    for (unsigned i = 0; i < KVR_FEED_LATENCY_BUCKETS; i++)
        bounds[i] = kvr__feed_latency_bounds_ns[i] / 1e9;
    kvr_prom_histogram(w, name, labels, n_labels, bounds, KVR_FEED_LATENCY_BUCKETS, buckets,
                       (double)sum_ns / 1e9);
}

static void scalar(kvr_prom_writer_t *w, const char *name, kvr_prom_type_t type, const char *help,
                   uint64_t value)
{
    kvr_prom_family(w, name, type, help);
    kvr_prom_sample_u64(w, name, NULL, 0, value);
}

char *kvr__feed_metrics_render(kvr__feed_t *feed, size_t *len)
{
    kvr_buf_t out = KVR_BUF_INIT;
    (void)kvr_buf_reserve(&out, 8192);
    kvr_prom_writer_t pw, *w = &pw;
    kvr_prom_writer_init(w, &out, KVR_PROM_STYLE_GO);
    uint64_t now = kvr_clock_now_ns();
    if (feed->metrics && feed->metrics->server)
        kvr_http_server_write_metrics(feed->metrics->server, w, "kvroute_statefeed");
    kvr_prom_family(w, "kvroute_statefeed_tick_lag_seconds", KVR_PROM_HISTOGRAM,
                    "Delay of each tick after its scheduled time.");
    feed_histogram(w, "kvroute_statefeed_tick_lag_seconds", NULL, 0, feed->tick_lag_buckets,
                   feed->tick_lag_sum_ns);
    scalar(w, "kvroute_statefeed_ticks_total", KVR_PROM_COUNTER, "Ticks run.", feed->ticks);
    scalar(w, "kvroute_statefeed_engines", KVR_PROM_GAUGE, "Engines with a slot.",
           feed->engine_count);
    scalar(w, "kvroute_statefeed_table_generation", KVR_PROM_GAUGE, "Segment table generation.",
           kvr_shm_generation(&feed->shm));
    scalar(w, "kvroute_statefeed_segment_repairs_total", KVR_PROM_COUNTER,
           "Times the segment was found shrunk, overwritten or replaced and restored.",
           feed->segment_repairs);
    if (feed->residency_on) {
        kvr_res_stats_t rs;
        kvr_residency_writer_stats(&feed->residency, &rs);
        scalar(w, "kvroute_statefeed_residency_blocks", KVR_PROM_GAUGE,
               "(block, engine, tier) entries the residency table holds.", rs.entries);
        scalar(w, "kvroute_statefeed_residency_capacity_blocks", KVR_PROM_GAUGE,
               "Entries the residency table holds before it refuses new blocks.",
               rs.capacity_entries);
        scalar(w, "kvroute_statefeed_residency_full_refusals_total", KVR_PROM_COUNTER,
               "Blocks refused because the residency table was full (--cache-index-mb).",
               rs.refused_total);
        scalar(w, "kvroute_statefeed_residency_clears_total", KVR_PROM_COUNTER,
               "Times all of an engine's blocks were cleared at once.", rs.clears_total);
    }
    scalar(w, "kvroute_statefeed_push_rejected_total", KVR_PROM_COUNTER,
           "Push frames rejected as malformed.", feed->push_rejected);
    scalar(w, "kvroute_statefeed_push_unknown_engine_total", KVR_PROM_COUNTER,
           "Push frames for engines not configured.", feed->push_unknown_engine);

    scalar(w, "kvroute_statefeed_engines_over_capacity_total", KVR_PROM_COUNTER,
           "Engines refused a slot because every one of --capacity was taken.",
           feed->engines_over_capacity);
    kvr__feed_discovery_metrics(feed, w);
    kvr__feed_peers_metrics(feed, w);

    kvr__feed_relay_stats_t rs;
    kvr__feed_relay_stats(feed, &rs);
    if (feed->cfg.export_addr[0] != '\0') {
        scalar(w, "kvroute_statefeed_export_subscribers", KVR_PROM_GAUGE,
               "Relay subscribers connected.", rs.subscribers);
        scalar(
            w, "kvroute_statefeed_export_refused_total", KVR_PROM_COUNTER,
            "Relay subscribers dropped in the handshake (no hello, wrong version, hmac mismatch).",
            rs.export_refused);
    }
    static const struct {
        const char *name, *help;
        kvr_prom_type_t type;
    } import_families[] = {
        {"kvroute_statefeed_import_connected", "1 while the relay import is connected.",
         KVR_PROM_GAUGE},
        {"kvroute_statefeed_import_rejected_total", "Relay streams dropped for a malformed frame.",
         KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_engines_refused_total",
         "Relay table entries ignored past --relay-max-engines.", KVR_PROM_COUNTER},
        {"kvroute_statefeed_import_changes_deferred_total",
         "Relay engine additions and removals put off by --relay-max-changes.", KVR_PROM_COUNTER},
    };
    for (unsigned m = 0; rs.imports > 0 && m < sizeof(import_families) / sizeof(import_families[0]);
         m++) {
        kvr_prom_family(w, import_families[m].name, import_families[m].type,
                        import_families[m].help);
        for (unsigned k = 0; k < rs.imports; k++) {
            kvr__feed_import_stats_t is;
            if (!kvr__feed_relay_import_stats(feed, k, &is) || is.self)
                continue;
            uint64_t v = m == 0   ? (is.connected ? 1 : 0)
                         : m == 1 ? is.rejected
                         : m == 2 ? is.engines_refused
                                  : is.changes_deferred;
            kvr_prom_label_t l = {"addr", is.addr};
            kvr_prom_sample_u64(w, import_families[m].name, &l, 1, v);
        }
    }

    if (kvr__feed_share_enabled(feed)) {
        kvr__share_stats_t ss;
        kvr__feed_share_stats(feed, &ss);
        scalar(w, "kvroute_statefeed_share_open", KVR_PROM_GAUGE,
               "1 while the --share dispatch segment is mapped and this daemon holds its row.",
               ss.open);
        scalar(w, "kvroute_statefeed_share_remote_engines", KVR_PROM_GAUGE,
               "Engines whose remote load the row carries.", ss.remote_engines);
        scalar(w, "kvroute_statefeed_share_placements_exported_total", KVR_PROM_COUNTER,
               "Local routers' placements sent to relay subscribers.", ss.placements_exported);
        scalar(w, "kvroute_statefeed_share_placements_imported_total", KVR_PROM_COUNTER,
               "Remote placements appended to the local ring.", ss.placements_imported);
        kvr_prom_family(
            w, "kvroute_statefeed_share_placements_dropped_total", KVR_PROM_COUNTER,
            "Remote placements not appended: over --relay-max-placements, or the ring slot taken.");
        kvr_prom_label_t limit = {"reason", "limit"}, busy = {"reason", "ring_busy"};
        kvr_prom_sample_u64(w, "kvroute_statefeed_share_placements_dropped_total", &limit, 1,
                            ss.placements_over_limit);
        kvr_prom_sample_u64(w, "kvroute_statefeed_share_placements_dropped_total", &busy, 1,
                            ss.placements_ring_busy);
        scalar(w, "kvroute_statefeed_share_ring_lost_total", KVR_PROM_COUNTER,
               "Local placements overwritten before a subscriber's table took them.", ss.ring_lost);
        scalar(w, "kvroute_statefeed_share_loads_truncated_total", KVR_PROM_COUNTER,
               "Remote engine loads left out: more engines than a row holds.", ss.loads_truncated);
        scalar(w, "kvroute_statefeed_share_fallbacks_total", KVR_PROM_COUNTER,
               "Faults that closed the dispatch segment (reopened a second later).", ss.fallbacks);
    }

    kvr_prom_family(w, "kvroute_statefeed_poll_seconds", KVR_PROM_HISTOGRAM,
                    "Poll latency per engine, request to answer.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed || e->latency_count == 0)
            continue;
        kvr_prom_label_t l = {"engine", e->id};
        feed_histogram(w, "kvroute_statefeed_poll_seconds", &l, 1, e->latency_buckets,
                       e->latency_sum_ns);
    }
    kvr_prom_family(w, "kvroute_statefeed_polls_total", KVR_PROM_COUNTER,
                    "Polls by engine and result.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        static const char *const results[] = {"ok", "failed", "garbage"};
        uint64_t counts[] = {e->polls_ok, e->polls_failed, e->garbage};
        for (int k = 0; k < 3; k++) {
            kvr_prom_label_t l[] = {{"engine", e->id}, {"result", results[k]}};
            kvr_prom_sample_u64(w, "kvroute_statefeed_polls_total", l, 2, counts[k]);
        }
    }
    kvr_prom_family(w, "kvroute_statefeed_push_frames_total", KVR_PROM_COUNTER,
                    "Push frames accepted per engine.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        kvr_prom_label_t l = {"engine", e->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_push_frames_total", &l, 1, e->push_frames);
    }
    kvr_prom_family(w, "kvroute_statefeed_push_frames_lost_total", KVR_PROM_COUNTER,
                    "Push frames missing from the sender's sequence.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed || !e->has_push_seq)
            continue;
        kvr_prom_label_t l = {"engine", e->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_push_frames_lost_total", &l, 1,
                            e->push_frames_lost);
    }

    /* Three gauges from one slot read per engine; each family is written as one group. */
    kvr_engine_state_t *states = kvr_xcalloc(feed->engine_count ? feed->engine_count : 1,
                                             sizeof *states);
    for (unsigned i = 0; i < feed->engine_count; i++)
        if (!feed->engines[i]->removed)
            kvr_shm_writer_state(&feed->shm, feed->engines[i]->slot, &states[i]);
    kvr_prom_family(w, "kvroute_statefeed_slot_age_seconds", KVR_PROM_GAUGE,
                    "Age of each slot's sample (-1: never sampled).");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        if (feed->engines[i]->removed)
            continue;
        const kvr_engine_state_t *st = &states[i];
        double age = st->sample_time_ns ? (double)kvr_clock_age_ns(now, st->sample_time_ns) / 1e9
                                        : -1.0;
        kvr_prom_label_t l[] = {{"engine", feed->engines[i]->id},
                                {"source", kvr_source_name(kvr_slot_source(st->flags))}};
        kvr_prom_sample(w, "kvroute_statefeed_slot_age_seconds", l, 2, age);
    }
    kvr_prom_family(w, "kvroute_statefeed_slot_healthy", KVR_PROM_GAUGE,
                    "1 when the slot is marked healthy.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        if (feed->engines[i]->removed)
            continue;
        kvr_prom_label_t l = {"engine", feed->engines[i]->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_slot_healthy", &l, 1,
                            (states[i].flags & KVR_SLOT_HEALTHY) ? 1 : 0);
    }
    kvr_prom_family(w, "kvroute_statefeed_consecutive_failures", KVR_PROM_GAUGE,
                    "Failed polls since the last sample.");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        if (feed->engines[i]->removed)
            continue;
        kvr_prom_label_t l = {"engine", feed->engines[i]->id};
        kvr_prom_sample_u64(w, "kvroute_statefeed_consecutive_failures", &l, 1,
                            states[i].consecutive_failures);
    }
    free(states);
    kvr__feed_kv_metrics(feed, w);
    return kvr_buf_release(&out, len);
}

static void on_request(kvr_http_req_t *req, void *user)
{
    kvr__feed_t *feed = user;
    const char *path = kvr_http_req_path(req);
    if (strcmp(kvr_http_req_method(req), "GET") != 0) {
        kvr_http_respond_error(req, 405, NULL, "only GET is served here", NULL, 0);
        return;
    }
    if (strcmp(path, "/metrics") == 0) {
        size_t len = 0;
        char *body = kvr__feed_metrics_render(feed, &len);
        kvr_http_respond(req, 200, "text/plain; version=0.0.4", NULL, 0, body, len);
        free(body);
        return;
    }
    if (strcmp(path, "/health") == 0) {
        kvr_http_respond(req, 200, "text/plain", NULL, 0, "ok\n", 3);
        return;
    }
    kvr_http_respond_error(req, 404, NULL, "no such endpoint: try /metrics or /health", NULL, 0);
}

static void arm_poll(kvr__feed_t *feed)
{
    kvr_metrics_t *m = feed->metrics;
    if (m == NULL || m->poll_armed || feed->stopping)
        return;
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL)
        return;
    io_uring_prep_poll_add(sqe, uv_backend_fd(&m->loop), POLLIN);
    io_uring_sqe_set_data(sqe, &m->poll_op);
    m->poll_armed = true;
}

int kvr__feed_metrics_start(kvr__feed_t *feed)
{
    if (feed->cfg.listen_addr[0] == '\0')
        return 0;
    char host[256];
    snprintf(host, sizeof(host), "%s", feed->cfg.listen_addr);
    char *colon = strrchr(host, ':');
    if (colon == NULL) {
        KVR_ERROR("listen_failed addr=%s reason=\"expected HOST:PORT\"", feed->cfg.listen_addr);
        return -EINVAL;
    }
    *colon = '\0';
    char *h = host;
    if (h[0] == '[') {
        h++;
        char *close = strchr(h, ']');
        if (close != NULL)
            *close = '\0';
    }
    char *end = NULL;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '\0' || port < 0 || port > 65535) {
        KVR_ERROR("listen_failed addr=%s reason=\"bad port\"", feed->cfg.listen_addr);
        return -EINVAL;
    }
    kvr_metrics_t *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return -ENOMEM;
    int rc = uv_loop_init(&m->loop);
    if (rc < 0)
        goto fail_free;
    kvr_http_server_config_t cfg;
    kvr_http_server_config_init(&cfg);
    cfg.host = h[0] ? h : "127.0.0.1";
    cfg.port = (int)port;
    cfg.on_request = on_request;
    cfg.user = feed;
    cfg.max_connections = feed->cfg.listen_max_connections;
    cfg.max_connections_per_peer = feed->cfg.listen_max_connections_per_peer;
    rc = kvr_http_server_create(&m->loop, &cfg, &m->server);
    if (rc < 0) {
        KVR_ERROR("listen_failed addr=%s reason=\"%s\"", feed->cfg.listen_addr, kvr_strerror(rc));
        goto fail_loop;
    }
    m->poll_op.kind = KVR_OP_UV_POLL;
    m->poll_op.owner = m;
    feed->metrics = m;
    KVR_INFO("metrics_listening addr=%s:%d", cfg.host, kvr_http_server_port(m->server));
    arm_poll(feed);
    return 0;

fail_loop:
    uv_loop_close(&m->loop);
fail_free:
    free(m);
    return rc;
}

void kvr__feed_metrics_on_cqe(kvr__feed_t *feed, int res)
{
    kvr_metrics_t *m = feed->metrics;
    (void)res;
    if (m == NULL)
        return;
    m->poll_armed = false;
    uv_run(&m->loop, UV_RUN_NOWAIT);
    arm_poll(feed);
}

void kvr__feed_metrics_tick(kvr__feed_t *feed)
{
    kvr_metrics_t *m = feed->metrics;
    if (m == NULL)
        return;
    uv_run(&m->loop, UV_RUN_NOWAIT);
    arm_poll(feed);
}

void kvr__feed_metrics_stop(kvr__feed_t *feed)
{
    kvr_metrics_t *m = feed->metrics;
    if (m == NULL)
        return;
    kvr_http_server_destroy(m->server, NULL, NULL);
    /* Let libuv finish its close callbacks before the loop goes. */
    for (int i = 0; i < 100 && uv_loop_alive(&m->loop); i++)
        uv_run(&m->loop, UV_RUN_NOWAIT);
    if (uv_loop_close(&m->loop) != 0)
        KVR_WARN("metrics_close reason=\"libuv handles still open\"");
    free(m);
    feed->metrics = NULL;
}
