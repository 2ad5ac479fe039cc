/* SPDX-License-Identifier: Apache-2.0 */
/*
 * statefeed subscribed to a live kvroute-sim's KV events (statefeed/kv_feed.c,
 * bench/sim/kv_events.c), both encodings: the blocks a request fills show in
 * statefeed's metrics as the simulator holds them, an eviction removes them,
 * a lost batch is replayed (or, without a replay socket, the blocks are
 * dropped), and a publisher restart drops them at once.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <pthread.h>
#include <zmq.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm_layout/residency.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/statefeed/kv_frames.h"
#include "tests/support/proc.h"

#define WAIT_MS 10000

typedef struct kv_rig_s {
    pid_t sim;
    uint16_t port, admin, kv_port, metrics_port;
    char sim_log[160], url[64];
    feed_proc_t feed;
} kv_rig_t;

static bool all_ranks_subscribed(void *arg);

/* More kvroute-sim flags for the next rig_sim (NULL-terminated; the test sets and clears them). */
static const char *sim_extra[5];
/* More kvroute-statefeed flags for the next rig_feed, the same way. */
static const char *feed_extra[5];

/* kvroute-sim with KV events on dp ranks (and replay sockets when replay). */
static void rig_sim(kv_rig_t *r, const char *encoding, bool replay, const char *kv_tokens,
                    unsigned dp)
{
    memset(r, 0, sizeof(*r));
    r->port = kvr_test_free_port_range(2);
    r->kv_port = kvr_test_free_port_range(2 * dp);
    r->metrics_port = kvr_test_free_port();
    cr_assert(r->port && r->kv_port && r->metrics_port, "no free ports");
    r->admin = (uint16_t)(r->port + 1);
    char port[16], admin[16], kv[16], rp[16], base[64], dps[16];
    snprintf(dps, sizeof dps, "%u", dp);
    snprintf(port, sizeof port, "%u", r->port);
    snprintf(admin, sizeof admin, "%u", r->admin);
    snprintf(kv, sizeof kv, "%u", r->kv_port);
    snprintf(rp, sizeof rp, "%u", r->kv_port + dp);
    kvr_test_unique_name(base, sizeof base, "kvr-feedkv");
    snprintf(r->sim_log, sizeof r->sim_log, "%s/%s.log",
             getenv("KVR_BUILD_DIR") ? getenv("KVR_BUILD_DIR") : "/tmp", base);
    const char *argv[24] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                            "--port",
                            port,
                            "--admin-port",
                            admin,
                            "--kv-events-port",
                            kv,
                            "--kv-events-encoding",
                            encoding,
                            "--kv-tokens",
                            kv_tokens,
                            "--dp",
                            dps};
    int a = 13;
    if (replay) {
        argv[a++] = "--kv-replay-port";
        argv[a++] = rp;
    }
    for (int i = 0; sim_extra[i] && a < 23; i++)
        argv[a++] = sim_extra[i];
    argv[a] = NULL;
    r->sim = kvr_test_spawn((char *const *)argv, r->sim_log);
    cr_assert_gt(r->sim, 0);
    cr_assert(kvr_test_wait_port(r->admin, 5000), "kvroute-sim did not start; log in %s",
              r->sim_log);
    feed_url(r->url, sizeof r->url, r->port);
}

/* statefeed subscribed to the simulator's ranks, or to feed_kv_port instead when it is not 0. */
static void rig_feed(kv_rig_t *r, bool replay, unsigned dp, uint16_t feed_kv_port)
{
    char rp[16];
    snprintf(rp, sizeof rp, "%u", r->kv_port + dp);
    static char engine[160], listen[32];
    snprintf(engine, sizeof engine, "%s,kv_events=%u,kv_dp=%u%s%s", r->url,
             feed_kv_port ? feed_kv_port : r->kv_port, dp, replay ? ",kv_replay=" : "",
             replay ? rp : "");
    snprintf(listen, sizeof listen, "127.0.0.1:%u", r->metrics_port);
    const char *args[10] = {"--engine", engine, "--listen", listen};
    for (int i = 0; feed_extra[i] && i < 5; i++)
        args[4 + i] = feed_extra[i];
    cr_assert(feed_start(&r->feed, args), "statefeed did not start; log in %s", r->feed.log_path);
    cr_assert(kvr_test_wait_file_contains(r->feed.log_path, "kv_events_subscribed", WAIT_MS));
    /* A PUB drops what it sends before a subscription arrives: start once every rank has one. */
    if (!feed_kv_port)
        cr_assert(kvr_test_wait_until(all_ranks_subscribed, r, WAIT_MS),
                  "statefeed never subscribed to the simulator's ranks");
}

