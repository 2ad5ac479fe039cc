/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-statefeed --engine-dns end to end: the daemon runs over a scratch
 * /etc/hosts this test owns (tests/support/scratch_hosts.h); switching a
 * line's first byte (' ' or '#') changes the answer. Engines are kvroute-sim processes on 127.0.0.2 and
 * 127.0.0.3, one port.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/statefeed/feed_harness.h"
#include "tests/support/proc.h"
#include "tests/support/scratch_hosts.h"

#define N_SIMS 2
#define NAME "feed.kvroute.test"

static kvr_scratch_hosts_t scratch;
static pid_t sims[N_SIMS];
static feed_proc_t feed;

static const char hosts_text[] = "127.0.0.1 localhost\n"
                                 " 127.0.0.2 " NAME "\n"
                                 " 127.0.0.3 " NAME "\n";

static void teardown(void)
{
    if (feed.pid > 0)
        feed_stop(&feed);
    for (int i = 0; i < N_SIMS; i++)
        if (sims[i] > 0)
            kvr_test_stop(sims[i], SIGTERM, 5000);
    kvr_scratch_hosts_remove(&scratch);
}

TestSuite(feed_discovery, .fini = teardown, .timeout = 60.);

static void set_listed(int i, bool listed)
{
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.%d", 2 + i);
    kvr_scratch_hosts_set_listed(&scratch, addr, listed);
}

typedef struct {
    const char *id;
    bool present;
    uint64_t after_generation;
} slot_wait_t;

/* The slot of id is (or is not) in the table, at a generation past after_generation. */
static bool slot_is(void *arg)
{
    const slot_wait_t *w = arg;
    return (kvr_shm_find(&feed.shm, w->id) >= 0) == w->present &&
           kvr_shm_generation(&feed.shm) > w->after_generation;
}

static double metric(uint16_t port, const char *sample)
{
    char *resp = NULL;
    double v = -1;
    if (kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, 5000) == 200) {
        char line_start[200];
        snprintf(line_start, sizeof line_start, "\n%s", sample); /* a sample line, not its # HELP */
        const char *at = strstr(kvr_test_http_body(resp), line_start);
        if (at)
            v = strtod(at + strlen(line_start), NULL);
    }
    free(resp);
    return v;
}

typedef struct {
    uint16_t port;
    const char *sample;
    double value;
} metric_wait_t;

static bool metric_reached(void *arg)
{
    const metric_wait_t *w = arg;
    return metric(w->port, w->sample) >= w->value;
}

