/* SPDX-License-Identifier: Apache-2.0 */
#include "bench/replay/client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/replay/json.h"
#include "common/clock.h"

/* A response body larger than this is not an SSE stream we need to keep lines of. */
#define LINE_LIMIT (4u << 20)

struct kvr_client_s {
    uv_loop_t *loop;
    CURLM *multi;
    uv_timer_t *timer; /* curl's timeout; heap so it can outlive the client until closed */
    kvr_client_done_cb done;
    void *arg;
    long timeout_ms;
    char engine_header[64];
    kvr_replay_req_t *inflight; /* doubly linked, for cancel_all */
    size_t n_inflight;
    int dispatching; /* inside check_done: done callbacks may destroy the client */
    bool destroy_pending;
};

/* One socket curl asked us to watch. */
typedef struct {
    uv_poll_t poll;
    curl_socket_t fd;
    kvr_client_t *client;
} sock_ctx_t;

static void check_done(kvr_client_t *c);
static void destroy_now(kvr_client_t *c);

static void free_handle_cb(uv_handle_t *h)
{
    free(h->data);
}

/* For handles allocated on their own (the timer): free the handle itself. */
static void free_handle_cb_self(uv_handle_t *h)
{
    free(h);
}

static void poll_cb(uv_poll_t *poll, int status, int events)
{
    sock_ctx_t *s = poll->data;
    int flags = 0;
    if (status < 0)
        flags = CURL_CSELECT_ERR;
    else {
        if (events & UV_READABLE)
            flags |= CURL_CSELECT_IN;
        if (events & UV_WRITABLE)
            flags |= CURL_CSELECT_OUT;
    }
    kvr_client_t *c = s->client; /* s may be freed inside socket_action */
    int running;
    curl_multi_socket_action(c->multi, s->fd, flags, &running);
    check_done(c);
}

static int socket_cb(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
    (void)easy;
    kvr_client_t *c = userp;
    sock_ctx_t *s = socketp;
    if (what == CURL_POLL_REMOVE) {
        if (s) {
            uv_poll_stop(&s->poll);
            uv_close((uv_handle_t *)&s->poll, free_handle_cb);
            curl_multi_assign(c->multi, fd, NULL);
        }
        return 0;
    }
    if (!s) {
        s = calloc(1, sizeof(*s));
        if (!s)
            return -1;
        s->fd = fd;
        s->client = c;
        if (uv_poll_init_socket(c->loop, &s->poll, fd) != 0) {
            free(s);
            return -1;
        }
        s->poll.data = s;
        curl_multi_assign(c->multi, fd, s);
    }
    int events = 0;
    if (what == CURL_POLL_IN || what == CURL_POLL_INOUT)
        events |= UV_READABLE;
    if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
        events |= UV_WRITABLE;
    uv_poll_start(&s->poll, events, poll_cb);
    return 0;
}

