/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_REPLAY_CLIENT_H
#define KVR_BENCH_REPLAY_CLIENT_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "common/buf.h"

/*
 * Streaming chat completions over libcurl's multi interface driven by a
 * libuv loop (curl's socket and timer callbacks mapped onto uv_poll and
 * uv_timer), so thousands of requests share one thread. Each request's SSE
 * stream is read as it arrives: the first content token gives TTFT, the
 * final usage chunk gives prompt, cached and output tokens. An answer that
 * is not an event stream (a request sent with "stream": false) is kept whole
 * and read once it ends, for its usage and content.
 */

typedef struct kvr_client_s kvr_client_t;
typedef struct kvr_replay_req_s kvr_replay_req_t;

/** Called once per started request, when it completed, failed or was cancelled. */
typedef void (*kvr_client_done_cb)(kvr_replay_req_t *req, void *arg);

struct kvr_replay_req_s {
    /* set by the caller before kvr_client_start */
    size_t index;    /* position in the trace */
    const char *url; /* full URL of the endpoint */
    char *body;      /* owned: freed when the request is done */
    size_t body_len;
    struct curl_slist *headers; /* owned: freed when the request is done */
    long timeout_ms;            /* this request's limit; 0 = the client's */
    void *user;

    /* results, valid in the done callback */
    uint64_t send_ns;        /* CLOCK_MONOTONIC */
    uint64_t first_byte_ns;  /* first body byte, 0 if none */
    uint64_t first_token_ns; /* first non-empty content chunk, 0 if none */
    uint64_t end_ns;
    long status;        /* HTTP status, 0 when no response */
    char engine[160];   /* the engine header's value, "" when absent */
    long prompt_tokens; /* from usage, -1 when the stream carried none */
    long cached_tokens;
    long completion_tokens;
    unsigned content_chunks;
    bool saw_done;     /* "data: [DONE]" arrived */
    bool event_stream; /* the response's Content-Type is text/event-stream */
    bool whole_body;   /* a 2xx answer that is not a stream was read whole as JSON; a body
                                  that is empty, not one document or an error is told in error */
    char error[256];   /* "" on success */

    /* internal */
    CURL *easy;
    kvr_client_t *client;
    kvr_replay_req_t *prev, *next;
    kvr_buf_t buf; /* SSE bytes not yet split into lines */
};

/**
 * Creates a client on loop. timeout_ms bounds each request (0 = none);
 * engine_header names the response header to record (e.g. X-Kvroute-Engine).
 */
int kvr_client_create(kvr_client_t **out, uv_loop_t *loop, long timeout_ms,
                      const char *engine_header, kvr_client_done_cb done, void *arg);

/** Starts req; its done callback runs later (never from inside this call). 0 or -errno. */
int kvr_client_start(kvr_client_t *client, kvr_replay_req_t *req);

/** Requests in flight. */
size_t kvr_client_inflight(const kvr_client_t *client);

/** Aborts every request in flight; each gets its done callback with error "cancelled". */
void kvr_client_cancel_all(kvr_client_t *client);

/** Cancels what is in flight and frees the client; its libuv handles close on the loop. */
void kvr_client_destroy(kvr_client_t *client);

#endif
