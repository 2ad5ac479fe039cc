/* SPDX-License-Identifier: Apache-2.0 */
#include "router/proxy.h"
#include "router/proxy_internal.h"

#include <ctype.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/prefix_hash.h"
#include "common/rng.h"
#include "common/xmalloc.h"
#include "router/pd.h"
#include "router/upstream.h"

/*
 * A proxy_t is a few KB; recycling them keeps that memset-and-free churn off
 * the allocator on every request (it showed in profiles at 25k req/s). The
 * recycler is the proxy environment's (r->proxies).
 */
#define PROXY_RECYCLE_MAX 256
#define PROXY_KEEP_PENDING_BYTES 65536

static void proxy_destroy(void *obj)
{
    proxy_t *p = obj;
    kvr_buf_close(&p->pending);
    free(p);
}

void kvr_proxy_env_init(kvr_proxy_env_t *env, uv_loop_t *loop, const kvr_router_config_t *cfg,
                        kvr_door_t *door, kvr_router_metrics_t *metrics)
{
    memset(env, 0, sizeof *env);
    env->loop = loop;
    env->cfg = cfg;
    env->door = door;
    env->metrics = metrics;
    env->id_prefix = ((uint64_t)getpid() << 32) ^ kvr_clock_wall_ns();
    /* Rooms must differ between routers in front of one fleet: seeded from the kernel. */
    if (getrandom(&env->pd_room_rng, sizeof env->pd_room_rng, GRND_NONBLOCK) !=
        (ssize_t)sizeof env->pd_room_rng)
        env->pd_room_rng = kvr_rng_mix64(env->id_prefix);
    kvr_recycle_init(&env->proxies, PROXY_RECYCLE_MAX, proxy_destroy);
}

void kvr_proxy_env_close(kvr_proxy_env_t *env)
{
    kvr_recycle_close(&env->proxies);
}

static proxy_t *proxy_alloc(kvr_proxy_env_t *r)
{
    proxy_t *p = kvr_recycle_take(&r->proxies);
    if (!p)
        return kvr_xcalloc(1, sizeof(proxy_t));
    kvr_buf_t pending = p->pending;
    memset(p, 0, offsetof(proxy_t, fwd));
    p->pending = pending;
    kvr_buf_reset(&p->pending);
    return p;
}

static void proxy_release(kvr_proxy_env_t *r, proxy_t *p)
{
    if (p->pending.cap > PROXY_KEEP_PENDING_BYTES) {
        proxy_destroy(p);
        return;
    }
    kvr_recycle_put(&r->proxies, p);
}

/* name (of length len) is lit, ignoring case; lit is lower case. */
static bool name_is(const char *name, size_t len, const char *lit, size_t lit_len)
{
    return len == lit_len && strncasecmp(name, lit, len) == 0;
}
#define NAME_IS(name, len, lit) name_is(name, len, lit, sizeof lit - 1)

/* Every header of every request and answer passes here: the length rules out almost all. */
static bool hop_by_hop(const char *name, size_t len)
{
    switch (len) {
    case 2: return NAME_IS(name, len, "te");
    case 4: return NAME_IS(name, len, "host");
    case 6: return NAME_IS(name, len, "expect");
    case 7: return NAME_IS(name, len, "trailer") || NAME_IS(name, len, "upgrade");
    case 10: return NAME_IS(name, len, "connection") || NAME_IS(name, len, "keep-alive");
    case 14: return NAME_IS(name, len, "content-length");
    case 16: return NAME_IS(name, len, "proxy-connection");
    case 17: return NAME_IS(name, len, "transfer-encoding");
    case 18: return NAME_IS(name, len, "proxy-authenticate");
    case 19: return NAME_IS(name, len, "proxy-authorization");
    default: return false;
    }
}

/* Generated request ids, e.g. kvr-00001a2b3c4d5e6f-42: written by hand, this runs per request. */
static void format_request_id(char *out, size_t cap, uint64_t prefix, uint64_t seq)
{
    static const char hex[] = "0123456789abcdef";
    char buf[48];
    size_t n = 0;
    memcpy(buf, "kvr-", 4);
    n = 4;
    for (int shift = 60; shift >= 0; shift -= 4)
        buf[n++] = hex[(prefix >> shift) & 0xf];
    buf[n++] = '-';
    char digits[24];
    size_t nd = 0;
    do {
        digits[nd++] = (char)('0' + seq % 10);
        seq /= 10;
    } while (seq);
    while (nd)
        buf[n++] = digits[--nd];
    if (cap == 0)
        return;
    if (n >= cap)
        n = cap - 1;
    memcpy(out, buf, n);
    out[n] = '\0';
}

