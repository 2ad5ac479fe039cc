/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Honest health and age: a dead engine turns unhealthy within a few periods
 * while the others stay fresh; a stalled one delays nobody; reload adds and
 * removes engines; relay keeps values and ages; SIGTERM tells readers the
 * writer is gone.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/prom.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/statefeed/responder.h"
#include "tests/support/proc.h"

#define PERIOD_MS 50
/* Generous bound for "fresh": twenty periods, half a router's 2 s max age. */
#define FRESH_NS (1000ull * KVR_NS_PER_MS)

static void page(char *out, size_t cap, unsigned running)
{
    snprintf(out, cap, "vllm:num_requests_running %u\nvllm:num_requests_waiting 1\n"
                       "vllm:kv_cache_usage_perc 0.5\n", running);
}

Test(feed_health, dead_engine_unhealthy_others_fresh, .timeout = 30.)
{
    enum { N = 3 };
    responder_t *r = responder_start(N);
    char urls[N][64], body[128];
    const char *args[2 * N + 3];
    int a = 0;
    for (int i = 0; i < N; i++) {
        page(body, sizeof(body), (unsigned)i + 1);
        responder_set_bodies(r, (unsigned)i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), responder_port(r, (unsigned)i));
        args[a++] = "--engine";
        args[a++] = urls[i];
    }
    args[a++] = "--fail-threshold";
    args[a++] = "3";
    args[a] = NULL;
    feed_proc_t f;
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    for (int i = 0; i < N; i++)
        cr_assert(feed_wait(&f, urls[i], feed_pred_healthy, NULL, 3000, NULL));

    kvr_engine_state_t before, s;
    cr_assert(feed_read(&f, urls[1], &before, NULL));
    uint64_t down_at = kvr_clock_now_ns();
    responder_set_mode(r, 1, RESPONDER_DOWN);
    /* threshold 3 at 50 ms: unhealthy within 20 periods, with room for a slow CI. */
    cr_assert(feed_wait(&f, urls[1], feed_pred_unhealthy, NULL, 20 * PERIOD_MS, &s),
              "dead engine still healthy after 20 periods");
    cr_expect_geq(s.consecutive_failures, 3);
    cr_expect_leq(s.sample_time_ns, down_at, "a sample time moved without a sample");
    cr_expect_eq(s.running, before.running, "a dead engine's last values are kept, not zeroed");
    uint64_t age;
    kvr_test_sleep_ms(300);
    cr_assert(feed_read(&f, urls[1], &s, &age));
    cr_expect_geq(age, 300 * KVR_NS_PER_MS, "the dead engine's age must grow");
    for (int i = 0; i < N; i += 2) {
        cr_assert(feed_read(&f, urls[i], &s, &age));
        cr_expect(s.flags & KVR_SLOT_HEALTHY, "engine %d suffered from its dead peer", i);
        cr_expect_lt(age, FRESH_NS, "engine %d age %llu ns", i, (unsigned long long)age);
    }
    /* It comes back: reconnect with backoff (at most --backoff-max-ms). */
    responder_set_mode(r, 1, RESPONDER_OK);
    cr_expect(feed_wait(&f, urls[1], feed_pred_healthy, NULL, 5000, NULL), "engine never recovered");
    feed_stop(&f);
    responder_stop(r);
}

Test(feed_health, stalled_engine_delays_no_other, .timeout = 30.)
{
    enum { N = 4 };
    responder_t *r = responder_start(N);
    char urls[N][64], body[128];
    /* A poll deadline far above the freshness bound: a loop that waited for
     * the stalled engine before polling the others would fail this test. */
    const char *args[2 * N + 3];
    int a = 0;
    for (int i = 0; i < N; i++) {
        page(body, sizeof(body), 4);
        responder_set_bodies(r, (unsigned)i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), responder_port(r, (unsigned)i));
        args[a++] = "--engine";
        args[a++] = urls[i];
    }
    args[a++] = "--timeout-ms";
    args[a++] = "1500";
    args[a] = NULL;
    feed_proc_t f;
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    for (int i = 0; i < N; i++)
        cr_assert(feed_wait(&f, urls[i], feed_pred_healthy, NULL, 3000, NULL));

    responder_set_mode(r, 0, RESPONDER_STALL); /* accepts, reads, never answers */
    uint64_t worst = 0;
    unsigned samples = 0;
    uint64_t end = kvr_clock_now_ns() + 1500 * KVR_NS_PER_MS;
    while (kvr_clock_now_ns() < end) {
        for (int i = 1; i < N; i++) {
            kvr_engine_state_t s;
            uint64_t age;
            cr_assert(feed_read(&f, urls[i], &s, &age));
            cr_assert(s.flags & KVR_SLOT_HEALTHY, "engine %d unhealthy during a peer's stall", i);
            if (age > worst)
                worst = age;
            samples++;
        }
        kvr_test_sleep_ms(2);
    }
    cr_expect_gt(samples, 100);
    cr_expect_lt(worst, FRESH_NS, "a peer's stall delayed the others: worst age %llu ms",
                 (unsigned long long)(worst / KVR_NS_PER_MS));
    kvr_engine_state_t s;
    uint64_t age;
    cr_assert(feed_read(&f, urls[0], &s, &age));
    cr_expect_gt(age, 1000 * KVR_NS_PER_MS, "the stalled engine's age did not grow");
    /* Its poll times out at the deadline: then it counts failures like any other. */
    cr_expect(feed_wait(&f, urls[0], feed_pred_unhealthy, NULL, 10000, NULL), "the stalled engine stayed healthy");
    feed_stop(&f);
    responder_stop(r);
}

