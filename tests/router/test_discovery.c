/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --engine-dns end to end: kvroute runs over a scratch /etc/hosts this test
 * owns (tests/support/scratch_hosts.h), so the test changes the resolver's
 * answer by editing that file. The name resolves to loopback addresses,
 * where kvroute-sim engines listen on one port each.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"
#include "tests/support/scratch_hosts.h"

#define N_SIMS 3
#define NAME "pool.kvroute.test"

static kvr_scratch_hosts_t scratch;
static char config_path[160];
static pid_t sims[N_SIMS];
static kvr_harness_t h;

static void teardown(void)
{
    if (h.pid > 0)
        kvr_harness_stop(&h);
    for (int i = 0; i < N_SIMS; i++)
        if (sims[i] > 0)
            kvr_test_stop(sims[i], SIGTERM, 5000);
    kvr_scratch_hosts_remove(&scratch);
}

TestSuite(discovery, .fini = teardown, .timeout = 90.);

/* Engine i is 127.0.0.{2+i}; its line starts with ' ' (listed) or '#'. */
static const char hosts_text[] = "127.0.0.1 localhost\n"
                                 " 127.0.0.2 " NAME "\n"
                                 " 127.0.0.3 " NAME "\n"
                                 "#127.0.0.4 " NAME "\n";
static void set_listed(int i, bool listed)
{
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.%d", 2 + i);
    kvr_scratch_hosts_set_listed(&scratch, addr, listed);
}

static void start_router(const char *name, uint16_t engine_port)
{
    char dns[64];
    snprintf(dns, sizeof dns, "%s:%u", name, engine_port);
    setenv("KVR_BIN_KVROUTE", kvr_scratch_hosts_wrapper(&scratch, kvr_test_bin("KVR_BIN_KVROUTE")),
           1);
    const char *extra[] = {"--engine-dns",
                           dns,
                           "--engine-dns-interval-s",
                           "1",
                           "--engine-dns-drain-after",
                           "2",
                           "--log-level",
                           "info",
                           "--config",
                           config_path,
                           NULL};
    kvr_harness_start(&h, 0, extra);
}

/* A streamed completion kept open: its engine is known from the response head. */
typedef struct {
    int fd;
    char engine[64];
    char buf[1 << 16];
    size_t len;
} stream_t;

static void stream_open(stream_t *s, unsigned max_tokens)
{
    memset(s, 0, sizeof *s);
    s->fd = kvr_test_connect(h.port);
    cr_assert_geq(s->fd, 0);
    struct timeval tv = {.tv_sec = 30};
    setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char body[160], req[512];
    int n = snprintf(body, sizeof body,
                     "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hello\",\"max_tokens\":%u,"
                     "\"stream\":true}",
                     max_tokens);
    n = snprintf(req, sizeof req,
                 "POST /v1/completions HTTP/1.1\r\nHost: kvroute\r\nContent-Type: "
                 "application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
                 n, body);
    cr_assert_eq(write(s->fd, req, (size_t)n), n);
    while (!strstr(s->buf, "\r\n\r\n")) {
        ssize_t got = read(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len);
        cr_assert_gt(got, 0, "stream head not received");
        s->len += (size_t)got;
        s->buf[s->len] = '\0';
    }
    cr_assert(strncmp(s->buf, "HTTP/1.1 200", 12) == 0, "%.200s", s->buf);
    cr_assert_not_null(kvr_harness_header(s->buf, "X-Kvroute-Engine", s->engine, sizeof s->engine));
}

/* Reads the stream to its end: true when it finished with [DONE]. */
static bool stream_finish(stream_t *s)
{
    for (;;) {
        ssize_t got = read(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len);
        if (got <= 0)
            break;
        s->len += (size_t)got;
        s->buf[s->len] = '\0';
        if (s->len == sizeof s->buf - 1) { /* keep the tail only */
            memmove(s->buf, s->buf + s->len / 2, s->len - s->len / 2 + 1);
            s->len -= s->len / 2;
        }
    }
    close(s->fd);
    return strstr(s->buf, "data: [DONE]") != NULL;
}

