/* SPDX-License-Identifier: Apache-2.0 */
/* round_robin: engines in turn by table index, whatever their load (a baseline). */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    uint64_t picks; /* picks so far */
    uint64_t
        picked_at[KVR_MAX_ENGINES]; /* engine index -> picks count at its last pick, 0 = never */
} round_robin_t;

static int rr_create(const kvr_policy_config_t *config, void **state)
{
    (void)config;
    round_robin_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    *state = st;
    return 0;
}

static void rr_destroy(void *state)
{
    free(state);
}

/*
 * The least recently picked candidate, ties by engine index: the turn stays
 * fair when engines join, leave or fail health checks between picks, and
 * within each model pool when requests for several pools interleave (a
 * rotation by "next index after the last pick" sends every other request
 * of one pool to the same engine when two pools alternate).
 */
static void rr_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                    size_t n, kvr_route_decision_t *out)
{
    (void)req;
    round_robin_t *st = state;
    size_t pick = 0;
    for (size_t v = 1; v < n; v++) {
        uint64_t a = st->picked_at[views[v].index], b = st->picked_at[views[pick].index];
        if (a < b || (a == b && views[v].index < views[pick].index))
            pick = v;
    }
    st->picked_at[views[pick].index] = ++st->picks;
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