void kvr_proxy_request_id(kvr_proxy_env_t *r, const char *given, char *out, size_t cap)
{
    size_t glen = given ? strlen(given) : 0;
    if (glen && glen < cap && glen <= 128) {
        bool ok = true;
        for (const char *c = given; *c && ok; c++)
            ok = isgraph((unsigned char)*c) && *c != '"' && *c != '\\';
        if (ok) {
            memcpy(out, given, glen + 1);
            return;
        }
    }
    format_request_id(out, cap, r->id_prefix, ++r->request_seq);
}

/*
 * The one place an attempt on an engine ends, whatever ends it (the answer,
 * a retry, an upstream request that could not start, the client leaving):
 * its upstream request, shadow charge and seeding lease are each released
 * exactly once, and a second call is a no-op.
 */
void kvr__proxy_attempt_end(proxy_t *p)
{
    if (p->up) {
        kvr_upstream_cancel(p->up);
        p->up = NULL;
    }
    kvr_door_release(p->r->door, &p->charge); /* the charge holds the seeding lease too */
    if (p->pd_side_up) {
        kvr_upstream_cancel(p->pd_side_up);
        p->pd_side_up = NULL;
    }
    kvr_door_release(p->r->door, &p->pd_side_charge);
}

/* The one place a proxied request ends: its last attempt ends here. */
void kvr__proxy_finish(proxy_t *p, int status)
{
    kvr_proxy_env_t *r = p->r;
    kvr__proxy_attempt_end(p);
    kvr_router_metrics_status(r->metrics, status);
    uint64_t now = kvr_clock_now_ns();
    if (status >= 200 && status < 300)
        kvr_histogram_observe(&r->metrics->e2e, (double)kvr_clock_age_ns(now, p->start_ns) / 1e9);
    if (p->pd_prefill_engine[0])
        p->route.prefill_engine = p->pd_prefill_engine;
    if (p->route.engine || p->route.status)
        kvr_door_log_decision(r->door, p->request_id, p->keys.session_id, &p->route, status,
                              p->attempts);
    if (p->pd_phase != PD_NONE && (status < 200 || status >= 300))
        r->metrics->pd_failures_total[p->pd_phase == PD_PREFILL ? 0 : 1]++;
    kvr_buf_close(&p->pd_prefill_body);
    kvr_buf_close(&p->pd_decode_body);
    kvr_buf_close(&p->pd_answer);
    kvr_keys_free(&p->keys);
    if (p->prev)
        p->prev->next = p->next;
    else
        r->in_flight = p->next;
    if (p->next)
        p->next->prev = p->prev;
    proxy_release(r, p);
    r->drain.in_flight--;
    if (r->drain.draining && r->drain.in_flight == 0 && r->drain.on_drained)
        r->drain.on_drained(r->drain.ctx);
}

void kvr__proxy_respond_error(proxy_t *p, int status, const char *message)
{
    kvr_http_header_t h[2] = {{"X-Request-ID", p->request_id}, {"Retry-After", "1"}};
    kvr_http_respond_error(p->req, status, NULL, message, h,
                           status == 429 || status == 503 ? 2 : 1);
    kvr__proxy_finish(p, status);
}

/* ---- upstream callbacks ---- */

static void on_client_drain(kvr_http_req_t *req, void *arg)
{
    proxy_t *p = arg;
    (void)req;
    if (p->paused && p->up) {
        p->paused = false;
        kvr_upstream_pause(p->up, false);
    }
}

/*
 * The indexes to exclude: those tried whose engine is still there. An index freed since and
 * given to a new engine (the next generation) is that engine's, not one this request tried.
 */
static size_t tried_still_there(const proxy_t *p, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t i = 0; i < p->attempts; i++)
        if (!p->tried_ok[i] && kvr_door_lookup(p->r->door, p->tried[i], p->tried_generation[i]))
            out[n++] = p->tried[i];
    return n;
}

