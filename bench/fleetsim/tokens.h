/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_FLEETSIM_TOKENS_H
#define KVR_BENCH_FLEETSIM_TOKENS_H

/*
 * kvroute-fleetsim --tokenizer DIR: prompts counted in a model's tokens, as
 * kvroute-sim --tokenizer counts what kvroute-replay sends it. Each request's
 * prompt is the text kvroute-replay makes from its hash ids, as the one user
 * message of a chat request, through the model's chat template and
 * tokenizer (router/tokenizers.c, the code kvroute --tokenizer keys with).
 * The engines prefill and cache those tokens (16-token blocks, chained as
 * kvroute-sim chains them); the routers count and key on them too
 * (--router-tokens exact, as kvroute --tokenizer --block-tokens 16), or on
 * the text as kvroute without a tokenizer does (estimate: bytes/4, 64-byte
 * text blocks). Every prompt is tokenized once, before the run.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/replay/trace.h"
#include "bench/sim/model.h"
#include "router/policy.h"

typedef struct kvr_fleet_tokens_s kvr_fleet_tokens_t;

/** One request's prompt in the model's tokens. */
typedef struct kvr_fleet_prompt_s {
    bool exact;       /* tokenized; false: the template or tokenizer refused, text counts stand */
    uint32_t tokens;  /* its token count (at least 1) */
    uint64_t *hashes; /* chained hashes of its full 16-token blocks */
    size_t n_hashes;
} kvr_fleet_prompt_t;

/** Loads DIR's tokenizer.json and tokenizer_config.json; 0 or -errno with err naming DIR. */
int kvr_fleet_tokens_create(const char *dir, bool router_exact, kvr_fleet_tokens_t **out, char *err,
                            size_t err_len);
/** Frees t (NULL is fine). */
void kvr_fleet_tokens_destroy(kvr_fleet_tokens_t *t);
/** Tokenizes request tr (trace index index) as the replayer's chat body; fills out. */
void kvr_fleet_tokens_prompt(kvr_fleet_tokens_t *t, const kvr_trace_request_t *tr,
                             uint32_t block_size, size_t index, kvr_fleet_prompt_t *out);
/** Frees what kvr_fleet_tokens_prompt allocated in p. */
void kvr_fleet_prompt_free(kvr_fleet_prompt_t *p);
/** With --router-tokens exact: req counts and keys on p's tokens (text keys left otherwise). */
void kvr_fleet_tokens_route_request(const kvr_fleet_tokens_t *t, const kvr_fleet_prompt_t *p,
                                    kvr_route_request_t *req);
/**
 * The engine prefills and caches p's tokens: mreq's prompt_tokens become p's,
 * and its hashes and p's are swapped (each still freed by its owner).
 */
void kvr_fleet_tokens_engine_request(kvr_fleet_prompt_t *p, kvr_sim_req_t *mreq);
/** The counts, as one JSON object (no newline): prompts, exact, fallbacks, tokens, bytes/4. */
void kvr_fleet_tokens_write_stats(const kvr_fleet_tokens_t *t, FILE *out);
/** One summary line for stdout. */
void kvr_fleet_tokens_print_summary(const kvr_fleet_tokens_t *t, FILE *out);

#endif
