/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenAI-compatible surface as vLLM serves it: /v1/chat/completions and
 * /v1/completions (streamed as one SSE chunk per decode step, or whole),
 * /v1/models and /health, and SGLang's native /generate. Without --tokenizer the prompt is the
 * text the router also routes on (message contents in order, or prompt),
 * KVR_BYTES_PER_TOKEN bytes per token, cut into 64-byte blocks; with it, the model's tokens.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/sim/sim.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/prefix_hash.h"
#include "common/xmalloc.h"
#include "router/tokenizers.h"
#include "bench/sim/pd.h"

struct kvr_sim_call_s {
    kvr_sim_req_t mreq;
    kvr_sim_engine_t *engine;
    kvr_sim_rank_t *rank;
    kvr_http_req_t *http;
    kvr_sim_call_t *prev, *next;
    bool chat, stream, include_usage;
    bool native;         /* SGLang /generate: cumulative text, meta_info */
    bool pd_prefill;     /* kv_transfer_params asked for a remote decode: the KV's whereabouts */
    bool sglang_prefill; /* builds bootstrap room's KV: done at its first token */
    uint64_t room;
    kvr_sim_pd_wait_t *pd_wait; /* a decode waiting for its KV: not in the model yet */
    uint64_t created;
    uint64_t word_seed;
    char id[48];
    kvr_buf_t text; /* generated text of a non-streamed answer */
};

/* Output "tokens": plain words, so every chunk is valid JSON without escaping. */
static const char *const words[] = {
    "the",   "cache", "engine", "route", "token", "batch",  "prefix", "queue", "model", "fleet",
    "state", "feed",  "load",   "step",  "block", "hash",   "slot",   "spill", "owner", "peer",
    "fast",  "warm",  "cold",   "hot",   "idle",  "busy",   "first",  "next",  "last",  "agent",
    "turn",  "tool",  "call",   "plan",  "code",  "answer", "think",  "read",  "write", "test",
};
#define NWORDS (sizeof words / sizeof words[0])

static const char *word_at(const kvr_sim_call_t *c, uint32_t k)
{
    uint64_t z = c->word_seed + 0x9e3779b97f4a7c15ull * (k + 1);
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    return words[(z ^ (z >> 29)) % NWORDS];
}

/* ---- call lifetime ---- */

static void call_free(kvr_sim_call_t *c)
{
    kvr_sim_engine_t *e = c->engine;
    if (c->prev)
        c->prev->next = c->next;
    else
        e->calls = c->next;
    if (c->next)
        c->next->prev = c->prev;
    free(c->mreq.hashes);
    free((void *)c->mreq.block_tokens);
    kvr_buf_close(&c->text);
    free(c);
}

static void call_abort(kvr_http_req_t *req, void *arg)
{
    kvr_sim_call_t *c = arg;
    c->engine->requests_aborted++;
    if (c->pd_wait)
        kvr_sim_pd_wait_cancel(c->engine->fleet, c->pd_wait);
    else
        kvr_sim_model_cancel(&c->rank->model, &c->mreq);
    kvr_http_req_abandon(req);
    call_free(c);
}

void kvr_sim_calls_abort_all(kvr_sim_engine_t *e)
{
    while (e->calls)
        call_abort(e->calls->http, e->calls);
}

/* ---- output ---- */

static int usage_json(const kvr_sim_call_t *c, char *out, size_t cap)
{
    const kvr_sim_req_t *r = &c->mreq;
    return snprintf(out, cap,
                    "{\"prompt_tokens\":%u,\"total_tokens\":%u,\"completion_tokens\":%u,"
                    "\"prompt_tokens_details\":{\"cached_tokens\":%u}}",
                    r->prompt_tokens, r->prompt_tokens + r->generated, r->generated,
                    r->cached_tokens);
}

