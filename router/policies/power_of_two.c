/* SPDX-License-Identifier: Apache-2.0 */
/*
 * power_of_two: two distinct engines drawn at random, the one with fewer
 * eff_requests wins (ties: the first drawn). Sampling two instead of
 * scanning all keeps concurrent routers from herding onto one minimum.
 */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    uint64_t rng;
} power_of_two_t;

static int p2_create(const kvr_policy_config_t *config, void **state)
{
    power_of_two_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    st->rng = config->seed;
    *state = st;
    return 0;
}

static void p2_destroy(void *state)
{
    free(state);
}

static void p2_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                    size_t n, kvr_route_decision_t *out)
{
    (void)req;
    power_of_two_t *st = state;
    size_t pick = 0;
    if (n > 1) {
        size_t a = kvr_splitmix64_below(&st->rng, n);
        size_t b = kvr_splitmix64_below(&st->rng, n - 1);
        if (b >= a)
            b++; /* distinct from a, still uniform */
        pick = views[b].eff_requests < views[a].eff_requests ? b : a;
    }
    out->view = (int)pick;
    out->reason = "power_of_two";
    out->prefix_match_blocks = 0;
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_power_of_two = {
    .name = "power_of_two",
    .create = p2_create,
    .destroy = p2_destroy,
    .pick = p2_pick,
};
