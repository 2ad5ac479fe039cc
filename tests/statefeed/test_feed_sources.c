/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every source lands in the segment with the values a router relies on:
 * vLLM scrape, SGLang loads (and its /metrics fallback), push frames, and
 * garbage or malformed input is refused rather than published as zeros.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/state_frame.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

static const char *VLLM_PAGE =
    "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
    "# TYPE vllm:num_requests_running gauge\n"
    "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3\n"
    "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 2\n"
    "# TYPE vllm:num_requests_waiting gauge\n"
    "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 5\n"
    "vllm:num_requests_waiting{engine=\"1\",model_name=\"m\"} 1\n"
    "# TYPE vllm:kv_cache_usage_perc gauge\n"
    "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.25\n"
    "vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"} 0.5\n";

static const char *VLLM_OLD_PAGE = "vllm:num_requests_running{model_name=\"m\"} 7\n"
                                   "vllm:num_requests_waiting{model_name=\"m\"} 0\n"
                                   "vllm:gpu_cache_usage_perc{model_name=\"m\"} 0.125\n";

static const char *SGLANG_LOADS =
    "{\"loads\":[{\"dp_rank\":0,\"num_running_reqs\":4,\"num_waiting_reqs\":2,"
    "\"max_running_requests\":32,\"num_used_tokens\":1000,\"max_total_num_tokens\":10000,"
    "\"token_usage\":0.1,\"utilization\":0.3,\"num_total_tokens\":1500},"
    "{\"dp_rank\":1,\"num_running_reqs\":6,\"num_waiting_reqs\":0,"
    "\"max_running_requests\":32,\"num_used_tokens\":3000,\"max_total_num_tokens\":10000,"
    "\"token_usage\":0.3,\"utilization\":0.6,\"num_total_tokens\":3000}]}";

static const char *SGLANG_METRICS = "sglang:num_running_reqs{dp_rank=\"0\"} 8\n"
                                    "sglang:num_queue_reqs{dp_rank=\"0\"} 3\n"
                                    "sglang:token_usage{dp_rank=\"0\"} 0.75\n";

Test(feed_sources, vllm_scrape_values_land, .timeout = 20.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(2);
    kvr_fake_set_bodies(r, 0, VLLM_PAGE, NULL);
    kvr_fake_set_bodies(r, 1, VLLM_OLD_PAGE, NULL);
    char u0[64], u1[64];
    feed_url(u0, sizeof(u0), kvr_fake_port(r, 0));
    feed_url(u1, sizeof(u1), kvr_fake_port(r, 1));
    feed_proc_t f;
    const char *args[] = {"--engine", u0, "--engine", u1, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);

    kvr_engine_state_t s;
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 3000, &s), "engine 0 never healthy");
    cr_expect_eq(s.running, 5, "running summed over engine labels");
    cr_expect_eq(s.waiting, 6);
    cr_expect_float_eq(s.kv_usage, 0.5, 1e-9, "kv usage is the max over engines");
    cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_SCRAPE);
    cr_expect_not(s.flags & KVR_SLOT_CAPS_COMPLETE, "a scrape never has complete caps");
    cr_assert(feed_wait(&f, u1, feed_pred_healthy, NULL, 3000, &s));
    cr_expect_eq(s.running, 7);
    cr_expect_float_eq(s.kv_usage, 0.125, 1e-9, "older gpu_cache_usage_perc accepted");

    /* Values follow the engine. */
    kvr_fake_set_bodies(r, 0, "vllm:num_requests_running 11\nvllm:num_requests_waiting 0\n", NULL);
    uint32_t want = 11;
    cr_expect(feed_wait(&f, u0, feed_pred_running, &want, 3000, &s), "new value never landed");
    int st = feed_stop(&f);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGTERM exits cleanly");
    kvr_fake_stop(r);
}

