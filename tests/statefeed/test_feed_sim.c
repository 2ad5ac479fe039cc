/* SPDX-License-Identifier: Apache-2.0 */
/*
 * statefeed against live kvroute-sim fleets: what lands in the segment is
 * what the simulated engines hold (their /admin/state is the truth), for
 * each source, and the simulator's faults turn into honest health.
 */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/proc.h"

/* How long a test waits for an event before it gives up: a bound on a
 * broken daemon, not on the machine's speed. */
#define WAIT_MS 10000
/* Samples the healthy engines get while a peer's first stalled poll is
 * pending; a loop that waited on the stalled poll would give them one. */
#define SAMPLES_DURING_STALL 5

static bool pred_seq_at_least(const kvr_engine_state_t *st, void *arg)
{
    return st->sample_seq >= *(const uint64_t *)arg;
}

/* Waits until engine url got `more` samples after the one it has now. */
static bool wait_new_samples(feed_proc_t *f, const char *url, uint64_t more,
                             kvr_engine_state_t *out)
{
    kvr_engine_state_t now;
    if (!feed_read(f, url, &now, NULL))
        return false;
    uint64_t want = now.sample_seq + more;
    return feed_wait(f, url, pred_seq_at_least, &want, WAIT_MS, out);
}

typedef struct {
    pid_t pid;
    uint16_t port, admin;
    unsigned engines;
    char log[160];
} sim_t;

static void sim_start(sim_t *s, unsigned engines, const char *const *extra)
{
    memset(s, 0, sizeof(*s));
    s->engines = engines;
    s->port = kvr_test_free_port_range(engines + 1);
    cr_assert_neq(s->port, 0, "no free port range");
    s->admin = (uint16_t)(s->port + engines);
    char port[16], n[16], admin[16], base[64];
    snprintf(port, sizeof(port), "%u", s->port);
    snprintf(n, sizeof(n), "%u", engines);
    snprintf(admin, sizeof(admin), "%u", s->admin);
    kvr_test_unique_name(base, sizeof(base), "kvr-feedsim");
    snprintf(s->log, sizeof(s->log), "%s/%s.log",
             getenv("KVR_BUILD_DIR") ? getenv("KVR_BUILD_DIR") : "/tmp", base);
    const char *argv[32] = {
        kvr_test_bin("KVR_BIN_KVROUTE_SIM"), "--port", port, "--engines", n, "--admin-port", admin};
    int a = 7;
    for (int i = 0; extra != NULL && extra[i] != NULL && a < 30; i++)
        argv[a++] = extra[i];
    argv[a] = NULL;
    s->pid = kvr_test_spawn((char *const *)argv, s->log);
    cr_assert_gt(s->pid, 0);
    cr_assert(kvr_test_wait_port(s->admin, 5000), "kvroute-sim did not start; log in %s", s->log);
}

/* Reached only when the test's assertions held: a failing test keeps its log. */
static void sim_stop(sim_t *s)
{
    kvr_test_stop(s->pid, SIGTERM, 3000);
    unlink(s->log);
}

static void sim_url(const sim_t *s, unsigned i, char *out, size_t cap)
{
    feed_url(out, cap, (uint16_t)(s->port + i));
}

static void sim_fault(const sim_t *s, unsigned engine, const char *json)
{
    char path[64], *resp = NULL;
    snprintf(path, sizeof(path), "/admin/fault?engine=%u", engine);
    int st = kvr_test_http(s->admin, "POST", path, "Content-Type: application/json\r\n", json,
                           &resp, 3000);
    free(resp);
    cr_assert_eq(st, 200, "fault %s refused", json);
}

/* running and waiting summed over the engine's ranks, from /admin/state. */
typedef struct {
    long running, waiting, pending_prefill, max_running;
} truth_t;

/* A rank's count from /admin/state; 0 when absent. */
static long count_of(const cJSON *rank, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rank, key);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : 0;
}

