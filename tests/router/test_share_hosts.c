/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --share across hosts: two "hosts" on loopback, each a kvroute-statefeed
 * with its own state and dispatch segments and one router sharing that
 * dispatch segment; the statefeeds relay to each other. A session pinned on
 * one host keeps its engine when its next turn reaches the other, and a
 * router spreads around what the other host's router holds in flight.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "shm_layout/dispatch.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define N_ENGINES 4
#define N_HOSTS 2

static const char chat[] =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";

typedef struct host_s {
    char shm_name[64], share_name[64];
    uint16_t export_port;
    kvr_harness_t feed; /* port: the statefeed's --listen */
    kvr_harness_t router;
} host_t;

static kvr_fake_fleet_t *fleet;
static host_t hosts[N_HOSTS];
static const char *max_placements =
    "50000"; /* --relay-max-placements of the statefeeds started next */

static void engine_url(char *out, size_t cap, int e)
{
    snprintf(out, cap, "http://127.0.0.1:%u", kvr_fake_port(fleet, e));
}

static void start_feed(int i)
{
    host_t *h = &hosts[i];
    char export[48], import[48], listen[32];
    snprintf(export, sizeof export, "tcp:127.0.0.1:%u", h->export_port);
    snprintf(import, sizeof import, "tcp:127.0.0.1:%u", hosts[1 - i].export_port);
    snprintf(listen, sizeof listen, "127.0.0.1:%u", h->feed.port);
    const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED"),
                          "--shm",
                          h->shm_name,
                          "--share",
                          h->share_name,
                          "--export",
                          export,
                          "--import",
                          import,
                          "--listen",
                          listen,
                          "--period-ms",
                          "20",
                          "--relay-max-placements",
                          max_placements,
                          NULL};
    kvr_test_unique_name(h->feed.log_path, sizeof h->feed.log_path, "/tmp/kvroute-test-hosts-feed");
    h->feed.pid = kvr_test_spawn((char *const *)argv, h->feed.log_path);
    cr_assert_gt(h->feed.pid, 0);
    cr_assert(kvr_test_wait_port(h->feed.port, 5000), "statefeed did not listen; see %s",
              h->feed.log_path);
}

static void start_router(int i)
{
    const char *extra[] = {"--policy",    "sticky", "--share", hosts[i].share_name,
                           "--log-level", "info",   NULL};
    kvr_harness_start_router(&hosts[i].router, fleet, N_ENGINES, extra);
}

/* Both hosts up, each statefeed importing the other's export. */
static void start_hosts(void)
{
    for (int i = 0; i < N_HOSTS; i++)
        start_feed(i);
    for (int i = 0; i < N_HOSTS; i++) {
        cr_assert(kvr_harness_wait_metric(&hosts[i].feed, "kvroute_statefeed_share_open", 1, 5000),
                  "see %s", hosts[i].feed.log_path);
        char sample[96];
        snprintf(sample, sizeof sample,
                 "kvroute_statefeed_import_connected{addr=\"tcp:127.0.0.1:%u\"}",
                 hosts[1 - i].export_port);
        cr_assert(kvr_harness_wait_metric(&hosts[i].feed, sample, 1, 5000), "see %s",
                  hosts[i].feed.log_path);
        start_router(i);
        /* The statefeed's row, carrying the other host, is one more live router. */
        cr_assert(kvr_harness_wait_metric(&hosts[i].router, "kvroute_share_open", 1, 5000));
    }
}

static void setup(void)
{
    max_placements = "50000";
    fleet = kvr_fake_start(N_ENGINES);
    /* Exports, then the statefeeds' --listen ports: one range, so no other test takes one in between. */
    uint16_t base = kvr_test_free_port_range(2 * N_HOSTS);
    for (int i = 0; i < N_HOSTS; i++) {
        memset(&hosts[i], 0, sizeof hosts[i]);
        kvr_test_unique_name(hosts[i].shm_name, sizeof hosts[i].shm_name, "/kvr-test-hosts-shm");
        kvr_test_unique_name(hosts[i].share_name, sizeof hosts[i].share_name,
                             "/kvr-test-hosts-share");
        hosts[i].export_port = (uint16_t)(base + i);
        hosts[i].feed.port = (uint16_t)(base + N_HOSTS + i);
        hosts[i].feed.admin_port = hosts[i].feed.port; /* the statefeed's /metrics is on --listen */
    }
}

static void stop(kvr_harness_t *h)
{
    if (h->pid <= 0)
        return;
    kill(h->pid, SIGTERM);
    if (kvr_test_wait_exit(h->pid, 5000) < 0) {
        kill(h->pid, SIGKILL);
        waitpid(h->pid, NULL, 0);
    }
    h->pid = 0;
}

