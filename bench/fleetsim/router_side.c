/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The router side of kvroute-fleetsim: one decision core (router/decide.h)
 * per simulated router, configured by kvroute's own flag parser, asked to
 * route with the virtual clock, released when a request ends, and writing
 * kvroute's decision log with virtual timestamps. No event loop, no socket.
 */
#include "bench/fleetsim/router_side.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/config.h"
#include "router/decide.h"
#include "router/share.h"

/* kvroute writes its heartbeat on a one-second timer; here, at the first event a second after. */
#define SHARE_TICK_NS KVR_NS_PER_SEC

struct kvr_fleet_router_s {
    kvr_decider_t decider;
    FILE *decision_log;
    /* --share NAME: the dispatch segment of this run, opened at the first event (virtual time). */
    char share_name[256];
    char share_label[32];
    uint64_t share_max_age_ns;
    bool share_started;
    uint64_t share_next_tick_ns;
    kvr_share_t share;
};

typedef struct route_state_s {
    kvr_charge_t charge;
    kvr_decide_result_t result;
    kvr_decider_t *decider;
    kvr_route_request_t req; /* prompt_tokens and now_ns only: what the first-token hook reads */
} route_state_t;

void kvr_fleet_router_help(FILE *out)
{
    kvr_router_config_help(out);
}

int kvr_fleet_router_create(kvr_fleet_router_t **out, int argc, char **argv,
                            const kvr_fleet_router_setup_t *setup, char *err, size_t err_len)
{
    kvr_router_config_t cfg;
    kvr_router_config_defaults(&cfg);
    /* The router's parser skips argv[0] as a program name. */
    char **args = kvr_xcalloc((size_t)argc + 2, sizeof *args);
    args[0] = "kvroute";
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    int rc = kvr_router_config_parse_args(&cfg, argc + 1, args, err, err_len);
    free(args);
    if (rc == 1) {
        snprintf(err, err_len, "router flags: --help is kvroute-fleetsim --help-router");
        rc = -EINVAL;
    }
    if (rc < 0)
        goto fail_cfg;
    rc = -EINVAL;
    if (cfg.n_engines > 0) {
        snprintf(err, err_len, "router flags: --engine is not allowed (the fleet is --engines N)");
        goto fail_cfg;
    }
    if (cfg.decision_log[0]) {
        snprintf(
            err, err_len,
            "router flags: --decision-log is not allowed (use kvroute-fleetsim --decision-log)");
        goto fail_cfg;
    }
    if (strcmp(cfg.shm_name, KVR_SHM_DEFAULT_NAME) != 0) {
        snprintf(err, err_len,
                 "router flags: --shm is not allowed (the simulator makes its own segment)");
        goto fail_cfg;
    }
    if (setup->policy)
        snprintf(cfg.policy, sizeof cfg.policy, "%s", setup->policy);
    if (setup->es >= 0)
        cfg.es = setup->es != 0;
    if (setup->seed_set)
        cfg.policy_config.seed = setup->seed;
    snprintf(cfg.shm_name, sizeof cfg.shm_name, "%s", setup->shm_name);
    for (size_t i = 0; i < setup->n_engines; i++) {
        if (cfg.n_engines == KVR_ROUTER_MAX_CONFIG_ENGINES) {
            snprintf(err, err_len, "--engines: a router takes at most %d engines",
                     KVR_ROUTER_MAX_CONFIG_ENGINES);
            goto fail_cfg;
        }
        cfg.engines[cfg.n_engines++] = kvr_xstrdup(setup->engine_urls[i]);
    }
    if ((rc = kvr_router_config_finish(&cfg, err, err_len)) < 0)
        goto fail_cfg;

    kvr_fleet_router_t *r = kvr_xcalloc(1, sizeof *r);
    if (cfg.share_name[0]) {
        /* One segment per run, named for the process: two runs never share by accident. */
        snprintf(r->share_name, sizeof r->share_name, "/kvr-fleetsim-%ld-share-%.200s",
                 (long)getpid(), cfg.share_name[0] == '/' ? cfg.share_name + 1 : cfg.share_name);
        snprintf(r->share_label, sizeof r->share_label, "fleetsim-r%u", setup->router_index);
        r->share_max_age_ns = cfg.share_max_age_ms * KVR_NS_PER_MS;
    }
    kvr_decide_config_t dcfg;
    kvr_router_config_decide(&cfg, &dcfg);
    dcfg.admission_order = setup->admission_order;
    if (setup->engine_roles && !dcfg.decode_policy)
        dcfg.decode_policy = cfg.pd_decode_policy;
    /* As kvroute draws apart per process: per router, and the same on every run of one seed. */
    dcfg.spread_seed = cfg.policy_config.seed ^
                       (0x9E3779B97F4A7C15ull * ((uint64_t)setup->router_index + 1));
    if ((rc = kvr_decide_init(&r->decider, &dcfg)) < 0) {
        snprintf(err, err_len, "router: %s", strerror(-rc));
        free(r);
        goto fail_cfg;
    }
    for (size_t i = 0; i < cfg.n_engines; i++) {
        kvr_engine_t *e;
        if ((rc = kvr_decide_add_engine(&r->decider, cfg.engines[i], &e)) < 0) {
            snprintf(err, err_len, "engine %s: %s", cfg.engines[i], strerror(-rc));
            goto fail_router;
        }
        e->role = setup->engine_roles ? setup->engine_roles[i] : KVR_ENGINE_ROLE_BOTH;
    }
    if (setup->decision_log[0] && !(r->decision_log = fopen(setup->decision_log, "a"))) {
        rc = -errno;
        snprintf(err, err_len, "decision log %s: %s", setup->decision_log, strerror(errno));
        goto fail_router;
    }
    kvr_router_config_free(&cfg);
    *out = r;
    return 0;

fail_router:
    kvr_decide_close(&r->decider);
    free(r);
fail_cfg:
    kvr_router_config_free(&cfg);
    return rc;
}

