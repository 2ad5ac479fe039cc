/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-soak-client: keeps a fixed number of requests in flight against a
 * router for as long as it runs. Closed loop: every answer starts the next
 * request, so a fault that slows the fleet slows the load instead of piling
 * it up. The mix: streamed and whole answers, chat and text completions,
 * session turns that grow on a tenant's shared system prompt, one-off
 * prompts from a few tokens to many thousands, and a few requests the client
 * gives up on early.
 *
 * Every answer falls into exactly one kind (see kind_names); a request that
 * never got a status line is lost. The counters are rewritten to --stats
 * every second as one JSON line, and printed on stdout at exit.
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
#include "common/rng.h"
#include "common/clock.h"
#include "common/options.h"

/* Tokens per hash id: the router's and the simulator's 64-byte prefix block. */
#define SOAK_BLOCK_TOKENS 16u

typedef enum {
    KIND_OK,
    KIND_GAVE_UP, /* the client's own early timeout: planned, not an error */
    KIND_HTTP_4XX,
    KIND_HTTP_5XX,
    KIND_HTTP_OTHER,   /* 1xx or 3xx as a final status */
    KIND_STREAM_ERROR, /* a 2xx stream that carried an error event */
    KIND_CUT,          /* a 2xx answer whose connection broke before its end */
    KIND_NO_DONE,      /* a 2xx stream that ended cleanly without data: [DONE], or with no body */
    KIND_SHORT,        /* a complete answer with fewer tokens than asked */
    KIND_BAD_BODY,     /* a 2xx whole answer that is empty, not a completion or an error; a
                         stream request answered by something other than an event stream */
    KIND_STALLED,      /* a status arrived, then nothing until the client's timeout */
    KIND_LOST_TIMEOUT, /* no status line until the client's timeout */
    KIND_LOST_CLOSED,  /* no status line: refused, reset or closed without an answer */
    KIND_LOST_PENDING, /* still unanswered when the drain at exit ended */
    KIND_COUNT
} soak_kind_t;

static const char *const kind_names[KIND_COUNT] = {
    "ok",      "gave_up", "http_4xx", "http_5xx", "http_other",   "stream_error", "cut",
    "no_done", "short",   "bad_body", "stalled",  "lost_timeout", "lost_closed",  "lost_pending",
};

typedef struct {
    const char *url, *stats_path, *records_path, *model;
    long concurrency, tenants, sessions, system_tokens, user_tokens, output_tokens, output_max,
        prompt_max, turns_max, oneoff_tokens, timeout_s, drain_s, failure_pause_ms;
    double duration_s, stream_fraction, text_fraction, oneoff_fraction, give_up_fraction, sigma;
    uint64_t seed;
} soak_options_t;

typedef struct {
    uint64_t *ids;
    size_t n_ids, cap;
    long turn;
    unsigned generation;
    int tenant;
} soak_session_t;

typedef struct soak_state_s soak_state_t;

/* One of the --concurrency places a request runs in, reused when it ends. */
typedef struct {
    kvr_replay_req_t req;
    kvr_trace_request_t tr; /* what the record writer needs */
    char session_id[48];
    char url[512];
    bool busy, stream, give_up;
    uint64_t not_before_ns; /* after a failure: a client backs off before its next request */
    soak_state_t *state;
} soak_slot_t;

struct soak_state_s {
    soak_options_t opt;
    uv_loop_t *loop;
    kvr_client_t *client;
    uv_timer_t refill_timer, stats_timer, stop_timer, drain_timer;
    uv_signal_t sigint, sigterm, sigusr1, sigusr2;
    soak_slot_t *slots;
    soak_session_t *sessions;
    kvr_rng_t rng;
    FILE *records;
    uint64_t start_ns, seq, sent, answered, by_kind[KIND_COUNT], by_status[600];
    uint64_t last_log_ns[KIND_COUNT],
        unlogged[KIND_COUNT]; /* failure lines: one per kind a second */
    size_t inflight;
    bool paused, stopping, drain_expired, closed;
    const char *timeout_text;
};

static long clamp_long(double v, long lo, long hi)
{
    if (!(v >= (double)lo))
        return lo;
    return v > (double)hi ? hi : (long)v;
}

