/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-sim: command line, signals, the loop.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/sim.h"
#include "common/log.h"

static const char usage_text[] =
    "Usage: kvroute-sim [options]\n"
    "\n"
    "Simulated LLM inference engines (vLLM or SGLang flavour) for kvroute's tests\n"
    "and benchmarks. Engine i of N listens on --port + i and serves\n"
    "/v1/chat/completions, /v1/completions, /v1/models, /health, /metrics (and for\n"
    "SGLang /generate, /v1/loads, /get_load), plus /admin/fault and /admin/state.\n"
    "\n"
    "Fleet:\n"
    "  --engines N             engines in this process, on consecutive ports (default 1)\n"
    "  --port P                first engine's port (default 8100)\n"
    "  --host ADDR             address to listen on, IPv4 or IPv6 literal (default 127.0.0.1)\n"
    "  --flavor vllm|sglang    telemetry surfaces and metric names to imitate (default vllm)\n"
    "  --vllm-v0-metrics       vLLM flavour: publish KV usage under the older name\n"
    "                          vllm:gpu_cache_usage_perc instead of vllm:kv_cache_usage_perc\n"
    "  --dp N                  data-parallel ranks per engine; slots and KV are split\n"
    "                          evenly, requests go to ranks round-robin (default 1)\n"
    "  --model NAME            served model name (default sim-30b-a3b)\n"
    "  --engine-id-prefix S    engine id in push frames = S + index (default: the engine's\n"
    "                          base URL http://HOST:PORT, as statefeed is configured)\n"
    "  --admin-port P          extra fleet-wide admin server (/admin/fault?engine=i|all,\n"
    "                          /admin/state); it stays up while engines crash (default off)\n"
    "\n"
    "Engine model (per engine; see bench/sim/README.md for why these defaults):\n"
    "  --max-running N         batch slots, continuous batching (default 64)\n"
    "  --prefill-budget N      tokens scheduled per step, decode tokens included (default 8192)\n"
    "  --prefill-tokens-per-s X  prefill throughput (default 10000)\n"
    "  --step-base-ms X        fixed time of one step (default 12)\n"
    "  --step-per-seq-ms X     extra step time per decoding sequence (default 0.15)\n"
    "  --kv-tokens N           KV cache capacity in tokens, 16-token blocks (default 250000)\n"
    "  --step-scale X          multiplies every step time of every engine (default 1)\n"
    "  --time-scale X          simulated seconds per real second: 10 runs everything ten\n"
    "                          times faster (default 1)\n"
    "  --default-max-tokens N  output length when a request gives no max_tokens (default 128)\n"
    "  --max-model-len N       prompt + output limit; longer requests get 400 (default 131072)\n"
    "  --seed N                seed of output text and fault draws (default 1)\n"
    "\n"
    "Push (msgpack state frames, schema in common/state_frame.h):\n"
    "  --push TARGET           unix:PATH (datagram socket) or udp:HOST:PORT (default off)\n"
    "  --push-interval-ms N    at most one frame per engine per N ms while busy (default 5)\n"
    "  --push-idle-ms N        one frame per engine every N ms regardless (default 100)\n"
    "\n"
    "Faults (also settable at run time: POST /admin/fault, see README):\n"
    "  --fault-engines LIST    comma-separated engine indexes the fault flags apply to\n"
    "                          (default all)\n"
    "  --crash-after-ms N      close the port and cut every connection after N ms\n"
    "  --stall                 accept connections, never answer (admin paths excepted)\n"
    "  --slow-metrics-ms N     answer /metrics, /v1/loads, /get_load after N ms\n"
    "  --error-rate X          answer this fraction (0..1) of completions with 503\n"
    "  --drop-after-tokens K   cut every completion after K output tokens\n"
    "  --garbage-metrics       telemetry endpoints answer unparseable bodies\n"
    "\n"
    "  --log-level L           debug, info, warn or error (default info)\n"
    "  --help                  this text\n";