static void write_config(const char *path, const char *const *engines)
{
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "# engines of the test fleet\nperiod-ms 50\n");
    for (int i = 0; engines[i] != NULL; i++)
        fprintf(fp, "engine %s   # engine %d\n", engines[i], i);
    fclose(fp);
}

Test(feed_health, sighup_reloads_engine_list, .timeout = 30.)
{
    responder_t *r = responder_start(3);
    char urls[3][64], body[128];
    for (unsigned i = 0; i < 3; i++) {
        page(body, sizeof(body), i + 1);
        responder_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), responder_port(r, i));
    }
    char base[64], path[128];
    kvr_test_unique_name(base, sizeof(base), "kvr-feedcfg");
    snprintf(path, sizeof(path), "/tmp/%s.conf", base);
    const char *first[] = {urls[0], urls[1], NULL};
    write_config(path, first);
    feed_proc_t f;
    const char *args[] = {"--config", path, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, urls[0], feed_pred_healthy, NULL, 3000, NULL));
    cr_assert(feed_wait(&f, urls[1], feed_pred_healthy, NULL, 3000, NULL));
    uint64_t gen0 = kvr_shm_generation(&f.shm);

    char kinded[96];
    snprintf(kinded, sizeof(kinded), "%s,kind=vllm", urls[2]);
    const char *second[] = {urls[1], kinded, NULL};
    write_config(path, second);
    kill(f.pid, SIGHUP);
    cr_assert(feed_wait(&f, urls[2], feed_pred_healthy, NULL, 3000, NULL), "added engine never appeared");
    for (int i = 0; i < 200 && kvr_shm_find(&f.shm, urls[0]) >= 0; i++)
        kvr_test_sleep_ms(5);
    cr_expect_lt(kvr_shm_find(&f.shm, urls[0]), 0, "removed engine still has a slot");
    cr_expect_geq(kvr_shm_generation(&f.shm), gen0 + 2, "generation not bumped for add and remove");
    kvr_engine_state_t s;
    cr_assert(feed_read(&f, urls[1], &s, NULL));
    cr_expect(s.flags & KVR_SLOT_HEALTHY, "a kept engine was disturbed by the reload");
    cr_expect_eq(f.shm.header->engines_in_use, 2);

    /* A broken file keeps the running list. */
    FILE *fp = fopen(path, "w");
    fprintf(fp, "engine ftp://nope\n");
    fclose(fp);
    kill(f.pid, SIGHUP);
    kvr_test_sleep_ms(200);
    cr_expect(kvr_test_alive(f.pid), "a bad reload killed the daemon");
    cr_expect_geq(kvr_shm_find(&f.shm, urls[2]), 0, "a bad reload dropped engines");
    feed_stop(&f);
    unlink(path);
    responder_stop(r);
}