bool kvr__proxy_retry_possible(proxy_t *p)
{
    uint32_t exclude[PROXY_MAX_ATTEMPTS];
    size_t n_exclude = tried_still_there(p, exclude);
    /* A decode that failed is retried with a fresh prefill: the prefill engines must be left. */
    uint8_t role = p->pd_phase == PD_NONE ? KVR_ENGINE_ROLE_BOTH : KVR_ENGINE_ROLE_PREFILL;
    return p->attempts - p->attempts_ok <= p->r->cfg->retries && p->attempts < PROXY_MAX_ATTEMPTS &&
           kvr_door_has_role_candidate(p->r->door, p->route_req.model, role, exclude, n_exclude) &&
           (p->pd_phase == PD_NONE ||
            kvr_door_has_role_candidate(p->r->door, p->route_req.model, KVR_ENGINE_ROLE_DECODE,
                                        exclude, n_exclude));
}

void kvr__proxy_retry(proxy_t *p, kvr_retry_cause_t cause)
{
    p->r->metrics->retries_total[cause]++;
    kvr__proxy_attempt_end(p);
    if (p->pd_phase != PD_NONE) {
        p->r->metrics->pd_retries_total[p->pd_phase == PD_PREFILL ? 0 : 1]++;
        kvr__proxy_pd_enter(p,
                            PD_PREFILL); /* the decode engine's KV is gone with it: prefill again */
    }
    KVR_DEBUG("retry request_id=%s engine=%s attempt=%u cause=%d", p->request_id,
              p->route.engine ? p->route.engine->id : "-", p->attempts, (int)cause);
    kvr__proxy_dispatch(p);
}

void kvr__proxy_on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                        int64_t content_length)
{
    proxy_t *p = arg;
    kvr_proxy_env_t *r = p->r;
    kvr_engine_t *e = p->route.engine;
    if (status >= 500 && kvr__proxy_retry_possible(p)) {
        kvr_door_engine_failed(r->door, e, "status_5xx");
        kvr__proxy_retry(p, KVR_RETRY_STATUS_5XX);
        return;
    }
    if (status < 500)
        kvr_door_engine_ok(r->door, e);
    kvr_charge_first_byte(&p->charge);
    if (p->pd_phase == PD_PREFILL && status == 200) {
        p->pd_collect = true; /* the answer carries the KV's whereabouts: ours to read */
        return;
    }
    kvr_histogram_observe(&r->metrics->ttft,
                          (double)kvr_clock_age_ns(kvr_clock_now_ns(), p->start_ns) / 1e9);

    /* Header strings stay valid until the upstream request ends: they live in its buffer. */
    size_t k = 0;
    p->content_type = NULL;
    for (size_t i = 0; i < n && k < PROXY_MAX_FORWARD_HEADERS; i++) {
        const char *name = headers[i].name;
        size_t len = strlen(name);
        if (NAME_IS(name, len, "content-type")) {
            p->content_type = headers[i].value;
            continue;
        }
        if (hop_by_hop(name, len) || NAME_IS(name, len, "x-request-id") ||
            NAME_IS(name, len, "x-kvroute-engine"))
            continue;
        p->out[k++] = headers[i];
    }
    p->out[k++] = (kvr_http_header_t){"X-Request-ID", p->request_id};
    if (r->cfg->engine_header)
        p->out[k++] = (kvr_http_header_t){"X-Kvroute-Engine", e->id};
    p->n_out = k;
    p->sse = p->content_type && strncasecmp(p->content_type, "text/event-stream", 17) == 0;
    p->status = status;
    p->content_length = content_length;
    p->responded = true;
    p->head_pending = true;
}

/* End of one batch of upstream bytes: the head and what came with it go out together. */
static void flush_head(proxy_t *p)
{
    if (!p->head_pending)
        return;
    p->head_pending = false;
    kvr_http_stream_begin(p->req, p->status, p->content_type, p->out, p->n_out,
                          p->content_length >= 0 ? p->content_length : KVR_HTTP_CHUNKED);
    kvr_http_req_on_drain(p->req, on_client_drain, p);
    if (p->pending.len)
        kvr_http_stream_write(p->req, p->pending.base, p->pending.len);
    kvr_buf_reset(&p->pending);
}

void kvr__proxy_on_flush(void *arg)
{
    proxy_t *p = arg;
    /* A decode's head waits for its first body byte: a decode dying before it costs a retry. */
    if (p->pd_phase == PD_DECODE && p->body_bytes == 0)
        return;
    flush_head(p);
}

