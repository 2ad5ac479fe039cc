/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-kvrestart: how long a restarted engine's blocks stay in the
 * residency table, with real processes on loopback: one kvroute-sim engine
 * publishing KV events and one kvroute-statefeed (--cache-index-mb 1)
 * subscribed to it. Each round puts a prompt's blocks in the table, then:
 *   kv_restart  POSTs the simulator's kv_restart fault (its event sequence
 *               starts again at 0) and at once a completion, the restarted
 *               engine's first batch; timed from the fault's answer until the
 *               table no longer shows the blocks held before;
 *   killed      SIGKILLs the simulator (the engine dies and is started again);
 *               timed from the kill until the table drops its blocks (health
 *               polls failing --fail-threshold times, period --period-ms).
 * A table read is a walk of the 1 MiB table (about 0.1 ms). Prints each
 * round and the percentiles; asserts nothing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/options.h"
#include "shm_layout/residency.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

typedef struct {
    uint64_t restarts, kills, period_ms;
    char sim[512], feed[512];
} restart_opts_t;

typedef struct {
    const restart_opts_t *o;
    pid_t sim, feed;
    uint16_t port, admin, kv_port;
    char url[64], shm_name[96], table[300], sim_log[160], feed_log[160];
    kvr_shm_t shm;
    kvr_residency_reader_t rd;
    int slot;
} rig_t;

static void fail(rig_t *r, const char *what)
{
    fprintf(stderr, "kvroute-bench-kvrestart: %s (logs %s, %s)\n", what, r->sim_log, r->feed_log);
    if (r->sim > 0)
        kvr_test_stop(r->sim, SIGKILL, 3000);
    if (r->feed > 0)
        kvr_test_stop(r->feed, SIGTERM, 3000);
    kvr_shm_unlink(r->shm_name);
    exit(1);
}

static void start_sim(rig_t *r)
{
    char port[16], admin[16], kv[16];
    snprintf(port, sizeof port, "%u", r->port);
    snprintf(admin, sizeof admin, "%u", r->admin);
    snprintf(kv, sizeof kv, "%u", r->kv_port);
    char *argv[] = {(char *)r->o->sim,  "--port", port,          "--admin-port", admin,
                    "--kv-events-port", kv,       "--kv-tokens", "250000",       NULL};
    r->sim = kvr_test_spawn(argv, r->sim_log);
    if (r->sim <= 0 || !kvr_test_wait_port(r->admin, 10000))
        fail(r, "kvroute-sim did not start");
}

static bool subscribed(void *arg)
{
    rig_t *r = arg;
    char *resp = NULL;
    bool ok = kvr_test_http(r->admin, "GET", "/admin/state", NULL, NULL, &resp, 3000) == 200 &&
              strstr(resp, "\"kv_subscriptions\":0") == NULL &&
              strstr(resp, "\"kv_subscriptions\"") != NULL;
    free(resp);
    if (!ok)
        kvr_test_sleep_ms(5);
    return ok;
}

/* The engine's slot says healthy again (a kill's drop happens on the turn to unhealthy). */
static bool healthy(void *arg)
{
    rig_t *r = arg;
    kvr_engine_state_t s;
    uint64_t age;
    bool ok = kvr_shm_read_slot(&r->shm, (uint32_t)r->slot, kvr_clock_now_ns(), &s, &age) == 0 &&
              (s.flags & KVR_SLOT_HEALTHY) != 0;
    if (!ok)
        kvr_test_sleep_ms(5);
    return ok;
}

static void complete(rig_t *r, unsigned blocks, unsigned seed)
{
    size_t text = (size_t)blocks * 64;
    char *body = malloc(text + 128);
    int n = snprintf(body, 128, "{\"model\":\"m\",\"max_tokens\":1,\"prompt\":\"");
    for (size_t i = 0; i < text; i++)
        body[n + i] = (char)('a' + (i * 7 + i / 5 + (i / 64) * 3) % 26);
    /* the seed in every block: no prompt shares a block with another (the simulator keeps its
     * cache across kv_restart, so a repeated block would publish nothing) */
    for (size_t b = 0; b < blocks; b++) {
        char tag[16];
        int len = snprintf(tag, sizeof tag, "%08u", seed);
        memcpy(body + n + b * 64, tag, (size_t)len);
    }
    sprintf(body + n + text, "\"}");
    char *resp = NULL;
    int st = kvr_test_http(r->port, "POST", "/v1/completions", "Content-Type: application/json\r\n",
                           body, &resp, 5000);
    free(body);
    free(resp);
    if (st != 200)
        fail(r, "a completion was refused");
}

typedef struct {
    rig_t *r;
    uint32_t epoch; /* the engine word's epoch while the old blocks count */
    bool want_gone;
    uint64_t want_entries; /* otherwise: at least this many entries of the slot */
} held_t;

static uint32_t slot_epoch(const rig_t *r)
{
    return (uint32_t)(atomic_load(&r->rd.engine_words[r->slot]) >> 32);
}

/* The old blocks are gone once the slot's epoch moved (or, when none was given, blocks show). */
static bool table_state(void *arg)
{
    held_t *h = arg;
    if (h->want_gone)
        return slot_epoch(h->r) != h->epoch;
    bool shown = kvr_residency_reader_slot_entries(&h->r->rd, (uint32_t)h->r->slot) >=
                 h->want_entries;
    if (!shown)
        kvr_test_sleep_ms(2);
    return shown;
}

static void fill(rig_t *r, unsigned seed)
{
    uint64_t before = kvr_residency_reader_slot_entries(&r->rd, (uint32_t)r->slot);
    complete(r, 10, seed);
    held_t h = {r, 0, false, before + 10};
    if (!kvr_test_wait_until(table_state, &h, 10000))
        fail(r, "the prompt's blocks never showed in the table");
}

