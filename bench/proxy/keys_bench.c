/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-keys: what extracting the routing keys costs per request
 * body size (agentic prompts reach 100k+ tokens): a bare cJSON parse, the
 * whole extraction (cJSON parse into the per-thread arena + text + prefix
 * block hashes) and the hashing alone, next to a plain memchr pass over the
 * bytes as the floor. cJSON is the project's JSON library; the jansson
 * figures it was chosen over are in router/README.md.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/json_strict.h"
#include "common/prefix_hash.h"
#include "router/keys.h"

/* An agentic chat: a long system prompt, then alternating turns, with JSON escapes in the text. */
static char *make_body(size_t target, size_t *len)
{
    size_t cap = target + 4096;
    char *b = malloc(cap);
    size_t n = (size_t)snprintf(
        b, cap,
        "{\"model\":\"m\",\"stream\":true,\"max_tokens\":256,\"session_id\":\"s-1\","
        "\"messages\":[");
    static const char words[] = "the tool returned \\\"ok\\\" for file src/main.c line 42\\n ";
    int turn = 0;
    while (n + 600 < target) {
        n += (size_t)snprintf(b + n, cap - n, "%s{\"role\":\"%s\",\"content\":\"", turn ? "," : "",
                              turn == 0  ? "system"
                              : turn % 2 ? "user"
                                         : "assistant");
        size_t chunk = turn == 0 ? target / 4 : 2048;
        for (size_t w = 0; w < chunk && n + sizeof words + 64 < target; w += sizeof words - 1)
            n += (size_t)snprintf(b + n, cap - n, "%s", words);
        n += (size_t)snprintf(b + n, cap - n, "\"}");
        turn++;
    }
    n += (size_t)snprintf(b + n, cap - n, "]}");
    *len = n;
    return b;
}

static double per_op_us(uint64_t t0, uint64_t t1, int iters)
{
    return (double)(t1 - t0) / 1e3 / iters;
}

/* The extraction again with a model's tokenizer: the chat template, then the tokens. */
static double tokens_us(const kvr_keys_config_t *cfg, const kvr_tokenizer_set_t *set,
                        const char *body, size_t len, int iters, uint32_t *n_tokens)
{
    kvr_keys_tokens_t tokens = {.set = set, .block_tokens = 16};
    kvr_route_keys_t keys;
    char err[256];
    uint64_t t0 = kvr_clock_now_ns();
    for (int i = 0; i < iters; i++) {
        if (kvr_keys_extract_tokens(cfg, &tokens, body, len, NULL, &keys, err, sizeof err) < 0 ||
            !keys.prompt_tokens_exact) {
            fprintf(stderr, "kvroute-bench-keys: not tokenized: %s%s\n", err, keys.tokenize_error);
            exit(1);
        }
        *n_tokens = keys.prompt_tokens;
        kvr_keys_free(&keys);
    }
    return per_op_us(t0, kvr_clock_now_ns(), iters);
}