void kvr_fleet_router_destroy(kvr_fleet_router_t *r)
{
    if (!r)
        return;
    if (r->decision_log && fclose(r->decision_log) != 0)
        KVR_WARN("fleetsim_decision_log_write_failed");
    if (r->share_started) {
        r->decider.share = NULL;
        kvr_share_close(&r->share);
        kvr_dsp_unlink(
            r->share_name); /* the first router to leave removes the name; the rest find it gone */
    }
    kvr_decide_close(&r->decider);
    free(r);
}

/*
 * kvroute's --share as the real process runs it: the segment opened at start,
 * a dispatch published at once (kvr_decide_route), releases published at the
 * end of the loop turn that saw them (here: at the router's next event, with
 * that event's time), a heartbeat and ring read every second.
 */
static void share_turn(kvr_fleet_router_t *r, uint64_t now_ns)
{
    if (!r->share_name[0])
        return;
    if (!r->share_started) {
        r->share_started = true;
        if (kvr_share_init(&r->share, r->share_name, r->share_label, r->share_max_age_ns,
                           r->decider.engines.max_engines, now_ns) < 0) {
            KVR_ERROR("fleetsim_share_init_failed name=%s", r->share_name);
            r->share_name[0] = '\0';
            r->share_started = false;
            return;
        }
        r->decider.share = &r->share;
        r->share_next_tick_ns = now_ns;
    }
    if (now_ns >= r->share_next_tick_ns) {
        kvr_decide_share_tick(&r->decider, now_ns);
        r->share_next_tick_ns = now_ns + SHARE_TICK_NS;
    }
    kvr_share_publish(&r->share, &r->decider.engines, now_ns);
}

void kvr_fleet_router_route(kvr_fleet_router_t *r, const kvr_route_request_t *req,
                            kvr_fleet_route_t *route)
{
    route_state_t *st = kvr_xcalloc(1, sizeof *st);
    share_turn(r, req->now_ns);
    kvr_decide_route(&r->decider, req, NULL, 0, &st->charge, &st->result);
    st->decider = &r->decider;
    st->req.prompt_tokens = req->prompt_tokens;
    st->req.now_ns = req->now_ns;
    route->impl = st;
    route->engine = st->result.engine ? (int)st->result.engine->index : -1;
    route->status = st->result.engine ? 0 : (st->result.status ? st->result.status : 503);
}

void kvr_fleet_router_first_byte(kvr_fleet_route_t *route)
{
    route_state_t *st = route->impl;
    if (st)
        kvr_charge_first_byte(&st->charge);
}

void kvr_fleet_router_first_token(kvr_fleet_route_t *route, uint64_t now_ns)
{
    route_state_t *st = route->impl;
    if (st)
        kvr_decide_first_byte(st->decider, &st->req, &st->result, now_ns);
}

void kvr_fleet_router_progress(kvr_fleet_route_t *route, uint64_t generated)
{
    route_state_t *st = route->impl;
    if (st)
        kvr_charge_progress(&st->charge, generated);
}

void kvr_fleet_router_end(kvr_fleet_router_t *r, kvr_fleet_route_t *route, const char *request_id,
                          const char *session_id, int status, uint64_t now_ns)
{
    route_state_t *st = route->impl;
    if (!st)
        return;
    /* As the proxy's one end of a request: charge and lease, then the log line. */
    kvr_decide_release_at(&r->decider, &st->charge, now_ns);
    share_turn(r, now_ns);
    /* attempt counts dispatches, as the proxy's: a refusal before any is attempt 0. */
    if (r->decision_log && (st->result.engine || st->result.status))
        kvr_decide_log(&r->decider, r->decision_log, request_id, session_id, &st->result, status,
                       st->result.engine ? 1 : 0, now_ns / KVR_NS_PER_MS);
    free(st);
    route->impl = NULL;
}

void kvr_fleet_router_shadow(const kvr_fleet_router_t *r, kvr_fleet_shadow_t *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        const kvr_engine_t *e = r->decider.engines.engines[i];
        if (!e)
            continue; /* a freed index */
        out->requests += e->shadow_requests;
        out->pending_prefill_tokens += e->shadow_pending_prefill_tokens;
        out->kv_tokens += e->shadow_kv_tokens;
    }
}

const char *kvr_fleet_router_policy(const kvr_fleet_router_t *r)
{
    return r->decider.cfg.policy;
}

bool kvr_fleet_router_es(const kvr_fleet_router_t *r)
{
    return r->decider.cfg.es;
}

void kvr_fleet_router_feed_counts(const kvr_fleet_router_t *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < KVR_FEED_N_STATES && used < len; s++) {
        int n = snprintf(out + used, len - used, "%s%s=%llu", s ? " " : "",
                         kvr_feed_state_name((kvr_feed_state_t)s),
                         (unsigned long long)r->decider.feed.fallbacks_total[s]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
