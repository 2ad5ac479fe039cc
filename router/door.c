/* SPDX-License-Identifier: Apache-2.0 */
#include "router/door.h"

#include "common/clock.h"

void kvr_door_route(kvr_door_t *door, const kvr_route_request_t *req, const uint32_t *exclude,
                    size_t n_exclude, kvr_charge_t *charge, kvr_decide_result_t *out)
{
    kvr_router_metrics_t *m = door->metrics;
    kvr_decide_route(door->decider, req, exclude, n_exclude, charge, out);
    if (out->pressure_fallback)
        m->pressure_fallback_total++;
    if (out->input_clamped)
        m->input_clamped_total++;
    if (out->status == 503)
        m->no_candidate_total++;
    if (!out->engine)
        return;
    if (out->pin == KVR_DECIDE_PIN_REPLACED)
        m->sessions_replaced_total++;
    else if (out->pin == KVR_DECIDE_PIN_MIGRATED)
        m->sessions_migrated_total++;
    else if (out->pin == KVR_DECIDE_PIN_NEW)
        m->sessions_placed_total++;
    kvr_router_metrics_selection(m, out->engine->index, out->reason);
}

void kvr_door_release(kvr_door_t *door, kvr_charge_t *charge)
{
    kvr_decide_release(door->decider, charge);
}

void kvr_door_first_byte(kvr_door_t *door, const kvr_route_request_t *req,
                         const kvr_decide_result_t *res, uint64_t now_ns)
{
    kvr_decide_first_byte(door->decider, req, res, now_ns);
}

bool kvr_door_has_candidate(const kvr_door_t *door, const char *model, const uint32_t *exclude,
                            size_t n_exclude)
{
    return kvr_decide_has_candidate_for(door->decider, model, exclude, n_exclude);
}

bool kvr_door_has_role_candidate(const kvr_door_t *door, const char *model, uint8_t role,
                                 const uint32_t *exclude, size_t n_exclude)
{
    return kvr_decide_has_role_candidate(door->decider, model, role, exclude, n_exclude);
}

kvr_pool_t kvr_door_resolve_model(const kvr_door_t *door, const char *model, char *resolved,
                                  size_t cap)
{
    return kvr_decide_resolve_model(door->decider, model, resolved, cap);
}

size_t kvr_door_served_models(const kvr_door_t *door, const char **out, size_t cap)
{
    return kvr_decide_served_models(door->decider, out, cap);
}

/*
 * One line per request, so it is written straight into the log's stdio
 * buffer: no document is built (the format is router/README.md's).
 */
void kvr_door_log_decision(kvr_door_t *door, const char *request_id, const char *session_id,
                           const kvr_decide_result_t *res, int status, uint32_t attempt)
{
    if (door->decision_log)
        kvr_decide_log(door->decider, door->decision_log, request_id, session_id, res, status,
                       attempt, kvr_clock_wall_ns() / KVR_NS_PER_MS);
}

void kvr_door_engine_failed(kvr_door_t *door, kvr_engine_t *e, const char *why)
{
    if (kvr_decide_engine_failed(door->decider, e, why, kvr_clock_now_ns()))
        kvr_upstream_pool_flush(kvr_door_pool(door, e->index));
}

void kvr_door_engine_ok(kvr_door_t *door, kvr_engine_t *e)
{
    kvr_decide_engine_ok(door->decider, e, kvr_clock_now_ns());
}

kvr_upstream_pool_t *kvr_door_pool(const kvr_door_t *door, uint32_t index)
{
    return door->pools && index < door->decider->engines.max_engines ? door->pools[index] : NULL;
}

const kvr_engine_table_t *kvr_door_engines(const kvr_door_t *door)
{
    return &door->decider->engines;
}

kvr_engine_t *kvr_door_engine(const kvr_door_t *door, uint32_t index)
{
    return kvr_decide_engine(door->decider, index);
}

kvr_engine_t *kvr_door_lookup(const kvr_door_t *door, uint32_t index, uint32_t generation)
{
    return kvr_engine_table_lookup(&door->decider->engines, index, generation);
}

kvr_engine_t *kvr_door_find_engine(const kvr_door_t *door, const char *id)
{
    return kvr_decide_find_engine(door->decider, id);
}

size_t kvr_door_expire_sessions(kvr_door_t *door, uint64_t now_ns)
{
    return kvr_decide_expire_sessions(door->decider, now_ns);
}

void kvr_door_share_tick(kvr_door_t *door, uint64_t now_ns)
{
    kvr_decide_share_tick(door->decider, now_ns);
}
