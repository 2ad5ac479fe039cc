/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute: the gateway program. Flags and behaviour: kvroute --help. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "router/router.h"
#include "router/tokenizers.h"

typedef struct app_s {
    uv_loop_t loop;
    kvr_router_t *router;
    /*
     * SIGTERM, SIGINT and SIGHUP stay blocked in every thread for the whole
     * run and are read from this descriptor on the loop: no disposition is
     * ever switched back to the default, so a signal during the exit cannot
     * kill a clean shutdown.
     */
    int signal_fd;
    uv_poll_t signal_watcher;
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

static void on_signal_watcher_closed(uv_handle_t *h)
{
    app_t *app = app_of(h->loop);
    close(app->signal_fd);
    app->signal_fd = -1;
}

static void on_stopped(kvr_router_t *r)
{
    app_t *app = app_of(kvr_router_loop(r));
    uv_close((uv_handle_t *)&app->signal_watcher, on_signal_watcher_closed);
    uv_close((uv_handle_t *)&app->drain_timer, on_handle_closed);
}

static void shutdown_now(app_t *app, const char *why)
{
    if (app->shutting_down)
        return;
    app->shutting_down = true;
    KVR_INFO("shutdown why=%s in_flight=%u", why, kvr_router_in_flight(app->router));
    uv_timer_stop(&app->drain_timer);
    kvr_router_stop(app->router, on_stopped);
}

static void on_drained(kvr_router_t *r)
{
    shutdown_now(app_of(kvr_router_loop(r)), "drained");
}

static void on_drain_timeout(uv_timer_t *t)
{
    app_t *app = app_of(t->loop);
    KVR_WARN("drain_timeout in_flight=%u", kvr_router_in_flight(app->router));
    shutdown_now(app, "drain_timeout");
}

static void on_stop_signal(app_t *app, int signum)
{
    kvr_router_t *r = app->router;
    if (kvr_router_draining(r)) {
        shutdown_now(app, "second_signal");
        return;
    }
    kvr_router_drain(r, on_drained);
    KVR_INFO("draining signal=%s in_flight=%u", signum == SIGTERM ? "SIGTERM" : "SIGINT",
             kvr_router_in_flight(r));
    if (kvr_router_in_flight(r) == 0) {
        shutdown_now(app, "idle");
        return;
    }
    uv_timer_start(&app->drain_timer, on_drain_timeout,
                   kvr_router_config(r)->drain_timeout_s * 1000, 0);
}

static void on_signal(uv_poll_t *w, int status, int events)
{
    (void)events;
    app_t *app = app_of(w->loop);
    if (status < 0) {
        KVR_WARN("signal_watch_error error=\"%s\"", uv_strerror(status));
        return;
    }
    struct signalfd_siginfo si;
    while (read(app->signal_fd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGHUP)
            kvr_router_reload(app->router); /* the engine list of --config becomes the table */
        else if (!app->shutting_down)
            on_stop_signal(app, (int)si.ssi_signo);
    }
}

/* Blocks the stop and reload signals (threads started later inherit the mask) and opens their descriptor. */
static int block_signals(app_t *app)
{
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    int rc = pthread_sigmask(SIG_BLOCK, &mask, NULL);
    if (rc != 0)
        return -rc;
    app->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    return app->signal_fd < 0 ? -errno : 0;
}

/* --check-config: what start-up would refuse later than the flags, minus the vocabulary load. */
static int check_tokenizer_dirs(const kvr_router_config_t *cfg, char *err, size_t err_len)
{
    for (size_t i = 0; i < cfg->n_tokenizers; i++) {
        char model[KVR_MODEL_NAME_MAX + 1], path[1024];
        const char *dir;
        int rc = kvr_tokenizer_spec_parse(cfg->tokenizers[i], model, sizeof model, &dir, err,
                                          err_len);
        if (rc < 0)
            return rc;
        snprintf(path, sizeof path, "%s/tokenizer.json", dir);
        if (access(path, R_OK) < 0) {
            rc = -errno;
            snprintf(err, err_len, "--tokenizer: cannot read %.300s: %.100s", path,
                     kvr_strerror(rc));
            return -EINVAL;
        }
    }
    return 0;
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
    if (rc == 0 && cfg.check_config[0])
        rc = check_tokenizer_dirs(&cfg, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute: %s\n", err);
        kvr_router_config_free(&cfg);
        return 2;
    }
    if (cfg.check_config[0]) {
        printf("kvroute: %s: ok\n", cfg.check_config);
        kvr_router_config_free(&cfg);
        return 0;
    }
    kvr_log_init("kvroute", cfg.log_level);
    kvr_http_raise_fd_limit(cfg.max_connections, NULL);
    signal(SIGPIPE, SIG_IGN);
    app.signal_fd = -1;
    rc = block_signals(&app); /* before the loop exists: no thread of it may take these signals */
    if (rc < 0) {
        fprintf(stderr, "kvroute: start-up failed: cannot watch signals: %s\n", kvr_strerror(rc));
        kvr_router_config_free(&cfg);
        return 1;
    }
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
    kvr_router_t *r;
    rc = kvr_router_create(&app.loop, &cfg, &r);
    if (rc < 0) {
        fprintf(stderr, "kvroute: start-up failed: %s\n", kvr_strerror(rc));
        uv_loop_close(&app.loop);
        return 1;
    }
    app.router = r;
    rc = kvr_router_start(r);
    if (rc < 0) {
        if (kvr_router_port(r) < 0)
            fprintf(stderr, "kvroute: cannot listen on %s:%d: %s\n",
                    kvr_router_config(r)->listen_host, kvr_router_config(r)->listen_port,
                    kvr_strerror(rc));
        else
            fprintf(stderr, "kvroute: cannot start the admin listener or the timers: %s\n",
                    kvr_strerror(rc));
        kvr_router_stop(r, NULL);
        uv_run(&app.loop, UV_RUN_DEFAULT);
        kvr_router_destroy(r);
        uv_loop_close(&app.loop);
        return 1;
    }
    rc = uv_poll_init(&app.loop, &app.signal_watcher, app.signal_fd);
    if (rc == 0 && (rc = uv_poll_start(&app.signal_watcher, UV_READABLE, on_signal)) < 0)
        uv_close((uv_handle_t *)&app.signal_watcher, on_handle_closed);
    if (rc < 0) { /* a router that SIGTERM cannot stop is not started */
        fprintf(stderr, "kvroute: start-up failed: cannot watch signals: %s\n", uv_strerror(rc));
        kvr_router_stop(r, NULL);
        uv_run(&app.loop, UV_RUN_DEFAULT);
        kvr_router_destroy(r);
        uv_loop_close(&app.loop);
        return 1;
    }
    uv_timer_init(&app.loop, &app.drain_timer);

    const kvr_router_config_t *rcfg = kvr_router_config(r);
    KVR_INFO("listening addr=%s:%d policy=%s placement=%s es=%d shm=%s engines=%u",
             rcfg->listen_host, kvr_router_port(r), rcfg->policy,
             kvr_placement_name(rcfg->placement), rcfg->es,
             rcfg->es ? kvr_router_door(r)->decider->feed.name : "-",
             kvr_door_engines(kvr_router_door(r))->count);
    uv_run(&app.loop, UV_RUN_DEFAULT);
    kvr_router_destroy(r);
    rc = uv_loop_close(&app.loop);
    if (rc != 0)
        KVR_WARN("loop_close error=\"%s\"", uv_strerror(rc));
    KVR_INFO("exit");
    return app.exit_code;
}
