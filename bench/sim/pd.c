/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disaggregated serving as vLLM's NIXL connector speaks it. A request whose
 * kv_transfer_params say do_remote_decode is a prefill: the engine answers
 * with where its KV is (engine id, block ids, host, port) and holds that KV
 * for --kv-hold-ms. One whose params say do_remote_prefill is a decode: the
 * params must name KV an engine of this fleet holds (an engine of another
 * process is taken on trust), else the answer is a clear error, as a lost
 * transfer is; the fault lose_transfers holds it forever instead, a transfer
 * that never completes.
 */
#include "bench/sim/pd.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/sim/sim.h"

static bool whole(const cJSON *v, double lo, double hi, uint64_t *out)
{
    double d = cJSON_GetNumberValue(v);
    if (!cJSON_IsNumber(v) || !(d >= lo && d <= hi) || d != floor(d))
        return false;
    *out = (uint64_t)d;
    return true;
}

int kvr_sim_pd_inspect(const kvr_sim_engine_t *e, const cJSON *root, kvr_sim_pd_t *out, char *msg,
                       size_t cap)
{
    memset(out, 0, sizeof *out);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "kv_transfer_params");
    if (!params || cJSON_IsNull(params))
        return 0;
    if (!cJSON_IsObject(params))
        return snprintf(msg, cap, "kv_transfer_params must be an object"), -EINVAL;
    bool remote_decode = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(params, "do_remote_decode"));
    bool remote_prefill = cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(params, "do_remote_prefill"));
    if (remote_decode && remote_prefill)
        return snprintf(msg, cap,
                        "kv_transfer_params: do_remote_decode and do_remote_prefill "
                        "are both true"),
               -EINVAL;
    if (remote_decode) {
        out->prefill = true;
        return 0;
    }
    if (!remote_prefill)
        return 0;
    const cJSON *engine_id = cJSON_GetObjectItemCaseSensitive(params, "remote_engine_id");
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(params, "remote_host");
    const cJSON *blocks = cJSON_GetObjectItemCaseSensitive(params, "remote_block_ids");
    uint64_t port, first = 0;
    if (!cJSON_IsString(engine_id) || !cJSON_IsString(host) || !cJSON_IsArray(blocks) ||
        !whole(cJSON_GetObjectItemCaseSensitive(params, "remote_port"), 1, 65535, &port))
        return snprintf(msg, cap,
                        "kv_transfer_params: do_remote_prefill needs remote_engine_id, "
                        "remote_host, remote_port and remote_block_ids"),
               -EINVAL;
    int n_blocks = cJSON_GetArraySize(blocks);
    if (n_blocks > 0 && !whole(cJSON_GetArrayItem(blocks, 0), 0, 9007199254740991.0, &first))
        return snprintf(msg, cap, "kv_transfer_params: remote_block_ids must be integers"), -EINVAL;
    out->decode = true;
    const kvr_sim_fleet_t *fleet = e->fleet;
    for (int i = 0; i < fleet->cfg.engines; i++) {
        const kvr_sim_engine_t *owner = &fleet->engines[i];
        if ((uint64_t)owner->port != port || strcmp(host->valuestring, fleet->cfg.host) != 0)
            continue;
        uint64_t now = kvr_sim_now_ns();
        for (size_t k = 0; k < KVR_SIM_PD_TICKETS; k++) {
            const kvr_sim_pd_ticket_t *t = &owner->pd_tickets[k];
            if (t->n_blocks && t->first_block == first && t->n_blocks == (uint32_t)n_blocks &&
                strcmp(engine_id->valuestring, owner->engine_id) == 0 && now < t->expires_ns) {
                out->owner = (kvr_sim_engine_t *)owner;
                out->ticket = k;
                return 0;
            }
        }
        return snprintf(msg, cap,
                        "KV transfer failed: %s holds no KV for blocks %" PRIu64
                        "+%d (unknown or expired after --kv-hold-ms)",
                        owner->engine_id, first, n_blocks),
               -ENOENT;
    }
    return 0; /* another process's engine: taken on trust */
}

void kvr_sim_pd_consume(const kvr_sim_pd_t *pd)
{
    if (pd->owner)
        pd->owner->pd_tickets[pd->ticket].n_blocks = 0; /* pulled once: freed on the prefill side */
}

void kvr_sim_pd_answer(kvr_sim_engine_t *e, cJSON *doc, uint32_t prompt_tokens)
{
    uint32_t n_blocks = (prompt_tokens + KVR_SIM_BLOCK_TOKENS - 1) / KVR_SIM_BLOCK_TOKENS;
    if (n_blocks == 0)
        n_blocks = 1;
    kvr_sim_pd_ticket_t *t = &e->pd_tickets[e->pd_next++ % KVR_SIM_PD_TICKETS];
    t->first_block = e->pd_next_block;
    t->n_blocks = n_blocks;
    t->expires_ns = kvr_sim_now_ns() + e->fleet->cfg.kv_hold_ms * 1000000ull;
    e->pd_next_block += n_blocks;
    cJSON *params = cJSON_AddObjectToObject(doc, "kv_transfer_params");
    cJSON_AddBoolToObject(params, "do_remote_prefill", true);
    cJSON_AddBoolToObject(params, "do_remote_decode", false);
    cJSON_AddStringToObject(params, "remote_engine_id", e->engine_id);
    cJSON *ids = cJSON_AddArrayToObject(params, "remote_block_ids");
    for (uint32_t k = 0; ids && k < n_blocks && k < 4096; k++)
        cJSON_AddItemToArray(ids, cJSON_CreateNumber((double)(t->first_block + k)));
    cJSON_AddStringToObject(params, "remote_host", e->fleet->cfg.host);
    cJSON_AddNumberToObject(params, "remote_port", e->port);
}