static void timer_cb(uv_timer_t *t)
{
    kvr_client_t *c = t->data;
    int running;
    curl_multi_socket_action(c->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    check_done(c);
}

static int timer_fn(CURLM *multi, long timeout_ms, void *userp)
{
    (void)multi;
    kvr_client_t *c = userp;
    /* Curl must not be re-entered from here: even a 0 timeout waits for the loop. */
    if (timeout_ms < 0)
        uv_timer_stop(c->timer);
    else
        uv_timer_start(c->timer, timer_cb, (uint64_t)timeout_ms, 0);
    return 0;
}

/* A token count: a whole number that fits a long; anything else leaves the count as it was. */
static void take_count(long *dst, const cJSON *v)
{
    double d;
    if (kvr_rj_whole(v, -9.2e18, 9.2e18, &d))
        *dst = (long)d;
}

static void take_usage(kvr_replay_req_t *r, const cJSON *usage)
{
    take_count(&r->prompt_tokens, kvr_rj_get(usage, "prompt_tokens"));
    take_count(&r->completion_tokens, kvr_rj_get(usage, "completion_tokens"));
    double d;
    const cJSON *details = kvr_rj_get(usage, "prompt_tokens_details");
    const cJSON *cached = kvr_rj_get(details, "cached_tokens");
    if (!kvr_rj_whole(cached, -9.2e18, 9.2e18, &d))
        cached = kvr_rj_get(usage, "cached_tokens"); /* SGLang's older placement */
    take_count(&r->cached_tokens, cached);
}

static void sse_event(kvr_replay_req_t *r, const char *data, size_t len)
{
    if (len == 6 && memcmp(data, "[DONE]", 6) == 0) {
        r->saw_done = true;
        return;
    }
    const char *end = NULL;
    cJSON *ev = cJSON_ParseWithLengthOpts(data, len, &end, false);
    if (!ev || !kvr_rj_blank(end, data + len)) {
        cJSON_Delete(ev);
        return;
    }
    const cJSON *err = kvr_rj_get(ev, "error");
    if (err && !r->error[0]) {
        const cJSON *msg = kvr_rj_get(err, "message");
        snprintf(r->error, sizeof(r->error), "stream error: %s",
                 cJSON_IsString(msg) ? msg->valuestring : "unknown");
    }
    const cJSON *usage = kvr_rj_get(ev, "usage");
    if (cJSON_IsObject(usage))
        take_usage(r, usage);
    const cJSON *choices = kvr_rj_get(ev, "choices");
    const cJSON *choice = cJSON_IsArray(choices) ? choices->child : NULL;
    if (choice) {
        const cJSON *content = kvr_rj_get(kvr_rj_get(choice, "delta"), "content");
        if (!content)
            content = kvr_rj_get(choice, "text");
        if (cJSON_IsString(content) && content->valuestring[0]) {
            if (!r->first_token_ns)
                r->first_token_ns = kvr_clock_now_ns();
            r->content_chunks++;
        }
    }
    cJSON_Delete(ev);
}

/* Splits what arrived into SSE lines; keeps the unfinished tail for the next call. */
static void sse_lines(kvr_replay_req_t *r)
{
    size_t start = 0;
    char *nl;
    while ((nl = memchr(r->buf.base + start, '\n', r->buf.len - start)) != NULL) {
        size_t end = (size_t)(nl - r->buf.base);
        size_t len = end - start;
        const char *line = r->buf.base + start;
        if (len && line[len - 1] == '\r')
            len--;
        if (len >= 5 && memcmp(line, "data:", 5) == 0) {
            size_t skip = (len > 5 && line[5] == ' ') ? 6 : 5;
            sse_event(r, line + skip, len - skip);
        }
        start = end + 1;
    }
    kvr_buf_consume(&r->buf, start);
}

static size_t write_cb(char *data, size_t size, size_t nmemb, void *userp)
{
    kvr_replay_req_t *r = userp;
    size_t n = size * nmemb;
    if (!r->first_byte_ns) {
        r->first_byte_ns = kvr_clock_now_ns();
        struct curl_header *h;
        if (curl_easy_header(r->easy, r->client->engine_header, 0, CURLH_HEADER, -1, &h) ==
            CURLHE_OK)
            snprintf(r->engine, sizeof(r->engine), "%s", h->value);
        /* Without a Content-Type the body is read as a stream, as it always was. */
        r->event_stream = curl_easy_header(r->easy, "Content-Type", 0, CURLH_HEADER, -1, &h) !=
                              CURLHE_OK ||
                          strncasecmp(h->value, "text/event-stream", 17) == 0;
        curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &r->status);
    }
    if (n > LINE_LIMIT || r->buf.len > LINE_LIMIT - n)
        return n; /* a runaway line: drop it rather than grow without bound */
    kvr_buf_append(&r->buf, data, n);
    if (r->status >= 200 && r->status < 300 && r->event_stream)
        sse_lines(r);
    return n;
}