static uint64_t fresh_id(soak_state_t *s)
{
    /* Below 2^53 and above the tenants' ids, so trace text never collides with a prefix. */
    return (1ull << 52) | (kvr_rng_next(&s->rng) >> 12);
}

static int session_append(soak_session_t *ss, uint64_t id)
{
    if (ss->n_ids == ss->cap) {
        size_t cap = ss->cap ? ss->cap * 2 : 64;
        uint64_t *ids = realloc(ss->ids, cap * sizeof(*ids));
        if (!ids)
            return -ENOMEM;
        ss->ids = ids;
        ss->cap = cap;
    }
    ss->ids[ss->n_ids++] = id;
    return 0;
}

static long draw_tokens(soak_state_t *s, long median, long max)
{
    return clamp_long(kvr_rng_lognormal(&s->rng, (double)median, s->opt.sigma), 1, max);
}

/* The next prompt of a session: its tenant's system prompt, then every turn's message so far. */
static int session_turn(soak_state_t *s, soak_session_t *ss)
{
    long user_blocks = (draw_tokens(s, s->opt.user_tokens, s->opt.prompt_max) + SOAK_BLOCK_TOKENS -
                        1) /
                       SOAK_BLOCK_TOKENS;
    if (ss->turn >= s->opt.turns_max ||
        (long)(ss->n_ids + (size_t)user_blocks) * (long)SOAK_BLOCK_TOKENS > s->opt.prompt_max) {
        ss->n_ids = 0;
        ss->turn = 0;
        ss->generation++;
    }
    if (ss->turn == 0) {
        long sys_blocks = s->opt.system_tokens / SOAK_BLOCK_TOKENS;
        for (long b = 0; b < sys_blocks; b++)
            if (session_append(ss, ((uint64_t)(ss->tenant + 1) << 40) | (uint64_t)b))
                return -ENOMEM;
    }
    for (long b = 0;
         b < user_blocks && (long)(ss->n_ids + 1) * (long)SOAK_BLOCK_TOKENS <= s->opt.prompt_max;
         b++)
        if (session_append(ss, fresh_id(s)))
            return -ENOMEM;
    ss->turn++;
    return 0;
}

static char *build_body(soak_state_t *s, soak_slot_t *slot, bool text, size_t *len)
{
    const kvr_trace_request_t *tr = &slot->tr;
    size_t text_len = kvr_trace_text_len(tr);
    char *prompt = malloc(text_len + 1);
    if (!prompt)
        return NULL;
    kvr_trace_text(tr, SOAK_BLOCK_TOKENS, slot->req.index, prompt);
    prompt[text_len] = '\0';
    cJSON *body = cJSON_CreateObject();
    cJSON *content = cJSON_CreateStringReference(prompt);
    bool ok = body && content && cJSON_AddStringToObject(body, "model", s->opt.model) != NULL;
    if (text) {
        ok = ok && cJSON_AddItemToObject(body, "prompt", content);
    } else {
        cJSON *msg = cJSON_CreateObject();
        if (ok && cJSON_AddItemToArray(cJSON_AddArrayToObject(body, "messages"), msg)) {
            ok = cJSON_AddStringToObject(msg, "role", "user") &&
                 cJSON_AddItemToObject(msg, "content", content);
        } else {
            cJSON_Delete(msg);
            ok = false;
        }
    }
    if (!ok)
        cJSON_Delete(content); /* a reference: this frees the node, not the prompt */
    ok = ok && cJSON_AddNumberToObject(body, "max_tokens", tr->output_length);
    ok = ok && cJSON_AddTrueToObject(body, "ignore_eos");
    ok = ok && cJSON_AddBoolToObject(body, "stream", slot->stream);
    if (slot->stream)
        ok = ok && cJSON_AddTrueToObject(cJSON_AddObjectToObject(body, "stream_options"),
                                         "include_usage");
    char *out = ok ? cJSON_PrintUnformatted(body) : NULL;
    cJSON_Delete(body);
    free(prompt);
    if (out)
        *len = strlen(out);
    return out;
}

