/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine table and its polls: every tick starts one GET per polled
 * engine that is not already waiting for an answer, all at once, each bounded
 * by its own deadline. An answer is published the moment it arrives.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/clock.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "common/log.h"
#include "statefeed/feed.h"
#include "statefeed/kv_feed.h"

kvr__feed_engine_t *kvr__feed_engine_find(kvr__feed_t *feed, const char *id)
{
    for (unsigned i = 0; i < feed->engine_count; i++)
        if (!feed->engines[i]->removed && strcmp(feed->engines[i]->id, id) == 0)
            return feed->engines[i];
    return NULL;
}

/* A name's resolution on the resolver loop; engine is NULL once the engine went. */
typedef struct kvr__resolve_s {
    uv_getaddrinfo_t req;
    kvr__feed_engine_t *engine;
} kvr__resolve_t;

static void schedule_backoff(kvr__feed_t *feed, kvr__feed_engine_t *e, uint64_t now_ns);

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    kvr__resolve_t *q = req->data;
    kvr__feed_engine_t *e = q->engine;
    if (e) {
        e->resolving = NULL;
        if (status == 0 && res &&
            kvr__http_client_set_addr(&e->http, res->ai_addr, res->ai_addrlen) == 0) {
            KVR_INFO("engine_resolved engine=%s", e->id);
            e->backoff_ns = 0;
            e->backoff_until_ns = 0;
        } else {
            KVR_WARN("engine_unresolved engine=%s error=\"%s\" retry=backoff", e->id,
                     status < 0 ? uv_strerror(status) : "no address");
            e->last_reason = "host does not resolve";
            schedule_backoff(e->feed, e, kvr_clock_now_ns());
        }
    }
    uv_freeaddrinfo(res);
    free(q);
}

/* Resolves e's host on libuv's threadpool: the ring's thread never waits for a resolver. */
static int resolve_start(kvr__feed_t *feed, kvr__feed_engine_t *e)
{
    kvr_engine_spec_t spec;
    char why[160];
    uv_loop_t *loop = kvr__feed_resolver_loop(feed);
    if (!loop || kvr_engine_spec_parse_url(e->id, &spec, why, sizeof why) < 0)
        return -EINVAL;
    kvr__resolve_t *q = calloc(1, sizeof(*q));
    if (q == NULL)
        return -ENOMEM;
    q->engine = e;
    q->req.data = q;
    char port[8];
    snprintf(port, sizeof(port), "%u", (unsigned)spec.port);
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    int rc = uv_getaddrinfo(loop, &q->req, on_resolved, spec.host, port, &hints);
    if (rc < 0) {
        free(q);
        return rc;
    }
    e->resolving = q;
    return 0;
}

/* The engine's memory goes: a resolution still running answers nobody. */
static void resolve_forget(kvr__feed_engine_t *e)
{
    if (e->resolving == NULL)
        return;
    e->resolving->engine = NULL;
    (void)uv_cancel((uv_req_t *)&e->resolving->req);
    e->resolving = NULL;
}

void kvr__feed_engine_free(kvr__feed_engine_t *e)
{
    resolve_forget(e);
    kvr__feed_kv_detach(e);
    kvr__http_client_conn_close(&e->http);
    free(e);
}

/* Polled engines get an address: a literal now; a name now at start-up (before the loop runs, a
 * name that does not resolve stops the daemon), else on the resolver loop. */
static int engine_address(kvr__feed_t *feed, kvr__feed_engine_t *e)
{
    kvr_engine_spec_t spec;
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char why[320];
    int rc = kvr_engine_spec_parse_url(e->id, &spec, why, sizeof why);
    if (rc < 0) {
        KVR_ERROR("engine_rejected engine=%s reason=\"%s\"", e->id, why);
        return rc;
    }
    kvr__http_client_conn_init(&e->http, kvr_engine_spec_authority(&spec));
    e->http.defer_recv = true;
    e->named = spec.family == AF_UNSPEC;
    if (e->named && kvr__feed_resolver_loop(feed) != NULL)
        return resolve_start(feed, e);
    rc = kvr_engine_spec_resolve_now(&spec, &addr, &addr_len, why, sizeof why);
    if (rc == 0)
        rc = kvr__http_client_set_addr(&e->http, (const struct sockaddr *)&addr, addr_len);
    if (rc < 0)
        KVR_ERROR("engine_rejected engine=%s reason=\"%s\"", e->id, why);
    return rc;
}

