/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-statefeed --import-dns end to end: three daemons export on
 * 127.0.0.2, .3 and .4 (one port) and find each other through one name of
 * a scratch /etc/hosts this test owns (tests/support/scratch_hosts.h), as
 * replicas behind a headless Service do. Each polls one engine of its own
 * (nothing listens there: the slot exists, unhealthy), so an engine in a
 * daemon's segment that it does not poll came over the relay.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/statefeed/feed_harness.h"
#include "tests/support/proc.h"
#include "tests/support/scratch_hosts.h"

#define N_FEEDS 3
#define NAME "relay.kvroute.test"

static kvr_scratch_hosts_t scratch;
static feed_proc_t feeds[N_FEEDS];
static uint16_t metrics_ports[N_FEEDS];
static char engine_urls[N_FEEDS][64];
static char dns[64];

static const char hosts_text[] = "127.0.0.1 localhost\n"
                                 " 127.0.0.2 " NAME "\n"
                                 " 127.0.0.3 " NAME "\n"
                                 " 127.0.0.4 " NAME "\n";

static void teardown(void)
{
    for (int i = 0; i < N_FEEDS; i++)
        if (feeds[i].pid > 0)
            feed_stop(&feeds[i]);
    kvr_scratch_hosts_remove(&scratch);
}

TestSuite(feed_peers, .fini = teardown, .timeout = 90.);

static double metric(uint16_t port, const char *sample)
{
    char *resp = NULL;
    double v = -1;
    if (kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, 5000) == 200) {
        char line_start[200];
        snprintf(line_start, sizeof line_start, "\n%s", sample);
        const char *at = strstr(kvr_test_http_body(resp), line_start);
        if (at)
            v = strtod(at + strlen(line_start), NULL);
    }
    free(resp);
    return v;
}

typedef struct {
    uint16_t port;
    char sample[200];
    double value;
} metric_wait_t;

static bool metric_is(void *arg)
{
    const metric_wait_t *w = arg;
    return metric(w->port, w->sample) == w->value;
}

static void wait_metric(int feed, const char *family, double value)
{
    metric_wait_t w = {.port = metrics_ports[feed], .value = value};
    snprintf(w.sample, sizeof w.sample, "%s{name=\"%s\"} ", family, dns);
    cr_assert(kvr_test_wait_until(metric_is, &w, 20000), "%s of feed %d is %g, not %g; see %s",
              family, feed, metric(w.port, w.sample), value, feeds[feed].log_path);
}

typedef struct {
    feed_proc_t *feed;
    const char *id;
    bool present;
} slot_wait_t;

static bool slot_is(void *arg)
{
    const slot_wait_t *w = arg;
    return (kvr_shm_find(&w->feed->shm, w->id) >= 0) == w->present;
}

static void wait_slot(int feed, int engine, bool present)
{
    slot_wait_t w = {&feeds[feed], engine_urls[engine], present};
    cr_assert(kvr_test_wait_until(slot_is, &w, 20000), "feed %d %s the engine of feed %d; see %s",
              feed, present ? "lacks" : "still has", engine, feeds[feed].log_path);
}

static void set_listed(int feed, bool listed)
{
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.%d", 2 + feed);
    kvr_scratch_hosts_set_listed(&scratch, addr, listed);
}

