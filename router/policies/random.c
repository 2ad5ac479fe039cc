/* SPDX-License-Identifier: Apache-2.0 */
/* random: a uniformly random engine from the seeded generator (a baseline). */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    uint64_t rng;
} random_t;

static int random_create(const kvr_policy_config_t *config, void **state)
{
    random_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    st->rng = config->seed;
    *state = st;
    return 0;
}

static void random_destroy(void *state)
{
    free(state);
}

static void random_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                        size_t n, kvr_route_decision_t *out)
{
    (void)req;
    (void)views;
    random_t *st = state;
    out->view = (int)kvr_splitmix64_below(&st->rng, n);
    out->reason = "random";
    out->prefix_match_blocks = 0;
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_random = {
    .name = "random",
    .create = random_create,
    .destroy = random_destroy,
    .pick = random_pick,
};