static void stream_chunk(kvr_sim_call_t *c, const char *word, bool last)
{
    const kvr_sim_fleet_t *fleet = c->engine->fleet;
    char buf[768];
    int n;
    const char *finish = last ? "\"length\"" : "null";
    if (c->chat) {
        n = snprintf(
            buf, sizeof buf,
            "data: {\"id\":\"%s\",\"object\":\"chat.completion.chunk\",\"created\":%" PRIu64
            ",\"model\":%s,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s%s\"},"
            "\"logprobs\":null,\"finish_reason\":%s%s}]}\n\n",
            c->id, c->created, fleet->model_json, c->mreq.generated > 1 ? " " : "", word, finish,
            last ? ",\"stop_reason\":null" : "");
    } else {
        n = snprintf(buf, sizeof buf,
                     "data: {\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%" PRIu64
                     ",\"model\":%s,\"choices\":[{\"index\":0,\"text\":\"%s%s\",\"logprobs\":null,"
                     "\"finish_reason\":%s,\"stop_reason\":null}]}\n\n",
                     c->id, c->created, fleet->model_json, c->mreq.generated > 1 ? " " : "", word,
                     finish);
    }
    kvr_http_stream_write(c->http, buf, (size_t)n);
}

static void stream_finish(kvr_sim_call_t *c)
{
    if (c->include_usage) {
        char usage[256], buf[768];
        usage_json(c, usage, sizeof usage);
        int n = snprintf(buf, sizeof buf,
                         "data: {\"id\":\"%s\",\"object\":\"%s\",\"created\":%" PRIu64
                         ",\"model\":%s,\"choices\":[],\"usage\":%s}\n\n",
                         c->id, c->chat ? "chat.completion.chunk" : "text_completion", c->created,
                         c->engine->fleet->model_json, usage);
        kvr_http_stream_write(c->http, buf, (size_t)n);
    }
    static const char done[] = "data: [DONE]\n\n";
    kvr_http_stream_write(c->http, done, sizeof done - 1);
    kvr_http_stream_end(c->http);
}

static void respond_whole(kvr_sim_call_t *c)
{
    const kvr_sim_req_t *r = &c->mreq;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "id", c->id);
    cJSON_AddStringToObject(doc, "object", c->chat ? "chat.completion" : "text_completion");
    cJSON_AddNumberToObject(doc, "created", c->created);
    cJSON_AddStringToObject(doc, "model", c->engine->fleet->cfg.model_name);
    cJSON *choice = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "choices"), choice);
    cJSON_AddNumberToObject(choice, "index", 0);
    if (c->chat) {
        cJSON *message = cJSON_AddObjectToObject(choice, "message");
        cJSON_AddStringToObject(message, "role", "assistant");
        cJSON_AddStringToObject(message, "content", c->text.base ? c->text.base : "");
        cJSON_AddArrayToObject(message, "tool_calls");
    } else {
        cJSON_AddStringToObject(choice, "text", c->text.base ? c->text.base : "");
    }
    cJSON_AddNullToObject(choice, "logprobs");
    cJSON_AddStringToObject(choice, "finish_reason", "length");
    cJSON_AddNullToObject(choice, "stop_reason");
    cJSON *usage = cJSON_AddObjectToObject(doc, "usage");
    cJSON_AddNumberToObject(usage, "prompt_tokens", r->prompt_tokens);
    cJSON_AddNumberToObject(usage, "total_tokens", r->prompt_tokens + r->generated);
    cJSON_AddNumberToObject(usage, "completion_tokens", r->generated);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(usage, "prompt_tokens_details"),
                            "cached_tokens", r->cached_tokens);
    if (c->pd_prefill)
        kvr_sim_pd_answer(c->engine, doc, r->prompt_tokens);
    char *body = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (body)
        kvr_http_respond(c->http, 200, "application/json", NULL, 0, body, strlen(body));
    else
        kvr_http_respond_error(c->http, 500, NULL, "out of memory", NULL, 0);
    cJSON_free(body);
}

