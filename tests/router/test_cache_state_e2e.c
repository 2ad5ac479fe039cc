/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The exact cache state as one chain of real processes on loopback:
 * kvroute-sim engines publish their KV events (with --tokenizer, in the
 * model's token ids) -> kvroute-statefeed subscribes and writes the
 * residency table (--cache-index-mb) -> kvroute --es 1 --cache-state reads it
 * in its decision. A prefix placed on one engine by a request sent straight
 * to it (the router never saw it) draws the router's next request with that
 * prefix to that engine, and the decision log says the match came from the
 * events; with --cache-state own the router cannot know. The engine's event
 * stream restarting (its sequence from 0, as after an engine restart) drops
 * its blocks, and the router stops preferring it. Every step waits on a
 * metric or a decision-log record.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/proc.h"
#include "tests/tokens/tiny_tokenizer.h"

#define ENGINES 3
#define HOLDER 2 /* the engine the prefix is placed on: not the one ties go to */
#define WAIT_MS 15000

static pid_t sim_pid;
static uint16_t sim_port, sim_admin, kv_port, feed_metrics;
static feed_proc_t feed;
static kvr_harness_t h;
static char scratch[128], model_dir[192], decisions[192], sim_log[192], table[160];
static char urls[ENGINES][64];

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static void teardown(void)
{
    if (h.pid > 0)
        kvr_harness_stop(&h);
    if (feed.pid > 0)
        feed_stop(&feed);
    if (table[0])
        shm_unlink(table);
    if (sim_pid > 0 && kvr_test_stop(sim_pid, SIGTERM, 5000) == 0)
        unlink(sim_log);
    sim_pid = 0;
    char path[256];
    snprintf(path, sizeof path, "%s/tokenizer.json", model_dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", model_dir);
    unlink(path);
    rmdir(model_dir);
    unlink(decisions);
    rmdir(scratch);
}

TestSuite(cache_state_e2e, .fini = teardown, .timeout = 90.);

/* GET path on port, its body parsed (NULL when the answer is not 200 JSON). */
static cJSON *get_json(uint16_t port, const char *path)
{
    char *resp = NULL;
    cJSON *doc = NULL;
    if (kvr_test_http(port, "GET", path, NULL, NULL, &resp, 3000) == 200)
        doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    return doc;
}

/* An engine's figure from the simulator's /admin/state (rank 0), -1 when absent. */
static double sim_state(int engine, const char *field)
{
    char path[64];
    snprintf(path, sizeof path, "/admin/state?engine=%d", engine);
    cJSON *doc = get_json(sim_admin, path);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *rank = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "ranks"), 0);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rank, field);
    double out = cJSON_IsNumber(v) ? v->valuedouble : -1;
    cJSON_Delete(doc);
    return out;
}

static bool all_subscribed(void *arg)
{
    (void)arg;
    for (int i = 0; i < ENGINES; i++)
        if (sim_state(i, "kv_subscriptions") < 1) {
            kvr_test_sleep_ms(5);
            return false;
        }
    return true;
}

/* A statefeed sample of engine i ("name" or "name{...tier}"), -1 when absent. */
static double feed_metric(const char *name, int engine, const char *tier)
{
    char *resp = NULL, want[256];
    if (kvr_test_http(feed_metrics, "GET", "/metrics", NULL, NULL, &resp, 3000) != 200) {
        free(resp);
        return -1;
    }
    if (tier)
        snprintf(want, sizeof want, "\n%s{engine=\"%s\",tier=\"%s\"} ", name, urls[engine], tier);
    else
        snprintf(want, sizeof want, "\n%s{engine=\"%s\"} ", name, urls[engine]);
    const char *at = strstr(resp, want);
    double v = at ? strtod(at + strlen(want), NULL) : -1;
    free(resp);
    return v;
}

typedef struct {
    const char *name, *tier;
    int engine;
    double want; /* < 0: statefeed's blocks equal the simulator's hashed blocks */
} feed_wait_t;

static bool feed_reached(void *arg)
{
    const feed_wait_t *w = arg;
    double want = w->want >= 0 ? w->want : sim_state(w->engine, "hashed_blocks");
    double v = feed_metric(w->name, w->engine, w->tier);
    if (want > 0 && v == want)
        return true;
    kvr_test_sleep_ms(5);
    return false;
}

static void wait_feed(const char *name, int engine, const char *tier, double want)
{
    feed_wait_t w = {name, tier, engine, want};
    cr_assert(kvr_test_wait_until(feed_reached, &w, WAIT_MS), "%s of engine %d stayed at %g", name,
              engine, feed_metric(name, engine, tier));
}

