/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim: flags, the trace, the routers, one run, the outputs.
 * The simulation itself is bench/fleetsim/fleet.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/fleetsim/fleetsim.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/policy.h"

#define MAX_ROUTER_ARGS 256

typedef struct {
    kvr_fleet_config_t fleet;
    const char *trace_path, *out_path, *decision_log, *stats_path, *feed_path, *policy;
    int es;
    bool seed_set, quiet, skip_bad;
    kvr_log_level_t log_level;
    char *router_argv[MAX_ROUTER_ARGS];
    int router_argc;
    char *router_args_copy;
    int max_param_engine;          /* highest engine index --engine-params named, -1 none */
} fs_options_t;

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: kvroute-fleetsim --trace FILE [options] [-- ROUTER FLAGS...]\n"
        "Simulates clients, M kvroute routers, a statefeed writer and N engines in virtual time,\n"
        "on one thread: the routers run kvroute's own decision code (policy, shadow counters, pins,\n"
        "feed reader, admission), the engines the model of kvroute-sim (continuous batching, chunked\n"
        "prefill, prefix cache with LRU, preemption), the feed goes through a real /dev/shm segment.\n"
        "The same inputs and seed give byte-identical records. Output: kvroute-replay's records and\n"
        "summary, the router's decision log, a speed line.\n\n"
        "trace and clients:\n"
        "  --trace FILE            JSONL trace: Mooncake fields (timestamp ms, input_length,\n"
        "                          output_length, hash_ids), optional session_id and turn\n"
        "                          (kvroute-tracegen's output); prompt text from hash_ids as\n"
        "                          kvroute-replay makes it\n"
        "  --bad-lines MODE        fatal (default): an invalid line (not JSON, a field missing,\n"
        "                          a negative length, a hash id that is not an integer, a timestamp\n"
        "                          going backwards) stops before the run with its line number;\n"
        "                          skip: each is reported on stderr with its line number, skipped\n"
        "                          and counted\n"
        "  --limit N               only the first N requests of the trace\n"
        "  --rate X                arrival rate multiplier: timestamps are divided by X (default 1)\n"
        "  --arrival-jitter-ms MS  each send moves later by a seeded uniform draw in [0, MS) (default 0)\n"
        "  --closed-loop           a session's turn k+1 is sent when turn k ended (+ --think-ms);\n"
        "                          first turns go at their timestamps\n"
        "  --think-ms MS           closed loop: pause between an answer and the next turn (default 0)\n"
        "  --net-latency-ms MS     one-way latency of each hop: client-router, router-engine (default 0.1)\n"
        "  --block-size N          tokens per hash id (default 512, Mooncake's)\n"
        "  --first-turn-engine I   send the turn 0 of the first --first-turn-sessions sessions that\n"
        "  --first-turn-sessions N have one (file order) straight to engine I, past the routers: a\n"
        "                          forced start state, as kvroute-replay --first-turn-url (default off)\n\n");
    fputs(
        "engines:\n"
        "  --engines N             engines in the fleet (default 4), known as http://127.0.0.1:<20000+i>\n"
        "  --dp N                  data-parallel ranks per engine; slots and KV are split (default 1)\n"
        "  --engine-params SPEC    WHICH:key=value,key=value...; WHICH is an engine index, a range\n"
        "                          A-B or 'all'; repeat the flag, later ones win. Keys (defaults are\n"
        "                          kvroute-sim's): max_running (64), prefill_budget (8192),\n"
        "                          prefill_tokens_per_s (10000), step_base_ms (12), step_per_seq_ms\n"
        "                          (0.15), kv_tokens (250000), step_scale (1: >1 is a slower engine);\n"
        "                          feed: source (scrape: no caps; loads: caps and pending prefill,\n"
        "                          the default; push: also the largest remaining prefill),\n"
        "                          latency_ms (2: poll start to publish), jitter_ms (1: uniform\n"
        "                          extra), stall=FROM-TO (seconds of the run without a sample: the\n"
        "                          slot goes stale), lie=FROM-TO (samples report an idle engine)\n"
        "  --step-jitter X         each step lasts x (1 + X u), u seeded uniform in [-1, 1) (default 0)\n\n", f);
    fputs(
        "feed (read by routers with ES=1 only):\n"
        "  --feed-period-ms MS     a sample per engine every MS (default 50); 0 = no feed at all\n"
        "  --writer-stall FROM-TO  seconds of the run without a writer heartbeat\n\n"
        "routers:\n"
        "  --routers M             routers (default 1), each with its own state; sessions go to them\n"
        "                          round-robin in order of first appearance, as bench/ablate/run.sh\n"
        "                          --routers splits a trace\n"
        "  --policy NAME           routing policy (kvroute --policy; default load_only)\n"
        "  --es 0|1                feed off or on (kvroute --es; default $ES, else 1)\n"
        "  --router-args \"...\"     more kvroute flags, split on spaces; flags after -- too. Every\n"
        "                          kvroute flag works (--placement, --admission, --max-age-ms, policy\n"
        "                          options such as --owner-pressure 1); kvroute-fleetsim --help-router\n"
        "                          lists them. --engine, --shm, --decision-log are the simulator's.\n"
        "  --seed N                seed of step and feed jitter, arrival jitter and the policies'\n"
        "                          draws (default 1)\n\n", f);
    fputs(
        "output:\n"
        "  --out FILE              one record per request, kvroute-replay's format, in end order\n"
        "  --decision-log FILE     the routers' decision log (with M > 1: FILE-r<k> before .jsonl)\n"
        "  --stats FILE            end state as JSON: per engine peak running, prefix hits,\n"
        "                          preemptions; per router shadow counters and feed states\n"
        "  --feed-samples FILE     every slot publish in kvroute-feedsample's format (ES=1), for the\n"
        "                          freshness table of bench/ablate/compare.py\n"
        "  --run-id TAG            request ids are TAG-<trace index> (default fleetsim)\n"
        "  --quiet                 no summary and no progress line\n"
        "  --log-level LEVEL       the routers' log lines: debug, info, warn (default), error\n"
        "  --help, --help-router   this text; kvroute's flags\n\n"
        "Exit status: 0 when every request finished with 200, 1 when some were refused or the run\n"
        "was interrupted, 2 on bad usage, a bad trace or an impossible configuration.\n", f);
}

