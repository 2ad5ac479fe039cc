/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A client's request body keyed on a model's tokens (kvroute --tokenizer):
 * the tiny tokenizer of tests/tokens and a chat template reading tools,
 * kwargs and generation prompts, built from memory per input. Either a 400
 * with a reason, or keys that are exact token keys (block count from the
 * token count) or a counted fallback with text keys and a reason.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefix_hash.h"
#include "router/keys.h"
#include "router/tokenizers.h"
#include "tests/tokens/tiny_tokenizer.h"

#define BLOCK_TOKENS 2

static const char chat_template[] =
    "{% for m in messages %}<s>{{ m.role }} {{ m.content }}<e>{% endfor %}"
    "{% if tools %}{{ tools | tojson }}{% endif %}{% if flag %}{{ flag }}{% endif %}"
    "{% if add_generation_prompt %}<s>ab{% endif %}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static kvr_tokenizer_set_t *make_set(void)
{
    kvr_tokenizer_set_t *set = calloc(1, sizeof *set);
    kvr_model_tokens_t *m = calloc(1, sizeof *m);
    char err[256];
    kvr_template_error_t terr;
    if (!set || !m ||
        kvr_tokenizer_create_from_json(k_tiny_tokenizer_json, sizeof k_tiny_tokenizer_json - 1,
                                       NULL, 0, &m->tok, err, sizeof err) < 0 ||
        kvr_template_compile(chat_template, sizeof chat_template - 1, &m->chat_template, &terr) < 0)
        abort();
    m->model = strdup("m");
    m->dir = strdup("-");
    m->template_vars = cJSON_CreateObject();
    cJSON_AddStringToObject(m->template_vars, "bos_token", "<s>");
    atomic_init(&m->refs, 1);
    atomic_init(&set->refs, 1);
    set->models[set->n++] = m;
    return set;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_tokenizer_set_t *set = make_set();
    kvr_keys_tokens_t tokens = {.set = set, .block_tokens = BLOCK_TOKENS};
    kvr_route_keys_t keys;
    char err[256] = "";
    int rc = kvr_keys_extract_tokens(&cfg, &tokens, (const char *)data, size, NULL, &keys, err,
                                     sizeof err);
    if (rc != 0) {
        if (rc != -EINVAL || err[0] == '\0')
            abort(); /* a 400 needs its reason */
        kvr_tokenizer_set_unref(set);
        return 0;
    }
    if (!keys.text || strlen(keys.text) != keys.text_len || keys.prompt_tokens == 0)
        abort();
    bool exact = keys.tokenized && keys.tokenize_result == KVR_TOKENIZE_EXACT;
    if (exact != keys.prompt_tokens_exact || exact != keys.token_blocks)
        abort();
    if (exact && keys.n_blocks != keys.prompt_tokens / BLOCK_TOKENS)
        abort();
    if (!exact && keys.n_blocks != keys.text_len / KVR_PREFIX_BLOCK_BYTES)
        abort();
    if (keys.tokenized && !exact && keys.tokenize_error[0] == '\0')
        abort(); /* a fallback says why */
    if (keys.tokenized && (!keys.model || strcmp(keys.model, "m") != 0))
        abort();
    kvr_keys_free(&keys);
    kvr_tokenizer_set_unref(set);
    return 0;
}