/* The simulator (tokenizing as the router does), statefeed with the table, kvroute in mode. */
static void start(const char *mode)
{
    kvr_test_unique_name(scratch, sizeof scratch, "/tmp/kvr-cache-e2e");
    cr_assert_eq(mkdir(scratch, 0700), 0);
    snprintf(model_dir, sizeof model_dir, "%s/tiny", scratch);
    cr_assert_eq(mkdir(model_dir, 0700), 0);
    write_file(model_dir, "tokenizer.json", k_tiny_tokenizer_json);
    write_file(model_dir, "tokenizer_config.json", "{\"bos_token\":\"<s>\"}");
    snprintf(decisions, sizeof decisions, "%s/decisions.jsonl", scratch);
    snprintf(sim_log, sizeof sim_log, "%s.sim.log", scratch);

    sim_port = kvr_test_free_port_range(ENGINES);
    kv_port = kvr_test_free_port_range(ENGINES);
    sim_admin = kvr_test_free_port();
    feed_metrics = kvr_test_free_port();
    cr_assert(sim_port && kv_port && sim_admin && feed_metrics, "no free ports");
    char port[16], admin[16], kv[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(admin, sizeof admin, "%u", sim_admin);
    snprintf(kv, sizeof kv, "%u", kv_port);
    snprintf(engines, sizeof engines, "%d", ENGINES);
    char *sim_argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                        "--engines",
                        engines,
                        "--port",
                        port,
                        "--admin-port",
                        admin,
                        "--kv-events-port",
                        kv,
                        "--model",
                        "tiny",
                        "--tokenizer",
                        model_dir,
                        NULL};
    sim_pid = kvr_test_spawn(sim_argv, sim_log);
    cr_assert_gt(sim_pid, 0);
    cr_assert(kvr_test_wait_port(sim_admin, 5000), "kvroute-sim did not start; see %s", sim_log);
    for (int i = 0; i < ENGINES; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000));

    static char specs[ENGINES][256], listen[32];
    const char *feed_args[2 * ENGINES + 8];
    size_t k = 0;
    for (int i = 0; i < ENGINES; i++) {
        feed_url(urls[i], sizeof urls[i], (uint16_t)(sim_port + i));
        snprintf(specs[i], sizeof specs[i], "%s,kv_events=%u", urls[i], kv_port + i);
        feed_args[k++] = "--engine";
        feed_args[k++] = specs[i];
    }
    snprintf(listen, sizeof listen, "127.0.0.1:%u", feed_metrics);
    feed_args[k++] = "--listen";
    feed_args[k++] = listen;
    feed_args[k++] = "--cache-index-mb";
    feed_args[k++] = "1";
    feed_args[k] = NULL;
    cr_assert(feed_start(&feed, feed_args), "statefeed did not start; see %s", feed.log_path);
    snprintf(table, sizeof table, "%s-residency", feed.shm_name);
    /* A PUB drops what it sends before a subscription arrives. */
    cr_assert(kvr_test_wait_until(all_subscribed, NULL, WAIT_MS), "statefeed never subscribed");

    static char tokenizer[256];
    snprintf(tokenizer, sizeof tokenizer, "tiny=%s", model_dir);
    const char *extra[2 * ENGINES + 20];
    k = 0;
    for (int i = 0; i < ENGINES; i++) {
        extra[k++] = "--engine";
        extra[k++] = urls[i];
    }
    const char *rest[] = {
        "--es",        "1",       "--shm",    feed.shm_name, "--cache-state",  mode,
        "--tokenizer", tokenizer, "--policy", "lmetric",     "--decision-log", decisions,
        "--log-level", "info",    NULL};
    for (size_t i = 0; rest[i]; i++)
        extra[k++] = rest[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
}

/*
 * A prompt of at least blocks 16-token blocks in the tiny tokenizer: words
 * " a" (one token) and " ab" (two), their pattern drawn from seed, so prompts
 * of different seeds part in their first block.
 */
static char *prompt(unsigned seed, unsigned blocks, const char *tail)
{
    size_t words = (size_t)blocks * 16;
    char *text = malloc(words * 3 + strlen(tail) + 1);
    size_t n = 0;
    for (uint64_t i = 0; i < words; i++) {
        uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)seed * 0xBF58476D1CE4E5B9ull;
        x ^= x >> 31;
        x *= 0x94D049BB133111EBull;
        text[n++] = ' ';
        text[n++] = 'a';
        if ((x >> 40) & 1)
            text[n++] = 'b';
    }
    strcpy(text + n, tail);
    return text;
}

/* A completion of text sent to port; its X-Request-ID into id (may be NULL). */
static void complete(uint16_t port, const char *text, char *id, size_t cap)
{
    char *body = malloc(strlen(text) + 128);
    sprintf(body, "{\"model\":\"tiny\",\"max_tokens\":1,\"prompt\":\"%s\"}", text);
    char *resp = NULL;
    int st = kvr_test_http(port, "POST", "/v1/completions", "Content-Type: application/json\r\n",
                           body, &resp, 10000);
    free(body);
    cr_assert_eq(st, 200, "completion refused: %s", resp ? resp : "(no answer)");
    if (id)
        cr_assert_not_null(kvr_harness_header(resp, "X-Request-ID", id, cap));
    free(resp);
}