static int start_slot(soak_state_t *s, soak_slot_t *slot)
{
    kvr_replay_req_t *r = &slot->req;
    kvr_trace_request_t *tr = &slot->tr;
    memset(r, 0, sizeof(*r));
    memset(tr, 0, sizeof(*tr));
    r->index = (size_t)s->seq;
    tr->turn = -1;
    slot->session_id[0] = '\0';
    if (kvr_rng_uniform(&s->rng) < s->opt.oneoff_fraction) {
        /* No hash ids: the whole prompt is text private to this request. */
        tr->input_length = (uint32_t)draw_tokens(s, s->opt.oneoff_tokens, s->opt.prompt_max);
    } else {
        long k = (long)(kvr_rng_next(&s->rng) % (uint64_t)s->opt.sessions);
        soak_session_t *ss = &s->sessions[k];
        if (session_turn(s, ss))
            return -ENOMEM;
        tr->hash_ids = ss->ids;
        tr->n_hash_ids = ss->n_ids;
        tr->input_length = (uint32_t)(ss->n_ids * SOAK_BLOCK_TOKENS);
        tr->turn = (int32_t)(ss->turn - 1);
        snprintf(slot->session_id, sizeof(slot->session_id), "s%ld-%u", k, ss->generation);
        tr->session_id = slot->session_id;
    }
    tr->output_length = (uint32_t)draw_tokens(s, s->opt.output_tokens, s->opt.output_max);
    slot->stream = kvr_rng_uniform(&s->rng) < s->opt.stream_fraction;
    bool text = kvr_rng_uniform(&s->rng) < s->opt.text_fraction;
    slot->give_up = kvr_rng_uniform(&s->rng) < s->opt.give_up_fraction;
    snprintf(slot->url, sizeof(slot->url), "%s%s", s->opt.url,
             text ? "/v1/completions" : "/v1/chat/completions");
    r->url = slot->url;
    r->body = build_body(s, slot, text, &r->body_len);
    /* The session's ids may move when it grows: the record only needs the count. */
    tr->hash_ids = NULL;
    if (!r->body)
        return -ENOMEM;
    if (slot->give_up)
        r->timeout_ms = 200 + (long)(kvr_rng_next(&s->rng) % 2800);
    char hdr[128];
    r->headers = curl_slist_append(NULL, "Content-Type: application/json");
    r->headers = curl_slist_append(r->headers, "Expect:");
    snprintf(hdr, sizeof(hdr), "X-Request-ID: soak-%llu", (unsigned long long)s->seq);
    r->headers = curl_slist_append(r->headers, hdr);
    if (slot->session_id[0]) {
        snprintf(hdr, sizeof(hdr), "X-Session-ID: %s", slot->session_id);
        r->headers = curl_slist_append(r->headers, hdr);
    }
    r->user = slot;
    int rc = kvr_client_start(s->client, r);
    if (rc) {
        free(r->body);
        curl_slist_free_all(r->headers);
        return rc;
    }
    slot->busy = true;
    s->seq++;
    s->sent++;
    s->inflight++;
    return 0;
}

static soak_kind_t classify(const soak_state_t *s, const soak_slot_t *slot)
{
    const kvr_replay_req_t *r = &slot->req;
    bool timed_out = strcmp(r->error, s->timeout_text) == 0;
    if (s->drain_expired && strcmp(r->error, "cancelled") == 0)
        return r->status ? KIND_STALLED : KIND_LOST_PENDING;
    if (slot->give_up && timed_out)
        return KIND_GAVE_UP;
    if (r->status == 0)
        return timed_out ? KIND_LOST_TIMEOUT : KIND_LOST_CLOSED;
    if (r->status >= 500)
        return KIND_HTTP_5XX;
    if (r->status >= 400)
        return KIND_HTTP_4XX;
    if (r->status < 200 || r->status >= 300)
        return KIND_HTTP_OTHER;
    if (strncmp(r->error, "stream error:", 13) == 0)
        return KIND_STREAM_ERROR;
    if (timed_out)
        return KIND_STALLED;
    /* whole_body reports only on a body that arrived in full: any other error is the transport's */
    if (r->error[0] && !r->whole_body)
        return KIND_CUT;
    if (slot->stream) {
        /* a clean end with nothing, or with a stream short of [DONE], is the same lie */
        if (!r->first_byte_ns || (r->event_stream && !r->saw_done))
            return KIND_NO_DONE;
        if (!r->event_stream)
            return KIND_BAD_BODY;
    } else if (r->error[0] || !r->content_chunks) {
        return KIND_BAD_BODY;
    }
    if (!r->content_chunks)
        return KIND_SHORT;
    if (r->completion_tokens >= 0 && r->completion_tokens < (long)slot->tr.output_length)
        return KIND_SHORT;
    return KIND_OK;
}