/* SGLang's /generate answer: the text so far and meta_info (streamed events repeat it whole). */
static char *native_json(const kvr_sim_call_t *c, bool last, uint64_t now_ns)
{
    const kvr_sim_req_t *r = &c->mreq;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "text", c->text.base ? c->text.base : "");
    cJSON *meta = cJSON_AddObjectToObject(doc, "meta_info");
    cJSON_AddStringToObject(meta, "id", c->id);
    if (last) {
        cJSON *finish = cJSON_AddObjectToObject(meta, "finish_reason");
        cJSON_AddStringToObject(finish, "type", "length");
        cJSON_AddNumberToObject(finish, "length", r->generated);
    } else {
        cJSON_AddNullToObject(meta, "finish_reason");
    }
    cJSON_AddNumberToObject(meta, "prompt_tokens", r->prompt_tokens);
    cJSON_AddNumberToObject(meta, "completion_tokens", r->generated);
    cJSON_AddNumberToObject(meta, "cached_tokens", r->cached_tokens);
    cJSON_AddNumberToObject(meta, "e2e_latency", (double)(now_ns - r->arrival_ns) / 1e9);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    return text;
}

static void native_event(kvr_sim_call_t *c, bool last)
{
    char *json = native_json(c, last, kvr_sim_now_ns());
    if (!json) {
        /* Out of memory: the answer cannot be written; end it rather than send half. */
        if (!c->stream)
            kvr_http_respond_error(c->http, 500, NULL, "out of memory", NULL, 0);
        else if (last)
            kvr_http_stream_end(c->http);
        return;
    }
    if (!c->stream) {
        kvr_http_respond(c->http, 200, "application/json", NULL, 0, json, strlen(json));
        cJSON_free(json);
        return;
    }
    size_t n = strlen(json);
    char *buf = kvr_xmalloc(n + 9);
    memcpy(buf, "data: ", 6);
    memcpy(buf + 6, json, n);
    memcpy(buf + 6 + n, "\n\n", 2);
    kvr_http_stream_write(c->http, buf, n + 8);
    free(buf);
    cJSON_free(json);
    if (last) {
        static const char done[] = "data: [DONE]\n\n";
        kvr_http_stream_write(c->http, done, sizeof done - 1);
        kvr_http_stream_end(c->http);
    }
}

void kvr_sim_call_event(kvr_sim_req_t *mreq, kvr_sim_event_t ev, void *arg)
{
    kvr_sim_rank_t *rank = arg;
    kvr_sim_call_t *c = mreq->owner;
    kvr_sim_engine_t *e = c->engine;
    bool last = ev == KVR_SIM_EV_FINISHED;
    if (c->sglang_prefill && mreq->generated == 1)
        kvr_sim_pd_room_ready(e->fleet, c->room); /* the prompt's KV is complete */
    int32_t drop = e->faults.drop_after_tokens;
    if (drop >= 0 && mreq->generated > (uint32_t)drop) {
        /* The fault: the answer is cut once drop tokens went out. */
        e->requests_dropped++;
        kvr_sim_model_cancel(&rank->model, mreq);
        kvr_http_req_abandon(c->http);
        call_free(c);
        return;
    }
    const char *word = word_at(c, mreq->generated);
    if (mreq->generated == 1 && c->stream && c->chat && !c->native) {
        /* vLLM's first chunk announces the role with empty content. */
        char buf[512];
        int n = snprintf(
            buf, sizeof buf,
            "data: {\"id\":\"%s\",\"object\":\"chat.completion.chunk\",\"created\":%" PRIu64
            ",\"model\":%s,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
            "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n",
            c->id, c->created, e->fleet->model_json);
        kvr_http_stream_write(c->http, buf, (size_t)n);
    }
    if (c->stream && !c->native) {
        stream_chunk(c, word, last);
    } else {
        if (c->text.len)
            kvr_buf_append_char(&c->text, ' ');
        kvr_buf_append_str(&c->text, word);
    }
    if (c->native && c->stream && !last)
        native_event(c, false);
    if (!last)
        return;
    uint64_t now = kvr_sim_now_ns();
    kvr_sim_rank_observe(rank, (double)(mreq->first_token_ns - mreq->arrival_ns) / 1e9,
                         (double)(now - mreq->arrival_ns) / 1e9);
    if (c->native)
        native_event(c, true);
    else if (c->stream)
        stream_finish(c);
    else
        respond_whole(c);
    call_free(c);
}

void kvr_sim_call_start(kvr_sim_call_t *c)
{
    c->pd_wait = NULL;
    if (c->stream)
        kvr_http_stream_begin(c->http, 200, "text/event-stream; charset=utf-8", NULL, 0,
                              KVR_HTTP_CHUNKED);
    kvr_sim_model_submit(&c->rank->model, &c->mreq, kvr_sim_now_ns());
    kvr_sim_rank_kick(c->rank);
}