Test(feed_sources, sglang_loads_and_metrics_fallback, .timeout = 20.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(2);
    kvr_fake_set_bodies(r, 0, SGLANG_METRICS, SGLANG_LOADS);
    kvr_fake_set_bodies(r, 1, SGLANG_METRICS, NULL); /* no /v1/loads: 404 */
    char u0[80], u1[80], a0[96], a1[96];
    feed_url(u0, sizeof(u0), kvr_fake_port(r, 0));
    feed_url(u1, sizeof(u1), kvr_fake_port(r, 1));
    snprintf(a0, sizeof(a0), "%s,kind=sglang", u0);
    snprintf(a1, sizeof(a1), "%s,kind=sglang", u1);
    feed_proc_t f;
    const char *args[] = {"--engine", a0, "--engine", a1, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);

    kvr_engine_state_t s;
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 3000, &s), "loads engine never healthy");
    cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_LOADS);
    cr_expect_eq(s.running, 10, "running summed over DP ranks");
    cr_expect_eq(s.waiting, 2);
    cr_expect_eq(s.max_running, 64);
    cr_expect_eq(s.dp_ranks, 2);
    cr_expect(s.flags & KVR_SLOT_CAPS_COMPLETE, "every rank reported max_running");
    cr_expect_eq(s.kv_tokens_used, 4000);
    cr_expect_eq(s.kv_tokens_capacity, 20000);
    cr_expect_eq(s.pending_prefill_tokens, 500);
    cr_expect_float_eq(s.utilization, 0.6, 1e-9);

    cr_assert(feed_wait(&f, u1, feed_pred_healthy, NULL, 3000, &s),
              "fallback engine never healthy");
    cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_SCRAPE, "no /v1/loads: scraped instead");
    cr_expect_eq(s.running, 8);
    cr_expect_eq(s.waiting, 3);
    cr_expect_not(s.flags & KVR_SLOT_CAPS_COMPLETE, "fallback marks caps incomplete");
    feed_stop(&f);
    kvr_fake_stop(r);
}

static bool pred_failures_at_least(const kvr_engine_state_t *s, void *arg)
{
    return s->consecutive_failures >= *(const uint32_t *)arg;
}

Test(feed_sources, garbage_metrics_unhealthy_not_zeros, .timeout = 20.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    kvr_fake_set_bodies(r, 0, VLLM_PAGE, NULL);
    char u0[64];
    feed_url(u0, sizeof(u0), kvr_fake_port(r, 0));
    feed_proc_t f;
    const char *args[] = {"--engine", u0, "--fail-threshold", "3", NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    kvr_engine_state_t good, bad;
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 3000, &good));

    kvr_fake_set_bodies(r, 0, "<html>502 Bad Gateway {{{ \"not metrics\n", NULL);
    cr_assert(feed_wait(&f, u0, feed_pred_unhealthy, NULL, 3000, &bad),
              "garbage kept the slot healthy");
    cr_expect_eq(bad.running, good.running, "garbage must not be published as zeros");
    cr_expect_eq(bad.waiting, good.waiting);
    /* Two more garbage pages refused: still no sample. */
    uint32_t failures = bad.consecutive_failures + 2;
    kvr_engine_state_t later;
    cr_assert(feed_wait(&f, u0, pred_failures_at_least, &failures, 10000, &later),
              "garbage polls not counted");
    cr_expect_eq(later.sample_time_ns, bad.sample_time_ns,
                 "sample time never moves without a sample");
    cr_expect_eq(later.sample_seq, bad.sample_seq, "garbage was taken as a sample");

    /* A page of the wrong shape (no engine gauges) is refused too. */
    kvr_fake_set_bodies(r, 0, VLLM_PAGE, NULL);
    cr_assert(feed_wait(&f, u0, feed_pred_healthy, NULL, 3000, NULL), "recovery not seen");
    kvr_fake_set_bodies(r, 0, "# just a comment\nprocess_cpu_seconds_total 12\n", NULL);
    cr_expect(feed_wait(&f, u0, feed_pred_unhealthy, NULL, 3000, NULL),
              "page without engine gauges accepted");
    feed_stop(&f);
    kvr_fake_stop(r);
}

static void send_dgram(const char *path, const void *buf, size_t len)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
    /* The segment opens before the push socket is bound: until the bind,
     * sendto answers ENOENT or ECONNREFUSED. */
    ssize_t n = -1;
    for (int tries = 0; tries < 300; tries++) {
        n = sendto(fd, buf, len, 0, (struct sockaddr *)&a, sizeof(a));
        if (n >= 0 || (errno != ENOENT && errno != ECONNREFUSED))
            break;
        kvr_test_sleep_ms(10);
    }
    cr_assert_eq(n, (ssize_t)len, "push socket refused a datagram: %s", strerror(errno));
    close(fd);
}