/* KV held grows with output: one SSE event is about one decode step's token(s). */
static void count_output(proxy_t *p, const char *data, size_t len)
{
    p->body_bytes += len;
    if (p->sse) {
        char last = p->last_byte;
        for (size_t i = 0; i < len; i++) {
            if (data[i] == '\n' && last == '\n')
                p->sse_events++;
            if (data[i] != '\r')
                last = data[i];
        }
        p->last_byte = last;
        kvr_charge_progress(&p->charge, p->sse_events);
    } else {
        kvr_charge_progress(&p->charge, p->body_bytes / KVR_BYTES_PER_TOKEN);
    }
}

void kvr__proxy_on_data(void *arg, const char *data, size_t len)
{
    proxy_t *p = arg;
    if (p->pd_collect) {
        if (p->pd_answer.len + len <= KVR_PD_ANSWER_MAX)
            kvr_buf_append(&p->pd_answer, data, len);
        else
            p->pd_answer.len = KVR_PD_ANSWER_MAX + 1; /* too big: refused at the end */
        return;
    }
    /* A streamed answer's first body byte is its first token; a whole answer's is its last. */
    if (p->sse && p->body_bytes == 0 && len > 0 && p->status < 300)
        kvr_door_first_byte(p->r->door, &p->route_req, &p->route, kvr_clock_now_ns());
    count_output(p, data, len);
    if (p->head_pending) {
        kvr_buf_append(&p->pending, data, len);
        return;
    }
    kvr_http_stream_write(p->req, data, len);
    if (!p->paused && kvr_http_stream_queued(p->req) > PROXY_BACKPRESSURE_BYTES) {
        p->paused = true;
        kvr_upstream_pause(p->up, true);
    }
}

static void on_cut_drained(kvr_http_req_t *req, void *arg)
{
    (void)arg;
    kvr_http_req_abandon(req);
}

/*
 * The engine failed after the client got the head: the client must not see
 * a complete answer. An SSE stream gets an OpenAI-shaped error event (the
 * OpenAI SDKs raise it as an APIError), then the connection is closed
 * without the terminating chunk, so any HTTP client sees the body cut. The
 * close waits until the queued bytes (the event included) are written; the
 * request no longer refers to p, which finishes at once.
 */
static void cut_client(proxy_t *p, int http_status, const char *message)
{
    kvr_http_req_t *req = p->req;
    flush_head(p);
    if (p->sse &&
        p->content_length < 0) { /* a Content-Length body has no room for one more event */
        char json[320], event[352];
        int n = kvr_http_error_json(json, sizeof json, http_status, NULL, message);
        if (n > 0) {
            int m = snprintf(event, sizeof event, "data: %s\n\n", json);
            if (m > 0 && (size_t)m < sizeof event)
                kvr_http_stream_write(req, event, (size_t)m);
        }
    }
    kvr_http_req_on_abort(req, on_cut_drained, NULL);
    if (kvr_http_req_aborted(req) || kvr_http_stream_queued(req) == 0) {
        kvr_http_req_abandon(req);
        return;
    }
    kvr_http_req_on_drain(req, on_cut_drained, NULL);
}

