/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TOKENS_TOKENIZER_H
#define KVR_TOKENS_TOKENIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A model's Hugging Face tokenizer (tokenizer.json + tokenizer_config.json),
 * byte-level BPE. Immutable once created: encode may run on any number of
 * threads at once. See tokens/README.md.
 */
typedef struct kvr_tokenizer_s kvr_tokenizer_t;

/* A growable array of token ids, owned by the caller (_init / _close). */
typedef struct kvr_token_ids_s {
    uint32_t *ids;
    size_t len;
    size_t cap;
} kvr_token_ids_t;

/* Largest tokenizer.json read from a directory; a bigger file is refused. */
#define KVR_TOKENIZER_JSON_MAX_BYTES ((size_t)512 << 20)

/** Loads DIR/tokenizer.json and DIR/tokenizer_config.json (optional); err gets a line on failure. */
int kvr_tokenizer_create(const char *dir, kvr_tokenizer_t **out, char *err, size_t err_len);

/** The same from the two files' bytes (config may be NULL). */
int kvr_tokenizer_create_from_json(const char *tokenizer_json, size_t tokenizer_json_len,
                                   const char *config_json, size_t config_json_len,
                                   kvr_tokenizer_t **out, char *err, size_t err_len);

/** Frees a tokenizer (NULL is fine). */
void kvr_tokenizer_destroy(kvr_tokenizer_t *tok);

/** Appends the ids of TEXT (any bytes; invalid UTF-8 reads as U+FFFD) to IDS. */
int kvr_tokenizer_encode(const kvr_tokenizer_t *tok, const char *text, size_t text_len,
                         bool add_special_tokens, kvr_token_ids_t *ids);

/** Wraps IDS from BASE on in the post-processor's special tokens (a BOS), as add_special_tokens does. */
void kvr_tokenizer_add_special_tokens(const kvr_tokenizer_t *tok, kvr_token_ids_t *ids,
                                      size_t base);

/** The number of tokens TEXT encodes to. */
int kvr_tokenizer_count(const kvr_tokenizer_t *tok, const char *text, size_t text_len,
                        bool add_special_tokens, size_t *count);

/** Number of ids in the vocabulary and added tokens (the largest id + 1). */
size_t kvr_tokenizer_vocab_size(const kvr_tokenizer_t *tok);

void kvr_token_ids_init(kvr_token_ids_t *ids);
void kvr_token_ids_close(kvr_token_ids_t *ids);

#endif
