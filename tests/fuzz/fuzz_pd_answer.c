/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bodies of disaggregated serving (router/pd.c) on hostile bytes: a
 * client's body and a prefill engine's answer, split at the first NUL byte
 * (JSON text holds none). The first byte picks what is built: even, vLLM's
 * prefill body from the client's; odd, its decode body from both.
 *
 * The oracle reads the result as an engine does, where the last of
 * duplicate members wins: each member the router sets must be there once,
 * with the router's value, and the decode's kv_transfer_params must be the
 * answer's one member of that name, printed alike, none of its keys or
 * strings cut short at a U+0000.
 */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/json_strict.h"
#include "router/pd.h"

/* Checked in every build type: NDEBUG must not turn the oracle off. */
#define REQUIRE(cond) ((cond) ? (void)0 : abort())

/* The members of obj named key; *last the last of them. */
static int members(const cJSON *obj, const char *key, const cJSON **last)
{
    int n = 0;
    const cJSON *m;
    *last = NULL;
    cJSON_ArrayForEach(m, obj)
    {
        if (m->string && strcmp(m->string, key) == 0) {
            n++;
            *last = m;
        }
    }
    return n;
}

static cJSON *parse_out(const kvr_buf_t *out)
{
    REQUIRE(out->base && out->len == strlen(out->base));
    cJSON *doc = cJSON_ParseWithLength(out->base, out->len);
    REQUIRE(cJSON_IsObject(doc));
    return doc;
}

static void check_prefill(const kvr_buf_t *out)
{
    cJSON *doc = parse_out(out);
    const cJSON *v;
    REQUIRE(members(doc, "max_tokens", &v) == 1 && cJSON_GetNumberValue(v) == 1);
    REQUIRE(members(doc, "stream", &v) == 1 && cJSON_IsFalse(v));
    REQUIRE(members(doc, "stream_options", &v) == 0);
    int n = members(doc, "max_completion_tokens", &v);
    REQUIRE(n == 0 || (n == 1 && cJSON_GetNumberValue(v) == 1));
    REQUIRE(members(doc, "kv_transfer_params", &v) == 1 && cJSON_IsObject(v));
    REQUIRE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "do_remote_decode")));
    cJSON_Delete(doc);
}

static bool noted(const cJSON *const *list, size_t n, const cJSON *node)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == node)
            return true;
    return false;
}

/* A key or string under node that cJSON read short (it holds U+0000). */
static bool read_short(const kvr_json_strict_t *s, const cJSON *node)
{
    if (noted(s->nul_strings, s->n_nul_strings, node))
        return true;
    for (const cJSON *c = node->child; c; c = c->next)
        if (noted(s->nul_keys, s->n_nul_keys, c) || read_short(s, c))
            return true;
    return false;
}

/* The params sent are those the engine gave, as an engine reads them: text for text. */
static void check_decode(const kvr_buf_t *out, const char *answer, size_t answer_len)
{
    cJSON *doc = parse_out(out);
    cJSON *ans = cJSON_ParseWithLength(answer, answer_len);
    const cJSON *sent, *given;
    REQUIRE(members(doc, "kv_transfer_params", &sent) == 1);
    REQUIRE(members(ans, "kv_transfer_params", &given) == 1);
    kvr_json_strict_t strict;
    kvr_json_strict_init(&strict, ans, answer, answer_len);
    REQUIRE(!read_short(&strict, given));
    kvr_json_strict_close(&strict);
    char *a = cJSON_PrintUnformatted(sent), *b = cJSON_PrintUnformatted(given);
    REQUIRE(a && b && strcmp(a, b) == 0);
    cJSON_free(a);
    cJSON_free(b);
    cJSON_Delete(ans);
    cJSON_Delete(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *body = (const char *)data + 1;
    size_t rest = size - 1;
    const char *nul = memchr(body, '\0', rest);
    size_t body_len = nul ? (size_t)(nul - body) : rest;
    const char *answer = nul ? nul + 1 : "";
    size_t answer_len = nul ? rest - body_len - 1 : 0;
    kvr_buf_t out = KVR_BUF_INIT;
    if ((data[0] & 1) == 0) {
        if (!kvr_pd_vllm_prefill_body(body, body_len, &out))
            check_prefill(&out);
    } else {
        if (!kvr_pd_vllm_decode_body(body, body_len, answer, answer_len, &out))
            check_decode(&out, answer, answer_len);
    }
    kvr_buf_close(&out);
    return 0;
}
