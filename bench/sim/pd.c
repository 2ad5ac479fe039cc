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
 *
 * And as SGLang speaks it: the router sends one body, with bootstrap_host,
 * bootstrap_port and bootstrap_room, to a prefill engine (--prefill-engines)
 * and a decode engine at once. The prefill opens the room and computes the
 * prompt; the decode waits until the room's prefill is done (at most
 * --kv-hold-ms), then for the transfer.
 *
 * Either way a decode starts once its KV has moved: prompt tokens times
 * --kv-bytes-per-token at --kv-transfer-gbps, in simulated time.
 */
#include "bench/sim/pd.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/sim.h"
#include "common/log.h"
#include "common/xmalloc.h"

/* A decode waiting for its KV: the room's prefill (due_ns 0), then the transfer. */
struct kvr_sim_pd_wait_s {
    kvr_sim_call_t *call;
    kvr_sim_engine_t *engine;
    bool sglang;
    uint64_t room;
    char host[64];
    int64_t port;
    uint32_t prompt_tokens;
    uint64_t due_ns;      /* when the KV is there; 0: the room's prefill is not done */
    uint64_t deadline_ns; /* no prefill by then: a transfer error */
    char why[256];        /* failed (from the loop) with this, when set */
    kvr_sim_pd_wait_t *prev, *next;
};

static bool whole(const cJSON *v, double lo, double hi, uint64_t *out)
{
    double d = cJSON_GetNumberValue(v);
    if (!cJSON_IsNumber(v) || !(d >= lo && d <= hi) || d != floor(d))
        return false;
    *out = d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
    return true;
}