typedef struct {
    const char *id;
    cJSON *record;
} record_wait_t;

static bool record_there(void *arg)
{
    record_wait_t *w = arg;
    FILE *f = fopen(decisions, "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        cJSON *doc = cJSON_Parse(line);
        const cJSON *rid = cJSON_GetObjectItemCaseSensitive(doc, "request_id");
        if (cJSON_IsString(rid) && strcmp(rid->valuestring, w->id) == 0) {
            w->record = doc;
            fclose(f);
            return true;
        }
        cJSON_Delete(doc);
    }
    if (f)
        fclose(f);
    kvr_test_sleep_ms(5);
    return false;
}

/* Routes text through kvroute and returns its decision-log record (the caller deletes it). */
static cJSON *route(const char *text)
{
    char id[128];
    complete(h.port, text, id, sizeof id);
    record_wait_t w = {id, NULL};
    cr_assert(kvr_test_wait_until(record_there, &w, WAIT_MS), "no decision record for %s", id);
    return w.record;
}

static const char *str_of(const cJSON *rec, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, field);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num_of(const cJSON *rec, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, field);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* The prefix is placed on HOLDER behind the router's back; the table holds what the engine does. */
static double place_prefix(const char *text)
{
    complete((uint16_t)(sim_port + HOLDER), text, NULL, 0);
    wait_feed("kvroute_statefeed_kv_blocks", HOLDER, "GPU", -1);
    return feed_metric("kvroute_statefeed_kv_blocks", HOLDER, "GPU");
}

static void events_follow_the_engine(const char *mode)
{
    start(mode);
    char *a = prompt(1, 8, ""), *a1 = prompt(1, 8, " a b"), *a2 = prompt(1, 8, " b a");
    double held = place_prefix(a);
    cr_assert_geq(held, 8, "the prompt's 8 blocks are held (%g)", held);

    cJSON *rec = route(a1);
    cr_expect_str_eq(str_of(rec, "engine"), urls[HOLDER],
                     "routed to the engine holding the prefix");
    cr_expect_str_eq(str_of(rec, "match_source"), "events");
    cr_expect_geq(num_of(rec, "prefix_match_blocks"), 8);
    const cJSON *m0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(rec, "matches"), 0);
    cr_expect_str_eq(str_of(m0, "engine"), urls[HOLDER]);
    cr_expect_str_eq(str_of(m0, "source"), "events");
    cJSON_Delete(rec);

    /* The engine's event stream restarts (sequence 0): its next batch drops what it held. */
    char *resp = NULL;
    char path[64];
    snprintf(path, sizeof path, "/admin/fault?engine=%d", HOLDER);
    cr_assert_eq(kvr_test_http(sim_admin, "POST", path, NULL, "{\"kv_restart\":true}", &resp, 3000),
                 200);
    free(resp);
    char *b = prompt(2, 2, "");
    complete((uint16_t)(sim_port + HOLDER), b, NULL, 0);
    wait_feed("kvroute_statefeed_kv_resets_total", HOLDER, NULL, 1);
    double after = feed_metric("kvroute_statefeed_kv_blocks", HOLDER, "GPU");
    cr_expect_lt(after, held, "the blocks from before the restart are gone (%g)", after);

    /* The router's own index still remembers sending a1 there; the table says nobody holds it. */
    rec = route(a2);
    cr_expect_str_neq(str_of(rec, "engine"), urls[HOLDER], "the restarted engine is not preferred");
    cr_expect_eq(num_of(rec, "prefix_match_blocks"), 0);
    cr_expect_str_eq(str_of(rec, "match_source"), "events");
    cJSON_Delete(rec);

    /* Two decisions, two lookups: each decision reads the table once. */
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_cache_state_lookups_total"), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_cache_state_hits_total{source=\"events\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_cache_state_fallbacks_total{reason=\"no_token_"
                                        "hashes\"}"),
                 0);
    free(a);
    free(a1);
    free(a2);
    free(b);
}

Test(cache_state_e2e, events_mode_routes_to_the_engine_its_events_name)
{
    events_follow_the_engine("events");
}

Test(cache_state_e2e, auto_mode_routes_to_the_engine_its_events_name)
{
    events_follow_the_engine("auto");
}

Test(cache_state_e2e, own_mode_does_not_know_what_the_router_did_not_send)
{
    start("own");
    char *a = prompt(3, 8, ""), *a1 = prompt(3, 8, " a b");
    cr_assert_geq(place_prefix(a), 8);
    cJSON *rec = route(a1);
    cr_expect_str_neq(str_of(rec, "engine"), urls[HOLDER]);
    cr_expect_eq(num_of(rec, "prefix_match_blocks"), 0);
    cr_expect_str_eq(str_of(rec, "match_source"), "own");
    cJSON_Delete(rec);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_cache_state_lookups_total"), -1,
                 "own never reads the table");
    free(a);
    free(a1);
}
