/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A tokenizer.json on hostile bytes: it loads or fails with an error; a
 * loaded one encodes a fixed text with every id inside its vocabulary.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tokens/tokenizer.h"

#define REQUIRE(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_tokenizer_t *tok = NULL;
    char err[256];
    int rc = kvr_tokenizer_create_from_json((const char *)data, size, NULL, 0, &tok, err,
                                            sizeof err);
    if (rc < 0) {
        REQUIRE(tok == NULL && strlen(err) < sizeof err);
        return 0;
    }
    static const char text[] = "Hello  world's 123 \xe4\xb8\x80\n\t<s> \xff<e>";
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    if (kvr_tokenizer_encode(tok, text, sizeof text - 1, true, &ids) == 0) {
        for (size_t i = 0; i < ids.len; i++)
            REQUIRE(ids.ids[i] < kvr_tokenizer_vocab_size(tok));
    } else {
        REQUIRE(ids.len == 0);
    }
    kvr_token_ids_close(&ids);
    kvr_tokenizer_destroy(tok);
    return 0;
}