static void write_stats(soak_state_t *s, FILE *f)
{
    uint64_t failed = 0, lost = s->by_kind[KIND_LOST_TIMEOUT] + s->by_kind[KIND_LOST_CLOSED] +
                                s->by_kind[KIND_LOST_PENDING];
    for (int k = KIND_HTTP_4XX; k < KIND_COUNT; k++)
        failed += s->by_kind[k];
    fprintf(
        f,
        "{\"t\":%.1f,\"paused\":%d,\"sent\":%llu,\"answered\":%llu,\"inflight\":%zu,\"ok\":%llu,"
        "\"gave_up\":%llu,\"failed\":%llu,\"lost\":%llu,\"kinds\":{",
        (double)(kvr_clock_now_ns() - s->start_ns) / 1e9, s->paused || s->stopping,
        (unsigned long long)s->sent, (unsigned long long)s->answered, s->inflight,
        (unsigned long long)s->by_kind[KIND_OK], (unsigned long long)s->by_kind[KIND_GAVE_UP],
        (unsigned long long)failed, (unsigned long long)lost);
    for (int k = 0; k < KIND_COUNT; k++)
        fprintf(f, "%s\"%s\":%llu", k ? "," : "", kind_names[k], (unsigned long long)s->by_kind[k]);
    fputs("},\"status\":{", f);
    bool first = true;
    for (int c = 0; c < 600; c++)
        if (s->by_status[c]) {
            fprintf(f, "%s\"%d\":%llu", first ? "" : ",", c, (unsigned long long)s->by_status[c]);
            first = false;
        }
    fputs("}}\n", f);
}

static void stats_cb(uv_timer_t *t)
{
    soak_state_t *s = t->data;
    if (!s->opt.stats_path)
        return;
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", s->opt.stats_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    write_stats(s, f);
    /* A reader sees the old line or the new one, never half of one. */
    if (fclose(f) == 0)
        rename(tmp, s->opt.stats_path);
}

static void close_all(soak_state_t *s)
{
    if (s->closed)
        return;
    s->closed = true;
    stats_cb(&s->stats_timer);
    uv_handle_t *handles[] = {
        (uv_handle_t *)&s->refill_timer, (uv_handle_t *)&s->stats_timer,
        (uv_handle_t *)&s->stop_timer,   (uv_handle_t *)&s->drain_timer,
        (uv_handle_t *)&s->sigint,       (uv_handle_t *)&s->sigterm,
        (uv_handle_t *)&s->sigusr1,      (uv_handle_t *)&s->sigusr2,
    };
    for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); i++)
        uv_close(handles[i], NULL);
    kvr_client_destroy(s->client);
    s->client = NULL;
}

static void refill_cb(uv_timer_t *t)
{
    soak_state_t *s = t->data;
    if (s->stopping) {
        if (s->inflight == 0)
            close_all(s);
        return;
    }
    uint64_t now = kvr_clock_now_ns(), next_due = UINT64_MAX;
    for (long i = 0; i < s->opt.concurrency && !s->paused; i++) {
        soak_slot_t *slot = &s->slots[i];
        if (slot->busy)
            continue;
        if (slot->not_before_ns > now) {
            if (slot->not_before_ns < next_due)
                next_due = slot->not_before_ns;
            continue;
        }
        int rc = start_slot(s, slot);
        if (rc) {
            fprintf(stderr, "kvroute-soak-client: a request could not start: %s\n", strerror(-rc));
            /* Try again shortly rather than spin. */
            uv_timer_start(&s->refill_timer, refill_cb, 100, 0);
            return;
        }
    }
    if (next_due != UINT64_MAX && !s->paused)
        uv_timer_start(&s->refill_timer, refill_cb, (next_due - now) / KVR_NS_PER_MS + 1, 0);
}

