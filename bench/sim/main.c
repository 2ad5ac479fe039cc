/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-sim: command line, signals, the loop.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/sim.h"
#include "router/tokenizers.h"
#include "common/http_server.h"
#include "common/log.h"
#include "common/options.h"

static const char usage_text[] =
    "Usage: kvroute-sim [options]\n"
    "\n"
    "Simulated LLM inference engines (vLLM or SGLang flavour) for kvroute's tests\n"
    "and benchmarks. Engine i of N listens on --port + i and serves\n"
    "/v1/chat/completions, /v1/completions, /v1/models, /health, /metrics (and for\n"
    "SGLang /generate, /v1/loads, /get_load), plus /admin/fault and /admin/state.\n"
    "\n";

/* What the command line fills: the fleet's configuration and what main() resolves after. */
typedef struct {
    kvr_sim_config_t cfg;
    const char *fault_list;
    const char *prefill_list;
    kvr_log_level_t log_level;
} sim_args_t;

/* "0,3" as engines[0] and engines[3] set; NULL and a one-line error on stderr when not one. */
static bool *engine_list(const char *flag, const char *list, int engines)
{
    bool *set = calloc((size_t)engines, sizeof *set);
    char *copy = strdup(list), *save = NULL;
    if (!set || !copy) {
        fprintf(stderr, "kvroute-sim: out of memory\n");
        goto fail;
    }
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        uint64_t index;
        if (kvr_opt_parse_u64(tok, 0, (uint64_t)engines - 1, &index) < 0) {
            fprintf(stderr, "kvroute-sim: --%s: expected engine indexes in [0, %d], got '%s'\n",
                    flag, engines - 1, tok);
            goto fail;
        }
        set[index] = true;
    }
    free(copy);
    return set;
fail:
    free(copy);
    free(set);
    return NULL;
}

static const char *const flavor_names[] = {"vllm", "sglang", NULL};
static const char *const kv_encoding_names[] = {"map", "array", NULL};