void kvr__proxy_on_end(void *arg, int status, kvr_upstream_phase_t phase)
{
    proxy_t *p = arg;
    kvr_proxy_env_t *r = p->r;
    kvr_engine_t *e = p->route.engine;
    p->up = NULL;
    if (status == 0 && p->pd_collect) {
        kvr__proxy_pd_prefill_done(p);
        return;
    }
    if (status == -ETIMEDOUT && p->pd_phase == PD_DECODE && !p->responded) {
        r->metrics->pd_transfer_timeouts_total++;
        KVR_WARN("pd_transfer_timeout request_id=%s prefill=%s decode=%s", p->request_id,
                 p->pd_prefill_engine, e->id);
    }
    if (status == 0) {
        /* The whole answer came in one batch: one write with its length; a decode's head was
         * held (on_flush), so its chunked answer stays chunked as the engine sent it. */
        if (p->head_pending && !(p->pd_phase == PD_DECODE && p->content_length < 0)) {
            kvr_http_respond(p->req, p->status, p->content_type, p->out, p->n_out, p->pending.base,
                             p->pending.len);
        } else {
            flush_head(p);
            kvr_http_stream_end(p->req);
        }
        kvr__proxy_finish(p, p->status);
        return;
    }
    if (p->responded && p->head_pending && p->body_bytes == 0 && p->pd_phase == PD_DECODE) {
        /* Its head was held (on_flush) and nothing else came: the client saw nothing. */
        p->responded = false;
        p->head_pending = false;
    }
    if (p->responded) {
        if (status == -ETIMEDOUT)
            r->metrics->timeouts_total[KVR_TIMEOUT_IDLE]++;
        r->metrics->upstream_cut_total++;
        if (p->pd_phase == PD_DECODE)
            r->metrics->pd_failures_total[1]++; /* finish sees the 200 the client got */
        KVR_WARN("upstream_cut request_id=%s engine=%s error=\"%s\" bytes=%llu", p->request_id,
                 e->id, kvr_strerror(status), (unsigned long long)p->body_bytes);
        char message[160];
        snprintf(message, sizeof message, "the engine failed mid-stream: %s", kvr_strerror(status));
        cut_client(p, status == -ETIMEDOUT ? 504 : 502, message);
        kvr__proxy_finish(p, p->status);
        return;
    }
    if (phase == KVR_UPSTREAM_CONNECT) {
        if (status == -ETIMEDOUT)
            r->metrics->timeouts_total[KVR_TIMEOUT_CONNECT]++;
        kvr_door_engine_failed(r->door, e, "connect");
        if (kvr__proxy_retry_possible(p)) {
            kvr__proxy_retry(p, KVR_RETRY_CONNECT);
            return;
        }
        KVR_WARN("upstream_failed request_id=%s engine=%s phase=connect error=\"%s\"",
                 p->request_id, e->id, kvr_strerror(status));
        kvr__proxy_respond_error(p, status == -ETIMEDOUT ? 504 : 502,
                                 "could not connect to an engine");
        return;
    }
    if (status == -ETIMEDOUT) {
        /*
         * A stalled engine: the request is cancelled there (its connection is
         * closed, which engines treat as an abort), so a copy elsewhere does
         * not double the load for long, and the engine counts a failure.
         */
        r->metrics->timeouts_total[KVR_TIMEOUT_FIRST_BYTE]++;
        KVR_WARN("upstream_timeout request_id=%s engine=%s phase=first_byte", p->request_id, e->id);
        kvr_door_engine_failed(r->door, e, "first_byte_timeout");
        if (kvr__proxy_retry_possible(p)) {
            kvr__proxy_retry(p, KVR_RETRY_FIRST_BYTE);
            return;
        }
        kvr__proxy_respond_error(p, 504, "the engine did not answer in time");
        return;
    }
    kvr_door_engine_failed(r->door, e, "reset");
    if (kvr__proxy_retry_possible(p)) {
        kvr__proxy_retry(p, KVR_RETRY_RESET);
        return;
    }
    KVR_WARN("upstream_failed request_id=%s engine=%s phase=wait error=\"%s\"", p->request_id,
             e->id, kvr_strerror(status));
    kvr__proxy_respond_error(p, 502, "the engine closed the connection without an answer");
}

static void on_client_abort(kvr_http_req_t *req, void *arg)
{
    proxy_t *p = arg;
    p->r->metrics->client_aborts_total++;
    if (p->extracting) {
        /* A worker thread still reads the body: the request is finished when it is done. */
        p->client_gone = true;
        return;
    }
    KVR_DEBUG("client_abort request_id=%s engine=%s", p->request_id,
              p->route.engine ? p->route.engine->id : "-");
    kvr_http_req_abandon(req);
    kvr__proxy_finish(p, 499); /* nginx's code for "client closed request": counted, never sent */
}

/* Routes the request as it stands (its role, its session) into *route; false when answered. */
bool kvr__proxy_route_attempt(proxy_t *p, kvr_charge_t *charge, kvr_decide_result_t *route)
{
    kvr_proxy_env_t *r = p->r;
    p->route_req.now_ns = kvr_clock_now_ns();
    uint32_t exclude[PROXY_MAX_ATTEMPTS];
    size_t n_exclude = tried_still_there(p, exclude);
    kvr_door_route(r->door, &p->route_req, exclude, n_exclude, charge, route);
    if (!route->engine) {
        if (route != &p->route)
            p->route = *route; /* what the decision log and finish read */
        if (route->status == 429)
            kvr__proxy_respond_error(p, 429, "no engine has room for this request; retry later");
        else if (p->attempts > 0)
            kvr__proxy_respond_error(p, 502, "every engine tried failed");
        else
            kvr__proxy_respond_error(p, 503, "no healthy engine available");
        return false;
    }
    kvr_engine_t *e = route->engine;
    p->tried_generation[p->attempts] = e->generation;
    p->tried[p->attempts++] = e->index;
    return true;
}

