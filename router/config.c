/* SPDX-License-Identifier: Apache-2.0 */
#include "router/config.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/dns_watch.h"
#include "common/http_server.h"
#include "common/options.h"
#include "router/decide.h"
#include "router/models.h"
#include "router/policy_advice.h"
#include "router/tokenizers.h"

/* The router's rows point into kvr_router_config_t; policy options are a second table. */
static int parse_listen(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len);
static int parse_admin_listen(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len);
static int parse_engine(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len);
static int parse_config(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len);
static int parse_check_config(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len);
static int parse_placement(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                           size_t err_len);
static int parse_session_keys(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len);
static int parse_engine_dns(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                            size_t err_len);
static int parse_tokenizer(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                           size_t err_len);
static int parse_policy_name(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                             size_t err_len);

/* A char[] field holding a registered policy's name, checked where it is given (a file's line). */
#define POLICY_ROW(f, nm, d, h)                                                                    \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_CUSTOM, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f), \
        .arg = "NAME", .def = d, .parse = parse_policy_name, .expected = "a policy name",          \
        .help = h                                                                                  \
    }

static const char *const admission_names[] = {"off", "shadow", "enforce", NULL};
static const char *const readiness_names[] = {"every-pool", "any-pool", NULL};
static const char *const pd_protocol_names[] = {"off", "vllm", "sglang", NULL};

