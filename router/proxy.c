/* SPDX-License-Identifier: Apache-2.0 */
#include "router/proxy.h"

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

#define PROXY_MAX_FORWARD_HEADERS 96
#define PROXY_BACKPRESSURE_BYTES (1u << 20)
#define PROXY_MAX_ATTEMPTS 34 /* --retries 16 + 1, twice: SGLang sends a pair per attempt */

/* Where a disaggregated request is: the prefill attempt's answer is ours, the decode's the client's. */
typedef enum { PD_NONE = 0, PD_PREFILL, PD_DECODE } pd_phase_t;

typedef struct proxy_s {
    kvr_proxy_env_t *r;
    kvr_http_req_t *req;
    char request_id[136];
    kvr_route_keys_t keys;
    kvr_route_request_t route_req;
    char model[KVR_MODEL_NAME_MAX +
               1]; /* the pool routed in ("" = any engine); route_req.model points here */
    kvr_decide_result_t route;
    kvr_charge_t charge;
    kvr_upstream_t *up;
    uv_work_t work; /* key extraction on the threadpool (large bodies) */
    bool extracting;
    kvr_tokenizer_set_t *tokenizers; /* held while the keys are extracted */
    bool client_gone;                /* the client left while the keys were being extracted */
    int extract_rc;
    const char *session_header;
    char extract_err[256];
    const char *body;
    size_t body_len;
    size_t n_fwd;
    uint32_t tried[PROXY_MAX_ATTEMPTS];
    uint32_t tried_generation[PROXY_MAX_ATTEMPTS]; /* with tried[]: the engines' handles */
    uint32_t attempts;
    uint32_t attempts_ok; /* prefill attempts that succeeded: not failures, not excluded */
    bool tried_ok[PROXY_MAX_ATTEMPTS];
    pd_phase_t pd_phase;
    bool pd_collect;           /* the prefill's 200 answer is being read, not forwarded */
    kvr_buf_t pd_prefill_body; /* the client's body as a prefill request */
    kvr_buf_t pd_decode_body;  /* the client's body with the prefill's kv_transfer_params */
    kvr_buf_t pd_answer;       /* the prefill engine's answer */
    char pd_prefill_engine[KVR_SHM_ENGINE_ID_MAX]; /* the engine that built the decode's KV */
    /* SGLang: the prefill request, sent with the decode one; its answer is drained, not sent. */
    kvr_upstream_t *pd_side_up;
    kvr_charge_t pd_side_charge;
    kvr_decide_result_t pd_side_route;
    uint32_t pd_side_attempt; /* its index in tried[]; the decode's is the next */
    int pd_side_status;       /* the status of its answer, 0 before its head */
    uint64_t start_ns;
    bool responded;    /* committed to this engine's answer: no retry any more */
    bool head_pending; /* head not written yet: the first batch joins it in one write */
    int64_t content_length;
    const char *content_type;
    size_t n_out;
    kvr_buf_t pending; /* body bytes of the first batch */
    bool paused;
    bool sse;
    int status; /* the status the client got */
    uint64_t body_bytes;
    uint64_t sse_events;
    char last_byte;
    /* Filled before use (n_fwd, n_out say how far): not cleared when recycled. */
    kvr_http_header_t fwd[PROXY_MAX_FORWARD_HEADERS];
    kvr_http_header_t out[PROXY_MAX_FORWARD_HEADERS + 2];
} proxy_t;

static void dispatch(proxy_t *p);

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
static void attempt_end(proxy_t *p)
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
static void finish(proxy_t *p, int status)
{
    kvr_proxy_env_t *r = p->r;
    attempt_end(p);
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
    proxy_release(r, p);
    r->drain.in_flight--;
    if (r->drain.draining && r->drain.in_flight == 0 && r->drain.on_drained)
        r->drain.on_drained(r->drain.ctx);
}

