/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_TOKENIZERS_H
#define KVR_ROUTER_TOKENIZERS_H

/*
 * The tokenizers of the model pools given --tokenizer MODEL=DIR: each
 * model's Hugging Face tokenizer (tokens/tokenizer.h) and its compiled
 * chat_template (template/template.h) with the bos/eos tokens the template
 * reads. A set is immutable once loaded and reference-counted: a request
 * holds the set it started with while its keys are extracted (possibly on
 * the threadpool), and a SIGHUP reload swaps in a new set without waiting
 * for it. A model's entry whose files did not change is shared by the old
 * and the new set, so a reload loads only what changed.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "template/template.h"
#include "tokens/tokenizer.h"
#include "tokens/turn_cache.h"

#define KVR_TOKENIZERS_MAX 64 /* --tokenizer entries */

/** One model's tokenizer and chat template. */
typedef struct kvr_model_tokens_s {
    char *model; /* the pool's model name */
    char *dir;   /* DIR as given */
    kvr_tokenizer_t *tok;
    kvr_template_t *chat_template; /* NULL: the model ships none (chat requests keep text keys) */
    cJSON *template_vars;          /* {"bos_token": ..., "eos_token": ...} */
    uint64_t files_id;             /* the files' identity (device, inode, size, mtime) */
    _Atomic uint32_t refs;
} kvr_model_tokens_t;

typedef struct kvr_tokenizer_set_s {
    _Atomic uint32_t refs;
    size_t n;
    kvr_model_tokens_t *models[KVR_TOKENIZERS_MAX];
} kvr_tokenizer_set_t;

/* Why a request of a model with a tokenizer was keyed on its text after all. */
typedef enum {
    KVR_TOKENIZE_EXACT = 0,    /* not a fallback: keyed on tokens */
    KVR_TOKENIZE_NO_TEMPLATE,  /* a chat request, and the model ships no chat_template */
    KVR_TOKENIZE_TEMPLATE,     /* the chat template failed to render (or raised) */
    KVR_TOKENIZE_TOKENIZER,    /* the tokenizer refused the text */
    KVR_TOKENIZE_PROMPT_BATCH, /* several prompts in one completions request */
    KVR_TOKENIZE_N_REASONS,
} kvr_tokenize_result_t;

/** The metric label of a fallback reason ("no_template", "template", ...). */
const char *kvr_tokenize_reason_name(kvr_tokenize_result_t reason);

/* Which prompt of a request body the engine tokenizes. */
typedef enum {
    KVR_PROMPT_CHAT,       /* "messages", through the chat template */
    KVR_PROMPT_COMPLETION, /* "prompt" */
    KVR_PROMPT_NATIVE,     /* SGLang's "text" */
} kvr_prompt_kind_t;

/**
 * The token ids an engine serving m builds from a parsed request body:
 * chat messages rendered with the chat template (tools,
 * add_generation_prompt, chat_template_kwargs, bos/eos) and tokenized
 * without special tokens; a completion prompt tokenized with them, or one
 * prompt of ids taken as given. Appends to ids (left empty on a fallback)
 * and returns KVR_TOKENIZE_EXACT, or the fallback's reason with a one-line
 * message in err. Any thread.
 */
kvr_tokenize_result_t kvr_model_tokens_encode_request(const kvr_model_tokens_t *m,
                                                      const cJSON *root, kvr_prompt_kind_t kind,
                                                      kvr_token_ids_t *ids, char *err,
                                                      size_t err_len);
/** The same, the earlier parts of a chat or text prompt taken from cache (may be NULL). */
kvr_tokenize_result_t kvr_model_tokens_encode_request_cached(
    const kvr_model_tokens_t *m, const cJSON *root, kvr_prompt_kind_t kind, kvr_turn_cache_t *cache,
    kvr_token_ids_t *ids, char *err, size_t err_len);
/** Loads one model's tokenizer and chat template from dir; 0 or -errno with err. */
int kvr_model_tokens_create(const char *model, const char *dir, kvr_model_tokens_t **out, char *err,
                            size_t err_len);
/** Drops a reference taken by kvr_model_tokens_create (NULL is fine). */
void kvr_model_tokens_unref(kvr_model_tokens_t *m);

/**
 * Splits "MODEL=DIR" at its first '=': model (1 to 256 bytes) into model
 * (cap bytes), *dir into text. 0 or -EINVAL with a one-line reason in err.
 */
int kvr_tokenizer_spec_parse(const char *text, char *model, size_t cap, const char **dir, char *err,
                             size_t err_len);

/**
 * Loads the set of specs[0..n) ("MODEL=DIR"). An entry of reuse (may be
 * NULL) for the same model and directory whose files are unchanged is
 * shared instead of loaded again. Returns 0 and *out (NULL when n is 0), or
 * a negative errno with a one-line reason naming the model in err; nothing
 * is kept on failure. Slow (seconds for a large vocabulary): the router
 * runs reloads on the threadpool.
 */
int kvr_tokenizer_set_load(char *const *specs, size_t n, const kvr_tokenizer_set_t *reuse,
                           kvr_tokenizer_set_t **out, char *err, size_t err_len);

/** The entry of model, or NULL (also for a NULL set or model). */
const kvr_model_tokens_t *kvr_tokenizer_set_find(const kvr_tokenizer_set_t *set, const char *model);
/** Takes a reference (NULL is fine); returns set. Any thread. */
kvr_tokenizer_set_t *kvr_tokenizer_set_ref(kvr_tokenizer_set_t *set);
/** Drops a reference; the last one frees the set and the entries no other set holds. Any thread. */
void kvr_tokenizer_set_unref(kvr_tokenizer_set_t *set);

#endif