#define T kvr_router_config_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_CUSTOM("listen", "HOST:PORT", "127.0.0.1:8080", parse_listen,
                       "HOST:PORT with a port in [0, 65535]", 0,
                       "address to serve clients on ([::1]:PORT for IPv6)"),
    KVR_OPT_ROW_CUSTOM(
        "engine", "URL[,model=NAME]...[,role=ROLE][,bootstrap_port=N]", NULL, parse_engine,
        "a base URL http://HOST:PORT or https://HOST:PORT, then any model=NAME, one "
        "role=prefill|decode|both and one bootstrap_port=N",
        KVR_OPT_REPEAT,
        "an engine's base URL http://HOST[:PORT] (port 80 by default, no path), e.g. "
        "http://10.0.0.5:8000, or https://HOST[:PORT] (443; over TLS, see --engine-ca); its "
        "normalised form (host lower-cased, port written, no "
        "slash) is the engine id. model=NAME pins the models it serves "
        "(repeat for several), else they are learnt from its /v1/models. role=prefill or "
        "role=decode makes it one half of a disaggregated pair (see --pd-protocol); "
        "role=both (the default) serves whole requests. bootstrap_port=N is an SGLang prefill "
        "engine's KV bootstrap port (its --disaggregation-bootstrap-port), sent to the decode "
        "engine; left out, bootstrap_port is null and the engines use their default"),
    KVR_OPT_ROW_CUSTOM(
        "config", "FILE", NULL, parse_config, "a readable config file", KVR_OPT_NO_FILE,
        "read flags from FILE: one 'flag value' per line, # comments; SIGHUP re-reads its engine "
        "list (and --tokenizer lines) and logs each other changed setting as reload_ignored"),
    KVR_OPT_ROW_CUSTOM(
        "check-config", "FILE", NULL, parse_check_config, "a readable config file", KVR_OPT_NO_FILE,
        "read FILE as --config does, validate it with the other flags (engine URLs resolve, "
        "each --tokenizer DIR holds a readable tokenizer.json), print 'kvroute: FILE: ok' and "
        "exit 0, or the error (with FILE:LINE where it has one) and exit 2; opens no socket"),
    KVR_OPT_ROW_CUSTOM(
        "engine-dns", "NAME:PORT", NULL, parse_engine_dns,
        "NAME:PORT with a port in [1, 65535], at most 16 names", KVR_OPT_REPEAT,
        "discover engines: every address NAME resolves to (e.g. a Kubernetes headless Service, one "
        "address per pod) is an engine http://ADDR:PORT ([ADDR] for IPv6); re-resolved every "
        "--engine-dns-interval-s off the event loop. New addresses are added; one missing from "
        "--engine-dns-drain-after answers in a row is drained (no new requests, in-flight ones "
        "finish) and removed. A failed resolution keeps every engine"),
    KVR_DNS_WATCH_OPTION_ROWS(
        T, "its engine is drained, so an answer that flaps every period moves no engine"),
    POLICY_ROW(
        policy, "policy", KVR_POLICY_ADVICE_DEFAULT,
        "routing policy; 'sticky' = --placement oneshot + load_only. " KVR_POLICY_ADVICE_HELP),
    KVR_OPT_ROW_CUSTOM(
        "placement", "MODE", "per-request", parse_placement, "one of oneshot, per-request", 0,
        "oneshot (policy runs at a session's first request, then pinned) or per-request"),
    {.name = "es",
     .type = KVR_OPT_BOOL,
     .offset = offsetof(T, es),
     .size = sizeof(bool),
     .arg = "0|1",
     .help =
         "1: read engine state from the statefeed segment (eff = shadow + the sample's load this "
         "router did not send); 0: shadow counters "
         "only, the segment is never opened. Default: $ES, else 1"},
    KVR_OPT_ROW_BOOL(
        T, es_sent, "es-sent", "1",
        "ES=1: split each feed sample into this router's part (its in flight less what it sent "
        "since the sample, plus what of its own ended since) and the rest, eff = shadow + the "
        "rest; 0: max(shadow, real), which counts requests that ended since the sample and under "
        "which routers reading one sample all see the same engine idle and pile onto it"),
    KVR_OPT_ROW_BOOL(
        T, es_spread, "es-spread", "1",
        "ES=1: when the feed shows load other routers sent, picks within one request's worth of "
        "the best are equal and a draw of this router's chooses among them, so routers reading one "
        "sample do not all take its argmin; 0: the plain argmin"),
    KVR_OPT_ROW_STRING(T, shm_name, "shm", "NAME", KVR_SHM_DEFAULT_NAME, "statefeed segment name"),
    KVR_OPT_ROW_U64(
        T, shm_owner_uid, "shm-owner", "UID", NULL, 0, 4294967294u,
        "uid that must own the segment (statefeed's); another owner, or a group/other-writable "
        "segment, is refused (default: this process's uid)"),
    KVR_OPT_ROW_U64(T, max_age_ms, "max-age-ms", "MS", "2000", 1, 3600000,
                    "feed samples and writer heartbeat older than this fall back to shadow"),
    KVR_OPT_ROW_ENUM(
        T, cache_state, "cache-state", "MODE", "auto", kvr_cache_state_names,
        "where prefix-aware policies take an engine's cached prefix from: auto = the residency "
        "table statefeed fills from the engines' KV events (--cache-index-mb) for engines it "
        "trusts, the router's own prefix index for the rest; events = the table alone; own = the "
        "own index alone. Needs ES=1 and token block hashes of the request; a request without "
        "them uses the own index"),
    KVR_OPT_ROW_STRING(
        T, share_name, "share", "NAME", "",
        "act as one with the other routers on this host given the same NAME: share in-flight charge, "
        "prefix placements and session pins through the dispatch segment /dev/shm/NAME (created 0640 "
        "by the first); off when empty"),
    KVR_OPT_ROW_U64(
        T, share_max_age_ms, "share-max-age-ms", "MS", "3000", 1, 3600000,
        "--share: a router whose heartbeat (every second) is older than this is ignored, its charge "
        "no longer counted"),
    KVR_OPT_ROW_U64(
        T, reconcile_s, "reconcile-s", "S", "30", 0, 86400,
        "ES=0: compare shadow counters with each engine's /metrics every S seconds, 0 = off"),
    KVR_OPT_ROW_STRING(T, session_header, "session-header", "NAME", "X-Session-ID",
                       "request header carrying the session id"),
    KVR_OPT_ROW_CUSTOM("session-keys", "LIST", "header,session_id,user", parse_session_keys,
                       "a comma list of header, session_id, user", 0,
                       "where session ids come from, in order"),
    KVR_OPT_ROW_U64(T, session_ttl_s, "session-ttl-s", "S", "600", 1, 86400 * 30,
                    "oneshot: a pin idle this long is forgotten"),
    KVR_OPT_ROW_U64(T, max_sessions, "max-sessions", "N", "1000000", 1, 100000000,
                    "oneshot: pins kept at most, least recently used dropped first"),
    KVR_OPT_ROW_U64(
        T, migrate_load, "migrate-load", "N", "0", 0, 1000000,
        "oneshot: re-place a session whose pinned engine has more than N eff requests, 0 = never"),
    KVR_OPT_ROW_U64(
        T, retries, "retries", "N", "2", 0, 16,
        "retries on another engine after a connect failure, a reset, a first-byte timeout or a 5xx before any "
        "byte reached the client"),
    KVR_OPT_ROW_ENUM(
        T, pd_protocol, "pd-protocol", "NAME", "off", pd_protocol_names,
        "disaggregated serving for models with role=prefill and role=decode engines: vllm sends "
        "the request to a prefill engine with kv_transfer_params {do_remote_decode: true}, "
        "max_tokens 1, then to a decode engine with the params it answered; sglang sends it to "
        "a prefill and a decode engine at once, both with bootstrap_host, bootstrap_port and a "
        "random bootstrap_room, the decode's answer the client's; off routes to role=both "
        "engines only"),
    POLICY_ROW(pd_decode_policy, "pd-decode-policy", "kv_headroom",
               "disaggregated: the policy choosing the decode engine (--policy chooses the "
               "prefill engine, where prefix reuse pays); kv_headroom takes the one with "
               "the fewest running and waiting requests among those with KV room for the "
               "prompt and its output under --high-watermark (the feed's KV usage at ES=1, "
               "the shadow's KV tokens otherwise)"),
    KVR_OPT_ROW_U64(
        T, pd_transfer_timeout_ms, "pd-transfer-timeout-ms", "MS", "0", 0, 3600000,
        "disaggregated: a decode engine's wait for its first byte (the KV transfer "
        "included), then a fresh prefill and decode elsewhere; 0 = --first-byte-timeout-ms"),
    KVR_OPT_ROW_U64(T, connect_timeout_ms, "connect-timeout-ms", "MS", "2000", 1, 600000,
                    "upstream connect timeout"),
    KVR_OPT_ROW_U64(
        T, first_byte_timeout_ms, "first-byte-timeout-ms", "MS", "120000", 1, 3600000,
        "request sent to first response byte; then retried on another engine, 504 when none is left"),
    KVR_OPT_ROW_U64(T, idle_timeout_ms, "idle-timeout-ms", "MS", "60000", 1, 3600000,
                    "longest silence inside an upstream response"),
    KVR_OPT_ROW_U64(T, max_body_bytes, "max-body-bytes", "N", "16777216", 0, 1ull << 31,
                    "largest request body, beyond it 413"),
    KVR_OPT_ROW_U64(
        T, parse_offload_bytes, "parse-offload-bytes", "N", "65536", 0, 1ull << 31,
        "request bodies of at least N bytes are parsed on the libuv threadpool, not the event loop; 0 = never"),
    KVR_OPT_ROW_CUSTOM(
        "tokenizer", "MODEL=DIR", NULL, parse_tokenizer, "MODEL=DIR", KVR_OPT_REPEAT,
        "key and count MODEL's requests in the model's tokens: DIR holds its Hugging Face "
        "tokenizer.json and tokenizer_config.json (byte-level BPE; the chat_template renders "
        "chat messages first). A pool without one keys on text, bytes/4 tokens; a request "
        "whose template or tokens fail does too, counted in kvroute_tokenize_fallbacks_total. "
        "A load failure stops start-up; SIGHUP re-reads --config's lines (a bad one keeps the "
        "tokenizers loaded)"),
    KVR_OPT_ROW_U64(
        T, tokenize_offload_bytes, "tokenize-offload-bytes", "N", "4096", 0, 1ull << 31,
        "with --tokenizer: request bodies of at least N bytes are parsed and tokenized on the "
        "libuv threadpool, off the event loop (bench/tokenize/run.sh measures the tokenizer's "
        "speed); 0 = as --parse-offload-bytes"),
    KVR_OPT_ROW_U64(
        T, tokenize_cache_mb, "tokenize-cache-mb", "MB", "64", 0, 1 << 20,
        "with --tokenizer: memory for the ids of conversations' earlier turns, so a chat's next "
        "turn (or a completions prompt that extends an earlier one) tokenizes only its new text "
        "(the ids are the whole prompt's; least recently used first out; "
        "kvroute_tokenize_cache_*); 0 = off; read at start-up only"),
    KVR_OPT_ROW_U64(
        T, block_tokens, "block-tokens", "N", "16", 1, 4096,
        "--tokenizer: tokens per prefix block, the engines' KV block size (vLLM's default 16); "
        "read at start-up only"),
    KVR_OPT_ROW_U64(T, max_header_bytes, "max-header-bytes", "N", "16384", 0, 1 << 20,
                    "largest request line + headers, beyond it 431"),
    KVR_OPT_ROW_U64(T, request_timeout_ms, "request-timeout-ms", "MS", "30000", 1, 3600000,
                    "a client must send its whole request within this, else 408"),
    KVR_OPT_ROW_U64(
        T, client_idle_timeout_ms, "client-idle-timeout-ms", "MS", "60000", 1, 3600000,
        "a client connection with no request under way (before its first, between keep-alive requests) "
        "is closed after this"),
    KVR_OPT_ROW_U64(
        T, max_connections, "max-connections", "N", "4096", 1, KVR_HTTP_MAX_CONNECTIONS_LIMIT,
        "client connections open at once; more are accepted and closed (the soft open-file "
        "limit is raised to the hard one at start)"),
    KVR_OPT_ROW_U64(
        T, max_connections_per_peer, "max-connections-per-peer", "N", "3072", 0,
        KVR_HTTP_MAX_CONNECTIONS_LIMIT,
        "client connections open at once from one IP address, so that one client cannot take "
        "them all (the default leaves a quarter of the default cap to the others, and lets a "
        "router behind one proxy, which sees one address, use three quarters); 0 = no "
        "per-address limit"),
    KVR_OPT_ROW_U64(
        T, max_engines, "max-engines", "N", "1024", 1, KVR_MAX_ENGINES,
        "engines the table holds at once, removed ones still finishing requests included "
        "(264 bytes of router memory per index, 392 more per engine; an index is reused once its engine drained)"),
    KVR_OPT_ROW_U64(T, keepalive_per_engine, "keepalive", "N", "64", 0, 100000,
                    "idle upstream connections kept open per engine"),
    KVR_OPT_ROW_U64(T, health_interval_ms, "health-interval-ms", "MS", "1000", 0, 3600000,
                    "health check period per engine, 0 = off; a check times out after the "
                    "period, at least 1 s and at most 2 s (checks of one engine never overlap)"),
    KVR_OPT_ROW_STRING(T, health_path, "health-path", "PATH", "/health", "engine health endpoint"),
    KVR_OPT_ROW_U64(T, fail_threshold, "fail-threshold", "N", "2", 0, 1000,
                    "failures in a row (connects, health checks) that take an engine out"),
    KVR_OPT_ROW_BOOL(
        T, engine_header, "engine-header", "off",
        "add the X-Kvroute-Engine response header (the engine's URL) to proxied answers"),
    KVR_OPT_ROW_STRING(T, decision_log, "decision-log", "FILE", NULL,
                       "append one JSON line per routed request to FILE; SIGHUP reopens FILE "
                       "(after logrotate renamed it, new lines go to a new FILE)"),
    KVR_OPT_ROW_STRING(
        T, admin_token, "admin-token", "TOKEN", NULL,
        "bearer token for POST /engines and DELETE /engines/ID (without it they are refused)"),
    KVR_OPT_ROW_CUSTOM(
        "admin-listen", "HOST:PORT|off", "127.0.0.1:9465", parse_admin_listen,
        "HOST:PORT with a port in [0, 65535], or off", 0,
        "listener for /metrics and /engines (GET, POST, DELETE), apart from the client port; "
        "off = no admin endpoints"),
    KVR_OPT_ROW_BOOL(
        T, admin_on_client_port, "admin-on-client-port", "off",
        "also serve /metrics and /engines on the client port, as before --admin-listen "
        "(for moving scrapers over; logged as a warning)"),
    KVR_OPT_ROW_STRING(
        T, api_keys_file, "api-keys-file", "FILE", NULL,
        "client API keys, one \"NAME sha256:HEX\" per line (re-read on SIGHUP); /v1/* and "
        "/generate then need Authorization: Bearer KEY"),
    KVR_OPT_ROW_STRING(
        T, tls_cert, "tls-cert", "FILE", NULL,
        "PEM certificate chain: the client listener (and --admin-listen) speak TLS only, "
        "ALPN http/1.1, TLS 1.2 or 1.3; needs --tls-key; both re-read on SIGHUP (a pair that "
        "does not load keeps the one in force)"),
    KVR_OPT_ROW_STRING(T, tls_key, "tls-key", "FILE", NULL, "PEM private key of --tls-cert"),
    KVR_OPT_ROW_STRING(
        T, engine_ca, "engine-ca", "FILE", NULL,
        "PEM CA certificates that https:// engines' certificates must chain to, instead of the "
        "system store; the name in the URL must match the certificate"),
    KVR_OPT_ROW_BOOL(
        T, engine_tls_insecure, "engine-tls-insecure", "off",
        "do not check https:// engines' certificates at all (encrypted, not authenticated; "
        "logged as a warning at start)"),
    KVR_OPT_ROW_BOOL(
        T, forward_authorization, "forward-authorization", "off",
        "pass the client's Authorization header on to the engine (by default it is dropped)"),
    KVR_OPT_ROW_ENUM(
        T, admission, "admission", "MODE", "off", admission_names,
        "off, shadow (count would-be rejections) or enforce (429 when no engine has headroom)"),
    KVR_OPT_ROW_ENUM(T, readiness, "readiness", "MODE", "every-pool", readiness_names,
                     "/readiness is 200 when every model pool has a healthy engine (every-pool) "
                     "or when any engine is healthy (any-pool)"),
    KVR_OPT_ROW_U64(T, max_waiting, "max-waiting", "N", "16", 0, 1000000,
                    "admission: queued requests an engine may hold beyond max_running"),
    KVR_OPT_ROW_U64(T, drain_timeout_s, "drain-timeout-s", "S", "30", 0, 3600,
                    "SIGTERM: longest wait for in-flight requests before exiting; then each "
                    "stream still going gets an SSE error event and is cut, each request without "
                    "an answer a 503"),
    KVR_OPT_ROW_LOG_LEVEL(T, log_level, "info", "debug, info, warn or error"),
    KVR_OPT_ROW_HELP,
};
#undef T

