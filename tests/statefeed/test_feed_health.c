/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Honest health and age: a dead engine turns unhealthy after its failed polls
 * while the others keep being sampled; a stalled one delays nobody; reload
 * adds and removes engines; relay keeps values and ages; SIGTERM tells
 * readers the writer is gone. Every wait is on an event (a slot changing, a
 * log line); the timeouts only end a test whose event never comes.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/prom.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

/* How long a test waits for an event before it gives up: a bound on a
 * broken daemon, not on the machine's speed. */
#define WAIT_MS 10000

static bool pred_failed(const kvr_engine_state_t *s, void *arg)
{
    (void)arg;
    return s->consecutive_failures > 0;
}

static bool pred_seq_at_least(const kvr_engine_state_t *s, void *arg)
{
    return s->sample_seq >= *(const uint64_t *)arg;
}

/* Waits until engine_id has at least `more` samples beyond after_seq. */
static bool wait_new_samples(feed_proc_t *f, const char *engine_id, uint64_t after_seq,
                             uint64_t more, kvr_engine_state_t *out)
{
    uint64_t want = after_seq + more;
    return feed_wait(f, engine_id, pred_seq_at_least, &want, WAIT_MS, out);
}

typedef struct {
    uint16_t port;
    const char *line;
} metrics_line_t;

static bool metrics_have_line(void *arg)
{
    const metrics_line_t *m = arg;
    char *resp = NULL;
    bool found = kvr_test_http(m->port, "GET", "/metrics", NULL, NULL, &resp, WAIT_MS) == 200 &&
                 strstr(resp, m->line) != NULL;
    free(resp);
    return found;
}

static void page(char *out, size_t cap, unsigned running)
{
    snprintf(out, cap,
             "vllm:num_requests_running %u\nvllm:num_requests_waiting 1\n"
             "vllm:kv_cache_usage_perc 0.5\n",
             running);
}

Test(feed_health, dead_engine_unhealthy_others_fresh, .timeout = 30.)
{
    enum { N = 3 };
    kvr_fake_fleet_t *r = kvr_fake_start(N);
    char urls[N][64], body[128];
    const char *args[2 * N + 3];
    int a = 0;
    for (int i = 0; i < N; i++) {
        page(body, sizeof(body), (unsigned)i + 1);
        kvr_fake_set_bodies(r, (unsigned)i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), kvr_fake_port(r, (unsigned)i));
        args[a++] = "--engine";
        args[a++] = urls[i];
    }
    args[a++] = "--fail-threshold";
    args[a++] = "3";
    args[a] = NULL;
    feed_proc_t f;
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    for (int i = 0; i < N; i++)
        cr_assert(feed_wait(&f, urls[i], feed_pred_healthy, NULL, WAIT_MS, NULL));

    kvr_engine_state_t before, s;
    cr_assert(feed_read(&f, urls[1], &before, NULL));
    uint64_t down_at = kvr_clock_now_ns();
    kvr_fake_set_mode(r, 1, KVR_FAKE_DOWN);
    cr_assert(feed_wait(&f, urls[1], feed_pred_unhealthy, NULL, WAIT_MS, &s),
              "dead engine stayed healthy");
    cr_expect_geq(s.consecutive_failures, 3);
    cr_expect_leq(s.sample_time_ns, down_at, "a sample time moved without a sample");
    cr_expect_eq(s.running, before.running, "a dead engine's last values are kept, not zeroed");
    /* The others keep being sampled while their peer is dead, and the dead
     * one's sample time stays put, so its age grows. */
    for (int i = 0; i < N; i += 2) {
        kvr_engine_state_t now, later;
        cr_assert(feed_read(&f, urls[i], &now, NULL));
        cr_expect(wait_new_samples(&f, urls[i], now.sample_seq, 3, &later),
                  "engine %d was not sampled while its peer was dead", i);
        cr_expect(later.flags & KVR_SLOT_HEALTHY, "engine %d suffered from its dead peer", i);
    }
    kvr_engine_state_t dead;
    uint64_t age;
    cr_assert(feed_read(&f, urls[1], &dead, &age));
    cr_expect_eq(dead.sample_seq, s.sample_seq, "a dead engine got a sample");
    cr_expect_eq(dead.sample_time_ns, s.sample_time_ns, "the dead engine's sample time moved");
    cr_expect_geq(age, kvr_clock_age_ns(s.publish_time_ns, s.sample_time_ns),
                  "the dead engine's age must grow");
    cr_expect_not(dead.flags & KVR_SLOT_HEALTHY);
    /* It comes back: reconnect with backoff (at most --backoff-max-ms). */
    kvr_fake_set_mode(r, 1, KVR_FAKE_OK);
    cr_expect(feed_wait(&f, urls[1], feed_pred_healthy, NULL, WAIT_MS, NULL),
              "engine never recovered");
    feed_stop(&f);
    kvr_fake_stop(r);
}

