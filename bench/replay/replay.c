/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-replay: sends a trace to an OpenAI-compatible endpoint, open-loop
 * at the trace's timestamps (or closed-loop per session), streaming, and
 * records one JSON line per request and a summary.
 *
 * Open-loop is the default because a router that makes engines slower must
 * not be rewarded with fewer requests: arrivals do not wait for answers.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/replay/client.h"
#include "bench/replay/replay.h"
#include "bench/replay/trace.h"
#include "common/clock.h"
#include "common/options.h"

typedef struct {
    const char *url, *first_turn_url, *trace_path, *out_path, *model, *run_id;
    const char *session_header, *engine_header;
    double speed, duration_s, think_ms;
    uint64_t limit, max_inflight, timeout_s;
    unsigned block_size;
    bool closed_loop, quiet;
} rp_options_t;

/* Min-heap of (due time, trace index): the next request to send. */
typedef struct {
    uint64_t due_ns;
    size_t index;
} rp_due_t;

typedef struct {
    rp_options_t opt;
    kvr_trace_t trace;
    uv_loop_t *loop;
    kvr_client_t *client;
    uv_timer_t send_timer, progress_timer;
    uv_signal_t sigint, sigterm;
    rp_due_t *heap;
    size_t heap_len;
    size_t *next_in_session; /* closed loop: the session's next request, SIZE_MAX at the end */
    kvr_replay_result_t *results;
    size_t n_selected, sent, done, errors;
    uint64_t start_ns, first_ts_ms;
    FILE *out;
    bool stopping, tty;
} rp_state_t;

static void heap_push(rp_state_t *s, uint64_t due_ns, size_t index)
{
    size_t i = s->heap_len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (s->heap[parent].due_ns < due_ns ||
            (s->heap[parent].due_ns == due_ns && s->heap[parent].index < index))
            break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = (rp_due_t){due_ns, index};
}

static rp_due_t heap_pop(rp_state_t *s)
{
    rp_due_t top = s->heap[0], last = s->heap[--s->heap_len];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const rp_due_t *best = &last;
        if (l < s->heap_len &&
            (s->heap[l].due_ns < best->due_ns ||
             (s->heap[l].due_ns == best->due_ns && s->heap[l].index < best->index))) {
            m = l;
            best = &s->heap[l];
        }
        if (r < s->heap_len &&
            (s->heap[r].due_ns < best->due_ns ||
             (s->heap[r].due_ns == best->due_ns && s->heap[r].index < best->index)))
            m = r;
        if (m == i)
            break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    if (s->heap_len)
        s->heap[i] = last;
    return top;
}

static void maybe_finish(rp_state_t *s);
static void arm_send_timer(rp_state_t *s);

static char *build_body(const rp_state_t *s, const kvr_trace_request_t *tr, size_t index,
                        size_t *len)
{
    size_t text_len = kvr_trace_text_len(tr);
    char *text = malloc(text_len + 1);
    if (!text)
        return NULL;
    kvr_trace_text(tr, s->opt.block_size, index, text);
    text[text_len] = '\0';
    /* The prompt (up to 64 MB) goes into the tree by reference, not as a copy. */
    cJSON *body = cJSON_CreateObject(), *msg = cJSON_CreateObject();
    cJSON *content = cJSON_CreateStringReference(text);
    bool ok = cJSON_AddStringToObject(body, "model", s->opt.model) != NULL;
    if (!cJSON_AddItemToArray(cJSON_AddArrayToObject(body, "messages"), msg)) {
        cJSON_Delete(msg);
        msg = NULL;
        ok = false;
    }
    ok = cJSON_AddStringToObject(msg, "role", "user") && ok;
    if (!cJSON_AddItemToObject(msg, "content", content)) {
        cJSON_Delete(content);
        ok = false;
    }
    ok = cJSON_AddNumberToObject(body, "max_tokens", tr->output_length ? tr->output_length : 1) &&
         ok;
    ok = cJSON_AddTrueToObject(body, "stream") && ok;
    ok = cJSON_AddTrueToObject(body, "ignore_eos") && ok;
    ok = cJSON_AddTrueToObject(cJSON_AddObjectToObject(body, "stream_options"), "include_usage") &&
         ok;
    /* No allocator hooks are installed in this program, so the text is malloc'd and the
     * client frees it with free(). */
    char *out = ok ? cJSON_PrintUnformatted(body) : NULL;
    cJSON_Delete(body);
    free(text);
    if (out)
        *len = strlen(out);
    return out;
}

