/* SPDX-License-Identifier: Apache-2.0 */
#include "router/pd.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
    return doc;
}

/* Replaces doc's member key by item (owned from here), or adds it. */
static void set_member(cJSON *doc, const char *key, cJSON *item)
{
    cJSON_DeleteItemFromObjectCaseSensitive(doc, key);
    if (item)
        cJSON_AddItemToObject(doc, key, item);
}

/* Sets doc's key to the number v, in place when it is there. */
static void set_number(cJSON *doc, const char *key, double v)
{
    cJSON *item = cJSON_CreateNumber(v);
    if (!item)
        return;
    if (cJSON_GetObjectItemCaseSensitive(doc, key))
        cJSON_ReplaceItemInObjectCaseSensitive(doc, key, item);
    else
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
    set_number(doc, "max_tokens", 1);
    if (cJSON_GetObjectItemCaseSensitive(doc, "max_completion_tokens"))
        set_number(doc, "max_completion_tokens", 1);
    set_member(doc, "stream", cJSON_CreateFalse());
    drop_member(doc, "stream_options");
    const char *why = print_into(doc, out) ? NULL : "out of memory";
    cJSON_Delete(doc);
    return why;
}

const char *kvr_pd_vllm_decode_body(const char *body, size_t len, const char *answer,
                                    size_t answer_len, kvr_buf_t *out)
{
    if (answer_len > KVR_PD_ANSWER_MAX)
        return "the prefill answer is larger than 1 MiB";
    cJSON *doc = cJSON_ParseWithLength(answer ? answer : "", answer_len);
    cJSON *found = cJSON_GetObjectItemCaseSensitive(doc, "kv_transfer_params");
    const char *why = NULL;
    if (!cJSON_IsObject(found))
        why = "the prefill answer has no kv_transfer_params object (is its KV connector set?)";
    cJSON *request = why ? NULL : parse_object(body, len);
    if (!why && !request)
        why = "the request body is not a JSON object";
    if (!why) {
        set_member(request, "kv_transfer_params", cJSON_DetachItemViaPointer(doc, found));
        if (!print_into(request, out))
            why = "out of memory";
    }
    cJSON_Delete(request);
    cJSON_Delete(doc);
    return why;
}