/* n daemons on one relay port, each importing NAME:port; extra flags for daemon 0. */
static void start_feeds(int n, const char *const *extra0)
{
    kvr_scratch_hosts_setup(&scratch, "/tmp/kvroute-feed-peers", hosts_text, NAME);
    setenv("KVR_BIN_KVROUTE_STATEFEED",
           kvr_scratch_hosts_wrapper(&scratch, kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED")), 1);
    uint16_t relay_port = kvr_test_free_port();
    snprintf(dns, sizeof dns, NAME ":%u", relay_port);
    for (int i = 0; i < n; i++) {
        feed_url(engine_urls[i], sizeof engine_urls[i], kvr_test_free_port());
        metrics_ports[i] = kvr_test_free_port();
        char exp[40], listen[32];
        snprintf(exp, sizeof exp, "tcp:127.0.0.%d:%u", 2 + i, relay_port);
        snprintf(listen, sizeof listen, "127.0.0.1:%u", metrics_ports[i]);
        const char *args[24] = {"--engine",
                                engine_urls[i],
                                "--export",
                                exp,
                                "--import-dns",
                                dns,
                                "--engine-dns-interval-s",
                                "1",
                                "--backoff-max-ms",
                                "200",
                                "--listen",
                                listen};
        size_t k = 12;
        for (size_t e = 0; i == 0 && extra0 && extra0[e]; e++)
            args[k++] = extra0[e];
        args[k] = NULL;
        cr_assert(feed_start(&feeds[i], args), "statefeed %d did not start; see %s", i,
                  feeds[i].log_path);
    }
}

Test(feed_peers, replicas_found_by_one_name_import_each_other_and_follow_the_answer)
{
    start_feeds(N_FEEDS, NULL);
    /* A full mesh: every daemon holds the other two engines, and never imports itself. */
    for (int f = 0; f < N_FEEDS; f++)
        for (int e = 0; e < N_FEEDS; e++)
            if (e != f)
                wait_slot(f, e, true);
    for (int f = 0; f < N_FEEDS; f++) {
        wait_metric(f, "kvroute_statefeed_import_dns_peers", 2);
        wait_metric(f, "kvroute_statefeed_import_dns_peers_connected", 2);
        cr_assert(kvr_test_wait_file_contains(feeds[f].log_path, "import_dns_self", 5000),
                  "feed %d did not name its own address; see %s", f, feeds[f].log_path);
        char own[96];
        snprintf(own, sizeof own,
                 "kvroute_statefeed_import_connected{addr=\"tcp:127.0.0.%d:", 2 + f);
        cr_assert_eq(metric(metrics_ports[f], own), -1, "feed %d imports itself", f);
    }

    /* The third replica leaves the answer (its pod goes): the others drop it and its engine. */
    set_listed(2, false);
    for (int f = 0; f < 2; f++) {
        wait_slot(f, 2, false);
        wait_metric(f, "kvroute_statefeed_import_dns_peers", 1);
        wait_metric(f, "kvroute_statefeed_import_dns_peers_removed_total", 1);
    }
    wait_slot(0, 1, true);

    /* It comes back: imported again. */
    set_listed(2, true);
    for (int f = 0; f < 2; f++) {
        wait_slot(f, 2, true);
        wait_metric(f, "kvroute_statefeed_import_dns_peers_connected", 2);
    }
    for (int i = 0; i < N_FEEDS; i++) {
        int status = feed_stop(&feeds[i]);
        feeds[i].pid = 0;
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "statefeed %d exit status %d", i,
                  status);
    }
}

static int held_of_others(void)
{
    return (kvr_shm_find(&feeds[0].shm, engine_urls[1]) >= 0) +
           (kvr_shm_find(&feeds[0].shm, engine_urls[2]) >= 0);
}

static bool holds_one(void *arg)
{
    (void)arg;
    return held_of_others() >= 1;
}

Test(feed_peers, peers_past_the_bound_are_left_out_and_counted)
{
    const char *extra[] = {"--import-dns-max-peers", "1", NULL};
    start_feeds(N_FEEDS, extra);
    wait_metric(0, "kvroute_statefeed_import_dns_peers", 1);
    wait_metric(0, "kvroute_statefeed_import_dns_peers_connected", 1);
    metric_wait_t over = {.port = metrics_ports[0], .value = 1};
    snprintf(over.sample, sizeof over.sample,
             "kvroute_statefeed_import_dns_peers_over_limit_total{name=\"%s\"} ", dns);
    cr_assert(metric(over.port, over.sample) >= 1, "no refusal counted; see %s", feeds[0].log_path);
    cr_assert(kvr_test_file_contains(feeds[0].log_path, "import_dns_peers_over_limit"),
              "no log line for the bound; see %s", feeds[0].log_path);
    /* Exactly one of the two others' engines came over; the others, unbounded, import all. */
    cr_assert(kvr_test_wait_until(holds_one, NULL, 20000), "no relayed engine; see %s",
              feeds[0].log_path);
    wait_slot(1, 0, true);
    wait_slot(2, 0, true);
    cr_assert_eq(held_of_others(), 1);
}