/* The router's table and the policies' one, bound to cfg. */
static void option_sets(kvr_router_config_t *cfg, kvr_opt_set_t sets[2])
{
    sets[0] = (kvr_opt_set_t){
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = cfg};
    sets[1] = kvr_policy_config_options(cfg ? &cfg->policy_config : NULL);
}

void kvr_router_config_defaults(kvr_router_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    kvr_opt_set_t sets[2];
    option_sets(cfg, sets);
    char err[256];
    int rc = kvr_opt_defaults(&sets[0], err, sizeof err);
    (void)rc;
    assert(rc == 0);            /* the defaults are the table's own text */
    cfg->placement_set = false; /* the default is not a choice: sticky may still set oneshot */
    const char *es = getenv("ES");
    cfg->es = !(es && strcmp(es, "0") == 0);
    cfg->shm_owner_uid = geteuid();
    kvr_policy_config_defaults(&cfg->policy_config);
}

void kvr_router_config_free(kvr_router_config_t *cfg)
{
    if (cfg->file_at_start) {
        kvr_router_config_free(cfg->file_at_start);
        free(cfg->file_at_start);
        cfg->file_at_start = NULL;
    }
    for (size_t i = 0; i < cfg->n_engines; i++)
        free(cfg->engines[i]);
    cfg->n_engines = 0;
    for (size_t i = 0; i < cfg->n_tokenizers; i++)
        free(cfg->tokenizers[i]);
    cfg->n_tokenizers = 0;
}

