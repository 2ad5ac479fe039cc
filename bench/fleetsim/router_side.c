/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The router side of kvroute-fleetsim. The router's state is built through
 * kvr_router_init, which takes a libuv loop: this file gives it one that is
 * never run. Nothing here starts a timer, a server or a connection (the
 * upstream pools connect only when a request is proxied, and none is), so
 * the loop stays empty and closes cleanly.
 */
#include "bench/fleetsim/router_side.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "router/router.h"

struct kvr_fleet_router_s {
    uv_loop_t loop;
    kvr_router_t router;
    uint64_t now_ns;               /* the virtual clock at the current call */
};

/*
 * The decision log through a filter that writes the virtual clock into each
 * line's ts_ms (the router stamps its own wall clock there), so the log of a
 * run is as reproducible as its records.
 */
typedef struct vlog_s {
    FILE *out;
    const uint64_t *now_ns;
    char *buf;
    size_t len, cap;
} vlog_t;

static void vlog_line(vlog_t *v, const char *line, size_t len)
{
    static const char key[] = "\"ts_ms\":";
    const char *at = NULL;
    for (const char *p = line; p + sizeof key - 1 <= line + len; p++)
        if (memcmp(p, key, sizeof key - 1) == 0)
            at = p;
    if (!at) {
        fwrite(line, 1, len, v->out);
        return;
    }
    const char *digits = at + sizeof key - 1, *end = digits;
    while (end < line + len && *end >= '0' && *end <= '9')
        end++;
    fwrite(line, 1, (size_t)(digits - line), v->out);
    fprintf(v->out, "%llu", (unsigned long long)(*v->now_ns / 1000000u));
    fwrite(end, 1, (size_t)(line + len - end), v->out);
}

static ssize_t vlog_write(void *cookie, const char *data, size_t n)
{
    vlog_t *v = cookie;
    if (v->len + n > v->cap) {
        v->cap = (v->len + n) * 2;
        v->buf = kvr_xrealloc(v->buf, v->cap);
    }
    memcpy(v->buf + v->len, data, n);
    v->len += n;
    size_t start = 0;
    for (size_t i = 0; i < v->len; i++) {
        if (v->buf[i] == '\n') {
            vlog_line(v, v->buf + start, i + 1 - start);
            start = i + 1;
        }
    }
    memmove(v->buf, v->buf + start, v->len - start);
    v->len -= start;
    fflush(v->out);
    return (ssize_t)n;
}

static int vlog_close(void *cookie)
{
    vlog_t *v = cookie;
    if (v->len)
        vlog_line(v, v->buf, v->len);
    int rc = fclose(v->out);
    free(v->buf);
    free(v);
    return rc;
}

static FILE *vlog_wrap(FILE *out, const uint64_t *now_ns)
{
    vlog_t *v = kvr_xcalloc(1, sizeof *v);
    v->out = out;
    v->now_ns = now_ns;
    cookie_io_functions_t io = {.write = vlog_write, .close = vlog_close};
    FILE *f = fopencookie(v, "w", io);
    if (!f)
        free(v);
    return f;
}