void kvr__proxy_dispatch(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    static const kvr_upstream_cbs_t cbs = {kvr__proxy_on_head, kvr__proxy_on_data,
                                           kvr__proxy_on_end, kvr__proxy_on_flush};
    if (p->pd_phase != PD_NONE && r->cfg->pd_protocol == KVR_PD_SGLANG) {
        kvr__proxy_pd_sglang_dispatch(p);
        return;
    }
    for (;;) {
        if (!kvr__proxy_route_attempt(p, &p->charge, &p->route))
            return;
        kvr_engine_t *e = p->route.engine;
        kvr_upstream_timeouts_t t = {r->cfg->connect_timeout_ms, r->cfg->first_byte_timeout_ms,
                                     r->cfg->idle_timeout_ms};
        const char *body = p->body;
        size_t body_len = p->body_len;
        if (p->pd_phase != PD_NONE) {
            const kvr_buf_t *b = p->pd_phase == PD_PREFILL ? &p->pd_prefill_body
                                                           : &p->pd_decode_body;
            body = b->base;
            body_len = b->len;
            if (p->pd_phase == PD_DECODE && r->cfg->pd_transfer_timeout_ms)
                t.first_byte_ms = r->cfg->pd_transfer_timeout_ms;
        }
        int rc = kvr_upstream_request(kvr_door_pool(r->door, e->index), kvr_http_req_method(p->req),
                                      kvr_http_req_path(p->req), p->fwd, p->n_fwd, body, body_len,
                                      &t, &cbs, p, &p->up);
        if (rc == 0)
            return;
        /* Could not even start (out of sockets, bad address): as a connect failure. */
        p->up = NULL;
        kvr_door_engine_failed(r->door, e, "connect");
        kvr__proxy_attempt_end(p);
        if (!kvr__proxy_retry_possible(p)) {
            kvr__proxy_respond_error(p, 502, "could not connect to an engine");
            return;
        }
        r->metrics->retries_total[KVR_RETRY_CONNECT]++;
    }
}

/*
 * OpenAI's answer to a model nobody serves: 404 model_not_found, the
 * served models in the message. The name is shown escaped, cut to what a
 * served name could be.
 */
static void respond_model_not_found(proxy_t *p, const char *model)
{
    kvr_proxy_env_t *r = p->r;
    const char *served[16];
    size_t n = kvr_door_served_models(r->door, served, 16);
    kvr_buf_t msg = KVR_BUF_INIT;
    char safe[KVR_MODEL_SAFE_MAX];
    kvr_buf_printf(&msg, "The model `%s%s` does not exist. Served models: ",
                   kvr_model_name_safe(model, safe, sizeof safe),
                   strlen(model) > KVR_MODEL_NAME_MAX ? "..." : "");
    for (size_t i = 0; i < n && i < 16; i++)
        kvr_buf_printf(&msg, "%s%s", i ? ", " : "",
                       kvr_model_name_safe(served[i], safe, sizeof safe));
    if (n > 16)
        kvr_buf_printf(&msg, ", and %zu more", n - 16);
    else if (n == 0)
        kvr_buf_printf(&msg, "none");
    cJSON *doc = cJSON_CreateObject();
    cJSON *err = cJSON_AddObjectToObject(doc, "error");
    char *text = NULL;
    if (err && cJSON_AddStringToObject(err, "message", msg.base ? msg.base : "") &&
        cJSON_AddStringToObject(err, "type", "invalid_request_error") &&
        cJSON_AddStringToObject(err, "param", "model") &&
        cJSON_AddStringToObject(err, "code", "model_not_found"))
        text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    kvr_buf_close(&msg);
    r->metrics->model_not_found_total++;
    if (!text) {
        kvr__proxy_respond_error(p, 404, "The model does not exist");
        return;
    }
    kvr_http_header_t h = {"X-Request-ID", p->request_id};
    kvr_http_respond(p->req, 404, "application/json", &h, 1, text, strlen(text));
    cJSON_free(text);
    kvr__proxy_finish(p, 404);
}

