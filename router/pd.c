/* SPDX-License-Identifier: Apache-2.0 */
#include "router/pd.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_strict.h"
#include "common/rng.h"

/* A JSON object filling exactly [text, text + len), trailing whitespace aside; else NULL. */
static cJSON *parse_object(const char *text, size_t len)
{
    const char *end = NULL;
    cJSON *doc = text && len ? cJSON_ParseWithLengthOpts(text, len, &end, false) : NULL;
    if (!doc)
        return NULL;
    while (end && end < text + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end != text + len || !cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return NULL;
    }
    /* Printed again, each number as written (cJSON's double would change 2^64 - 1 or 1.0). */
    if (kvr_json_strict_keep_numbers(doc, text, len) < 0) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/*
 * Every member key goes, and item (owned from here) takes their place once:
 * engines read JSON with Python, where the last of duplicate members wins,
 * so a client's second "max_tokens" would otherwise outlive the router's.
 */
static void set_member(cJSON *doc, const char *key, cJSON *item)
{
    while (cJSON_GetObjectItemCaseSensitive(doc, key))
        cJSON_DeleteItemFromObjectCaseSensitive(doc, key);
    if (item)
        cJSON_AddItemToObject(doc, key, item);
}

static void drop_member(cJSON *doc, const char *key)
{
    set_member(doc, key, NULL);
}

/* Prints doc into out; false when out of memory. */
static bool print_into(cJSON *doc, kvr_buf_t *out)
{
    char *text = cJSON_PrintUnformatted(doc);
    if (!text)
        return false;
    kvr_buf_reset(out);
    kvr_buf_append(out, text, strlen(text));
    cJSON_free(text);
    return true;
}

/*
 * vLLM's prefill request (its NIXL connector's proxy protocol): the client's
 * body asking for one token, unstreamed, with kv_transfer_params saying the
 * decode happens elsewhere; the engine answers with where the KV is.
 */
const char *kvr_pd_vllm_prefill_body(const char *body, size_t len, kvr_buf_t *out)
{
    cJSON *doc = parse_object(body, len);
    if (!doc)
        return "the request body is not a JSON object";
    cJSON *params = cJSON_CreateObject();
    if (!params) {
        cJSON_Delete(doc);
        return "out of memory";
    }
    cJSON_AddBoolToObject(params, "do_remote_decode", true);
    cJSON_AddBoolToObject(params, "do_remote_prefill", false);
    cJSON_AddNullToObject(params, "remote_engine_id");
    cJSON_AddNullToObject(params, "remote_block_ids");
    cJSON_AddNullToObject(params, "remote_host");
    cJSON_AddNullToObject(params, "remote_port");
    set_member(doc, "kv_transfer_params", params);
    set_member(doc, "max_tokens", cJSON_CreateNumber(1));
    if (cJSON_GetObjectItemCaseSensitive(doc, "max_completion_tokens"))
        set_member(doc, "max_completion_tokens", cJSON_CreateNumber(1));
    set_member(doc, "stream", cJSON_CreateFalse());
    drop_member(doc, "stream_options");
    const char *why = print_into(doc, out) ? NULL : "out of memory";
    cJSON_Delete(doc);
    return why;
}

static int compare_nodes(const void *a, const void *b)
{
    const cJSON *const *x = a, *const *y = b;
    return (uintptr_t)*x < (uintptr_t)*y ? -1 : (uintptr_t)*x > (uintptr_t)*y;
}

static bool listed(const cJSON *const *list, size_t n, const cJSON *node)
{
    return n > 0 && bsearch(&node, list, n, sizeof *list, compare_nodes) != NULL;
}

/* A key or string under node holds U+0000: cJSON cut it short, so it cannot be passed on as sent. */
static bool holds_nul(const kvr_json_strict_t *s, const cJSON *node)
{
    if (s->n_nul_keys == 0 && s->n_nul_strings == 0)
        return false;
    if (listed(s->nul_strings, s->n_nul_strings, node))
        return true;
    for (const cJSON *c = node->child; c; c = c->next) /* depth: cJSON's nesting limit */
        if ((cJSON_IsObject(node) && listed(s->nul_keys, s->n_nul_keys, c)) || holds_nul(s, c))
            return true;
    return false;
}

const char *kvr_pd_vllm_decode_body(const char *body, size_t len, const char *answer,
                                    size_t answer_len, kvr_buf_t *out)
{
    if (answer_len > KVR_PD_ANSWER_MAX)
        return "the prefill answer is larger than 1 MiB";
    cJSON *doc = parse_object(answer, answer_len);
    if (!doc)
        return "the prefill answer is not a JSON object with kv_transfer_params";
    /* The decode engine is told where the KV is by what the router read: one reading only. */
    kvr_json_strict_t strict;
    kvr_json_strict_init(&strict, doc, answer, answer_len);
    const cJSON *found = NULL;
    const char *ambiguous = NULL;
    int rc = kvr_json_strict_member(&strict, doc, "kv_transfer_params", &found, &ambiguous);
    if (rc == 0 && found && holds_nul(&strict, found))
        rc = -EINVAL;
    kvr_json_strict_close(&strict);
    const char *why = NULL;
    if (rc < 0)
        why = "the prefill answer's kv_transfer_params is ambiguous (given twice, or holding "
              "U+0000)";
    else if (!cJSON_IsObject(found))
        why = "the prefill answer has no kv_transfer_params object (is its KV connector set?)";
    cJSON *request = why ? NULL : parse_object(body, len);
    if (!why && !request)
        why = "the request body is not a JSON object";
    if (!why) {
        set_member(request, "kv_transfer_params", cJSON_DetachItemViaPointer(doc, (cJSON *)found));
        if (!print_into(request, out))
            why = "out of memory";
    }
    cJSON_Delete(request);
    cJSON_Delete(doc);
    return why;
}

/* SGLang refuses a batch in disaggregated mode: one room names one request's KV. */
static bool is_batch(const cJSON *doc)
{
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(doc, "text");
    const cJSON *prompt = cJSON_GetObjectItemCaseSensitive(doc, "prompt");
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(doc, "input_ids");
    if (cJSON_IsArray(text))
        return true;
    if (cJSON_IsArray(prompt) && cJSON_GetArraySize(prompt) > 0) {
        const cJSON *first = cJSON_GetArrayItem(prompt, 0);
        if (cJSON_IsString(first) || cJSON_IsArray(first))
            return true; /* prompts, as strings or token lists; a flat token list is one */
    }
    return cJSON_IsArray(ids) && cJSON_IsArray(cJSON_GetArrayItem(ids, 0));
}

const char *kvr_pd_sglang_body(const char *body, size_t len, const kvr_pd_bootstrap_t *b,
                               kvr_buf_t *out)
{
    cJSON *doc = parse_object(body, len);
    if (!doc)
        return "the request body is not a JSON object";
    const char *why = NULL;
    if (is_batch(doc)) {
        why = "disaggregated serving takes one prompt per request, not a batch";
    } else {
        /* 63 bits do not fit a double: the room is written as its digits. */
        char room[24];
        snprintf(room, sizeof room, "%" PRIu64, b->room & INT64_MAX);
        set_member(doc, "bootstrap_host", cJSON_CreateString(b->host));
        set_member(doc, "bootstrap_port",
                   b->port ? cJSON_CreateNumber(b->port) : cJSON_CreateNull());
        set_member(doc, "bootstrap_room", cJSON_CreateRaw(room));
        if (!print_into(doc, out))
            why = "out of memory";
    }
    cJSON_Delete(doc);
    return why;
}

uint64_t kvr_pd_room(uint64_t *state)
{
    return kvr_splitmix64(state) & INT64_MAX;
}