static size_t make_frame(const char *engine, uint32_t running, uint64_t pending, char *buf,
                         size_t cap)
{
    kvr_state_frame_t fr;
    memset(&fr, 0, sizeof(fr));
    fr.version = KVR_STATE_FRAME_VERSION;
    fr.sample_unix_ns = kvr_clock_wall_ns();
    snprintf(fr.state.engine_id, sizeof(fr.state.engine_id), "%s", engine);
    fr.state.running = running;
    fr.state.waiting = 2;
    fr.state.max_running = 16;
    fr.state.kv_usage = 0.5;
    fr.state.pending_prefill_tokens = pending;
    fr.state.max_prefill_remaining = pending / 2;
    fr.state.flags = KVR_SLOT_HAS_PENDING_PREFILL | KVR_SLOT_CAPS_COMPLETE;
    size_t len = 0;
    cr_assert_eq(kvr_state_frame_encode(&fr, buf, cap, &len), 0);
    return len;
}

typedef struct {
    uint16_t port;
    const char *line;
} metric_line_t;

static bool metrics_have_line(void *arg)
{
    const metric_line_t *m = arg;
    char *resp = NULL;
    bool found = kvr_test_http(m->port, "GET", "/metrics", NULL, NULL, &resp, 1000) == 200 &&
                 strstr(resp, m->line) != NULL;
    free(resp);
    return found;
}

typedef struct {
    kvr_fake_fleet_t *r;
    unsigned at_least;
} polls_t;

static bool engine_polled(void *arg)
{
    const polls_t *q = arg;
    return kvr_fake_polls(q->r, 0) >= q->at_least;
}

static uint64_t mono_ms(void)
{
    return kvr_clock_now_ns() / 1000000u;
}