static int parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= min && v <= max) || !isfinite(v))
        return -EINVAL;
    *out = v;
    return 0;
}

static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s[0] || s[0] == '-' || s[0] == '+')
        return -EINVAL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -EINVAL;
    *out = v;
    return 0;
}

static int parse_window(const char *s, kvr_fleet_window_t *w)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *dash = strchr(buf, '-');
    if (!dash)
        return -EINVAL;
    *dash = '\0';
    double a, b;
    if (parse_double(buf, 0, 1e9, &a) || parse_double(dash + 1, 0, 1e9, &b) || b <= a)
        return -EINVAL;
    *w = (kvr_fleet_window_t){a, b};
    return 0;
}

static int apply_engine_key(kvr_fleet_engine_cfg_t *e, const char *key, const char *v)
{
    kvr_sim_params_t *p = &e->params;
    uint64_t u;
    double d;
    if (strcmp(key, "max_running") == 0) {
        if (parse_uint(v, 1, 1u << 20, &u))
            return -EINVAL;
        p->max_running = (uint32_t)u;
    } else if (strcmp(key, "prefill_budget") == 0) {
        if (parse_uint(v, 1, 1u << 24, &u))
            return -EINVAL;
        p->prefill_budget = (uint32_t)u;
    } else if (strcmp(key, "kv_tokens") == 0) {
        if (parse_uint(v, KVR_SIM_BLOCK_TOKENS, 1ull << 36, &u))
            return -EINVAL;
        p->kv_tokens = u;
    } else if (strcmp(key, "prefill_tokens_per_s") == 0) {
        if (parse_double(v, 1, 1e9, &p->prefill_tokens_per_s))
            return -EINVAL;
    } else if (strcmp(key, "step_base_ms") == 0) {
        if (parse_double(v, 0, 1e6, &p->step_base_ms))
            return -EINVAL;
    } else if (strcmp(key, "step_per_seq_ms") == 0) {
        if (parse_double(v, 0, 1e6, &p->step_per_seq_ms))
            return -EINVAL;
    } else if (strcmp(key, "step_scale") == 0) {
        if (parse_double(v, 1e-3, 1e3, &d))
            return -EINVAL;
        p->step_scale = d;
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
        if (parse_double(v, 0, 1e6, &e->feed.latency_ms))
            return -EINVAL;
    } else if (strcmp(key, "jitter_ms") == 0) {
        if (parse_double(v, 0, 1e6, &e->feed.jitter_ms))
            return -EINVAL;
    } else if (strcmp(key, "stall") == 0) {
        return parse_window(v, &e->feed.stall);
    } else if (strcmp(key, "lie") == 0) {
        return parse_window(v, &e->feed.lie);
    } else {
        return -ENOENT;
    }
    return 0;
}

