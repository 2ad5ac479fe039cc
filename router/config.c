/* SPDX-License-Identifier: Apache-2.0 */
#include "router/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "router/engine_url.h"

typedef enum { OPT_STR, OPT_U64, OPT_BOOL, OPT_SPECIAL } opt_kind_t;

typedef struct opt_s {
    const char *name;
    opt_kind_t kind;
    size_t offset;        /* OPT_STR: char array; OPT_U64/BOOL: field */
    size_t size;          /* OPT_STR capacity, OPT_U64 field width */
    uint64_t max;         /* OPT_U64 upper bound */
    const char *arg;      /* argument name in --help, NULL for switches */
    const char *help;
} opt_t;

#define STR(f) OPT_STR, offsetof(kvr_router_config_t, f), sizeof(((kvr_router_config_t *)0)->f), 0
#define U64(f, m) OPT_U64, offsetof(kvr_router_config_t, f), sizeof(((kvr_router_config_t *)0)->f), m
#define BOOL(f) OPT_BOOL, offsetof(kvr_router_config_t, f), 0, 0
#define SPECIAL OPT_SPECIAL, 0, 0, 0

static const opt_t options[] = {
    {"listen", SPECIAL, "HOST:PORT", "address to serve clients on (default 127.0.0.1:8080; [::1]:PORT for IPv6)"},
    {"engine", SPECIAL, "URL", "an engine's base URL, e.g. http://10.0.0.5:8000; repeat for each engine"},
    {"config", SPECIAL, "FILE", "read flags from FILE: one 'flag value' per line, # comments; SIGHUP re-reads its engine list"},
    {"policy", STR(policy), "NAME", "routing policy (default load_only); 'sticky' = --placement oneshot + load_only"},
    {"placement", SPECIAL, "MODE", "oneshot (policy runs at a session's first request, then pinned) or per-request (default)"},
    {"es", SPECIAL, "0|1", "1: read engine state from the statefeed segment (eff = max(shadow, real)); 0: shadow counters only, the segment is never opened. Default: $ES, else 1"},
    {"shm", STR(shm_name), "NAME", "statefeed segment name (default /kvroute-state)"},
    {"shm-owner", U64(shm_owner_uid, 4294967294u), "UID", "uid that must own the segment (statefeed's); another owner, or a group/other-writable segment, is refused (default: this process's uid)"},
    {"max-age-ms", U64(max_age_ms, 3600000), "MS", "feed samples and writer heartbeat older than this fall back to shadow (default 2000)"},
    {"reconcile-s", U64(reconcile_s, 86400), "S", "ES=0: compare shadow counters with each engine's /metrics every S seconds, 0 = off (default 30)"},
    {"session-header", STR(session_header), "NAME", "request header carrying the session id (default X-Session-ID)"},
    {"session-keys", SPECIAL, "LIST", "where session ids come from, in order: header,session_id,user (default all three)"},
    {"session-ttl-s", U64(session_ttl_s, 86400 * 30), "S", "oneshot: a pin idle this long is forgotten (default 600)"},
    {"max-sessions", U64(max_sessions, 100000000), "N", "oneshot: pins kept at most, least recently used dropped first (default 1000000)"},
    {"migrate-load", U64(migrate_load, 1000000), "N", "oneshot: re-place a session whose pinned engine has more than N eff requests, 0 = never (default 0)"},
    {"retries", U64(retries, 16), "N", "retries on another engine after a connect failure, a reset, a first-byte timeout or a 5xx before any byte reached the client (default 2)"},
    {"connect-timeout-ms", U64(connect_timeout_ms, 600000), "MS", "upstream connect timeout (default 2000)"},
    {"first-byte-timeout-ms", U64(first_byte_timeout_ms, 3600000), "MS", "request sent to first response byte (default 120000); then retried on another engine, 504 when none is left"},
    {"idle-timeout-ms", U64(idle_timeout_ms, 3600000), "MS", "longest silence inside an upstream response (default 60000)"},
    {"max-body-bytes", U64(max_body_bytes, 1ull << 31), "N", "largest request body, beyond it 413 (default 16777216)"},
    {"parse-offload-bytes", U64(parse_offload_bytes, 1ull << 31), "N", "request bodies of at least N bytes are parsed on the libuv threadpool, not the event loop; 0 = never (default 65536)"},
    {"max-header-bytes", U64(max_header_bytes, 1 << 20), "N", "largest request line + headers, beyond it 431 (default 16384)"},
    {"request-timeout-ms", U64(request_timeout_ms, 3600000), "MS", "a client must send its whole request within this, else 408 (default 30000)"},
    {"client-idle-timeout-ms", U64(client_idle_timeout_ms, 3600000), "MS", "a client connection with no request under way (before its first, between keep-alive requests) is closed after this (default 60000)"},
    {"keepalive", U64(keepalive_per_engine, 100000), "N", "idle upstream connections kept open per engine (default 64)"},
    {"health-interval-ms", U64(health_interval_ms, 3600000), "MS", "health check period per engine, 0 = off (default 1000)"},
    {"health-path", STR(health_path), "PATH", "engine health endpoint (default /health)"},
    {"fail-threshold", U64(fail_threshold, 1000), "N", "failures in a row (connects, health checks) that take an engine out (default 2)"},
    {"no-engine-header", SPECIAL, NULL, "do not add the X-Kvroute-Engine response header"},
    {"decision-log", STR(decision_log), "FILE", "append one JSON line per routed request to FILE"},
    {"admin-token", STR(admin_token), "TOKEN", "bearer token for POST /engines and DELETE /engines/ID (without it they are refused)"},
    {"admission", SPECIAL, "MODE", "off (default), shadow (count would-be rejections) or enforce (429 when no engine has headroom)"},
    {"max-waiting", U64(max_waiting, 1000000), "N", "admission: queued requests an engine may hold beyond max_running (default 16)"},
    {"drain-timeout-s", U64(drain_timeout_s, 3600), "S", "SIGTERM: longest wait for in-flight requests before exiting (default 30)"},
    {"log-level", SPECIAL, "LEVEL", "debug, info (default), warn or error"},
    {"help", SPECIAL, NULL, "print this help and exit"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

void kvr_router_config_defaults(kvr_router_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    strcpy(cfg->listen_host, "127.0.0.1");
    cfg->listen_port = 8080;
    strcpy(cfg->policy, "load_only");
    cfg->placement = KVR_PLACEMENT_PER_REQUEST;
    const char *es = getenv("ES");
    cfg->es = !(es && strcmp(es, "0") == 0);
    strcpy(cfg->shm_name, KVR_SHM_DEFAULT_NAME);
    cfg->shm_owner_uid = geteuid();
    cfg->max_age_ms = 2000;
    cfg->reconcile_s = 30;
    strcpy(cfg->session_header, "X-Session-ID");
    kvr_keys_config_defaults(&cfg->keys);
    cfg->session_ttl_s = 600;
    cfg->max_sessions = 1000000;
    cfg->retries = 2;
    cfg->connect_timeout_ms = 2000;
    cfg->first_byte_timeout_ms = 120000;
    cfg->idle_timeout_ms = 60000;
    cfg->max_body_bytes = 16u << 20;
    cfg->parse_offload_bytes = 65536;
    cfg->max_header_bytes = 16384;
    cfg->request_timeout_ms = 30000;
    cfg->client_idle_timeout_ms = 60000;
    cfg->keepalive_per_engine = 64;
    cfg->health_interval_ms = 1000;
    strcpy(cfg->health_path, "/health");
    cfg->fail_threshold = 2;
    cfg->engine_header = true;
    cfg->admission = KVR_ADMISSION_OFF;
    cfg->max_waiting = 16;
    cfg->drain_timeout_s = 30;
    cfg->log_level = KVR_LOG_INFO;
    kvr_policy_config_defaults(&cfg->policy_config);
}

void kvr_router_config_free(kvr_router_config_t *cfg)
{
    for (size_t i = 0; i < cfg->n_engines; i++)
        free(cfg->engines[i]);
    cfg->n_engines = 0;
}

const char *kvr_placement_name(kvr_placement_t placement)
{
    return placement == KVR_PLACEMENT_ONESHOT ? "oneshot" : "per-request";
}

static int parse_listen(kvr_router_config_t *cfg, const char *v)
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
    if (n == 0 || n >= sizeof cfg->listen_host)
        return -EINVAL;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || colon[1] == '\0' || port < 0 || port > 65535)
        return -EINVAL;
    memcpy(cfg->listen_host, h, n);
    cfg->listen_host[n] = '\0';
    cfg->listen_port = (int)port;
    return 0;
}