const char *kvr_placement_name(kvr_placement_t placement)
{
    return placement == KVR_PLACEMENT_ONESHOT ? "oneshot" : "per-request";
}

static int parse_host_port(const char *v, char *host, size_t host_cap, int *port_out)
{
    const char *colon = strrchr(v, ':');
    if (!colon)
        return -EINVAL;
    const char *h = v;
    size_t n = (size_t)(colon - v);
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    uint64_t port;
    if (n == 0 || n >= host_cap || kvr_opt_parse_u64(colon + 1, 0, 65535, &port) < 0)
        return -EINVAL;
    memcpy(host, h, n);
    host[n] = '\0';
    *port_out = (int)port;
    return 0;
}

static int parse_listen(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr_router_config_t *cfg = obj;
    return parse_host_port(v, cfg->listen_host, sizeof cfg->listen_host, &cfg->listen_port);
}

static int parse_admin_listen(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr_router_config_t *cfg = obj;
    if (strcmp(v, "off") == 0) {
        cfg->admin_listen_host[0] = '\0';
        cfg->admin_listen_port = 0;
        return 0;
    }
    return parse_host_port(v, cfg->admin_listen_host, sizeof cfg->admin_listen_host,
                           &cfg->admin_listen_port);
}

static int parse_engine(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len)
{
    (void)opt;
    kvr_router_config_t *cfg = obj;
    if (cfg->n_engines == KVR_ROUTER_MAX_CONFIG_ENGINES) {
        snprintf(err, err_len, "--engine: more than %d engines", KVR_ROUTER_MAX_CONFIG_ENGINES);
        return -EINVAL;
    }
    kvr_engine_spec_t spec, other;
    char why[160];
    kvr_model_list_t pinned = {0}, other_pinned = {0};
    int rc = kvr_models_parse_spec(v, &spec, &pinned, why, sizeof why);
    if (rc < 0) {
        snprintf(err, err_len, "--engine: %s in '%.200s'", why, v);
        return -EINVAL;
    }
    for (size_t i = 0; i < cfg->n_engines; i++) {
        bool same = kvr_models_parse_spec(cfg->engines[i], &other, &other_pinned, why,
                                          sizeof why) == 0 &&
                    strcmp(other.url, spec.url) == 0;
        bool same_models = same && kvr_model_list_equal(&pinned, &other_pinned);
        kvr_model_list_close(&other_pinned);
        if (same_models) {
            kvr_model_list_close(&pinned);
            return 0; /* the same engine twice is one engine */
        }
        if (same) {
            kvr_model_list_close(&pinned);
            snprintf(err, err_len, "--engine: %.200s given twice with different models", spec.url);
            return -EINVAL;
        }
    }
    kvr_model_list_close(&pinned);
    cfg->engines[cfg->n_engines] = strdup(v);
    if (!cfg->engines[cfg->n_engines]) {
        snprintf(err, err_len, "--engine: out of memory");
        return -ENOMEM;
    }
    cfg->n_engines++;
    return 0;
}

