/* SPDX-License-Identifier: Apache-2.0 */
/* The policies a router can be started with, by name. */
#include <string.h>

#include "router/policies/policy_util.h"

static const kvr_policy_ops_t *const registry[] = {
    &kvr__policy_round_robin, &kvr__policy_random,        &kvr__policy_power_of_two,
    &kvr__policy_load_only,   &kvr__policy_lmetric,       &kvr__policy_affinity,
    &kvr__policy_cache_aware, &kvr__policy_cost,          &kvr__policy_ttft,
    &kvr__policy_llmd,        &kvr__policy_lmetric_paper, &kvr__policy_kv_headroom,
};

const kvr_policy_ops_t *kvr_policy_find(const char *name)
{
    if (!name)
        return NULL;
    /* sticky is load_only placed once per session; the core chooses the placement from the name. */
    if (strcmp(name, "sticky") == 0)
        return &kvr__policy_load_only;
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

void kvr_policy_list(FILE *out)
{
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
        fprintf(out, "%s%s", i ? "," : "", registry[i]->name);
    fputs(",sticky", out);
}
