/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute-template-render: checks the C renderer against reference renderings.
 *   kvroute-template-render TEMPLATE_FILE CASES.jsonl
 *   kvroute-template-render - CASES.jsonl      (each case carries its own "template")
 * Each line of CASES is {"messages", "tools"?, "add_generation_prompt", "vars"?, and
 * "text" (the reference's rendering) or "error" (the reference refused)}. Prints a summary;
 * exits 0 when every case agrees, 1 otherwise. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template/template.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !strcmp(argv[1], "--help")) {
        fprintf(stderr, "usage: %s TEMPLATE_FILE|- CASES.jsonl\n"
                        "Renders each case with the chat template (with -, the case's own\n"
                        "\"template\") and compares with the reference text (or refusal)\n"
                        "stored in the case.\n", argv[0]);
        return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
    }
    size_t tlen, clen;
    bool per_case = !strcmp(argv[1], "-");
    char *text = per_case ? strdup("") : slurp(argv[1], &tlen);
    char *cases = slurp(argv[2], &clen);
    if (!text || !cases) {
        fprintf(stderr, "cannot read %s\n", !text ? argv[1] : argv[2]);
        return 2;
    }
    kvr_template_t *tpl = NULL;
    kvr_template_error_t err;
    int rc = per_case ? 0 : kvr_template_compile(text, tlen, &tpl, &err);
    if (rc) {
        fprintf(stderr, "compile failed: %s\n", err.message);
        return 1;
    }
    size_t total = 0, mismatches = 0, refused = 0, line_no = 0;
    for (char *line = cases, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        if (!*line)
            continue;
        cJSON *c = cJSON_Parse(line);
        if (!c) {
            fprintf(stderr, "line %zu: bad JSON\n", line_no);
            mismatches++;
            continue;
        }
        total++;
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "text");
        const cJSON *agp = cJSON_GetObjectItemCaseSensitive(c, "add_generation_prompt");
        char *out = NULL;
        size_t out_len = 0;
        const cJSON *own = cJSON_GetObjectItemCaseSensitive(c, "template");
        if (per_case) {
            kvr_template_destroy(tpl);
            tpl = NULL;
            rc = cJSON_IsString(own) ? kvr_template_compile(own->valuestring,
                                                            strlen(own->valuestring), &tpl, &err)
                                     : -EINVAL;
        }
        if (tpl)
            rc = kvr_template_render(tpl, cJSON_GetObjectItemCaseSensitive(c, "messages"),
                                 cJSON_GetObjectItemCaseSensitive(c, "tools"), cJSON_IsTrue(agp),
                                 cJSON_GetObjectItemCaseSensitive(c, "vars"), NULL, &out, &out_len,
                                 &err);
        bool ok;
        if (cJSON_IsString(want))
            ok = rc == 0 && out_len == strlen(want->valuestring) &&
                 memcmp(out, want->valuestring, out_len) == 0;
        else
            ok = rc != 0;
        if (rc)
            refused++;
        if (!ok) {
            mismatches++;
            if (mismatches <= 20) {
                fprintf(stderr, "line %zu: mismatch (rc=%d %s)\n", line_no, rc,
                        rc ? err.message : "");
                if (per_case)
                    fprintf(stderr, "  template: %s\n", own->valuestring);
                if (rc == 0 && cJSON_IsString(want)) {
                    size_t i = 0, wl = strlen(want->valuestring);
                    while (i < out_len && i < wl && out[i] == want->valuestring[i])
                        i++;
                    size_t from = i > 40 ? i - 40 : 0;
                    fprintf(stderr, "  first difference at byte %zu\n  want: %.80s\n  got:  %.80s\n",
                            i, want->valuestring + from, out + from);
                }
            }
        }
        free(out);
        cJSON_Delete(c);
    }
    printf("cases=%zu refused=%zu mismatches=%zu\n", total, refused, mismatches);
    kvr_template_destroy(tpl);
    free(text);
    free(cases);
    return mismatches ? 1 : 0;
}