int kvr__feed_engine_add(kvr__feed_t *feed, const char *id, kvr__feed_kind_t kind, bool from_file)
{
    if (kvr__feed_engine_find(feed, id) != NULL)
        return -EEXIST;
    kvr__feed_engine_t *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return -ENOMEM;
    snprintf(e->id, sizeof(e->id), "%s", id);
    e->kind = kind;
    e->feed = feed;
    e->from_file = from_file;
    int rc = 0;
    e->http.fd = -1;
    if (kind == KVR_FEED_KIND_VLLM || kind == KVR_FEED_KIND_SGLANG) {
        rc = engine_address(feed, e);
        if (rc < 0)
            goto fail_free;
    }
    if (feed->engine_count == feed->engine_cap) {
        unsigned cap = feed->engine_cap ? feed->engine_cap * 2 : 16;
        kvr__feed_engine_t **n = realloc(feed->engines, cap * sizeof(*n));
        if (n == NULL) {
            rc = -ENOMEM;
            goto fail_free;
        }
        feed->engines = n;
        feed->engine_cap = cap;
    }
    rc = kvr_shm_add_engine(&feed->shm, id);
    if (rc == -ENOSPC) {
        /* A relayed table retries every tick: one line per episode, every refusal counted. */
        feed->engines_over_capacity++;
        if (!feed->over_capacity_logged)
            KVR_ERROR("engine_rejected engine=%s reason=\"all %u slots of the segment are taken: "
                      "raise --capacity\" rejected_total=%llu",
                      id, feed->cfg.capacity, (unsigned long long)feed->engines_over_capacity);
        feed->over_capacity_logged = true;
        goto fail_free;
    }
    if (rc < 0) {
        KVR_ERROR("engine_rejected engine=%s reason=\"%s\"", id, kvr_strerror(rc));
        goto fail_free;
    }
    e->slot = (uint32_t)rc;
    feed->over_capacity_logged = false;
    feed->engines[feed->engine_count++] = e;
    KVR_INFO("engine_added engine=%s kind=%s slot=%u generation=%llu", id,
             kvr__feed_kind_name(kind), e->slot,
             (unsigned long long)kvr_shm_generation(&feed->shm));
    return 0;

fail_free:
    kvr__feed_engine_free(e);
    return rc;
}

void kvr__feed_engine_remove(kvr__feed_t *feed, kvr__feed_engine_t *engine)
{
    if (engine->removed)
        return;
    kvr_shm_remove_engine(&feed->shm, engine->slot);
    kvr__feed_kv_detach(engine); /* its blocks go with its slot, before the slot is reused */
    if (feed->residency_on) {    /* the slot's next engine must not inherit these blocks */
        kvr_residency_trust(&feed->residency, engine->slot, false);
        kvr_residency_cleared(&feed->residency, engine->slot);
    }
    engine->removed = true;
    KVR_INFO("engine_removed engine=%s slot=%u generation=%llu", engine->id, engine->slot,
             (unsigned long long)kvr_shm_generation(&feed->shm));
}

void kvr__feed_engines_reap(kvr__feed_t *feed)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        /* A request in flight still owns the connection's buffers and op. */
        if (e->removed && !kvr__http_client_busy(&e->http)) {
            kvr__feed_engine_free(e);
            continue;
        }
        feed->engines[kept++] = e;
    }
    feed->engine_count = kept;
}

static void schedule_backoff(kvr__feed_t *feed, kvr__feed_engine_t *e, uint64_t now_ns)
{
    e->backoff_ns = e->backoff_ns ? e->backoff_ns * 2 : feed->cfg.period_ns;
    if (e->backoff_ns > feed->cfg.backoff_max_ns)
        e->backoff_ns = feed->cfg.backoff_max_ns;
    e->backoff_until_ns = now_ns + e->backoff_ns;
}