void kvr_sim_call_fail(kvr_sim_call_t *c, int status, const char *type, const char *message)
{
    c->pd_wait = NULL;
    c->engine->requests_rejected++;
    kvr_http_respond_error(c->http, status, type, message, NULL, 0);
    call_free(c);
}

/* ---- requests ---- */

static int prompt_text(const cJSON *root, bool chat, bool native, kvr_buf_t *t, const char **why)
{
    if (chat) {
        const cJSON *messages = cJSON_GetObjectItemCaseSensitive(root, "messages");
        if (!cJSON_IsArray(messages)) {
            *why = "'messages' must be an array";
            return -1;
        }
        const cJSON *msg;
        cJSON_ArrayForEach(msg, messages)
        {
            const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
            if (cJSON_IsString(content)) {
                kvr_buf_append_str(t, content->valuestring);
            } else if (cJSON_IsArray(content)) {
                const cJSON *part;
                cJSON_ArrayForEach(part, content)
                {
                    const cJSON *text = cJSON_GetObjectItemCaseSensitive(part, "text");
                    if (cJSON_IsString(text))
                        kvr_buf_append_str(t, text->valuestring);
                }
            } else if (!cJSON_IsNull(content)) {
                *why = "'content' must be a string or an array of parts";
                return -1;
            }
        }
        return 0;
    }
    const cJSON *prompt = cJSON_GetObjectItemCaseSensitive(root, native ? "text" : "prompt");
    if (cJSON_IsString(prompt)) {
        kvr_buf_append_str(t, prompt->valuestring);
        return 0;
    }
    if (cJSON_IsArray(prompt)) {
        const cJSON *item;
        cJSON_ArrayForEach(item, prompt)
        {
            if (cJSON_IsString(item))
                kvr_buf_append_str(t, item->valuestring);
        }
        return 0;
    }
    *why = native ? "'text' must be a string or an array" : "'prompt' must be a string or an array";
    return -1;
}

/* The whole body as one JSON value, as the router parses it; on failure, where in err. */
static cJSON *parse_body(const char *body, size_t len, char *err, size_t errlen)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(body, len, &end, false);
    if (!root) {
        snprintf(err, errlen, "invalid JSON at byte %td", end && end >= body ? end - body : 0);
        return NULL;
    }
    while (end < body + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end != body + len) {
        snprintf(err, errlen, "data after the JSON value at byte %td", end - body);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* A whole number, as JSON integers were read before: cJSON keeps every number as a double. */
static bool whole_number(const cJSON *v, long long *out)
{
    double d = cJSON_GetNumberValue(v);
    if (!(d >= -0x1p63 && d < 0x1p63) || d != floor(d))
        return false;
    *out = (long long)d;
    return true;
}

/*
 * --tokenizer: the prompt as the engine tokenizes it (router/tokenizers.c, the code kvroute
 * keys with), cached in blocks of KVR_SIM_BLOCK_TOKENS token ids chained as the router chains
 * them. False (text keys stand) without a tokenizer or when the template or tokenizer refuse.
 */
static bool prompt_tokens_of(const kvr_sim_fleet_t *fleet, const cJSON *root, bool chat,
                             bool native, kvr_sim_req_t *mreq, uint64_t *prompt_tokens)
{
    if (!fleet->cfg.tokens)
        return false;
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    char why[160];
    kvr_prompt_kind_t kind = chat     ? KVR_PROMPT_CHAT
                             : native ? KVR_PROMPT_NATIVE
                                      : KVR_PROMPT_COMPLETION;
    if (kvr_model_tokens_encode_request(fleet->cfg.tokens, root, kind, &ids, why, sizeof why) !=
        KVR_TOKENIZE_EXACT) {
        kvr_token_ids_close(&ids);
        return false;
    }
    size_t max_blocks = ids.len / KVR_SIM_BLOCK_TOKENS;
    mreq->hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof *mreq->hashes);
    mreq->n_hashes = kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids.ids, ids.len,
                                           KVR_SIM_BLOCK_TOKENS, mreq->hashes, max_blocks);
    *prompt_tokens = ids.len ? ids.len : 1;
    if (fleet->cfg.kv_events_port) { /* the KV events carry the blocks' token ids */
        size_t n = mreq->n_hashes * KVR_SIM_BLOCK_TOKENS;
        uint32_t *block_ids = kvr_xmalloc((n ? n : 1) * sizeof *block_ids);
        memcpy(block_ids, ids.ids, n * sizeof *block_ids);
        mreq->block_tokens = block_ids;
    }
    kvr_token_ids_close(&ids);
    return true;
}

