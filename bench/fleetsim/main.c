/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim: flags, the trace, the routers, one run, the outputs.
 * The simulation itself is bench/fleetsim/fleet.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/fleetsim/fleetsim.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/options.h"
#include "common/xmalloc.h"
#include "router/policy.h"

#define MAX_ROUTER_ARGS 256

typedef struct {
    kvr_fleet_config_t fleet;
    const char *trace_path, *out_path, *decision_log, *stats_path, *feed_path, *policy;
    const char *tokenizer_dir; /* --tokenizer DIR, NULL: bytes/4 */
    int router_tokens;         /* 0 exact, 1 estimate */
    int es;                    /* -1: the router's default */
    int bad_lines;             /* 0 fatal, 1 skip */
    int admission_order;       /* kvr_admission_order_t: 0 after, 1 before */
    bool quiet, help_router;
    kvr_log_level_t log_level;
    char *router_argv[MAX_ROUTER_ARGS];
    int router_argc;
    char *router_args_copy;
    int max_param_engine; /* highest engine index --engine-params named, -1 none */
} fs_options_t;

static const char usage_head[] =
    "Usage: kvroute-fleetsim --trace FILE [options] [-- ROUTER FLAGS...]\n"
    "Simulates clients, M kvroute routers, a statefeed writer and N engines in virtual time,\n"
    "on one thread: the routers run kvroute's own decision code (policy, shadow counters, pins,\n"
    "feed reader, admission), the engines the model of kvroute-sim (continuous batching, chunked\n"
    "prefill, prefix cache with LRU, preemption), the feed goes through a real /dev/shm segment.\n"
    "The same inputs and seed give byte-identical records, decision logs and stats. Output:\n"
    "kvroute-replay's records and summary, the router's decision log, a speed line.\n\n";

static const char usage_tail[] =
    "\nEvery kvroute flag passes through (--router-args or after --): --placement, --admission,\n"
    "--max-age-ms, policy options such as --owner-pressure 1; kvroute-fleetsim --help-router lists\n"
    "them. --engine, --shm and --decision-log are the simulator's.\n\n"
    "Exit status: 0 when every request finished with 200, 1 when some were refused or the run\n"
    "was interrupted, 2 on bad usage, a bad trace or an impossible configuration.\n";

static int parse_window(const char *s, kvr_fleet_window_t *w)
{
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return -EINVAL;
    snprintf(buf, sizeof buf, "%s", s);
    char *dash = strchr(buf, '-');
    if (!dash)
        return -EINVAL;
    *dash = '\0';
    double a, b;
    if (kvr_opt_parse_double(buf, 0, 1e9, &a) || kvr_opt_parse_double(dash + 1, 0, 1e9, &b) ||
        b <= a)
        return -EINVAL;
    *w = (kvr_fleet_window_t){a, b};
    return 0;
}