/* The /engines entry of id: 1 listed, 0 not; *removed and *in_flight filled when listed. */
static int engine_entry(const char *id, bool *removed, int *in_flight)
{
    char *resp = NULL;
    int status = kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 5000);
    cr_assert_eq(status, 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    int found = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "engines"))
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "id")), id) != 0)
            continue;
        found = 1;
        *removed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "removed"));
        const cJSON *shadow = cJSON_GetObjectItemCaseSensitive(e, "shadow");
        *in_flight = (int)cJSON_GetNumberValue(
            cJSON_GetObjectItemCaseSensitive(shadow, "requests"));
    }
    cJSON_Delete(doc);
    return found;
}

/* Engines in /engines that are not removed. */
static int live_engines(void)
{
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 5000), 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "engines"))
        n += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "removed"));
    cJSON_Delete(doc);
    return n;
}

static const char *metric_name(char *out, size_t cap, const char *family, uint16_t port)
{
    snprintf(out, cap, "kvroute_discovery_%s{name=\"" NAME ":%u\"}", family, port);
    return out;
}

/* The scratch hosts file and an engine-less config. Skips without namespaces. */
static void scratch_setup(const char *hosts)
{
    kvr_scratch_hosts_setup(&scratch, "/tmp/kvroute-discovery", hosts, NAME);
    kvr_scratch_hosts_file(&scratch, "kvroute.conf", "# engines come from --engine-dns only\n",
                           config_path, sizeof config_path);
}

Test(discovery, an_ipv6_answer_is_an_engine_in_brackets)
{
    scratch_setup("127.0.0.1 localhost\n::1 " NAME "\n");
    uint16_t port = kvr_test_free_port();
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%u", port);
    const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                          "--host",
                          "::1",
                          "--port",
                          port_text,
                          "--log-level",
                          "warn",
                          NULL};
    sims[0] = kvr_test_spawn((char *const *)argv, NULL);
    cr_assert_gt(sims[0], 0);
    cr_assert(kvr_test_wait_addr("::1", port, 10000), "kvroute-sim did not listen on [::1]:%u",
              port);
    start_router(NAME, port);
    char m_engines[128], url[64];
    metric_name(m_engines, sizeof m_engines, "engines", port);
    cr_assert(kvr_harness_wait_metric(&h, m_engines, 1, 20000), "no engine discovered; see %s",
              h.log_path);
    snprintf(url, sizeof url, "http://[::1]:%u", port);
    bool removed = true;
    int in_flight = -1;
    cr_assert_eq(engine_entry(url, &removed, &in_flight), 1, "%s not in /engines; see %s", url,
                 h.log_path);
    cr_assert(!removed);
    char *resp = NULL;
    int status = kvr_test_http(
        h.port, "POST", "/v1/completions", "Content-Type: application/json\r\n",
        "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hi\",\"max_tokens\":1}", &resp, 10000);
    cr_assert_eq(status, 200);
    char engine[64];
    cr_assert_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", engine, sizeof engine));
    cr_assert_str_eq(engine, url);
    free(resp);
}

