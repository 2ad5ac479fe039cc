/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The disaggregated request path: a request whose model has prefill and
 * decode engines goes through both phases here, with vLLM's protocol (the
 * prefill's answer read, then the decode request built from it) or
 * SGLang's (one body to both engines at once). The attempts themselves are
 * the proxy's (router/proxy.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/log.h"
#include "router/pd.h"
#include "router/proxy_internal.h"

void kvr__proxy_pd_enter(proxy_t *p, pd_phase_t phase)
{
    p->pd_phase = phase;
    p->pd_collect = false;
    kvr_buf_reset(&p->pd_answer);
    p->route_req.role = phase == PD_DECODE ? KVR_ENGINE_ROLE_DECODE : KVR_ENGINE_ROLE_PREFILL;
    /* A session's pin is its prefill engine's (where its prefix is cached): decode leaves it be. */
    p->route_req.session_id = phase == PD_DECODE ? NULL : p->keys.session_id;
    p->r->metrics->pd_requests_total[phase == PD_DECODE ? 1 : 0]++;
}

/* The prefill engine answered: its charge ends here, the decode phase begins. */
void kvr__proxy_pd_prefill_done(proxy_t *p)
{
    kvr_engine_t *e = p->route.engine;
    p->pd_collect = false;
    const char *why = kvr_pd_vllm_decode_body(p->body, p->body_len, p->pd_answer.base,
                                              p->pd_answer.len, &p->pd_decode_body);
    if (why) {
        KVR_WARN("pd_prefill_failed request_id=%s engine=%s error=\"%s\"", p->request_id, e->id,
                 why);
        if (kvr__proxy_retry_possible(p)) {
            kvr__proxy_retry(p, KVR_RETRY_STATUS_5XX);
            return;
        }
        kvr__proxy_respond_error(p, 502, why);
        return;
    }
    snprintf(p->pd_prefill_engine, sizeof p->pd_prefill_engine, "%s", e->id);
    p->tried_ok[p->attempts - 1] = true;
    p->attempts_ok++;
    kvr__proxy_attempt_end(p);
    kvr__proxy_pd_enter(p, PD_DECODE);
    kvr__proxy_dispatch(p);
}

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
        kvr__proxy_finish(p, code);
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
    if (kvr__proxy_retry_possible(p)) {
        kvr__proxy_retry(p, cause);
        return;
    }
    kvr__proxy_respond_error(p, status == -ETIMEDOUT ? 504 : 502, "the prefill engine failed");
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
void kvr__proxy_pd_sglang_dispatch(proxy_t *p)
{
    kvr_proxy_env_t *r = p->r;
    static const kvr_upstream_cbs_t cbs = {kvr__proxy_on_head, kvr__proxy_on_data,
                                           kvr__proxy_on_end, kvr__proxy_on_flush};
    static const kvr_upstream_cbs_t side_cbs = {on_side_head, on_side_data, on_side_end, NULL};
    for (;;) {
        if (p->attempts + 2 > PROXY_MAX_ATTEMPTS) {
            kvr__proxy_respond_error(p, 502, "every engine tried failed");
            return;
        }
        p->pd_side_attempt = p->attempts;
        p->pd_side_status = 0;
        if (!kvr__proxy_route_attempt(p, &p->pd_side_charge, &p->pd_side_route))
            return;
        kvr_engine_t *pe = p->pd_side_route.engine;
        p->tried_ok[p->pd_side_attempt] = true; /* until it fails */
        p->attempts_ok++;
        kvr__proxy_pd_enter(p, PD_DECODE);
        if (!kvr__proxy_route_attempt(p, &p->charge, &p->route))
            return;
        kvr_engine_t *de = p->route.engine;
        snprintf(p->pd_prefill_engine, sizeof p->pd_prefill_engine, "%s", pe->id);
        char host[KVR_SHM_ENGINE_ID_MAX];
        url_host(pe->id, host, sizeof host);
        kvr_pd_bootstrap_t boot = {host, pe->bootstrap_port, kvr_pd_room(&r->pd_room_rng)};
        const char *why = kvr_pd_sglang_body(p->body, p->body_len, &boot, &p->pd_prefill_body);
        if (why) {
            kvr__proxy_respond_error(p, 400, why);
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
        kvr__proxy_attempt_end(p);
        if (!kvr__proxy_retry_possible(p)) {
            kvr__proxy_respond_error(p, 502, "could not connect to an engine");
            return;
        }
        r->metrics->retries_total[KVR_RETRY_CONNECT]++;
        kvr__proxy_pd_enter(p, PD_PREFILL);
    }
}

/*
 * Which engines the request goes to: role=both ones, or a prefill and a
 * decode engine when the model has both and --pd-protocol is on. A model
 * with only one half of the pair healthy is refused, so it is seen at once.
 * False when the request was answered.
 */
bool kvr__proxy_pd_select(proxy_t *p)
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
            kvr__proxy_respond_error(p, 400, why);
            return false;
        }
        kvr__proxy_pd_enter(p, PD_PREFILL);
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
    kvr__proxy_respond_error(p, 503, msg);
    return false;
}