static void serve_completion(kvr_sim_engine_t *e, kvr_http_req_t *req, bool chat, bool native)
{
    kvr_sim_fleet_t *fleet = e->fleet;
    e->requests_total++;
    size_t len;
    const char *body = kvr_http_req_body(req, &len);
    char jerr[96] = "";
    cJSON *root = parse_body(body, len, jerr, sizeof jerr);
    char msg[256];
    if (!cJSON_IsObject(root)) {
        snprintf(msg, sizeof msg, "request body is not a JSON object: %s", jerr);
        goto fail_400;
    }
    kvr_buf_t text = KVR_BUF_INIT;
    const char *why = NULL;
    if (prompt_text(root, chat, native, &text, &why) < 0) {
        snprintf(msg, sizeof msg, "%s", why);
        kvr_buf_close(&text);
        goto fail_400;
    }
    const cJSON *mt = native ? cJSON_GetObjectItemCaseSensitive(
                                   cJSON_GetObjectItemCaseSensitive(root, "sampling_params"),
                                   "max_new_tokens")
                             : cJSON_GetObjectItemCaseSensitive(root, "max_tokens");
    long long max_tokens = fleet->cfg.default_max_tokens;
    if (!whole_number(mt, &max_tokens) && !native)
        whole_number(cJSON_GetObjectItemCaseSensitive(root, "max_completion_tokens"), &max_tokens);
    uint64_t prompt_tokens = text.len / KVR_BYTES_PER_TOKEN;
    if (prompt_tokens == 0)
        prompt_tokens = 1;
    kvr_sim_req_t tokenized = {0}; /* hashes of the prompt's token blocks (--tokenizer) */
    bool exact = prompt_tokens_of(fleet, root, chat, native, &tokenized, &prompt_tokens);
    if (max_tokens < 1) {
        snprintf(msg, sizeof msg, "max_tokens must be at least 1, got %lld", max_tokens);
        free(tokenized.hashes);
        free((void *)tokenized.block_tokens);
        kvr_buf_close(&text);
        goto fail_400;
    }
    kvr_sim_rank_t *rank = &e->ranks[e->next_rank++ % (uint32_t)e->dp];
    uint64_t need = prompt_tokens + (uint64_t)max_tokens;
    if (need > fleet->cfg.max_model_len ||
        need + KVR_SIM_BLOCK_TOKENS > kvr_sim_model_kv_capacity_tokens(&rank->model)) {
        snprintf(msg, sizeof msg,
                 "This model's maximum context length is %u tokens. However, you requested %" PRIu64
                 " tokens (%" PRIu64 " in the messages, %lld in the completion).",
                 fleet->cfg.max_model_len, need, prompt_tokens, max_tokens);
        free(tokenized.hashes);
        free((void *)tokenized.block_tokens);
        kvr_buf_close(&text);
        goto fail_400;
    }
    kvr_sim_pd_t pd = {0};
    int pd_rc = kvr_sim_pd_inspect(e, root, &pd, msg, sizeof msg);
    if (pd_rc == -EINVAL) {
        kvr_buf_close(&text);
        goto fail_400;
    }
    if (pd_rc == 0 && (pd.decode || pd.sglang_decode) && e->faults.lose_transfers) {
        kvr_buf_close(&text);
        cJSON_Delete(root);
        kvr_sim_engine_hold(e, req); /* the transfer never completes */
        return;
    }
    if (pd_rc < 0) {
        kvr_buf_close(&text);
        cJSON_Delete(root);
        e->requests_rejected++;
        kvr_http_respond_error(req, 500, "kv_transfer_error", msg, NULL, 0);
        return;
    }
    if (pd.decode)
        kvr_sim_pd_consume(&pd);
    if (pd.sglang_prefill)
        max_tokens = 1; /* a prefill engine computes the prompt and its first token only */
    if (e->faults.error_rate > 0 && kvr_splitmix64_unit(&e->rng) < e->faults.error_rate) {
        free(tokenized.hashes);
        free((void *)tokenized.block_tokens);
        kvr_buf_close(&text);
        cJSON_Delete(root);
        e->requests_rejected++;
        kvr_http_respond_error(req, 503, "server_error", "engine overloaded (simulated fault)",
                               NULL, 0);
        return;
    }
    kvr_sim_call_t *c = kvr_xcalloc(1, sizeof *c);
    c->engine = e;
    c->rank = rank;
    c->http = req;
    c->chat = chat;
    c->native = native;
    c->pd_prefill = pd.prefill;
    c->sglang_prefill = pd.sglang_prefill;
    c->room = pd.room;
    c->stream = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "stream"));
    c->include_usage = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "stream_options"), "include_usage"));
    c->created = (uint64_t)time(NULL);
    c->word_seed = kvr_splitmix64(&e->rng);
    uint64_t rid = ++e->next_request_id;
    snprintf(c->id, sizeof c->id, "%s-sim%d-%" PRIu64,
             native ? "gen"
             : chat ? "chatcmpl"
                    : "cmpl",
             e->index, rid);
    if (exact) {
        c->mreq.hashes = tokenized.hashes;
        c->mreq.n_hashes = tokenized.n_hashes;
        c->mreq.block_tokens = tokenized.block_tokens; /* the ids the hashes chain */
    } else {
        size_t max_blocks = text.len / KVR_PREFIX_BLOCK_BYTES;
        c->mreq.hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof *c->mreq.hashes);
        c->mreq.n_hashes = kvr_prefix_hash_blocks(text.base, text.len, c->mreq.hashes, max_blocks);
        if (e->fleet->cfg.kv_events_port) {
            /* The KV events' token ids: each 4 prompt bytes one id (KVR_BYTES_PER_TOKEN), as
             * the model counts them, so a block's ids are its 64 bytes. */
            size_t n = c->mreq.n_hashes * KVR_SIM_BLOCK_TOKENS;
            uint32_t *ids = kvr_xmalloc((n ? n : 1) * sizeof *ids);
            for (size_t i = 0; i < n; i++) {
                const unsigned char *b = (const unsigned char *)text.base + i * KVR_BYTES_PER_TOKEN;
                ids[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                         (uint32_t)b[3] << 24;
            }
            c->mreq.block_tokens = ids;
        }
    }
    c->mreq.id = rid;
    c->mreq.prompt_tokens = (uint32_t)prompt_tokens;
    c->mreq.max_tokens = (uint32_t)max_tokens;
    c->mreq.owner = c;
    kvr_buf_close(&text);
    cJSON_Delete(root);
    c->next = e->calls;
    if (e->calls)
        e->calls->prev = c;
    e->calls = c;
    kvr_http_req_on_abort(req, call_abort, c);
    if (pd.sglang_prefill)
        kvr_sim_pd_room_open(e, pd.room);
    if (pd.decode || pd.sglang_decode) {
        /* The KV comes from the prefill engine first: the answer begins when it is here, and
         * the prompt is held, not computed again. */
        c->mreq.remote_kv_tokens = c->mreq.prompt_tokens;
        c->pd_wait = kvr_sim_pd_defer(e, c, &pd, c->mreq.prompt_tokens);
        return;
    }
    kvr_sim_call_start(c);
    return;