/* "WHICH:key=value,..." onto the engines it names; checked against --engines later. */
static int apply_engine_params(kvr_fleet_config_t *cfg, const char *spec, int *max_named, char *err,
                               size_t err_len)
{
    char buf[1024];
    if (strlen(spec) >= sizeof buf) {
        snprintf(err, err_len, "--engine-params: longer than %zu bytes", sizeof buf - 1);
        return -EINVAL;
    }
    snprintf(buf, sizeof buf, "%s", spec);
    char *colon = strchr(buf, ':');
    if (!colon) {
        snprintf(err, err_len, "--engine-params %s: expected WHICH:key=value,... (see --help)", spec);
        return -EINVAL;
    }
    *colon = '\0';
    uint64_t from = 0, to = KVR_FLEET_MAX_ENGINES - 1;
    if (strcmp(buf, "all") != 0) {
        char *dash = strchr(buf, '-');
        if (dash)
            *dash = '\0';
        if (parse_uint(buf, 0, KVR_FLEET_MAX_ENGINES - 1, &from) ||
            (dash && parse_uint(dash + 1, from, KVR_FLEET_MAX_ENGINES - 1, &to))) {
            snprintf(err, err_len, "--engine-params %s: WHICH is an engine index, A-B or all", spec);
            return -EINVAL;
        }
        if (!dash)
            to = from;
        if ((int)to > *max_named)
            *max_named = (int)to;
    }
    char *save = NULL;
    for (char *kv = strtok_r(colon + 1, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, err_len, "--engine-params %s: '%s' is not key=value", spec, kv);
            return -EINVAL;
        }
        *eq = '\0';
        for (uint64_t i = from; i <= to; i++) {
            int rc = apply_engine_key(&cfg->engines[i], kv, eq + 1);
            if (rc == -ENOENT) {
                snprintf(err, err_len, "--engine-params: unknown key '%s' (see --help)", kv);
                return -EINVAL;
            }
            if (rc < 0) {
                snprintf(err, err_len, "--engine-params: %s=%s is not a valid value (see --help)", kv, eq + 1);
                return -EINVAL;
            }
        }
    }
    return 0;
}

static int add_router_arg(fs_options_t *o, char *arg)
{
    if (o->router_argc == MAX_ROUTER_ARGS) {
        fprintf(stderr, "kvroute-fleetsim: more than %d router flags\n", MAX_ROUTER_ARGS);
        return -EINVAL;
    }
    o->router_argv[o->router_argc++] = arg;
    return 0;
}

