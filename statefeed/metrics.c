/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daemon's own /metrics on --listen, through the common libuv HTTP
 * server. libuv runs inside the io_uring loop: its backend fd is polled with
 * IORING_OP_POLL_ADD and the loop runs once (UV_RUN_NOWAIT) whenever that fd
 * is readable and on every tick, for libuv's own timers.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/http_server.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "statefeed/feed.h"

typedef struct kvr_metrics_s {
    uv_loop_t loop;
    kvr_http_server_t *server;
    kvr_op_t poll_op;
    bool poll_armed;
} kvr_metrics_t;

typedef struct {
    char *buf;
    size_t len, cap;
} text_t;

__attribute__((format(printf, 2, 3))) static void put(text_t *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->buf = kvr_xrealloc(t->buf, t->cap);
    }
}

static void put_histogram(text_t *t, const char *name, const char *labels, const uint64_t *buckets,
                          uint64_t sum_ns, uint64_t count)
{
    uint64_t cum = 0;
    for (unsigned i = 0; i < KVR_FEED_LATENCY_BUCKETS; i++) {
        cum += buckets[i];
        put(t, "%s_bucket{%s%sle=\"%g\"} %llu\n", name, labels, labels[0] ? "," : "",
            (double)kvr_feed_latency_bounds_ns[i] / 1e9, (unsigned long long)cum);
    }
    cum += buckets[KVR_FEED_LATENCY_BUCKETS];
    put(t, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels, labels[0] ? "," : "",
        (unsigned long long)cum);
    const char *open = labels[0] ? "{" : "", *close = labels[0] ? "}" : "";
    put(t, "%s_sum%s%s%s %.9f\n", name, open, labels, close, (double)sum_ns / 1e9);
    put(t, "%s_count%s%s%s %llu\n", name, open, labels, close, (unsigned long long)count);
}

/* name="value" with the exposition format's escapes (\\, \", newline). */
static void label_pair(char *out, size_t cap, const char *name, const char *id)
{
    size_t o = 0;
    o += (size_t)snprintf(out, cap, "%s=\"", name);
    for (const char *p = id; *p && o + 3 < cap; p++) {
        if (*p == '"' || *p == '\\')
            out[o++] = '\\';
        out[o++] = *p == '\n' ? ' ' : *p;
    }
    if (o + 2 < cap) {
        out[o++] = '"';
    }
    out[o] = '\0';
}

static void engine_label(char *out, size_t cap, const char *id)
{
    label_pair(out, cap, "engine", id);
}

