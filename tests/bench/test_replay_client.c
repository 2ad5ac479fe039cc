/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The replayer's HTTP client against a loopback server that gives one canned
 * answer: a whole JSON completion is read for its usage and content, a 2xx
 * body that is empty or not JSON is an error (it used to count as a success),
 * an event stream is still read as one, and a request's own timeout wins
 * over the client's.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "bench/replay/client.h"

typedef struct {
    uv_loop_t loop;
    uv_tcp_t server;
    const char *answer; /* NULL: never answer */
    char url[64];
    kvr_client_t *client;
    kvr_replay_req_t req;
    int done_calls;
} fixture_t;

typedef struct {
    uv_tcp_t tcp;
    fixture_t *fx;
    char buf[8192];
    size_t len;
    bool answered;
} conn_t;

static void free_conn(uv_handle_t *h)
{
    free(h->data);
}

static void wrote(uv_write_t *w, int status)
{
    (void)status;
    uv_close((uv_handle_t *)w->handle, free_conn);
    free(w);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    conn_t *c = h->data;
    (void)suggested;
    *buf = uv_buf_init(c->buf + c->len, (unsigned)(sizeof(c->buf) - c->len - 1));
}

/* Answers once the request's headers and Content-Length body are in. */
static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    conn_t *c = s->data;
    (void)buf;
    if (n < 0) {
        uv_close((uv_handle_t *)s, free_conn);
        return;
    }
    c->len += (size_t)n;
    c->buf[c->len] = '\0';
    char *end = strstr(c->buf, "\r\n\r\n");
    if (!end || c->answered || !c->fx->answer)
        return;
    char *cl = strcasestr(c->buf, "Content-Length:");
    size_t body = cl ? strtoul(cl + 15, NULL, 10) : 0;
    if (c->len < (size_t)(end + 4 - c->buf) + body)
        return;
    c->answered = true;
    uv_read_stop(s);
    uv_write_t *w = malloc(sizeof(*w));
    uv_buf_t out = uv_buf_init((char *)c->fx->answer, (unsigned)strlen(c->fx->answer));
    uv_write(w, s, &out, 1, wrote);
}

static void on_connection(uv_stream_t *server, int status)
{
    fixture_t *fx = server->data;
    cr_assert_eq(status, 0);
    conn_t *c = calloc(1, sizeof(*c));
    c->fx = fx;
    uv_tcp_init(&fx->loop, &c->tcp);
    c->tcp.data = c;
    cr_assert_eq(uv_accept(server, (uv_stream_t *)&c->tcp), 0);
    uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, read_cb);
}

static void request_done(kvr_replay_req_t *r, void *arg)
{
    fixture_t *fx = arg;
    (void)r;
    fx->done_calls++;
    kvr_client_destroy(fx->client);
    fx->client = NULL;
    uv_close((uv_handle_t *)&fx->server, NULL);
}

static void close_any(uv_handle_t *h, void *server)
{
    if (uv_is_closing(h))
        return;
    uv_close(h, h->type == UV_TCP && h != server ? free_conn : NULL);
}

/* Sends one request to a server that answers `answer`; the finished request in fx->req. */
static void run_one(fixture_t *fx, const char *answer, long client_timeout_ms, long req_timeout_ms)
{
    memset(fx, 0, sizeof(*fx));
    fx->answer = answer;
    cr_assert_eq(uv_loop_init(&fx->loop), 0);
    uv_tcp_init(&fx->loop, &fx->server);
    fx->server.data = fx;
    struct sockaddr_in addr;
    uv_ip4_addr("127.0.0.1", 0, &addr);
    cr_assert_eq(uv_tcp_bind(&fx->server, (const struct sockaddr *)&addr, 0), 0);
    cr_assert_eq(uv_listen((uv_stream_t *)&fx->server, 16, on_connection), 0);
    struct sockaddr_in bound;
    int len = sizeof(bound);
    uv_tcp_getsockname(&fx->server, (struct sockaddr *)&bound, &len);
    snprintf(fx->url, sizeof(fx->url), "http://127.0.0.1:%d/v1/chat/completions",
             ntohs(bound.sin_port));
    cr_assert_eq(kvr_client_create(&fx->client, &fx->loop, client_timeout_ms, "X-Kvroute-Engine",
                                   request_done, fx),
                 0);
    fx->req.url = fx->url;
    fx->req.body = strdup("{\"stream\":false}");
    fx->req.body_len = strlen(fx->req.body);
    fx->req.headers = curl_slist_append(NULL, "Content-Type: application/json");
    fx->req.timeout_ms = req_timeout_ms;
    cr_assert_eq(kvr_client_start(fx->client, &fx->req), 0);
    uv_run(&fx->loop, UV_RUN_DEFAULT);
    cr_assert_eq(fx->done_calls, 1);
    /* Connections the server never answered are still open: close them too. */
    uv_walk(&fx->loop, close_any, &fx->server);
    uv_run(&fx->loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&fx->loop), 0);
}

