/* SPDX-License-Identifier: Apache-2.0 */
/* Policy options: one table gives each its key, type, default, bounds and help line. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "router/policies/policy_util.h"

typedef enum { OPT_DOUBLE, OPT_U32, OPT_U64, OPT_BOOL, OPT_MS } opt_type_t;

typedef struct {
    const char *key;
    opt_type_t type;
    size_t offset;
    double def;     /* default, in the option's own unit (ms for OPT_MS) */
    double min, max;
    const char *help;
} opt_t;

#define F(field) offsetof(kvr_policy_config_t, field)

static const opt_t options[] = {
    {"seed", OPT_U64, F(seed), 1, 0, 1.9e19, "seed of random, power_of_two and cost sampling"},
    {"overload-factor", OPT_DOUBLE, F(overload_factor), 1.3, 0, 1e6,
     "affinity guard A: leave the best match above factor x fleet mean eff_requests + 1"},
    {"balance-abs", OPT_U32, F(balance_abs), 64, 0, 4e9,
     "cache_aware: imbalanced when max - min eff_requests exceeds this (and balance-rel)"},
    {"balance-rel", OPT_DOUBLE, F(balance_rel), 1.5, 1, 1e6,
     "cache_aware: imbalanced when max exceeds this x min eff_requests (and balance-abs)"},
    {"cache-threshold", OPT_DOUBLE, F(cache_threshold), 0.3, 0, 1,
     "cache_aware: prefix match rate above which the owner of the match is used"},
    {"owner-pressure", OPT_BOOL, F(owner_pressure), 0, 0, 1,
     "cache_aware: judge owners by scheduler occupancy and KV pressure, spill hot prefixes"},
    {"high-watermark", OPT_DOUBLE, F(high_watermark), 0.90, 0, 10,
     "cache_aware: owner pressure at or above which a prefix may move"},
    {"owner-slack", OPT_DOUBLE, F(owner_slack), 0.10, 0, 10,
     "cache_aware: a spill target's pressure must be at least this below the owner's"},
    {"replication-ceiling", OPT_U32, F(replication_ceiling), 3, 1, KVR_MAX_ENGINES,
     "cache_aware: no spill once a prefix has this many owners"},
    {"spill-cooldown-ms", OPT_MS, F(spill_cooldown_ns), 1000, 0, 3.6e6,
     "cache_aware: at most one spill per prefix in this window; placements this young are provisional"},
    {"overlap-weight", OPT_DOUBLE, F(overlap_weight), 1.0, 0, 1e6,
     "cost: weight of uncached prompt blocks against active decode blocks"},
    {"temperature", OPT_DOUBLE, F(temperature), 0, 0, 1e6,
     "cost: 0 picks the lowest cost, > 0 samples a softmax of normalised costs"},
    {"index-tokens-per-engine", OPT_U64, F(index_tokens_per_engine), 262144, 16, 1e12,
     "prefix index: LRU token budget per engine when the feed does not report its KV capacity"},
    {"index-ttl-ms", OPT_MS, F(index_ttl_ns), 300000, 0, 8.64e7,
     "prefix index: entries older than this count as evicted (0 = never)"},
    {"index-max-blocks", OPT_U64, F(index_max_blocks), 1048576, 1, 1073741824,
     "prefix index: (block, engine) entries across the fleet, about 80 bytes each"},
    {"migrate-factor", OPT_DOUBLE, F(migrate_factor), 0, 0, 1e6,
     "sticky/affinity: re-home a pinned session above factor x fleet mean eff_requests + 1 (0 = off)"},
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static void store(kvr_policy_config_t *config, const opt_t *o, double value)
{
    char *p = (char *)config + o->offset;
    switch (o->type) {
    case OPT_DOUBLE:
        *(double *)(void *)p = value;
        break;
    case OPT_U32:
        *(uint32_t *)(void *)p = (uint32_t)value;
        break;
    case OPT_U64:
        *(uint64_t *)(void *)p = (uint64_t)value;
        break;
    case OPT_BOOL:
        *(bool *)(void *)p = value != 0;
        break;
    case OPT_MS:
        *(uint64_t *)(void *)p = (uint64_t)(value * (double)KVR_NS_PER_MS);
        break;
    }
}

void kvr_policy_config_defaults(kvr_policy_config_t *config)
{
    memset(config, 0, sizeof(*config));
    for (size_t i = 0; i < N_OPTIONS; i++)
        store(config, &options[i], options[i].def);
}

static int parse_bool(const char *value, double *out)
{
    static const char *const yes[] = {"1", "true", "on", "yes"}, *const no[] = {"0", "false", "off", "no"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(value, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcmp(value, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -EINVAL;
}

int kvr_policy_config_set(kvr_policy_config_t *config, const char *key, const char *value)
{
    if (!key)
        return -ENOENT;
    if (strncmp(key, "--", 2) == 0)
        key += 2;
    const opt_t *o = NULL;
    for (size_t i = 0; i < N_OPTIONS && !o; i++)
        if (strcmp(options[i].key, key) == 0)
            o = &options[i];
    if (!o)
        return -ENOENT;
    if (!value || !*value)
        return -EINVAL;
    double v;
    if (o->type == OPT_BOOL) {
        if (parse_bool(value, &v) < 0)
            return -EINVAL;
    } else if (o->type == OPT_U32 || o->type == OPT_U64) {
        /* Integers parse as integers, so a 64-bit seed keeps every bit. */
        char *end;
        errno = 0;
        if (value[0] == '-')
            return -EINVAL;
        unsigned long long u = strtoull(value, &end, 0);
        if (errno || *end || (double)u < o->min || (double)u > o->max)
            return -EINVAL;
        char *p = (char *)config + o->offset;
        if (o->type == OPT_U32)
            *(uint32_t *)(void *)p = (uint32_t)u;
        else
            *(uint64_t *)(void *)p = (uint64_t)u;
        return 0;
    } else {
        char *end;
        errno = 0;
        v = strtod(value, &end);
        if (errno || *end || !isfinite(v) || v < o->min || v > o->max)
            return -EINVAL;
    }
    store(config, o, v);
    return 0;
}

void kvr_policy_config_help(FILE *out)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_t *o = &options[i];
        char def[32];
        if (o->type == OPT_BOOL)
            snprintf(def, sizeof(def), "%s", o->def != 0 ? "on" : "off");
        else if (o->type == OPT_DOUBLE)
            snprintf(def, sizeof(def), "%g", o->def);
        else
            snprintf(def, sizeof(def), "%.0f", o->def);
        fprintf(out, "  --%-26s %s (default %s)\n", o->key, o->help, def);
    }
}