static void request_done(kvr_replay_req_t *r, void *arg)
{
    soak_state_t *s = arg;
    soak_slot_t *slot = r->user;
    soak_kind_t kind = classify(s, slot);
    s->by_kind[kind]++;
    if (r->status > 0 && r->status < 600)
        s->by_status[r->status]++;
    s->answered++;
    s->inflight--;
    slot->busy = false;
    if (s->records) {
        kvr_replay_result_t res = {.req = *r, .sent = true, .finished = true};
        res.send_rel_ms = res.due_rel_ms = (double)(r->send_ns - s->start_ns) / 1e6;
        kvr_replay_write_record(s->records, &slot->tr, &res, "soak", s->start_ns);
    }
    if (kind != KIND_OK && kind != KIND_GAVE_UP) {
        slot->not_before_ns = r->end_ns + (uint64_t)s->opt.failure_pause_ms * KVR_NS_PER_MS;
        /* A fleet that is all down fails fast: one line per kind a second says enough. */
        if (r->end_ns - s->last_log_ns[kind] >= KVR_NS_PER_SEC) {
            fprintf(stderr, "kvroute-soak-client: request %zu %s: %s", r->index, kind_names[kind],
                    r->error[0] ? r->error : "(no error text)");
            if (s->unlogged[kind])
                fprintf(stderr, " (and %llu more %s since the last such line)",
                        (unsigned long long)s->unlogged[kind], kind_names[kind]);
            fputc('\n', stderr);
            s->last_log_ns[kind] = r->end_ns;
            s->unlogged[kind] = 0;
        } else {
            s->unlogged[kind]++;
        }
    }
    /* Started from the loop, not from inside the client's callback. */
    if (!s->closed)
        uv_timer_start(&s->refill_timer, refill_cb, 0, 0);
}

static void drain_expired_cb(uv_timer_t *t)
{
    soak_state_t *s = t->data;
    fprintf(stderr, "kvroute-soak-client: drain ended with %zu requests unanswered\n", s->inflight);
    s->drain_expired = true;
    kvr_client_cancel_all(s->client);
    close_all(s);
}

static void begin_stop(soak_state_t *s, const char *why)
{
    if (s->stopping) {
        if (!s->drain_expired)
            drain_expired_cb(&s->drain_timer);
        return;
    }
    fprintf(stderr, "kvroute-soak-client: %s; waiting for %zu requests in flight (at most %ld s)\n",
            why, s->inflight, s->opt.drain_s);
    s->stopping = true;
    uv_timer_stop(&s->stop_timer);
    uv_timer_start(&s->drain_timer, drain_expired_cb, (uint64_t)s->opt.drain_s * 1000, 0);
    uv_timer_start(&s->refill_timer, refill_cb, 0, 0);
}

static void stop_cb(uv_timer_t *t)
{
    begin_stop(t->data, "duration reached");
}

static void signal_cb(uv_signal_t *sig, int signum)
{
    soak_state_t *s = sig->data;
    if (signum == SIGUSR1) {
        s->paused = true;
        fprintf(stderr, "kvroute-soak-client: paused with %zu requests in flight\n", s->inflight);
    } else if (signum == SIGUSR2) {
        s->paused = false;
        refill_cb(&s->refill_timer); /* at once, so the stats below count the new requests */
    } else {
        begin_stop(s, s->stopping ? "second signal, cancelling" : "signal");
    }
    stats_cb(&s->stats_timer);
}

static const char usage_text[] =
    "Usage: kvroute-soak-client --url BASE [options]\n"
    "Keeps --concurrency requests in flight against a router (closed loop: each answer\n"
    "starts the next), mixing streamed and whole answers, chat and text completions,\n"
    "growing session prompts on shared tenant prefixes and one-off prompts. Every\n"
    "answer is counted by kind; one with no status line at all is lost.\n\n";