static int parse_options(int argc, char **argv, fs_options_t *o)
{
    enum {
        O_TRACE = 256, O_BAD, O_LIMIT, O_RATE, O_AJIT, O_CLOSED, O_THINK, O_NET, O_BLOCK, O_FTE, O_FTS,
        O_ENGINES, O_DP, O_EPARAMS, O_SJIT, O_FEED, O_WSTALL, O_ROUTERS, O_POLICY, O_ES, O_RARGS, O_SEED,
        O_OUT, O_DLOG, O_STATS, O_FEEDLOG, O_RUN, O_QUIET, O_LOG, O_HELP_ROUTER,
    };
    static const struct option longopts[] = {
        {"trace", required_argument, 0, O_TRACE}, {"bad-lines", required_argument, 0, O_BAD},
        {"limit", required_argument, 0, O_LIMIT}, {"rate", required_argument, 0, O_RATE},
        {"arrival-jitter-ms", required_argument, 0, O_AJIT}, {"closed-loop", no_argument, 0, O_CLOSED},
        {"think-ms", required_argument, 0, O_THINK}, {"net-latency-ms", required_argument, 0, O_NET},
        {"block-size", required_argument, 0, O_BLOCK}, {"first-turn-engine", required_argument, 0, O_FTE},
        {"first-turn-sessions", required_argument, 0, O_FTS}, {"engines", required_argument, 0, O_ENGINES},
        {"dp", required_argument, 0, O_DP}, {"engine-params", required_argument, 0, O_EPARAMS},
        {"step-jitter", required_argument, 0, O_SJIT}, {"feed-period-ms", required_argument, 0, O_FEED},
        {"writer-stall", required_argument, 0, O_WSTALL}, {"routers", required_argument, 0, O_ROUTERS},
        {"policy", required_argument, 0, O_POLICY}, {"es", required_argument, 0, O_ES},
        {"router-args", required_argument, 0, O_RARGS}, {"seed", required_argument, 0, O_SEED},
        {"out", required_argument, 0, O_OUT}, {"decision-log", required_argument, 0, O_DLOG},
        {"stats", required_argument, 0, O_STATS}, {"feed-samples", required_argument, 0, O_FEEDLOG},
        {"run-id", required_argument, 0, O_RUN},
        {"quiet", no_argument, 0, O_QUIET}, {"log-level", required_argument, 0, O_LOG},
        {"help", no_argument, 0, 'h'}, {"help-router", no_argument, 0, O_HELP_ROUTER}, {0, 0, 0, 0},
    };
    kvr_fleet_config_defaults(&o->fleet);
    o->es = -1;
    o->max_param_engine = -1;
    o->log_level = KVR_LOG_WARN;
    kvr_fleet_config_t *c = &o->fleet;
    int opt;
    uint64_t u;
    char err[256];
    while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        int bad = 0;
        switch (opt) {
        case O_TRACE: o->trace_path = optarg; break;
        case O_BAD:
            if (strcmp(optarg, "fatal") == 0)
                o->skip_bad = false;
            else if (strcmp(optarg, "skip") == 0)
                o->skip_bad = true;
            else
                bad = 1;
            break;
        case O_LIMIT: bad = parse_uint(optarg, 1, 1ull << 40, &u); c->limit = (long)u; break;
        case O_RATE: bad = parse_double(optarg, 1e-6, 1e6, &c->rate); break;
        case O_AJIT: bad = parse_double(optarg, 0, 1e9, &c->arrival_jitter_ms); break;
        case O_CLOSED: c->closed_loop = true; break;
        case O_THINK: bad = parse_double(optarg, 0, 1e9, &c->think_ms); break;
        case O_NET: bad = parse_double(optarg, 0, 1e6, &c->net_latency_ms); break;
        case O_BLOCK: bad = parse_uint(optarg, 1, 1000000, &u); c->block_size = (uint32_t)u; break;
        case O_FTE: bad = parse_uint(optarg, 0, KVR_FLEET_MAX_ENGINES - 1, &u); c->first_turn_engine = (int)u; break;
        case O_FTS: bad = parse_uint(optarg, 0, 1u << 30, &u); c->first_turn_sessions = (uint32_t)u; break;
        case O_ENGINES: bad = parse_uint(optarg, 0, KVR_FLEET_MAX_ENGINES, &u); c->n_engines = (uint32_t)u; break;
        case O_DP: bad = parse_uint(optarg, 1, KVR_FLEET_MAX_DP, &u); c->dp = (uint32_t)u; break;
        case O_EPARAMS:
            if (apply_engine_params(c, optarg, &o->max_param_engine, err, sizeof err) < 0) {
                fprintf(stderr, "kvroute-fleetsim: %s\n", err);
                return -EINVAL;
            }
            break;
        case O_SJIT: bad = parse_double(optarg, 0, 0.99, &c->step_jitter); break;
        case O_FEED: bad = parse_double(optarg, 0, 1e6, &c->feed_period_ms) ||
                           (c->feed_period_ms > 0 && c->feed_period_ms < 0.001); break;
        case O_WSTALL: bad = parse_window(optarg, &c->writer_stall); break;
        case O_ROUTERS: bad = parse_uint(optarg, 0, KVR_FLEET_MAX_ROUTERS, &u); c->n_routers = (uint32_t)u; break;
        case O_POLICY: o->policy = optarg; break;
        case O_ES:
            bad = strcmp(optarg, "0") != 0 && strcmp(optarg, "1") != 0;
            o->es = optarg[0] == '1';
            break;
        case O_RARGS: {
            free(o->router_args_copy);
            o->router_args_copy = kvr_xstrdup(optarg);
            char *save = NULL;
            for (char *t = strtok_r(o->router_args_copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
                if (add_router_arg(o, t) < 0)
                    return -EINVAL;
            break;
        }
        case O_SEED: bad = parse_uint(optarg, 0, UINT64_MAX, &c->seed); o->seed_set = true; break;
        case O_OUT: o->out_path = optarg; break;
        case O_DLOG: o->decision_log = optarg; break;
        case O_STATS: o->stats_path = optarg; break;
        case O_FEEDLOG: o->feed_path = optarg; break;
        case O_RUN: c->run_id = optarg; break;
        case O_QUIET: o->quiet = true; break;
        case O_LOG: bad = kvr_log_level_parse(optarg, &o->log_level) < 0; break;
        case 'h': usage(stdout); exit(0);
        case O_HELP_ROUTER: kvr_fleet_router_help(stdout); exit(0);
        default: fprintf(stderr, "kvroute-fleetsim: see --help\n"); return -EINVAL;
        }
        if (bad) {
            const char *name = "?";
            for (const struct option *l = longopts; l->name; l++)
                if (l->val == opt)
                    name = l->name;
            fprintf(stderr, "kvroute-fleetsim: invalid value '%s' for --%s (see --help)\n", optarg, name);
            return -EINVAL;
        }
    }
    /* getopt stops at "--": the rest are router flags. */
    for (int i = optind; i < argc; i++)
        if (add_router_arg(o, argv[i]) < 0)
            return -EINVAL;
    if (optind < argc && strcmp(argv[optind - 1], "--") != 0) {
        fprintf(stderr, "kvroute-fleetsim: unexpected argument '%s' (router flags go after --; see --help)\n",
                argv[optind]);
        return -EINVAL;
    }
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
    if (o->max_param_engine >= (int)c->n_engines) {
        fprintf(stderr, "kvroute-fleetsim: --engine-params names engine %d; the fleet has engines 0..%u\n",
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
            fprintf(stderr, "kvroute-fleetsim: engine %u: max_running %u is below --dp %u (a rank needs a slot)\n", i,
                    c->engines[i].params.max_running, c->dp);
            return -EINVAL;
        }
        if (c->engines[i].params.kv_tokens / c->dp < KVR_SIM_BLOCK_TOKENS) {
            fprintf(stderr, "kvroute-fleetsim: engine %u: kv_tokens %llu split over --dp %u is less than one block\n",
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
    kvr_trace_load_opts_t lopts = {.skip_bad = o.skip_bad, .ordered = true, .report = stderr};
    char err[512];
    int rc = kvr_trace_load_opts(&trace, o.trace_path, &lopts, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute-fleetsim: %s\n", err);
        return 2;
    }
    if (lopts.skipped)
        fprintf(stderr, "kvroute-fleetsim: %zu invalid trace lines skipped, %zu requests kept\n", lopts.skipped,
                trace.len);
    int status = 2;
    if (trace.len == 0) {
        fprintf(stderr, "kvroute-fleetsim: %s holds no request\n", o.trace_path);
        goto out_trace;
    }

    char urls[KVR_FLEET_MAX_ENGINES][64];
    char *url_list[KVR_FLEET_MAX_ENGINES];
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
                fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", log_path, strerror(errno));
                goto out_routers;
            }
            fclose(t);
        }
        kvr_fleet_router_setup_t setup = {
            .engine_urls = url_list, .n_engines = o.fleet.n_engines, .shm_name = shm_name,
            .decision_log = log_path, .es = o.es, .policy = o.policy, .seed_set = true, .seed = o.fleet.seed,
        };
        if (kvr_fleet_router_create(&routers[k], o.router_argc, o.router_argv, &setup, err, sizeof err) < 0) {
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
    rc = kvr_fleet_create(&fleet, &o.fleet, &trace, routers, feed, shm_name, records, err, sizeof err);
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
            fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", o.feed_path, strerror(errno));
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
            fprintf(stderr, "kvroute-fleetsim: cannot write %s: %s\n", o.stats_path, strerror(errno));
        else {
            kvr_fleet_write_stats(fleet, s);
            fclose(s);
        }
    }
    double virt_s = (double)st.virtual_ns / 1e9;
    printf("fleetsim   virtual %.1f s in %.2f s wall, %.2f s CPU: %.0fx real time, %.0f requests per wall second "
           "(%.0f per CPU second), %llu events, fleet peak running %u\n",
           virt_s, st.wall_s, st.cpu_s, st.wall_s > 0 ? virt_s / st.wall_s : 0.0,
           st.wall_s > 0 ? (double)st.finished / st.wall_s : 0.0, st.cpu_s > 0 ? (double)st.finished / st.cpu_s : 0.0,
           (unsigned long long)st.events, st.fleet_peak_running);
    status = (st.refused || kvr_fleet_interrupted() || st.finished < st.sent) ? 1 : 0;
    kvr_fleet_destroy(fleet);
    goto out_trace;

out_routers:
    for (uint32_t k = 0; k < o.fleet.n_routers; k++)
        kvr_fleet_router_destroy(routers[k]);
out_trace:
    kvr_trace_free(&trace);
    free(o.router_args_copy);
    return status;
}