char *kvr_feed_metrics_render(kvr_feed_t *feed, size_t *len)
{
    text_t t = {kvr_xmalloc(8192), 0, 8192};
    uint64_t now = kvr_clock_now_ns();
    put(&t, "# HELP kvroute_statefeed_tick_lag_seconds Delay of each tick after its scheduled time.\n"
            "# TYPE kvroute_statefeed_tick_lag_seconds histogram\n");
    put_histogram(&t, "kvroute_statefeed_tick_lag_seconds", "", feed->tick_lag_buckets,
                  feed->tick_lag_sum_ns, feed->tick_lag_count);
    put(&t, "# HELP kvroute_statefeed_ticks_total Ticks run.\n# TYPE kvroute_statefeed_ticks_total counter\n"
            "kvroute_statefeed_ticks_total %llu\n", (unsigned long long)feed->ticks);
    put(&t, "# HELP kvroute_statefeed_engines Engines with a slot.\n# TYPE kvroute_statefeed_engines gauge\n"
            "kvroute_statefeed_engines %u\n", feed->engine_count);
    put(&t, "# HELP kvroute_statefeed_table_generation Segment table generation.\n"
            "# TYPE kvroute_statefeed_table_generation gauge\nkvroute_statefeed_table_generation %llu\n",
        (unsigned long long)kvr_shm_generation(&feed->shm));
    put(&t, "# HELP kvroute_statefeed_segment_repairs_total Times the segment was found shrunk, overwritten or replaced and restored.\n"
            "# TYPE kvroute_statefeed_segment_repairs_total counter\nkvroute_statefeed_segment_repairs_total %llu\n",
        (unsigned long long)feed->segment_repairs);
    put(&t, "# HELP kvroute_statefeed_push_rejected_total Push frames rejected as malformed.\n"
            "# TYPE kvroute_statefeed_push_rejected_total counter\nkvroute_statefeed_push_rejected_total %llu\n",
        (unsigned long long)feed->push_rejected);
    put(&t, "# HELP kvroute_statefeed_push_unknown_engine_total Push frames for engines not configured.\n"
            "# TYPE kvroute_statefeed_push_unknown_engine_total counter\n"
            "kvroute_statefeed_push_unknown_engine_total %llu\n",
        (unsigned long long)feed->push_unknown_engine);

    kvr_feed_relay_stats_t rs;
    kvr_feed_relay_stats(feed, &rs);
    if (feed->cfg.export_addr[0] != '\0') {
        put(&t, "# HELP kvroute_statefeed_export_subscribers Relay subscribers connected.\n"
                "# TYPE kvroute_statefeed_export_subscribers gauge\nkvroute_statefeed_export_subscribers %u\n",
            rs.subscribers);
        put(&t, "# HELP kvroute_statefeed_export_refused_total Relay subscribers dropped in the handshake "
                "(no hello, wrong version, hmac mismatch).\n"
                "# TYPE kvroute_statefeed_export_refused_total counter\n"
                "kvroute_statefeed_export_refused_total %llu\n",
            (unsigned long long)rs.export_refused);
    }
    static const struct {
        const char *name, *help, *type;
    } import_families[] = {
        {"kvroute_statefeed_import_connected", "1 while the relay import is connected.", "gauge"},
        {"kvroute_statefeed_import_rejected_total", "Relay streams dropped for a malformed frame.", "counter"},
        {"kvroute_statefeed_import_engines_refused_total",
         "Relay table entries ignored past --relay-max-engines.", "counter"},
        {"kvroute_statefeed_import_changes_deferred_total",
         "Relay engine additions and removals put off by --relay-max-changes.", "counter"},
    };
    char label[KVR_SHM_ENGINE_ID_MAX * 2 + 16];
    for (unsigned m = 0; rs.imports > 0 && m < sizeof(import_families) / sizeof(import_families[0]); m++) {
        put(&t, "# HELP %s %s\n# TYPE %s %s\n", import_families[m].name, import_families[m].help,
            import_families[m].name, import_families[m].type);
        for (unsigned k = 0; k < rs.imports; k++) {
            uint64_t v = m == 0 ? rs.import_connected[k] : m == 1 ? rs.import_rejected[k]
                       : m == 2 ? rs.import_engines_refused[k] : rs.import_changes_deferred[k];
            label_pair(label, sizeof(label), "addr", rs.import_addr[k]);
            put(&t, "%s{%s} %llu\n", import_families[m].name, label, (unsigned long long)v);
        }
    }

    put(&t, "# HELP kvroute_statefeed_poll_seconds Poll latency per engine, request to answer.\n"
            "# TYPE kvroute_statefeed_poll_seconds histogram\n");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed || e->latency_count == 0)
            continue;
        engine_label(label, sizeof(label), e->id);
        put_histogram(&t, "kvroute_statefeed_poll_seconds", label, e->latency_buckets,
                      e->latency_sum_ns, e->latency_count);
    }
    put(&t, "# HELP kvroute_statefeed_polls_total Polls by engine and result.\n"
            "# TYPE kvroute_statefeed_polls_total counter\n");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        engine_label(label, sizeof(label), e->id);
        put(&t, "kvroute_statefeed_polls_total{%s,result=\"ok\"} %llu\n", label, (unsigned long long)e->polls_ok);
        put(&t, "kvroute_statefeed_polls_total{%s,result=\"failed\"} %llu\n", label,
            (unsigned long long)e->polls_failed);
        put(&t, "kvroute_statefeed_polls_total{%s,result=\"garbage\"} %llu\n", label,
            (unsigned long long)e->garbage);
    }
    put(&t, "# HELP kvroute_statefeed_push_frames_total Push frames accepted per engine.\n"
            "# TYPE kvroute_statefeed_push_frames_total counter\n");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        engine_label(label, sizeof(label), e->id);
        put(&t, "kvroute_statefeed_push_frames_total{%s} %llu\n", label, (unsigned long long)e->push_frames);
    }
    put(&t, "# HELP kvroute_statefeed_push_frames_lost_total Push frames missing from the sender's sequence.\n"
            "# TYPE kvroute_statefeed_push_frames_lost_total counter\n");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed || !e->has_push_seq)
            continue;
        engine_label(label, sizeof(label), e->id);
        put(&t, "kvroute_statefeed_push_frames_lost_total{%s} %llu\n", label,
            (unsigned long long)e->push_frames_lost);
    }
    put(&t, "# HELP kvroute_statefeed_slot_age_seconds Age of each slot's sample (-1: never sampled).\n"
            "# TYPE kvroute_statefeed_slot_age_seconds gauge\n");
    put(&t, "# HELP kvroute_statefeed_slot_healthy 1 when the slot is marked healthy.\n"
            "# TYPE kvroute_statefeed_slot_healthy gauge\n");
    put(&t, "# HELP kvroute_statefeed_consecutive_failures Failed polls since the last sample.\n"
            "# TYPE kvroute_statefeed_consecutive_failures gauge\n");
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr_feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        kvr_engine_state_t s;
        kvr_shm_writer_state(&feed->shm, e->slot, &s);
        engine_label(label, sizeof(label), e->id);
        double age = s.sample_time_ns ? (double)kvr_clock_age_ns(now, s.sample_time_ns) / 1e9 : -1.0;
        put(&t, "kvroute_statefeed_slot_age_seconds{%s,source=\"%s\"} %.6f\n", label,
            kvr_source_name(kvr_slot_source(s.flags)), age);
        put(&t, "kvroute_statefeed_slot_healthy{%s} %d\n", label, (s.flags & KVR_SLOT_HEALTHY) ? 1 : 0);
        put(&t, "kvroute_statefeed_consecutive_failures{%s} %u\n", label, s.consecutive_failures);
    }
    *len = t.len;
    return t.buf;
}

