/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_REPLAY_TRACE_H
#define KVR_BENCH_REPLAY_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A trace in Mooncake's JSONL fields (timestamp ms, input_length,
 * output_length, hash_ids) with optional session_id and turn, and the
 * deterministic text a request's hash_ids stand for.
 *
 * Text mapping: one token is KVR_BYTES_PER_TOKEN (4) bytes, three lowercase
 * letters and a space, chosen by a hash of (block id, token position in the
 * block). A block of block_size tokens is block_size * 4 bytes of text that
 * depends on its id alone, so equal hash_id prefixes give equal text
 * prefixes, and a prompt of N tokens is 4N bytes, which is how both the
 * router and the simulator count tokens. With block_size a multiple of 16,
 * trace blocks line up with the router's 64-byte prefix blocks.
 */

typedef struct kvr_trace_request_s {
    uint64_t timestamp_ms;
    uint32_t input_length;  /* tokens */
    uint32_t output_length; /* tokens */
    int32_t turn;           /* -1 when the trace has none */
    char *session_id;       /* NULL when the trace has none (Mooncake's published traces) */
    uint64_t *hash_ids;
    size_t n_hash_ids;
} kvr_trace_request_t;

typedef struct kvr_trace_s {
    kvr_trace_request_t *requests;
    size_t len;
} kvr_trace_t;

/**
 * Loads a JSONL trace. Blank lines are skipped; a malformed line fails the
 * load with its line number in errbuf. Requests keep file order. Returns 0,
 * -errno, or KVR_EPARSE.
 */
int kvr_trace_load(kvr_trace_t *trace, const char *path, char *errbuf, size_t errlen);

/** How kvr_trace_load_opts treats lines that are not valid requests. */
typedef struct kvr_trace_load_opts_s {
    bool skip_bad;  /* skip an invalid line (reported, counted) instead of failing the load */
    bool ordered;   /* a timestamp below the previous request's is invalid */
    FILE *report;   /* where each skipped line is reported with its line number; NULL = nowhere */
    size_t skipped; /* out: lines skipped */
} kvr_trace_load_opts_t;

/**
 * kvr_trace_load with rules for invalid lines: a line that is not a JSON
 * object, lacks a field, has a negative length, a hash id that is not an
 * integer or (ordered) a timestamp going backwards fails the load with its
 * line number in errbuf, or with skip_bad is reported and counted. Out of
 * memory and read errors always fail.
 */
int kvr_trace_load_opts(kvr_trace_t *trace, const char *path, kvr_trace_load_opts_t *opts,
                        char *errbuf, size_t errlen);

/** Frees what kvr_trace_load allocated. */
void kvr_trace_free(kvr_trace_t *trace);

/**
 * Writes the prompt text of r into out (input_length * 4 bytes, no NUL).
 * Tokens past the last hash id use ids derived from fallback_id, so a trace
 * with too few ids still gives text private to that request.
 */
void kvr_trace_text(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback_id,
                    char *out);

/**
 * The part of kvr_trace_text's output from token first_token on, written
 * at out[0]: (input_length - first_token) * 4 bytes. Lets a reader that
 * already has a prompt's prefix make only the rest.
 */
void kvr_trace_text_from(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback_id,
                         uint32_t first_token, char *out);

/** Bytes kvr_trace_text writes for r. */
size_t kvr_trace_text_len(const kvr_trace_request_t *r);

#endif