/* A 2xx answer that is not a stream: one chat.completion or text_completion document. */
static void whole_body(kvr_replay_req_t *r)
{
    r->whole_body = true;
    if (!r->buf.len) {
        snprintf(r->error, sizeof(r->error), "HTTP %ld with an empty body", r->status);
        return;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(r->buf.base, r->buf.len, &end, false);
    if (!doc || !kvr_rj_blank(end, r->buf.base + r->buf.len)) {
        cJSON_Delete(doc);
        snprintf(r->error, sizeof(r->error), "HTTP %ld: the body is not one JSON document",
                 r->status);
        return;
    }
    const cJSON *err = kvr_rj_get(doc, "error");
    if (err) {
        const cJSON *msg = kvr_rj_get(err, "message");
        snprintf(r->error, sizeof(r->error), "body error: %s",
                 cJSON_IsString(msg) ? msg->valuestring : "unknown");
    }
    const cJSON *usage = kvr_rj_get(doc, "usage");
    if (cJSON_IsObject(usage))
        take_usage(r, usage);
    const cJSON *choices = kvr_rj_get(doc, "choices");
    const cJSON *choice = cJSON_IsArray(choices) ? choices->child : NULL;
    const cJSON *content = kvr_rj_get(kvr_rj_get(choice, "message"), "content");
    if (!content)
        content = kvr_rj_get(choice, "text");
    if (cJSON_IsString(content) && content->valuestring[0])
        r->content_chunks = 1;
    cJSON_Delete(doc);
}

static void unlink_req(kvr_client_t *c, kvr_replay_req_t *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        c->inflight = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->prev = r->next = NULL;
    c->n_inflight--;
}

static void finish(kvr_client_t *c, kvr_replay_req_t *r, CURLcode result)
{
    r->end_ns = kvr_clock_now_ns();
    if (!r->status)
        curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &r->status);
    if (result != CURLE_OK && !r->error[0])
        snprintf(r->error, sizeof(r->error), "%s", curl_easy_strerror(result));
    if (!r->error[0] && r->status >= 200 && r->status < 300 && !r->event_stream)
        whole_body(r);
    if (!r->error[0] && (r->status < 200 || r->status >= 300)) {
        /* The OpenAI-shaped error body, kept short for the record. */
        size_t n = r->buf.len < 200 ? r->buf.len : 200;
        snprintf(r->error, sizeof(r->error), "HTTP %ld: %.*s", r->status, (int)n,
                 r->buf.base ? r->buf.base : "");
        for (char *p = r->error; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
    unlink_req(c, r);
    curl_multi_remove_handle(c->multi, r->easy);
    curl_easy_cleanup(r->easy);
    r->easy = NULL;
    curl_slist_free_all(r->headers);
    r->headers = NULL;
    free(r->body);
    r->body = NULL;
    kvr_buf_close(&r->buf);
    c->done(r, c->arg);
}

static void check_done(kvr_client_t *c)
{
    CURLMsg *msg;
    int left;
    c->dispatching++;
    while (!c->destroy_pending && (msg = curl_multi_info_read(c->multi, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        kvr_replay_req_t *r = NULL;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
        finish(c, r, msg->data.result);
    }
    /* A done callback that destroyed the client only marked it: free it now
     * that nothing on this stack touches it any more. */
    if (--c->dispatching == 0 && c->destroy_pending)
        destroy_now(c);
}

int kvr_client_create(kvr_client_t **out, uv_loop_t *loop, long timeout_ms,
                      const char *engine_header, kvr_client_done_cb done, void *arg)
{
    kvr_client_t *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->loop = loop;
    c->done = done;
    c->arg = arg;
    c->timeout_ms = timeout_ms;
    snprintf(c->engine_header, sizeof(c->engine_header), "%s", engine_header);
    c->timer = calloc(1, sizeof(*c->timer));
    if (!c->timer)
        goto fail_timer;
    uv_timer_init(loop, c->timer);
    c->timer->data = c;
    c->multi = curl_multi_init();
    if (!c->multi)
        goto fail_multi;
    curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
    curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
    curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_fn);
    curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
    *out = c;
    return 0;

fail_multi:
    uv_close((uv_handle_t *)c->timer, free_handle_cb_self);
    free(c);
    return -ENOMEM;
fail_timer:
    free(c);
    return -ENOMEM;
}

int kvr_client_start(kvr_client_t *c, kvr_replay_req_t *r)
{
    CURL *easy = curl_easy_init();
    if (!easy)
        return -ENOMEM;
    r->easy = easy;
    r->client = c;
    r->status = 0;
    r->engine[0] = r->error[0] = '\0';
    r->prompt_tokens = r->cached_tokens = r->completion_tokens = -1;
    r->first_byte_ns = r->first_token_ns = r->end_ns = 0;
    r->content_chunks = 0;
    r->saw_done = r->event_stream = r->whole_body = false;
    curl_easy_setopt(easy, CURLOPT_URL, r->url);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, r->body);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, r->headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_cb);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, r);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, r->timeout_ms > 0 ? r->timeout_ms : c->timeout_ms);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    r->send_ns = kvr_clock_now_ns();
    if (curl_multi_add_handle(c->multi, easy) != CURLM_OK) {
        curl_easy_cleanup(easy);
        r->easy = NULL;
        return -EIO;
    }
    r->prev = NULL;
    r->next = c->inflight;
    if (c->inflight)
        c->inflight->prev = r;
    c->inflight = r;
    c->n_inflight++;
    return 0;
}

size_t kvr_client_inflight(const kvr_client_t *c)
{
    return c->n_inflight;
}

void kvr_client_cancel_all(kvr_client_t *c)
{
    while (c->inflight) {
        kvr_replay_req_t *r = c->inflight;
        snprintf(r->error, sizeof(r->error), "cancelled");
        finish(c, r, CURLE_ABORTED_BY_CALLBACK);
    }
}

void kvr_client_destroy(kvr_client_t *c)
{
    if (!c)
        return;
    kvr_client_cancel_all(c);
    if (c->dispatching) {
        c->destroy_pending = true;
        return;
    }
    destroy_now(c);
}

static void destroy_now(kvr_client_t *c)
{
    curl_multi_cleanup(c->multi);
    uv_timer_stop(c->timer);
    uv_close((uv_handle_t *)c->timer, free_handle_cb_self);
    free(c);
}