static int parse_config(const kvr_opt_t *opt, void *obj, const char *v, char *err, size_t err_len)
{
    (void)opt;
    kvr_router_config_t *cfg = obj;
    snprintf(cfg->config_file, sizeof cfg->config_file, "%s", v);
    return kvr_router_config_load_file(cfg, v, err, err_len);
}

static int parse_check_config(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len)
{
    kvr_router_config_t *cfg = obj;
    snprintf(cfg->check_config, sizeof cfg->check_config, "%s", v);
    return parse_config(opt, obj, v, err, err_len);
}

static int parse_placement(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                           size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr_router_config_t *cfg = obj;
    if (strcmp(v, "oneshot") == 0)
        cfg->placement = KVR_PLACEMENT_ONESHOT;
    else if (strcmp(v, "per-request") == 0)
        cfg->placement = KVR_PLACEMENT_PER_REQUEST;
    else
        return -EINVAL;
    cfg->placement_set = true;
    return 0;
}

/* The error for a name that is not a registered policy: every name there is. */
static int unknown_policy(const char *flag, const char *name, char *err, size_t err_len)
{
    char names[512] = "";
    FILE *m = fmemopen(names, sizeof names - 1, "w");
    if (m) {
        kvr_policy_list(m);
        fclose(m);
    }
    char what[600];
    snprintf(what, sizeof what, "one of %s", names);
    return kvr_opt_error(err, err_len, flag, what, name);
}

