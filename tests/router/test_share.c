/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --share: two real routers on loopback in front of one set of scripted
 * engines act as one: a session keeps its engine whichever router its turn
 * reaches, a router's picks count the other's requests in flight, and a
 * router killed with SIGKILL stops counting once its heartbeat is too old.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "shm_layout/dispatch.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define N_ENGINES 4

static const char chat[] =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";

static kvr_fake_fleet_t *fleet;
#define MAX_ROUTERS 4
static kvr_harness_t routers[MAX_ROUTERS];
static char share_name[64];
static const char *router_policy; /* --policy of the routers started next */

/* Starts router i in front of the shared fleet, sharing share_name (or not, with share false). */
static void start_router(int i, bool share)
{
    /* sticky: load_only, and oneshot pins for requests with a session */
    const char *shared[] = {"--policy", router_policy,        "--log-level", "info", "--share",
                            share_name, "--share-max-age-ms", "1500",        NULL};
    if (!share)
        shared[4] = NULL;
    kvr_harness_start_router(&routers[i], fleet, N_ENGINES, shared);
}

static void setup(void)
{
    kvr_test_unique_name(share_name, sizeof share_name, "/kvr-test-share");
    router_policy = "sticky";
    fleet = kvr_fake_start(N_ENGINES);
}

static void teardown(void)
{
    for (int i = 0; i < MAX_ROUTERS; i++)
        if (routers[i].pid > 0)
            kvr_harness_stop(&routers[i]); /* the fleet is stopped below, once */
    kvr_fake_stop(fleet);
    fleet = NULL;
    kvr_dsp_unlink(share_name);
}

TestSuite(share, .init = setup, .fini = teardown, .timeout = 60.);

typedef struct call_s {
    int router;
    const char *session; /* NULL: none */
    bool hold;
    int status;
    int engine; /* fleet index that answered, -1 unknown */
} call_t;

static int engine_of(const char *url)
{
    for (int e = 0; e < N_ENGINES; e++) {
        char want[64];
        snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(fleet, e));
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
    c->status = kvr_test_http(routers[c->router].port, "POST", "/v1/chat/completions", headers,
                              chat, &resp, 20000);
    char url[64];
    c->engine = resp && kvr_harness_header(resp, "X-Kvroute-Engine", url, sizeof url)
                    ? engine_of(url)
                    : -1;
    free(resp);
    return NULL;
}