static void rig_start_at(kv_rig_t *r, const char *encoding, bool replay, const char *kv_tokens,
                         unsigned dp, uint16_t feed_kv_port)
{
    rig_sim(r, encoding, replay, kv_tokens, dp);
    rig_feed(r, replay, dp, feed_kv_port);
}

static void rig_start(kv_rig_t *r, const char *encoding, bool replay, const char *kv_tokens)
{
    rig_start_at(r, encoding, replay, kv_tokens, 1, 0);
}

/* Both programs must exit cleanly: an ASan build reports leaks and errors as a failed exit. */
static void rig_stop(kv_rig_t *r)
{
    int feed_status = feed_stop(&r->feed);
    r->feed.pid = 0;
    int sim_status = kvr_test_stop(r->sim, SIGTERM, 3000);
    cr_assert(WIFEXITED(feed_status) && WEXITSTATUS(feed_status) == 0,
              "statefeed exit status %d; log in %s", feed_status, r->feed.log_path);
    cr_assert(WIFEXITED(sim_status) && WEXITSTATUS(sim_status) == 0,
              "kvroute-sim exit status %d; log in %s", sim_status, r->sim_log);
    unlink(r->sim_log);
}

/* A statefeed metric of the engine (tier: NULL, or the tier label); -1 when absent. */
static double metric(const kv_rig_t *r, const char *name, const char *tier)
{
    char *resp = NULL, want[256];
    if (kvr_test_http(r->metrics_port, "GET", "/metrics", NULL, NULL, &resp, 3000) != 200) {
        free(resp);
        return -1;
    }
    if (tier != NULL)
        snprintf(want, sizeof want, "\n%s{engine=\"%s\",tier=\"%s\"} ", name, r->url, tier);
    else
        snprintf(want, sizeof want, "\n%s{engine=\"%s\"} ", name, r->url);
    const char *at = strstr(resp, want);
    double v = at ? strtod(at + strlen(want), NULL) : -1;
    free(resp);
    return v;
}

typedef struct metric_wait_s {
    const kv_rig_t *r;
    const char *name, *tier;
    double want;
} metric_wait_t;

static bool metric_is(void *arg)
{
    metric_wait_t *w = arg;
    bool ok = metric(w->r, w->name, w->tier) == w->want;
    if (!ok)
        kvr_test_sleep_ms(5);
    return ok;
}

static bool wait_metric(const kv_rig_t *r, const char *name, const char *tier, double want)
{
    metric_wait_t w = {r, name, tier, want};
    return kvr_test_wait_until(metric_is, &w, WAIT_MS);
}

/* What the simulator's ranks hold: hashed blocks (all ready once idle), rank 0's next sequence. */
static void sim_rank(const kv_rig_t *r, long *hashed, long *seq)
{
    *hashed = 0;
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(r->admin, "GET", "/admin/state", NULL, NULL, &resp, 3000), 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *rank;
    cJSON_ArrayForEach(rank, cJSON_GetObjectItemCaseSensitive(e, "ranks"))
    {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(rank, "hashed_blocks");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(rank, "kv_events_seq");
        cr_assert(cJSON_IsNumber(h) && cJSON_IsNumber(s), "the simulator reports its blocks");
        *hashed += (long)h->valuedouble;
        if (rank == cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "ranks"), 0))
            *seq = (long)s->valuedouble;
    }
    cJSON_Delete(doc);
}

static bool all_ranks_subscribed(void *arg)
{
    const kv_rig_t *r = arg;
    char *resp = NULL;
    bool all = true;
    if (kvr_test_http(r->admin, "GET", "/admin/state", NULL, NULL, &resp, 3000) != 200) {
        free(resp);
        return false;
    }
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *rank;
    cJSON_ArrayForEach(rank, cJSON_GetObjectItemCaseSensitive(e, "ranks"))
    {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(rank, "kv_subscriptions");
        all = all && cJSON_IsNumber(s) && s->valuedouble >= 1;
    }
    cJSON_Delete(doc);
    if (!all)
        kvr_test_sleep_ms(5);
    return all;
}

