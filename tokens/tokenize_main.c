/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-tokenize: the token ids of a text, read whole from stdin, or of
 * each JSONL record ({"text": ...} or {"hex": ...}), or a reference corpus
 * ({"text"|"hex", "ids", "ids_special"}) checked id for id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/buf.h"
#include "common/hex.h"
#include "common/options.h"
#include "tokens/tokenizer.h"

typedef struct cli_s {
    const char *tokenizer;
    bool special;
    bool jsonl;
    const char *check;
    uint64_t max_report;
} cli_t;

static const kvr_opt_t k_opts[] = {
    KVR_OPT_ROW_STRPTR(cli_t, tokenizer, "tokenizer", "DIR", NULL,
                       "directory holding the model's tokenizer.json (and tokenizer_config.json)"),
    KVR_OPT_ROW_BOOL(cli_t, special, "special", "off",
                     "add the post-processor's special tokens (e.g. a BOS) around the text"),
    KVR_OPT_ROW_BOOL(cli_t, jsonl, "jsonl", "off",
                     "read JSONL records {\"text\": ...} or {\"hex\": ...} from stdin; print "
                     "{\"ids\": [...]} for each"),
    KVR_OPT_ROW_STRPTR(cli_t, check, "check", "FILE", NULL,
                       "check a reference corpus: JSONL {\"text\"|\"hex\", \"ids\", "
                       "\"ids_special\"}; prints counts, exits 1 on any mismatch"),
    KVR_OPT_ROW_U64(cli_t, max_report, "max-report", "N", "5", 0, 1000000,
                    "mismatches printed in full with --check"),
    KVR_OPT_ROW_HELP,
};

/* The record's text: "text" as UTF-8, or "hex" as raw bytes. */
static int record_text(const cJSON *rec, kvr_buf_t *out)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, "text");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(rec, "hex");
    kvr_buf_reset(out);
    if (cJSON_IsString(t)) {
        kvr_buf_append_str(out, t->valuestring);
        return 0;
    }
    if (!cJSON_IsString(h) || strlen(h->valuestring) % 2)
        return -EINVAL;
    for (const char *p = h->valuestring; *p; p += 2) {
        int a = kvr_hex_digit(p[0]), b = kvr_hex_digit(p[1]);
        if (a < 0 || b < 0)
            return -EINVAL;
        kvr_buf_append_char(out, (char)(a * 16 + b));
    }
    return 0;
}

static bool ids_equal(const cJSON *want, const kvr_token_ids_t *got)
{
    if (!cJSON_IsArray(want) || (size_t)cJSON_GetArraySize(want) != got->len)
        return false;
    size_t i = 0;
    for (const cJSON *e = want->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || e->valuedouble != (double)got->ids[i])
            return false;
    }
    return true;
}

static void print_ids(FILE *f, const kvr_token_ids_t *ids)
{
    fputc('[', f);
    for (size_t i = 0; i < ids->len; i++)
        fprintf(f, i ? ",%u" : "%u", ids->ids[i]);
    fputc(']', f);
}

static int run_lines(const kvr_tokenizer_t *tok, const cli_t *cli, FILE *in)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    kvr_buf_t text = KVR_BUF_INIT;
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    uint64_t lines = 0, mismatches = 0, failures = 0, tokens = 0;
    while ((n = getline(&line, &cap, in)) > 0) {
        lines++;
        cJSON *rec = cJSON_ParseWithLength(line, (size_t)n);
        if (!rec || record_text(rec, &text) < 0) {
            fprintf(stderr, "kvroute-tokenize: line %llu: not a {\"text\"|\"hex\"} record\n",
                    (unsigned long long)lines);
            failures++;
            cJSON_Delete(rec);
            continue;
        }
        for (int special = 0; special < 2; special++) {
            if (!cli->check && special != (int)cli->special)
                continue;
            ids.len = 0;
            int rc = kvr_tokenizer_encode(tok, text.base ? text.base : "", text.len, special, &ids);
            if (rc < 0) {
                fprintf(stderr, "kvroute-tokenize: line %llu: %s\n", (unsigned long long)lines,
                        strerror(-rc));
                failures++;
                continue;
            }
            tokens += ids.len;
            if (!cli->check) {
                fputs("{\"ids\":", stdout);
                print_ids(stdout, &ids);
                fputs("}\n", stdout);
                continue;
            }
            const cJSON *want = cJSON_GetObjectItemCaseSensitive(rec,
                                                                 special ? "ids_special" : "ids");
            if (!want)
                continue;
            if (!ids_equal(want, &ids)) {
                if (mismatches < cli->max_report) {
                    char *w = cJSON_PrintUnformatted(want);
                    fprintf(
                        stderr,
                        "mismatch line %llu special=%d\n  text: %.300s\n  want: %.400s\n  got:  ",
                        (unsigned long long)lines, special, line, w ? w : "?");
                    print_ids(stderr, &ids);
                    fputc('\n', stderr);
                    free(w);
                }
                mismatches++;
            }
        }
        cJSON_Delete(rec);
    }
    if (cli->check)
        printf("checked %llu texts, %llu tokens, %llu mismatches, %llu failures\n",
               (unsigned long long)lines, (unsigned long long)tokens,
               (unsigned long long)mismatches, (unsigned long long)failures);
    free(line);
    kvr_buf_close(&text);
    kvr_token_ids_close(&ids);
    return mismatches || failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    cli_t cli = {0};
    kvr_opt_set_t set = {k_opts, sizeof k_opts / sizeof k_opts[0], &cli, NULL};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    kvr_opt_program_t prog = {
        "kvroute-tokenize",
        "usage: kvroute-tokenize --tokenizer DIR [--special] [--jsonl | --check FILE] < input\n"
        "Encodes text with a model's Hugging Face tokenizer (byte-level BPE) and prints the ids.\n",
        NULL};
    int prc = kvr_opt_program_parse(&prog, &parser, argc, argv);
    if (prc == 1)
        return 0;
    if (prc < 0)
        return 2;
    if (!cli.tokenizer) {
        fprintf(stderr, "kvroute-tokenize: --tokenizer DIR is required\n");
        return 2;
    }
    char err[256];
    kvr_tokenizer_t *tok;
    int rc = kvr_tokenizer_create(cli.tokenizer, &tok, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute-tokenize: %s\n", err);
        return 1;
    }
    int status = 0;
    if (cli.check) {
        FILE *f = fopen(cli.check, "r");
        if (!f) {
            fprintf(stderr, "kvroute-tokenize: %s: %s\n", cli.check, strerror(errno));
            status = 1;
        } else {
            status = run_lines(tok, &cli, f);
            fclose(f);
        }
    } else if (cli.jsonl) {
        status = run_lines(tok, &cli, stdin);
    } else {
        kvr_buf_t in = KVR_BUF_INIT;
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
            kvr_buf_append(&in, chunk, n);
        kvr_token_ids_t ids;
        kvr_token_ids_init(&ids);
        rc = kvr_tokenizer_encode(tok, in.base ? in.base : "", in.len, cli.special, &ids);
        if (rc < 0) {
            fprintf(stderr, "kvroute-tokenize: %s\n", strerror(-rc));
            status = 1;
        } else {
            print_ids(stdout, &ids);
            fputc('\n', stdout);
        }
        kvr_token_ids_close(&ids);
        kvr_buf_close(&in);
    }
    kvr_tokenizer_destroy(tok);
    return status;
}