int kvr_sim_pd_inspect(const kvr_sim_engine_t *e, const cJSON *root, kvr_sim_pd_t *out, char *msg,
                       size_t cap)
{
    memset(out, 0, sizeof *out);
    out->bootstrap_port = -1;
    const cJSON *room = cJSON_GetObjectItemCaseSensitive(root, "bootstrap_room");
    if (room && !cJSON_IsNull(room)) {
        const cJSON *host = cJSON_GetObjectItemCaseSensitive(root, "bootstrap_host");
        const cJSON *port = cJSON_GetObjectItemCaseSensitive(root, "bootstrap_port");
        uint64_t port_value = 0;
        /* 2^63 - 1 reads as 2^63 in a double: the bound is what a double can say. */
        if (!whole(room, 0, 9223372036854775808.0, &out->room) || !cJSON_IsString(host) ||
            strlen(host->valuestring) >= sizeof out->bootstrap_host ||
            (port && !cJSON_IsNull(port) && !whole(port, 1, 65535, &port_value)))
            return snprintf(msg, cap,
                            "bootstrap_room needs a whole bootstrap_room, a "
                            "bootstrap_host and a bootstrap_port that is a port or null"),
                   -EINVAL;
        snprintf(out->bootstrap_host, sizeof out->bootstrap_host, "%s", host->valuestring);
        if (port && !cJSON_IsNull(port))
            out->bootstrap_port = (int64_t)port_value;
        const bool *roles = e->fleet->cfg.prefill_engines;
        if (roles && roles[e->index])
            out->sglang_prefill = true;
        else
            out->sglang_decode = true;
        return 0;
    }
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

/* ---- SGLang's rooms, and decodes waiting for their KV ---- */

uint64_t kvr_sim_pd_transfer_ns(const kvr_sim_fleet_t *fleet, uint32_t tokens)
{
    const kvr_sim_config_t *cfg = &fleet->cfg;
    if (cfg->kv_transfer_gbps <= 0)
        return 0;
    double s = (double)tokens * (double)cfg->kv_bytes_per_token * 8.0 /
               (cfg->kv_transfer_gbps * 1e9);
    double ns = s * 1e9 / cfg->time_scale; /* bounded: tokens < 2^32, bytes per token < 2^24 */
    return ns < 1.0 ? 1 : (uint64_t)ns;
}

static kvr_sim_pd_room_t *room_find(kvr_sim_fleet_t *fleet, uint64_t room, uint64_t now)
{
    for (size_t i = 0; i < KVR_SIM_PD_ROOMS; i++) {
        kvr_sim_pd_room_t *r = &fleet->pd_rooms[i];
        if (r->used && r->room == room && now < r->expires_ns)
            return r;
    }
    return NULL;
}

void kvr_sim_pd_room_open(kvr_sim_engine_t *e, uint64_t room)
{
    kvr_sim_fleet_t *fleet = e->fleet;
    uint64_t now = kvr_sim_now_ns();
    kvr_sim_pd_room_t *slot = room_find(fleet, room, now);
    for (size_t i = 0; !slot && i < KVR_SIM_PD_ROOMS; i++) {
        kvr_sim_pd_room_t *r = &fleet->pd_rooms[i];
        if (!r->used || now >= r->expires_ns)
            slot = r;
    }
    if (!slot) /* every room live: the oldest goes, as a connector's buffer would overflow */
        for (size_t i = 0; i < KVR_SIM_PD_ROOMS; i++)
            if (!slot || fleet->pd_rooms[i].expires_ns < slot->expires_ns)
                slot = &fleet->pd_rooms[i];
    *slot = (kvr_sim_pd_room_t){.used = true,
                                .room = room,
                                .owner = e->index,
                                .expires_ns = now + fleet->cfg.kv_hold_ms * 1000000ull};
}

static void arm(kvr_sim_fleet_t *fleet);

/* A decode of an SGLang room names its prefill's bootstrap server: NULL, or why not. */
static const char *bootstrap_mismatch(const kvr_sim_fleet_t *fleet, const kvr_sim_pd_wait_t *w,
                                      const kvr_sim_pd_room_t *r, char *msg, size_t cap)
{
    const kvr_sim_config_t *cfg = &fleet->cfg;
    if (strcmp(w->host, cfg->host) != 0)
        return snprintf(msg, cap,
                        "KV transfer failed: bootstrap_host %s is not room %" PRIu64
                        "'s prefill engine's host %s",
                        w->host, w->room, cfg->host),
               msg;
    int64_t want = cfg->bootstrap_port ? (int64_t)cfg->bootstrap_port + r->owner : -1;
    if (want > 0 && w->port != want)
        return snprintf(msg, cap,
                        "KV transfer failed: bootstrap_port %" PRId64 " is not room %" PRIu64
                        "'s prefill engine's bootstrap port %" PRId64,
                        w->port, w->room, want),
               msg;
    return NULL;
}

static void unlink_wait(kvr_sim_fleet_t *fleet, kvr_sim_pd_wait_t *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        fleet->pd_waits = w->next;
    if (w->next)
        w->next->prev = w->prev;
}

static void fail_wait(kvr_sim_fleet_t *fleet, kvr_sim_pd_wait_t *w, const char *msg)
{
    kvr_sim_call_t *c = w->call;
    unlink_wait(fleet, w);
    free(w);
    kvr_sim_call_fail(c, 500, "kv_transfer_error", msg);
}

/* The room's prefill is done at now: each decode waiting on it gets its transfer time. */
static void room_done(kvr_sim_fleet_t *fleet, const kvr_sim_pd_room_t *r, uint64_t now)
{
    for (kvr_sim_pd_wait_t *w = fleet->pd_waits, *next; w; w = next) {
        next = w->next;
        if (!w->sglang || w->due_ns || w->room != r->room)
            continue;
        if (bootstrap_mismatch(fleet, w, r, w->why, sizeof w->why))
            w->deadline_ns = now; /* failed from the timer, not inside the prefill's event */
        else
            w->due_ns = r->ready_ns + kvr_sim_pd_transfer_ns(fleet, w->prompt_tokens);
    }
}

void kvr_sim_pd_room_ready(kvr_sim_fleet_t *fleet, uint64_t room)
{
    uint64_t now = kvr_sim_now_ns();
    kvr_sim_pd_room_t *r = room_find(fleet, room, now);
    if (!r || r->ready_ns)
        return;
    r->ready_ns = now;
    room_done(fleet, r, now);
    arm(fleet);
}

static void on_timer(uv_timer_t *t)
{
    kvr_sim_fleet_t *fleet = t->data;
    uint64_t now = kvr_sim_now_ns();
    for (kvr_sim_pd_wait_t *w = fleet->pd_waits, *next; w; w = next) {
        next = w->next;
        if (w->due_ns && w->due_ns <= now) {
            kvr_sim_call_t *c = w->call;
            unlink_wait(fleet, w);
            free(w);
            kvr_sim_call_start(c);
        } else if (!w->due_ns && w->deadline_ns <= now) {
            if (!w->why[0])
                snprintf(w->why, sizeof w->why,
                         "KV transfer failed: no prefill of bootstrap room %" PRIu64
                         " completed within --kv-hold-ms",
                         w->room);
            char msg[sizeof w->why];
            memcpy(msg, w->why, sizeof msg);
            fail_wait(fleet, w, msg);
        }
    }
    arm(fleet);
}

/* The timer is due at the earliest start or deadline of the decodes waiting. */
static void arm(kvr_sim_fleet_t *fleet)
{
    uint64_t first = 0;
    for (const kvr_sim_pd_wait_t *w = fleet->pd_waits; w; w = w->next) {
        uint64_t at = w->due_ns ? w->due_ns : w->deadline_ns;
        if (!first || at < first)
            first = at;
    }
    if (!first || fleet->stopping) {
        uv_timer_stop(&fleet->pd_timer);
        return;
    }
    uint64_t now = kvr_sim_now_ns();
    uint64_t ms = first > now ? (first - now + 999999) / 1000000 : 0;
    uv_timer_start(&fleet->pd_timer, on_timer, ms, 0);
}

kvr_sim_pd_wait_t *kvr_sim_pd_defer(kvr_sim_engine_t *e, kvr_sim_call_t *c, const kvr_sim_pd_t *pd,
                                    uint32_t prompt_tokens)
{
    kvr_sim_fleet_t *fleet = e->fleet;
    uint64_t now = kvr_sim_now_ns();
    kvr_sim_pd_wait_t *w = kvr_xcalloc(1, sizeof *w);
    w->call = c;
    w->engine = e;
    w->sglang = pd->sglang_decode;
    w->room = pd->room;
    snprintf(w->host, sizeof w->host, "%s", pd->bootstrap_host);
    w->port = pd->bootstrap_port;
    w->prompt_tokens = prompt_tokens;
    w->deadline_ns = now + fleet->cfg.kv_hold_ms * 1000000ull;
    w->next = fleet->pd_waits;
    if (fleet->pd_waits)
        fleet->pd_waits->prev = w;
    fleet->pd_waits = w;
    if (!w->sglang) {
        w->due_ns = now + kvr_sim_pd_transfer_ns(fleet, prompt_tokens);
    } else {
        const kvr_sim_pd_room_t *r = room_find(fleet, pd->room, now);
        if (r && r->ready_ns) {
            if (bootstrap_mismatch(fleet, w, r, w->why, sizeof w->why)) {
                w->deadline_ns = now; /* failed from the loop: the caller sets the call up */
            } else {
                uint64_t at = r->ready_ns + kvr_sim_pd_transfer_ns(fleet, prompt_tokens);
                w->due_ns = at > now ? at : now;
            }
        }
    }
    arm(fleet);
    return w;
}

void kvr_sim_pd_wait_cancel(kvr_sim_fleet_t *fleet, kvr_sim_pd_wait_t *w)
{
    unlink_wait(fleet, w);
    free(w);
    arm(fleet);
}

void kvr_sim_pd_init(kvr_sim_fleet_t *fleet)
{
    uv_timer_init(fleet->loop, &fleet->pd_timer);
    fleet->pd_timer.data = fleet;
}

void kvr_sim_pd_close(kvr_sim_fleet_t *fleet)
{
    uv_close((uv_handle_t *)&fleet->pd_timer, NULL);
}
