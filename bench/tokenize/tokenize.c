/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-tokenize DIR [TOKENS]: the time to load a tokenizer and to
 * encode one long prompt of about TOKENS tokens (default 100,000) of mixed
 * prose, code, CJK, digits and whitespace. Prints figures, asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "tokens/tokenizer.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *const k_parts[] = {
    "The quick brown fox doesn't jump over the lazy dog; it'll rest instead. ",
    "int main(void) {\n    for (int i = 0; i < 1024; i++)\n        printf(\"%d\\n\", i);\n}\n",
    "\xe4\xb8\xad\xe6\x96\x87\xe6\xb5\x8b\xe8\xaf\x95\xe6\x96\x87\xe6\x9c\xac\xef\xbc\x8c"
    "\xe7\x94\xa8\xe4\xba\x8e\xe5\x88\x86\xe8\xaf\x8d\xe3\x80\x82",
    "Order #123456789 shipped on 2026-12-01 at 23:45:07, total $1,234.56.\n",
    "    \t\n\n  \r\n",
    "caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9 \xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d"
    "\xf0\x9f\x92\xbb ",
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: kvroute-bench-tokenize DIR [TOKENS]\n");
        return 2;
    }
    size_t target = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    double t0 = now_ms();
    kvr_tokenizer_t *tok;
    char err[256];
    if (kvr_tokenizer_create(argv[1], &tok, err, sizeof err) < 0) {
        fprintf(stderr, "kvroute-bench-tokenize: %s\n", err);
        return 1;
    }
    double load_ms = now_ms() - t0;
    /* About 4 bytes a token: grow the text until it encodes to the target. */
    kvr_buf_t text = KVR_BUF_INIT;
    size_t k = 0;
    while (text.len < target * 4)
        kvr_buf_append_str(&text, k_parts[k++ % (sizeof k_parts / sizeof k_parts[0])]);
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    double best = 1e30;
    for (int run = 0; run < 5; run++) {
        ids.len = 0;
        double t = now_ms();
        if (kvr_tokenizer_encode(tok, text.base, text.len, false, &ids) < 0) {
            fprintf(stderr, "kvroute-bench-tokenize: encode failed\n");
            return 1;
        }
        double ms = now_ms() - t;
        if (ms < best)
            best = ms;
    }
    printf("tokenizer %s\nload_ms %.1f\nprompt_bytes %zu\nprompt_tokens %zu\nencode_ms %.2f "
           "(best of 5)\ntokens_per_s %.0f\n",
           argv[1], load_ms, text.len, ids.len, best, (double)ids.len / (best / 1e3));
    kvr_token_ids_close(&ids);
    kvr_buf_close(&text);
    kvr_tokenizer_destroy(tok);
    return 0;
}