static int parse_policy_name(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                             size_t err_len)
{
    size_t len = strlen(v);
    if (!kvr_policy_find(v) || len >= opt->size)
        return unknown_policy(opt->name, v, err, err_len);
    memcpy((char *)obj + opt->offset, v, len + 1);
    return 0;
}

static int parse_session_keys(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                              size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr_router_config_t *cfg = obj;
    return kvr_keys_config_parse(&cfg->keys, v);
}

static int parse_engine_dns(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                            size_t err_len)
{
    (void)opt;
    kvr_router_config_t *cfg = obj;
    char name[KVR_DNS_WATCH_NAME_MAX];
    uint16_t port;
    const char *rest;
    if (kvr_dns_watch_parse(v, name, sizeof name, &port, &rest) < 0)
        return -EINVAL;
    if (rest[0]) {
        snprintf(err, err_len,
                 "--engine-dns: unknown option '%.64s' in '%.300s' (kvroute takes NAME:PORT)", rest,
                 v);
        return -EINVAL;
    }
    for (size_t i = 0; i < cfg->n_engine_dns; i++)
        if (strcmp(cfg->engine_dns[i], v) == 0)
            return 0; /* the same name twice is one name */
    if (cfg->n_engine_dns == KVR_ROUTER_MAX_ENGINE_DNS)
        return -EINVAL;
    snprintf(cfg->engine_dns[cfg->n_engine_dns++], sizeof cfg->engine_dns[0], "%s", v);
    return 0;
}

static int parse_tokenizer(const kvr_opt_t *opt, void *obj, const char *v, char *err,
                           size_t err_len)
{
    (void)opt;
    kvr_router_config_t *cfg = obj;
    char model[KVR_MODEL_NAME_MAX + 1];
    const char *dir;
    if (kvr_tokenizer_spec_parse(v, model, sizeof model, &dir, err, err_len) < 0)
        return -EINVAL;
    for (size_t i = 0; i < cfg->n_tokenizers; i++)
        if (strcmp(cfg->tokenizers[i], v) == 0)
            return 0; /* the same line twice is one tokenizer */
    if (cfg->n_tokenizers == KVR_ROUTER_MAX_TOKENIZERS) {
        snprintf(err, err_len, "--tokenizer: more than %d models", KVR_ROUTER_MAX_TOKENIZERS);
        return -EINVAL;
    }
    char *copy = strdup(v);
    if (!copy) {
        snprintf(err, err_len, "--tokenizer: out of memory");
        return -ENOMEM;
    }
    cfg->tokenizer_from_file[cfg->n_tokenizers] = cfg->reading_file;
    cfg->tokenizers[cfg->n_tokenizers++] = copy;
    return 0;
}

int kvr_router_config_load_file(kvr_router_config_t *cfg, const char *path, char *err,
                                size_t err_len)
{
    kvr_opt_set_t sets[2];
    option_sets(cfg, sets);
    bool was = cfg->reading_file;
    cfg->reading_file = true;
    int rc = kvr_opt_load_file(sets, 2, path, err, err_len);
    cfg->reading_file = was;
    return rc;
}

int kvr_router_config_parse_args(kvr_router_config_t *cfg, int argc, char **argv, char *err,
                                 size_t err_len)
{
    kvr_opt_set_t sets[2];
    option_sets(cfg, sets);
    kvr_opt_parser_t parser = {.sets = sets, .n_sets = 2};
    int rc = kvr_opt_parse_args(&parser, argc, argv, err, err_len);
    if (rc == 1)
        kvr_router_config_help(stdout);
    return rc;
}