static void teardown(void)
{
    for (int i = 0; i < N_HOSTS; i++) {
        stop(&hosts[i].router);
        stop(&hosts[i].feed);
        kvr_dsp_unlink(hosts[i].share_name);
        shm_unlink(hosts[i].shm_name);
    }
    kvr_fake_stop(fleet);
    fleet = NULL;
}

TestSuite(share_hosts, .init = setup, .fini = teardown, .timeout = 60.);

typedef struct call_s {
    int host;
    const char *session;
    bool hold;
    int status;
    int engine;
} call_t;

static int engine_of(const char *url)
{
    for (int e = 0; e < N_ENGINES; e++) {
        char want[64];
        engine_url(want, sizeof want, e);
        if (strcmp(url, want) == 0)
            return e;
    }
    return -1;
}

static void *call(void *arg)
{
    call_t *c = arg;
    char headers[256] = "";
    if (c->session)
        snprintf(headers, sizeof headers, "X-Session-ID: %s\r\n", c->session);
    if (c->hold)
        strcat(headers, "X-Fake: hold=1\r\n");
    char *resp = NULL;
    c->status = kvr_test_http(hosts[c->host].router.port, "POST", "/v1/chat/completions", headers,
                              chat, &resp, 20000);
    char url[64];
    c->engine = resp && kvr_harness_header(resp, "X-Kvroute-Engine", url, sizeof url)
                    ? engine_of(url)
                    : -1;
    free(resp);
    return NULL;
}

/* Starts held calls one at a time, each after the engines hold the one before. */
static void start_held(call_t *calls, pthread_t *threads, int n, unsigned expect_held)
{
    for (int i = 0; i < n; i++) {
        calls[i].hold = true;
        cr_assert_eq(pthread_create(&threads[i], NULL, call, &calls[i]), 0);
        for (int waited = 0;
             kvr_fake_held(fleet) < expect_held - (unsigned)(n - 1 - i) && waited < 10000;
             waited += 5)
            kvr_test_sleep_ms(5);
    }
    cr_assert_eq(kvr_fake_held(fleet), expect_held);
}

static void join(pthread_t *threads, int n)
{
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
}