/* The samples the others must get while the stalled engine's first poll is
 * still pending; a loop that waited for the stalled poll would give them at
 * most one. */
#define SAMPLES_DURING_STALL 5

Test(feed_health, stalled_engine_delays_no_other, .timeout = 60.)
{
    enum { N = 4 };
    kvr_fake_fleet_t *r = kvr_fake_start(N);
    char urls[N][64], body[128];
    /* A poll deadline of many periods, and one failure is enough to mark an
     * engine unhealthy: the stalled engine stays healthy exactly as long as
     * its first stalled poll is pending. */
    const char *args[2 * N + 5];
    int a = 0;
    for (int i = 0; i < N; i++) {
        page(body, sizeof(body), 4);
        kvr_fake_set_bodies(r, (unsigned)i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), kvr_fake_port(r, (unsigned)i));
        args[a++] = "--engine";
        args[a++] = urls[i];
    }
    args[a++] = "--timeout-ms";
    args[a++] = "3000";
    args[a++] = "--fail-threshold";
    args[a++] = "1";
    args[a] = NULL;
    feed_proc_t f;
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    for (int i = 0; i < N; i++)
        cr_assert(feed_wait(&f, urls[i], feed_pred_healthy, NULL, WAIT_MS, NULL));

    kvr_fake_set_mode(r, 0, KVR_FAKE_STALL); /* accepts, reads, never answers */
    kvr_engine_state_t stalled;
    cr_assert(feed_read(&f, urls[0], &stalled, NULL));
    uint64_t first[N];
    for (int i = 1; i < N; i++) {
        kvr_engine_state_t s;
        cr_assert(feed_read(&f, urls[i], &s, NULL));
        first[i] = s.sample_seq;
    }
    for (int i = 1; i < N; i++) {
        kvr_engine_state_t s;
        cr_assert(wait_new_samples(&f, urls[i], first[i], SAMPLES_DURING_STALL, &s),
                  "engine %d was not sampled during a peer's stall", i);
        cr_assert(s.flags & KVR_SLOT_HEALTHY, "engine %d unhealthy during a peer's stall", i);
    }
    /* Read after the others: its poll was still pending when they got theirs. */
    kvr_engine_state_t s;
    cr_assert(feed_read(&f, urls[0], &s, NULL));
    cr_expect(s.flags & KVR_SLOT_HEALTHY,
              "the stall ended before the others got %d samples: they waited on it",
              SAMPLES_DURING_STALL);
    cr_expect_eq(s.consecutive_failures, 0);
    /* Its poll times out at the deadline: then it counts failures like any other. */
    cr_expect(feed_wait(&f, urls[0], feed_pred_unhealthy, NULL, WAIT_MS, &s),
              "the stalled engine stayed healthy");
    cr_expect_geq(s.consecutive_failures, 1);
    cr_expect_leq(s.sample_seq, stalled.sample_seq + 1, "a stalled engine kept getting samples");
    feed_stop(&f);
    kvr_fake_stop(r);
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

typedef struct {
    feed_proc_t *feed;
    const char *engine_id;
} slot_ref_t;

static bool slot_gone(void *arg)
{
    const slot_ref_t *ref = arg;
    return kvr_shm_find(&ref->feed->shm, ref->engine_id) < 0;
}

