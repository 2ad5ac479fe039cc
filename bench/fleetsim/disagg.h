/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_FLEETSIM_DISAGG_H
#define KVR_BENCH_FLEETSIM_DISAGG_H

/*
 * Disaggregated fleets in kvroute-fleetsim: the first --prefill-engines
 * engines prefill only, the rest decode only, with kvroute-sim's engine
 * model on both. A request is routed by kvroute's decision core as the
 * proxy routes it with --pd-protocol vllm: first among the prefill engines
 * (--policy), its prompt computed there with one output token; when that
 * answer is back at the router, among the decode engines
 * (--pd-decode-policy, kv_headroom by default); the decode engine starts
 * once the prompt's KV moved, prompt tokens x --kv-bytes-per-token at
 * --kv-transfer-gbps, holding that KV without computing it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/engine_spec.h"

typedef struct kvr_fleet_disagg_config_s {
    uint32_t prefill_engines; /* 0: colocated (every engine role=both) */
    double kv_transfer_gbps;  /* 0: the KV moves at once */
    uint64_t kv_bytes_per_token;
} kvr_fleet_disagg_config_t;

typedef enum {
    KVR_FLEET_PD_NONE = 0, /* colocated */
    KVR_FLEET_PD_PREFILL,
    KVR_FLEET_PD_DECODE,
} kvr_fleet_pd_phase_t;

/** A request's disaggregated state. */
typedef struct kvr_fleet_pd_req_s {
    uint8_t phase;                  /* kvr_fleet_pd_phase_t */
    int prefill_engine;             /* -1 before */
    uint32_t prefill_cached_tokens; /* the prefill engine's prefix hit: the record's */
} kvr_fleet_pd_req_t;

/** kvroute-sim's defaults: 100 Gbit/s, 96 KiB per token. */
void kvr_fleet_disagg_defaults(kvr_fleet_disagg_config_t *cfg);
/** Checks the split against the fleet size; 0, or -EINVAL with a reason in err. */
int kvr_fleet_disagg_check(const kvr_fleet_disagg_config_t *cfg, uint32_t n_engines, char *err,
                           size_t err_len);
/** Engine i's role. */
kvr_engine_role_t kvr_fleet_disagg_role(const kvr_fleet_disagg_config_t *cfg, uint32_t i);
/** A new request's state: its first phase. */
void kvr_fleet_disagg_start(const kvr_fleet_disagg_config_t *cfg, kvr_fleet_pd_req_t *pd);
/** The role the router routes the request's current phase among. */
kvr_engine_role_t kvr_fleet_disagg_route_role(const kvr_fleet_pd_req_t *pd);
/** Output tokens the engine of the current phase generates: 1 on a prefill engine. */
uint32_t kvr_fleet_disagg_max_tokens(const kvr_fleet_pd_req_t *pd, uint32_t output_tokens);
/** Prompt tokens the engine of the current phase holds from elsewhere: all on a decode engine. */
uint32_t kvr_fleet_disagg_remote_kv(const kvr_fleet_pd_req_t *pd, uint32_t prompt_tokens);
/** The prefill phase ended on engine with cached_tokens hit: the request goes to decode. */
void kvr_fleet_disagg_prefill_done(kvr_fleet_pd_req_t *pd, int engine, uint32_t cached_tokens);
/** Time the prompt's KV takes from the prefill engine to the decode engine. */
uint64_t kvr_fleet_disagg_transfer_ns(const kvr_fleet_disagg_config_t *cfg, uint32_t tokens);

#endif