enum {
    OPT_ENGINES = 256, OPT_PORT, OPT_HOST, OPT_FLAVOR, OPT_DP, OPT_MODEL, OPT_ENGINE_ID_PREFIX,
    OPT_ADMIN_PORT, OPT_MAX_RUNNING, OPT_PREFILL_BUDGET, OPT_PREFILL_RATE, OPT_STEP_BASE,
    OPT_STEP_PER_SEQ, OPT_KV_TOKENS, OPT_STEP_SCALE, OPT_TIME_SCALE, OPT_DEFAULT_MAX_TOKENS,
    OPT_MAX_MODEL_LEN, OPT_SEED, OPT_PUSH, OPT_PUSH_INTERVAL, OPT_PUSH_IDLE, OPT_FAULT_ENGINES,
    OPT_CRASH_AFTER, OPT_STALL, OPT_SLOW_METRICS, OPT_ERROR_RATE, OPT_DROP_AFTER,
    OPT_GARBAGE_METRICS, OPT_LOG_LEVEL, OPT_HELP, OPT_VLLM_V0,
};

static const struct option options[] = {
    {"engines", required_argument, 0, OPT_ENGINES},
    {"port", required_argument, 0, OPT_PORT},
    {"host", required_argument, 0, OPT_HOST},
    {"flavor", required_argument, 0, OPT_FLAVOR},
    {"dp", required_argument, 0, OPT_DP},
    {"vllm-v0-metrics", no_argument, 0, OPT_VLLM_V0},
    {"model", required_argument, 0, OPT_MODEL},
    {"engine-id-prefix", required_argument, 0, OPT_ENGINE_ID_PREFIX},
    {"admin-port", required_argument, 0, OPT_ADMIN_PORT},
    {"max-running", required_argument, 0, OPT_MAX_RUNNING},
    {"prefill-budget", required_argument, 0, OPT_PREFILL_BUDGET},
    {"prefill-tokens-per-s", required_argument, 0, OPT_PREFILL_RATE},
    {"step-base-ms", required_argument, 0, OPT_STEP_BASE},
    {"step-per-seq-ms", required_argument, 0, OPT_STEP_PER_SEQ},
    {"kv-tokens", required_argument, 0, OPT_KV_TOKENS},
    {"step-scale", required_argument, 0, OPT_STEP_SCALE},
    {"time-scale", required_argument, 0, OPT_TIME_SCALE},
    {"default-max-tokens", required_argument, 0, OPT_DEFAULT_MAX_TOKENS},
    {"max-model-len", required_argument, 0, OPT_MAX_MODEL_LEN},
    {"seed", required_argument, 0, OPT_SEED},
    {"push", required_argument, 0, OPT_PUSH},
    {"push-interval-ms", required_argument, 0, OPT_PUSH_INTERVAL},
    {"push-idle-ms", required_argument, 0, OPT_PUSH_IDLE},
    {"fault-engines", required_argument, 0, OPT_FAULT_ENGINES},
    {"crash-after-ms", required_argument, 0, OPT_CRASH_AFTER},
    {"stall", no_argument, 0, OPT_STALL},
    {"slow-metrics-ms", required_argument, 0, OPT_SLOW_METRICS},
    {"error-rate", required_argument, 0, OPT_ERROR_RATE},
    {"drop-after-tokens", required_argument, 0, OPT_DROP_AFTER},
    {"garbage-metrics", no_argument, 0, OPT_GARBAGE_METRICS},
    {"log-level", required_argument, 0, OPT_LOG_LEVEL},
    {"help", no_argument, 0, OPT_HELP},
    {0, 0, 0, 0},
};

static const char *current_flag;

static void die(const char *what)
{
    fprintf(stderr, "kvroute-sim: --%s: %s (see --help)\n", current_flag, what);
    exit(2);
}

static unsigned long long parse_uint(const char *s, unsigned long long min, unsigned long long max)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || !*s || s[0] == '-' || v < min || v > max) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected an integer in %llu..%llu, got \"%s\"", min, max, s);
        die(msg);
    }
    return v;
}

