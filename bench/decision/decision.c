/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-decision: what one routing decision costs, without JSON.
 *
 * Part 1 hashes routing text into chained 64-byte block hashes (the work
 * the router does per request before any policy runs) and prints GB/s.
 * Part 2 fills each policy's prefix index with live sessions (each
 * session's 2k-token history sent to one engine), then times session
 * continuations of a given prompt size: pick (the index walk and scoring)
 * and on_dispatch (recording the prompt in the index) separately, since the
 * router runs both on its one event-loop thread for every request.
 * --fleet instead times every registered policy's pick at fleet scale (64,
 * 1,000 and 10,000 engines) on 8k-token prompts whose block hashes are
 * computed from text as the router computes them.
 *
 *   kvroute-bench-decision [--quick] [--policies a,b,...] [--engines N] [--sessions N]
 *                          [--tokens N] [--no-hash] [--fleet] [policy options]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/options.h"
#include "common/prefix_hash.h"
#include "common/rng.h"
#include "router/policy.h"
#include "router/prefix_index.h"

#define TPB KVR_PREFIX_INDEX_TOKENS_PER_BLOCK
#define HISTORY_BLOCKS 128 /* each live session's recorded history: 2k tokens */

static uint64_t rng_state = 0x5eed;

static uint64_t rng_next(void)
{
    return kvr_splitmix64(&rng_state);
}

/* Block hashes of session s's history: distinct per session, chained like real ones. */
static void session_hashes(uint64_t session, uint64_t *out, size_t n)
{
    uint64_t chain = session * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++) {
        chain = (chain ^ (chain >> 29)) * 0xBF58476D1CE4E5B9ull + i;
        out[i] = chain;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void bench_hashing(bool quick)
{
    size_t len = (quick ? 16u : 128u) << 20;
    unsigned char *text = malloc(len);
    uint64_t *hashes = malloc(len / KVR_PREFIX_BLOCK_BYTES * sizeof(uint64_t));
    if (!text || !hashes) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < len; i++)
        text[i] = (unsigned char)(' ' + rng_next() % 95);
    printf("# prefix hashing (xxHash3, chained 64-byte blocks)\n");
    double best = 0;
    for (int round = 0; round < 5; round++) {
        uint64_t t0 = kvr_clock_now_ns();
        size_t n = kvr_prefix_hash_blocks(text, len, hashes, len / KVR_PREFIX_BLOCK_BYTES);
        uint64_t dt = kvr_clock_now_ns() - t0;
        if (n != len / KVR_PREFIX_BLOCK_BYTES)
            abort();
        double gbs = (double)len / (double)dt;
        if (gbs > best)
            best = gbs;
    }
    printf("one-shot %zu MiB: %.2f GB/s (best of 5)\n", len >> 20, best);
    /* The streaming hasher as a body arrives in 16 KiB reads. */
    kvr_prefix_hasher_t h;
    uint64_t t0 = kvr_clock_now_ns();
    kvr_prefix_hasher_init(&h);
    for (size_t off = 0; off < len; off += 16384)
        kvr_prefix_hasher_feed(&h, text + off, len - off < 16384 ? len - off : 16384, hashes,
                               len / KVR_PREFIX_BLOCK_BYTES);
    uint64_t dt = kvr_clock_now_ns() - t0;
    printf("streaming 16 KiB feeds: %.2f GB/s\n", (double)len / (double)dt);
    const uint32_t prompts[] = {2048, 32768, 131072};
    for (size_t p = 0; p < 3; p++) {
        size_t bytes = (size_t)prompts[p] * KVR_BYTES_PER_TOKEN;
        int reps = 200;
        t0 = kvr_clock_now_ns();
        for (int r = 0; r < reps; r++)
            kvr_prefix_hash_blocks(text + (size_t)r * 64, bytes, hashes, bytes / 64);
        dt = kvr_clock_now_ns() - t0;
        printf("hash one %u-token prompt (%zu KiB): %.2f us\n", prompts[p], bytes >> 10,
               (double)dt / reps / 1000.0);
    }
    printf("\n");
    free(text);
    free(hashes);
}

