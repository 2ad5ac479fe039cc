/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim --tokenizer: each prompt as kvroute-sim --tokenizer counts
 * what kvroute-replay sends it (one user message of the hash ids' text,
 * through the chat template and the tokenizer), done once per request
 * before the run; see tokens.h.
 */
#include "bench/fleetsim/tokens.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefix_hash.h"
#include "common/xmalloc.h"
#include "router/tokenizers.h"

struct kvr_fleet_tokens_s {
    kvr_model_tokens_t *model;
    bool router_exact;
    char *text;
    size_t text_cap;
    kvr_token_ids_t ids;
    uint64_t prompts, exact, fallbacks;
    uint64_t exact_tokens;    /* the exact prompts' tokens */
    uint64_t estimate_tokens; /* the same prompts' text at bytes/4, as kvroute estimates */
    char first_fallback[192]; /* why the first refused prompt was refused */
};

int kvr_fleet_tokens_create(const char *dir, bool router_exact, kvr_fleet_tokens_t **out, char *err,
                            size_t err_len)
{
    *out = NULL;
    kvr_fleet_tokens_t *t = kvr_xcalloc(1, sizeof *t);
    int rc = kvr_model_tokens_create("fleetsim", dir, &t->model, err, err_len);
    if (rc < 0) {
        free(t);
        return rc;
    }
    t->router_exact = router_exact;
    kvr_token_ids_init(&t->ids);
    *out = t;
    return 0;
}

void kvr_fleet_tokens_destroy(kvr_fleet_tokens_t *t)
{
    if (!t)
        return;
    kvr_model_tokens_unref(t->model);
    kvr_token_ids_close(&t->ids);
    free(t->text);
    free(t);
}

void kvr_fleet_tokens_prompt(kvr_fleet_tokens_t *t, const kvr_trace_request_t *tr,
                             uint32_t block_size, size_t index, kvr_fleet_prompt_t *out)
{
    *out = (kvr_fleet_prompt_t){0};
    size_t len = kvr_trace_text_len(tr);
    if (len + 1 > t->text_cap) {
        t->text_cap = len + 1;
        t->text = kvr_xrealloc(t->text, t->text_cap);
    }
    /* The replayer's fallback id for blocks past the trace's ids is the request's index. */
    kvr_trace_text(tr, block_size, index, t->text);
    t->text[len] = '\0';
    /* The body's fields the template reads: the one user message (the text by reference). */
    cJSON *root = cJSON_CreateObject(), *msg = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "messages"), msg);
    cJSON_AddStringToObject(msg, "role", "user");
    cJSON_AddItemToObject(msg, "content", cJSON_CreateStringReference(t->text));
    t->ids.len = 0;
    char why[160] = "";
    kvr_tokenize_result_t res = kvr_model_tokens_encode_request(t->model, root, KVR_PROMPT_CHAT,
                                                                &t->ids, why, sizeof why);
    cJSON_Delete(root);
    t->prompts++;
    if (res != KVR_TOKENIZE_EXACT || t->ids.len > UINT32_MAX) {
        if (!t->fallbacks++)
            snprintf(t->first_fallback, sizeof t->first_fallback, "request %zu: %s", index,
                     why[0] ? why : "more than 2^32 tokens");
        return;
    }
    size_t max_blocks = t->ids.len / KVR_SIM_BLOCK_TOKENS;
    out->hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof *out->hashes);
    out->n_hashes = kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, t->ids.ids, t->ids.len,
                                          KVR_SIM_BLOCK_TOKENS, out->hashes, max_blocks);
    out->tokens = t->ids.len ? (uint32_t)t->ids.len : 1;
    out->exact = true;
    t->exact++;
    t->exact_tokens += out->tokens;
    t->estimate_tokens += len / KVR_BYTES_PER_TOKEN ? len / KVR_BYTES_PER_TOKEN : 1;
}

void kvr_fleet_prompt_free(kvr_fleet_prompt_t *p)
{
    free(p->hashes);
    *p = (kvr_fleet_prompt_t){0};
}

void kvr_fleet_tokens_route_request(const kvr_fleet_tokens_t *t, const kvr_fleet_prompt_t *p,
                                    kvr_route_request_t *req)
{
    if (!t->router_exact || !p->exact)
        return;
    req->block_hashes = p->hashes;
    req->n_blocks = p->n_hashes;
    req->token_blocks = true;
    req->block_tokens = KVR_SIM_BLOCK_TOKENS;
    req->prompt_tokens = p->tokens;
    req->prompt_tokens_exact = true;
}

void kvr_fleet_tokens_engine_request(kvr_fleet_prompt_t *p, kvr_sim_req_t *mreq)
{
    if (!p->exact)
        return;
    mreq->prompt_tokens = p->tokens;
    uint64_t *h = mreq->hashes;
    size_t n = mreq->n_hashes;
    mreq->hashes = p->hashes;
    mreq->n_hashes = p->n_hashes;
    p->hashes = h;
    p->n_hashes = n;
}

void kvr_fleet_tokens_write_stats(const kvr_fleet_tokens_t *t, FILE *out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tokenizer", t->model->dir);
    cJSON_AddStringToObject(o, "router_tokens", t->router_exact ? "exact" : "estimate");
    cJSON_AddNumberToObject(o, "prompts", (double)t->prompts);
    cJSON_AddNumberToObject(o, "exact", (double)t->exact);
    cJSON_AddNumberToObject(o, "fallbacks", (double)t->fallbacks);
    cJSON_AddNumberToObject(o, "exact_tokens", (double)t->exact_tokens);
    cJSON_AddNumberToObject(o, "estimate_tokens", (double)t->estimate_tokens);
    char *text = cJSON_PrintUnformatted(o);
    fputs(text, out);
    free(text);
    cJSON_Delete(o);
}

void kvr_fleet_tokens_print_summary(const kvr_fleet_tokens_t *t, FILE *out)
{
    fprintf(out,
            "fleetsim   tokens: %llu of %llu prompts counted by the tokenizer (routers: %s), "
            "%llu tokens against %llu at bytes/4 (x%.3f)",
            (unsigned long long)t->exact, (unsigned long long)t->prompts,
            t->router_exact ? "exact" : "bytes/4", (unsigned long long)t->exact_tokens,
            (unsigned long long)t->estimate_tokens,
            t->estimate_tokens ? (double)t->exact_tokens / (double)t->estimate_tokens : 0.0);
    if (t->fallbacks)
        fprintf(out, "; %llu fell back to bytes/4, first %s", (unsigned long long)t->fallbacks,
                t->first_fallback);
    fputc('\n', out);
}