/* The body's model picks the pool; none given, the one model served, if there is only one. */
static bool resolve_pool(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    const char *model = p->keys.model;
    kvr_pool_t pool = kvr_door_resolve_model(r->door, model, p->model, sizeof p->model);
    switch (pool) {
    case KVR_POOL_UNKNOWN:
        kvr_router_metrics_model(r->metrics, NULL);
        respond_model_not_found(p, model);
        return false;
    case KVR_POOL_AMBIGUOUS: {
        const char *served[8];
        size_t n = kvr_door_served_models(r->door, served, 8);
        kvr_buf_t msg = KVR_BUF_INIT;
        char safe[KVR_MODEL_SAFE_MAX];
        kvr_buf_printf(&msg, "the request names no \"model\" and %zu models are served: ", n);
        for (size_t i = 0; i < n && i < 8; i++)
            kvr_buf_printf(&msg, "%s%s", i ? ", " : "",
                           kvr_model_name_safe(served[i], safe, sizeof safe));
        kvr_router_metrics_model(r->metrics, NULL);
        r->metrics->model_ambiguous_total++;
        kvr__proxy_respond_error(p, 400, msg.base ? msg.base : "the request names no model");
        kvr_buf_close(&msg);
        return false;
    }
    case KVR_POOL_LISTED:
        if (model)
            snprintf(p->model, sizeof p->model, "%s", model); /* listed: it fits */
        kvr_router_metrics_model(r->metrics, kvr_model_name_plain(p->model) ? p->model : NULL);
        break;
    case KVR_POOL_UNLISTED:
    case KVR_POOL_ANY:
        if (model)
            snprintf(p->model, sizeof p->model, "%s", model);
        kvr_router_metrics_model(r->metrics, NULL);
        if (model && strlen(model) > KVR_MODEL_NAME_MAX) {
            respond_model_not_found(p, model); /* no engine can ever list it */
            return false;
        }
        break;
    }
    p->route_req.model = p->model[0] ? p->model : NULL;
    return true;
}

/* A request of a model with a tokenizer keyed on text after all: counted, logged once a second. */
static void tokenize_fallback(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    const char *reason = kvr_tokenize_reason_name(p->keys.tokenize_result);
    kvr_router_metrics_tokenize_fallback(r->metrics, p->keys.model, p->keys.tokenize_result);
    uint64_t now = kvr_clock_now_ns();
    if (r->tokenize_log_ns && now - r->tokenize_log_ns < KVR_NS_PER_SEC) {
        r->tokenize_log_skipped++;
        return;
    }
    char safe[KVR_MODEL_SAFE_MAX];
    KVR_WARN("tokenize_fallback model=\"%s\" reason=%s request_id=%s error=\"%s\" skipped=%llu",
             kvr_model_name_safe(p->keys.model, safe, sizeof safe), reason, p->request_id,
             p->keys.tokenize_error, (unsigned long long)r->tokenize_log_skipped);
    r->tokenize_log_ns = now;
    r->tokenize_log_skipped = 0;
}

/* The keys are known (or the body is bad): route and forward. */
static void keys_ready(proxy_t *p)
{
    if (p->extract_rc < 0) {
        kvr__proxy_respond_error(p, 400, p->extract_err);
        return;
    }
    if (p->keys.tokenized && p->keys.tokenize_result != KVR_TOKENIZE_EXACT)
        tokenize_fallback(p);
    kvr_router_metrics_prompt(p->r->metrics, p->keys.prompt_tokens, p->keys.prompt_tokens_exact);
    p->route_req = (kvr_route_request_t){
        .request_id = p->request_id,
        .session_id = p->keys.session_id,
        .text = p->keys.text,
        .text_len = p->keys.text_len,
        .block_hashes = p->keys.block_hashes,
        .n_blocks = p->keys.n_blocks,
        .prompt_tokens = p->keys.prompt_tokens,
        .prompt_tokens_exact = p->keys.prompt_tokens_exact,
        .token_blocks = p->keys.token_blocks,
        .block_tokens = p->keys.token_blocks ? p->r->cfg->block_tokens : 0,
        .max_tokens = p->keys.max_tokens,
    };
    /*
     * A tokenize call fills no engine's cache: its prompt is not a prefix
     * to match, and routing on it would record the engine as holding it.
     */
    const char *path = kvr_http_req_path(p->req);
    if (strcmp(path, "/tokenize") == 0 || strcmp(path, "/detokenize") == 0) {
        p->route_req.text = NULL;
        p->route_req.text_len = 0;
        p->route_req.block_hashes = NULL;
        p->route_req.n_blocks = 0;
        p->route_req.token_blocks = false;
        p->route_req.block_tokens = 0;
    }
    if (!resolve_pool(p) || !kvr__proxy_pd_select(p))
        return;
    kvr__proxy_dispatch(p);
}

