/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine spec on hostile bytes (the whole input is one spec, NULs
 * included). An accepted spec has an id that fits the segment, starts with
 * the scheme its tls flag says, holds no byte at or below the space, and
 * reads back as itself; its options split into key=value slices inside the
 * input; a refusal always says why, in one line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/engine_spec.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c))                                                                                  \
            abort();                                                                               \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The options point into the text, which must end in a NUL. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    kvr_engine_spec_t spec;
    char err[200] = "";
    int rc = kvr_engine_spec_parse(text, size, &spec, err, sizeof err);
    if (rc < 0) {
        REQUIRE(err[0] != '\0' && !strchr(err, '\n'));
        free(text);
        return 0;
    }
    size_t n = strlen(spec.url);
    const char *scheme = spec.tls ? "https://" : "http://";
    REQUIRE(n < KVR_SHM_ENGINE_ID_MAX && strncmp(spec.url, scheme, strlen(scheme)) == 0);
    for (size_t i = 0; i < n; i++)
        REQUIRE((unsigned char)spec.url[i] > ' ' && (unsigned char)spec.url[i] < 0x7f);
    REQUIRE(spec.port >= 1 && spec.host[0] != '\0');
    kvr_engine_spec_t again;
    REQUIRE(kvr_engine_spec_parse_url(spec.url, &again, err, sizeof err) == 0);
    REQUIRE(strcmp(again.url, spec.url) == 0 && again.port == spec.port &&
            again.family == spec.family);
    const char *cursor = spec.options;
    kvr_engine_option_t opt;
    while ((rc = kvr_engine_spec_next_option(&cursor, &opt, err, sizeof err)) > 0)
        REQUIRE(opt.key_len > 0 && opt.key >= text && opt.value + opt.value_len <= text + size);
    REQUIRE(rc == 0); /* parse checked every option already */
    free(text);
    return 0;
}
