/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PROXY_INTERNAL_H
#define KVR_ROUTER_PROXY_INTERNAL_H

/*
 * What the two files of the proxy share: the request's state (proxy_t) and
 * the steps of its attempts. router/proxy.c forwards a request to an
 * engine; router/pd_path.c takes a disaggregated one through its prefill
 * and decode phases (vLLM's one after the other, SGLang's at once).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "router/metrics.h"
#include "router/proxy.h"
#include "router/upstream.h"

#define PROXY_MAX_FORWARD_HEADERS 96
#define PROXY_BACKPRESSURE_BYTES (1u << 20)
#define PROXY_MAX_ATTEMPTS 34 /* --retries 16 + 1, twice: SGLang sends a pair per attempt */

/* Where a disaggregated request is: the prefill attempt's answer is ours, the decode's the client's. */
typedef enum { PD_NONE = 0, PD_PREFILL, PD_DECODE } pd_phase_t;

typedef struct proxy_s {
    kvr_proxy_env_t *r;
    kvr_http_req_t *req;
    struct proxy_s *prev, *next; /* r->in_flight */
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

/** Ends the current attempt: upstream request(s), charge(s) and lease released once. */
void kvr__proxy_attempt_end(proxy_t *p);
/** Ends the request with status: its last attempt, counters, decision log line, memory. */
void kvr__proxy_finish(proxy_t *p, int status);
/** Answers the client an OpenAI-shaped error and finishes. */
void kvr__proxy_respond_error(proxy_t *p, int status, const char *message);
/** True when the request may be tried again (budget left, a candidate left). */
bool kvr__proxy_retry_possible(proxy_t *p);
/** Ends the attempt and tries again; a disaggregated request starts again at its prefill. */
void kvr__proxy_retry(proxy_t *p, kvr_retry_cause_t cause);
/** Routes the request as it stands into *route; false when it was answered. */
bool kvr__proxy_route_attempt(proxy_t *p, kvr_charge_t *charge, kvr_decide_result_t *route);
/** Sends the request's next attempt. */
void kvr__proxy_dispatch(proxy_t *p);
/** The upstream callbacks of the attempt whose answer is the client's (or the vLLM prefill's). */
void kvr__proxy_on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                        int64_t content_length);
void kvr__proxy_on_data(void *arg, const char *data, size_t len);
void kvr__proxy_on_end(void *arg, int status, kvr_upstream_phase_t phase);
void kvr__proxy_on_flush(void *arg);

/* router/pd_path.c */

/** Enters a phase: the role routed among, the session pin, the phase's counter. */
void kvr__proxy_pd_enter(proxy_t *p, pd_phase_t phase);
/** vLLM: the prefill's answer is read; the decode phase is dispatched, or the prefill retried. */
void kvr__proxy_pd_prefill_done(proxy_t *p);
/** SGLang: the prefill and the decode request of one pair, sent at once. */
void kvr__proxy_pd_sglang_dispatch(proxy_t *p);
/** Colocated or disaggregated for this request's model; false when it was answered. */
bool kvr__proxy_pd_select(proxy_t *p);

#endif