#define T sim_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_HEADING("Fleet:"),
    KVR_OPT_ROW_U64(T, cfg.engines, "engines", "N", "1", 1, 4096,
                    "engines in this process, on consecutive ports"),
    KVR_OPT_ROW_U64(T, cfg.port, "port", "P", "8100", 1, 65535, "first engine's port"),
    KVR_OPT_ROW_STRPTR(T, cfg.host, "host", "ADDR", "127.0.0.1",
                       "address to listen on, IPv4 or IPv6 literal"),
    KVR_OPT_ROW_ENUM(T, cfg.flavor, "flavor", "vllm|sglang", "vllm", flavor_names,
                     "telemetry surfaces and metric names to imitate"),
    KVR_OPT_ROW_BOOL(
        T, cfg.vllm_v0_metrics, "vllm-v0-metrics", NULL,
        "vLLM flavour: publish KV usage under the older name vllm:gpu_cache_usage_perc instead of "
        "vllm:kv_cache_usage_perc"),
    KVR_OPT_ROW_U64(
        T, cfg.dp, "dp", "N", "1", 1, 64,
        "data-parallel ranks per engine; slots and KV are split evenly, requests go to ranks "
        "round-robin"),
    KVR_OPT_ROW_STRPTR(T, cfg.model_name, "model", "NAME", "sim-30b-a3b", "served model name"),
    KVR_OPT_ROW_STRPTR(
        T, cfg.tokenizer_dir, "tokenizer", "DIR", NULL,
        "count and cache prompts in the model's tokens as an engine does: DIR holds its Hugging "
        "Face tokenizer.json and tokenizer_config.json (chat requests through its chat_template, "
        "as kvroute --tokenizer); a request the template or tokenizer refuses is text bytes / 4 "
        "(default: every prompt is text bytes / 4)"),
    KVR_OPT_ROW_STRPTR(
        T, cfg.engine_id_prefix, "engine-id-prefix", "S", NULL,
        "engine id in push frames = S + index (default: the engine's base URL http://HOST:PORT, "
        "as statefeed is configured)"),
    KVR_OPT_ROW_U64(
        T, cfg.admin_port, "admin-port", "P", NULL, 1, 65535,
        "extra fleet-wide admin server (/admin/fault?engine=i|all, /admin/state); it stays up while "
        "engines crash (default off)"),
    KVR_OPT_ROW_U64(T, cfg.max_connections, "max-connections", "N", "4096", 1,
                    KVR_HTTP_MAX_CONNECTIONS_LIMIT,
                    "connections open at once per engine; more are accepted and closed"),
    KVR_OPT_ROW_U64(
        T, cfg.max_connections_per_peer, "max-connections-per-peer", "N", "2048", 0,
        KVR_HTTP_MAX_CONNECTIONS_LIMIT,
        "connections open at once per engine from one IP address (a router is one address); "
        "0 = no per-address limit"),
    KVR_OPT_ROW_HEADING(
        "\nEngine model (per engine; see bench/sim/README.md for why these defaults):"),
    KVR_OPT_ROW_U64(T, cfg.params.max_running, "max-running", "N", "64", 1, 1u << 20,
                    "batch slots, continuous batching"),
    KVR_OPT_ROW_U64(T, cfg.params.prefill_budget, "prefill-budget", "N", "8192", 1, 1u << 24,
                    "tokens scheduled per step, decode tokens included"),
    KVR_OPT_ROW_DOUBLE(T, cfg.params.prefill_tokens_per_s, "prefill-tokens-per-s", "X", "10000", 1,
                       1e9, "prefill throughput"),
    KVR_OPT_ROW_DOUBLE(T, cfg.params.step_base_ms, "step-base-ms", "X", "12", 0, 1e6,
                       "fixed time of one step"),
    KVR_OPT_ROW_DOUBLE(T, cfg.params.step_per_seq_ms, "step-per-seq-ms", "X", "0.15", 0, 1e6,
                       "extra step time per decoding sequence"),
    KVR_OPT_ROW_U64(T, cfg.params.kv_tokens, "kv-tokens", "N", "250000", 64, 1ull << 36,
                    "KV cache capacity in tokens, 16-token blocks"),
    KVR_OPT_ROW_DOUBLE(T, cfg.params.step_scale, "step-scale", "X", "1", 1e-6, 1e6,
                       "multiplies every step time of every engine"),
    KVR_OPT_ROW_DOUBLE(T, cfg.time_scale, "time-scale", "X", "1", 1e-3, 1e6,
                       "simulated seconds per real second: 10 runs everything ten times faster"),
    KVR_OPT_ROW_U64(T, cfg.default_max_tokens, "default-max-tokens", "N", "128", 1, 1u << 24,
                    "output length when a request gives no max_tokens"),
    KVR_OPT_ROW_U64(T, cfg.kv_hold_ms, "kv-hold-ms", "MS", "30000", 1, 3600000,
                    "disaggregated: a prefill's KV (kv_transfer_params do_remote_decode, or an "
                    "SGLang bootstrap room) is held this long for a decode engine; after it, a "
                    "decode naming it fails"),
    KVR_OPT_ROW_DOUBLE(T, cfg.kv_transfer_gbps, "kv-transfer-gbps", "X", "100", 0, 1e6,
                       "disaggregated: a decode starts once its prompt's KV moved from the prefill "
                       "engine at X Gbit/s (simulated time); 0 moves it at once"),
    KVR_OPT_ROW_U64(T, cfg.kv_bytes_per_token, "kv-bytes-per-token", "N", "98304", 1, 1u << 24,
                    "disaggregated: KV bytes of one token, all layers (96 KiB: 48 layers x 4 KV "
                    "heads x 128 dims x K and V x BF16)"),
    KVR_OPT_ROW_STRPTR(T, prefill_list, "prefill-engines", "LIST", NULL,
                       "SGLang's disaggregation: these engine indexes (comma-separated) are "
                       "prefill engines for requests with a bootstrap_room, the others decode "
                       "engines (default none)"),
    KVR_OPT_ROW_U64(T, cfg.bootstrap_port, "bootstrap-port", "P", NULL, 1, 65535,
                    "SGLang's disaggregation: engine i's bootstrap port is P + i, and a decode "
                    "must name its prefill engine's (default unchecked)"),
    KVR_OPT_ROW_U64(T, cfg.max_model_len, "max-model-len", "N", "131072", 16, 1u << 30,
                    "prompt + output limit; longer requests get 400"),
    KVR_OPT_ROW_U64(T, cfg.seed, "seed", "N", "1", 0, UINT64_MAX,
                    "seed of output text and fault draws"),
    KVR_OPT_ROW_HEADING("\nPush (msgpack state frames, schema in common/state_frame.h):"),
    KVR_OPT_ROW_STRPTR(T, cfg.tls_cert, "tls-cert", "FILE", NULL,
                       "serve every engine over TLS with this PEM certificate chain (with "
                       "--tls-key), as an engine behind a TLS terminator"),
    KVR_OPT_ROW_STRPTR(T, cfg.tls_key, "tls-key", "FILE", NULL, "PEM private key of --tls-cert"),
    KVR_OPT_ROW_STRPTR(T, cfg.push, "push", "TARGET", NULL,
                       "unix:PATH (datagram socket) or udp:HOST:PORT (default off)"),
    KVR_OPT_ROW_U64(T, cfg.push_interval_ms, "push-interval-ms", "N", "5", 0, 60000,
                    "at most one frame per engine per N ms while busy"),
    KVR_OPT_ROW_U64(T, cfg.push_idle_ms, "push-idle-ms", "N", "100", 1, 600000,
                    "one frame per engine every N ms regardless"),
    KVR_OPT_ROW_HEADING("\nKV events (vLLM --kv-events-config / SGLang wire, ZMQ):"),
    KVR_OPT_ROW_U64(
        T, cfg.kv_events_port, "kv-events-port", "P", NULL, 1, 65535,
        "publish each rank's KV events (BlockStored when a prompt block becomes a cache hit, "
        "BlockRemoved on eviction) on a ZMQ PUB at tcp://HOST:P + engine * dp + rank (default off)"),
    KVR_OPT_ROW_U64(T, cfg.kv_replay_port, "kv-replay-port", "P", NULL, 1, 65535,
                    "replay ROUTER per rank at P + engine * dp + rank, keeping the last 4096 "
                    "batches (default none)"),
    KVR_OPT_ROW_ENUM(T, cfg.kv_encoding, "kv-events-encoding", "map|array", "map",
                     kv_encoding_names,
                     "map: newer vLLM's events tagged by a type key in a map batch; array: "
                     "positional events, tag first (SGLang, older vLLM)"),
    KVR_OPT_ROW_HEADING("\nFaults (also settable at run time: POST /admin/fault, see README):"),
    KVR_OPT_ROW_STRPTR(T, fault_list, "fault-engines", "LIST", NULL,
                       "comma-separated engine indexes the fault flags apply to (default all)"),
    KVR_OPT_ROW_U64(T, cfg.crash_after_ms, "crash-after-ms", "N", NULL, 1, 1u << 31,
                    "close the port and cut every connection after N ms"),
    KVR_OPT_ROW_BOOL(T, cfg.faults.stalled, "stall", NULL,
                     "accept connections, never answer (admin paths excepted)"),
    KVR_OPT_ROW_U64(T, cfg.faults.slow_metrics_ms, "slow-metrics-ms", "N", NULL, 0, 600000,
                    "answer /metrics, /v1/loads, /get_load after N ms"),
    KVR_OPT_ROW_DOUBLE(T, cfg.faults.error_rate, "error-rate", "X", NULL, 0, 1,
                       "answer this fraction (0..1) of completions with 503"),
    KVR_OPT_ROW_INT(T, cfg.faults.drop_after_tokens, "drop-after-tokens", "K", NULL, 0, 1 << 30,
                    "cut every completion after K output tokens"),
    KVR_OPT_ROW_BOOL(T, cfg.faults.garbage_metrics, "garbage-metrics", NULL,
                     "telemetry endpoints answer unparseable bodies"),
    KVR_OPT_ROW_HEADING(""),
    KVR_OPT_ROW_LOG_LEVEL(T, log_level, "info", "debug, info, warn or error"),
    KVR_OPT_ROW_HELP,
};
#undef T

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
    static sim_args_t args;
    kvr_sim_config_t *const c = &args.cfg;
    c->faults.drop_after_tokens = -1;
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {.name = "kvroute-sim", .head = usage_text};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    kvr_sim_config_t cfg = *c;
    const char *fault_list = args.fault_list;
    kvr_log_level_t level = args.log_level;
    if (cfg.port + cfg.engines - 1 > 65535) {
        fprintf(stderr, "kvroute-sim: --port %d + --engines %d runs past port 65535\n", cfg.port,
                cfg.engines);
        return 2;
    }
    if (cfg.kv_events_port &&
        (int64_t)cfg.kv_events_port + (int64_t)cfg.engines * cfg.dp - 1 > 65535) {
        fprintf(stderr, "kvroute-sim: --kv-events-port runs past port 65535\n");
        return 2;
    }
    if (cfg.kv_replay_port &&
        (int64_t)cfg.kv_replay_port + (int64_t)cfg.engines * cfg.dp - 1 > 65535) {
        fprintf(stderr, "kvroute-sim: --kv-replay-port runs past port 65535\n");
        return 2;
    }
    if ((uint32_t)cfg.dp > cfg.params.max_running) {
        fprintf(stderr, "kvroute-sim: --dp %d exceeds --max-running %u\n", cfg.dp,
                cfg.params.max_running);
        return 2;
    }
    bool *fault_engines = NULL, *prefill_engines = NULL;
    if (fault_list && !(fault_engines = engine_list("fault-engines", fault_list, cfg.engines)))
        return 2;
    cfg.fault_engines = fault_engines;
    if (args.prefill_list &&
        !(prefill_engines = engine_list("prefill-engines", args.prefill_list, cfg.engines)))
        return 2;
    cfg.prefill_engines = prefill_engines;
    if (cfg.bootstrap_port && (int64_t)cfg.bootstrap_port + cfg.engines - 1 > 65535) {
        fprintf(stderr, "kvroute-sim: --bootstrap-port runs past port 65535\n");
        return 2;
    }
    kvr_log_init("kvroute-sim", level);
    if (cfg.tokenizer_dir) {
        char why[640];
        rc = kvr_model_tokens_create(cfg.model_name, cfg.tokenizer_dir, &cfg.tokens, why,
                                     sizeof why);
        if (rc < 0) {
            fprintf(stderr, "kvroute-sim: %s\n", why);
            return 2;
        }
    }
    kvr_http_raise_fd_limit(
        (uint64_t)cfg.max_connections * (uint64_t)(cfg.engines + (cfg.admin_port > 0)), NULL);
    /* libuv writes with writev: a second write to a connection the client has reset raises
     * SIGPIPE, which would end the whole fleet without a word. EPIPE is handled per connection. */
    signal(SIGPIPE, SIG_IGN);

    uv_loop_t *loop = uv_default_loop();
    rc = kvr_sim_fleet_start(&fleet, loop, &cfg);
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
    kvr_model_tokens_unref(cfg.tokens);
    free(fault_engines);
    free(prefill_engines);
    KVR_INFO("sim_stopped");
    return 0;
}