static int apply_special(kvr_router_config_t *cfg, const char *name, const char *v, char *err,
                         size_t err_len)
{
    if (strcmp(name, "listen") == 0) {
        if (parse_listen(cfg, v) == 0)
            return 0;
        snprintf(err, err_len, "--listen %s: expected HOST:PORT", v);
    } else if (strcmp(name, "engine") == 0) {
        if (cfg->n_engines == KVR_ROUTER_MAX_CONFIG_ENGINES) {
            snprintf(err, err_len, "--engine: more than %d engines", KVR_ROUTER_MAX_CONFIG_ENGINES);
            return -EINVAL;
        }
        for (size_t i = 0; i < cfg->n_engines; i++)
            if (strcmp(cfg->engines[i], v) == 0)
                return 0; /* the same engine twice is one engine */
        cfg->engines[cfg->n_engines] = strdup(v);
        if (!cfg->engines[cfg->n_engines])
            return -ENOMEM;
        cfg->n_engines++;
        return 0;
    } else if (strcmp(name, "config") == 0) {
        snprintf(cfg->config_file, sizeof cfg->config_file, "%s", v);
        return kvr_router_config_load_file(cfg, v, err, err_len);
    } else if (strcmp(name, "placement") == 0) {
        cfg->placement_set = true;
        if (strcmp(v, "oneshot") == 0) {
            cfg->placement = KVR_PLACEMENT_ONESHOT;
            return 0;
        }
        if (strcmp(v, "per-request") == 0) {
            cfg->placement = KVR_PLACEMENT_PER_REQUEST;
            return 0;
        }
        snprintf(err, err_len, "--placement %s: expected oneshot or per-request", v);
    } else if (strcmp(name, "es") == 0) {
        if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0) {
            cfg->es = v[0] == '1';
            return 0;
        }
        snprintf(err, err_len, "--es %s: expected 0 or 1", v);
    } else if (strcmp(name, "session-keys") == 0) {
        if (kvr_keys_config_parse(&cfg->keys, v) == 0)
            return 0;
        snprintf(err, err_len, "--session-keys %s: expected a comma list of header, session_id, user", v);
    } else if (strcmp(name, "admission") == 0) {
        if (kvr_admission_mode_parse(v, &cfg->admission) == 0)
            return 0;
        snprintf(err, err_len, "--admission %s: expected off, shadow or enforce", v);
    } else if (strcmp(name, "log-level") == 0) {
        if (kvr_log_level_parse(v, &cfg->log_level) == 0)
            return 0;
        snprintf(err, err_len, "--log-level %s: expected debug, info, warn or error", v);
    } else if (strcmp(name, "no-engine-header") == 0) {
        cfg->engine_header = false;
        return 0;
    }
    return -EINVAL;
}