Test(feed_health, sighup_reloads_engine_list, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(3);
    char urls[3][64], body[128];
    for (unsigned i = 0; i < 3; i++) {
        page(body, sizeof(body), i + 1);
        kvr_fake_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), kvr_fake_port(r, i));
    }
    char base[64], path[128];
    kvr_test_unique_name(base, sizeof(base), "kvr-feedcfg");
    snprintf(path, sizeof(path), "/tmp/%s.conf", base);
    const char *first[] = {urls[0], urls[1], NULL};
    write_config(path, first);
    feed_proc_t f;
    const char *args[] = {"--config", path, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, urls[0], feed_pred_healthy, NULL, WAIT_MS, NULL));
    cr_assert(feed_wait(&f, urls[1], feed_pred_healthy, NULL, WAIT_MS, NULL));
    uint64_t gen0 = kvr_shm_generation(&f.shm);

    char kinded[96];
    snprintf(kinded, sizeof(kinded), "%s,kind=vllm", urls[2]);
    const char *second[] = {urls[1], kinded, NULL};
    write_config(path, second);
    kill(f.pid, SIGHUP);
    cr_assert(feed_wait(&f, urls[2], feed_pred_healthy, NULL, WAIT_MS, NULL),
              "added engine never appeared");
    cr_assert(kvr_test_wait_file_contains(f.log_path, "reload_done", WAIT_MS),
              "no reload_done in %s", f.log_path);
    slot_ref_t removed = {&f, urls[0]};
    cr_expect(kvr_test_wait_until(slot_gone, &removed, WAIT_MS), "removed engine still has a slot");
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
    cr_expect(kvr_test_wait_file_contains(f.log_path, "reload_failed", WAIT_MS),
              "a bad reload was not reported in %s", f.log_path);
    cr_expect(kvr_test_alive(f.pid), "a bad reload killed the daemon");
    cr_expect_geq(kvr_shm_find(&f.shm, urls[2]), 0, "a bad reload dropped engines");
    feed_stop(&f);
    unlink(path);
    kvr_fake_stop(r);
}

Test(feed_health, relay_preserves_values_and_ages, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(2);
    char urls[2][64], body[128];
    for (unsigned i = 0; i < 2; i++) {
        page(body, sizeof(body), 10 + i);
        kvr_fake_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), kvr_fake_port(r, i));
    }
    uint16_t port = kvr_test_free_port();
    char exp[32], imp[48];
    snprintf(exp, sizeof(exp), "tcp:127.0.0.1:%u", port);
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", port);
    feed_proc_t a, b;
    /* One failed poll marks an engine unhealthy, and a poll fails at its
     * deadline: a second passes between a stalled engine's last sample and
     * the exporter calling it dead, however slow the machine. */
    const char *args_a[] = {"--engine",     urls[0], "--engine",         urls[1], "--export", exp,
                            "--timeout-ms", "1000",  "--fail-threshold", "1",     NULL};
    cr_assert(feed_start(&a, args_a), "exporter did not start; log in %s", a.log_path);
    cr_assert(kvr_test_wait_port(port, WAIT_MS));
    const char *args_b[] = {"--import", imp, NULL};
    cr_assert(feed_start(&b, args_b), "importer did not start; log in %s", b.log_path);

    for (unsigned i = 0; i < 2; i++) {
        kvr_engine_state_t sa, sb;
        cr_assert(feed_wait(&b, urls[i], feed_pred_healthy, NULL, WAIT_MS, &sb),
                  "engine %u never relayed", i);
        cr_assert(feed_read(&a, urls[i], &sa, NULL));
        cr_expect_eq(sb.running, 10 + i);
        cr_expect_eq(sb.running, sa.running);
        cr_expect_eq(sb.waiting, sa.waiting);
        cr_expect_float_eq(sb.kv_usage, sa.kv_usage, 1e-12);
        cr_expect_eq(kvr_slot_source(sb.flags), KVR_SOURCE_RELAY);
    }
    /* Ages agree: the relayed sample time is the exporter's plus the transit,
     * not the time the table arrived. Once the exporter has failed the stalled
     * engine and the importer has heard so, the relayed sample time still lies
     * before the moment the exporter called the engine dead. */
    kvr_fake_set_mode(r, 0, KVR_FAKE_STALL);
    kvr_engine_state_t sa, sb;
    cr_assert(feed_wait(&a, urls[0], feed_pred_unhealthy, NULL, WAIT_MS, &sa),
              "stalled engine stayed healthy");
    cr_assert(feed_wait(&b, urls[0], feed_pred_unhealthy, NULL, WAIT_MS, &sb),
              "remote unhealthy did not relay as unhealthy");
    cr_expect_geq(sb.sample_time_ns, sa.sample_time_ns, "the relay moved a sample back in time");
    cr_expect_lt(
        sb.sample_time_ns, sa.publish_time_ns,
        "the relayed sample time is the arrival time, not the sample's: %llu ms after the sample",
        (unsigned long long)((sb.sample_time_ns - sa.sample_time_ns) / KVR_NS_PER_MS));

    /* The exporter goes away: relayed slots turn unhealthy, ages keep growing. */
    feed_stop(&a);
    cr_expect(feed_wait(&b, urls[1], feed_pred_unhealthy, NULL, WAIT_MS, NULL),
              "relay loss not noticed");
    feed_stop(&b);
    kvr_fake_stop(r);
}