static void sim_fault(const kv_rig_t *r, const char *json)
{
    char *resp = NULL;
    int st = kvr_test_http(r->admin, "POST", "/admin/fault?engine=0",
                           "Content-Type: application/json\r\n", json, &resp, 3000);
    free(resp);
    cr_assert_eq(st, 200, "fault %s refused", json);
}

/* A completion of blocks full 64-byte blocks of text; seeds 1..5 share no first block. Waits for it. */
static void complete(const kv_rig_t *r, unsigned blocks, unsigned seed)
{
    size_t text = (size_t)blocks * 64;
    char *body = malloc(text + 128);
    int n = snprintf(body, 128, "{\"model\":\"m\",\"max_tokens\":1,\"prompt\":\"");
    for (size_t i = 0; i < text; i++)
        body[n + i] = (char)('a' + (i * 7 + i / 5 + seed * 5 + (i / 64) * seed) % 26);
    sprintf(body + n + text, "\"}");
    char *resp = NULL;
    int st = kvr_test_http(r->port, "POST", "/v1/completions", "Content-Type: application/json\r\n",
                           body, &resp, 5000);
    free(body);
    free(resp);
    cr_assert_eq(st, 200, "completion refused");
}

/* Blocks held as statefeed says equal what the idle simulator holds, once its last batch is in. */
static void expect_agree(const kv_rig_t *r)
{
    long hashed, seq;
    sim_rank(r, &hashed, &seq);
    cr_assert(wait_metric(r, "kvroute_statefeed_kv_blocks", "GPU", (double)hashed),
              "statefeed holds %g blocks, the simulator %ld",
              metric(r, "kvroute_statefeed_kv_blocks", "GPU"), hashed);
}

static void fill_evict_restart(const char *encoding)
{
    kv_rig_t r;
    /* 20 blocks of room: a 10-block prompt fits, a 15-block one then evicts some of it */
    rig_start(&r, encoding, false, "320");
    complete(&r, 10, 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 10),
              "the 10 blocks of the prompt show (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_blocks_stored_total", NULL), 10);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_orphan_blocks_total", NULL), 0);

    complete(&r, 15, 2);
    expect_agree(&r);
    cr_assert_geq(metric(&r, "kvroute_statefeed_kv_blocks_removed_total", NULL), 5,
                  "the eviction removed the oldest blocks");
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_trusted", NULL), 1);

    /* The publisher restarts: its first batch (sequence 0) drops every block held before. */
    sim_fault(&r, "{\"kv_restart\":true}");
    complete(&r, 3, 3);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_resets_total", NULL, 1));
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 3),
              "only the blocks stored since the restart are held (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_decode_errors_total", NULL), 0);
    rig_stop(&r);
}

Test(feed_kv, map_tagged_fill_evict_restart, .timeout = 60.)
{
    fill_evict_restart("map");
}
Test(feed_kv, positional_fill_evict_restart, .timeout = 60.)
{
    fill_evict_restart("array");
}

Test(feed_kv, lost_batch_is_replayed, .timeout = 60.)
{
    kv_rig_t r;
    rig_start(&r, "array", true, "250000");
    complete(&r, 4, 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 4));
    sim_fault(&r, "{\"kv_drop_batches\":1}");
    complete(&r, 5, 2); /* its batch never reaches the subscriber */
    complete(&r, 6, 3); /* the gap shows with this one */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_replays_total", NULL, 1));
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 15),
              "the replay brought the lost batch's blocks (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_gaps_total", NULL), 1);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_drops_total", NULL), 0);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_replay_failures_total", NULL), 0);
    expect_agree(&r);
    rig_stop(&r);
}

Test(feed_kv, lost_batch_without_replay_drops_the_blocks, .timeout = 60.)
{
    kv_rig_t r;
    rig_start(&r, "map", false, "250000");
    complete(&r, 4, 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 4));
    sim_fault(&r, "{\"kv_drop_batches\":1}");
    complete(&r, 5, 2);
    complete(&r, 6, 3);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_gaps_total", NULL, 1));
    /* what came before the gap is forgotten: a removal in the lost batch would be unknown */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 6),
              "only the blocks after the gap are held (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_drops_total", NULL), 1);
    rig_stop(&r);
}