static const char usage_tail[] =
    "\nSignals: SIGUSR1 pauses (no new requests), SIGUSR2 resumes, SIGTERM/SIGINT stop after\n"
    "the drain (a second one cancels what is left).\n"
    "Exit status: 0 when no request was lost, 1 when some were, 2 on bad usage.\n";

#define T soak_options_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, url, "url", "BASE", NULL,
                       "the router, e.g. http://127.0.0.1:8080 (paths are added); required"),
    KVR_OPT_ROW_INT(T, concurrency, "concurrency", "N", "32", 1, 100000, "requests in flight"),
    KVR_OPT_ROW_DOUBLE(T, duration_s, "duration-s", "S", "0", 0, 10000000,
                       "stop after S seconds; 0 = at SIGTERM/SIGINT"),
    KVR_OPT_ROW_DOUBLE(T, stream_fraction, "stream-fraction", "X", "0.75", 0, 1,
                       "share of streamed requests"),
    KVR_OPT_ROW_DOUBLE(T, text_fraction, "text-fraction", "X", "0.1", 0, 1,
                       "share sent to /v1/completions instead of chat"),
    KVR_OPT_ROW_DOUBLE(T, oneoff_fraction, "oneoff-fraction", "X", "0.2", 0, 1,
                       "share of one-off prompts outside any session"),
    KVR_OPT_ROW_DOUBLE(T, give_up_fraction, "give-up-fraction", "X", "0.02", 0, 1,
                       "share the client abandons after 0.2-3 s"),
    KVR_OPT_ROW_INT(T, tenants, "tenants", "N", "4", 1, 1000000,
                    "tenants, each with one shared system prompt"),
    KVR_OPT_ROW_INT(T, sessions, "sessions", "N", "64", 1, 1000000,
                    "sessions turns are drawn from"),
    KVR_OPT_ROW_INT(T, system_tokens, "system-tokens", "N", "1024", 0, 1 << 22,
                    "system prompt length in tokens"),
    KVR_OPT_ROW_INT(T, user_tokens, "user-tokens", "N", "200", 1, 1 << 22,
                    "median message a turn appends, in tokens"),
    KVR_OPT_ROW_INT(T, turns_max, "turns-max", "N", "8", 1, 1000000,
                    "a session starts again after N turns"),
    KVR_OPT_ROW_INT(T, oneoff_tokens, "oneoff-tokens", "N", "256", 1, 1 << 22,
                    "median one-off prompt in tokens"),
    KVR_OPT_ROW_INT(T, prompt_max, "prompt-max", "N", "16384", 16, 1 << 22,
                    "longest prompt in tokens"),
    KVR_OPT_ROW_INT(T, output_tokens, "output-tokens", "N", "48", 1, 1 << 20,
                    "median max_tokens (capped at --output-max)"),
    KVR_OPT_ROW_INT(T, output_max, "output-max", "N", "512", 1, 1 << 20, "largest max_tokens"),
    KVR_OPT_ROW_DOUBLE(T, sigma, "length-sigma", "X", "1.0", 0, 4,
                       "lognormal shape of every length"),
    KVR_OPT_ROW_INT(T, timeout_s, "timeout-s", "S", "120", 1, 86400,
                    "a request unanswered this long is given up"),
    KVR_OPT_ROW_INT(T, drain_s, "drain-s", "S", NULL, 0, 86400,
                    "at stop, wait this long for requests in flight (default: --timeout-s + 5)"),
    KVR_OPT_ROW_INT(T, failure_pause_ms, "failure-pause-ms", "N", "100", 0, 600000,
                    "after a failed request its place waits N ms before the next"),
    KVR_OPT_ROW_STRPTR(T, stats_path, "stats", "FILE", NULL,
                       "rewrite the counters here every second (one JSON line)"),
    KVR_OPT_ROW_STRPTR(T, records_path, "records", "FILE", NULL,
                       "one JSON line per request (kvroute-replay's record format)"),
    KVR_OPT_ROW_STRPTR(T, model, "model", "NAME", "sim-30b-a3b",
                       "model field of each request (kvroute-sim serves sim-30b-a3b)"),
    KVR_OPT_ROW_U64(T, seed, "seed", "N", "1", 0, 9007199254740991ull, "seed of every draw"),
    KVR_OPT_ROW_HELP,
};
#undef T

