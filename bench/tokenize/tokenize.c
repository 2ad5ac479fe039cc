/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-tokenize DIR [TOKENS]: the time to load a tokenizer and to
 * encode one long prompt of about TOKENS tokens (default 100,000) of mixed
 * prose, code, CJK, digits and whitespace.
 *
 * kvroute-bench-tokenize DIR --files RUNS IDS FILE...: each file encoded
 * RUNS times (best CPU time kept, MB/s per core), its ids written to
 * IDS/KIND.c.ids (u32 little-endian) for bench/tokenize/run.sh to compare
 * with the reference's, and the memory of the loaded tokenizer.
 *
 * kvroute-bench-tokenize DIR --turns FILE TURNS BYTES: a conversation in
 * Qwen-style chat markup, each message BYTES of FILE; turn N's prompt (all
 * earlier messages, the new one, the generation prompt) encoded without and
 * with the turn cache (warm from turn N-1), CPU time of each, best of 5.
 *
 * Prints figures, asserts nothing.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "tokens/tokenizer.h"
#include "tokens/turn_cache.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Resident and peak resident memory of this process, from /proc/self/status. */
static void rss_mb(double *rss, double *peak)
{
    *rss = *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long kb;
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
            *rss = (double)kb / 1024;
        else if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
            *peak = (double)kb / 1024;
    }
    fclose(f);
}

static double heap_mb(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (double)(mi.uordblks + mi.hblkhd) / 1048576;
}

static int read_all(const char *path, kvr_buf_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    char chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        kvr_buf_append(out, chunk, n);
    int rc = ferror(f) ? -EIO : 0;
    fclose(f);
    return rc;
}

/* "DIR/english.txt" -> "english" */
static void kind_of(const char *path, char *kind, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, ".");
    snprintf(kind, cap, "%.*s", (int)n, base);
}

