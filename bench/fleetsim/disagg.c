/* SPDX-License-Identifier: Apache-2.0 */
#include "bench/fleetsim/disagg.h"

#include <errno.h>
#include <stdio.h>

void kvr_fleet_disagg_defaults(kvr_fleet_disagg_config_t *cfg)
{
    cfg->prefill_engines = 0;
    cfg->kv_transfer_gbps = 100;
    cfg->kv_bytes_per_token = 98304;
}

int kvr_fleet_disagg_check(const kvr_fleet_disagg_config_t *cfg, uint32_t n_engines, char *err,
                           size_t err_len)
{
    if (cfg->prefill_engines > 0 && cfg->prefill_engines >= n_engines) {
        snprintf(err, err_len,
                 "--prefill-engines %u: at least one of the %u engines must be left to decode",
                 cfg->prefill_engines, n_engines);
        return -EINVAL;
    }
    return 0;
}

kvr_engine_role_t kvr_fleet_disagg_role(const kvr_fleet_disagg_config_t *cfg, uint32_t i)
{
    if (cfg->prefill_engines == 0)
        return KVR_ENGINE_ROLE_BOTH;
    return i < cfg->prefill_engines ? KVR_ENGINE_ROLE_PREFILL : KVR_ENGINE_ROLE_DECODE;
}

void kvr_fleet_disagg_start(const kvr_fleet_disagg_config_t *cfg, kvr_fleet_pd_req_t *pd)
{
    pd->phase = cfg->prefill_engines ? KVR_FLEET_PD_PREFILL : KVR_FLEET_PD_NONE;
    pd->prefill_engine = -1;
    pd->prefill_cached_tokens = 0;
}

kvr_engine_role_t kvr_fleet_disagg_route_role(const kvr_fleet_pd_req_t *pd)
{
    switch (pd->phase) {
    case KVR_FLEET_PD_PREFILL: return KVR_ENGINE_ROLE_PREFILL;
    case KVR_FLEET_PD_DECODE: return KVR_ENGINE_ROLE_DECODE;
    default: return KVR_ENGINE_ROLE_BOTH;
    }
}

uint32_t kvr_fleet_disagg_max_tokens(const kvr_fleet_pd_req_t *pd, uint32_t output_tokens)
{
    /* vLLM's prefill request: max_tokens 1, the token dropped; the decode engine's are the client's. */
    return pd->phase == KVR_FLEET_PD_PREFILL ? 1 : output_tokens;
}

uint32_t kvr_fleet_disagg_remote_kv(const kvr_fleet_pd_req_t *pd, uint32_t prompt_tokens)
{
    return pd->phase == KVR_FLEET_PD_DECODE ? prompt_tokens : 0;
}

void kvr_fleet_disagg_prefill_done(kvr_fleet_pd_req_t *pd, int engine, uint32_t cached_tokens)
{
    pd->phase = KVR_FLEET_PD_DECODE;
    pd->prefill_engine = engine;
    pd->prefill_cached_tokens = cached_tokens;
}

uint64_t kvr_fleet_disagg_transfer_ns(const kvr_fleet_disagg_config_t *cfg, uint32_t tokens)
{
    if (cfg->kv_transfer_gbps <= 0)
        return 0;
    /* As kvroute-sim's kvr_sim_pd_transfer_ns, in virtual time (no time scale). */
    double s = (double)tokens * (double)cfg->kv_bytes_per_token * 8.0 /
               (cfg->kv_transfer_gbps * 1e9);
    double ns = s * 1e9;
    return ns < 1.0 ? 1 : (uint64_t)ns;
}