static bool sim_truth(const sim_t *s, unsigned engine, truth_t *t)
{
    char path[64], *resp = NULL;
    snprintf(path, sizeof(path), "/admin/state?engine=%u", engine);
    if (kvr_test_http(s->admin, "GET", path, NULL, NULL, &resp, 3000) != 200) {
        free(resp);
        return false;
    }
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
    memset(t, 0, sizeof(*t));
    const cJSON *r;
    if (cJSON_IsArray(ranks)) {
        cJSON_ArrayForEach(r, ranks)
        {
            t->running += count_of(r, "running");
            t->waiting += count_of(r, "waiting");
            t->pending_prefill += count_of(r, "pending_prefill_tokens");
            t->max_running += count_of(r, "max_running");
        }
    }
    bool ok = e != NULL;
    cJSON_Delete(doc);
    return ok;
}

/* Sends a completion of prompt_tokens and leaves it in flight; returns the socket. */
static int send_completion(uint16_t port, unsigned prompt_tokens, unsigned max_tokens)
{
    int fd = kvr_test_connect(port);
    cr_assert_geq(fd, 0, "connect to the simulator: %s", strerror(errno));
    size_t text = (size_t)prompt_tokens * 4;
    char *body = malloc(text + 128);
    int n = snprintf(body, 128, "{\"model\":\"m\",\"stream\":true,\"max_tokens\":%u,\"prompt\":\"",
                     max_tokens);
    for (size_t i = 0; i < text; i++)
        body[n + i] = (char)('a' + (i * 7 + i / 5) % 26);
    size_t len = (size_t)n + text;
    len += (size_t)sprintf(body + len, "\"}");
    char head[200];
    int hl = snprintf(head, sizeof(head),
                      "POST /v1/completions HTTP/1.1\r\nHost: x\r\n"
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                      len);
    cr_assert_eq(write(fd, head, (size_t)hl), hl);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, body + off, len - off);
        cr_assert_gt(w, 0);
        off += (size_t)w;
    }
    free(body);
    return fd;
}

/* Waits until the slot and the simulator agree on running and waiting, with want requests held. */
static bool wait_agree(feed_proc_t *f, const sim_t *s, unsigned engine, const char *url, long want,
                       kvr_engine_state_t *slot, truth_t *truth)
{
    for (int i = 0; i < 300; i++) {
        if (sim_truth(s, engine, truth) && feed_read(f, url, slot, NULL) &&
            (slot->flags & KVR_SLOT_HEALTHY) && truth->running + truth->waiting == want &&
            (long)slot->running == truth->running && (long)slot->waiting == truth->waiting)
            return true;
        kvr_test_sleep_ms(10);
    }
    return false;
}

Test(feed_sim, vllm_scrape_matches_engine, .timeout = 40.)
{
    sim_t s;
    /* Few slots and slow steps: the state holds still long enough to compare. */
    const char *sim_args[] = {"--max-running", "2", "--step-scale", "20", NULL};
    sim_start(&s, 2, sim_args);
    char u0[64], u1[64];
    sim_url(&s, 0, u0, sizeof(u0));
    sim_url(&s, 1, u1, sizeof(u1));
    feed_proc_t f;
    const char *args[] = {"--engine", u0, "--engine", u1, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 5000, NULL));

    int fds[4];
    for (int i = 0; i < 4; i++)
        fds[i] = send_completion(s.port, 2000, 4000);
    kvr_engine_state_t slot;
    truth_t truth;
    cr_expect(wait_agree(&f, &s, 0, u0, 4, &slot, &truth),
              "slot running=%u waiting=%u, engine running=%ld waiting=%ld", slot.running,
              slot.waiting, truth.running, truth.waiting);
    cr_expect_leq(slot.running, 2, "max-running 2 caps the batch: running %u", slot.running);
    cr_expect_geq(slot.waiting, 2, "what does not fit the batch waits: waiting %u", slot.waiting);
    cr_expect_gt(slot.kv_usage, 0.0, "four prompts hold KV");
    cr_expect_eq(kvr_slot_source(slot.flags), KVR_SOURCE_SCRAPE);
    cr_expect_not(slot.flags & KVR_SLOT_CAPS_COMPLETE);
    kvr_engine_state_t idle;
    cr_assert(feed_read(&f, u1, &idle, NULL));
    cr_expect_eq(idle.running + idle.waiting, 0, "the idle engine reads idle");
    for (int i = 0; i < 4; i++)
        close(fds[i]);
    feed_stop(&f);
    sim_stop(&s);
}

