/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_KEYS_H
#define KVR_ROUTER_KEYS_H

/*
 * Routing keys: what the router needs from a request body to route it
 * (session id, routing text, its prefix block hashes, an estimated prompt
 * token count). The body itself is forwarded unchanged; this is a read-only
 * look at it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "router/tokenizers.h"

/* Where a session id may come from, tried in the configured order. */
typedef enum {
    KVR_SESSION_SRC_HEADER = 1, /* the session header (X-Session-ID by default) */
    KVR_SESSION_SRC_SESSION_ID, /* body "session_id" */
    KVR_SESSION_SRC_USER,       /* body "user" */
} kvr_session_src_t;

#define KVR_SESSION_SRC_MAX 3
#define KVR_SESSION_ID_MAX 256 /* longer ids are rejected with 400 */

typedef struct kvr_keys_config_s {
    kvr_session_src_t order[KVR_SESSION_SRC_MAX];
    size_t n_order;
} kvr_keys_config_t;

/** What keys on tokens need: the model's tokenizers (NULL: none) and the block size. */
typedef struct kvr_keys_tokens_s {
    const kvr_tokenizer_set_t *set;
    uint32_t block_tokens;               /* --block-tokens */
    struct kvr_turn_cache_s *turn_cache; /* chat prompts' earlier turns; NULL: none */
} kvr_keys_tokens_t;

typedef struct kvr_route_keys_s {
    char *session_id; /* NUL-terminated, NULL when the request has none */
    char *model;      /* body "model", NULL when absent (or JSON null) */
    char *text;       /* routing text: messages' contents in order, or prompt */
    size_t text_len;
    /* token_blocks: chained hashes of block_tokens-token blocks (kvr_token_hash_blocks);
     * else chained 64-byte block hashes of text */
    uint64_t *block_hashes;
    size_t n_blocks;
    bool token_blocks;
    uint32_t prompt_tokens;   /* exact: the tokens the engine sees; else text bytes / 4; >= 1 */
    bool prompt_tokens_exact; /* counted by the model's tokenizer */
    bool tokenized;           /* the model has a tokenizer (exact, or a counted fallback) */
    kvr_tokenize_result_t tokenize_result;
    char tokenize_error[160]; /* a fallback's one-line reason */
    uint32_t max_tokens;      /* max_tokens / max_completion_tokens / max_new_tokens, 0 = unset */
    bool stream;              /* "stream": true */
} kvr_route_keys_t;

/** The default order: header, then body session_id, then body user. */
void kvr_keys_config_defaults(kvr_keys_config_t *cfg);
/** Parses a comma-separated order such as "header,session_id,user"; -EINVAL on an unknown name. */
int kvr_keys_config_parse(kvr_keys_config_t *cfg, const char *list);

/**
 * Installs the parse arena's cJSON hooks (process-wide). Idempotent and
 * called by kvr_keys_extract; the router calls it at start-up, before any
 * thread uses cJSON, so the hooks never change under a running parse.
 */
void kvr_keys_init(void);

/**
 * Extracts the keys of one request body. Thread-safe: the router runs it on
 * the libuv threadpool for large bodies. header_session is the session
 * header's value (NULL when absent). Returns 0, or -EINVAL for a body that
 * is not a JSON object or has wrongly typed fields, with a one-line reason
 * in err (meant for the client's 400).
 */
int kvr_keys_extract(const kvr_keys_config_t *cfg, const char *body, size_t len,
                     const char *header_session, kvr_route_keys_t *out, char *err, size_t err_len);
/**
 * kvr_keys_extract, keyed on tokens when tokens names a tokenizer for the
 * body's "model": chat messages rendered with the model's chat template
 * (add_generation_prompt, tools, chat_template_kwargs) then tokenized,
 * completions prompts tokenized (or taken as given token ids). A template
 * or tokenizer failure is no error: the text keys stand, and
 * tokenize_result says why. Thread-safe as kvr_keys_extract.
 */
int kvr_keys_extract_tokens(const kvr_keys_config_t *cfg, const kvr_keys_tokens_t *tokens,
                            const char *body, size_t len, const char *header_session,
                            kvr_route_keys_t *out, char *err, size_t err_len);
/** Frees what kvr_keys_extract allocated; safe on a zeroed or already freed struct. */
void kvr_keys_free(kvr_route_keys_t *keys);

#endif