fail_400:
    cJSON_Delete(root);
    e->requests_rejected++;
    kvr_http_respond_error(req, 400, "BadRequestError", msg, NULL, 0);
}

static void serve_models(kvr_sim_engine_t *e, kvr_http_req_t *req)
{
    const kvr_sim_config_t *cfg = &e->fleet->cfg;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "object", "list");
    cJSON *model = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "data"), model);
    cJSON_AddStringToObject(model, "id", cfg->model_name);
    cJSON_AddStringToObject(model, "object", "model");
    cJSON_AddNumberToObject(model, "created", (double)time(NULL));
    cJSON_AddStringToObject(model, "owned_by",
                            cfg->flavor == KVR_SIM_FLAVOR_SGLANG ? "sglang" : "vllm");
    cJSON_AddStringToObject(model, "root", cfg->model_name);
    cJSON_AddNullToObject(model, "parent");
    cJSON_AddNumberToObject(model, "max_model_len", cfg->max_model_len);
    char *body = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (body)
        kvr_http_respond(req, 200, "application/json", NULL, 0, body, strlen(body));
    else
        kvr_http_respond_error(req, 500, NULL, "out of memory", NULL, 0);
    cJSON_free(body);
}

/*
 * /v1/embeddings, /v1/responses, /tokenize and /detokenize: a fixed answer
 * of the right shape, at once (no model of their cost), so a router in
 * front can be checked for forwarding them.
 */