/* Rows a SIGHUP applies (or that name the file itself): never "ignored". */
static bool reloadable(const char *name)
{
    static const char *const names[] = {"engine",  "tokenizer", "api-keys-file", "tls-cert",
                                        "tls-key", "config",    "check-config",  NULL};
    for (size_t i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static bool row_differs(const kvr_opt_t *o, const void *a, const void *b)
{
    const char *pa = (const char *)a + o->offset, *pb = (const char *)b + o->offset;
    if (o->type == KVR_OPT_STRING)
        return strncmp(pa, pb, o->size) != 0;
    return memcmp(pa, pb, o->size) != 0;
}

size_t kvr_router_config_unreloadable(const kvr_router_config_t *was,
                                      const kvr_router_config_t *now, const char **names,
                                      size_t cap)
{
    kvr_opt_set_t sa[2], sb[2];
    option_sets((kvr_router_config_t *)was, sa);
    option_sets((kvr_router_config_t *)now, sb);
    size_t n = 0;
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < sa[s].n_opts && n < cap; i++) {
            const kvr_opt_t *o = &sa[s].opts[i];
            if (o->type == KVR_OPT_HEADING || o->type == KVR_OPT_HELP || reloadable(o->name))
                continue;
            bool differs;
            /* Custom rows that fill fields of their own; --engine-dns names stay from the start. */
            if (strcmp(o->name, "listen") == 0)
                differs = was->listen_port != now->listen_port ||
                          strcmp(was->listen_host, now->listen_host) != 0;
            else if (strcmp(o->name, "admin-listen") == 0)
                differs = was->admin_listen_port != now->admin_listen_port ||
                          strcmp(was->admin_listen_host, now->admin_listen_host) != 0;
            else if (strcmp(o->name, "placement") == 0)
                differs = was->placement != now->placement;
            else
                differs = o->size > 0 && row_differs(o, sa[s].obj, sb[s].obj);
            if (differs)
                names[n++] = o->name;
        }
    }
    return n;
}

int kvr_router_config_finish(kvr_router_config_t *cfg, char *err, size_t err_len)
{
    /* sticky keeps its name in metrics and logs; the registry maps it to load_only. */
    if (strcmp(cfg->policy, "sticky") == 0 && !cfg->placement_set)
        cfg->placement = KVR_PLACEMENT_ONESHOT;
    /* Parsing checked the flags; this catches a name a program set itself (kvroute-fleetsim). */
    if (!kvr_policy_find(cfg->policy))
        return unknown_policy("policy", cfg->policy, err, err_len);
    if (cfg->config_file[0] && !cfg->file_at_start && !cfg->check_config[0]) {
        /* Best effort: without it a SIGHUP cannot name the settings it leaves as they are. */
        kvr_router_config_t *snap = malloc(sizeof *snap);
        char why[512];
        if (snap) {
            kvr_router_config_defaults(snap);
            if (kvr_router_config_load_file(snap, cfg->config_file, why, sizeof why) == 0) {
                cfg->file_at_start = snap;
            } else {
                kvr_router_config_free(snap);
                free(snap);
            }
        }
    }
    if (cfg->fail_threshold == 0)
        cfg->fail_threshold = 1;
    if (!cfg->tls_cert[0] != !cfg->tls_key[0])
        return kvr_opt_error(err, err_len, cfg->tls_cert[0] ? "tls-key" : "tls-cert",
                             cfg->tls_cert[0] ? "a key file with --tls-cert"
                                              : "a certificate file with --tls-key",
                             "");
    if (cfg->engine_tls_insecure && cfg->engine_ca[0])
        return kvr_opt_error(err, err_len, "engine-tls-insecure",
                             "either --engine-ca or --engine-tls-insecure, not both", "on");
    if (cfg->admin_listen_host[0] && cfg->admin_listen_port != 0 &&
        cfg->admin_listen_port == cfg->listen_port &&
        strcmp(cfg->admin_listen_host, cfg->listen_host) == 0)
        return kvr_opt_error(
            err, err_len, "admin-listen",
            "an address other than --listen's (or off with --admin-on-client-port)",
            cfg->admin_listen_host);
    /* A POSIX shm name: one path component, a leading '/' optional. */
    const char *share = cfg->share_name[0] == '/' ? cfg->share_name + 1 : cfg->share_name;
    if (cfg->share_name[0] && (share[0] == '\0' || strchr(share, '/') || strlen(share) > 200))
        return kvr_opt_error(err, err_len, "share", "a name without '/' of at most 200 bytes",
                             cfg->share_name);
    /* Start-up resolves before the loop runs: a name that does not resolve stops it here. */
    for (size_t i = 0; i < cfg->n_engines; i++) {
        kvr_engine_spec_t spec;
        struct sockaddr_storage addr;
        socklen_t addr_len;
        char why[300];
        kvr_model_list_t pinned = {0};
        int rc = kvr_models_parse_spec(cfg->engines[i], &spec, &pinned, why, sizeof why);
        kvr_model_list_close(&pinned);
        if (rc == 0)
            rc = kvr_engine_spec_resolve_now(&spec, &addr, &addr_len, why, sizeof why);
        if (rc < 0) {
            snprintf(err, err_len, "--engine: %s in '%.200s'", why, cfg->engines[i]);
            return -EINVAL;
        }
    }
    return 0;
}

