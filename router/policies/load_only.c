/* SPDX-License-Identifier: Apache-2.0 */
/*
 * load_only: the engine with the lowest eff_requests; equals take turns by
 * engine index, so an idle fleet is filled evenly rather than from engine 0.
 * `sticky` is this policy under oneshot placement.
 */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    uint32_t cursor;
} load_only_t;

static int lo_create(const kvr_policy_config_t *config, void **state)
{
    (void)config;
    load_only_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    st->cursor = UINT32_MAX;
    *state = st;
    return 0;
}

static void lo_destroy(void *state)
{
    free(state);
}

static void lo_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                    size_t n, kvr_route_decision_t *out)
{
    (void)req;
    load_only_t *st = state;
    out->view = (int)kvr__policy_least_load(views, n, &st->cursor);
    out->reason = "least_load";
    out->prefix_match_blocks = 0;
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_load_only = {
    .name = "load_only",
    .create = lo_create,
    .destroy = lo_destroy,
    .pick = lo_pick,
};