typedef struct {
    const kvr_shm_t *shm;
    uint64_t seen_ns;
} heartbeat_t;

/* True once the writer stored a heartbeat after seen_ns; seen_ns becomes it. */
static bool heartbeat_moved(void *arg)
{
    heartbeat_t *h = arg;
    uint64_t now = atomic_load(&h->shm->header->heartbeat_ns);
    if (now <= h->seen_ns)
        return false;
    h->seen_ns = now;
    return true;
}

Test(feed_health, sigterm_marks_writer_stopped, .timeout = 20.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    kvr_fake_set_bodies(r, 0, "vllm:num_requests_running 1\nvllm:num_requests_waiting 0\n", NULL);
    char url[64];
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    feed_proc_t f;
    const char *args[] = {"--engine", url, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, url, feed_pred_healthy, NULL, WAIT_MS, NULL));
    heartbeat_t beat = {&f.shm, atomic_load(&f.shm.header->heartbeat_ns)};
    cr_expect(kvr_test_wait_until(heartbeat_moved, &beat, WAIT_MS),
              "heartbeat not beating while running");
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, beat.seen_ns, KVR_NS_PER_SEC), 0,
                 "writer not live while running");
    int st = kvr_test_stop(f.pid, SIGTERM, WAIT_MS);
    f.pid = 0;
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGTERM did not exit cleanly");
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, kvr_clock_now_ns(), KVR_NS_PER_SEC),
                 KVR_ESHM_WRITER_GONE, "readers were not told the writer stopped");
    feed_stop(&f);
    kvr_fake_stop(r);
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
    const char *flags[] = {"--engine",
                           "--config",
                           "--shm",
                           "--capacity",
                           "--period-ms",
                           "--timeout-ms",
                           "--fail-threshold",
                           "--backoff-max-ms",
                           "--push-socket",
                           "--push-udp",
                           "--push-max-age-ms",
                           "--export",
                           "--import",
                           "--relay-secret-file",
                           "--relay-max-engines",
                           "--relay-max-changes",
                           "--listen",
                           "--log-level"};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        cr_expect_not_null(strstr(out, flags[i]), "--help does not mention %s", flags[i]);
}