typedef struct {
    const char *policy;
    uint32_t engines;
    uint32_t sessions;
    uint32_t prompt_tokens;
} run_t;

/* n views with loads drawn at random, and their columns as the decision core fills them. */
static void fill_views(kvr_engine_view_t *views, kvr_engine_columns_t *columns, uint32_t n)
{
    if (kvr_engine_columns_init(columns, n) < 0)
        abort();
    for (uint32_t i = 0; i < n; i++) {
        kvr_engine_view_t *v = &views[i];
        memset(v, 0, sizeof(*v));
        v->index = i;
        v->id = "http://engine";
        v->feed_fresh = true;
        v->caps_complete = true;
        v->dp_ranks = 1;
        v->max_running = 64;
        v->real_running = (uint32_t)(rng_next() % 40);
        v->real_waiting = (uint32_t)(rng_next() % 8);
        v->eff_running = v->real_running;
        v->eff_waiting = v->real_waiting;
        v->eff_requests = v->real_running + v->real_waiting;
        v->eff_pending_prefill_tokens = rng_next() % 20000;
        v->eff_kv_tokens = rng_next() % 200000;
        v->kv_usage = (double)(rng_next() % 80) / 100.0;
        v->utilization = -1;
        kvr_engine_columns_set(columns, i, v);
    }
}

/* Loads drift between decisions as they would under traffic: one engine's at a time. */
static void drift_load(kvr_engine_view_t *views, kvr_engine_columns_t *columns, uint32_t n)
{
    size_t i = rng_next() % n;
    views[i].eff_requests = views[i].eff_running = (uint32_t)(rng_next() % 48);
    kvr_engine_columns_set(columns, i, &views[i]);
}