Test(discovery, engines_join_and_leave_with_the_answer_and_nothing_is_lost)
{
    scratch_setup(hosts_text);

    uint16_t port = kvr_test_free_port();
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%u", port);
    for (int i = 0; i < N_SIMS; i++) {
        char host[16];
        snprintf(host, sizeof host, "127.0.0.%d", 2 + i);
        const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                              "--host",
                              host,
                              "--port",
                              port_text,
                              "--step-base-ms",
                              "20",
                              "--log-level",
                              "warn",
                              NULL};
        sims[i] = kvr_test_spawn((char *const *)argv, NULL);
        cr_assert_gt(sims[i], 0);
        cr_assert(kvr_test_wait_addr(host, port, 10000), "kvroute-sim did not listen on %s:%u",
                  host, port);
    }
    start_router(NAME, port);
    char m_engines[128], m_added[128], m_removed[128], m_failures[128];
    metric_name(m_engines, sizeof m_engines, "engines", port);
    metric_name(m_added, sizeof m_added, "engines_added_total", port);
    metric_name(m_removed, sizeof m_removed, "engines_removed_total", port);
    metric_name(m_failures, sizeof m_failures, "resolve_failures_total", port);
    cr_assert(kvr_harness_wait_metric(&h, m_engines, 2, 20000),
              "two engines not discovered; see %s", h.log_path);

    /* Two engines: two concurrent streams go one to each. */
    stream_t *s = calloc(N_SIMS, sizeof *s);
    stream_open(&s[0], 20);
    stream_open(&s[1], 20);
    cr_expect_str_neq(s[0].engine, s[1].engine);
    cr_assert(stream_finish(&s[0]) && stream_finish(&s[1]));

    /* A third address appears: it joins and takes traffic. */
    set_listed(2, true);
    cr_assert(kvr_harness_wait_metric(&h, m_engines, 3, 20000), "third engine did not join; see %s",
              h.log_path);
    cr_assert_eq(kvr_harness_metric(&h, m_added), 3);
    /* SIGHUP re-reads a config without engines: the discovered ones stay. */
    cr_assert_eq(kill(h.pid, SIGHUP), 0);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "reloaded config=", 10000));
    cr_assert_eq(live_engines(), 3, "SIGHUP removed discovered engines; see %s", h.log_path);
    bool seen_new = false;
    for (int i = 0; i < N_SIMS; i++) {
        stream_open(&s[i], 250);
        seen_new |= strstr(s[i].engine, "127.0.0.4:") != NULL;
    }
    cr_expect(seen_new, "no stream reached the new engine");

    /* The engine of a stream in flight vanishes from the answer: drained, not cut. */
    char victim[64];
    snprintf(victim, sizeof victim, "%s", s[0].engine);
    int victim_index = victim[strlen("http://127.0.0.")] - '2';
    cr_assert(victim_index >= 0 && victim_index < N_SIMS, "%s", victim);
    set_listed(victim_index, false);
    cr_assert(kvr_harness_wait_metric(&h, m_removed, 1, 20000), "engine not removed; see %s",
              h.log_path);
    cr_assert_eq(kvr_harness_metric(&h, m_engines), 2);
    bool removed = false;
    int in_flight = -1;
    cr_assert_eq(engine_entry(victim, &removed, &in_flight), 1, "a draining engine is listed");
    cr_assert(removed);
    /* The policy may have put more than one of the streams there. */
    int on_victim = 0;
    for (int i = 0; i < N_SIMS; i++)
        on_victim += strcmp(s[i].engine, victim) == 0;
    cr_assert_eq(in_flight, on_victim, "the streams on the removed engine are still in flight");
    cr_assert_eq(kvr_harness_metric(&h, "kvroute_discovery_draining"), 1);
    /* No new request reaches it. */
    for (int i = 0; i < 6; i++) {
        char *resp = NULL;
        int status = kvr_test_http(
            h.port, "POST", "/v1/completions", "Content-Type: application/json\r\n",
            "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hi\",\"max_tokens\":1}", &resp, 10000);
        cr_assert_eq(status, 200);
        char engine[64];
        cr_assert_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", engine, sizeof engine));
        cr_expect_str_neq(engine, victim);
        free(resp);
    }
    /* Every stream, the drained one included, finishes whole. */
    for (int i = 0; i < N_SIMS; i++)
        cr_expect(stream_finish(&s[i]), "stream %d on %s was cut", i, s[i].engine);
    free(s);
    cr_assert(kvr_harness_wait_zero(&h, 10000), "shadow counters left charged");
    cr_assert(kvr_harness_wait_metric(&h, "kvroute_in_flight", 0, 10000));
    cr_assert_eq(engine_entry(victim, &removed, &in_flight), 0,
                 "the drained engine is gone from /engines");
    cr_assert_eq(kvr_harness_metric(&h, "kvroute_discovery_draining"), 0);
    char drained[128];
    snprintf(drained, sizeof drained, "discovery_engine_drained engine=%s ", victim);
    cr_assert(kvr_test_wait_file_contains(h.log_path, drained, 10000), "no drained line; see %s",
              h.log_path);

    /* The name stops resolving: counted, every engine kept. */
    for (int i = 0; i < N_SIMS; i++)
        set_listed(i, false);
    cr_assert(kvr_harness_wait_metric_reach(&h, m_failures, 2, 20000),
              "resolution did not fail; see %s", h.log_path);
    cr_assert_eq(kvr_harness_metric(&h, m_engines), 2);
    cr_assert_eq(kvr_harness_metric(&h, m_removed), 1);
    /* The log's writer is its own thread: the line may land after the counter. */
    cr_assert(kvr_test_wait_file_contains(h.log_path, "discovery_resolve_failed", 10000));
}

