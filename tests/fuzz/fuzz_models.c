/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An engine's /v1/models answer and an engine spec on hostile bytes. The
 * first byte picks the parser: even, the rest is a /v1/models body; odd, an
 * "URL[,model=NAME]..." spec. Every name that comes out is bounded, distinct,
 * and made safe for logs and labels without a byte past its buffer; a name
 * learnt from a list is UTF-8 (ids readers could take two ways are dropped).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "router/models.h"

/* Checked in every build type: NDEBUG must not turn the oracle off. */
#define REQUIRE(cond) ((cond) ? (void)0 : abort())

static void check(const kvr_model_list_t *l)
{
    REQUIRE(l->n <= KVR_MODELS_MAX);
    for (size_t i = 0; i < l->n; i++) {
        size_t len = strlen(l->names[i]);
        REQUIRE(len > 0 && len <= KVR_MODEL_NAME_MAX);
        for (size_t j = 0; j < i; j++)
            REQUIRE(strcmp(l->names[i], l->names[j]) != 0);
        char safe[KVR_MODEL_SAFE_MAX];
        kvr_model_name_safe(l->names[i], safe, sizeof safe);
        REQUIRE(strlen(safe) < sizeof safe);
        for (const unsigned char *p = (const unsigned char *)safe; *p; p++)
            REQUIRE(*p >= 0x20 && *p != 0x7f && *p != '"');
        char small[8];
        kvr_model_name_safe(l->names[i], small, sizeof small);
        REQUIRE(strlen(small) < sizeof small);
        (void)kvr_model_name_plain(l->names[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    kvr_model_list_t l = {0};
    char err[160];
    if ((data[0] & 1) == 0) {
        int rc = kvr_models_parse((const char *)data + 1, size - 1, &l, err, sizeof err);
        REQUIRE(rc >= 0 ? l.n > 0 : l.n == 0);
        REQUIRE(rc <= 1);
        /* A learnt name is one every reader reads alike: UTF-8 (and no U+0000, by construction). */
        for (size_t i = 0; i < l.n; i++)
            REQUIRE(kvr_json_utf8_valid_prefix(l.names[i], strlen(l.names[i])) ==
                    strlen(l.names[i]));
    } else {
        char *spec = malloc(size);
        memcpy(spec, data + 1, size - 1);
        spec[size - 1] = '\0';
        kvr_engine_spec_t parsed;
        int rc = kvr_models_parse_spec(spec, &parsed, &l, err, sizeof err);
        REQUIRE(rc == 0 || l.n == 0);
        REQUIRE(rc != 0 || strlen(parsed.url) < sizeof parsed.url);
        free(spec);
    }
    check(&l);
    kvr_model_list_close(&l);
    return 0;
}
