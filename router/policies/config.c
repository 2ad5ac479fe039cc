/* SPDX-License-Identifier: Apache-2.0 */
/* Policy options: one row each in the option table (key, type, default, range, help). */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "router/policies/policy_util.h"

#define T kvr_policy_config_t

static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, seed, "seed", "N", "1", 0, UINT64_MAX,
                    "seed of random, power_of_two and cost sampling"),
    KVR_OPT_ROW_DOUBLE(
        T, overload_factor, "overload-factor", "X", "1.3", 0, 1e6,
        "affinity guard A: leave the best match above factor x fleet mean eff_requests + 1"),
    KVR_OPT_ROW_U64(
        T, balance_abs, "balance-abs", "N", "64", 0, 4000000000u,
        "cache_aware: imbalanced when max - min eff_requests exceeds this (and balance-rel)"),
    KVR_OPT_ROW_DOUBLE(
        T, balance_rel, "balance-rel", "X", "1.5", 1, 1e6,
        "cache_aware: imbalanced when max exceeds this x min eff_requests (and balance-abs)"),
    KVR_OPT_ROW_DOUBLE(T, cache_threshold, "cache-threshold", "X", "0.3", 0, 1,
                       "cache_aware: prefix match rate above which the owner of the match is used"),
    KVR_OPT_ROW_BOOL(
        T, owner_pressure, "owner-pressure", "off",
        "cache_aware: judge owners by scheduler occupancy and KV pressure, spill hot prefixes"),
    KVR_OPT_ROW_DOUBLE(T, high_watermark, "high-watermark", "X", "0.9", 0, 10,
                       "cache_aware: owner pressure at or above which a prefix may move"),
    KVR_OPT_ROW_DOUBLE(
        T, owner_slack, "owner-slack", "X", "0.1", 0, 10,
        "cache_aware: a spill target's pressure must be at least this below the owner's"),
    KVR_OPT_ROW_U64(T, replication_ceiling, "replication-ceiling", "N", "3", 1, KVR_MAX_ENGINES,
                    "cache_aware: no spill once a prefix has this many owners"),
    KVR_OPT_ROW_MS(
        T, spill_cooldown_ns, "spill-cooldown-ms", "1000", 0, 3600000,
        "cache_aware: at most one spill per prefix in this window; placements this young are "
        "provisional"),
    KVR_OPT_ROW_DOUBLE(T, overlap_weight, "overlap-weight", "X", "1", 0, 1e6,
                       "cost: weight of uncached prompt blocks against active decode blocks"),
    KVR_OPT_ROW_DOUBLE(T, temperature, "temperature", "X", "0", 0, 1e6,
                       "cost: 0 picks the lowest cost, > 0 samples a softmax of normalised costs"),
    KVR_OPT_ROW_U64(
        T, index_tokens_per_engine, "index-tokens-per-engine", "N", "262144", 16, 1000000000000ull,
        "prefix index: LRU token budget per engine when the feed does not report its KV capacity"),
    KVR_OPT_ROW_MS(T, index_ttl_ns, "index-ttl-ms", "300000", 0, 86400000,
                   "prefix index: entries older than this count as evicted (0 = never)"),
    KVR_OPT_ROW_U64(T, index_max_blocks, "index-max-blocks", "N", "1048576", 1, 1073741824,
                    "prefix index: (block, engine) entries across the fleet, about 80 bytes each"),
    KVR_OPT_ROW_DOUBLE(
        T, migrate_factor, "migrate-factor", "X", "0", 0, 1e6,
        "sticky/affinity: re-home a pinned session above factor x fleet mean eff_requests + 1 "
        "(0 = off)"),
    KVR_OPT_ROW_DOUBLE(
        T, ttft_prefill_tokens_per_s, "ttft-prefill-tokens-per-s", "X", "10000", 1, 1e9,
        "ttft: prefill throughput assumed for an engine until it is learned from the feed"),
    KVR_OPT_ROW_DOUBLE(
        T, ttft_step_ms, "ttft-step-ms", "X", "12", 0.001, 1e5,
        "ttft: decode step of an empty batch assumed until learned from first bytes"),
    KVR_OPT_ROW_DOUBLE(T, ttft_step_per_seq_ms, "ttft-step-per-seq-ms", "X", "0.15", 0, 1e5,
                       "ttft: decode step time each running sequence adds, assumed until learned"),
    KVR_OPT_ROW_DOUBLE(
        T, ttft_others_weight, "ttft-others-weight", "X", "0.5", 0, 1e6,
        "ttft: weight of the delay a placement's prefill adds to the requests already "
        "running there (seconds of theirs per second of own TTFT)"),
    KVR_OPT_ROW_DOUBLE(
        T, ttft_learn_rate, "ttft-learn-rate", "X", "0.2", 0, 1,
        "ttft: weight of each new observation in the learned prefill rate and step time "
        "(0 = keep the priors)"),
    KVR_OPT_ROW_U64(
        T, ttft_output_tokens, "ttft-output-tokens", "N", "128", 1, 1000000,
        "ttft: output tokens of the requests on an engine, assumed until their max_tokens are seen "
        "(how fast a full batch frees a slot)"),
    KVR_OPT_ROW_DOUBLE(T, llmd_prefill_tokens_per_s, "llmd-prefill-tokens-per-s", "X", "10000", 1,
                       1e9, "llmd: an engine's peak prefill throughput"),
    KVR_OPT_ROW_MS(
        T, llmd_ttft_penalty_ns, "llmd-ttft-penalty-ms", "1000", 0, 3600000,
        "llmd: TTFT a request may wait behind the cache-warm engine's queued prefill before it is "
        "routed on token load instead (saturated: queued prefill > throughput x penalty)"),
};

#undef T

kvr_opt_set_t kvr_policy_config_options(kvr_policy_config_t *config)
{
    return (kvr_opt_set_t){.opts = options,
                           .n_opts = sizeof options / sizeof options[0],
                           .obj = config,
                           .title = "policy options (same syntax as flags):"};
}

void kvr_policy_config_defaults(kvr_policy_config_t *config)
{
    memset(config, 0, sizeof(*config));
    kvr_opt_set_t set = kvr_policy_config_options(config);
    char err[256];
    int rc = kvr_opt_defaults(&set, err, sizeof err);
    (void)rc;
    assert(rc == 0); /* the defaults are the table's own text */
}

int kvr_policy_config_set(kvr_policy_config_t *config, const char *key, const char *value)
{
    kvr_opt_set_t set = kvr_policy_config_options(config);
    const kvr_opt_t *o = kvr_opt_find(&set, 1, key, NULL);
    if (!o)
        return -ENOENT;
    char err[256];
    return kvr_opt_apply(&set, o, value, false, err, sizeof err) < 0 ? -EINVAL : 0;
}

void kvr_policy_config_help(FILE *out)
{
    kvr_opt_set_t set = kvr_policy_config_options(NULL);
    set.title = NULL;
    kvr_opt_help(out, &set);
}