static int apply_engine_key(kvr_fleet_engine_cfg_t *e, const char *key, const char *v)
{
    kvr_sim_params_t *p = &e->params;
    uint64_t u;
    if (strcmp(key, "max_running") == 0) {
        if (kvr_opt_parse_u64(v, 1, 1u << 20, &u))
            return -EINVAL;
        p->max_running = (uint32_t)u;
    } else if (strcmp(key, "prefill_budget") == 0) {
        if (kvr_opt_parse_u64(v, 1, 1u << 24, &u))
            return -EINVAL;
        p->prefill_budget = (uint32_t)u;
    } else if (strcmp(key, "kv_tokens") == 0) {
        return kvr_opt_parse_u64(v, KVR_SIM_BLOCK_TOKENS, 1ull << 36, &p->kv_tokens) ? -EINVAL : 0;
    } else if (strcmp(key, "prefill_tokens_per_s") == 0) {
        return kvr_opt_parse_double(v, 1, 1e9, &p->prefill_tokens_per_s) ? -EINVAL : 0;
    } else if (strcmp(key, "step_base_ms") == 0) {
        return kvr_opt_parse_double(v, 0, 1e6, &p->step_base_ms) ? -EINVAL : 0;
    } else if (strcmp(key, "step_per_seq_ms") == 0) {
        return kvr_opt_parse_double(v, 0, 1e6, &p->step_per_seq_ms) ? -EINVAL : 0;
    } else if (strcmp(key, "step_scale") == 0) {
        return kvr_opt_parse_double(v, 1e-3, 1e3, &p->step_scale) ? -EINVAL : 0;
    } else if (strcmp(key, "source") == 0) {
        if (strcmp(v, "scrape") == 0)
            e->feed.source = KVR_SOURCE_SCRAPE;
        else if (strcmp(v, "loads") == 0)
            e->feed.source = KVR_SOURCE_LOADS;
        else if (strcmp(v, "push") == 0)
            e->feed.source = KVR_SOURCE_PUSH;
        else
            return -EINVAL;
    } else if (strcmp(key, "latency_ms") == 0) {
        return kvr_opt_parse_double(v, 0, 1e6, &e->feed.latency_ms) ? -EINVAL : 0;
    } else if (strcmp(key, "jitter_ms") == 0) {
        return kvr_opt_parse_double(v, 0, 1e6, &e->feed.jitter_ms) ? -EINVAL : 0;
    } else if (strcmp(key, "stall") == 0) {
        return parse_window(v, &e->feed.stall);
    } else if (strcmp(key, "lie") == 0) {
        return parse_window(v, &e->feed.lie);
    } else {
        return -ENOENT;
    }
    return 0;
}