static void run_one(const run_t *run, const kvr_policy_config_t *cfg)
{
    const kvr_policy_ops_t *ops = kvr_policy_find(run->policy);
    void *state = NULL;
    if (!ops || ops->create(cfg, &state) < 0) {
        fprintf(stderr, "cannot create policy %s\n", run->policy);
        exit(1);
    }
    kvr_engine_view_t *views = kvr_engine_views_alloc(run->engines);
    size_t max_blocks = (size_t)run->prompt_tokens / TPB;
    uint64_t *hashes = malloc(max_blocks * sizeof(uint64_t));
    if (!views || !hashes)
        abort();
    kvr_engine_columns_t columns;
    fill_views(views, &columns, run->engines);

    /* Live sessions: each one's history recorded on one engine, oldest first. */
    kvr_route_request_t req = {.request_id = "bench", .block_hashes = hashes, .columns = &columns};
    uint64_t now = 1000 * KVR_NS_PER_SEC;
    uint64_t t0 = kvr_clock_now_ns();
    if (ops->on_dispatch) {
        for (uint32_t s = 0; s < run->sessions; s++) {
            session_hashes(s, hashes, HISTORY_BLOCKS);
            req.n_blocks = HISTORY_BLOCKS;
            req.prompt_tokens = HISTORY_BLOCKS * TPB;
            req.now_ns = now + s * 1000ull;
            ops->on_dispatch(state, &req, s % run->engines);
        }
    }
    double fill_s = (double)(kvr_clock_now_ns() - t0) / 1e9;
    now += run->sessions * 1000ull;

    /*
     * Continuations: a pool of recent sessions re-send their prompt with its
     * last eighth new, as long multi-turn sessions do at a steady context size. The
     * pool is what the fleet's budgets can hold at half capacity, so matches
     * are as deep as a real cache would allow; one untimed pass warms it.
     */
    uint64_t fleet_blocks = (uint64_t)run->engines * (cfg->index_tokens_per_engine / TPB);
    if (fleet_blocks > cfg->index_max_blocks)
        fleet_blocks = cfg->index_max_blocks;
    uint64_t pool = fleet_blocks / max_blocks / 2;
    pool = pool < 1 ? 1 : pool > 256 ? 256 : pool;
    if (pool > run->sessions)
        pool = run->sessions;
    size_t stable = max_blocks - max_blocks / 8;
    uint32_t reps = run->prompt_tokens >= 131072 ? 200 : run->prompt_tokens >= 32768 ? 1000 : 5000;
    uint64_t *pick_ns = malloc(reps * sizeof(uint64_t));
    uint64_t dispatch_total = 0, matched_total = 0;
    for (uint32_t r = 0; r < reps + pool; r++) {
        bool warm = r < pool;
        uint64_t s = run->sessions - 1 - (warm ? r : rng_next() % pool);
        session_hashes(s, hashes, stable);
        for (size_t i = stable; i < max_blocks; i++)
            hashes[i] = rng_next();
        req.n_blocks = max_blocks;
        req.prompt_tokens = run->prompt_tokens;
        req.now_ns = now + r * 1000ull;
        drift_load(views, &columns, run->engines);
        kvr_route_decision_t d = {.view = -1};
        uint64_t a = kvr_clock_now_ns();
        ops->pick(state, &req, views, run->engines, &d);
        uint64_t b = kvr_clock_now_ns();
        if (ops->on_dispatch)
            ops->on_dispatch(state, &req, views[d.view].index);
        uint64_t c = kvr_clock_now_ns();
        if (warm)
            continue;
        pick_ns[r - pool] = b - a;
        dispatch_total += c - b;
        matched_total += d.prefix_match_blocks;
    }
    qsort(pick_ns, reps, sizeof(uint64_t), cmp_u64);
    uint64_t pick_total = 0;
    for (uint32_t r = 0; r < reps; r++)
        pick_total += pick_ns[r];
    double pick_mean = (double)pick_total / reps / 1000.0;
    double dispatch_mean = (double)dispatch_total / reps / 1000.0;
    printf("%-12s %7u %8u %8u | %9.2f %9.2f %9.2f | %10.2f %10.2f | %7.1f/%-6zu %5.1fs\n",
           run->policy, run->engines, run->sessions, run->prompt_tokens, pick_mean,
           (double)pick_ns[reps / 2] / 1000.0, (double)pick_ns[reps * 99 / 100] / 1000.0,
           dispatch_mean, pick_mean + dispatch_mean, (double)matched_total / reps, max_blocks,
           fill_s);
    fflush(stdout);
    free(pick_ns);
    free(hashes);
    kvr_engine_columns_close(&columns);
    free(views);
    ops->destroy(state);
}

/* What ran where: the figures mean little without the machine, the build and the command. */
static void print_context(int argc, char **argv)
{
    char date[32] = "unknown";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    printf("# date: %s\n", date);
    char line[256] = "unknown";
    FILE *f = popen("git -C '" KVR_BENCH_SOURCE_DIR "' rev-parse --short HEAD 2>/dev/null", "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            snprintf(line, sizeof line, "unknown");
        line[strcspn(line, "\n")] = '\0';
        bool dirty = pclose(f) == 0 &&
                     system("git -C '" KVR_BENCH_SOURCE_DIR "' diff --quiet HEAD 2>/dev/null") != 0;
        printf("# commit: %s%s\n", line[0] ? line : "unknown",
               dirty ? " (with uncommitted changes)" : "");
    }
    struct utsname u;
    char model[128] = "unknown cpu";
    FILE *cpu = fopen("/proc/cpuinfo", "r");
    while (cpu && fgets(line, sizeof line, cpu)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(model, sizeof model, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    }
    if (cpu)
        fclose(cpu);
    double load[3] = {0, 0, 0};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = 0;
        fclose(la);
    }
    printf("# machine: %s %s %s, %s, %ld cores, load %.2f %.2f %.2f\n",
           uname(&u) == 0 ? u.sysname : "?", uname(&u) == 0 ? u.release : "?",
           uname(&u) == 0 ? u.machine : "?", model, sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1],
           load[2]);
    printf("# command:");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n\n");
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * KVR_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Printable text of n bytes from a seeded generator: session s's text is the same every time. */
static void fill_text(unsigned char *text, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 0x5eed;
    for (size_t i = 0; i < n; i += 8) {
        x += 0x9E3779B97F4A7C15ull;
        uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            text[i + k] = (unsigned char)(' ' + ((z >> (8 * k)) & 0xff) % 95);
    }
}