/*
 * An --engine spec is compared with the name's addresses in its normalised form: given as
 * "http://127.0.0.2:PORT/", it is still static when the name, which added it back after an
 * admin DELETE, stops answering its address.
 */
Test(discovery, a_static_engine_written_with_a_slash_stays_when_the_name_drops_it)
{
    scratch_setup(hosts_text);
    uint16_t port = kvr_test_free_port();
    char port_text[8];
    snprintf(port_text, sizeof port_text, "%u", port);
    for (int i = 0; i < 2; i++) {
        char host[16];
        snprintf(host, sizeof host, "127.0.0.%d", 2 + i);
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
    char dns[64], spec[64], id[64], path[96];
    snprintf(dns, sizeof dns, "%s:%u", NAME, port);
    snprintf(spec, sizeof spec, "http://127.0.0.2:%u/", port);
    snprintf(id, sizeof id, "http://127.0.0.2:%u", port);
    snprintf(path, sizeof path, "/engines/http%%3A%%2F%%2F127.0.0.2%%3A%u", port);
    setenv("KVR_BIN_KVROUTE", kvr_scratch_hosts_wrapper(&scratch, kvr_test_bin("KVR_BIN_KVROUTE")),
           1);
    const char *extra[] = {"--engine",
                           spec,
                           "--engine-dns",
                           dns,
                           "--engine-dns-interval-s",
                           "1",
                           "--engine-dns-drain-after",
                           "1",
                           "--admin-token",
                           "s3cret",
                           "--log-level",
                           "info",
                           NULL};
    kvr_harness_start(&h, 0, extra);
    char m_added[128], m_removed[128];
    metric_name(m_added, sizeof m_added, "engines_added_total", port);
    metric_name(m_removed, sizeof m_removed, "engines_removed_total", port);
    /* The name adds 127.0.0.3 only: 127.0.0.2 is the static engine already. */
    cr_assert(kvr_harness_wait_metric(&h, m_added, 1, 20000), "no engine discovered; see %s",
              h.log_path);
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.admin_port, "DELETE", path, "Authorization: Bearer s3cret\r\n",
                               NULL, &resp, 5000),
                 200, "%s", resp ? resp : "");
    free(resp);
    /* The name answers 127.0.0.2 still: it adds the engine back. */
    cr_assert(kvr_harness_wait_metric(&h, m_added, 2, 20000), "engine not added back; see %s",
              h.log_path);
    set_listed(0, false);
    cr_assert(kvr_harness_wait_metric(&h, m_removed, 1, 20000), "address not dropped; see %s",
              h.log_path);
    bool removed = true;
    int in_flight = -1;
    cr_assert_eq(engine_entry(id, &removed, &in_flight), 1,
                 "the static engine left /engines; see %s", h.log_path);
    cr_assert(!removed, "the static engine was removed by the name; see %s", h.log_path);
}