static int send_one(rp_state_t *s, size_t index)
{
    const kvr_trace_request_t *tr = &s->trace.requests[index];
    kvr_replay_result_t *res = &s->results[index];
    kvr_replay_req_t *r = &res->req;
    memset(r, 0, sizeof(*r));
    r->index = index;
    r->url = (s->opt.first_turn_url && tr->turn == 0) ? s->opt.first_turn_url : s->opt.url;
    r->body = build_body(s, tr, index, &r->body_len);
    if (!r->body)
        return -ENOMEM;
    char hdr[512];
    r->headers = curl_slist_append(NULL, "Content-Type: application/json");
    r->headers = curl_slist_append(r->headers, "Accept: text/event-stream");
    /* Bodies past 1 MB would otherwise wait for a 100-continue round trip. */
    r->headers = curl_slist_append(r->headers, "Expect:");
    snprintf(hdr, sizeof(hdr), "X-Request-ID: %s-%zu", s->opt.run_id, index);
    r->headers = curl_slist_append(r->headers, hdr);
    if (tr->session_id && s->opt.session_header[0]) {
        snprintf(hdr, sizeof(hdr), "%s: %s", s->opt.session_header, tr->session_id);
        r->headers = curl_slist_append(r->headers, hdr);
    }
    int rc = kvr_client_start(s->client, r);
    if (rc) {
        free(r->body);
        curl_slist_free_all(r->headers);
        return rc;
    }
    res->sent = true;
    res->send_rel_ms = (double)(r->send_ns - s->start_ns) / 1e6;
    s->sent++;
    return 0;
}

static void send_due(uv_timer_t *t)
{
    rp_state_t *s = t->data;
    uint64_t now = kvr_clock_now_ns();
    while (!s->stopping && s->heap_len && s->heap[0].due_ns <= now &&
           kvr_client_inflight(s->client) < (size_t)s->opt.max_inflight) {
        rp_due_t d = heap_pop(s);
        s->results[d.index].due_rel_ms = (double)(d.due_ns - s->start_ns) / 1e6;
        int rc = send_one(s, d.index);
        if (rc) {
            fprintf(stderr, "kvroute-replay: request %zu not sent: %s\n", d.index, strerror(-rc));
            s->errors++;
        }
    }
    arm_send_timer(s);
    maybe_finish(s);
}

static void arm_send_timer(rp_state_t *s)
{
    if (s->stopping || !s->heap_len ||
        kvr_client_inflight(s->client) >= (size_t)s->opt.max_inflight) {
        uv_timer_stop(&s->send_timer);
        return;
    }
    uint64_t now = kvr_clock_now_ns(), due = s->heap[0].due_ns;
    uint64_t wait_ms = due > now ? (due - now + KVR_NS_PER_MS - 1) / KVR_NS_PER_MS : 0;
    uv_timer_start(&s->send_timer, send_due, wait_ms, 0);
}

static void request_done(kvr_replay_req_t *r, void *arg)
{
    rp_state_t *s = arg;
    kvr_replay_result_t *res = &s->results[r->index];
    res->finished = true;
    s->done++;
    if (!kvr_replay_result_ok(res))
        s->errors++;
    if (s->out)
        kvr_replay_write_record(s->out, &s->trace.requests[r->index], res, s->opt.run_id,
                                s->start_ns);
    /* Closed loop: the session's next turn goes out think_ms after this answer. */
    if (s->next_in_session && s->next_in_session[r->index] != SIZE_MAX && !s->stopping)
        heap_push(s, r->end_ns + (uint64_t)(s->opt.think_ms * 1e6), s->next_in_session[r->index]);
    arm_send_timer(s);
    maybe_finish(s);
}

static void progress_cb(uv_timer_t *t)
{
    rp_state_t *s = t->data;
    fprintf(stderr, "\r%6.1f s  sent %zu/%zu  in flight %zu  done %zu  errors %zu   ",
            (double)(kvr_clock_now_ns() - s->start_ns) / 1e9, s->sent, s->n_selected,
            kvr_client_inflight(s->client), s->done, s->errors);
}

static void close_all(rp_state_t *s)
{
    uv_close((uv_handle_t *)&s->send_timer, NULL);
    uv_close((uv_handle_t *)&s->progress_timer, NULL);
    uv_close((uv_handle_t *)&s->sigint, NULL);
    uv_close((uv_handle_t *)&s->sigterm, NULL);
    kvr_client_destroy(s->client);
    s->client = NULL;
}

static void maybe_finish(rp_state_t *s)
{
    if (!s->client || kvr_client_inflight(s->client) > 0)
        return;
    if (s->heap_len && !s->stopping)
        return;
    if (s->tty)
        progress_cb(&s->progress_timer), fputc('\n', stderr);
    close_all(s);
}

