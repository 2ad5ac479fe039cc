/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_SIM_PD_H
#define KVR_BENCH_SIM_PD_H

/* Both halves of vLLM's and SGLang's disaggregated protocols (bench/sim/pd.c). */

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kvr_sim_engine_s kvr_sim_engine_t;
typedef struct kvr_sim_fleet_s kvr_sim_fleet_t;
typedef struct kvr_sim_call_s kvr_sim_call_t;
typedef struct kvr_sim_pd_wait_s kvr_sim_pd_wait_t;

/** What a request's kv_transfer_params or bootstrap fields ask. */
typedef struct kvr_sim_pd_s {
    bool prefill;            /* vLLM do_remote_decode: answer with where the KV is */
    bool decode;             /* vLLM do_remote_prefill: the KV comes from another engine */
    kvr_sim_engine_t *owner; /* the fleet's engine holding it, NULL: another process's */
    size_t ticket;           /* its ticket there */
    bool sglang_prefill;     /* bootstrap_room on a --prefill-engines engine: build the room's KV */
    bool sglang_decode;      /* bootstrap_room elsewhere: wait for the room's KV, then decode */
    uint64_t room;
    char bootstrap_host[64];
    int64_t bootstrap_port; /* -1: null or absent */
} kvr_sim_pd_t;

/** Reads root's kv_transfer_params and bootstrap fields: 0, -EINVAL (malformed, 400) or -ENOENT
 * (vLLM KV unknown or expired). */
int kvr_sim_pd_inspect(const kvr_sim_engine_t *e, const cJSON *root, kvr_sim_pd_t *out, char *msg,
                       size_t cap);
/** The decode took the KV: its ticket is freed. */
void kvr_sim_pd_consume(const kvr_sim_pd_t *pd);
/** A prefill's answer: holds its KV for --kv-hold-ms and adds kv_transfer_params to doc. */
void kvr_sim_pd_answer(kvr_sim_engine_t *e, cJSON *doc, uint32_t prompt_tokens);

/** An SGLang prefill of room began on e: a decode of the room waits for it. */
void kvr_sim_pd_room_open(kvr_sim_engine_t *e, uint64_t room);
/** The prefill of room computed its last prompt token: its KV moves to the decodes waiting. */
void kvr_sim_pd_room_ready(kvr_sim_fleet_t *fleet, uint64_t room);
/**
 * A decode call (pd->decode or pd->sglang_decode) waits for its KV: the transfer of
 * prompt_tokens' KV at --kv-transfer-gbps, after the room's prefill for SGLang. The call is
 * started (kvr_sim_call_start) or failed (kvr_sim_call_fail) later, from the loop.
 */
kvr_sim_pd_wait_t *kvr_sim_pd_defer(kvr_sim_engine_t *e, kvr_sim_call_t *c, const kvr_sim_pd_t *pd,
                                    uint32_t prompt_tokens);
/** The call left (client gone, engine crashed) while waiting: forgotten, nothing called. */
void kvr_sim_pd_wait_cancel(kvr_sim_fleet_t *fleet, kvr_sim_pd_wait_t *w);
/** The transfer time of tokens' KV in real ns (--kv-transfer-gbps, --kv-bytes-per-token). */
uint64_t kvr_sim_pd_transfer_ns(const kvr_sim_fleet_t *fleet, uint32_t tokens);
/** Sets up and closes the fleet's transfer timer (engine.c). */
void kvr_sim_pd_init(kvr_sim_fleet_t *fleet);
void kvr_sim_pd_close(kvr_sim_fleet_t *fleet);

#endif