static char *answer_of(const char *content_type, const char *body)
{
    char *out = NULL;
    cr_assert_geq(asprintf(&out,
                           "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nConnection: close\r\n"
                           "Content-Length: %zu\r\n\r\n%s",
                           content_type, strlen(body), body),
                  0);
    return out;
}

Test(replay_client, a_whole_json_answer_gives_its_usage_and_content, .timeout = 10.)
{
    fixture_t fx;
    char *a = answer_of(
        "application/json",
        "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"role\":\"assistant\","
        "\"content\":\"abc def\"}}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,"
        "\"prompt_tokens_details\":{\"cached_tokens\":4}}}");
    run_one(&fx, a, 5000, 0);
    cr_expect_eq(fx.req.status, 200);
    cr_expect_str_empty(fx.req.error);
    cr_expect(fx.req.whole_body);
    cr_expect_not(fx.req.event_stream);
    cr_expect_eq(fx.req.content_chunks, 1);
    cr_expect_eq(fx.req.prompt_tokens, 12);
    cr_expect_eq(fx.req.cached_tokens, 4);
    cr_expect_eq(fx.req.completion_tokens, 7);
    free(a);
}

Test(replay_client, a_2xx_with_an_empty_body_is_an_error, .timeout = 10.)
{
    fixture_t fx;
    char *a = answer_of("application/json", "");
    run_one(&fx, a, 5000, 0);
    cr_expect_eq(fx.req.status, 200);
    cr_expect(fx.req.whole_body);
    cr_expect_str_eq(fx.req.error, "HTTP 200 with an empty body");
    free(a);
}

Test(replay_client, a_2xx_body_cut_inside_its_json_is_an_error, .timeout = 10.)
{
    fixture_t fx;
    char *a = answer_of("application/json", "{\"object\":\"chat.completion\",\"choi");
    run_one(&fx, a, 5000, 0);
    cr_expect_eq(fx.req.status, 200);
    cr_expect_str_eq(fx.req.error, "HTTP 200: the body is not one JSON document");
    free(a);
}

Test(replay_client, an_error_object_in_a_2xx_body_is_an_error, .timeout = 10.)
{
    fixture_t fx;
    char *a = answer_of("application/json", "{\"error\":{\"message\":\"engine went away\"}}");
    run_one(&fx, a, 5000, 0);
    cr_expect_str_eq(fx.req.error, "body error: engine went away");
    free(a);
}

Test(replay_client, an_event_stream_is_still_read_as_one, .timeout = 10.)
{
    fixture_t fx;
    char *a = answer_of(
        "text/event-stream; charset=utf-8",
        "data: {\"choices\":[{\"delta\":{\"content\":\"abc\"}}]}\n\n"
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n"
        "data: [DONE]\n\n");
    run_one(&fx, a, 5000, 0);
    cr_expect_str_empty(fx.req.error);
    cr_expect(fx.req.event_stream);
    cr_expect_not(fx.req.whole_body);
    cr_expect(fx.req.saw_done);
    cr_expect_eq(fx.req.content_chunks, 1);
    cr_expect_eq(fx.req.completion_tokens, 1);
    free(a);
}

Test(replay_client, a_requests_own_timeout_wins_over_the_clients, .timeout = 10.)
{
    fixture_t fx;
    /* The client would wait a minute, past the test's own limit; the request gives up after 200 ms. */
    run_one(&fx, NULL, 60000, 200);
    cr_expect_eq(fx.req.status, 0);
    cr_expect_str_eq(fx.req.error, curl_easy_strerror(CURLE_OPERATION_TIMEDOUT));
}