/* --engine-params "WHICH:key=value,...": onto the engines it names; checked against --engines later. */
static int opt_engine_params(const kvr_opt_t *opt, void *obj, const char *spec, char *err,
                             size_t err_len)
{
    fs_options_t *o = obj;
    kvr_fleet_config_t *cfg = &o->fleet;
    char buf[1024];
    if (strlen(spec) >= sizeof buf)
        return kvr_opt_error(err, err_len, opt->name, "at most 1023 bytes", spec);
    snprintf(buf, sizeof buf, "%s", spec);
    char *colon = strchr(buf, ':');
    if (!colon)
        return kvr_opt_error(err, err_len, opt->name, "WHICH:key=value,... (see --help)", spec);
    *colon = '\0';
    uint64_t from = 0, to = KVR_FLEET_MAX_ENGINES - 1;
    if (strcmp(buf, "all") != 0) {
        char *dash = strchr(buf, '-');
        if (dash)
            *dash = '\0';
        if (kvr_opt_parse_u64(buf, 0, KVR_FLEET_MAX_ENGINES - 1, &from) ||
            (dash && kvr_opt_parse_u64(dash + 1, from, KVR_FLEET_MAX_ENGINES - 1, &to)))
            return kvr_opt_error(err, err_len, opt->name,
                                 "WHICH (an engine index, A-B or all) before ':'", spec);
        if (!dash)
            to = from;
        if ((int)to > o->max_param_engine)
            o->max_param_engine = (int)to;
    }
    char *save = NULL;
    for (char *kv = strtok_r(colon + 1, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return kvr_opt_error(err, err_len, opt->name, "key=value pairs after ':'", spec);
        *eq = '\0';
        for (uint64_t i = from; i <= to; i++) {
            int rc = apply_engine_key(&cfg->engines[i], kv, eq + 1);
            if (rc == -ENOENT) {
                snprintf(err, err_len, "--engine-params: unknown key '%s' (see --help)", kv);
                return -EINVAL;
            }
            if (rc < 0) {
                snprintf(err, err_len, "--engine-params: %s=%s is not a valid value (see --help)",
                         kv, eq + 1);
                return -EINVAL;
            }
        }
    }
    return 0;
}

static int add_router_arg(fs_options_t *o, char *arg, char *err, size_t err_len)
{
    if (o->router_argc == MAX_ROUTER_ARGS) {
        snprintf(err, err_len, "more than %d router flags", MAX_ROUTER_ARGS);
        return -EINVAL;
    }
    o->router_argv[o->router_argc++] = arg;
    return 0;
}

static int opt_router_args(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                           size_t err_len)
{
    (void)opt;
    fs_options_t *o = obj;
    free(o->router_args_copy);
    o->router_args_copy = kvr_xstrdup(value);
    char *save = NULL;
    for (char *t = strtok_r(o->router_args_copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (add_router_arg(o, t, err, err_len) < 0)
            return -EINVAL;
    return 0;
}

static int opt_writer_stall(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len)
{
    fs_options_t *o = obj;
    if (parse_window(value, &o->fleet.writer_stall) < 0)
        return kvr_opt_error(err, err_len, opt->name, "FROM-TO, seconds, FROM < TO", value);
    return 0;
}

static const char *const es_names[] = {"0", "1", NULL};
static const char *const bad_line_names[] = {"fatal", "skip", NULL};
static const char *const router_token_names[] = {"exact", "estimate", NULL};
static const char *const order_names[] = {"after", "before",
                                          NULL}; /* kvr_admission_order_t's order */

#define T fs_options_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_HEADING("trace and clients:"),
    KVR_OPT_ROW_STRPTR(
        T, trace_path, "trace", "FILE", NULL,
        "JSONL trace: Mooncake fields (timestamp ms, input_length, output_length, hash_ids), "
        "optional session_id and turn (kvroute-tracegen's output); prompt text from hash_ids "
        "as kvroute-replay makes it"),
    KVR_OPT_ROW_ENUM(
        T, bad_lines, "bad-lines", "MODE", "fatal", bad_line_names,
        "fatal: an invalid line (not JSON, a field missing, a negative length, a hash id that "
        "is not an integer, a timestamp going backwards) stops before the run with its line "
        "number; skip: each is reported on stderr with its line number, skipped and counted"),
    KVR_OPT_ROW_U64(T, fleet.limit, "limit", "N", NULL, 1, INT64_MAX,
                    "only the first N requests of the trace"),
    KVR_OPT_ROW_DOUBLE(T, fleet.rate, "rate", "X", "1", 1e-6, 1e6,
                       "arrival rate multiplier: timestamps are divided by X"),
    KVR_OPT_ROW_DOUBLE(T, fleet.arrival_jitter_ms, "arrival-jitter-ms", "MS", "0", 0, 1e9,
                       "each send moves later by a seeded uniform draw in [0, MS)"),
    KVR_OPT_ROW_BOOL(
        T, fleet.closed_loop, "closed-loop", NULL,
        "a session's turn k+1 is sent when turn k ended (+ --think-ms); first turns go at their "
        "timestamps"),
    KVR_OPT_ROW_DOUBLE(T, fleet.think_ms, "think-ms", "MS", "0", 0, 1e9,
                       "closed loop: pause between an answer and the next turn"),
    KVR_OPT_ROW_DOUBLE(T, fleet.net_latency_ms, "net-latency-ms", "MS", "0.1", 0, 1e6,
                       "one-way latency of each hop: client-router, router-engine"),
    KVR_OPT_ROW_DOUBLE(
        T, fleet.read_round_ms, "read-round-ms", "MS", "0.5", 0, 1e6,
        "a request body reaches the router (or a forced first turn its engine) MS later "
        "for each 64 KiB it has beyond the first, as a server reading one 64 KiB buffer "
        "per connection per loop turn completes the small bodies of a same-millisecond "
        "group first; 0: every body arrives whole, in send order"),
    KVR_OPT_ROW_U64(T, fleet.block_size, "block-size", "N", "512", 1, 1000000,
                    "tokens per hash id (Mooncake uses 512)"),
    KVR_OPT_ROW_STRPTR(
        T, tokenizer_dir, "tokenizer", "DIR", NULL,
        "count prompts in a model's tokens (DIR: its tokenizer.json and tokenizer_config.json): "
        "the replayer's text as one user message, through the chat template and tokenizer, as "
        "kvroute-sim --tokenizer counts it; the engines prefill and cache those tokens "
        "(16-token blocks). Without it a prompt is the trace's input_length"),
    KVR_OPT_ROW_ENUM(
        T, router_tokens, "router-tokens", "exact|estimate", "exact", router_token_names,
        "with --tokenizer: exact, the routers count and key on the same tokens (kvroute "
        "--tokenizer --block-tokens 16); estimate, on the text at bytes/4 in 64-byte blocks "
        "(kvroute without --tokenizer)"),
    KVR_OPT_ROW_INT(
        T, fleet.first_turn_engine, "first-turn-engine", "I", NULL, 0, KVR_FLEET_MAX_ENGINES - 1,
        "send the turn 0 of the first --first-turn-sessions sessions that have one (file order) "
        "straight to engine I, past the routers: a forced start state, as kvroute-replay "
        "--first-turn-url (default off)"),
    KVR_OPT_ROW_U64(T, fleet.first_turn_sessions, "first-turn-sessions", "N", "0", 0, 1u << 30,
                    "how many sessions --first-turn-engine takes"),
    KVR_OPT_ROW_DOUBLE(
        T, fleet.retry_429_ms, "retry-429-ms", "MS", "0", 0, 1e9,
        "a client answered 429 sends the same request again MS later (0: no retry, the 429 "
        "is the request's end); its TTFT and e2e count from the first send"),
    KVR_OPT_ROW_U64(
        T, fleet.retry_429_max, "retry-429-max", "N", "20", 1, 1000000,
        "with --retry-429-ms: retries per request; the 429 after the last ends it as refused"),
    KVR_OPT_ROW_HEADING("engines:"),
    KVR_OPT_ROW_U64(T, fleet.n_engines, "engines", "N", "4", 0, KVR_FLEET_MAX_ENGINES,
                    "engines in the fleet, known as http://127.0.0.1:<20000+i>"),
    KVR_OPT_ROW_U64(T, fleet.dp, "dp", "N", "1", 1, KVR_FLEET_MAX_DP,
                    "data-parallel ranks per engine; slots and KV are split"),
    KVR_OPT_ROW_CUSTOM(
        "engine-params", "SPEC", NULL, opt_engine_params, "WHICH:key=value,...", KVR_OPT_REPEAT,
        "SPEC is WHICH:key=value,...; WHICH an engine index, a range A-B or 'all'; later ones win. Keys (defaults are "
        "kvroute-sim's): max_running (64), prefill_budget (8192), prefill_tokens_per_s (10000), "
        "step_base_ms (12), step_per_seq_ms (0.15), kv_tokens (250000), step_scale (1; > 1 is a "
        "slower engine); feed: source (scrape: no caps; loads: caps and pending prefill, the "
        "default; push: also the largest remaining prefill), latency_ms (2: poll start to "
        "publish), jitter_ms (1: uniform extra), stall=FROM-TO (seconds of the run without a "
        "sample: the slot goes stale), lie=FROM-TO (samples report an idle engine)"),
    KVR_OPT_ROW_BOOL(
        T, fleet.head_at_first_token, "head-at-first-token", NULL,
        "engines send their response head with the first token, not on accepting the request "
        "(the router's prefill charge then lasts until the first token; streaming engines do "
        "not do this)"),
    KVR_OPT_ROW_DOUBLE(T, fleet.step_jitter, "step-jitter", "X", "0", 0, 0.99,
                       "each step lasts x (1 + X u), u a seeded uniform draw in [-1, 1)"),
    KVR_OPT_ROW_U64(T, fleet.disagg.prefill_engines, "prefill-engines", "N", "0", 0,
                    KVR_FLEET_MAX_ENGINES,
                    "disaggregated: engines 0..N-1 prefill only, the rest decode only; the "
                    "routers route each request as kvroute --pd-protocol vllm does, to a prefill "
                    "engine by --policy, then to a decode engine by --pd-decode-policy (0: "
                    "colocated)"),
    KVR_OPT_ROW_DOUBLE(T, fleet.disagg.kv_transfer_gbps, "kv-transfer-gbps", "X", "100", 0, 1e6,
                       "disaggregated: a decode starts once its prompt's KV moved from the "
                       "prefill engine at X Gbit/s; 0 moves it at once"),
    KVR_OPT_ROW_U64(T, fleet.disagg.kv_bytes_per_token, "kv-bytes-per-token", "N", "98304", 1,
                    1u << 24,
                    "disaggregated: KV bytes of one token, all layers (96 KiB, as kvroute-sim)"),
    KVR_OPT_ROW_HEADING("feed (read by routers with ES=1 only):"),
    KVR_OPT_ROW_DOUBLE(T, fleet.feed_period_ms, "feed-period-ms", "MS", "50", 0, 1e6,
                       "a sample per engine every MS; 0 = no feed at all"),
    KVR_OPT_ROW_CUSTOM("writer-stall", "FROM-TO", NULL, opt_writer_stall, "FROM-TO, seconds", 0,
                       "seconds of the run without a writer heartbeat"),
    KVR_OPT_ROW_BOOL(
        T, fleet.kv_events, "kv-events", NULL,
        "the engines publish KV events: what each rank's prefix cache stores and evicts reaches "
        "a residency table beside the segment --kv-events-delay-ms later, which the routers "
        "read with kvroute's --cache-state (auto, events, own; needs ES=1)"),
    KVR_OPT_ROW_DOUBLE(
        T, fleet.kv_events_delay_ms, "kv-events-delay-ms", "MS", "50", 0, 1e6,
        "from an engine's store or eviction to the table (the events' stream and statefeed's "
        "apply); 0: the table is the engines' true caches, an oracle"),
    KVR_OPT_ROW_HEADING("routers:"),
    KVR_OPT_ROW_U64(
        T, fleet.n_routers, "routers", "M", "1", 0, KVR_FLEET_MAX_ROUTERS,
        "routers, each with its own state; sessions go to them round-robin in order of first "
        "appearance, as bench/ablate/run.sh --routers splits a trace"),
    KVR_OPT_ROW_STRPTR(T, policy, "policy", "NAME", NULL,
                       "routing policy (kvroute --policy; default load_only)"),
    KVR_OPT_ROW_ENUM(T, es, "es", "0|1", NULL, es_names,
                     "feed off or on (kvroute --es; default $ES, else 1)"),
    KVR_OPT_ROW_CUSTOM("router-args", "\"...\"", NULL, opt_router_args, "kvroute flags", 0,
                       "more kvroute flags, split on spaces (flags after -- too)"),
    KVR_OPT_ROW_ENUM(
        T, admission_order, "admission-order", "after|before", "after", order_names,
        "where the routers' admission (kvroute --admission) sits: after, kvroute's order "
        "(the policy scores, then admission, with a seeding lease to an idle peer); before "
        "reproduces the peer gateway's (SGLang's) ordering for comparison: the engine the "
        "policy's base rule would pick (the cache owner, no owner pressure) is judged first, "
        "with no lease, and a 429 goes back at once when it has no headroom "
        "(running + waiting at max_running + --max-waiting)"),
    KVR_OPT_ROW_U64(
        T, fleet.seed, "seed", "N", "1", 0, UINT64_MAX,
        "seed of the policies' draws, step and feed jitter and arrival jitter, each its own stream"),
    KVR_OPT_ROW_HEADING("output:"),
    KVR_OPT_ROW_STRPTR(T, out_path, "out", "FILE", NULL,
                       "one record per request, kvroute-replay's format, in end order"),
    KVR_OPT_ROW_STRPTR(T, decision_log, "decision-log", "FILE", NULL,
                       "the routers' decision log (with M > 1: FILE-r<k> before the extension)"),
    KVR_OPT_ROW_STRPTR(
        T, stats_path, "stats", "FILE", NULL,
        "end state as JSON: per engine peak running, prefix hits, preemptions; per router "
        "shadow counters and feed states"),
    KVR_OPT_ROW_STRPTR(
        T, feed_path, "feed-samples", "FILE", NULL,
        "every slot publish in kvroute-feedsample's format (ES=1), for the freshness table of "
        "bench/ablate/compare.py"),
    KVR_OPT_ROW_STRPTR(T, fleet.run_id, "run-id", "TAG", "fleetsim",
                       "request ids are TAG-<trace index>"),
    KVR_OPT_ROW_BOOL(T, quiet, "quiet", NULL, "no summary and no progress line"),
    KVR_OPT_ROW_LOG_LEVEL(T, log_level, "warn", "the routers' log lines"),
    KVR_OPT_ROW_BOOL(T, help_router, "help-router", NULL,
                     "print kvroute's flags (they pass through) and exit"),
    KVR_OPT_ROW_HELP,
};
#undef T

static int parse_options(int argc, char **argv, fs_options_t *o)
{
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = o};
    char *positional[MAX_ROUTER_ARGS];
    kvr_opt_parser_t parser = {
        .sets = &set, .n_sets = 1, .positional = positional, .max_positional = MAX_ROUTER_ARGS};
    char err[512];
    kvr_fleet_config_defaults(&o->fleet);
    o->es = -1;
    o->max_param_engine = -1;
    o->log_level = KVR_LOG_WARN;
    const kvr_opt_program_t program = {
        .name = "kvroute-fleetsim", .head = usage_head, .tail = usage_tail};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc == 1)
        exit(0);
    if (rc < 0)
        return rc;
    if (o->help_router) {
        kvr_fleet_router_help(stdout);
        exit(0);
    }
    /* Arguments that are not flags are router flags, and only after "--". */
    int dash = argc;
    for (int i = 1; i < argc && dash == argc; i++)
        if (strcmp(argv[i], "--") == 0)
            dash = i;
    for (size_t k = 0; rc == 0 && k < parser.n_positional; k++) {
        int at = 0;
        for (int i = 1; i < argc && !at; i++)
            if (argv[i] == positional[k])
                at = i;
        if (at < dash) {
            snprintf(err, sizeof err,
                     "unexpected argument '%s' (router flags go after --; see --help)",
                     positional[k]);
            rc = -EINVAL;
        } else {
            rc = add_router_arg(o, positional[k], err, sizeof err);
        }
    }
    if (rc < 0) {
        fprintf(stderr, "kvroute-fleetsim: %s\n", err);
        return -EINVAL;
    }
    kvr_fleet_config_t *c = &o->fleet;
    if (!o->trace_path) {
        fprintf(stderr, "kvroute-fleetsim: --trace is required (see --help)\n");
        return -EINVAL;
    }
    if (c->n_engines == 0) {
        fprintf(stderr, "kvroute-fleetsim: --engines 0: a fleet needs at least one engine\n");
        return -EINVAL;
    }
    if (c->n_routers == 0) {
        fprintf(stderr, "kvroute-fleetsim: --routers 0: at least one router is needed\n");
        return -EINVAL;
    }
    char why[160];
    if (kvr_fleet_disagg_check(&c->disagg, c->n_engines, why, sizeof why) < 0) {
        fprintf(stderr, "kvroute-fleetsim: %s\n", why);
        return -EINVAL;
    }
    if (c->feed_period_ms > 0 && c->feed_period_ms < 0.001) {
        fprintf(stderr,
                "kvroute-fleetsim: --feed-period-ms: expected 0 or at least 0.001, got %g\n",
                c->feed_period_ms);
        return -EINVAL;
    }
    if (o->max_param_engine >= (int)c->n_engines) {
        fprintf(stderr,
                "kvroute-fleetsim: --engine-params names engine %d; the fleet has engines 0..%u\n",
                o->max_param_engine, c->n_engines - 1);
        return -EINVAL;
    }
    if (c->first_turn_engine >= (int)c->n_engines) {
        fprintf(stderr, "kvroute-fleetsim: --first-turn-engine %d: the fleet has engines 0..%u\n",
                c->first_turn_engine, c->n_engines - 1);
        return -EINVAL;
    }
    for (uint32_t i = 0; i < c->n_engines; i++) {
        if (c->engines[i].params.max_running < c->dp) {
            fprintf(
                stderr,
                "kvroute-fleetsim: engine %u: max_running %u is below --dp %u (a rank needs a slot)\n",
                i, c->engines[i].params.max_running, c->dp);
            return -EINVAL;
        }
        if (c->engines[i].params.kv_tokens / c->dp < KVR_SIM_BLOCK_TOKENS) {
            fprintf(
                stderr,
                "kvroute-fleetsim: engine %u: kv_tokens %llu split over --dp %u is less than one block\n",
                i, (unsigned long long)c->engines[i].params.kv_tokens, c->dp);
            return -EINVAL;
        }
    }
    return 0;
}