Test(feed_health, relay_preserves_values_and_ages, .timeout = 30.)
{
    responder_t *r = responder_start(2);
    char urls[2][64], body[128];
    for (unsigned i = 0; i < 2; i++) {
        page(body, sizeof(body), 10 + i);
        responder_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), responder_port(r, i));
    }
    uint16_t port = kvr_test_free_port();
    char exp[32], imp[48];
    snprintf(exp, sizeof(exp), "tcp:127.0.0.1:%u", port);
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    feed_proc_t a, b;
    const char *args_a[] = {"--engine", urls[0], "--engine", urls[1], "--export", exp, NULL};
    cr_assert(feed_start(&a, args_a), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));
    const char *args_b[] = {"--import", imp, NULL};
    cr_assert(feed_start(&b, args_b), "importer did not start; log in %s", b.log_path);

    for (unsigned i = 0; i < 2; i++) {
        kvr_engine_state_t sa, sb;
        cr_assert(feed_wait(&b, urls[i], feed_pred_healthy, NULL, 3000, &sb), "engine %u never relayed", i);
        cr_assert(feed_read(&a, urls[i], &sa, NULL));
        cr_expect_eq(sb.running, 10 + i);
        cr_expect_eq(sb.running, sa.running);
        cr_expect_eq(sb.waiting, sa.waiting);
        cr_expect_float_eq(sb.kv_usage, sa.kv_usage, 1e-12);
        cr_expect_eq(kvr_slot_source(sb.flags), KVR_SOURCE_RELAY);
    }
    /* Ages agree: the relay adds at most its transit and one tick. */
    responder_set_mode(r, 0, RESPONDER_STALL);
    kvr_test_sleep_ms(600);
    kvr_engine_state_t sa, sb;
    uint64_t age_a, age_b;
    cr_assert(feed_read(&a, urls[0], &sa, &age_a));
    cr_assert(feed_read(&b, urls[0], &sb, &age_b));
    cr_expect_gt(age_b, 500 * KVR_NS_PER_MS, "relayed age of a stalled engine did not grow");
    uint64_t diff = age_a > age_b ? age_a - age_b : age_b - age_a;
    cr_expect_lt(diff, 300 * KVR_NS_PER_MS, "ages differ by %llu ms across the relay",
                 (unsigned long long)(diff / KVR_NS_PER_MS));
    cr_expect_not(sb.flags & KVR_SLOT_HEALTHY, "remote unhealthy must relay as unhealthy");

    /* The exporter goes away: relayed slots turn unhealthy, ages keep growing. */
    feed_stop(&a);
    cr_expect(feed_wait(&b, urls[1], feed_pred_unhealthy, NULL, 3000, NULL), "relay loss not noticed");
    feed_stop(&b);
    responder_stop(r);
}

Test(feed_health, sigterm_marks_writer_stopped, .timeout = 20.)
{
    responder_t *r = responder_start(1);
    responder_set_bodies(r, 0, "vllm:num_requests_running 1\nvllm:num_requests_waiting 0\n", NULL);
    char url[64];
    feed_url(url, sizeof(url), responder_port(r, 0));
    feed_proc_t f;
    const char *args[] = {"--engine", url, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, url, feed_pred_healthy, NULL, 3000, NULL));
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, kvr_clock_now_ns(), KVR_NS_PER_SEC), 0,
                 "heartbeat not fresh while running");
    int st = kvr_test_stop(f.pid, SIGTERM, 3000);
    f.pid = 0;
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGTERM did not exit cleanly");
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, kvr_clock_now_ns(), KVR_NS_PER_SEC),
                 KVR_ESHM_WRITER_GONE, "readers were not told the writer stopped");
    feed_stop(&f);
    responder_stop(r);
}