static int bench_files(const char *dir, int runs, const char *ids_dir, char **files, int n_files)
{
    double rss0, peak0, rss1, peak1;
    rss_mb(&rss0, &peak0);
    double heap0 = heap_mb();
    double t0 = cpu_ms();
    kvr_tokenizer_t *tok;
    char err[256];
    if (kvr_tokenizer_create(dir, &tok, err, sizeof err) < 0) {
        fprintf(stderr, "kvroute-bench-tokenize: %s\n", err);
        return 1;
    }
    double load_ms = cpu_ms() - t0;
    malloc_trim(0); /* the file and its parse are freed: count what the tokenizer keeps */
    rss_mb(&rss1, &peak1);
    printf("c load cpu_ms=%.0f heap_mb=%.1f rss_mb=%.1f load_peak_mb=%.1f\n", load_ms,
           heap_mb() - heap0, rss1 - rss0, peak1);
    for (int f = 0; f < n_files; f++) {
        kvr_buf_t text = KVR_BUF_INIT;
        if (read_all(files[f], &text) < 0) {
            fprintf(stderr, "kvroute-bench-tokenize: cannot read %s\n", files[f]);
            return 1;
        }
        char kind[64];
        kind_of(files[f], kind, sizeof kind);
        kvr_token_ids_t ids;
        kvr_token_ids_init(&ids);
        double best = 1e30;
        for (int run = 0; run < runs; run++) {
            ids.len = 0;
            double t = cpu_ms();
            if (kvr_tokenizer_encode(tok, text.base, text.len, false, &ids) < 0) {
                fprintf(stderr, "kvroute-bench-tokenize: encode failed\n");
                return 1;
            }
            double ms = cpu_ms() - t;
            if (ms < best)
                best = ms;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.c.ids", ids_dir, kind);
        FILE *out = fopen(path, "wb");
        if (!out || fwrite(ids.ids, sizeof *ids.ids, ids.len, out) != ids.len) {
            fprintf(stderr, "kvroute-bench-tokenize: cannot write %s\n", path);
            return 1;
        }
        fclose(out);
        printf("c %s bytes=%zu tokens=%zu cpu_ms=%.1f mb_per_s=%.2f\n", kind, text.len, ids.len,
               best, (double)text.len / 1e6 / (best / 1e3));
        kvr_token_ids_close(&ids);
        kvr_buf_close(&text);
    }
    rss_mb(&rss1, &peak1);
    printf("c peak_rss_mb=%.1f\n", peak1);
    kvr_tokenizer_destroy(tok);
    return 0;
}

static int bench_turns(const char *dir, const char *file, int turns, size_t bytes)
{
    kvr_tokenizer_t *tok;
    char err[256];
    if (kvr_tokenizer_create(dir, &tok, err, sizeof err) < 0) {
        fprintf(stderr, "kvroute-bench-tokenize: %s\n", err);
        return 1;
    }
    kvr_buf_t src = KVR_BUF_INIT, convo = KVR_BUF_INIT, prompt = KVR_BUF_INIT;
    if (read_all(file, &src) < 0 || src.len < bytes * (size_t)turns * 2 + 8) {
        fprintf(stderr, "kvroute-bench-tokenize: %s too short\n", file);
        return 1;
    }
    kvr_turn_cache_t *cache;
    kvr_turn_cache_create(256u << 20, &cache);
    kvr_token_ids_t ids, cached;
    kvr_token_ids_init(&ids);
    kvr_token_ids_init(&cached);
    size_t at = 0;
    printf("turn prompt_bytes prompt_tokens plain_us cached_us reused_bytes same_ids\n");
    for (int t = 1; t <= turns; t++) {
        /* A message ends at a space, so each has whole words; the answer is the next slice. */
        size_t n = bytes;
        while (at + n < src.len && src.base[at + n] != ' ')
            n++;
        kvr_buf_append_str(&convo, "<|im_start|>user\n");
        kvr_buf_append(&convo, src.base + at, n);
        kvr_buf_append_str(&convo, "<|im_end|>\n");
        at += n;
        kvr_buf_reset(&prompt);
        kvr_buf_append(&prompt, convo.base, convo.len);
        kvr_buf_append_str(&prompt, "<|im_start|>assistant\n");
        double plain = 1e30, with = 1e30;
        kvr_turn_cache_stats_t before, after;
        for (int run = 0; run < 5; run++) {
            ids.len = 0;
            double t0 = cpu_ms();
            kvr_tokenizer_encode(tok, prompt.base, prompt.len, false, &ids);
            double ms = cpu_ms() - t0;
            plain = ms < plain ? ms : plain;
        }
        kvr_turn_cache_stats(cache, &before);
        for (int run = 0; run < 5; run++) {
            cached.len = 0;
            double t0 = cpu_ms();
            kvr_turn_cache_encode(cache, tok, prompt.base, prompt.len, &cached);
            double ms = cpu_ms() - t0;
            if (run == 0)
                kvr_turn_cache_stats(cache, &after); /* the first run is the real turn */
            /* the other runs find the whole prompt: a turn's cost is its first run's */
            with = run == 0 ? ms : with;
        }
        bool same = ids.len == cached.len && memcmp(ids.ids, cached.ids, ids.len * 4) == 0;
        printf("%d %zu %zu %.0f %.0f %llu %s\n", t, prompt.len, ids.len, plain * 1e3, with * 1e3,
               (unsigned long long)(after.hit_text_bytes - before.hit_text_bytes),
               same ? "yes" : "NO");
        /* The assistant's answer joins the conversation for the next turn. */
        n = bytes;
        while (at + n < src.len && src.base[at + n] != ' ')
            n++;
        kvr_buf_append_str(&convo, "<|im_start|>assistant\n");
        kvr_buf_append(&convo, src.base + at, n);
        kvr_buf_append_str(&convo, "<|im_end|>\n");
        at += n;
    }
    kvr_turn_cache_stats_t st;
    kvr_turn_cache_stats(cache, &st);
    printf("cache hits=%llu misses=%llu bytes=%zu entries=%zu\n", (unsigned long long)st.hits,
           (unsigned long long)st.misses, st.bytes, st.entries);
    kvr_turn_cache_destroy(cache);
    kvr_token_ids_close(&ids);
    kvr_token_ids_close(&cached);
    kvr_buf_close(&src);
    kvr_buf_close(&convo);
    kvr_buf_close(&prompt);
    kvr_tokenizer_destroy(tok);
    return 0;
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
        fprintf(stderr, "usage: kvroute-bench-tokenize DIR [TOKENS]\n"
                        "       kvroute-bench-tokenize DIR --files RUNS IDS FILE...\n"
                        "       kvroute-bench-tokenize DIR --turns FILE TURNS BYTES\n");
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "--turns") == 0) {
        if (argc < 6) {
            fprintf(stderr, "kvroute-bench-tokenize: --turns FILE TURNS BYTES\n");
            return 2;
        }
        return bench_turns(argv[1], argv[3], atoi(argv[4]), strtoul(argv[5], NULL, 10));
    }
    if (argc > 2 && strcmp(argv[2], "--files") == 0) {
        if (argc < 6) {
            fprintf(stderr, "kvroute-bench-tokenize: --files RUNS IDS FILE...\n");
            return 2;
        }
        int runs = atoi(argv[3]);
        return bench_files(argv[1], runs > 0 ? runs : 1, argv[4], argv + 5, argc - 5);
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