Test(feed_sim, sglang_loads_dp_ranks, .timeout = 40.)
{
    sim_t s;
    const char *sim_args[] = {"--flavor", "sglang",       "--dp", "2", "--max-running",
                              "8",        "--step-scale", "20",   NULL};
    sim_start(&s, 1, sim_args);
    char u0[64], arg[96];
    sim_url(&s, 0, u0, sizeof(u0));
    snprintf(arg, sizeof(arg), "%s,kind=sglang", u0);
    feed_proc_t f;
    const char *args[] = {"--engine", arg, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    int fds[3];
    for (int i = 0; i < 3; i++)
        fds[i] = send_completion(s.port, 1000, 4000);
    kvr_engine_state_t slot;
    truth_t truth;
    cr_expect(wait_agree(&f, &s, 0, u0, 3, &slot, &truth), "slot running=%u waiting=%u",
              slot.running, slot.waiting);
    cr_expect_eq(kvr_slot_source(slot.flags), KVR_SOURCE_LOADS);
    cr_expect_eq(slot.dp_ranks, 2);
    cr_expect_eq((long)slot.max_running, truth.max_running, "caps summed over ranks");
    cr_expect_eq(slot.max_running, 8);
    cr_expect(slot.flags & KVR_SLOT_CAPS_COMPLETE, "every rank reports its cap");
    cr_expect_gt(slot.kv_tokens_capacity, 0);
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    feed_stop(&f);
    sim_stop(&s);
}

Test(feed_sim, push_carries_pending_prefill, .timeout = 40.)
{
    char base[64], sock[128], target[140];
    kvr_test_unique_name(base, sizeof(base), "kvr-feedsimpush");
    snprintf(sock, sizeof(sock), "/tmp/%s.sock", base);
    snprintf(target, sizeof(target), "unix:%s", sock);
    /* statefeed first: the socket must exist before the fleet sends. */
    uint16_t port = kvr_test_free_port_range(2);
    char u0[64], arg[96];
    feed_url(u0, sizeof(u0), port);
    snprintf(arg, sizeof(arg), "%s,kind=push", u0);
    feed_proc_t f;
    const char *args[] = {"--engine", arg, "--push-socket", sock, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);

    sim_t s;
    char port_s[16], admin_s[16];
    snprintf(port_s, sizeof(port_s), "%u", port);
    snprintf(admin_s, sizeof(admin_s), "%u", port + 1);
    memset(&s, 0, sizeof(s));
    s.port = port;
    s.admin = (uint16_t)(port + 1);
    snprintf(s.log, sizeof(s.log), "/tmp/%s-sim.log", base);
    const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                          "--port",
                          port_s,
                          "--admin-port",
                          admin_s,
                          "--push",
                          target,
                          "--prefill-tokens-per-s",
                          "20000",
                          NULL};
    s.pid = kvr_test_spawn((char *const *)argv, s.log);
    cr_assert(kvr_test_wait_port(s.admin, 5000), "kvroute-sim did not start; log in %s", s.log);
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 5000, NULL), "no push frame landed");

    int fd = send_completion(port, 100000, 1);
    kvr_engine_state_t slot;
    bool seen = false;
    for (int i = 0; i < 300 && !seen; i++) {
        seen = feed_read(&f, u0, &slot, NULL) && slot.pending_prefill_tokens > 0;
        if (!seen)
            kvr_test_sleep_ms(10);
    }
    cr_assert(seen, "the prefill never showed as pending");
    cr_expect_eq(kvr_slot_source(slot.flags), KVR_SOURCE_PUSH);
    cr_expect(slot.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_expect_leq(slot.pending_prefill_tokens, 100000);
    cr_expect_gt(slot.max_prefill_remaining, 0);
    cr_expect_leq(slot.max_prefill_remaining, 100000);
    cr_expect_eq(slot.running + slot.waiting, 1);
    /* Pending prefill drains as the engine works through the prompt. */
    truth_t truth;
    cr_assert(sim_truth(&s, 0, &truth));
    cr_expect_leq(truth.pending_prefill, (long)slot.pending_prefill_tokens,
                  "the slot claims less pending work than the engine still has");
    close(fd);
    sim_stop(&s);
    feed_stop(&f);
}

