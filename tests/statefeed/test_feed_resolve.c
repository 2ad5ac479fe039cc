/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine names are resolved off the ring's thread: kvroute-statefeed runs
 * with a resolver that holds every query (tests/support/stub_dns.h) and
 * keeps answering GET /health on --listen while a reload's new engine
 * waits for its name; the engine is polled once the resolver answers. The
 * same holds for an --import peer given by name, resolved again after its
 * connection is lost.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"
#include "tests/support/stub_dns.h"

#define NAME "slow.kvroute.test"

static kvr_stub_dns_t dns;
static feed_proc_t feed;
static kvr_fake_fleet_t *fleet;
static char config_path[128];

static void teardown(void)
{
    kvr_stub_dns_release(&dns); /* a resolver still waiting ends before the daemon is stopped */
    if (feed.pid > 0) {
        int status = feed_stop(&feed);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "statefeed exited with %d; see %s",
                  status, feed.log_path);
    }
    kvr_fake_stop(fleet);
    kvr_stub_dns_stop(&dns);
    if (config_path[0])
        unlink(config_path);
}

TestSuite(feed_resolve, .fini = teardown, .timeout = 60.);

Test(feed_resolve, health_answers_while_a_reloaded_engine_name_resolves)
{
    char why[160];
    if (!kvr_stub_dns_start(&dns, "127.0.0.1", why, sizeof why))
        cr_skip_test("%s", why);
    fleet = kvr_fake_start(1);
    kvr_fake_set_bodies(fleet, 0, "vllm:num_requests_running 2\n", NULL);
    kvr_test_unique_name(config_path, sizeof config_path, "/tmp/kvroute-feed-resolve-cfg");
    FILE *f = fopen(config_path, "w");
    cr_assert_not_null(f);
    fputs("# no engines yet\n", f);
    fclose(f);
    uint16_t port = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    const char *wrap[16];
    size_t n_wrap = kvr_stub_dns_wrap(&dns, wrap);
    const char *args[] = {"--config", config_path, "--listen", listen, NULL};
    cr_assert(feed_start_wrapped(&feed, wrap, n_wrap, args), "statefeed did not start; see %s",
              feed.log_path);
    cr_assert(kvr_test_wait_port(port, 10000), "--listen port never opened");

    char url[96], needle[160];
    snprintf(url, sizeof url, "http://" NAME ":%u", kvr_fake_port(fleet, 0));
    f = fopen(config_path, "w");
    fprintf(f, "engine %s\n", url);
    fclose(f);
    kill(feed.pid, SIGHUP);
    cr_assert(kvr_stub_dns_wait_queries(&dns, 1, 20000), "the reload never asked the resolver");

    /* The resolver holds the query: the daemon's endpoint must still answer. */
    char *resp = NULL;
    int status = kvr_test_http(port, "GET", "/health", NULL, NULL, &resp, 10000);
    free(resp);
    cr_assert_eq(status, 200, "GET /health was not answered while a name resolved (%d)", status);
    snprintf(needle, sizeof needle, "engine_resolved engine=%s", url);
    cr_expect(!kvr_test_file_contains(feed.log_path, needle), "resolved before the answer");

    kvr_stub_dns_release(&dns);
    cr_assert(kvr_test_wait_file_contains(feed.log_path, needle, 20000), "see %s", feed.log_path);
    uint32_t running = 2;
    cr_assert(feed_wait(&feed, url, feed_pred_running, &running, 20000, NULL),
              "the engine was not polled once its name resolved; see %s", feed.log_path);
}

/* A listener on 127.0.0.1 standing in for an exporter: it only takes connections. */
static int peer_listen(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(fd, 4), 0);
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    *port = ntohs(a.sin_port);
    return fd;
}

static int peer_accept(int lfd, unsigned timeout_ms)
{
    struct pollfd p = {.fd = lfd, .events = POLLIN};
    return poll(&p, 1, (int)timeout_ms) == 1 ? accept(lfd, NULL, NULL) : -1;
}

Test(feed_resolve, health_answers_while_a_relay_peer_name_resolves_again)
{
    char why[160];
    if (!kvr_stub_dns_start(&dns, "127.0.0.1", why, sizeof why))
        cr_skip_test("%s", why);
    kvr_stub_dns_release(&dns); /* the start-up resolution is answered at once */
    uint16_t peer_port, port = kvr_test_free_port();
    int lfd = peer_listen(&peer_port);
    char imp[96], listen[32], needle[160];
    snprintf(imp, sizeof imp, "tcp:peer.kvroute.test:%u", peer_port);
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    const char *wrap[16];
    size_t n_wrap = kvr_stub_dns_wrap(&dns, wrap);
    const char *args[] = {"--import", imp,           "--listen", listen, "--backoff-max-ms",
                          "200",      "--log-level", "debug",    NULL};
    cr_assert(feed_start_wrapped(&feed, wrap, n_wrap, args), "statefeed did not start; see %s",
              feed.log_path);
    cr_assert(kvr_test_wait_port(port, 10000), "--listen port never opened");
    int fd = peer_accept(lfd, 10000);
    cr_assert_geq(fd, 0, "the import never connected; see %s", feed.log_path);

    /* The resolver holds every query from now on; the peer drops the connection. */
    kvr_stub_dns_hold(&dns);
    unsigned asked = atomic_load(&dns.queries);
    close(fd);
    cr_assert(kvr_stub_dns_wait_queries(&dns, asked + 1, 20000),
              "the lost connection did not resolve the peer's name again; see %s", feed.log_path);
    char *resp = NULL;
    int status = kvr_test_http(port, "GET", "/health", NULL, NULL, &resp, 10000);
    free(resp);
    cr_assert_eq(status, 200, "GET /health was not answered while the peer's name resolved (%d)",
                 status);
    /* Reconnects go on to the last address meanwhile. */
    fd = peer_accept(lfd, 10000);
    cr_assert_geq(fd, 0, "no reconnect while the name resolved; see %s", feed.log_path);
    snprintf(needle, sizeof needle, "import_resolved addr=%s address=127.0.0.1", imp);
    cr_expect(!kvr_test_file_contains(feed.log_path, needle), "resolved before the answer");

    kvr_stub_dns_release(&dns);
    cr_assert(kvr_test_wait_file_contains(feed.log_path, needle, 20000), "see %s", feed.log_path);
    close(fd);
    close(lfd);
}