/* decisions.jsonl -> decisions-r2.jsonl: the names bench/ablate/compare.py looks for. */
static void router_log_path(const char *base, uint32_t k, uint32_t n, char *out, size_t len)
{
    if (n == 1) {
        snprintf(out, len, "%s", base);
        return;
    }
    const char *dot = strrchr(base, '.');
    const char *slash = strrchr(base, '/');
    if (!dot || (slash && dot < slash))
        dot = base + strlen(base);
    snprintf(out, len, "%.*s-r%u%s", (int)(dot - base), base, k, dot);
}

int main(int argc, char **argv)
{
    static fs_options_t o;
    if (parse_options(argc, argv, &o) < 0)
        return 2;
    kvr_log_init("kvroute-fleetsim", o.log_level);
    o.fleet.progress = !o.quiet && isatty(STDERR_FILENO);

    kvr_trace_t trace;
    kvr_trace_load_opts_t lopts = {.skip_bad = o.bad_lines == 1, .ordered = true, .report = stderr};
    char err[512];
    int rc = kvr_trace_load_opts(&trace, o.trace_path, &lopts, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute-fleetsim: %s\n", err);
        return 2;
    }
    if (lopts.skipped)
        fprintf(stderr, "kvroute-fleetsim: %zu invalid trace lines skipped, %zu requests kept\n",
                lopts.skipped, trace.len);
    int status = 2;
    if (trace.len == 0) {
        fprintf(stderr, "kvroute-fleetsim: %s holds no request\n", o.trace_path);
        goto out_trace;
    }
    if (o.tokenizer_dir && kvr_fleet_tokens_create(o.tokenizer_dir, o.router_tokens == 0,
                                                   &o.fleet.tokens, err, sizeof err) < 0) {
        fprintf(stderr, "kvroute-fleetsim: --tokenizer %s: %s\n", o.tokenizer_dir, err);
        goto out_trace;
    }

    char urls[KVR_FLEET_MAX_ENGINES][64];
    char *url_list[KVR_FLEET_MAX_ENGINES];
    kvr_engine_role_t roles[KVR_FLEET_MAX_ENGINES];
    for (uint32_t i = 0; i < o.fleet.n_engines; i++)
        roles[i] = kvr_fleet_disagg_role(&o.fleet.disagg, i);
    for (uint32_t i = 0; i < o.fleet.n_engines; i++) {
        kvr_fleet_engine_url(i, urls[i], sizeof urls[i]);
        url_list[i] = urls[i];
    }
    static unsigned run_counter;
    char shm_name[128];
    snprintf(shm_name, sizeof shm_name, "/kvr-fleetsim-%ld-%u", (long)getpid(), run_counter++);

    kvr_fleet_router_t *routers[KVR_FLEET_MAX_ROUTERS] = {0};
    bool feed = false;
    for (uint32_t k = 0; k < o.fleet.n_routers; k++) {
        char log_path[600] = "";
        if (o.decision_log) {
            router_log_path(o.decision_log, k, o.fleet.n_routers, log_path, sizeof log_path);
            /* The router appends; a run's log holds that run only. */
            FILE *t = fopen(log_path, "w");
            if (!t) {
                fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", log_path,
                        strerror(errno));
                goto out_routers;
            }
            fclose(t);
        }
        kvr_fleet_router_setup_t setup = {
            .engine_urls = url_list,
            .n_engines = o.fleet.n_engines,
            .shm_name = shm_name,
            .decision_log = log_path,
            .es = o.es,
            .policy = o.policy,
            .seed_set = true,
            .seed = o.fleet.seed,
            .admission_order = (kvr_admission_order_t)o.admission_order,
            .router_index = (uint32_t)k,
            .engine_roles = o.fleet.disagg.prefill_engines ? roles : NULL,
        };
        if (kvr_fleet_router_create(&routers[k], o.router_argc, o.router_argv, &setup, err,
                                    sizeof err) < 0) {
            fprintf(stderr, "kvroute-fleetsim: %s\n", err);
            goto out_routers;
        }
        feed = feed || kvr_fleet_router_es(routers[k]);
    }

    FILE *records = NULL;
    if (o.out_path && !(records = fopen(o.out_path, "w"))) {
        fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", o.out_path, strerror(errno));
        goto out_routers;
    }
    kvr_fleet_t *fleet = NULL;
    rc = kvr_fleet_create(&fleet, &o.fleet, &trace, routers, feed, shm_name, records, err,
                          sizeof err);
    memset(routers, 0, sizeof routers); /* the fleet owns them now */
    if (rc < 0) {
        fprintf(stderr, "kvroute-fleetsim: %s\n", err);
        kvr_fleet_destroy(fleet);
        if (records)
            fclose(records);
        goto out_trace;
    }
    FILE *feed_log = NULL;
    if (o.feed_path) {
        if (!(feed_log = fopen(o.feed_path, "w")))
            fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", o.feed_path,
                    strerror(errno));
        else
            kvr_fleet_log_feed(fleet, feed_log);
    }
    kvr_fleet_run(fleet);
    if (feed_log && fclose(feed_log) != 0)
        fprintf(stderr, "kvroute-fleetsim: writing %s failed\n", o.feed_path);
    kvr_fleet_stats_t st;
    kvr_fleet_stats(fleet, &st);
    if (records && fclose(records) != 0)
        fprintf(stderr, "kvroute-fleetsim: writing %s failed\n", o.out_path);
    if (!o.quiet) {
        size_t n_selected;
        const kvr_replay_result_t *results = kvr_fleet_results(fleet, &n_selected);
        kvr_replay_print_summary(stdout, &trace, results, n_selected);
    }
    if (o.stats_path) {
        FILE *s = fopen(o.stats_path, "w");
        if (!s)
            fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", o.stats_path,
                    strerror(errno));
        else {
            kvr_fleet_write_stats(fleet, s);
            fclose(s);
        }
    }
    double virt_s = (double)st.virtual_ns / 1e9;
    printf(
        "fleetsim   virtual %.1f s in %.2f s wall, %.2f s CPU: %.0fx real time, %.0f requests per wall second "
        "(%.0f per CPU second), %llu events, fleet peak running %u\n",
        virt_s, st.wall_s, st.cpu_s, st.wall_s > 0 ? virt_s / st.wall_s : 0.0,
        st.wall_s > 0 ? (double)st.finished / st.wall_s : 0.0,
        st.cpu_s > 0 ? (double)st.finished / st.cpu_s : 0.0, (unsigned long long)st.events,
        st.fleet_peak_running);
    if (o.fleet.tokens)
        kvr_fleet_tokens_print_summary(o.fleet.tokens, stdout);
    if (st.answers_429)
        printf("fleetsim   429 answers %llu (retried and final), requests refused %zu\n",
               (unsigned long long)st.answers_429, st.refused);
    status = (st.refused || kvr_fleet_interrupted() || st.finished < st.sent) ? 1 : 0;
    kvr_fleet_destroy(fleet);
    goto out_trace;

out_routers:
    for (uint32_t k = 0; k < o.fleet.n_routers; k++)
        kvr_fleet_router_destroy(routers[k]);
out_trace:
    kvr_fleet_tokens_destroy(o.fleet.tokens);
    kvr_trace_free(&trace);
    free(o.router_args_copy);
    return status;
}