static double wait_gone(rig_t *r, uint32_t epoch, uint64_t t0)
{
    held_t h = {r, epoch, true, 0};
    if (!kvr_test_wait_until(table_state, &h, 20000))
        fail(r, "the restarted engine's blocks never left the table");
    return (double)(kvr_clock_now_ns() - t0) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summary(const char *mode, double *ms, size_t n)
{
    if (n == 0)
        return;
    qsort(ms, n, sizeof *ms, cmp_double);
    printf("restart mode=%-10s rounds=%zu min_ms=%.1f p50_ms=%.1f p90_ms=%.1f max_ms=%.1f\n", mode,
           n, ms[0], ms[n / 2], ms[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1], ms[n - 1]);
}

#define T restart_opts_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, restarts, "restarts", "N", "20", 0, 10000, "kv_restart rounds"),
    KVR_OPT_ROW_U64(T, kills, "kills", "N", "5", 0, 1000, "rounds where the simulator is killed"),
    KVR_OPT_ROW_U64(T, period_ms, "period-ms", "MS", "50", 1, 10000, "statefeed's --period-ms"),
    KVR_OPT_ROW_STRING(T, sim, "sim", "PATH", "build/plain/bench/sim/kvroute-sim",
                       "the kvroute-sim program"),
    KVR_OPT_ROW_STRING(T, feed, "feed", "PATH", "build/plain/statefeed/kvroute-statefeed",
                       "the kvroute-statefeed program"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    static restart_opts_t o;
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-bench-kvrestart",
        .head = "usage: kvroute-bench-kvrestart [--restarts N] [--kills N] [--sim PATH] [--feed "
                "PATH]\nHow long a restarted engine's blocks stay in the residency table.\n"};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    static rig_t r;
    r.o = &o;
    r.port = kvr_test_free_port_range(2);
    r.admin = (uint16_t)(r.port + 1);
    r.kv_port = kvr_test_free_port();
    if (!r.port || !r.kv_port)
        fail(&r, "no free ports");
    char base[64];
    kvr_test_unique_name(base, sizeof base, "kvr-bench-kvrestart");
    snprintf(r.shm_name, sizeof r.shm_name, "/%s", base);
    snprintf(r.sim_log, sizeof r.sim_log, "/tmp/%s-sim.log", base);
    snprintf(r.feed_log, sizeof r.feed_log, "/tmp/%s-feed.log", base);
    snprintf(r.url, sizeof r.url, "http://127.0.0.1:%u", r.port);
    start_sim(&r);
    char engine[160], period[16];
    snprintf(engine, sizeof engine, "%s,kv_events=%u", r.url, r.kv_port);
    snprintf(period, sizeof period, "%llu", (unsigned long long)o.period_ms);
    char *feed_argv[] = {o.feed, "--engine",         engine, "--shm", r.shm_name, "--period-ms",
                         period, "--cache-index-mb", "1",    NULL};
    r.feed = kvr_test_spawn(feed_argv, r.feed_log);
    if (r.feed <= 0 || !kvr_test_wait_until(subscribed, &r, 10000))
        fail(&r, "statefeed never subscribed");
    if (kvr_shm_open(&r.shm, r.shm_name) != 0 || (r.slot = kvr_shm_find(&r.shm, r.url)) < 0 ||
        kvr_residency_name(r.table, sizeof r.table, r.shm_name) != 0 ||
        kvr_residency_reader_open(&r.rd, r.table, geteuid()) != 0)
        fail(&r, "no segment or table");
    printf("# one engine (kvroute-sim), statefeed --period-ms %llu --cache-index-mb 1\n",
           (unsigned long long)o.period_ms);
    double *ms = calloc(o.restarts + o.kills + 1, sizeof *ms);
    unsigned seed = 1;
    for (uint64_t i = 0; i < o.restarts; i++) {
        fill(&r, seed++);
        uint32_t epoch = slot_epoch(&r);
        char *resp = NULL;
        int st = kvr_test_http(r.admin, "POST", "/admin/fault?engine=0",
                               "Content-Type: application/json\r\n", "{\"kv_restart\":true}", &resp,
                               3000);
        free(resp);
        if (st != 200)
            fail(&r, "the kv_restart fault was refused");
        uint64_t t0 = kvr_clock_now_ns();
        complete(&r, 3, 1000 + seed++);
        ms[i] = wait_gone(&r, epoch, t0);
        printf("round mode=kv_restart n=%llu ms=%.1f\n", (unsigned long long)i, ms[i]);
    }
    summary("kv_restart", ms, o.restarts);
    for (uint64_t i = 0; i < o.kills; i++) {
        fill(&r, seed++);
        uint32_t epoch = slot_epoch(&r);
        uint64_t t0 = kvr_clock_now_ns();
        kvr_test_stop(r.sim, SIGKILL, 3000);
        r.sim = 0;
        ms[i] = wait_gone(&r, epoch, t0);
        printf("round mode=killed n=%llu ms=%.1f\n", (unsigned long long)i, ms[i]);
        start_sim(&r);
        if (!kvr_test_wait_until(subscribed, &r, 20000) || !kvr_test_wait_until(healthy, &r, 20000))
            fail(&r, "statefeed never took the restarted engine again");
    }
    summary("killed", ms, o.kills);
    free(ms);
    kvr_residency_reader_close(&r.rd);
    kvr_shm_close(&r.shm);
    kvr_test_stop(r.sim, SIGTERM, 3000);
    kvr_test_stop(r.feed, SIGTERM, 3000);
    kvr_shm_unlink(r.shm_name);
    unlink(r.sim_log);
    unlink(r.feed_log);
    return 0;
}