/* True while a pushed sample is young enough to beat a poll. */
static bool push_fresh(const kvr__feed_t *feed, const kvr__feed_engine_t *e, uint64_t now_ns)
{
    return e->last_push_ns != 0 &&
           kvr_clock_age_ns(now_ns, e->last_push_ns) < feed->cfg.push_max_age_ns;
}

/* A failed poll: counted, and published unless a fresh push speaks for the
 * engine (a hook can be healthy while /metrics is firewalled or slow). */
static void poll_failed(kvr__feed_t *feed, kvr__feed_engine_t *e, const char *reason,
                        bool immediate, uint64_t now_ns)
{
    e->polls_failed++;
    if (!push_fresh(feed, e, now_ns))
        kvr__feed_publish_failure(feed, e, reason, immediate, now_ns);
}

static const char *poll_path(kvr__feed_engine_t *e, uint64_t now_ns)
{
    e->poll_is_loads = kvr__feed_loads_wanted(e, now_ns);
    return e->poll_is_loads ? "/v1/loads?include=core" : "/metrics";
}

static void handle_answer(kvr__feed_t *feed, kvr__feed_engine_t *e, int result, uint64_t now_ns)
{
    kvr__http_client_conn_t *c = &e->http;
    bool was_loads = e->poll_is_loads;
    if (result < 0) {
        poll_failed(feed, e, kvr_strerror(result), false, now_ns);
        schedule_backoff(feed, e, now_ns);
        /* A name whose address keeps failing may have moved: resolved again after the backoff. */
        if (e->named && ++e->failed_in_row >= feed->cfg.fail_threshold) {
            KVR_INFO("engine_resolving_again engine=%s failed_in_row=%u", e->id, e->failed_in_row);
            e->failed_in_row = 0;
            e->http.addr_len = 0;
        }
        return;
    }
    e->failed_in_row = 0;
    if (was_loads && kvr__feed_loads_fallback(e, c->status, now_ns))
        return; /* /metrics from the next tick on */
    if (c->status != 200) {
        poll_failed(feed, e, "HTTP status not 200", false, now_ns);
        return;
    }
    e->backoff_ns = 0;
    kvr_engine_state_t state;
    kvr_shm_writer_state(&feed->shm, e->slot, &state);
    const char *reason = NULL;
    const char *body = c->body ? c->body : "";
    int rc = was_loads ? kvr__feed_loads_parse(body, c->body_len, &state, &reason)
                       : kvr__feed_scrape_parse(body, c->body_len, &state, &reason);
    if (rc < 0) {
        e->garbage++;
        poll_failed(feed, e, reason, true, now_ns);
        return;
    }
    e->polls_ok++;
    if (push_fresh(feed, e, now_ns))
        return; /* a pushed sample is fresher and richer than this poll */
    kvr__feed_publish_sample(feed, e, &state, was_loads ? KVR_SOURCE_LOADS : KVR_SOURCE_SCRAPE,
                             e->poll_started_ns, now_ns);
}

static void poll_done(kvr__http_client_conn_t *conn, int result, void *arg)
{
    kvr__feed_engine_t *e = arg;
    (void)conn;
    uint64_t now = kvr_clock_now_ns();
    e->feed->polls_in_flight--;
    kvr__feed_record_latency(e, now - e->poll_started_ns);
    if (e->removed)
        return;
    handle_answer(e->feed, e, result, now);
}

static void start_poll(kvr__feed_t *feed, kvr__feed_engine_t *e, uint64_t now_ns)
{
    const char *path = poll_path(e, now_ns);
    /* The poll's start bounds the observation from below: the engine's state
     * was read after this instant, so the published age is never too young. */
    e->poll_started_ns = now_ns;
    int rc = kvr__http_client_get(&e->http, &feed->ring, path, feed->cfg.timeout_ns, poll_done, e);
    if (rc == 0)
        feed->polls_in_flight++;
    if (rc < 0) {
        poll_failed(feed, e, kvr_strerror(rc), false, now_ns);
        schedule_backoff(feed, e, now_ns);
    }
}