/* The scratch files and a KVR_BIN_KVROUTE_STATEFEED that runs the real one over them; skips without namespaces. */
static void scratch_setup(const char *hosts)
{
    kvr_scratch_hosts_setup(&scratch, "/tmp/kvroute-feed-discovery", hosts, NAME);
    /* The harness starts KVR_BIN_KVROUTE_STATEFEED: the wrapper runs the real one in the namespace. */
    setenv("KVR_BIN_KVROUTE_STATEFEED",
           kvr_scratch_hosts_wrapper(&scratch, kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED")), 1);
}

Test(feed_discovery, a_vanished_engine_loses_its_slot_and_the_generation_bumps)
{
    scratch_setup(hosts_text);
    uint16_t port = kvr_test_free_port();
    char port_text[8], urls[N_SIMS][64];
    snprintf(port_text, sizeof port_text, "%u", port);
    for (int i = 0; i < N_SIMS; i++) {
        char host[16];
        snprintf(host, sizeof host, "127.0.0.%d", 2 + i);
        snprintf(urls[i], sizeof urls[i], "http://%s:%u", host, port);
        const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                              "--host",
                              host,
                              "--port",
                              port_text,
                              "--log-level",
                              "warn",
                              NULL};
        sims[i] = kvr_test_spawn((char *const *)argv, NULL);
        cr_assert_gt(sims[i], 0);
        cr_assert(kvr_test_wait_addr(host, port, 10000), "kvroute-sim did not listen on %s:%u",
                  host, port);
    }
    uint16_t metrics_port = kvr_test_free_port();
    char dns[64], listen[32];
    snprintf(dns, sizeof dns, NAME ":%u", port);
    snprintf(listen, sizeof listen, "127.0.0.1:%u", metrics_port);
    const char *extra[] = {"--engine-dns",
                           dns,
                           "--engine-dns-interval-s",
                           "1",
                           "--engine-dns-drain-after",
                           "2",
                           "--listen",
                           listen,
                           NULL};
    cr_assert(feed_start(&feed, extra), "statefeed did not start; see %s", feed.log_path);

    kvr_engine_state_t st;
    for (int i = 0; i < N_SIMS; i++)
        cr_assert(feed_wait(&feed, urls[i], feed_pred_healthy, NULL, 20000, &st),
                  "%s got no healthy slot; see %s", urls[i], feed.log_path);
    uint64_t generation = kvr_shm_generation(&feed.shm);

    /* 127.0.0.2 leaves the answer: its slot is freed, the other one stays. */
    set_listed(0, false);
    slot_wait_t gone = {urls[0], false, generation};
    cr_assert(kvr_test_wait_until(slot_is, &gone, 20000), "slot not freed; see %s", feed.log_path);
    cr_assert_geq(kvr_shm_find(&feed.shm, urls[1]), 0);
    char sample[160];
    snprintf(sample, sizeof sample,
             "kvroute_statefeed_discovery_engines_removed_total{name=\"%s\"} ", dns);
    cr_assert_eq(metric(metrics_port, sample), 1);

    /* It comes back: a slot again, one more generation, healthy. */
    generation = kvr_shm_generation(&feed.shm);
    set_listed(0, true);
    slot_wait_t back = {urls[0], true, generation};
    cr_assert(kvr_test_wait_until(slot_is, &back, 20000), "slot not given back; see %s",
              feed.log_path);
    cr_assert(feed_wait(&feed, urls[0], feed_pred_healthy, NULL, 20000, &st));

    /* The name stops resolving: counted, both slots kept. */
    generation = kvr_shm_generation(&feed.shm);
    set_listed(0, false);
    set_listed(1, false);
    snprintf(sample, sizeof sample,
             "kvroute_statefeed_discovery_resolve_failures_total{name=\"%s\"} ", dns);
    metric_wait_t failures = {metrics_port, sample, 2};
    cr_assert(kvr_test_wait_until(metric_reached, &failures, 20000),
              "resolution did not fail; see %s", feed.log_path);
    cr_assert_geq(kvr_shm_find(&feed.shm, urls[0]), 0);
    cr_assert_geq(kvr_shm_find(&feed.shm, urls[1]), 0);
    cr_assert_eq(kvr_shm_generation(&feed.shm), generation);
    int status = feed_stop(&feed);
    feed.pid = 0;
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "statefeed exit status %d", status);
}

Test(feed_discovery, an_answer_beyond_the_capacity_is_capped_and_counted)
{
    char hosts[512] = "127.0.0.1 localhost\n";
    for (int i = 0; i < 6; i++) {
        size_t len = strlen(hosts);
        snprintf(hosts + len, sizeof hosts - len, "127.0.0.%d " NAME "\n", 10 + i);
    }
    scratch_setup(hosts);
    uint16_t metrics_port = kvr_test_free_port();
    char dns[64], listen[32];
    snprintf(dns, sizeof dns, NAME ":%u", kvr_test_free_port());
    snprintf(listen, sizeof listen, "127.0.0.1:%u", metrics_port);
    /* Nothing listens at these addresses: the slots exist, unhealthy; the cap is what counts. */
    const char *extra[] = {
        "--engine-dns", dns, "--engine-dns-interval-s", "1", "--capacity", "4", "--listen",
        listen,         NULL};
    cr_assert(feed_start(&feed, extra), "statefeed did not start; see %s", feed.log_path);
    char sample[160];
    snprintf(sample, sizeof sample,
             "kvroute_statefeed_discovery_addresses_dropped_total{name=\"%s\"} ", dns);
    metric_wait_t dropped = {metrics_port, sample, 4}; /* two per answer, two answers */
    cr_assert(kvr_test_wait_until(metric_reached, &dropped, 20000), "no address dropped; see %s",
              feed.log_path);
    snprintf(sample, sizeof sample, "kvroute_statefeed_discovery_engines{name=\"%s\"} ", dns);
    cr_assert_eq(metric(metrics_port, sample), 4);
    cr_assert_eq(metric(metrics_port, "kvroute_statefeed_engines "), 4);
    cr_assert(kvr_test_file_contains(feed.log_path, "discovery_answer_capped"));
    /* Logged once per change, not once per answer. */
    FILE *f = fopen(feed.log_path, "r");
    cr_assert_not_null(f);
    char line[1024];
    int capped_lines = 0;
    while (fgets(line, sizeof line, f))
        capped_lines += strstr(line, "discovery_answer_capped") != NULL;
    fclose(f);
    cr_assert_eq(capped_lines, 1);
}