/* value NULL for a switch. Returns 0, -ENOENT for an unknown flag, -EINVAL. */
static int apply(kvr_router_config_t *cfg, const opt_t *o, const char *v, char *err, size_t err_len)
{
    char *base = (char *)cfg;
    switch (o->kind) {
    case OPT_STR:
        if (strlen(v) >= o->size) {
            snprintf(err, err_len, "--%s: value longer than %zu bytes", o->name, o->size - 1);
            return -EINVAL;
        }
        memcpy(base + o->offset, v, strlen(v) + 1);
        return 0;
    case OPT_U64: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        if (errno || *end || !isdigit((unsigned char)v[0]) || n > o->max) {
            snprintf(err, err_len, "--%s %s: expected a whole number from 0 to %llu", o->name, v,
                     (unsigned long long)o->max);
            return -EINVAL;
        }
        if (o->size == sizeof(uint32_t))
            *(uint32_t *)(void *)(base + o->offset) = (uint32_t)n;
        else
            *(uint64_t *)(void *)(base + o->offset) = n;
        return 0;
    }
    case OPT_BOOL:
        *(bool *)(base + o->offset) = true;
        return 0;
    case OPT_SPECIAL:
        return apply_special(cfg, o->name, v, err, err_len);
    }
    return -EINVAL;
}

static const opt_t *find_option(const char *name)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

/* One flag with its value (NULL when missing). *used says whether value was consumed. */
static int apply_flag(kvr_router_config_t *cfg, const char *name, const char *value, bool *used,
                      char *err, size_t err_len)
{
    const opt_t *o = find_option(name);
    *used = false;
    if (o && o->arg == NULL)
        return apply(cfg, o, NULL, err, err_len);
    if (!value) {
        snprintf(err, err_len, "--%s needs a value (see --help)", name);
        return -EINVAL;
    }
    *used = true;
    if (o)
        return apply(cfg, o, value, err, err_len);
    int rc = kvr_policy_config_set(&cfg->policy_config, name, value);
    if (rc == -ENOENT)
        snprintf(err, err_len, "unknown flag --%s (see --help)", name);
    else if (rc < 0)
        snprintf(err, err_len, "--%s %s: invalid value (see --help)", name, value);
    return rc < 0 ? -EINVAL : 0;
}

int kvr_router_config_load_file(kvr_router_config_t *cfg, const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        int rc = -errno;
        snprintf(err, err_len, "config %s: %s", path, strerror(-rc));
        return rc;
    }
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *name = line + strspn(line, " \t\r\n");
        if (*name == '\0')
            continue;
        if (strncmp(name, "--", 2) == 0)
            name += 2;
        char *v = name + strcspn(name, " \t\r\n");
        if (*v) {
            *v++ = '\0';
            v += strspn(v, " \t");
            size_t n = strlen(v);
            while (n > 0 && isspace((unsigned char)v[n - 1]))
                v[--n] = '\0';
        }
        if (strcmp(name, "config") == 0) {
            snprintf(err, err_len, "config %s:%d: a config file cannot include another", path, lineno);
            rc = -EINVAL;
            break;
        }
        bool used;
        char sub[256];
        rc = apply_flag(cfg, name, *v ? v : NULL, &used, sub, sizeof sub);
        if (rc < 0) {
            snprintf(err, err_len, "config %s:%d: %s", path, lineno, sub);
            break;
        }
    }
    fclose(f);
    return rc;
}