static double parse_double(const char *s, double min, double max)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !*s || !(v >= min && v <= max)) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected a number in %g..%g, got \"%s\"", min, max, s);
        die(msg);
    }
    return v;
}

static kvr_sim_fleet_t fleet;
static uv_signal_t sigint, sigterm;

static void on_signal(uv_signal_t *h, int signum)
{
    (void)h;
    KVR_INFO("sim_stopping signal=%d", signum);
    uv_close((uv_handle_t *)&sigint, NULL);
    uv_close((uv_handle_t *)&sigterm, NULL);
    kvr_sim_fleet_stop(&fleet);
}

int main(int argc, char **argv)
{
    kvr_sim_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.host = "127.0.0.1";
    cfg.port = 8100;
    cfg.engines = 1;
    cfg.dp = 1;
    cfg.flavor = KVR_SIM_FLAVOR_VLLM;
    cfg.model_name = "sim-30b-a3b";
    kvr_sim_params_defaults(&cfg.params);
    cfg.time_scale = 1.0;
    cfg.seed = 1;
    cfg.default_max_tokens = 128;
    cfg.max_model_len = 131072;
    cfg.push_interval_ms = 5;
    cfg.push_idle_ms = 100;
    cfg.faults.drop_after_tokens = -1;
    const char *fault_list = NULL;
    kvr_log_level_t level = KVR_LOG_INFO;

    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        current_flag = "";
        for (const struct option *o = options; o->name; o++)
            if (o->val == opt)
                current_flag = o->name;
        switch (opt) {
        case OPT_ENGINES: cfg.engines = (int)parse_uint(optarg, 1, 4096); break;
        case OPT_PORT: cfg.port = (int)parse_uint(optarg, 1, 65535); break;
        case OPT_HOST: cfg.host = optarg; break;
        case OPT_FLAVOR:
            if (strcmp(optarg, "vllm") == 0)
                cfg.flavor = KVR_SIM_FLAVOR_VLLM;
            else if (strcmp(optarg, "sglang") == 0)
                cfg.flavor = KVR_SIM_FLAVOR_SGLANG;
            else
                die("expected vllm or sglang");
            break;
        case OPT_VLLM_V0: cfg.vllm_v0_metrics = true; break;
        case OPT_DP: cfg.dp = (int)parse_uint(optarg, 1, 64); break;
        case OPT_MODEL: cfg.model_name = optarg; break;
        case OPT_ENGINE_ID_PREFIX: cfg.engine_id_prefix = optarg; break;
        case OPT_ADMIN_PORT: cfg.admin_port = (int)parse_uint(optarg, 1, 65535); break;
        case OPT_MAX_RUNNING: cfg.params.max_running = (uint32_t)parse_uint(optarg, 1, 1u << 20); break;
        case OPT_PREFILL_BUDGET: cfg.params.prefill_budget = (uint32_t)parse_uint(optarg, 1, 1u << 24); break;
        case OPT_PREFILL_RATE: cfg.params.prefill_tokens_per_s = parse_double(optarg, 1, 1e9); break;
        case OPT_STEP_BASE: cfg.params.step_base_ms = parse_double(optarg, 0, 1e6); break;
        case OPT_STEP_PER_SEQ: cfg.params.step_per_seq_ms = parse_double(optarg, 0, 1e6); break;
        case OPT_KV_TOKENS: cfg.params.kv_tokens = parse_uint(optarg, 64, 1ull << 36); break;
        case OPT_STEP_SCALE: cfg.params.step_scale = parse_double(optarg, 1e-6, 1e6); break;
        case OPT_TIME_SCALE: cfg.time_scale = parse_double(optarg, 1e-3, 1e6); break;
        case OPT_DEFAULT_MAX_TOKENS: cfg.default_max_tokens = (uint32_t)parse_uint(optarg, 1, 1u << 24); break;
        case OPT_MAX_MODEL_LEN: cfg.max_model_len = (uint32_t)parse_uint(optarg, 16, 1u << 30); break;
        case OPT_SEED: cfg.seed = parse_uint(optarg, 0, UINT64_MAX); break;
        case OPT_PUSH: cfg.push = optarg; break;
        case OPT_PUSH_INTERVAL: cfg.push_interval_ms = (uint32_t)parse_uint(optarg, 0, 60000); break;
        case OPT_PUSH_IDLE: cfg.push_idle_ms = (uint32_t)parse_uint(optarg, 1, 600000); break;
        case OPT_FAULT_ENGINES: fault_list = optarg; break;
        case OPT_CRASH_AFTER: cfg.crash_after_ms = (uint32_t)parse_uint(optarg, 1, 1u << 31); break;
        case OPT_STALL: cfg.faults.stalled = true; break;
        case OPT_SLOW_METRICS: cfg.faults.slow_metrics_ms = (uint32_t)parse_uint(optarg, 0, 600000); break;
        case OPT_ERROR_RATE: cfg.faults.error_rate = parse_double(optarg, 0, 1); break;
        case OPT_DROP_AFTER: cfg.faults.drop_after_tokens = (int32_t)parse_uint(optarg, 0, 1u << 30); break;
        case OPT_GARBAGE_METRICS: cfg.faults.garbage_metrics = true; break;
        case OPT_LOG_LEVEL:
            if (kvr_log_level_parse(optarg, &level) < 0)
                die("expected debug, info, warn or error");
            break;
        case OPT_HELP:
        case 'h': fputs(usage_text, stdout); return 0;
        default: fprintf(stderr, "kvroute-sim: unknown option (see --help)\n"); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "kvroute-sim: unexpected argument \"%s\" (see --help)\n", argv[optind]);
        return 2;
    }
    if (cfg.port + cfg.engines - 1 > 65535) {
        fprintf(stderr, "kvroute-sim: --port %d + --engines %d runs past port 65535\n", cfg.port,
                cfg.engines);
        return 2;
    }
    if ((uint32_t)cfg.dp > cfg.params.max_running) {
        fprintf(stderr, "kvroute-sim: --dp %d exceeds --max-running %u\n", cfg.dp,
                cfg.params.max_running);
        return 2;
    }
    bool *fault_engines = NULL;
    if (fault_list) {
        current_flag = "fault-engines";
        fault_engines = calloc((size_t)cfg.engines, sizeof *fault_engines);
        char *copy = strdup(fault_list), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            fault_engines[parse_uint(tok, 0, (unsigned long long)cfg.engines - 1)] = true;
        free(copy);
        cfg.fault_engines = fault_engines;
    }
    kvr_log_init("kvroute-sim", level);
    /* libuv writes with writev: a second write to a connection the client has reset raises
     * SIGPIPE, which would end the whole fleet without a word. EPIPE is handled per connection. */
    signal(SIGPIPE, SIG_IGN);

    uv_loop_t *loop = uv_default_loop();
    int rc = kvr_sim_fleet_start(&fleet, loop, &cfg);
    if (rc < 0) {
        fprintf(stderr, "kvroute-sim: cannot start: %s\n", uv_strerror(rc));
        return 1;
    }
    uv_signal_init(loop, &sigint);
    uv_signal_init(loop, &sigterm);
    uv_signal_start(&sigint, on_signal, SIGINT);
    uv_signal_start(&sigterm, on_signal, SIGTERM);
    KVR_INFO("sim_ready engines=%d first_port=%d flavor=%s time_scale=%g seed=%llu", cfg.engines,
             cfg.port, cfg.flavor == KVR_SIM_FLAVOR_SGLANG ? "sglang" : "vllm", cfg.time_scale,
             (unsigned long long)cfg.seed);
    uv_run(loop, UV_RUN_DEFAULT);
    kvr_sim_fleet_free(&fleet);
    uv_loop_close(loop);
    free(fault_engines);
    KVR_INFO("sim_stopped");
    return 0;
}