/* Runs on the loop or on the threadpool: p->tokenizers was taken on the loop and is let go here. */
static void extract(proxy_t *p)
{
    kvr_keys_tokens_t tokens = {.set = p->tokenizers,
                                .block_tokens = p->r->cfg->block_tokens,
                                .turn_cache = p->r->turn_cache};
    p->extract_rc = kvr_keys_extract_tokens(&p->r->cfg->keys, &tokens, p->body, p->body_len,
                                            p->session_header, &p->keys, p->extract_err,
                                            sizeof p->extract_err);
    kvr_tokenizer_set_unref(p->tokenizers);
    p->tokenizers = NULL;
}

static void on_extract_work(uv_work_t *w)
{
    extract(w->data);
}

static void on_extract_done(uv_work_t *w, int status)
{
    proxy_t *p = w->data;
    (void)status; /* never cancelled */
    p->extracting = false;
    if (p->client_gone) {
        kvr_http_req_abandon(p->req);
        kvr__proxy_finish(p, 499);
        return;
    }
    keys_ready(p);
}

size_t kvr_proxy_cut_all(kvr_proxy_env_t *r, const char *why)
{
    size_t n = 0;
    proxy_t *next;
    for (proxy_t *p = r->in_flight; p; p = next) {
        next = p->next; /* finish unlinks p */
        if (p->extracting)
            continue;
        KVR_WARN("shutdown_cut request_id=%s engine=%s responded=%d", p->request_id,
                 p->route.engine ? p->route.engine->id : "-", p->responded);
        if (p->responded) {
            cut_client(p, 503, why);
            kvr__proxy_finish(p, p->status);
        } else {
            kvr__proxy_respond_error(p, 503, why);
        }
        r->metrics->shutdown_cuts_total++;
        n++;
    }
    return n;
}

void kvr_proxy_handle(kvr_proxy_env_t *r, kvr_http_req_t *req)
{
    proxy_t *p = proxy_alloc(r);
    p->r = r;
    p->req = req;
    p->start_ns = kvr_http_req_start_ns(req);
    p->next = r->in_flight;
    if (p->next)
        p->next->prev = p;
    r->in_flight = p;
    r->drain.in_flight++;
    kvr_proxy_request_id(r, kvr_http_req_header(req, "X-Request-ID"), p->request_id,
                         sizeof p->request_id);
    p->body = kvr_http_req_body(req, &p->body_len);
    p->session_header = kvr_http_req_header(req, r->cfg->session_header);
    p->tokenizers = kvr_tokenizer_set_ref(r->tokenizers);
    size_t nh = kvr_http_req_header_count(req);
    for (size_t i = 0; i < nh && p->n_fwd < PROXY_MAX_FORWARD_HEADERS - 1; i++) {
        const kvr_http_header_t *h = kvr_http_req_header_at(req, i);
        size_t len = strlen(h->name);
        /* The client's key is the router's to check, not the engine's to see. */
        bool own_key = !r->cfg->forward_authorization && NAME_IS(h->name, len, "authorization");
        if (!hop_by_hop(h->name, len) && !NAME_IS(h->name, len, "x-request-id") && !own_key)
            p->fwd[p->n_fwd++] = *h;
    }
    p->fwd[p->n_fwd++] = (kvr_http_header_t){"X-Request-ID", p->request_id};
    kvr_http_req_on_abort(req, on_client_abort, p);
    /*
     * A 512 KB agentic prompt takes a millisecond or more to parse: on the
     * threadpool it does not stall every other stream. The pick itself stays
     * on the loop thread, so shadow counters keep their one-thread order.
     */
    uint64_t offload = r->cfg->parse_offload_bytes;
    if (p->tokenizers && r->cfg->tokenize_offload_bytes > 0 &&
        (offload == 0 || r->cfg->tokenize_offload_bytes < offload))
        offload = r->cfg->tokenize_offload_bytes; /* tokenizing is the costly part */
    if (offload > 0 && p->body_len >= offload) {
        p->work.data = p;
        if (uv_queue_work(r->loop, &p->work, on_extract_work, on_extract_done) == 0) {
            p->extracting = true;
            return;
        }
    }
    extract(p);
    keys_ready(p);
}