static void serve_aux(kvr_sim_engine_t *e, kvr_http_req_t *req, const char *path)
{
    const char *model = e->fleet->cfg.model_name;
    char body[512];
    if (strcmp(path, "/v1/embeddings") == 0)
        snprintf(body, sizeof body,
                 "{\"object\":\"list\",\"model\":\"%s\",\"data\":[{\"object\":\"embedding\","
                 "\"index\":0,\"embedding\":[0.0,0.5,1.0]}],\"usage\":{\"prompt_tokens\":1,"
                 "\"total_tokens\":1}}",
                 model);
    else if (strcmp(path, "/v1/responses") == 0)
        snprintf(body, sizeof body,
                 "{\"id\":\"resp-sim-%u\",\"object\":\"response\",\"status\":\"completed\","
                 "\"model\":\"%s\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\","
                 "\"content\":[{\"type\":\"output_text\",\"text\":\"ok\"}]}]}",
                 (unsigned)e->index, model);
    else if (strcmp(path, "/tokenize") == 0)
        snprintf(body, sizeof body, "{\"count\":3,\"max_model_len\":%u,\"tokens\":[1,2,3]}",
                 (unsigned)e->fleet->cfg.max_model_len);
    else
        snprintf(body, sizeof body, "{\"prompt\":\"ok\"}");
    kvr_http_respond(req, 200, "application/json", NULL, 0, body, strlen(body));
}

bool kvr_sim_serve_openai(kvr_sim_engine_t *e, kvr_http_req_t *req)
{
    const char *path = kvr_http_req_path(req);
    const char *method = kvr_http_req_method(req);
    bool post = strcmp(method, "POST") == 0;
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strcmp(path, "/v1/chat/completions") == 0 || strcmp(path, "/v1/completions") == 0) {
        if (!post)
            kvr_http_respond_error(req, 405, NULL, "Method Not Allowed", NULL, 0);
        else
            serve_completion(e, req, path[4] == 'c' && path[5] == 'h', false);
        return true;
    }
    if (strcmp(path, "/generate") == 0 && e->fleet->cfg.flavor == KVR_SIM_FLAVOR_SGLANG) {
        if (!post)
            kvr_http_respond_error(req, 405, NULL, "Method Not Allowed", NULL, 0);
        else
            serve_completion(e, req, false, true);
        return true;
    }
    if (strcmp(path, "/v1/embeddings") == 0 || strcmp(path, "/v1/responses") == 0 ||
        strcmp(path, "/tokenize") == 0 || strcmp(path, "/detokenize") == 0) {
        if (!post)
            kvr_http_respond_error(req, 405, NULL, "Method Not Allowed", NULL, 0);
        else
            serve_aux(e, req, path);
        return true;
    }
    if (strcmp(path, "/v1/models") == 0) {
        if (!get)
            kvr_http_respond_error(req, 405, NULL, "Method Not Allowed", NULL, 0);
        else
            serve_models(e, req);
        return true;
    }
    if (strcmp(path, "/health") == 0) {
        kvr_http_respond(req, 200, NULL, NULL, 0, NULL, 0);
        return true;
    }
    return false;
}
