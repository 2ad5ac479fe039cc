/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_SIM_PD_H
#define KVR_BENCH_SIM_PD_H

/* The prefill and decode halves of vLLM's disaggregated protocol (bench/sim/pd.c). */

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kvr_sim_engine_s kvr_sim_engine_t;

/** What a request's kv_transfer_params ask. */
typedef struct kvr_sim_pd_s {
    bool prefill;            /* do_remote_decode: answer with where the KV is */
    bool decode;             /* do_remote_prefill: the KV comes from another engine */
    kvr_sim_engine_t *owner; /* the fleet's engine holding it, NULL: another process's */
    size_t ticket;           /* its ticket there */
} kvr_sim_pd_t;

/** Reads root's kv_transfer_params: 0, -EINVAL (malformed, 400) or -ENOENT (KV unknown or expired). */
int kvr_sim_pd_inspect(const kvr_sim_engine_t *e, const cJSON *root, kvr_sim_pd_t *out, char *msg,
                       size_t cap);
/** The decode took the KV: its ticket is freed. */
void kvr_sim_pd_consume(const kvr_sim_pd_t *pd);
/** A prefill's answer: holds its KV for --kv-hold-ms and adds kv_transfer_params to doc. */
void kvr_sim_pd_answer(kvr_sim_engine_t *e, cJSON *doc, uint32_t prompt_tokens);

#endif