static void signal_cb(uv_signal_t *sig, int signum)
{
    rp_state_t *s = sig->data;
    (void)signum;
    if (s->stopping)
        return;
    fprintf(stderr, "\nkvroute-replay: interrupted; cancelling %zu requests in flight\n",
            kvr_client_inflight(s->client));
    s->stopping = true;
    uv_timer_stop(&s->send_timer);
    kvr_client_cancel_all(s->client);
    maybe_finish(s);
}

/* Picks the requests to send and links each session's turns in order. */
static int select_requests(rp_state_t *s)
{
    size_t n = s->trace.len;
    if (s->opt.limit > 0 && (size_t)s->opt.limit < n)
        n = (size_t)s->opt.limit;
    s->first_ts_ms = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (s->trace.requests[i].timestamp_ms < s->first_ts_ms)
            s->first_ts_ms = s->trace.requests[i].timestamp_ms;
    s->heap = calloc(n ? n : 1, sizeof(*s->heap));
    s->results = calloc(s->trace.len ? s->trace.len : 1, sizeof(*s->results));
    if (!s->heap || !s->results)
        return -ENOMEM;
    if (s->opt.closed_loop) {
        s->next_in_session = malloc((n ? n : 1) * sizeof(size_t));
        if (!s->next_in_session)
            return -ENOMEM;
    }
    int rc = 0;
    size_t *last = s->opt.closed_loop
                       ? kvr_replay_link_sessions(&s->trace, n, s->next_in_session, &rc)
                       : NULL;
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const kvr_trace_request_t *tr = &s->trace.requests[i];
        double rel_ms = (double)(tr->timestamp_ms - s->first_ts_ms);
        if (s->opt.duration_s > 0 && rel_ms >= s->opt.duration_s * 1000.0)
            continue;
        s->n_selected++;
        /* Closed loop: only a session's first request is scheduled by time. */
        if (last && last[i] != SIZE_MAX)
            continue;
        heap_push(s, s->start_ns + (uint64_t)(rel_ms / s->opt.speed * 1e6), i);
    }
    if (last && s->opt.duration_s > 0) {
        /* Turns past the duration are dropped from the chains too. */
        for (size_t i = 0; i < n; i++) {
            size_t nx = s->next_in_session[i];
            if (nx != SIZE_MAX && (double)(s->trace.requests[nx].timestamp_ms - s->first_ts_ms) >=
                                      s->opt.duration_s * 1000.0)
                s->next_in_session[i] = SIZE_MAX;
        }
    }
    free(last);
    return 0;
}

static const char usage_text[] =
    "Usage: kvroute-replay --url URL --trace FILE [options]\n"
    "Replays a JSONL trace (timestamp ms, input_length, output_length, hash_ids, optional\n"
    "session_id and turn; Mooncake's published traces work as they are) as streaming chat\n"
    "completions with max_tokens = output_length and ignore_eos, open-loop at the trace's\n"
    "timestamps. Prompt text is derived from hash_ids: 4 bytes per token, block_size tokens\n"
    "per id, equal id prefixes give equal text prefixes.\n\n";

