/* SPDX-License-Identifier: Apache-2.0 */
#include "template/check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "template/template.h"

static void describe(FILE *log, size_t line_no, int rc, const kvr_template_error_t *err,
                     const cJSON *own, const char *want, const char *got, size_t got_len)
{
    fprintf(log, "line %zu: mismatch (rc=%d %s)\n", line_no, rc, rc ? err->message : "");
    if (cJSON_IsString(own))
        fprintf(log, "  template: %.200s\n", own->valuestring);
    if (rc == 0 && want) {
        size_t i = 0, wl = strlen(want);
        while (i < got_len && i < wl && got[i] == want[i])
            i++;
        size_t from = i > 40 ? i - 40 : 0;
        fprintf(log, "  first difference at byte %zu\n  want: %.80s\n  got:  %.80s\n", i,
                want + from, got + from);
    }
}

int kvr_template_check(const char *template_text, size_t template_len, char *jsonl,
                       kvr_template_check_t *out, FILE *log)
{
    memset(out, 0, sizeof(*out));
    kvr_template_error_t err;
    kvr_template_t *shared = NULL;
    if (template_text && kvr_template_compile(template_text, template_len, &shared, &err)) {
        if (log)
            fprintf(log, "compile failed: %s\n", err.message);
        return -EINVAL;
    }
    size_t line_no = 0;
    for (char *line = jsonl, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        if (!*line)
            continue;
        out->cases++;
        cJSON *c = cJSON_Parse(line);
        if (!c) {
            if (log)
                fprintf(log, "line %zu: bad JSON\n", line_no);
            out->mismatches++;
            continue;
        }
        const cJSON *own = cJSON_GetObjectItemCaseSensitive(c, "template");
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "text");
        kvr_template_t *tpl = shared;
        int rc = 0;
        if (!shared)
            rc = cJSON_IsString(own)
                     ? kvr_template_compile(own->valuestring, strlen(own->valuestring), &tpl, &err)
                     : -EINVAL;
        char *text = NULL;
        size_t text_len = 0;
        if (rc == 0)
            rc = kvr_template_render(
                tpl, cJSON_GetObjectItemCaseSensitive(c, "messages"),
                cJSON_GetObjectItemCaseSensitive(c, "tools"),
                cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "add_generation_prompt")),
                cJSON_GetObjectItemCaseSensitive(c, "vars"), NULL, &text, &text_len, &err);
        bool ok = cJSON_IsString(want) ? rc == 0 && text_len == strlen(want->valuestring) &&
                                             memcmp(text, want->valuestring, text_len) == 0
                                       : rc != 0;
        if (rc)
            out->refused++;
        if (!ok) {
            out->mismatches++;
            if (log && out->mismatches <= 20)
                describe(log, line_no, rc, &err, own,
                         cJSON_IsString(want) ? want->valuestring : NULL, text, text_len);
        }
        free(text);
        if (!shared)
            kvr_template_destroy(tpl);
        cJSON_Delete(c);
    }
    kvr_template_destroy(shared);
    return 0;
}