/* Which rule for what: measured in virtual time, bench/RESULTS.md "ttft". */
static const char policy_guide[] =
    "which to pick (4 simulated engines; bench/RESULTS.md, section ttft; TTFT p90):\n"
    "  ttft, sticky, cache_aware  multi-turn sessions: within each other's intervals\n"
    "  cache_aware    shared prefixes without sessions (many tenants' system prompts): lowest\n"
    "  sticky         bursty arrivals and unequal engines with one router: lowest mean;\n"
    "                 it is load_only when requests carry no session\n"
    "  ttft           bursty arrivals with several routers: 0.83x the next best;\n"
    "                 1.05-1.2x cache_aware on shared prefixes without sessions\n"
    "  lmetric        bursty arrivals at light load: lowest\n"
    "  cache_aware --owner-pressure 1  one prefix owner filling up (hot-owner trap: 1.69x\n"
    "                 output tokens/s; ttft 1.66x); no measured gain elsewhere\n"
    "  load_only, power_of_two, round_robin, random  prompts that share nothing: where they\n"
    "                 do, 2-10x the TTFT p90 of the prefix rules\n"
    "  cost           between the two groups: less reuse than the prefix rules\n";

void kvr_router_config_help(FILE *out)
{
    fprintf(
        out,
        "usage: kvroute --listen HOST:PORT --engine URL[,model=NAME]... [--engine ...] [flags]\n"
        "       kvroute --config FILE\n"
        "       kvroute --check-config FILE   (validate FILE, then exit)\n\n"
        "kvroute is an OpenAI-compatible gateway in front of vLLM / SGLang engines. It routes\n"
        "POST /v1/chat/completions, /v1/completions and /generate to one engine per request\n"
        "and streams the answer back untouched. It also serves GET /v1/models, /health,\n"
        "/readiness, /metrics (Prometheus), /engines, and admin POST /engines, DELETE /engines/ID.\n"
        "Signals: SIGTERM/SIGINT drain in-flight requests then exit 0; a second one while\n"
        "draining exits at once, cutting what is still in flight. SIGHUP re-reads the\n"
        "engine list from --config (--engine lines; --engine-dns names are kept from the\n"
        "start), its --tokenizer lines, --api-keys-file and --tls-cert/--tls-key, and\n"
        "reopens --decision-log.\n\n"
        "Model pools: each engine's models are learnt from its GET /v1/models (at start-up\n"
        "and every --health-interval-ms) or pinned with --engine URL,model=NAME[,model=NAME2].\n"
        "A request goes only to engines serving its body's \"model\"; a model nobody serves\n"
        "is a 404 model_not_found; no \"model\" is the one model served, or a 400 when there\n"
        "are several. An engine whose list is not known yet serves any model.\n\nflags:\n");
    kvr_opt_set_t sets[2];
    option_sets(NULL, sets);
    kvr_opt_help(out, &sets[0]);
    fprintf(out, "\npolicies: ");
    kvr_policy_list(out);
    fprintf(out, "\n%s\n", policy_guide);
    kvr_opt_help(out, &sets[1]);
    fprintf(out,
            "\nenvironment:\n  ES=0|1                       default for --es (the flag wins)\n");
}

void kvr_router_config_decide(const kvr_router_config_t *cfg, kvr_decide_config_t *out)
{
    *out = (kvr_decide_config_t){
        .policy = cfg->policy,
        .decode_policy = cfg->pd_protocol != KVR_PD_OFF ? cfg->pd_decode_policy : NULL,
        .policy_config = cfg->policy_config,
        .placement = cfg->placement,
        .migrate_load = cfg->migrate_load,
        .admission = cfg->admission,
        .max_waiting = cfg->max_waiting,
        .session_ttl_ns = cfg->session_ttl_s * KVR_NS_PER_SEC,
        .max_sessions = cfg->max_sessions,
        .fail_threshold = cfg->fail_threshold,
        .es = cfg->es,
        .shm_name = cfg->shm_name,
        .shm_owner_uid = (int64_t)cfg->shm_owner_uid,
        .max_age_ns = cfg->max_age_ms * KVR_NS_PER_MS,
        .max_engines = cfg->max_engines,
        .es_max_only = !cfg->es_sent,
        .es_no_spread = !cfg->es_spread,
        .cache_state = (kvr_cache_state_mode_t)cfg->cache_state,
        /* Routers given one --seed still draw apart: the draws only choose among near-equal picks. */
        .spread_seed = cfg->policy_config.seed ^ ((uint64_t)getpid() << 32),
    };
}