Test(feed_kv, data_parallel_ranks_each_followed, .timeout = 60.)
{
    kv_rig_t r;
    rig_start_at(&r, "map", true, "250000", 2, 0);
    complete(&r, 4, 1); /* rank 0 */
    complete(&r, 5, 2); /* rank 1 */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 9),
              "both ranks' blocks show (%g)", metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    expect_agree(&r);
    sim_fault(&r, "{\"kv_restart\":true}");
    complete(&r, 3, 3);
    complete(&r, 2, 4);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_resets_total", NULL, 2), "each rank restarted");
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 5),
              "only the blocks since the restarts are held (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_gaps_total", NULL), 0);
    rig_stop(&r);
}

Test(feed_kv, engine_turning_unhealthy_drops_its_blocks, .timeout = 60.)
{
    kv_rig_t r;
    rig_start(&r, "map", false, "250000");
    complete(&r, 4, 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 4));
    sim_fault(&r, "{\"crash\":true}");
    cr_assert(feed_wait(&r.feed, r.url, feed_pred_unhealthy, NULL, WAIT_MS, NULL));
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 0),
              "a crashed engine's blocks are history (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_geq(metric(&r, "kvroute_statefeed_kv_drops_total", NULL), 1);
    sim_fault(&r, "{\"crash\":false}");
    rig_stop(&r);
}

/* Sends [topic, seq, payload] until statefeed's metric name reaches want (PUB drops what it sends
 * before the subscription arrived). */
static void publish_until(const kv_rig_t *r, void *pub, uint64_t *seq, const void *payload,
                          size_t len, const char *name, double want)
{
    for (int i = 0; i < 2000; i++) {
        uint8_t sb[8];
        for (int k = 0; k < 8; k++)
            sb[k] = (uint8_t)(*seq >> (56 - 8 * k));
        (*seq)++;
        zmq_send(pub, "kv", 2, ZMQ_SNDMORE);
        zmq_send(pub, sb, 8, ZMQ_SNDMORE);
        zmq_send(pub, payload, len, 0);
        if (metric(r, name, NULL) >= want)
            return;
        kvr_test_sleep_ms(5);
    }
    cr_assert_fail("%s never reached %g", name, want);
}

Test(feed_kv, hostile_publisher_marks_the_state_untrusted, .timeout = 60.)
{
    uint16_t port = kvr_test_free_port();
    void *ctx = zmq_ctx_new();
    void *pub = zmq_socket(ctx, ZMQ_PUB);
    int linger = 0;
    zmq_setsockopt(pub, ZMQ_LINGER, &linger, sizeof linger);
    char ep[64];
    snprintf(ep, sizeof ep, "tcp://127.0.0.1:%u", port);
    cr_assert_eq(zmq_bind(pub, ep), 0);
    kv_rig_t r;
    rig_start_at(&r, "map", false, "250000", 1, port);
    uint64_t seq = 0;
    /* a batch claiming 4 billion events in 16 bytes */
    const uint8_t bomb[] = {0x92, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0xdd, 0xff, 0xff, 0xff, 0xff, 0x90};
    publish_until(&r, pub, &seq, bomb, sizeof bomb, "kvroute_statefeed_kv_decode_errors_total", 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_trusted", NULL, 0));
    cr_assert(kvr_test_wait_file_contains(r.feed.log_path, "kv_events_rejected", WAIT_MS));
    /* the engine says it holds nothing: exact again */
    const uint8_t cleared[] = {0x92, 0xcb, 0,    0,   0,   0,   0,   0,   0,   0,
                               0x91, 0x91, 0xb0, 'A', 'l', 'l', 'B', 'l', 'o', 'c',
                               'k',  's',  'C',  'l', 'e', 'a', 'r', 'e', 'd'};
    publish_until(&r, pub, &seq, cleared, sizeof cleared, "kvroute_statefeed_kv_trusted", 1);
    cr_assert(kvr_test_alive(r.feed.pid));
    rig_stop(&r);
    zmq_close(pub);
    zmq_ctx_term(ctx);
}

Test(feed_kv, late_subscriber_replays_the_history, .timeout = 60.)
{
    kv_rig_t r;
    rig_sim(&r, "map", true, "250000", 1);
    complete(&r, 4, 1); /* published before statefeed runs */
    rig_feed(&r, true, 1, 0);
    complete(&r, 5, 2); /* the first batch it sees has sequence 1: it asks for 0 onwards */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 9),
              "the replay brought the blocks stored before the subscription (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_replays_total", NULL), 1);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_gaps_total", NULL), 0);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_orphan_blocks_total", NULL), 0);
    expect_agree(&r);
    rig_stop(&r);
}

typedef struct slow_req_s {
    const kv_rig_t *r;
} slow_req_t;