Test(feed_sources, push_frames_land_and_win_over_scrape, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    kvr_fake_set_bodies(r, 0, VLLM_OLD_PAGE, NULL); /* scrape says running 7 */
    char scraped[64], sock[128], base[64];
    feed_url(scraped, sizeof(scraped), kvr_fake_port(r, 0));
    kvr_test_unique_name(base, sizeof(base), "kvr-push");
    snprintf(sock, sizeof(sock), "/tmp/%s.sock", base);
    const char *pushed = "http://10.9.8.7:8000";
    char pushed_arg[96];
    snprintf(pushed_arg, sizeof(pushed_arg), "%s,kind=push", pushed);
    uint16_t port = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
    feed_proc_t f;
    const char *args[] = {
        "--engine", scraped,    "--engine", pushed_arg, "--push-socket", sock, "--push-max-age-ms",
        "1000",     "--listen", listen,     NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(feed_wait(&f, scraped, feed_pred_healthy, NULL, 3000, NULL));

    char buf[KVR_STATE_FRAME_MAX];
    size_t len = make_frame(pushed, 12, 100000, buf, sizeof(buf));
    send_dgram(sock, buf, len);
    kvr_engine_state_t s;
    uint32_t want = 12;
    cr_assert(feed_wait(&f, pushed, feed_pred_running, &want, 3000, &s), "push frame never landed");
    cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_PUSH);
    cr_expect_eq(s.pending_prefill_tokens, 100000);
    cr_expect_eq(s.max_prefill_remaining, 50000);
    cr_expect(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_expect(s.flags & KVR_SLOT_CAPS_COMPLETE);

    /* Malformed frames: refused, the slot keeps its last good sample. */
    const char junk1[] = "\x81\xa1v"; /* truncated map */
    const char junk2[] = "not msgpack at all";
    const unsigned char junk3[] = {0x82, 0xa1, 'v', 0x01, 0xa6, 'e', 'n', 'g', 'i', 'n', 'e', 0x05};
    send_dgram(sock, junk1, sizeof(junk1) - 1);
    send_dgram(sock, junk2, sizeof(junk2) - 1);
    send_dgram(sock, junk3, sizeof(junk3));
    /* Datagrams are taken in order: once the third is counted, all three were read. */
    metric_line_t rejected = {port, "\nkvroute_statefeed_push_rejected_total 3\n"};
    cr_assert(kvr_test_wait_until(metrics_have_line, &rejected, 10000),
              "malformed frames never counted as rejected");
    kvr_engine_state_t after;
    cr_assert(feed_read(&f, pushed, &after, NULL));
    cr_expect_eq(after.running, 12, "a malformed frame changed the slot");
    cr_expect_eq(after.sample_seq, s.sample_seq);

    /*
     * A push for the scraped engine wins while it is fresh: six scrapes
     * answered after it landed do not overwrite it. The push is fresh for
     * --push-max-age-ms from its arrival, which comes after sent_ms; a round
     * in which the six scrapes took longer than that (a stalled machine)
     * proves nothing and is run again.
     */
    bool checked = false;
    for (int round = 0; round < 5 && !checked; round++) {
        uint64_t sent_ms = mono_ms();
        len = make_frame(scraped, 21, 0, buf, sizeof(buf));
        send_dgram(sock, buf, len);
        want = 21;
        cr_assert(feed_wait(&f, scraped, feed_pred_running, &want, 3000, &s),
                  "push for a scraped engine lost");
        /* The seventh request means the sixth answer was read and handled. */
        polls_t scrapes = {r, kvr_fake_polls(r, 0) + 7};
        cr_assert(kvr_test_wait_until(engine_polled, &scrapes, 10000),
                  "statefeed stopped scraping");
        cr_assert(feed_read(&f, scraped, &s, NULL));
        if (mono_ms() - sent_ms >= 1000)
            continue;
        checked = true;
        cr_expect_eq(s.running, 21, "a scrape overwrote a fresh push");
        cr_expect_eq(kvr_slot_source(s.flags), KVR_SOURCE_PUSH);
    }
    cr_assert(checked, "six scrapes never fitted in the push max age");
    /* Once the push is old, the scrape takes over again. */
    want = 7;
    cr_expect(feed_wait(&f, scraped, feed_pred_running, &want, 3000, &s),
              "scrape never took over again");

    /* The push-only engine, now silent, turns unhealthy. */
    cr_expect(feed_wait(&f, pushed, feed_pred_unhealthy, NULL, 3000, NULL),
              "silent push engine stayed healthy");
    feed_stop(&f);
    cr_expect_neq(access(sock, F_OK), 0, "push socket path left behind");
    kvr_fake_stop(r);
}

Test(feed_sources, a_push_names_its_engine_in_any_spelling_of_the_url, .timeout = 20.)
{
    char sock[128], base[64];
    kvr_test_unique_name(base, sizeof(base), "kvr-push");
    snprintf(sock, sizeof(sock), "/tmp/%s.sock", base);
    feed_proc_t f;
    /* The id is the normalised URL; the hook writes it as the operator did. */
    const char *args[] = {"--engine", "http://Pod-7.Pool:8000/,kind=push", "--push-socket", sock,
                          NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    char buf[KVR_STATE_FRAME_MAX];
    size_t len = make_frame("http://POD-7.pool:8000", 9, 0, buf, sizeof(buf));
    send_dgram(sock, buf, len);
    uint32_t want = 9;
    cr_expect(feed_wait(&f, "http://pod-7.pool:8000", feed_pred_running, &want, 5000, NULL),
              "a push in another spelling of the engine's URL never landed; log in %s", f.log_path);
    feed_stop(&f);
}

static bool pred_pending(const kvr_engine_state_t *s, void *arg)
{
    return s->pending_prefill_tokens == *(const uint64_t *)arg;
}

Test(feed_sources, fresh_push_outvotes_failing_polls, .timeout = 30.)
{
    kvr_fake_fleet_t *r = kvr_fake_start(1);
    kvr_fake_set_mode(r, 0, KVR_FAKE_DOWN); /* /metrics unreachable, the hook still pushes */
    char url[64], sock[128], base[64];
    feed_url(url, sizeof(url), kvr_fake_port(r, 0));
    kvr_test_unique_name(base, sizeof(base), "kvr-push");
    snprintf(sock, sizeof(sock), "/tmp/%s.sock", base);
    feed_proc_t f;
    const char *args[] = {"--engine", url, "--push-socket", sock, "--push-max-age-ms", "200", NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    /*
     * A hook pushing every 20 ms (the pause is the hook's cadence), the
     * polls failing all along. Each frame carries its own pending count, so
     * the test sees it land; a read counts only while that frame is younger
     * than --push-max-age-ms (it arrived after sent_ms), since past it the
     * failing polls rightly take over. A test thread stalled longer than
     * that skips the read rather than judge a stale push.
     */
    char buf[KVR_STATE_FRAME_MAX];
    unsigned healthy = 0, reads = 0;
    for (uint64_t i = 1; i <= 400 && reads < 40; i++) {
        uint64_t sent_ms = mono_ms();
        size_t len = make_frame(url, 3, i, buf, sizeof(buf));
        send_dgram(sock, buf, len);
        cr_assert(feed_wait(&f, url, pred_pending, &i, 3000, NULL), "push frame %llu never landed",
                  (unsigned long long)i);
        kvr_test_sleep_ms(20);
        kvr_engine_state_t s;
        bool read = feed_read(&f, url, &s, NULL);
        if (!read || mono_ms() - sent_ms >= 200 || s.pending_prefill_tokens != i)
            continue;
        reads++;
        healthy += (s.flags & KVR_SLOT_HEALTHY) != 0;
    }
    cr_assert_eq(reads, 40, "only %u reads while a push was fresh", reads);
    cr_expect_eq(healthy, reads, "failing polls flapped a freshly pushed engine (%u of %u healthy)",
                 healthy, reads);
    /* The pushes stop: now the failing polls count again. */
    cr_expect(feed_wait(&f, url, feed_pred_unhealthy, NULL, 3000, NULL),
              "engine stayed healthy without any source");
    feed_stop(&f);
    kvr_fake_stop(r);
}

Test(feed_sources, push_losses_counted, .timeout = 20.)
{
    char sock[128], base[64], listen[32];
    kvr_test_unique_name(base, sizeof(base), "kvr-push");
    snprintf(sock, sizeof(sock), "/tmp/%s.sock", base);
    uint16_t port = kvr_test_free_port();
    snprintf(listen, sizeof(listen), "127.0.0.1:%u", port);
    const char *engine = "http://10.1.1.1:8000";
    feed_proc_t f;
    const char *args[] = {
        "--engine", "http://10.1.1.1:8000,kind=push", "--push-socket", sock, "--listen", listen,
        NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    cr_assert(kvr_test_wait_port(port, 3000));
    /* 3 and 4 lost on the way; then a counter that jumps to 2^64-1 and one
     * that starts over: neither is a loss. */
    const uint64_t seqs[] = {1, 2, 5, 6, UINT64_MAX, 7};
    for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
        kvr_state_frame_t fr;
        memset(&fr, 0, sizeof(fr));
        fr.version = KVR_STATE_FRAME_VERSION;
        fr.sample_unix_ns = kvr_clock_wall_ns();
        fr.has_seq = true;
        fr.seq = seqs[i];
        snprintf(fr.state.engine_id, sizeof(fr.state.engine_id), "%s", engine);
        fr.state.running = (uint32_t)i;
        char buf[KVR_STATE_FRAME_MAX];
        size_t len = 0;
        cr_assert_eq(kvr_state_frame_encode(&fr, buf, sizeof(buf), &len), 0);
        send_dgram(sock, buf, len);
        /* Landed before the next is sent: each frame's sample is newer than
         * the last, so none is dropped as older than the slot. */
        uint32_t want = (uint32_t)i;
        cr_assert(feed_wait(&f, engine, feed_pred_running, &want, 3000, NULL),
                  "frame %zu never landed", i);
    }
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, 3000), 200);
    char line[160];
    snprintf(line, sizeof(line), "kvroute_statefeed_push_frames_lost_total{engine=\"%s\"} 2\n",
             engine);
    cr_expect_not_null(strstr(resp, line), "lost frames not counted:\n%s", resp);
    snprintf(line, sizeof(line), "kvroute_statefeed_push_frames_total{engine=\"%s\"} 6\n", engine);
    cr_expect_not_null(strstr(resp, line), "accepted frames not counted");
    free(resp);
    feed_stop(&f);
}