Test(share_hosts, a_session_pinned_on_one_host_keeps_its_engine_on_the_other)
{
    start_hosts();
    static const char *const sessions[] = {"conv-a", "conv-b", "conv-c"};
    call_t first[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        first[i] = (call_t){.host = 0, .session = sessions[i]};
    start_held(first, threads, 3, 3);
    kvr_fake_release(fleet);
    join(threads, 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(first[i].status, 200);
        for (int j = 0; j < i; j++)
            cr_assert_neq(first[i].engine, first[j].engine,
                          "the first turns went to distinct engines");
    }
    /* The three pins crossed the relay into host 1's ring. */
    cr_assert(kvr_harness_wait_metric_reach(
        &hosts[1].feed, "kvroute_statefeed_share_placements_imported_total", 3, 5000));
    for (int turn = 0; turn < 2; turn++) {
        for (int i = 0; i < 3; i++) {
            call_t later = {.host = 1, .session = sessions[i]};
            call(&later);
            cr_expect_eq(later.status, 200);
            cr_expect_eq(later.engine, first[i].engine, "%s: engine %d on host 1, %d on host 0",
                         sessions[i], later.engine, first[i].engine);
        }
    }
    cr_expect_geq(
        kvr_harness_metric(&hosts[0].feed, "kvroute_statefeed_share_placements_exported_total"), 3);
    /* Nothing host 1 applied came back to host 0 as its own news. */
    cr_expect_eq(
        kvr_harness_metric(&hosts[0].feed, "kvroute_statefeed_share_placements_imported_total"), 0);
    cr_expect(kvr_harness_wait_zero(&hosts[0].router, 3000));
    cr_expect(kvr_harness_wait_zero(&hosts[1].router, 3000));
}

/* In flight on engine e as host i's dispatch segment shows it, every row summed. */
static uint64_t segment_in_flight(int i, int e)
{
    kvr_dsp_t d;
    kvr_dsp_geometry_t geo = KVR_DSP_DEFAULT_GEOMETRY;
    if (kvr_dsp_open(&d, hosts[i].share_name, &geo, 0) < 0)
        return 0;
    char url[64];
    engine_url(url, sizeof url, e);
    uint64_t key = kvr_dsp_engine_key(url);
    kvr_dsp_load_t load;
    kvr_dsp_sum_stats_t st;
    kvr_dsp_sum_others(&d, kvr_clock_now_ns(), 3 * 1000000000ull, &key, 1, &load, &st);
    kvr_dsp_close(&d);
    return load.in_flight;
}

Test(share_hosts, a_router_spreads_around_the_other_hosts_requests_in_flight)
{
    start_hosts();
    call_t calls[12];
    pthread_t threads[12];
    for (int i = 0; i < 3; i++)
        calls[i] = (call_t){.host = 0, .session = "heavy"};
    start_held(calls, threads, 3, 3);
    int heavy = -1;
    for (int e = 0; e < N_ENGINES; e++)
        if (kvr_fake_requests(fleet, e) == 3)
            heavy = e;
    cr_assert_geq(heavy, 0, "one session's three requests share one engine");
    /* Host 1's segment carries host 0's three in its statefeed's row. */
    bool seen = false;
    for (int waited = 0; !seen && waited < 5000; waited += 10) {
        seen = segment_in_flight(1, heavy) == 3;
        if (!seen)
            kvr_test_sleep_ms(10);
    }
    cr_assert(seen, "host 1's segment never showed host 0's requests");
    /* Nor does host 1's export bring them back to host 0 (one row there: its router's 3). */
    cr_expect_eq(segment_in_flight(0, heavy), 3);
    for (int i = 3; i < 12; i++)
        calls[i] = (call_t){.host = 1};
    start_held(calls + 3, threads + 3, 9, 12);
    for (int e = 0; e < N_ENGINES; e++)
        cr_expect_eq(kvr_fake_requests(fleet, e), 3, "engine %d holds %u of 12", e,
                     kvr_fake_requests(fleet, e));
    kvr_fake_release(fleet);
    join(threads, 12);
    cr_expect(kvr_harness_wait_zero(&hosts[0].router, 3000));
    cr_expect(kvr_harness_wait_zero(&hosts[1].router, 3000));
    /* Once host 0's charge is gone, host 1's segment says so too. */
    bool drained = false;
    for (int waited = 0; !drained && waited < 5000; waited += 10) {
        drained = segment_in_flight(1, heavy) == 0;
        if (!drained)
            kvr_test_sleep_ms(10);
    }
    cr_expect(drained, "host 0's finished requests still charge host 1");
}

Test(share_hosts, a_killed_statefeeds_remote_charge_leaves_with_its_link)
{
    start_hosts();
    call_t calls[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        calls[i] = (call_t){.host = 0, .session = "heavy"};
    start_held(calls, threads, 3, 3);
    int heavy = -1;
    for (int e = 0; e < N_ENGINES; e++)
        if (kvr_fake_requests(fleet, e) == 3)
            heavy = e;
    cr_assert_geq(heavy, 0);
    bool seen = false;
    for (int waited = 0; !seen && waited < 5000; waited += 10) {
        seen = segment_in_flight(1, heavy) == 3;
        if (!seen)
            kvr_test_sleep_ms(10);
    }
    cr_assert(seen);
    /* Host 0's statefeed dies mid-stream: host 1 stops counting what it last said within a few periods. */
    kill(hosts[0].feed.pid, SIGKILL);
    waitpid(hosts[0].feed.pid, NULL, 0);
    hosts[0].feed.pid = 0;
    bool gone = false;
    for (int waited = 0; !gone && waited < 5000; waited += 10) {
        gone = segment_in_flight(1, heavy) == 0;
        if (!gone)
            kvr_test_sleep_ms(10);
    }
    cr_expect(gone, "a dead link's charge stayed on host 1");
    kvr_fake_release(fleet);
    join(threads, 3);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(calls[i].status, 200, "no request is lost to the relay's fault");
    cr_expect(kvr_harness_wait_zero(&hosts[1].router, 3000));
}

Test(share_hosts, a_peer_placing_past_its_budget_is_dropped_and_counted)
{
    max_placements = "1"; /* one placement a second per import */
    start_hosts();
    static const char *const sessions[] = {"conv-a", "conv-b", "conv-c"};
    for (int i = 0; i < 3; i++) {
        call_t c = {.host = 0, .session = sessions[i]};
        call(&c);
        cr_assert_eq(c.status, 200);
    }
    /* Three pins within a second: the bucket's one goes in, the rest are counted, none lost silently. */
    cr_assert(kvr_harness_wait_metric_reach(
        &hosts[0].feed, "kvroute_statefeed_share_placements_exported_total", 3, 5000));
    cr_assert(kvr_harness_wait_metric_reach(
        &hosts[1].feed, "kvroute_statefeed_share_placements_dropped_total{reason=\"limit\"}", 1,
        5000));
    double in = 0, dropped = 0;
    for (int waited = 0; waited < 5000 && in + dropped < 3; waited += 20) {
        in = kvr_harness_metric(&hosts[1].feed,
                                "kvroute_statefeed_share_placements_imported_total");
        dropped = kvr_harness_metric(
            &hosts[1].feed, "kvroute_statefeed_share_placements_dropped_total{reason=\"limit\"}");
        if (in + dropped < 3)
            kvr_test_sleep_ms(20);
    }
    cr_expect_eq(in + dropped, 3, "imported %.0f, dropped %.0f", in, dropped);
    cr_expect_geq(in, 1);
    cr_expect(
        kvr_test_wait_file_contains(hosts[1].feed.log_path, "share_placements_over_limit", 3000));
}