static void *complete_in_thread(void *arg)
{
    slow_req_t *s = arg;
    complete(s->r, 64, 4);
    return NULL;
}

/* Rank 0's running requests, as the simulator reports them. */
static long sim_running(const kv_rig_t *r)
{
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(r->admin, "GET", "/admin/state", NULL, NULL, &resp, 3000), 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *rank = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "ranks"), 0);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rank, "running");
    long running = cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
    cJSON_Delete(doc);
    return running;
}

Test(feed_kv, blocks_are_announced_as_their_step_starts_and_the_state_stays_trusted, .timeout = 60.)
{
    /* 1,024 prompt tokens at 400 tokens/s: one prefill step of some 2.5 s. */
    sim_extra[0] = "--prefill-tokens-per-s";
    sim_extra[1] = "400";
    sim_extra[2] = NULL;
    kv_rig_t r;
    rig_start(&r, "map", false, "250000");
    sim_extra[0] = NULL;
    slow_req_t req = {&r};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, complete_in_thread, &req), 0);
    /* The engine uses the blocks from the step's start (vLLM caches them when it schedules). */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 64),
              "the 64 blocks of the step show (%g)",
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_expect_eq(sim_running(&r), 1, "announced while their step still runs");
    pthread_join(t, NULL);
    cr_expect_eq(metric(&r, "kvroute_statefeed_kv_check_failures_total", NULL), 0,
                 "held blocks kept up with the engine's KV usage during the step");
    cr_expect_eq(metric(&r, "kvroute_statefeed_kv_trusted", NULL), 1);
    expect_agree(&r);
    rig_stop(&r);
}

/* One BlockStored batch of n blocks under no parent (the same blocks every time). */
static void stored_batch(msgpack_sbuffer *sb, size_t n)
{
    uint64_t hashes[64];
    uint32_t tokens[64 * 4];
    for (size_t i = 0; i < n; i++)
        hashes[i] = 1000 + i;
    for (size_t i = 0; i < n * 4; i++)
        tokens[i] = (uint32_t)i;
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    kv_batch_begin(&pk, true, 1);
    kv_stored_t st = {
        .hashes = hashes, .n_hashes = n, .tokens = tokens, .n_tokens = n * 4, .block_size = 4};
    kv_pack_stored(&pk, true, &st);
}

Test(feed_kv, flooding_engine_is_held_to_its_rate_and_counted, .timeout = 60.)
{
    uint16_t port = kvr_test_free_port();
    void *ctx = zmq_ctx_new();
    void *pub = zmq_socket(ctx, ZMQ_PUB);
    int linger = 0;
    zmq_setsockopt(pub, ZMQ_LINGER, &linger, sizeof linger);
    char ep[64];
    snprintf(ep, sizeof ep, "tcp://127.0.0.1:%u", port);
    cr_assert_eq(zmq_bind(pub, ep), 0);
    kv_rig_t r;
    feed_extra[0] = "--kv-max-block-events";
    feed_extra[1] = "100";
    rig_start_at(&r, "map", false, "250000", 1, port);
    feed_extra[0] = NULL;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    stored_batch(&sb, 50);
    /* 50 blocks every few milliseconds against 100 a second: held back while it keeps on */
    uint64_t seq = 0;
    bool held = false;
    for (int i = 0; i < 4000 && !held; i++) {
        uint8_t be[8];
        for (int k = 0; k < 8; k++)
            be[k] = (uint8_t)(seq >> (56 - 8 * k));
        seq++;
        zmq_send(pub, "kv", 2, ZMQ_SNDMORE);
        zmq_send(pub, be, 8, ZMQ_SNDMORE);
        zmq_send(pub, sb.data, sb.size, 0);
        held = metric(&r, "kvroute_statefeed_kv_rate_limited_batches_total", NULL) >= 1 &&
               metric(&r, "kvroute_statefeed_kv_trusted", NULL) == 0 &&
               metric(&r, "kvroute_statefeed_kv_blocks", "GPU") == 0;
        kvr_test_sleep_ms(2);
    }
    cr_assert(held,
              "the flood was neither counted nor its blocks dropped and untrusted "
              "(discarded %g, trusted %g, blocks %g)",
              metric(&r, "kvroute_statefeed_kv_rate_limited_batches_total", NULL),
              metric(&r, "kvroute_statefeed_kv_trusted", NULL),
              metric(&r, "kvroute_statefeed_kv_blocks", "GPU"));
    cr_assert(kvr_test_wait_file_contains(r.feed.log_path, "kv_events_rate_limited", WAIT_MS));
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_decode_errors_total", NULL), 0);
    cr_assert_eq(metric(&r, "kvroute_statefeed_kv_gaps_total", NULL), 0,
                 "a discarded batch still advances the sequence");
    /* once it stops, the bucket refills and the (empty) state is trusted again */
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_trusted", NULL, 1));
    cr_assert(kvr_test_file_contains(r.feed.log_path, "kv_events_rate_resumed"));
    msgpack_sbuffer_destroy(&sb);
    rig_stop(&r);
    zmq_close(pub);
    zmq_ctx_term(ctx);
}

