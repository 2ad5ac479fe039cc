/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-template: what turning a chat request into prompt text costs with a model's
 * chat template: compile once, then render conversations of growing size (a system prompt,
 * then user/assistant turns; every fourth assistant turn calls a tool whose result follows).
 *   kvroute-bench-template TEMPLATE_FILE
 * The templates the tests use are in tests/template/node_modules (scripts/install-deps.sh);
 * tests/template/gen_cases.mjs writes them out as OUT/<family>.jinja.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "template/template.h"

/* CPU time of this process: the figure that holds on a machine shared with other work. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (buf)
        buf[got] = '\0';
    *len = got;
    return buf;
}

static cJSON *conversation(size_t target_bytes)
{
    static const char words[] = "the tool returned \"ok\" for src/main.c line 42; 你好 😀\n";
    cJSON *msgs = cJSON_CreateArray();
    size_t total = 0;
    for (int turn = 0; total < target_bytes; turn++) {
        size_t chunk = turn == 0 ? target_bytes / 4 + 1 : 2048;
        char *text = malloc(chunk + sizeof words);
        size_t n = 0;
        while (n < chunk) {
            memcpy(text + n, words, sizeof words - 1);
            n += sizeof words - 1;
        }
        text[n] = '\0';
        const char *role = turn == 0 ? "system" : turn % 2 ? "user" : "assistant";
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "role", role);
        cJSON_AddStringToObject(m, "content", text);
        if (turn % 8 == 6) {
            cJSON *call = cJSON_CreateObject(), *fn = cJSON_CreateObject();
            cJSON_AddStringToObject(call, "type", "function");
            cJSON_AddStringToObject(fn, "name", "read_file");
            cJSON_AddStringToObject(fn, "arguments", "{\"path\": \"src/main.c\"}");
            cJSON_AddItemToObject(call, "function", fn);
            cJSON *calls = cJSON_CreateArray();
            cJSON_AddItemToArray(calls, call);
            cJSON_AddItemToObject(m, "tool_calls", calls);
            cJSON_AddItemToArray(msgs, m);
            m = cJSON_CreateObject();
            cJSON_AddStringToObject(m, "role", "tool");
            cJSON_AddStringToObject(m, "content", text);
            turn++;
        }
        cJSON_AddItemToArray(msgs, m);
        total += n;
        free(text);
    }
    return msgs;
}

int main(int argc, char **argv)
{
    if (argc != 2 || !strcmp(argv[1], "--help")) {
        fprintf(argc == 2 ? stdout : stderr, "usage: %s TEMPLATE_FILE\n", argv[0]);
        return argc == 2 ? 0 : 2;
    }
    size_t len;
    char *src = slurp(argv[1], &len);
    if (!src) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    kvr_template_t *tpl = NULL;
    kvr_template_error_t err;
    int rounds = 200;
    uint64_t t0 = cpu_ns();
    for (int i = 0; i < rounds; i++) {
        kvr_template_destroy(tpl);
        if (kvr_template_compile(src, len, &tpl, &err)) {
            fprintf(stderr, "compile: %s\n", err.message);
            return 1;
        }
    }
    printf("template=%s bytes=%zu compile_us=%.1f\n", argv[1], len,
           (double)(cpu_ns() - t0) / rounds / 1e3);
    cJSON *vars = cJSON_Parse("{\"bos_token\":\"<s>\",\"eos_token\":\"</s>\"}");
    kvr_template_scratch_t *scratch = kvr_template_scratch_create(64u << 20);
    static const size_t sizes[] = {1 << 10, 16 << 10, 128 << 10, 1 << 20};
    printf("%10s %8s %12s %12s %10s %12s\n", "request_B", "turns", "render_us", "output_B",
           "MB_per_s", "scratch_us");
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        cJSON *msgs = conversation(sizes[s]);
        int reps = sizes[s] >= (1 << 20) ? 20 : 200;
        size_t out_len = 0;
        t0 = cpu_ns();
        for (int r = 0; r < reps; r++) {
            char *out;
            if (kvr_template_render(tpl, msgs, NULL, true, vars, NULL, &out, &out_len, &err)) {
                fprintf(stderr, "render: %s\n", err.message);
                return 1;
            }
            free(out);
        }
        double us = (double)(cpu_ns() - t0) / reps / 1e3;
        /* the same with memory kept between renders */
        kvr_template_options_t opts = {.scratch = scratch};
        t0 = cpu_ns();
        for (int r = 0; r < reps; r++) {
            char *out;
            if (kvr_template_render(tpl, msgs, NULL, true, vars, &opts, &out, &out_len, &err)) {
                fprintf(stderr, "render: %s\n", err.message);
                return 1;
            }
            free(out);
        }
        double scratch_us = (double)(cpu_ns() - t0) / reps / 1e3;
        printf("%10zu %8d %12.1f %12zu %10.1f %12.1f\n", sizes[s], cJSON_GetArraySize(msgs), us,
               out_len, (double)out_len / us, scratch_us);
        cJSON_Delete(msgs);
    }
    cJSON_Delete(vars);
    kvr_template_scratch_destroy(scratch);
    kvr_template_destroy(tpl);
    free(src);
    return 0;
}