Test(feed_cli, bad_flags_fail_with_one_line, .timeout = 10.)
{
    const char *cases[][5] = {
        /* NULL-terminated rows */
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
    kvr_fake_fleet_t *r = kvr_fake_start(2);
    char urls[2][64];
    kvr_fake_set_bodies(r, 0, "vllm:num_requests_running 1\nvllm:num_requests_waiting 0\n", NULL);
    feed_url(urls[0], sizeof(urls[0]), kvr_fake_port(r, 0));
    feed_url(urls[1], sizeof(urls[1]), kvr_fake_port(r, 1));
    kvr_fake_set_mode(r, 1, KVR_FAKE_DOWN);
    uint16_t port = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
    feed_proc_t f;
    const char *args[] = {"--engine", urls[0], "--engine", urls[1], "--listen", listen, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(kvr_test_wait_port(port, WAIT_MS), "--listen port never opened");
    cr_assert(feed_wait(&f, urls[0], feed_pred_healthy, NULL, WAIT_MS, NULL));
    cr_assert(feed_wait(&f, urls[1], pred_failed, NULL, WAIT_MS, NULL),
              "no failed poll of the dead engine");
    char *resp = NULL;
    char want[160];
    int status = kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, WAIT_MS);
    cr_assert_eq(status, 200);
    const char *body = kvr_test_http_body(resp);
    cr_assert_not_null(body);
    unsigned samples = 0;
    kvr_prom_error_t err = {0, NULL};
    cr_expect_eq(kvr_prom_parse(body, strlen(body), count_sample, &samples, &err), 0,
                 "own /metrics is not valid exposition text: line %zu %s", err.line,
                 err.reason ? err.reason : "");
    cr_expect_gt(samples, 20);
    cr_expect_not_null(strstr(body, "kvroute_statefeed_tick_lag_seconds_bucket{le=\"+Inf\"}"));
    snprintf(want, sizeof(want), "kvroute_statefeed_poll_seconds_count{engine=\"%s\"}", urls[0]);
    cr_expect_not_null(strstr(body, want), "no poll latency for %s", urls[0]);
    snprintf(want, sizeof(want), "kvroute_statefeed_polls_total{engine=\"%s\",result=\"failed\"}",
             urls[1]);
    cr_expect_not_null(strstr(body, want), "no failure count for the dead engine");
    snprintf(want, sizeof(want), "kvroute_statefeed_slot_healthy{engine=\"%s\"} 0", urls[1]);
    cr_expect_not_null(strstr(body, want), "dead engine not reported unhealthy");
    snprintf(want, sizeof(want),
             "kvroute_statefeed_slot_age_seconds{engine=\"%s\",source=\"scrape\"}", urls[0]);
    cr_expect_not_null(strstr(body, want), "no slot age for %s", urls[0]);
    free(resp);
    resp = NULL;
    cr_expect_eq(kvr_test_http(port, "GET", "/nope", NULL, NULL, &resp, WAIT_MS), 404);
    free(resp);
    feed_stop(&f);
    kvr_fake_stop(r);
}

Test(feed_health, relay_from_two_hosts, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(2);
    char urls[2][64], body[128];
    feed_proc_t ex[2], b;
    char exp[2][40], imp[2][48];
    for (unsigned i = 0; i < 2; i++) {
        page(body, sizeof(body), 20 + i);
        kvr_fake_set_bodies(r, i, body, NULL);
        feed_url(urls[i], sizeof(urls[i]), kvr_fake_port(r, i));
        uint16_t port = kvr_test_free_port();
        snprintf(exp[i], sizeof(exp[i]), "tcp:127.0.0.1:%u", port);
        snprintf(imp[i], sizeof(imp[i]), "tcp:127.0.0.1:%u", port);
        const char *args[] = {"--engine", urls[i], "--export", exp[i], NULL};
        cr_assert(feed_start(&ex[i], args), "exporter %u did not start; log in %s", i,
                  ex[i].log_path);
        cr_assert(kvr_test_wait_port(port, WAIT_MS));
    }
    uint16_t mport = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", mport);
    const char *args_b[] = {"--import", imp[0], "--import", imp[1], "--listen", listen, NULL};
    cr_assert(feed_start(&b, args_b), "importer did not start; log in %s", b.log_path);
    kvr_engine_state_t s;
    for (unsigned i = 0; i < 2; i++) {
        uint32_t want = 20 + i;
        cr_assert(feed_wait(&b, urls[i], feed_pred_running, &want, WAIT_MS, &s),
                  "engine %u never relayed", i);
    }
    char *resp = NULL, line[128];
    cr_assert_eq(kvr_test_http(mport, "GET", "/metrics", NULL, NULL, &resp, WAIT_MS), 200);
    snprintf(line, sizeof(line), "kvroute_statefeed_import_connected{addr=\"%s\"} 1\n", imp[0]);
    cr_expect_not_null(strstr(resp, line), "import state not reported");
    free(resp);
    /* One scheduler host goes away: only its engine turns unhealthy. */
    feed_stop(&ex[0]);
    cr_expect(feed_wait(&b, urls[0], feed_pred_unhealthy, NULL, WAIT_MS, NULL),
              "lost host's engine still healthy");
    snprintf(line, sizeof(line), "kvroute_statefeed_import_connected{addr=\"%s\"} 0\n", imp[0]);
    metrics_line_t lost = {mport, line};
    cr_expect(kvr_test_wait_until(metrics_have_line, &lost, WAIT_MS),
              "lost import still reported connected");
    /* The other host's engine keeps arriving with new samples. */
    cr_assert(feed_read(&b, urls[1], &s, NULL));
    cr_expect(wait_new_samples(&b, urls[1], s.sample_seq, 3, &s),
              "the other host's engine stopped arriving");
    cr_expect(s.flags & KVR_SLOT_HEALTHY, "the other host's engine was hurt");
    feed_stop(&ex[1]);
    feed_stop(&b);
    kvr_fake_stop(r);
}

/* A fake exporter: accepts connections and answers each with junk. */
static void *junk_exporter(void *arg)
{
    int lfd = *(int *)arg;
    static const unsigned char junk[][24] = {
        {0x93, 0x01, 0x02, 0x03},                    /* an array, not a table */
        {0x81, 0xa5, 'r', 'e', 'l', 'a', 'y', 0x02}, /* {"relay":2} */
        {0x82, 0xa5, 'r', 'e', 'l', 'a', 'y', 0x01, 0xa7, 'e', 'n', 'g', 'i', 'n', 'e', 's', 0x91,
         0x07},
        {0xc1, 0xc1, 0xc1, 0xc1}, /* never-used type byte */
    };
    for (int round = 0; round < 4; round++) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            return NULL;
        for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
            if (send(fd, junk[i], sizeof(junk[i]), MSG_NOSIGNAL) < 0)
                break;
        /* Until the importer drops the stream (what it sends meanwhile, its
         * hello, is read and thrown away); 10 s is a safety net. */
        struct timeval tv = {.tv_sec = 10};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        char sink[512];
        while (recv(fd, sink, sizeof(sink), 0) > 0) {
        }
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
    cr_assert_eq(pthread_create(&t, NULL, junk_exporter, &lfd), 0);
    char imp[48];
    snprintf(imp, sizeof(imp), "tcp:127.0.0.1:%u", ntohs(a.sin_port));
    feed_proc_t f;
    const char *args[] = {"--import", imp, NULL};
    cr_assert(feed_start(&f, args), "importer did not start; log in %s", f.log_path);
    /* The importer reconnected for every round (it would hang here if not)
     * and refused what it read. */
    pthread_join(t, NULL);
    /* Junk in place of the relay v2 greeting: the stream is refused before any frame. */
    cr_expect(kvr_test_wait_file_contains(f.log_path, "import_stream_rejected", WAIT_MS),
              "junk was not refused; log in %s", f.log_path);
    cr_expect(kvr_test_alive(f.pid), "junk on the relay stream killed the daemon");
    cr_expect_eq(f.shm.header->engines_in_use, 0, "junk turned into engines");
    heartbeat_t beat = {&f.shm, atomic_load(&f.shm.header->heartbeat_ns)};
    cr_expect(kvr_test_wait_until(heartbeat_moved, &beat, WAIT_MS), "the loop stopped beating");
    cr_expect_eq(kvr_shm_check_heartbeat(&f.shm, beat.seen_ns, KVR_NS_PER_SEC), 0,
                 "writer not live");
    int st = feed_stop(&f);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    shutdown(lfd, SHUT_RDWR);
    close(lfd);
}
