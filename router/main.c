/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute: the gateway program. Flags and behaviour: kvroute --help. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "router/router.h"

typedef struct app_s {
    uv_loop_t loop;
    kvr_router_t router;
    uv_signal_t sig_term, sig_int, sig_hup;
    uv_timer_t drain_timer;
    bool shutting_down;
    int exit_code;
} app_t;

/* Every callback finds the program's state through its loop: nothing at file scope. */
static app_t *app_of(uv_loop_t *loop)
{
    return loop->data;
}

static void on_handle_closed(uv_handle_t *h)
{
    (void)h;
}

static void on_stopped(kvr_router_t *r)
{
    app_t *app = app_of(r->loop);
    uv_close((uv_handle_t *)&app->sig_term, on_handle_closed);
    uv_close((uv_handle_t *)&app->sig_int, on_handle_closed);
    uv_close((uv_handle_t *)&app->sig_hup, on_handle_closed);
    uv_close((uv_handle_t *)&app->drain_timer, on_handle_closed);
    /* Closing the watchers restored the default actions: a late signal must not kill a clean exit. */
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
}

static void shutdown_now(app_t *app, const char *why)
{
    if (app->shutting_down)
        return;
    app->shutting_down = true;
    KVR_INFO("shutdown why=%s in_flight=%u", why, app->router.in_flight);
    uv_timer_stop(&app->drain_timer);
    kvr_router_stop(&app->router, on_stopped);
}

static void on_drained(kvr_router_t *r)
{
    shutdown_now(app_of(r->loop), "drained");
}

static void on_drain_timeout(uv_timer_t *t)
{
    app_t *app = app_of(t->loop);
    KVR_WARN("drain_timeout in_flight=%u", app->router.in_flight);
    shutdown_now(app, "drain_timeout");
}

static void on_stop_signal(uv_signal_t *s, int signum)
{
    app_t *app = app_of(s->loop);
    kvr_router_t *r = &app->router;
    if (r->draining) {
        shutdown_now(app, "second_signal");
        return;
    }
    r->draining = true;
    KVR_INFO("draining signal=%s in_flight=%u", signum == SIGTERM ? "SIGTERM" : "SIGINT", r->in_flight);
    if (r->in_flight == 0) {
        shutdown_now(app, "idle");
        return;
    }
    r->on_drained = on_drained;
    uv_timer_start(&app->drain_timer, on_drain_timeout, r->cfg.drain_timeout_s * 1000, 0);
}

/* SIGHUP: the engine list of --config becomes the table. */
static void on_reload(uv_signal_t *s, int signum)
{
    (void)signum;
    kvr_router_reload(&app_of(s->loop)->router);
}

int main(int argc, char **argv)
{
    app_t app; /* lives until main returns, after the loop ran to its end */
    memset(&app, 0, sizeof app);
    kvr_router_config_t cfg;
    kvr_router_config_defaults(&cfg);
    char err[512] = "";
    int rc = kvr_router_config_parse_args(&cfg, argc, argv, err, sizeof err);
    if (rc == 1) {
        kvr_router_config_free(&cfg);
        return 0;
    }
    if (rc == 0)
        rc = kvr_router_config_finish(&cfg, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute: %s\n", err);
        kvr_router_config_free(&cfg);
        return 2;
    }
    kvr_log_init("kvroute", cfg.log_level);
    signal(SIGPIPE, SIG_IGN);
    if (cfg.n_engines == 0 && cfg.n_engine_dns == 0)
        KVR_WARN("no_engines hint=\"add --engine URL or --engine-dns NAME:PORT, or POST /engines "
                 "with --admin-token\"");

    int rc_loop = uv_loop_init(&app.loop);
    if (rc_loop < 0) {
        fprintf(stderr, "kvroute: start-up failed: %s\n", uv_strerror(rc_loop));
        kvr_router_config_free(&cfg);
        return 1;
    }
    app.loop.data = &app;
    kvr_router_t *r = &app.router;
    rc = kvr_router_init(r, &app.loop, &cfg);
    if (rc < 0) {
        fprintf(stderr, "kvroute: start-up failed: %s\n", kvr_strerror(rc));
        uv_loop_close(&app.loop);
        return 1;
    }
    rc = kvr_router_start(r);
    if (rc < 0) {
        if (!r->server)
            fprintf(stderr, "kvroute: cannot listen on %s:%d: %s\n", r->cfg.listen_host, r->cfg.listen_port,
                    kvr_strerror(rc));
        else
            fprintf(stderr, "kvroute: cannot start the timers: %s\n", kvr_strerror(rc));
        kvr_router_stop(r, NULL);
        uv_run(&app.loop, UV_RUN_DEFAULT);
        kvr_router_close(r);
        uv_loop_close(&app.loop);
        return 1;
    }
    uv_signal_init(&app.loop, &app.sig_term);
    uv_signal_init(&app.loop, &app.sig_int);
    uv_signal_init(&app.loop, &app.sig_hup);
    uv_timer_init(&app.loop, &app.drain_timer);
    uv_signal_start(&app.sig_term, on_stop_signal, SIGTERM);
    uv_signal_start(&app.sig_int, on_stop_signal, SIGINT);
    uv_signal_start(&app.sig_hup, on_reload, SIGHUP);

    KVR_INFO("listening addr=%s:%d policy=%s placement=%s es=%d shm=%s engines=%u", r->cfg.listen_host,
             kvr_http_server_port(r->server), r->cfg.policy, kvr_placement_name(r->cfg.placement), r->cfg.es,
             r->cfg.es ? r->decider.feed.name : "-", r->decider.engines.count);
    uv_run(&app.loop, UV_RUN_DEFAULT);
    kvr_router_close(r);
    rc = uv_loop_close(&app.loop);
    if (rc != 0)
        KVR_WARN("loop_close error=\"%s\"", uv_strerror(rc));
    KVR_INFO("exit");
    return app.exit_code;
}