#define T rp_options_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, url, "url", "URL", NULL,
                       "endpoint, e.g. http://127.0.0.1:8080/v1/chat/completions"),
    KVR_OPT_ROW_STRPTR(T, trace_path, "trace", "FILE", NULL, "the trace to send"),
    KVR_OPT_ROW_STRPTR(T, out_path, "out", "FILE", NULL,
                       "one JSON line per request (written as each one finishes)"),
    KVR_OPT_ROW_DOUBLE(T, speed, "speed", "X", "1", 1e-6, 1e9, "time scale: 2 sends twice as fast"),
    KVR_OPT_ROW_DOUBLE(T, duration_s, "duration", "S", NULL, 0, 1e9,
                       "send only requests in the first S seconds of the trace"),
    KVR_OPT_ROW_U64(T, limit, "limit", "N", NULL, 1, INT64_MAX,
                    "send only the first N lines of the trace"),
    KVR_OPT_ROW_U64(T, max_inflight, "max-inflight", "N", "512", 1, INT32_MAX,
                    "at most N requests in flight; later ones wait"),
    KVR_OPT_ROW_BOOL(
        T, closed_loop, "closed-loop", NULL,
        "per session, send turn k+1 only after turn k finished (+ --think-ms); a session's first "
        "turn still goes at its timestamp"),
    KVR_OPT_ROW_DOUBLE(T, think_ms, "think-ms", "X", "0", 0, 1e9,
                       "closed loop: pause between an answer and the next turn"),
    KVR_OPT_ROW_STRPTR(
        T, first_turn_url, "first-turn-url", "URL", NULL,
        "send every session's turn 0 here instead of --url (to force a start state on one engine)"),
    KVR_OPT_ROW_U64(T, block_size, "block-size", "N", "512", 1, 1000000,
                    "tokens per hash id (512 is Mooncake's)"),
    KVR_OPT_ROW_STRPTR(T, model, "model", "NAME", "sim-30b-a3b",
                       "model field of each request (kvroute-sim serves sim-30b-a3b)"),
    KVR_OPT_ROW_STRPTR(T, run_id, "run-id", "TAG", "replay", "request ids are TAG-<trace index>"),
    KVR_OPT_ROW_STRPTR(T, session_header, "session-header", "H", "X-Session-ID",
                       "header carrying session_id (\"\" = none)"),
    KVR_OPT_ROW_STRPTR(T, engine_header, "engine-header", "H", "X-Kvroute-Engine",
                       "response header naming the engine"),
    KVR_OPT_ROW_U64(T, timeout_s, "timeout", "S", "600", 0, 31536000,
                    "per-request limit in seconds"),
    KVR_OPT_ROW_BOOL(T, quiet, "quiet", NULL, "no progress line and no summary"),
    KVR_OPT_ROW_HELP,
};
#undef T

static int parse_options(int argc, char **argv, rp_options_t *o)
{
    *o = (rp_options_t){0};
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-replay",
        .head = usage_text,
        .tail =
            "Exit status: 0 when every sent request succeeded, 1 when some failed, 2 on bad usage.\n"};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc == 1)
        exit(0);
    if (rc < 0)
        return rc;
    if (!o->url || !o->trace_path) {
        fprintf(stderr, "kvroute-replay: --url and --trace are required (see --help)\n");
        return -EINVAL;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static rp_state_t s;
    if (parse_options(argc, argv, &s.opt))
        return 2;
    char err[512];
    int rc = kvr_trace_load(&s.trace, s.opt.trace_path, err, sizeof(err));
    if (rc) {
        fprintf(stderr, "kvroute-replay: %s\n", err);
        return 2;
    }
    if (s.opt.out_path && !(s.out = fopen(s.opt.out_path, "w"))) {
        fprintf(stderr, "kvroute-replay: cannot write %s: %s\n", s.opt.out_path, strerror(errno));
        kvr_trace_free(&s.trace);
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "kvroute-replay: libcurl failed to initialise\n");
        return 1;
    }
    s.loop = uv_default_loop();
    s.tty = !s.opt.quiet && isatty(STDERR_FILENO);
    /* A short lead so the first requests are not late before the loop runs. */
    s.start_ns = kvr_clock_now_ns() + 50 * KVR_NS_PER_MS;
    if ((rc = select_requests(&s)) != 0 ||
        (rc = kvr_client_create(&s.client, s.loop, (long)s.opt.timeout_s * 1000,
                                s.opt.engine_header, request_done, &s)) != 0) {
        fprintf(stderr, "kvroute-replay: %s\n", strerror(-rc));
        return 1;
    }
    uv_timer_init(s.loop, &s.send_timer);
    s.send_timer.data = &s;
    uv_timer_init(s.loop, &s.progress_timer);
    s.progress_timer.data = &s;
    uv_signal_init(s.loop, &s.sigint);
    s.sigint.data = &s;
    uv_signal_start(&s.sigint, signal_cb, SIGINT);
    uv_signal_init(s.loop, &s.sigterm);
    s.sigterm.data = &s;
    uv_signal_start(&s.sigterm, signal_cb, SIGTERM);
    if (s.tty)
        uv_timer_start(&s.progress_timer, progress_cb, 500, 500);
    arm_send_timer(&s);
    maybe_finish(&s);
    uv_run(s.loop, UV_RUN_DEFAULT);
    int closed = uv_loop_close(s.loop);
    if (closed != 0)
        fprintf(stderr, "kvroute-replay: event loop closed with handles open\n");

    if (s.out && fclose(s.out) != 0)
        fprintf(stderr, "kvroute-replay: writing %s failed\n", s.opt.out_path);
    if (!s.opt.quiet)
        kvr_replay_print_summary(stdout, &s.trace, s.results, s.n_selected);
    int status = (s.errors || s.stopping) ? 1 : 0;
    free(s.heap);
    free(s.results);
    free(s.next_in_session);
    kvr_trace_free(&s.trace);
    curl_global_cleanup();
    return status;
}
