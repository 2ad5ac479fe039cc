/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Encoding hostile bytes with a small tokenizer (Qwen-style split regex,
 * NFC, added tokens with lstrip/rstrip): every input encodes, every id is in
 * the vocabulary, and the count agrees with the ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tokens/tiny_tokenizer.h"
#include "tokens/tokenizer.h"

#define REQUIRE(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Built per input: a target keeps no state between inputs. */
    kvr_tokenizer_t *tok;
    REQUIRE(kvr_tokenizer_create_from_json(k_tiny_tokenizer_json, strlen(k_tiny_tokenizer_json),
                                           NULL, 0, &tok, NULL, 0) == 0);
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    bool special = size > 0 && (data[0] & 1);
    int rc = kvr_tokenizer_encode(tok, (const char *)data, size, special, &ids);
    /* The tiny vocabulary lacks most bytes and has no unknown token: -ENOENT is its answer. */
    REQUIRE(rc == 0 || ids.len == 0);
    for (size_t i = 0; i < ids.len; i++)
        REQUIRE(ids.ids[i] < kvr_tokenizer_vocab_size(tok));
    size_t n;
    REQUIRE(kvr_tokenizer_count(tok, (const char *)data, size, special, &n) == rc);
    REQUIRE(n == ids.len);
    kvr_token_ids_close(&ids);
    kvr_tokenizer_destroy(tok);
    return 0;
}