void kvr__feed_engines_tick(kvr__feed_t *feed, uint64_t now_ns)
{
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed)
            continue;
        switch (e->kind) {
        case KVR_FEED_KIND_PUSH:
            /* A push-only engine that went quiet fails once per tick, so it
             * turns unhealthy after the threshold like a polled one. */
            if (e->last_push_ns == 0 || !push_fresh(feed, e, now_ns))
                kvr__feed_publish_failure(feed, e, "no fresh push frame", false, now_ns);
            break;
        case KVR_FEED_KIND_RELAY: break; /* relay.c keeps these */
        case KVR_FEED_KIND_VLLM:
        case KVR_FEED_KIND_SGLANG:
            if (kvr__http_client_busy(&e->http))
                break; /* the previous poll still has its own deadline running */
            if (e->http.addr_len == 0) {
                /* A name not resolved yet: no sample, counted like a failed poll. */
                if (e->resolving == NULL && now_ns >= e->backoff_until_ns &&
                    resolve_start(feed, e) < 0)
                    schedule_backoff(feed, e, now_ns);
                if (!push_fresh(feed, e, now_ns))
                    kvr__feed_publish_failure(feed, e, "host not resolved yet", false, now_ns);
                break;
            }
            if (now_ns < e->backoff_until_ns) {
                /* No sample this tick: counted, so health follows time, not attempts. */
                if (!push_fresh(feed, e, now_ns))
                    kvr__feed_publish_failure(
                        feed, e, e->last_reason ? e->last_reason : "backing off", false, now_ns);
                break;
            }
            start_poll(feed, e, now_ns);
            break;
        }
    }
}

void kvr__feed_engines_recv_phase(kvr__feed_t *feed, bool probe)
{
    for (unsigned i = 0; i < feed->engine_count; i++)
        kvr__http_client_recv_now(&feed->engines[i]->http, &feed->ring, probe);
}

void kvr__feed_engines_reload(kvr__feed_t *feed)
{
    kvr__feed_config_t fresh;
    kvr__feed_config_init(&fresh);
    if (feed->cfg.config_path[0] == '\0') {
        KVR_WARN("reload_skipped reason=\"no --config file\"");
        return;
    }
    if (kvr__feed_config_load_file(&fresh, feed->cfg.config_path, true) < 0) {
        KVR_ERROR("reload_failed path=%s reason=\"config rejected; engine list kept\"",
                  feed->cfg.config_path);
        kvr__feed_config_free(&fresh);
        return;
    }
    unsigned added = 0, removed = 0;
    for (unsigned i = 0; i < feed->engine_count; i++) {
        kvr__feed_engine_t *e = feed->engines[i];
        if (e->removed || !e->from_file)
            continue;
        bool keep = false;
        for (unsigned j = 0; j < fresh.engine_count; j++)
            if (strcmp(fresh.engines[j].url, e->id) == 0 && fresh.engines[j].kind == e->kind)
                keep = true;
        if (!keep) {
            kvr__feed_engine_remove(feed, e);
            removed++;
        }
    }
    kvr__feed_engines_reap(feed);
    for (unsigned j = 0; j < fresh.engine_count; j++) {
        if (kvr__feed_engine_find(feed, fresh.engines[j].url) != NULL)
            continue;
        if (kvr__feed_engine_add(feed, fresh.engines[j].url, fresh.engines[j].kind, true) == 0) {
            added++;
            kvr__feed_kv_attach(feed, kvr__feed_engine_find(feed, fresh.engines[j].url),
                                &fresh.engines[j]);
        }
    }
    KVR_INFO("reload_done added=%u removed=%u engines=%u generation=%llu", added, removed,
             feed->engine_count, (unsigned long long)kvr_shm_generation(&feed->shm));
    kvr__feed_config_free(&fresh);
}