/* Starts held calls in threads; returns once the engines hold `expect_held` requests in all. */
static void start_held(call_t *calls, pthread_t *threads, int n, unsigned expect_held)
{
    for (int i = 0; i < n; i++) {
        calls[i].hold = true;
        cr_assert_eq(pthread_create(&threads[i], NULL, call, &calls[i]), 0);
        /* One at a time: each pick sees the charge of the one before, as in one router. */
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

/* Waits until router i's /metrics sample reaches value; false after timeout_ms. */
static bool wait_metric(int i, const char *sample, double value, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited <= timeout_ms; waited += 20) {
        if (kvr_harness_metric(&routers[i], sample) == value)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

Test(share, a_sessions_later_turns_keep_their_engine_on_the_other_router)
{
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    /* First turns on router 0, held together so load_only spreads them over three engines. */
    static const char *const sessions[] = {"conv-a", "conv-b", "conv-c"};
    call_t first[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        first[i] = (call_t){.router = 0, .session = sessions[i]};
    start_held(first, threads, 3, 3);
    kvr_fake_release(fleet);
    join(threads, 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(first[i].status, 200);
        for (int j = 0; j < i; j++)
            cr_assert_neq(first[i].engine, first[j].engine,
                          "the first turns went to distinct engines");
    }
    /* Later turns reach router 1, which never saw these sessions: the pins hold. */
    for (int turn = 0; turn < 2; turn++) {
        for (int i = 0; i < 3; i++) {
            call_t later = {.router = 1, .session = sessions[i]};
            call(&later);
            cr_expect_eq(later.status, 200);
            cr_expect_eq(later.engine, first[i].engine, "%s: engine %d on router 1, %d on router 0",
                         sessions[i], later.engine, first[i].engine);
        }
    }
    cr_expect_geq(kvr_harness_metric(&routers[1], "kvroute_share_ring_applied_total"), 3);
    cr_expect(kvr_harness_wait_zero(&routers[0], 3000));
    cr_expect(kvr_harness_wait_zero(&routers[1], 3000));
}

/* Router 0 holds 3 requests of one session (one engine); router 1 then places 9 without a session. */
static void lopsided_then_spread(int per_engine[N_ENGINES], call_t *calls, pthread_t *threads)
{
    for (int i = 0; i < 3; i++)
        calls[i] = (call_t){.router = 0, .session = "heavy"};
    start_held(calls, threads, 3, 3);
    for (int i = 3; i < 12; i++)
        calls[i] = (call_t){.router = 1};
    start_held(calls + 3, threads + 3, 9, 12);
    memset(per_engine, 0, N_ENGINES * sizeof *per_engine);
    for (int e = 0; e < N_ENGINES; e++)
        per_engine[e] = (int)kvr_fake_requests(fleet, e);
}

Test(share, a_router_spreads_around_the_other_routers_requests_in_flight)
{
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    call_t calls[12];
    pthread_t threads[12];
    int per_engine[N_ENGINES];
    lopsided_then_spread(per_engine, calls, threads);
    /* As one router would: the engine holding the session's 3 gets none of the 9. */
    for (int e = 0; e < N_ENGINES; e++)
        cr_expect_eq(per_engine[e], 3, "engine %d holds %d of 12", e, per_engine[e]);
    cr_expect_eq(kvr_harness_metric(&routers[1], "kvroute_share_rows_live"), 1);
    kvr_fake_release(fleet);
    join(threads, 12);
    /* Every charge comes back, on both routers' views. */
    cr_expect(kvr_harness_wait_zero(&routers[0], 3000));
    cr_expect(kvr_harness_wait_zero(&routers[1], 3000));
}

Test(share, without_share_the_same_load_herds)
{
    start_router(0, false);
    start_router(1, false);
    call_t calls[12];
    pthread_t threads[12];
    int per_engine[N_ENGINES];
    lopsided_then_spread(per_engine, calls, threads);
    int most = 0;
    for (int e = 0; e < N_ENGINES; e++)
        most = per_engine[e] > most ? per_engine[e] : most;
    cr_expect_gt(most, 3, "router 1 cannot see router 0's 3 requests: one engine gets more");
    kvr_fake_release(fleet);
    join(threads, 12);
}

Test(share, a_killed_routers_charge_is_ignored_after_the_max_age)
{
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    call_t calls[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        calls[i] = (call_t){.router = 0, .session = "heavy"};
    start_held(calls, threads, 3, 3);
    /* Router 1 counts router 0's three in flight (its housekeeping sums them every second). */
    for (int waited = 0; kvr_harness_shadow_total(&routers[1]) <= 0 && waited < 3000; waited += 20)
        kvr_test_sleep_ms(20);
    cr_assert_gt(kvr_harness_shadow_total(&routers[1]), 0);
    kvr_test_stop(routers[0].pid, SIGKILL, 2000);
    routers[0].pid = 0;
    join(threads, 3);
    /* Its row is never freed; past --share-max-age-ms it is stale and its charge gone. */
    cr_expect(wait_metric(1, "kvroute_share_rows_stale", 1, 8000));
    cr_expect(kvr_harness_wait_zero(&routers[1], 3000), "a dead router's charge must not stay");
    /* And router 1 places as if alone again: 4 requests, one per engine. */
    kvr_fake_release(fleet);
    for (int waited = 0; kvr_fake_held(fleet) > 0 && waited < 3000; waited += 10)
        kvr_test_sleep_ms(10);
    call_t again[4];
    pthread_t more[4];
    for (int i = 0; i < 4; i++)
        again[i] = (call_t){.router = 1};
    unsigned before = kvr_fake_held(fleet);
    start_held(again, more, 4, before + 4);
    kvr_fake_release(fleet);
    join(more, 4);
    bool used[N_ENGINES] = {false};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(again[i].status, 200);
        if (again[i].engine >= 0)
            used[again[i].engine] = true;
    }
    for (int e = 0; e < N_ENGINES; e++)
        cr_expect(used[e], "engine %d got none of the 4", e);
    cr_expect_eq(kvr_harness_metric(&routers[1], "kvroute_share_fallbacks_total"), 0);
}

static bool log_has(int i, const char *needle)
{
    FILE *f = fopen(routers[i].log_path, "r");
    if (!f)
        return false;
    char line[2048];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

static bool wait_log(int i, const char *needle, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited <= timeout_ms; waited += 20) {
        if (log_has(i, needle))
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

Test(share, a_foreign_object_at_the_name_is_refused_and_the_router_routes_alone)
{
    int fd = shm_open(share_name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    char junk[8192];
    memset(junk, 0x5a, sizeof junk);
    cr_assert_eq(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    start_router(0, true);
    cr_expect(wait_log(0, "share_unavailable", 3000));
    cr_expect(log_has(0, "not a kvroute dispatch segment"));
    call_t c = {.router = 0};
    call(&c);
    cr_expect_eq(c.status, 200);
    cr_expect_eq(kvr_harness_metric(&routers[0], "kvroute_share_open"), 0);
    cr_expect_eq(kvr_harness_metric(&routers[0], "kvroute_share_fallbacks_total"), 1,
                 "a segment refused at open is one fallback, as the README says");
    /* Left for the operator: the router never removes what it did not make. */
    struct stat st;
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", share_name);
    cr_expect_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_size, (off_t)sizeof junk);
}

Test(share, a_segment_shrunk_under_the_routers_is_one_fallback_and_no_lost_request)
{
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    int fd = shm_open(share_name, O_RDWR, 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 512), 0);
    close(fd);
    for (int i = 0; i < 4; i++) {
        call_t c = {.router = i % 2};
        call(&c);
        cr_expect_eq(c.status, 200, "request %d", i);
    }
    for (int i = 0; i < 2; i++) {
        cr_expect(wait_metric(i, "kvroute_share_fallbacks_total", 1, 3000), "router %d", i);
        cr_expect(wait_log(i, "share_unavailable", 3000), "router %d", i);
        cr_expect(kvr_harness_wait_zero(&routers[i], 3000));
    }
}

/* 100 held requests at once, spread round robin over n routers; returns max - min per engine. */
static int burst(int n, call_t *calls, pthread_t *threads)
{
    for (int i = 0; i < 100; i++) {
        calls[i] = (call_t){.router = i % n, .hold = true};
        cr_assert_eq(pthread_create(&threads[i], NULL, call, &calls[i]), 0);
    }
    for (int waited = 0; kvr_fake_held(fleet) < 100 && waited < 15000; waited += 20)
        kvr_test_sleep_ms(20);
    cr_assert_eq(kvr_fake_held(fleet), 100);
    int least = 100, most = 0;
    for (int e = 0; e < N_ENGINES; e++) {
        int k = (int)kvr_fake_requests(fleet, e);
        least = k < least ? k : least;
        most = k > most ? k : most;
    }
    kvr_fake_release(fleet);
    join(threads, 100);
    for (int i = 0; i < 100; i++)
        cr_expect_eq(calls[i].status, 200);
    for (int i = 0; i < n; i++)
        cr_expect(kvr_harness_wait_zero(&routers[i], 3000));
    return most - least;
}

ParameterizedTestParameters(share, a_burst_split_over_routers_spreads_as_one_router_would)
{
    static int counts[] = {2, 4};
    return cr_make_param_array(int, counts, 2);
}

ParameterizedTest(int *n, share, a_burst_split_over_routers_spreads_as_one_router_would)
{
    for (int i = 0; i < *n; i++)
        start_router(i, true);
    for (int i = 0; i < *n; i++)
        cr_assert(wait_metric(i, "kvroute_share_rows_live", *n - 1, 5000) ||
                  wait_metric(i, "kvroute_share_open", 1, 1));
    static call_t calls[100];
    pthread_t threads[100];
    /* All at once, round robin over the routers: the picks race across processes, as replicas'
     * do. One router gives 25 each; routers deciding at the same moment may see each other's
     * last pick a few microseconds late. */
    int spread = burst(*n, calls, threads);
    cr_log_info("100 over %d sharing routers: engines differ by %d", *n, spread);
    /* Routers that do not share all break ties alike: each spreads its 100/n alone, and the
     * engines differ by n (measured 2 and 4). */
    cr_expect_lt(spread, *n, "engines differ by %d of 100 over %d routers", spread, *n);
}

Test(share, a_share_name_that_is_not_one_shm_name_is_one_line_and_exit_2)
{
    char log_path[128];
    kvr_test_unique_name(log_path, sizeof log_path, "/tmp/kvroute-test-share-flag");
    const char *argv[] = {
        kvr_test_bin("KVR_BIN_KVROUTE"), "--share", "a/b", "--engine", "http://127.0.0.1:1", NULL};
    pid_t pid = kvr_test_spawn((char *const *)argv, log_path);
    cr_assert_gt(pid, 0);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    FILE *f = fopen(log_path, "r");
    cr_assert_not_null(f);
    char line[512] = "";
    cr_expect_not_null(fgets(line, sizeof line, f));
    cr_expect_str_eq(
        line, "kvroute: --share: expected a name without '/' of at most 200 bytes, got 'a/b'\n");
    fclose(f);
    unlink(log_path);
}

Test(share, a_router_whose_heartbeat_stops_is_ignored_until_it_beats_again)
{
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    call_t calls[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        calls[i] = (call_t){.router = 0, .session = "heavy"};
    start_held(calls, threads, 3, 3);
    cr_assert(wait_metric(1, "kvroute_share_rows_live", 1, 3000));
    kill(routers[0].pid, SIGSTOP); /* hung: its requests stay in flight, its heartbeat stops */
    cr_expect(wait_metric(1, "kvroute_share_rows_stale", 1, 8000));
    cr_expect(kvr_harness_wait_zero(&routers[1], 3000), "a silent router's charge is not counted");
    kill(routers[0].pid, SIGCONT);
    cr_expect(wait_metric(1, "kvroute_share_rows_live", 1, 5000), "beating again, it counts again");
    for (int waited = 0; kvr_harness_shadow_total(&routers[1]) <= 0 && waited < 3000; waited += 20)
        kvr_test_sleep_ms(20);
    cr_expect_gt(kvr_harness_shadow_total(&routers[1]), 0);
    kvr_fake_release(fleet);
    join(threads, 3);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(calls[i].status, 200);
    cr_expect(kvr_harness_wait_zero(&routers[0], 3000));
    cr_expect(kvr_harness_wait_zero(&routers[1], 3000));
}

/* A chat request whose prompt spans many prefix blocks, so a router's index can match it. */
static int call_long(int router, int *engine)
{
    static char body[4096];
    char text[2600];
    for (size_t i = 0; i + 1 < sizeof text; i++)
        text[i] = (char)('a' + (i * 7) % 26);
    text[sizeof text - 1] = '\0';
    snprintf(body, sizeof body,
             "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}", text);
    char *resp = NULL;
    int status = kvr_test_http(routers[router].port, "POST", "/v1/chat/completions", "", body,
                               &resp, 20000);
    char url[64];
    *engine = resp && kvr_harness_header(resp, "X-Kvroute-Engine", url, sizeof url) ? engine_of(url)
                                                                                    : -1;
    free(resp);
    return status;
}

Test(share, prefixes_an_idle_router_reads_on_its_housekeeping_tick_reach_its_index)
{
    router_policy = "cache_aware";
    start_router(0, true);
    start_router(1, true);
    cr_assert(wait_metric(1, "kvroute_share_open", 1, 5000));
    /* One request held on engine 0, so router 0 places the long prompt elsewhere. */
    call_t held = {.router = 0};
    pthread_t thread;
    start_held(&held, &thread, 1, 1);
    int placed = -1;
    cr_assert_eq(call_long(0, &placed), 200);
    cr_assert_neq(placed, held.engine, "shortest queue avoided the busy engine");
    kvr_fake_release(fleet);
    join(&thread, 1);
    cr_assert(kvr_harness_wait_zero(&routers[0], 3000));
    /* Router 1 has no traffic: its housekeeping (every second) reads router 0's entries. */
    double applied = 0;
    for (int waited = 0; waited < 5000 && applied < 2; waited += 20) {
        applied = kvr_harness_metric(&routers[1], "kvroute_share_ring_applied_total");
        if (applied < 2)
            kvr_test_sleep_ms(20);
    }
    cr_assert_geq(applied, 2, "router 1 never read router 0's placements");
    cr_assert(kvr_harness_wait_zero(&routers[1], 3000));
    /* All idle now: only the prefix tells router 1 where the prompt is cached. */
    int engine = -1;
    cr_assert_eq(call_long(1, &engine), 200);
    cr_expect_eq(engine, placed, "router 1 sent the prompt to engine %d, router 0 placed it on %d",
                 engine, placed);
}

/* What is planted at the share name before the router starts; each is refused at open. */
typedef enum { PLANT_GROUP_WRITABLE, PLANT_SYMLINK } plant_t;

ParameterizedTestParameters(share, a_segment_refused_at_open_is_counted_once_as_a_fallback)
{
    static plant_t plants[] = {PLANT_GROUP_WRITABLE, PLANT_SYMLINK};
    return cr_make_param_array(plant_t, plants, sizeof plants / sizeof plants[0]);
}

ParameterizedTest(plant_t *plant, share, a_segment_refused_at_open_is_counted_once_as_a_fallback)
{
    char path[128], target[128];
    snprintf(path, sizeof path, "/dev/shm%s", share_name);
    target[0] = '\0';
    if (*plant == PLANT_GROUP_WRITABLE) {
        int fd = shm_open(share_name, O_RDWR | O_CREAT | O_EXCL, 0600);
        cr_assert_geq(fd, 0);
        cr_assert_eq(fchmod(fd, 0666), 0);
        cr_assert_eq(ftruncate(fd, 1 << 20), 0);
        close(fd);
    } else {
        kvr_test_unique_name(target, sizeof target, "/tmp/kvroute-test-share-target");
        int fd = open(target, O_RDWR | O_CREAT | O_EXCL, 0600);
        cr_assert_geq(fd, 0);
        close(fd);
        cr_assert_eq(symlink(target, path), 0);
    }
    start_router(0, true);
    cr_expect(wait_log(0, "share_unavailable", 3000));
    cr_expect(wait_metric(0, "kvroute_share_fallbacks_total", 1, 3000),
              "refused at open: counted (got %g)",
              kvr_harness_metric(&routers[0], "kvroute_share_fallbacks_total"));
    cr_expect_eq(kvr_harness_metric(&routers[0], "kvroute_share_open"), 0);
    call_t c = {.router = 0};
    call(&c);
    cr_expect_eq(c.status, 200);
    struct stat st;
    cr_expect_eq(lstat(path, &st), 0, "left for the operator");
    if (target[0]) {
        unlink(path);
        unlink(target);
    }
}

/*
 * A peer's load that saturates an engine's 32-bit request count reads the
 * same in /engines and /metrics: 4294967295, never a signed -1.
 */
Test(share, a_saturated_request_count_prints_unsigned_in_engines_and_metrics)
{
    start_router(0, true);
    cr_assert(wait_metric(0, "kvroute_share_open", 1, 5000));
    kvr_dsp_t d;
    kvr_dsp_geometry_t geo = KVR_DSP_DEFAULT_GEOMETRY;
    cr_assert_eq(kvr_dsp_open(&d, share_name, &geo, 0), 0);
    cr_assert_geq(kvr_dsp_claim(&d, "test-peer", kvr_clock_now_ns(), 1500 * KVR_NS_PER_MS), 0);
    char url[64], sample[160];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_fake_port(fleet, 0));
    snprintf(sample, sizeof sample, "kvroute_engine_requests{engine=\"%s\",kind=\"shadow\"}", url);
    uint64_t key = kvr_dsp_engine_key(url);
    kvr_dsp_load_t load = {.in_flight = UINT64_MAX};
    char *resp = NULL;
    bool seen = false;
    for (unsigned waited = 0; !seen && waited <= 5000; waited += 50) {
        uint64_t now = kvr_clock_now_ns();
        cr_assert_eq(kvr_dsp_publish(&d, &key, &load, 1, now), 0);
        cr_assert_eq(kvr_dsp_heartbeat(&d, now), 0);
        free(resp);
        resp = NULL;
        cr_assert_eq(
            kvr_test_http(routers[0].admin_port, "GET", "/engines", NULL, NULL, &resp, 3000), 200);
        seen = kvr_harness_metric(&routers[0], sample) == 4294967295.0;
        if (!seen)
            kvr_test_sleep_ms(50);
    }
    cr_expect(seen, "the peer's load never reached %s", sample);
    /* Read after the metric showed it: the same snapshot rule, so /engines has it too. */
    free(resp);
    resp = NULL;
    cr_assert_eq(kvr_dsp_heartbeat(&d, kvr_clock_now_ns()), 0);
    cr_assert_eq(kvr_test_http(routers[0].admin_port, "GET", "/engines", NULL, NULL, &resp, 3000),
                 200);
    const char *body = kvr_test_http_body(resp);
    cr_expect(strstr(body, "\"shadow\":{\"requests\":4294967295"), "%s", body);
    cr_expect(!strstr(body, "\"requests\":-1"), "%s", body);
    free(resp);
    kvr_dsp_release(&d);
    kvr_dsp_close(&d);
}
