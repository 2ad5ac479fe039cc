/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-statefeed --engine-dns end to end: the daemon runs in a private
 * mount namespace whose /etc/hosts is a scratch file this test owns (the
 * system's is never touched); switching a line's first byte (' ' or '#')
 * changes the answer. Engines are kvroute-sim processes on 127.0.0.2 and
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

#define N_SIMS 2
#define NAME "feed.kvroute.test"

static char dir[128], hosts_path[160], resolv_path[160], wrapper_path[160];
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
    if (dir[0]) {
        unlink(hosts_path);
        unlink(resolv_path);
        unlink(wrapper_path);
        rmdir(dir);
    }
}

TestSuite(feed_discovery, .fini = teardown, .timeout = 60.);

static void set_listed(int i, bool listed)
{
    char needle[32];
    snprintf(needle, sizeof needle, "127.0.0.%d ", 2 + i);
    long off = (long)(strstr(hosts_text, needle) - hosts_text) - 1;
    int fd = open(hosts_path, O_WRONLY);
    cr_assert_geq(fd, 0);
    cr_assert_eq(pwrite(fd, listed ? " " : "#", 1, off), 1);
    close(fd);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static bool namespace_works(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "unshare -m sh -c 'mount --bind \"%s\" /etc/hosts && grep -q %s /etc/hosts' "
             ">/dev/null 2>&1",
             hosts_path, NAME);
    int rc = system(cmd);
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

typedef struct {
    const char *host;
    uint16_t port;
} addr_t;

static bool accepts(void *arg)
{
    const addr_t *a = arg;
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(a->port)};
    inet_pton(AF_INET, a->host, &sin.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&sin, sizeof sin) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
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
    kvr_test_unique_name(dir, sizeof dir, "/tmp/kvroute-feed-discovery");
    cr_assert_eq(mkdir(dir, 0700), 0);
    snprintf(hosts_path, sizeof hosts_path, "%s/hosts", dir);
    snprintf(resolv_path, sizeof resolv_path, "%s/resolv.conf", dir);
    snprintf(wrapper_path, sizeof wrapper_path, "%s/statefeed-in-namespace", dir);
    write_file(hosts_path, hosts, 0644);
    write_file(resolv_path, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n", 0644);
    if (!namespace_works())
        cr_skip_test(
            "needs 'unshare -m' and 'mount --bind' (root or CAP_SYS_ADMIN) to give kvroute-statefeed "
            "a private /etc/hosts");
    /* The harness starts KVR_BIN_KVROUTE_STATEFEED: this script runs the real one in the namespace. */
    char script[1024];
    snprintf(
        script, sizeof script,
        "#!/bin/sh\nexec unshare -m sh -c 'mount --bind \"$1\" /etc/hosts && mount --bind \"$2\" "
        "/etc/resolv.conf && shift 2 && exec \"$@\"' sh \"%s\" \"%s\" \"%s\" \"$@\"\n",
        hosts_path, resolv_path, kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED"));
    write_file(wrapper_path, script, 0755);
    setenv("KVR_BIN_KVROUTE_STATEFEED", wrapper_path, 1);

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
        addr_t a = {host, port};
        cr_assert(kvr_test_wait_until(accepts, &a, 10000), "kvroute-sim did not listen on %s:%u",
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
    const char *extra[] = {"--engine-dns", dns, "--engine-dns-interval-s", "1", "--capacity", "4",
                           "--listen", listen, NULL};
    cr_assert(feed_start(&feed, extra), "statefeed did not start; see %s", feed.log_path);
    char sample[160];
    snprintf(sample, sizeof sample, "kvroute_statefeed_discovery_addresses_dropped_total{name=\"%s\"} ", dns);
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