static void respond_error(proxy_t *p, int status, const char *message)
{
    kvr_http_header_t h[2] = {{"X-Request-ID", p->request_id}, {"Retry-After", "1"}};
    kvr_http_respond_error(p->req, status, NULL, message, h,
                           status == 429 || status == 503 ? 2 : 1);
    finish(p, status);
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

static bool retry_possible(proxy_t *p)
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

static void pd_enter(proxy_t *p, pd_phase_t phase)
{
    p->pd_phase = phase;
    p->pd_collect = false;
    kvr_buf_reset(&p->pd_answer);
    p->route_req.role = phase == PD_DECODE ? KVR_ENGINE_ROLE_DECODE : KVR_ENGINE_ROLE_PREFILL;
    /* A session's pin is its prefill engine's (where its prefix is cached): decode leaves it be. */
    p->route_req.session_id = phase == PD_DECODE ? NULL : p->keys.session_id;
    p->r->metrics->pd_requests_total[phase == PD_DECODE ? 1 : 0]++;
}

static void retry(proxy_t *p, kvr_retry_cause_t cause)
{
    p->r->metrics->retries_total[cause]++;
    attempt_end(p);
    if (p->pd_phase != PD_NONE) {
        p->r->metrics->pd_retries_total[p->pd_phase == PD_PREFILL ? 0 : 1]++;
        pd_enter(p, PD_PREFILL); /* the decode engine's KV is gone with it: prefill again */
    }
    KVR_DEBUG("retry request_id=%s engine=%s attempt=%u cause=%d", p->request_id,
              p->route.engine ? p->route.engine->id : "-", p->attempts, (int)cause);
    dispatch(p);
}

static void on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                    int64_t content_length)
{
    proxy_t *p = arg;
    kvr_proxy_env_t *r = p->r;
    kvr_engine_t *e = p->route.engine;
    if (status >= 500 && retry_possible(p)) {
        kvr_door_engine_failed(r->door, e, "status_5xx");
        retry(p, KVR_RETRY_STATUS_5XX);
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

static void on_flush(void *arg)
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

static void on_data(void *arg, const char *data, size_t len)
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
static void cut_client(proxy_t *p, int status)
{
    kvr_http_req_t *req = p->req;
    flush_head(p);
    if (p->sse &&
        p->content_length < 0) { /* a Content-Length body has no room for one more event */
        char message[160], json[320], event[352];
        snprintf(message, sizeof message, "the engine failed mid-stream: %s", kvr_strerror(status));
        int n = kvr_http_error_json(json, sizeof json, status == -ETIMEDOUT ? 504 : 502, NULL,
                                    message);
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

/* The prefill engine answered: its charge ends here, the decode phase begins. */
static void pd_prefill_done(proxy_t *p)
{
    kvr_engine_t *e = p->route.engine;
    p->pd_collect = false;
    const char *why = kvr_pd_vllm_decode_body(p->body, p->body_len, p->pd_answer.base,
                                              p->pd_answer.len, &p->pd_decode_body);
    if (why) {
        KVR_WARN("pd_prefill_failed request_id=%s engine=%s error=\"%s\"", p->request_id, e->id,
                 why);
        if (retry_possible(p)) {
            retry(p, KVR_RETRY_STATUS_5XX);
            return;
        }
        respond_error(p, 502, why);
        return;
    }
    snprintf(p->pd_prefill_engine, sizeof p->pd_prefill_engine, "%s", e->id);
    p->tried_ok[p->attempts - 1] = true;
    p->attempts_ok++;
    attempt_end(p);
    pd_enter(p, PD_DECODE);
    dispatch(p);
}

static void on_end(void *arg, int status, kvr_upstream_phase_t phase)
{
    proxy_t *p = arg;
    kvr_proxy_env_t *r = p->r;
    kvr_engine_t *e = p->route.engine;
    p->up = NULL;
    if (status == 0 && p->pd_collect) {
        pd_prefill_done(p);
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
        finish(p, p->status);
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
        cut_client(p, status);
        finish(p, p->status);
        return;
    }
    if (phase == KVR_UPSTREAM_CONNECT) {
        if (status == -ETIMEDOUT)
            r->metrics->timeouts_total[KVR_TIMEOUT_CONNECT]++;
        kvr_door_engine_failed(r->door, e, "connect");
        if (retry_possible(p)) {
            retry(p, KVR_RETRY_CONNECT);
            return;
        }
        KVR_WARN("upstream_failed request_id=%s engine=%s phase=connect error=\"%s\"",
                 p->request_id, e->id, kvr_strerror(status));
        respond_error(p, status == -ETIMEDOUT ? 504 : 502, "could not connect to an engine");
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
        if (retry_possible(p)) {
            retry(p, KVR_RETRY_FIRST_BYTE);
            return;
        }
        respond_error(p, 504, "the engine did not answer in time");
        return;
    }
    kvr_door_engine_failed(r->door, e, "reset");
    if (retry_possible(p)) {
        retry(p, KVR_RETRY_RESET);
        return;
    }
    KVR_WARN("upstream_failed request_id=%s engine=%s phase=wait error=\"%s\"", p->request_id,
             e->id, kvr_strerror(status));
    respond_error(p, 502, "the engine closed the connection without an answer");
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
    finish(p, 499); /* nginx's code for "client closed request": counted, never sent */
}

/* Routes the request as it stands (its role, its session) into *route; false when answered. */
static bool route_attempt(proxy_t *p, kvr_charge_t *charge, kvr_decide_result_t *route)
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
            respond_error(p, 429, "no engine has room for this request; retry later");
        else if (p->attempts > 0)
            respond_error(p, 502, "every engine tried failed");
        else
            respond_error(p, 503, "no healthy engine available");
        return false;
    }
    kvr_engine_t *e = route->engine;
    p->tried_generation[p->attempts] = e->generation;
    p->tried[p->attempts++] = e->index;
    return true;
}

/* ---- SGLang: the prefill and the decode request at once ---- */

/* The pair failed by its prefill: that engine is excluded and counted, the decode one is not. */
static void pd_side_blame(proxy_t *p)
{
    p->tried_ok[p->pd_side_attempt] = false;
    p->tried_ok[p->pd_side_attempt + 1] = true;
    p->pd_phase = PD_PREFILL; /* the failure and the retry are the prefill's */
}

static void on_side_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                         int64_t content_length)
{
    proxy_t *p = arg;
    (void)headers, (void)n, (void)content_length;
    p->pd_side_status = status;
    kvr_charge_first_byte(&p->pd_side_charge);
    if (status < 500)
        kvr_door_engine_ok(p->r->door, p->pd_side_route.engine);
}

static void on_side_data(void *arg, const char *data, size_t len)
{
    proxy_t *p = arg;
    /* A refusal is kept for the client; an answer is drained: the decode's is the client's. */
    if (p->pd_side_status >= 400 && p->pd_answer.len + len <= KVR_PD_ANSWER_MAX)
        kvr_buf_append(&p->pd_answer, data, len);
}

static void on_side_end(void *arg, int status, kvr_upstream_phase_t phase)
{
    proxy_t *p = arg;
    kvr_proxy_env_t *r = p->r;
    kvr_engine_t *e = p->pd_side_route.engine;
    p->pd_side_up = NULL;
    if (status == 0 && p->pd_side_status < 400) {
        kvr_door_release(r->door, &p->pd_side_charge); /* its KV is built: the decode's from here */
        return;
    }
    if (status == 0 && p->pd_side_status < 500 && !p->responded) {
        /* The prefill refused the client's own body: its answer says why. */
        int code = p->pd_side_status;
        kvr_http_header_t h = {"X-Request-ID", p->request_id};
        kvr_http_respond(p->req, code, "application/json", &h, 1,
                         p->pd_answer.base ? p->pd_answer.base : "", p->pd_answer.len);
        finish(p, code);
        return;
    }
    const char *why = status == 0 ? (p->pd_side_status >= 500 ? "status_5xx" : "status_4xx")
                      : phase == KVR_UPSTREAM_CONNECT ? "connect"
                      : status == -ETIMEDOUT          ? "first_byte_timeout"
                                                      : "reset";
    if (status != 0 || p->pd_side_status >= 500)
        kvr_door_engine_failed(r->door, e, why);
    KVR_WARN("pd_prefill_failed request_id=%s engine=%s error=\"%s\" decode_answered=%d",
             p->request_id, e->id, status ? kvr_strerror(status) : why, p->responded);
    if (p->responded) {
        /* The decode engine answers: its KV came, so the prefill's end is no longer news. */
        kvr_door_release(r->door, &p->pd_side_charge);
        return;
    }
    pd_side_blame(p);
    kvr_retry_cause_t cause = status == 0                     ? KVR_RETRY_STATUS_5XX
                              : phase == KVR_UPSTREAM_CONNECT ? KVR_RETRY_CONNECT
                              : status == -ETIMEDOUT          ? KVR_RETRY_FIRST_BYTE
                                                              : KVR_RETRY_RESET;
    if (retry_possible(p)) {
        retry(p, cause);
        return;
    }
    respond_error(p, status == -ETIMEDOUT ? 504 : 502, "the prefill engine failed");
}

/* The host SGLang's decode engine reaches the prefill's bootstrap server on: its URL's. */
static void url_host(const char *id, char *out, size_t cap)
{
    const char *authority = strncmp(id, "http://", 7) == 0 ? id + 7 : id;
    const char *colon = strrchr(authority, ':');
    size_t n = colon ? (size_t)(colon - authority) : strlen(authority);
    snprintf(out, cap, "%.*s", (int)n, authority);
}

/*
 * SGLang's protocol: the prefill engine (--policy, with the session) and the
 * decode engine (--pd-decode-policy) get the same body, naming the prefill's
 * bootstrap server and a fresh room; the decode engine pulls the room's KV
 * from there. The pair is one attempt, counted on the engine that failed.
 */
static void pd_sglang_dispatch(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    static const kvr_upstream_cbs_t cbs = {on_head, on_data, on_end, on_flush};
    static const kvr_upstream_cbs_t side_cbs = {on_side_head, on_side_data, on_side_end, NULL};
    for (;;) {
        if (p->attempts + 2 > PROXY_MAX_ATTEMPTS) {
            respond_error(p, 502, "every engine tried failed");
            return;
        }
        p->pd_side_attempt = p->attempts;
        p->pd_side_status = 0;
        if (!route_attempt(p, &p->pd_side_charge, &p->pd_side_route))
            return;
        kvr_engine_t *pe = p->pd_side_route.engine;
        p->tried_ok[p->pd_side_attempt] = true; /* until it fails */
        p->attempts_ok++;
        pd_enter(p, PD_DECODE);
        if (!route_attempt(p, &p->charge, &p->route))
            return;
        kvr_engine_t *de = p->route.engine;
        snprintf(p->pd_prefill_engine, sizeof p->pd_prefill_engine, "%s", pe->id);
        char host[KVR_SHM_ENGINE_ID_MAX];
        url_host(pe->id, host, sizeof host);
        kvr_pd_bootstrap_t boot = {host, pe->bootstrap_port, kvr_pd_room(&r->pd_room_rng)};
        const char *why = kvr_pd_sglang_body(p->body, p->body_len, &boot, &p->pd_prefill_body);
        if (why) {
            respond_error(p, 400, why);
            return;
        }
        kvr_upstream_timeouts_t t = {r->cfg->connect_timeout_ms, r->cfg->first_byte_timeout_ms,
                                     r->cfg->idle_timeout_ms};
        const char *method = kvr_http_req_method(p->req), *path = kvr_http_req_path(p->req);
        const kvr_buf_t *b = &p->pd_prefill_body;
        bool prefill_started = kvr_upstream_request(kvr_door_pool(r->door, pe->index), method, path,
                                                    p->fwd, p->n_fwd, b->base, b->len, &t,
                                                    &side_cbs, p, &p->pd_side_up) == 0;
        if (prefill_started) {
            if (r->cfg->pd_transfer_timeout_ms)
                t.first_byte_ms = r->cfg->pd_transfer_timeout_ms;
            if (kvr_upstream_request(kvr_door_pool(r->door, de->index), method, path, p->fwd,
                                     p->n_fwd, b->base, b->len, &t, &cbs, p, &p->up) == 0)
                return;
        }
        /* Could not even start (out of sockets, bad address): as a connect failure. */
        p->up = NULL;
        if (!prefill_started) {
            p->pd_side_up = NULL;
            pd_side_blame(p);
        }
        kvr_door_engine_failed(r->door, prefill_started ? de : pe, "connect");
        attempt_end(p);
        if (!retry_possible(p)) {
            respond_error(p, 502, "could not connect to an engine");
            return;
        }
        r->metrics->retries_total[KVR_RETRY_CONNECT]++;
        pd_enter(p, PD_PREFILL);
    }
}

static void dispatch(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    static const kvr_upstream_cbs_t cbs = {on_head, on_data, on_end, on_flush};
    if (p->pd_phase != PD_NONE && r->cfg->pd_protocol == KVR_PD_SGLANG) {
        pd_sglang_dispatch(p);
        return;
    }
    for (;;) {
        if (!route_attempt(p, &p->charge, &p->route))
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
        attempt_end(p);
        if (!retry_possible(p)) {
            respond_error(p, 502, "could not connect to an engine");
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
        respond_error(p, 404, "The model does not exist");
        return;
    }
    kvr_http_header_t h = {"X-Request-ID", p->request_id};
    kvr_http_respond(p->req, 404, "application/json", &h, 1, text, strlen(text));
    cJSON_free(text);
    finish(p, 404);
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
        respond_error(p, 400, msg.base ? msg.base : "the request names no model");
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

/*
 * Which engines the request goes to: role=both ones, or a prefill and a
 * decode engine when the model has both and --pd-protocol is on. A model
 * with only one half of the pair healthy is refused, so it is seen at once.
 * False when the request was answered.
 */
static bool pd_select(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    const char *model = p->route_req.model;
    bool pre = kvr_door_has_role_candidate(r->door, model, KVR_ENGINE_ROLE_PREFILL, NULL, 0);
    bool dec = kvr_door_has_role_candidate(r->door, model, KVR_ENGINE_ROLE_DECODE, NULL, 0);
    if (pre && dec && r->cfg->pd_protocol != KVR_PD_OFF) {
        /* SGLang's body is built per pair (its room and host); refused early when it cannot be. */
        kvr_pd_bootstrap_t check = {"", 0, 0};
        const char *why = r->cfg->pd_protocol == KVR_PD_VLLM
                              ? kvr_pd_vllm_prefill_body(p->body, p->body_len, &p->pd_prefill_body)
                              : kvr_pd_sglang_body(p->body, p->body_len, &check,
                                                   &p->pd_prefill_body);
        if (why) {
            respond_error(p, 400, why);
            return false;
        }
        pd_enter(p, PD_PREFILL);
        return true;
    }
    if ((!pre && !dec) ||
        kvr_door_has_role_candidate(r->door, model, KVR_ENGINE_ROLE_BOTH, NULL, 0))
        return true;
    const char *why = !dec ? "has healthy prefill engines but no healthy decode engine"
                      : !pre
                          ? "has healthy decode engines but no healthy prefill engine"
                          : "is served by prefill and decode engines only and --pd-protocol is off";
    char safe[KVR_MODEL_SAFE_MAX], msg[KVR_MODEL_SAFE_MAX + 160];
    kvr_model_name_safe(model ? model : "(any)", safe, sizeof safe);
    snprintf(msg, sizeof msg, "model %s %s", safe, why);
    r->metrics->pd_unpaired_total++;
    KVR_WARN("pd_unpaired request_id=%s model=%s reason=\"%s\"", p->request_id, safe, why);
    respond_error(p, 503, msg);
    return false;
}

/* The keys are known (or the body is bad): route and forward. */
static void keys_ready(proxy_t *p)
{
    if (p->extract_rc < 0) {
        respond_error(p, 400, p->extract_err);
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
    if (!resolve_pool(p) || !pd_select(p))
        return;
    dispatch(p);
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
        finish(p, 499);
        return;
    }
    keys_ready(p);
}

void kvr_proxy_handle(kvr_proxy_env_t *r, kvr_http_req_t *req)
{
    proxy_t *p = proxy_alloc(r);
    p->r = r;
    p->req = req;
    p->start_ns = kvr_http_req_start_ns(req);
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