static int run_cli(const char *const *args, char **out)
{
    char base[64], log[128];
    kvr_test_unique_name(base, sizeof(base), "kvr-feedcli");
    snprintf(log, sizeof(log), "/tmp/%s.log", base);
    const char *argv[16];
    int n = 0;
    argv[n++] = kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED");
    for (int i = 0; args[i] != NULL; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = kvr_test_spawn((char *const *)argv, log);
    cr_assert_gt(pid, 0);
    int st = kvr_test_stop(pid, 0, 5000);
    FILE *fp = fopen(log, "r");
    static char buf[16384];
    size_t len = fp ? fread(buf, 1, sizeof(buf) - 1, fp) : 0;
    buf[len] = '\0';
    if (fp)
        fclose(fp);
    unlink(log);
    *out = buf;
    return st;
}

Test(feed_cli, help_explains_every_flag, .timeout = 10.)
{
    char *out;
    const char *args[] = {"--help", NULL};
    int st = run_cli(args, &out);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    const char *flags[] = {"--engine", "--config", "--shm", "--capacity", "--period-ms", "--timeout-ms",
                           "--fail-threshold", "--backoff-max-ms", "--push-socket", "--push-udp",
                           "--push-max-age-ms", "--export", "--import", "--relay-secret-file",
                           "--relay-max-engines", "--relay-max-changes", "--listen", "--log-level"};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        cr_expect_not_null(strstr(out, flags[i]), "--help does not mention %s", flags[i]);
}

Test(feed_cli, bad_flags_fail_with_one_line, .timeout = 10.)
{
    const char *cases[][5] = { /* NULL-terminated rows */
        {"--bogus", "1", NULL, NULL},
        {"--engine", "ftp://x", NULL, NULL},
        {"--engine", "http://127.0.0.1:1,kind=other", NULL, NULL},
        {"--period-ms", "abc", "--engine", "http://127.0.0.1:1"},
        {"--shm", "/x", NULL, NULL}, /* no engines */
        {"--relay-max-engines", "0", "--import", "tcp:127.0.0.1:1"},
        {"--relay-max-changes", "many", "--import", "tcp:127.0.0.1:1"},
        {"--relay-secret-file", "/nonexistent/kvr-relay-secret", "--import", "tcp:127.0.0.1:1"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *out;
        int st = run_cli(cases[i], &out);
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "case %zu: exit status", i);
        char *nl = strchr(out, '\n');
        cr_expect(nl != NULL && nl[1] == '\0', "case %zu: not one line: %s", i, out);
    }
}

static int count_sample(const kvr_prom_sample_t *s, void *arg)
{
    (void)s;
    (*(unsigned *)arg)++;
    return 0;
}

Test(feed_ops, own_metrics_endpoint, .timeout = 20.)
{
    responder_t *r = responder_start(2);
    char urls[2][64];
    responder_set_bodies(r, 0, "vllm:num_requests_running 1\nvllm:num_requests_waiting 0\n", NULL);
    feed_url(urls[0], sizeof(urls[0]), responder_port(r, 0));
    feed_url(urls[1], sizeof(urls[1]), responder_port(r, 1));
    responder_set_mode(r, 1, RESPONDER_DOWN);
    uint16_t port = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
    feed_proc_t f;
    const char *args[] = {"--engine", urls[0], "--engine", urls[1], "--listen", listen, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(kvr_test_wait_port(port, 3000), "--listen port never opened");
    cr_assert(feed_wait(&f, urls[0], feed_pred_healthy, NULL, 3000, NULL));
    kvr_test_sleep_ms(300);
    char *resp = NULL;
    int status = kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, 3000);
    cr_assert_eq(status, 200);
    const char *body = kvr_test_http_body(resp);
    cr_assert_not_null(body);
    unsigned samples = 0;
    kvr_prom_error_t err = {0, NULL};
    cr_expect_eq(kvr_prom_parse(body, strlen(body), count_sample, &samples, &err), 0,
                 "own /metrics is not valid exposition text: line %zu %s", err.line,
                 err.reason ? err.reason : "");
    cr_expect_gt(samples, 20);
    char want[160];
    cr_expect_not_null(strstr(body, "kvroute_statefeed_tick_lag_seconds_bucket{le=\"+Inf\"}"));
    snprintf(want, sizeof(want), "kvroute_statefeed_poll_seconds_count{engine=\"%s\"}", urls[0]);
    cr_expect_not_null(strstr(body, want), "no poll latency for %s", urls[0]);
    snprintf(want, sizeof(want), "kvroute_statefeed_polls_total{engine=\"%s\",result=\"failed\"}", urls[1]);
    cr_expect_not_null(strstr(body, want), "no failure count for the dead engine");
    snprintf(want, sizeof(want), "kvroute_statefeed_slot_healthy{engine=\"%s\"} 0", urls[1]);
    cr_expect_not_null(strstr(body, want), "dead engine not reported unhealthy");
    snprintf(want, sizeof(want), "kvroute_statefeed_slot_age_seconds{engine=\"%s\",source=\"scrape\"}", urls[0]);
    cr_expect_not_null(strstr(body, want), "no slot age for %s", urls[0]);
    free(resp);
    resp = NULL;
    cr_expect_eq(kvr_test_http(port, "GET", "/nope", NULL, NULL, &resp, 3000), 404);
    free(resp);
    feed_stop(&f);
    responder_stop(r);
}

Test(feed_health, relay_from_two_hosts, .timeout = 30.)
{
    responder_t *r = responder_start(2);
    char urls[2][64], body[128];
    feed_proc_t ex[2], b;
    char exp[2][40], imp[2][48];
    for (unsigned i = 0; i < 2; i++) {
        page(body, sizeof(body), 20 + i);
        responder_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), responder_port(r, i));
        uint16_t port = kvr_test_free_port();
        snprintf(exp[i], sizeof(exp[i]), "tcp:127.0.0.1:%u", port);
        snprintf(imp[i], sizeof(imp[i]), "tcp:127.0.0.1:%u", port);
        const char *args[] = {"--engine", urls[i], "--export", exp[i], NULL};
        cr_assert(feed_start(&ex[i], args), "exporter %u did not start; log in %s", i, ex[i].log_path);
        cr_assert(kvr_test_wait_port(port, 3000));
    }
    uint16_t mport = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    const char *args_b[] = {"--import", imp[0], "--import", imp[1], "--listen", listen, NULL};
    cr_assert(feed_start(&b, args_b), "importer did not start; log in %s", b.log_path);
    kvr_engine_state_t s;
    for (unsigned i = 0; i < 2; i++) {
        uint32_t want = 20 + i;
        cr_assert(feed_wait(&b, urls[i], feed_pred_running, &want, 3000, &s), "engine %u never relayed", i);
    }
    char *resp = NULL, line[128];
    cr_assert_eq(kvr_test_http(mport, "GET", "/metrics", NULL, NULL, &resp, 3000), 200);
    snprintf(line, sizeof(line), "kvroute_statefeed_import_connected{addr=\"%s\"} 1\n", imp[0]);
    cr_expect_not_null(strstr(resp, line), "import state not reported");
    free(resp);
    /* One scheduler host goes away: only its engine turns unhealthy. */
    feed_stop(&ex[0]);
    cr_expect(feed_wait(&b, urls[0], feed_pred_unhealthy, NULL, 3000, NULL), "lost host's engine still healthy");
    resp = NULL;
    cr_assert_eq(kvr_test_http(mport, "GET", "/metrics", NULL, NULL, &resp, 3000), 200);
    snprintf(line, sizeof(line), "kvroute_statefeed_import_connected{addr=\"%s\"} 0\n", imp[0]);
    cr_expect_not_null(strstr(resp, line), "lost import still reported connected");
    free(resp);
    uint64_t age;
    cr_assert(feed_read(&b, urls[1], &s, &age));
    cr_expect(s.flags & KVR_SLOT_HEALTHY, "the other host's engine was hurt");
    cr_expect_lt(age, FRESH_NS);
    feed_stop(&ex[1]);
    feed_stop(&b);
    responder_stop(r);
}