/* 0 to run, 1 when --help was printed, -EINVAL after a one-line error on stderr. */
static int parse_options(int argc, char **argv, soak_options_t *o)
{
    *o = (soak_options_t){.drain_s = -1};
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-soak-client", .head = usage_text, .tail = usage_tail};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc;
    if (!o->url) {
        fprintf(stderr, "kvroute-soak-client: --url is required (see --help)\n");
        return -EINVAL;
    }
    if (o->drain_s < 0)
        o->drain_s = o->timeout_s + 5;
    if (o->output_tokens > o->output_max)
        o->output_tokens = o->output_max;
    return 0;
}

static void init_signal(soak_state_t *s, uv_signal_t *h, int signum)
{
    uv_signal_init(s->loop, h);
    h->data = s;
    uv_signal_start(h, signal_cb, signum);
}

int main(int argc, char **argv)
{
    static soak_state_t s;
    int parsed = parse_options(argc, argv, &s.opt);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (s.opt.records_path && !(s.records = fopen(s.opt.records_path, "w"))) {
        fprintf(stderr, "kvroute-soak-client: cannot write %s: %s\n", s.opt.records_path,
                strerror(errno));
        return 2;
    }
    s.slots = calloc((size_t)s.opt.concurrency, sizeof(*s.slots));
    s.sessions = calloc((size_t)s.opt.sessions, sizeof(*s.sessions));
    if (!s.slots || !s.sessions || curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "kvroute-soak-client: out of memory at start\n");
        return 1;
    }
    kvr_rng_seed(&s.rng, s.opt.seed);
    for (long i = 0; i < s.opt.sessions; i++)
        s.sessions[i].tenant = (int)(i % s.opt.tenants);
    s.timeout_text = curl_easy_strerror(CURLE_OPERATION_TIMEDOUT);
    s.loop = uv_default_loop();
    s.start_ns = kvr_clock_now_ns();
    int rc = kvr_client_create(&s.client, s.loop, s.opt.timeout_s * 1000, "X-Kvroute-Engine",
                               request_done, &s);
    if (rc) {
        fprintf(stderr, "kvroute-soak-client: %s\n", strerror(-rc));
        return 1;
    }
    uv_timer_t *timers[] = {&s.refill_timer, &s.stats_timer, &s.stop_timer, &s.drain_timer};
    for (size_t i = 0; i < sizeof(timers) / sizeof(timers[0]); i++) {
        uv_timer_init(s.loop, timers[i]);
        timers[i]->data = &s;
    }
    init_signal(&s, &s.sigint, SIGINT);
    init_signal(&s, &s.sigterm, SIGTERM);
    init_signal(&s, &s.sigusr1, SIGUSR1);
    init_signal(&s, &s.sigusr2, SIGUSR2);
    uv_timer_start(&s.stats_timer, stats_cb, 1000, 1000);
    if (s.opt.duration_s > 0)
        uv_timer_start(&s.stop_timer, stop_cb, (uint64_t)(s.opt.duration_s * 1000), 0);
    uv_timer_start(&s.refill_timer, refill_cb, 0, 0);
    uv_run(s.loop, UV_RUN_DEFAULT);
    if (uv_loop_close(s.loop) != 0)
        fprintf(stderr, "kvroute-soak-client: event loop closed with handles open\n");
    write_stats(&s, stdout);
    if (s.records && fclose(s.records) != 0)
        fprintf(stderr, "kvroute-soak-client: writing %s failed\n", s.opt.records_path);
    uint64_t lost = s.by_kind[KIND_LOST_TIMEOUT] + s.by_kind[KIND_LOST_CLOSED] +
                    s.by_kind[KIND_LOST_PENDING];
    for (long i = 0; i < s.opt.sessions; i++)
        free(s.sessions[i].ids);
    free(s.sessions);
    free(s.slots);
    curl_global_cleanup();
    return lost ? 1 : 0;
}