int kvr_router_config_parse_args(kvr_router_config_t *cfg, int argc, char **argv, char *err,
                                 size_t err_len)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            kvr_router_config_help(stdout);
            return 1;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            snprintf(err, err_len, "unexpected argument '%s' (flags start with --; see --help)", a);
            return -EINVAL;
        }
        char name[128];
        const char *eq = strchr(a + 2, '=');
        const char *value = NULL;
        size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (n >= sizeof name) {
            snprintf(err, err_len, "unknown flag %s (see --help)", a);
            return -EINVAL;
        }
        memcpy(name, a + 2, n);
        name[n] = '\0';
        if (eq)
            value = eq + 1;
        else if (i + 1 < argc)
            value = argv[i + 1];
        bool used;
        int rc = apply_flag(cfg, name, value, &used, err, err_len);
        if (rc < 0)
            return rc;
        if (used && !eq)
            i++;
    }
    return 0;
}

int kvr_router_config_finish(kvr_router_config_t *cfg, char *err, size_t err_len)
{
    /* sticky keeps its name in metrics and logs; the registry maps it to load_only. */
    if (strcmp(cfg->policy, "sticky") == 0 && !cfg->placement_set)
        cfg->placement = KVR_PLACEMENT_ONESHOT;
    if (!kvr_policy_find(cfg->policy)) {
        char names[512] = "";
        FILE *m = fmemopen(names, sizeof names - 1, "w");
        if (m) {
            kvr_policy_list(m);
            fclose(m);
        }
        snprintf(err, err_len, "--policy %s: unknown policy (known: %s)", cfg->policy, names);
        return -EINVAL;
    }
    if (cfg->max_age_ms == 0 || cfg->connect_timeout_ms == 0 || cfg->first_byte_timeout_ms == 0 ||
        cfg->idle_timeout_ms == 0 || cfg->request_timeout_ms == 0 ||
        cfg->client_idle_timeout_ms == 0) {
        snprintf(err, err_len, "timeouts and --max-age-ms must be above 0");
        return -EINVAL;
    }
    if (cfg->max_sessions == 0 || cfg->session_ttl_s == 0) {
        snprintf(err, err_len, "--max-sessions and --session-ttl-s must be above 0");
        return -EINVAL;
    }
    if (cfg->fail_threshold == 0)
        cfg->fail_threshold = 1;
    for (size_t i = 0; i < cfg->n_engines; i++) {
        char host[256];
        struct sockaddr_storage addr;
        socklen_t addr_len;
        int rc = kvr_engine_parse_url(cfg->engines[i], host, sizeof host, &addr, &addr_len);
        if (rc == -EHOSTUNREACH) {
            snprintf(err, err_len, "--engine %s: host does not resolve", cfg->engines[i]);
            return -EINVAL;
        }
        if (rc < 0 || strlen(cfg->engines[i]) >= KVR_SHM_ENGINE_ID_MAX) {
            snprintf(err, err_len, "--engine %s: expected a base URL http://HOST:PORT (at most %d bytes)",
                     cfg->engines[i], KVR_SHM_ENGINE_ID_MAX - 1);
            return -EINVAL;
        }
    }
    return 0;
}

void kvr_router_config_help(FILE *out)
{
    fprintf(out,
            "usage: kvroute --listen HOST:PORT --engine URL [--engine URL ...] [flags]\n"
            "       kvroute --config FILE\n\n"
            "kvroute is an OpenAI-compatible gateway in front of vLLM / SGLang engines. It routes\n"
            "POST /v1/chat/completions, /v1/completions and /generate to one engine per request\n"
            "and streams the answer back untouched. It also serves GET /v1/models, /health,\n"
            "/readiness, /metrics (Prometheus), /engines, and admin POST /engines, DELETE /engines/ID.\n"
            "Signals: SIGTERM/SIGINT drain in-flight requests then exit; SIGHUP re-reads the\n"
            "engine list from --config.\n\nflags:\n");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        fprintf(out, "  %-28s %s\n", left, options[i].help);
    }
    fprintf(out, "\npolicies: ");
    kvr_policy_list(out);
    fprintf(out, "\n\npolicy options (same syntax as flags):\n");
    kvr_policy_config_help(out);
    fprintf(out, "\nenvironment:\n  ES=0|1                       default for --es (the flag wins)\n");
}