/* A fake exporter: accepts connections and answers each with junk. */
static void *junk_exporter(void *arg)
{
    int lfd = *(int *)arg;
    static const unsigned char junk[][24] = {
        {0x93, 0x01, 0x02, 0x03},                                   /* an array, not a table */
        {0x81, 0xa5, 'r', 'e', 'l', 'a', 'y', 0x02},                /* {"relay":2} */
        {0x82, 0xa5, 'r', 'e', 'l', 'a', 'y', 0x01, 0xa7, 'e', 'n', 'g', 'i', 'n', 'e', 's', 0x91, 0x07},
        {0xc1, 0xc1, 0xc1, 0xc1},                                   /* never-used type byte */
    };
    for (int round = 0; round < 4; round++) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            return NULL;
        for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
            if (send(fd, junk[i], sizeof(junk[i]), MSG_NOSIGNAL) < 0)
                break;
        kvr_test_sleep_ms(100);
        close(fd);
    }
    return NULL;
}

Test(feed_health, malformed_relay_stream_refused, .timeout = 20.)
{
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert_eq(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
    cr_assert_eq(listen(lfd, 4), 0);
    socklen_t len = sizeof(a);
    getsockname(lfd, (struct sockaddr *)&a, &len);
    pthread_t t;
    pthread_create(&t, NULL, junk_exporter, &lfd);
    char imp[48];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", ntohs(a.sin_port));
    feed_proc_t f;
    const char *args[] = {"--import", imp, NULL};
    cr_assert(feed_start(&f, args), "importer did not start; log in %s", f.log_path);
    kvr_test_sleep_ms(600);
    cr_expect(kvr_test_alive(f.pid), "junk on the relay stream killed the daemon");
    cr_expect_eq(f.shm.header->engines_in_use, 0, "junk turned into engines");
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, kvr_clock_now_ns(), KVR_NS_PER_SEC), 0,
                 "the loop stopped beating");
    int st = feed_stop(&f);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    shutdown(lfd, SHUT_RDWR);
    close(lfd);
    pthread_join(t, NULL);
}
