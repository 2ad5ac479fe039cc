/* SPDX-License-Identifier: Apache-2.0 */
/* The C renderer against the reference (@huggingface/jinja with the models' shipped chat
 * templates): a deterministic sample of generated conversations per family, and small
 * one-construct templates over random values. The full corpus: scripts/template-corpus.sh. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "template/check.h"
#include "tests/support/proc.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!buf)
        return NULL;
    buf[got] = '\0';
    *len = got;
    return buf;
}

static void node_or_skip(const char *src)
{
    char mod[512];
    snprintf(mod, sizeof mod, "%s/tests/template/node_modules/@huggingface/jinja/package.json",
             src);
    if (system("command -v node >/dev/null 2>&1") != 0 || access(mod, R_OK) != 0)
        cr_skip_test("node or tests/template's packages missing: run scripts/install-deps.sh");
}

/* Runs a generator script (argv after the script name) to completion. */
static void generate(const char *src, const char *script, char *const extra[])
{
    char path[512], node_path[256] = "node";
    snprintf(path, sizeof path, "%s/tests/template/%s", src, script);
    FILE *p = popen("command -v node", "r");
    if (p && fgets(node_path, sizeof node_path, p))
        node_path[strcspn(node_path, "\n")] = '\0';
    if (p)
        pclose(p);
    char *argv[16] = {node_path, path};
    size_t n = 2;
    for (size_t i = 0; extra[i] && n < 15; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    pid_t pid = kvr_test_spawn(argv, NULL);
    cr_assert_gt(pid, 0);
    int st = kvr_test_wait_exit(pid, 100000);
    cr_assert_eq(st, 0, "%s failed: %d", script, st);
}

static void check(const char *tpl_path, const char *cases_path, size_t want_cases)
{
    size_t tlen = 0, clen = 0;
    char *tpl = tpl_path ? slurp(tpl_path, &tlen) : NULL;
    char *cases = slurp(cases_path, &clen);
    cr_assert(cases && (!tpl_path || tpl));
    kvr_template_check_t sum;
    cr_assert_eq(kvr_template_check(tpl, tlen, cases, &sum, stderr), 0);
    cr_expect_eq(sum.cases, want_cases);
    cr_expect_eq(sum.mismatches, 0, "%zu of %zu cases differ from the reference", sum.mismatches,
                 sum.cases);
    cr_expect_lt(sum.refused, sum.cases, "every case refused: the check would prove nothing");
    free(tpl);
    free(cases);
}

/* names by value: a parameter's pointers do not survive into Criterion's worker */
struct family_s {
    char name[16];
};

ParameterizedTestParameters(reference, family)
{
    static struct family_s families[] = {{"qwen3"}, {"llama3_1"}, {"deepseek_v3"}};
    return cr_make_param_array(struct family_s, families, 3);
}

ParameterizedTest(struct family_s *fam, reference, family, .timeout = 120.)
{
    const char *family_name = fam->name;
    const char **family = &family_name;
    const char *src = getenv("KVR_SOURCE_DIR"), *build = getenv("KVR_BUILD_DIR");
    cr_assert(src && build);
    node_or_skip(src);
    char out[512], tpl[600], cases[600];
    snprintf(out, sizeof out, "%s/tests/template/cases", build);
    char *args[] = {"--family", (char *)*family, "--count", "300", "--seed",
                    "1",        "--out",         out,       NULL};
    generate(src, "gen_cases.mjs", args);
    snprintf(tpl, sizeof tpl, "%s/%s.jinja", out, *family);
    snprintf(cases, sizeof cases, "%s/%s.jsonl", out, *family);
    check(tpl, cases, 300);
}

Test(reference, features, .timeout = 120.)
{
    const char *src = getenv("KVR_SOURCE_DIR"), *build = getenv("KVR_BUILD_DIR");
    cr_assert(src && build);
    node_or_skip(src);
    char out[512], cases[600];
    snprintf(out, sizeof out, "%s/tests/template/cases", build);
    char *args[] = {"--count", "2000", "--seed", "7", "--out", out, NULL};
    generate(src, "gen_features.mjs", args);
    snprintf(cases, sizeof cases, "%s/features.jsonl", out);
    check(NULL, cases, 2000);
}