typedef struct route_state_s {
    kvr_charge_t charge;
    kvr_route_result_t result;
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
        snprintf(err, err_len, "router flags: --decision-log is not allowed (use kvroute-fleetsim --decision-log)");
        goto fail_cfg;
    }
    if (strcmp(cfg.shm_name, KVR_SHM_DEFAULT_NAME) != 0) {
        snprintf(err, err_len, "router flags: --shm is not allowed (the simulator makes its own segment)");
        goto fail_cfg;
    }
    if (setup->policy)
        snprintf(cfg.policy, sizeof cfg.policy, "%s", setup->policy);
    if (setup->es >= 0)
        cfg.es = setup->es != 0;
    if (setup->seed_set)
        cfg.policy_config.seed = setup->seed;
    snprintf(cfg.shm_name, sizeof cfg.shm_name, "%s", setup->shm_name);
    snprintf(cfg.decision_log, sizeof cfg.decision_log, "%s", setup->decision_log);
    for (size_t i = 0; i < setup->n_engines; i++) {
        if (cfg.n_engines == KVR_ROUTER_MAX_CONFIG_ENGINES) {
            snprintf(err, err_len, "--engines: a router takes at most %d engines", KVR_ROUTER_MAX_CONFIG_ENGINES);
            goto fail_cfg;
        }
        cfg.engines[cfg.n_engines++] = kvr_xstrdup(setup->engine_urls[i]);
    }
    if ((rc = kvr_router_config_finish(&cfg, err, err_len)) < 0)
        goto fail_cfg;

    kvr_fleet_router_t *r = kvr_xcalloc(1, sizeof *r);
    if ((rc = uv_loop_init(&r->loop)) < 0) {
        snprintf(err, err_len, "uv_loop_init: %s", uv_strerror(rc));
        free(r);
        goto fail_cfg;
    }
    rc = kvr_router_init(&r->router, &r->loop, &cfg); /* cfg moved in, freed on failure too */
    if (rc < 0) {
        snprintf(err, err_len, "router: %s", strerror(-rc));
        uv_loop_close(&r->loop);
        free(r);
        return rc;
    }
    if (r->router.decision_log) {
        FILE *wrapped = vlog_wrap(r->router.decision_log, &r->now_ns);
        if (!wrapped) {
            snprintf(err, err_len, "decision log: %s", strerror(errno));
            kvr_fleet_router_destroy(r);
            return -ENOMEM;
        }
        r->router.decision_log = wrapped;
    }
    *out = r;
    return 0;

fail_cfg:
    kvr_router_config_free(&cfg);
    return rc;
}

void kvr_fleet_router_destroy(kvr_fleet_router_t *r)
{
    if (!r)
        return;
    kvr_router_close(&r->router);
    int rc = uv_loop_close(&r->loop);
    if (rc < 0)
        KVR_WARN("fleetsim_router_loop_busy error=\"%s\"", uv_strerror(rc));
    free(r);
}

void kvr_fleet_router_route(kvr_fleet_router_t *r, const kvr_route_request_t *req, kvr_fleet_route_t *route)
{
    route_state_t *st = kvr_xcalloc(1, sizeof *st);
    r->now_ns = req->now_ns;
    kvr_router_route(&r->router, req, NULL, 0, &st->charge, &st->result);
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
    r->now_ns = now_ns;
    /* As the proxy's one end of a request: charge, lease, log line. */
    kvr_charge_end(&st->charge);
    if (st->result.seed_lease && st->result.engine)
        kvr_admission_release_lease(r->router.admission, st->result.engine->index);
    kvr_router_metrics_status(&r->router.metrics, status);
    if (st->result.engine || st->result.status)
        /* attempt counts dispatches, as the proxy's: a refusal before any is attempt 0. */
        kvr_router_log_decision(&r->router, request_id, session_id, &st->result, status, st->result.engine ? 1 : 0);
    free(st);
    route->impl = NULL;
}

void kvr_fleet_router_shadow(const kvr_fleet_router_t *r, kvr_fleet_shadow_t *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < r->router.engines.n_slots; i++) {
        const kvr_engine_t *e = r->router.engines.engines[i];
        out->requests += e->shadow_requests;
        out->pending_prefill_tokens += e->shadow_pending_prefill_tokens;
        out->kv_tokens += e->shadow_kv_tokens;
    }
}

const char *kvr_fleet_router_policy(const kvr_fleet_router_t *r)
{
    return r->router.cfg.policy;
}

bool kvr_fleet_router_es(const kvr_fleet_router_t *r)
{
    return r->router.cfg.es;
}

void kvr_fleet_router_feed_counts(const kvr_fleet_router_t *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < KVR_FEED_N_STATES && used < len; s++) {
        int n = snprintf(out + used, len - used, "%s%s=%llu", s ? " " : "", kvr_feed_state_name((kvr_feed_state_t)s),
                         (unsigned long long)r->router.feed.fallbacks_total[s]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