typedef struct held_wait_s {
    kvr_residency_reader_t *rd;
    uint32_t slot;
    bool want_none;
} held_wait_t;

static bool table_held(void *arg)
{
    held_wait_t *w = arg;
    bool ok = (kvr_residency_reader_slot_entries(w->rd, w->slot) == 0) == w->want_none;
    if (!ok)
        kvr_test_sleep_ms(5);
    return ok;
}

Test(feed_kv, restarted_engine_blocks_leave_the_residency_table, .timeout = 60.)
{
    kv_rig_t r;
    rig_sim(&r, "map", false, "250000", 1);
    feed_extra[0] = "--cache-index-mb";
    feed_extra[1] = "1";
    rig_feed(&r, false, 1, 0);
    feed_extra[0] = NULL;
    char name[300];
    cr_assert_eq(kvr_residency_name(name, sizeof name, r.feed.shm_name), 0);
    kvr_residency_reader_t rd;
    cr_assert_eq(kvr_residency_reader_open(&rd, name, geteuid()), 0);
    int slot = kvr_shm_find(&r.feed.shm, r.url);
    cr_assert_geq(slot, 0);
    complete(&r, 10, 1);
    held_wait_t w = {&rd, (uint32_t)slot, false};
    cr_assert(kvr_test_wait_until(table_held, &w, WAIT_MS), "the prompt's blocks never showed");
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 10));
    cr_assert_eq(kvr_residency_reader_slot_entries(&rd, (uint32_t)slot), 10);
    /* The engine restarts: its first batch after (sequence 0) clears what it held before. */
    sim_fault(&r, "{\"kv_restart\":true}");
    complete(&r, 3, 3);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_resets_total", NULL, 1));
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 3));
    cr_assert_eq(kvr_residency_reader_slot_entries(&rd, (uint32_t)slot), 3,
                 "the table holds only the blocks stored since the restart");
    kvr_residency_reader_close(&rd);
    rig_stop(&r);
}

Test(feed_kv, killed_engine_blocks_leave_when_its_publisher_disconnects, .timeout = 60.)
{
    kv_rig_t r;
    rig_sim(&r, "map", false, "250000", 1);
    /* health polls alone would take a thousand periods: the disconnection must do it */
    feed_extra[0] = "--cache-index-mb";
    feed_extra[1] = "1";
    feed_extra[2] = "--fail-threshold";
    feed_extra[3] = "1000";
    rig_feed(&r, false, 1, 0);
    feed_extra[0] = feed_extra[2] = NULL;
    char name[300];
    cr_assert_eq(kvr_residency_name(name, sizeof name, r.feed.shm_name), 0);
    kvr_residency_reader_t rd;
    cr_assert_eq(kvr_residency_reader_open(&rd, name, geteuid()), 0);
    int slot = kvr_shm_find(&r.feed.shm, r.url);
    cr_assert_geq(slot, 0);
    complete(&r, 10, 1);
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 10));
    cr_assert_eq(kvr_residency_reader_slot_entries(&rd, (uint32_t)slot), 10);
    kvr_test_stop(r.sim, SIGKILL, 3000);
    r.sim = 0;
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_disconnects_total", NULL, 1));
    cr_assert(wait_metric(&r, "kvroute_statefeed_kv_blocks", "GPU", 0));
    cr_assert_eq(kvr_residency_reader_slot_entries(&rd, (uint32_t)slot), 0,
                 "the dead engine's blocks are still in the table");
    kvr_residency_reader_close(&rd);
    int feed_status = feed_stop(&r.feed);
    cr_assert(WIFEXITED(feed_status) && WEXITSTATUS(feed_status) == 0,
              "statefeed exit status %d; log in %s", feed_status, r.feed.log_path);
    unlink(r.sim_log);
}