/*
 * One policy at one fleet size: live sessions each sent their prompt's
 * stable part to one engine; then continuations of those sessions (the last
 * eighth of the prompt new) are picked. The prompt is text hashed with the
 * router's own hasher, so block count and chaining are the router's.
 */
static void run_fleet(const char *policy, uint32_t engines, uint32_t sessions,
                      uint32_t prompt_tokens, uint32_t reps, const kvr_policy_config_t *cfg)
{
    const kvr_policy_ops_t *ops = kvr_policy_find(policy);
    void *state = NULL;
    if (!ops || ops->create(cfg, &state) < 0) {
        fprintf(stderr, "cannot create policy %s\n", policy);
        exit(1);
    }
    size_t bytes = (size_t)prompt_tokens * KVR_BYTES_PER_TOKEN;
    size_t max_blocks = bytes / KVR_PREFIX_BLOCK_BYTES;
    size_t stable_bytes = bytes - bytes / 8;
    unsigned char *text = malloc(bytes);
    uint64_t *hashes = malloc(max_blocks * sizeof(uint64_t));
    kvr_engine_view_t *views = kvr_engine_views_alloc(engines);
    uint64_t *pick_ns = malloc(reps * sizeof(uint64_t)), *cpu_ns = malloc(reps * sizeof(uint64_t));
    if (!text || !hashes || !views || !pick_ns || !cpu_ns)
        abort();
    kvr_engine_columns_t columns;
    fill_views(views, &columns, engines);
    kvr_route_request_t req = {.request_id = "bench", .block_hashes = hashes, .columns = &columns};
    uint64_t now = 1000 * KVR_NS_PER_SEC;
    if (ops->on_dispatch) {
        for (uint32_t s = 0; s < sessions; s++) {
            fill_text(text, stable_bytes, s);
            req.n_blocks = kvr_prefix_hash_blocks(text, stable_bytes, hashes, max_blocks);
            req.prompt_tokens = (uint32_t)(stable_bytes / KVR_BYTES_PER_TOKEN);
            req.now_ns = now + s * 1000ull;
            ops->on_dispatch(state, &req, s % engines);
        }
    }
    now += sessions * 1000ull;
    uint64_t dispatch_total = 0, matched_total = 0;
    uint32_t warm = reps / 10;
    for (uint32_t r = 0; r < reps + warm; r++) {
        uint64_t s = rng_next() % sessions;
        fill_text(text, stable_bytes, s);
        fill_text(text + stable_bytes, bytes - stable_bytes, rng_next());
        req.n_blocks = kvr_prefix_hash_blocks(text, bytes, hashes, max_blocks);
        req.prompt_tokens = prompt_tokens;
        req.now_ns = now + r * 1000ull;
        drift_load(views, &columns, engines);
        kvr_route_decision_t d = {.view = -1};
        uint64_t ca = thread_cpu_ns();
        uint64_t a = kvr_clock_now_ns();
        ops->pick(state, &req, views, engines, &d);
        uint64_t b = kvr_clock_now_ns();
        uint64_t cb = thread_cpu_ns();
        if (d.view < 0 || (uint32_t)d.view >= engines)
            abort();
        if (ops->on_dispatch)
            ops->on_dispatch(state, &req, views[d.view].index);
        uint64_t c = kvr_clock_now_ns();
        if (r < warm)
            continue;
        pick_ns[r - warm] = b - a;
        cpu_ns[r - warm] = cb - ca;
        dispatch_total += c - b;
        matched_total += d.prefix_match_blocks;
    }
    qsort(pick_ns, reps, sizeof(uint64_t), cmp_u64);
    qsort(cpu_ns, reps, sizeof(uint64_t), cmp_u64);
    uint64_t pick_total = 0;
    for (uint32_t r = 0; r < reps; r++)
        pick_total += pick_ns[r];
    printf("%-14s %7u %8u %7zu | %9.2f %9.2f %9.2f %9.2f | %8.2f %8.2f | %9.2f | %7.1f\n", policy,
           engines, sessions, max_blocks, (double)pick_total / reps / 1000.0,
           (double)pick_ns[reps / 2] / 1000.0, (double)pick_ns[reps * 99 / 100] / 1000.0,
           (double)pick_ns[reps - 1] / 1000.0, (double)cpu_ns[reps / 2] / 1000.0,
           (double)cpu_ns[reps * 99 / 100] / 1000.0, (double)dispatch_total / reps / 1000.0,
           (double)matched_total / reps);
    fflush(stdout);
    free(pick_ns);
    free(cpu_ns);
    kvr_engine_columns_close(&columns);
    free(views);
    free(hashes);
    free(text);
    ops->destroy(state);
}

