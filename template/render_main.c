/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute-template-render: checks the C renderer against reference renderings.
 *   kvroute-template-render TEMPLATE_FILE CASES.jsonl
 *   kvroute-template-render - CASES.jsonl      (each case carries its own "template")
 * Prints a summary; exits 0 when every case agrees with the reference, 1 otherwise. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template/check.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
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
    if (argc != 3) {
        bool help = argc == 2 && !strcmp(argv[1], "--help");
        fprintf(help ? stdout : stderr,
                "usage: %s TEMPLATE_FILE|- CASES.jsonl\n"
                "Renders each case with the chat template (with -, the case's own\n"
                "\"template\") and compares with the reference's text or refusal stored in\n"
                "the case (tests/template/gen_cases.mjs, gen_features.mjs write them).\n",
                argv[0]);
        return help ? 0 : 2;
    }
    size_t tlen = 0, clen;
    char *text = strcmp(argv[1], "-") ? slurp(argv[1], &tlen) : NULL;
    char *cases = slurp(argv[2], &clen);
    if ((strcmp(argv[1], "-") && !text) || !cases) {
        fprintf(stderr, "cannot read %s\n", !cases ? argv[2] : argv[1]);
        return 2;
    }
    kvr_template_check_t sum;
    int rc = kvr_template_check(text, tlen, cases, &sum, stderr);
    if (rc == 0)
        printf("cases=%zu refused=%zu mismatches=%zu\n", sum.cases, sum.refused, sum.mismatches);
    free(text);
    free(cases);
    return rc || sum.mismatches ? 1 : 0;
}
