/* SPDX-License-Identifier: Apache-2.0 */
/* round_robin: engines in turn by table index, whatever their load (a baseline). */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    uint32_t last_index; /* engine index of the previous pick */
} round_robin_t;

static int rr_create(const kvr_policy_config_t *config, void **state)
{
    (void)config;
    round_robin_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    st->last_index = UINT32_MAX;
    *state = st;
    return 0;
}

static void rr_destroy(void *state)
{
    free(state);
}

/*
 * Rotating by engine index rather than by position in the views keeps the
 * turn fair when engines join, leave or fail health checks between picks.
 */
static void rr_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                    size_t n, kvr_route_decision_t *out)
{
    (void)req;
    round_robin_t *st = state;
    size_t after = n, first = 0;
    for (size_t v = 0; v < n; v++) {
        if (views[v].index < views[first].index)
            first = v;
        if (views[v].index > st->last_index && (after == n || views[v].index < views[after].index))
            after = v;
    }
    size_t pick = after != n ? after : first;
    st->last_index = views[pick].index;
    out->view = (int)pick;
    out->reason = "round_robin";
    out->prefix_match_blocks = 0;
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_round_robin = {
    .name = "round_robin",
    .create = rr_create,
    .destroy = rr_destroy,
    .pick = rr_pick,
};