/* Every registered policy (kvr_policy_list), or the ones asked for, at 64, 1,000 and 10,000 engines. */
static void bench_fleet(const char *only, uint32_t only_engines, uint32_t sessions, uint32_t tokens,
                        bool quick, const kvr_policy_config_t *cfg)
{
    char *names = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&names, &len);
    if (!m)
        abort();
    if (only && only[0])
        fputs(only, m);
    else
        kvr_policy_list(m);
    fclose(m);
    uint32_t fleets[] = {64, 1000, 10000};
    size_t n_fleets = 3;
    if (only_engines) {
        fleets[0] = only_engines;
        n_fleets = 1;
    }
    uint32_t reps = quick ? 300 : 3000;
    printf(
        "# pick at fleet scale: us per pick, %u-token prompts (%u blocks), %u live sessions, %u picks per cell\n",
        tokens, tokens * KVR_BYTES_PER_TOKEN / KVR_PREFIX_BLOCK_BYTES, sessions, reps);
    printf("# index: %llu blocks fleet-wide, %llu tokens per engine\n",
           (unsigned long long)cfg->index_max_blocks,
           (unsigned long long)cfg->index_tokens_per_engine);
    printf(
        "# pick_*: wall clock; cpu_*: this thread's CPU time (what preemption by other load does not add)\n");
    printf("%-14s %7s %8s %7s | %9s %9s %9s %9s | %8s %8s | %9s | %7s\n", "policy", "engines",
           "sessions", "blocks", "pick_mean", "pick_p50", "pick_p99", "pick_max", "cpu_p50",
           "cpu_p99", "dispatch", "matched");
    char *save = NULL;
    for (char *p = strtok_r(names, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (strcmp(p, "sticky") == 0)
            continue; /* load_only's pick, placed once per session by the core */
        for (size_t f = 0; f < n_fleets; f++)
            run_fleet(p, fleets[f], sessions, tokens, reps, cfg);
    }
    free(names);
}

typedef struct bench_args_s {
    bool quick, no_hash, fleet;
    uint32_t engines, sessions, tokens;
    char policies[256];
} bench_args_t;