Test(feed_sim, faults_turn_into_health, .timeout = 60.)
{
    sim_t s;
    sim_start(&s, 4, NULL);
    char urls[4][64];
    const char *args[12];
    int a = 0;
    for (unsigned i = 0; i < 4; i++) {
        sim_url(&s, i, urls[i], sizeof(urls[i]));
        args[a++] = "--engine";
        args[a++] = urls[i];
    }
    /* A deadline of thirty periods: a loop that waited on the stalled engine
     * would give the others no new sample until it passed. */
    args[a++] = "--timeout-ms";
    args[a++] = "1500";
    args[a] = NULL;
    feed_proc_t f;
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    for (int i = 0; i < 4; i++)
        cr_assert(feed_wait(&f, urls[i], feed_pred_healthy, NULL, WAIT_MS, NULL));

    /* crash: unhealthy, sample time frozen while the others go on */
    sim_fault(&s, 1, "{\"crash\":true}");
    kvr_engine_state_t st, crashed;
    cr_expect(feed_wait(&f, urls[1], feed_pred_unhealthy, NULL, WAIT_MS, &crashed),
              "crashed engine still healthy");
    cr_expect(wait_new_samples(&f, urls[0], 3, NULL),
              "engine 0 not sampled after its peer crashed");
    cr_assert(feed_read(&f, urls[1], &st, NULL));
    cr_expect_eq(st.sample_seq, crashed.sample_seq, "a crashed engine got a sample");
    cr_expect_eq(st.sample_time_ns, crashed.sample_time_ns, "a crashed engine's sample time moved");

    /* stall: the others keep being sampled while the stalled poll is pending */
    sim_fault(&s, 2, "{\"stall\":true}");
    for (int i = 0; i < 4; i += 3) {
        cr_assert(wait_new_samples(&f, urls[i], SAMPLES_DURING_STALL, &st),
                  "engine %d not sampled during a stall", i);
        cr_assert(st.flags & KVR_SLOT_HEALTHY, "engine %d hurt by its peers' faults", i);
    }
    cr_assert(feed_read(&f, urls[2], &st, NULL));
    cr_expect_eq(st.consecutive_failures, 0,
                 "the stall ended before the others got %d samples: they waited on it",
                 SAMPLES_DURING_STALL);
    cr_expect(feed_wait(&f, urls[2], feed_pred_unhealthy, NULL, WAIT_MS, NULL),
              "stalled engine still healthy");

    /* garbage: unhealthy, values kept (not zeros) */
    kvr_engine_state_t before;
    cr_assert(feed_read(&f, urls[0], &before, NULL));
    sim_fault(&s, 0, "{\"garbage_metrics\":true}");
    cr_expect(feed_wait(&f, urls[0], feed_pred_unhealthy, NULL, WAIT_MS, &st), "garbage accepted");
    cr_expect_eq(st.sample_time_ns <= kvr_clock_now_ns(), true);
    cr_expect_eq(st.kv_usage, before.kv_usage);

    /* everything cleared: everyone healthy again */
    for (unsigned i = 0; i < 3; i++)
        sim_fault(&s, i, "{\"clear\":true}");
    for (int i = 0; i < 4; i++)
        cr_expect(feed_wait(&f, urls[i], feed_pred_healthy, NULL, WAIT_MS, NULL),
                  "engine %d never recovered", i);
    feed_stop(&f);
    sim_stop(&s);
}