static void on_request(kvr_http_req_t *req, void *user)
{
    kvr_feed_t *feed = user;
    const char *path = kvr_http_req_path(req);
    if (strcmp(kvr_http_req_method(req), "GET") != 0) {
        kvr_http_respond_error(req, 405, NULL, "only GET is served here", NULL, 0);
        return;
    }
    if (strcmp(path, "/metrics") == 0) {
        size_t len = 0;
        char *body = kvr_feed_metrics_render(feed, &len);
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

static void arm_poll(kvr_feed_t *feed)
{
    kvr_metrics_t *m = feed->metrics;
    if (m == NULL || m->poll_armed || feed->stopping)
        return;
    struct io_uring_sqe *sqe = kvr_ring_sqe(&feed->ring);
    if (sqe == NULL)
        return;
    io_uring_prep_poll_add(sqe, uv_backend_fd(&m->loop), POLLIN);
    io_uring_sqe_set_data(sqe, &m->poll_op);
    m->poll_armed = true;
}

int kvr_feed_metrics_start(kvr_feed_t *feed)
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
    cfg.max_connections = 64;
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

void kvr_feed_metrics_on_cqe(kvr_feed_t *feed, int res)
{
    kvr_metrics_t *m = feed->metrics;
    (void)res;
    if (m == NULL)
        return;
    m->poll_armed = false;
    uv_run(&m->loop, UV_RUN_NOWAIT);
    arm_poll(feed);
}

void kvr_feed_metrics_tick(kvr_feed_t *feed)
{
    kvr_metrics_t *m = feed->metrics;
    if (m == NULL)
        return;
    uv_run(&m->loop, UV_RUN_NOWAIT);
    arm_poll(feed);
}

void kvr_feed_metrics_stop(kvr_feed_t *feed)
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
