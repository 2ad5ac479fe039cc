/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A chat template and a request through compile and render: the input is the template's
 * text, then a NUL byte and the request as JSON ({"messages", "tools", "vars",
 * "add_generation_prompt"}; messages of a small chat when there is none). Either text that
 * is UTF-8 and within the output bound, or a negative code with a message.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "template/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(int rc, const kvr_template_error_t *err)
{
    if (rc >= 0 || err->code != rc || err->message[0] == '\0')
        abort(); /* a refusal needs its code and reason */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const uint8_t *nul = memchr(data, 0, size);
    size_t text_len = nul ? (size_t)(nul - data) : size;
    kvr_template_t *tpl = NULL;
    kvr_template_error_t err;
    int rc = kvr_template_compile(text, text_len, &tpl, &err);
    if (rc) {
        check_error(rc, &err);
        if (tpl)
            abort();
        return 0;
    }
    cJSON *req = nul ? cJSON_ParseWithLength((const char *)nul + 1, size - text_len - 1)
                     : cJSON_Parse("{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                                   "{\"role\":\"user\",\"content\":\"hi\"},"
                                   "{\"role\":\"assistant\",\"content\":\"<think>r</think>ok\"}],"
                                   "\"vars\":{\"bos_token\":\"<s>\"}}");
    const cJSON *messages = cJSON_GetObjectItemCaseSensitive(req, "messages");
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(req, "tools");
    const cJSON *vars = cJSON_GetObjectItemCaseSensitive(req, "vars");
    bool agp = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(req, "add_generation_prompt"));
    kvr_template_options_t opts = {.max_output_bytes = 1 << 20,
                                   .max_memory_bytes = 64u << 20,
                                   .max_loop_iterations = 100000,
                                   .max_work = 64u << 20,
                                   .now_unix_s = 1764633600};
    char *out = NULL;
    size_t out_len = 0;
    rc = kvr_template_render(tpl, messages, tools, agp, vars, &opts, &out, &out_len, &err);
    if (rc) {
        check_error(rc, &err);
        if (out)
            abort();
    } else if (!out || out[out_len] != '\0' || out_len > opts.max_output_bytes ||
               kvr_json_utf8_valid_prefix(out, out_len) != out_len) {
        abort();
    }
    free(out);
    cJSON_Delete(req);
    kvr_template_destroy(tpl);
    return 0;
}