#define T bench_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_BOOL(T, quick, "quick", NULL, "fewer repetitions: a smoke run in seconds"),
    KVR_OPT_ROW_BOOL(T, no_hash, "no-hash", NULL, "skip the block-hashing figures"),
    KVR_OPT_ROW_BOOL(
        T, fleet, "fleet", NULL,
        "time every registered policy's pick (or --policies') at 64, 1,000 and 10,000 engines "
        "(or --engines) on 8k-token prompts (or --tokens), 2,048 live sessions (or --sessions)"),
    KVR_OPT_ROW_U64(T, engines, "engines", "N", NULL, 0, KVR_MAX_ENGINES,
                    "only this fleet size (default: 8, 64 and 512)"),
    KVR_OPT_ROW_U64(T, sessions, "sessions", "N", NULL, 0, 100000000,
                    "only this many live sessions (default: 1,000 and 100,000)"),
    KVR_OPT_ROW_U64(T, tokens, "tokens", "N", NULL, 0, 100000000,
                    "only this prompt length (default: 2,048, 32,768 and 131,072)"),
    KVR_OPT_ROW_STRING(
        T, policies, "policies", "A,B,...", NULL,
        "the policies to time, comma-separated (default: cache_aware,affinity,lmetric,cost,ttft,"
        "load_only; with --fleet every registered one)"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    bench_args_t args;
    memset(&args, 0, sizeof args);
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    kvr_opt_set_t sets[2] = {
        {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args},
        kvr_policy_config_options(&cfg)};
    kvr_opt_parser_t parser = {.sets = sets, .n_sets = 2};
    char err[512];
    int rc = kvr_opt_defaults(&sets[0], err, sizeof err);
    if (rc == 0)
        rc = kvr_opt_parse_args(&parser, argc, argv, err, sizeof err);
    if (rc == 1) {
        printf(
            "usage: kvroute-bench-decision [flags] [policy options]\n\n"
            "Times each policy's pick and the dispatch bookkeeping on synthetic fleets\n"
            "(engines x live sessions x prompt length) and prints p50/p99 per cell.\n\nflags:\n");
        kvr_opt_help(stdout, &sets[0]);
        printf("\npolicies: ");
        kvr_policy_list(stdout);
        printf("\n\n");
        kvr_opt_help(stdout, &sets[1]);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "kvroute-bench-decision: %s\n", err);
        return 2;
    }
    bool quick = args.quick, hashing = !args.no_hash;
    uint32_t only_engines = args.engines, only_sessions = args.sessions, only_tokens = args.tokens;
    char *policies_arg = args.policies[0]
                             ? args.policies
                             : (char[]){"cache_aware,affinity,lmetric,cost,ttft,load_only"};
    /* cache_aware is measured with owner pressure on: its most expensive path. */
    cfg.owner_pressure = true;
    print_context(argc, argv);
    if (hashing)
        bench_hashing(quick);
    if (args.fleet) {
        bench_fleet(args.policies, only_engines, only_sessions ? only_sessions : 2048,
                    only_tokens ? (only_tokens < TPB ? TPB : only_tokens) : 8192, quick, &cfg);
        return 0;
    }

    uint32_t engines[] = {8, 64, 512};
    uint32_t sessions[] = {1000, 100000};
    uint32_t prompts[] = {2048, 32768, 131072};
    size_t n_engines = 3, n_sessions = 2, n_prompts = 3;
    if (only_engines) {
        engines[0] = only_engines < KVR_MAX_ENGINES ? only_engines : KVR_MAX_ENGINES;
        n_engines = 1;
    }
    if (only_sessions) {
        sessions[0] = only_sessions;
        n_sessions = 1;
    }
    if (only_tokens) {
        prompts[0] = only_tokens < TPB ? TPB : only_tokens;
        n_prompts = 1;
    }
    printf(
        "# decision cost, us per request (pick = index walk + scoring; dispatch = recording the prompt)\n");
    printf(
        "# index: %llu blocks fleet-wide, %llu tokens per engine; sessions hold %u-block histories\n",
        (unsigned long long)cfg.index_max_blocks, (unsigned long long)cfg.index_tokens_per_engine,
        HISTORY_BLOCKS);
    printf("%-12s %7s %8s %8s | %9s %9s %9s | %10s %10s | %-14s %6s\n", "policy", "engines",
           "sessions", "tokens", "pick_mean", "pick_p50", "pick_p99", "dispatch", "total",
           "matched/blocks", "fill");
    char *save = NULL;
    for (char *p = strtok_r(policies_arg, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        for (size_t e = 0; e < n_engines; e++) {
            if (quick && engines[e] == 512)
                continue;
            for (size_t s = 0; s < n_sessions; s++) {
                if (quick && sessions[s] > 1000)
                    continue;
                for (size_t t = 0; t < n_prompts; t++) {
                    if (quick && prompts[t] > 32768)
                        continue;
                    run_t run = {p, engines[e], sessions[s], prompts[t]};
                    run_one(&run, &cfg);
                }
            }
        }
    }
    return 0;
}