int main(int argc, char **argv)
{
    kvr_tokenizer_set_t *set = NULL;
    if (argc == 3 && strcmp(argv[1], "--tokenizer") == 0) {
        char spec[4200], err[700];
        snprintf(spec, sizeof spec, "m=%s", argv[2]);
        char *specs[] = {spec};
        if (kvr_tokenizer_set_load(specs, 1, NULL, &set, err, sizeof err) < 0) {
            fprintf(stderr, "kvroute-bench-keys: %s\n", err);
            return 1;
        }
    } else if (argc > 1) {
        printf(
            "usage: kvroute-bench-keys [--tokenizer DIR]\n\nTimes routing-key extraction for 4 KB, 128 KB and 512 KB chat bodies:\n"
            "memchr floor, cJSON parse, the scan for keys two readers could read apart\n"
            "(common/json_strict.h, after the parse), the router's whole extraction (cJSON +\n"
            "scan + text + block hashes) and the hashing alone, in microseconds per body;\n"
            "one line per size. --tokenizer DIR adds the extraction keyed on the model's\n"
            "tokens (chat template + tokenizer, kvroute --tokenizer) and the prompt's tokens.\n");
        return 0;
    }
    static const size_t sizes[] = {4 * 1024, 128 * 1024, 512 * 1024};
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    printf("%-8s %10s %10s %12s %10s %12s %10s %12s%s\n", "body", "bytes", "memchr_us", "cjson_us",
           "strict_us", "extract_us", "hash_us", "extract_MB/s",
           set ? "  tokens_us    tokens" : "");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t len;
        char *body = make_body(sizes[s], &len);
        int iters = sizes[s] <= 4096 ? 20000 : sizes[s] <= 131072 ? 400 : 100;
        volatile size_t sink = 0;

        uint64_t t0 = kvr_clock_now_ns();
        for (int i = 0; i < iters; i++) {
            const char *p = body;
            size_t left = len;
            while ((p = memchr(p, '"', left))) {
                sink++;
                p++;
                left = len - (size_t)(p - body);
            }
        }
        uint64_t t1 = kvr_clock_now_ns();
        double scan = per_op_us(t0, t1, iters);

        t0 = kvr_clock_now_ns();
        for (int i = 0; i < iters; i++) {
            cJSON *doc = cJSON_ParseWithLength(body, len);
            sink += doc != NULL;
            cJSON_Delete(doc);
        }
        t1 = kvr_clock_now_ns();
        double cparse = per_op_us(t0, t1, iters);

        cJSON *parsed = cJSON_ParseWithLength(body, len);
        t0 = kvr_clock_now_ns();
        for (int i = 0; i < iters; i++) {
            kvr_json_strict_t strict;
            kvr_json_strict_init(&strict, parsed, body, len);
            sink += strict.n_nul_strings;
            kvr_json_strict_close(&strict);
        }
        t1 = kvr_clock_now_ns();
        cJSON_Delete(parsed);
        double strict_scan = per_op_us(t0, t1, iters);

        kvr_route_keys_t keys;
        char err[256];
        t0 = kvr_clock_now_ns();
        for (int i = 0; i < iters; i++) {
            if (kvr_keys_extract(&cfg, body, len, NULL, &keys, err, sizeof err) < 0) {
                fprintf(stderr, "kvroute-bench-keys: %s\n", err);
                return 1;
            }
            sink += keys.n_blocks;
            kvr_keys_free(&keys);
        }
        t1 = kvr_clock_now_ns();
        double extract = per_op_us(t0, t1, iters);

        kvr_keys_extract(&cfg, body, len, NULL, &keys, err, sizeof err);
        uint64_t *hashes = malloc((keys.text_len / KVR_PREFIX_BLOCK_BYTES + 1) * sizeof *hashes);
        t0 = kvr_clock_now_ns();
        for (int i = 0; i < iters; i++)
            sink += kvr_prefix_hash_blocks(keys.text, keys.text_len, hashes,
                                           keys.text_len / KVR_PREFIX_BLOCK_BYTES + 1);
        t1 = kvr_clock_now_ns();
        double hash = per_op_us(t0, t1, iters);
        free(hashes);
        kvr_keys_free(&keys);

        char label[32];
        snprintf(label, sizeof label, "%zuKB", sizes[s] / 1024);
        printf("%-8s %10zu %10.2f %12.2f %10.2f %12.2f %10.2f %12.1f", label, len, scan, cparse,
               strict_scan, extract, hash, (double)len / extract);
        if (set) {
            uint32_t n_tokens = 0;
            double tok = tokens_us(&cfg, set, body, len, iters / 20 ? iters / 20 : 1, &n_tokens);
            printf(" %10.1f %9u", tok, n_tokens);
        }
        printf("\n");
        free(body);
        (void)sink;
    }
    kvr_tokenizer_set_unref(set);
    return 0;
}
