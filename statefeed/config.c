/* SPDX-License-Identifier: Apache-2.0 */
/* Flags and the config file: the same `flag value` vocabulary in both. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/error.h"
#include "statefeed/feed.h"
#include "statefeed/relay_wire.h"

void kvr_feed_config_init(kvr_feed_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    snprintf(cfg->shm_name, sizeof(cfg->shm_name), "%s", KVR_SHM_DEFAULT_NAME);
    cfg->capacity = 256;
    cfg->period_ns = 50 * KVR_NS_PER_MS;
    cfg->timeout_ns = 0; /* 0: four periods, fixed after parsing */
    cfg->fail_threshold = 3;
    cfg->push_max_age_ns = 0; /* 0: ten periods */
    cfg->backoff_max_ns = 2 * KVR_NS_PER_SEC;
    cfg->relay_max_engines = 64;
    cfg->relay_max_changes = 16;
    snprintf(cfg->log_level, sizeof(cfg->log_level), "info");
}

void kvr_feed_config_free(kvr_feed_config_t *cfg)
{
    free(cfg->engines);
    cfg->engines = NULL;
    cfg->engine_count = cfg->engine_cap = 0;
}

const char *kvr_feed_kind_name(kvr_feed_kind_t kind)
{
    switch (kind) {
    case KVR_FEED_KIND_VLLM: return "vllm";
    case KVR_FEED_KIND_SGLANG: return "sglang";
    case KVR_FEED_KIND_PUSH: return "push";
    case KVR_FEED_KIND_RELAY: return "relay";
    }
    return "unknown";
}

void kvr_feed_usage(FILE *out)
{
    fputs(
        "usage: kvroute-statefeed [flags]\n"
        "\n"
        "Keeps the shared-memory state segment true: polls every engine each period\n"
        "(all polls of a tick in flight at once, each with its own timeout), takes\n"
        "pushed state frames and relayed tables, and writes one slot per engine.\n"
        "\n"
        "Engines:\n"
        "  --engine URL[,kind=vllm|sglang|push]\n"
        "                        an engine by its base URL, e.g. http://10.0.0.5:8000\n"
        "                        (repeatable). The URL exactly as written is the engine\n"
        "                        id in the segment; routers look slots up by it.\n"
        "                        vllm: scrape URL/metrics (default). sglang: GET\n"
        "                        URL/v1/loads?include=core, falling back to /metrics\n"
        "                        (caps then incomplete). push: frames only, no polling.\n"
        "  --config FILE         read flags from FILE, one `flag value` per line\n"
        "                        (leading -- optional, # starts a comment); flags on the\n"
        "                        command line override the file's. SIGHUP re-reads its\n"
        "                        engine lines: engines are added and removed.\n"
        "Segment:\n"
        "  --shm NAME            POSIX shm name of the segment (default /kvroute-state)\n"
        "  --capacity N          slots in the segment (default 256)\n"
        "Polling and health:\n"
        "  --period-ms N         tick period: polls, heartbeat, relay export (default 50)\n"
        "  --timeout-ms N        deadline of one poll, connect to last byte (default 4 periods)\n"
        "  --fail-threshold N    consecutive failed polls before a slot is marked\n"
        "                        unhealthy (default 3). Garbage answers mark it at once.\n"
        "  --backoff-max-ms N    longest wait before reconnecting a failing engine (default 2000)\n"
        "Push:\n"
        "  --push-socket PATH    receive msgpack state frames on this Unix datagram socket\n"
        "  --push-udp HOST:PORT  receive state frames over UDP too\n"
        "  --push-max-age-ms N   a push sample younger than this wins over polling the\n"
        "                        same engine; a push-only engine older than this counts\n"
        "                        a failure each tick (default 10 periods)\n"
        "Relay:\n"
        "  --export tcp:[HOST:]PORT\n"
        "                        stream every slot with its age to subscribers each tick.\n"
        "                        HOST defaults to 127.0.0.1: name the private interface\n"
        "                        (or 0.0.0.0) to serve other hosts, with --relay-secret-file\n"
        "  --import tcp:HOST:PORT\n"
        "                        subscribe to another statefeed's export and write its\n"
        "                        engines here (sample time = receipt time - age);\n"
        "                        repeatable, one per scheduler host (at most 16)\n"
        "  --relay-secret-file FILE\n"
        "                        shared secret (1-1024 bytes, trailing newline ignored):\n"
        "                        --export serves only importers that prove they hold it,\n"
        "                        --import takes tables only from an exporter that does\n"
        "                        (HMAC-SHA256 of the other end's fresh nonce; the secret\n"
        "                        never crosses the wire). Same file on both ends\n"
        "  --relay-max-engines N engines one --import may add here; a larger table's\n"
        "                        extra entries are ignored and counted (default 64)\n"
        "  --relay-max-changes N engines one --import may add or remove per second after\n"
        "                        its first table; more changes wait for a later table\n"
        "                        and are counted (default 16)\n"
        "Operations:\n"
        "  --listen HOST:PORT    serve this daemon's own Prometheus /metrics (tick lag,\n"
        "                        poll latency, failures and slot ages per engine)\n"
        "  --log-level LEVEL     debug, info, warn or error (default info)\n"
        "  --help                this text\n"
        "\n"
        "Signals: SIGTERM/SIGINT mark the writer stopped in the segment and exit;\n"
        "SIGHUP reloads the engine list from --config.\n",
        out);
}

int kvr_feed_engine_spec_parse(const char *text, kvr_feed_engine_spec_t *spec)
{
    memset(spec, 0, sizeof(*spec));
    const char *comma = strchr(text, ',');
    size_t url_len = comma ? (size_t)(comma - text) : strlen(text);
    if (url_len == 0 || url_len >= sizeof(spec->url))
        return -EINVAL;
    memcpy(spec->url, text, url_len);
    spec->url[url_len] = '\0';
    if (strncmp(spec->url, "http://", 7) != 0)
        return -EINVAL;
    spec->kind = KVR_FEED_KIND_VLLM;
    while (comma != NULL) {
        const char *opt = comma + 1;
        comma = strchr(opt, ',');
        size_t len = comma ? (size_t)(comma - opt) : strlen(opt);
        if (len == 11 && strncmp(opt, "kind=sglang", len) == 0)
            spec->kind = KVR_FEED_KIND_SGLANG;
        else if (len == 9 && strncmp(opt, "kind=vllm", len) == 0)
            spec->kind = KVR_FEED_KIND_VLLM;
        else if (len == 9 && strncmp(opt, "kind=push", len) == 0)
            spec->kind = KVR_FEED_KIND_PUSH;
        else
            return -EINVAL;
    }
    return 0;
}

static int add_engine_spec(kvr_feed_config_t *cfg, const char *text, bool from_file)
{
    kvr_feed_engine_spec_t spec;
    if (kvr_feed_engine_spec_parse(text, &spec) < 0)
        return -EINVAL;
    spec.from_file = from_file;
    for (unsigned i = 0; i < cfg->engine_count; i++)
        if (strcmp(cfg->engines[i].url, spec.url) == 0)
            return -EEXIST;
    if (cfg->engine_count == cfg->engine_cap) {
        unsigned cap = cfg->engine_cap ? cfg->engine_cap * 2 : 16;
        kvr_feed_engine_spec_t *n = realloc(cfg->engines, cap * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        cfg->engines = n;
        cfg->engine_cap = cap;
    }
    cfg->engines[cfg->engine_count++] = spec;
    return 0;
}

static int parse_ms(const char *value, uint64_t min_ms, uint64_t *out_ns)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || v < min_ms || v > 3600000ull)
        return -EINVAL;
    *out_ns = (uint64_t)v * KVR_NS_PER_MS;
    return 0;
}

static int copy_str(char *dst, size_t cap, const char *value)
{
    if (strlen(value) >= cap || value[0] == '\0')
        return -EINVAL;
    memcpy(dst, value, strlen(value) + 1);
    return 0;
}

/* One flag (without leading dashes) and its value; from argv or a file line. */
static int apply_flag(kvr_feed_config_t *cfg, const char *flag, const char *value,
                      bool from_file, bool engines_only)
{
    if (strcmp(flag, "engine") == 0)
        return add_engine_spec(cfg, value, from_file);
    if (engines_only)
        return 0;
    if (strcmp(flag, "shm") == 0)
        return copy_str(cfg->shm_name, sizeof(cfg->shm_name), value);
    if (strcmp(flag, "capacity") == 0) {
        char *end = NULL;
        unsigned long v = strtoul(value, &end, 10);
        if (end == value || *end != '\0' || v == 0 || v > KVR_SHM_MAX_CAPACITY)
            return -EINVAL;
        cfg->capacity = (uint32_t)v;
        return 0;
    }
    if (strcmp(flag, "period-ms") == 0)
        return parse_ms(value, 1, &cfg->period_ns);
    if (strcmp(flag, "timeout-ms") == 0)
        return parse_ms(value, 1, &cfg->timeout_ns);
    if (strcmp(flag, "push-max-age-ms") == 0)
        return parse_ms(value, 1, &cfg->push_max_age_ns);
    if (strcmp(flag, "backoff-max-ms") == 0)
        return parse_ms(value, 1, &cfg->backoff_max_ns);
    if (strcmp(flag, "fail-threshold") == 0) {
        char *end = NULL;
        unsigned long v = strtoul(value, &end, 10);
        if (end == value || *end != '\0' || v == 0 || v > 1000000)
            return -EINVAL;
        cfg->fail_threshold = (uint32_t)v;
        return 0;
    }
    if (strcmp(flag, "push-socket") == 0)
        return copy_str(cfg->push_socket, sizeof(cfg->push_socket), value);
    if (strcmp(flag, "push-udp") == 0)
        return copy_str(cfg->push_udp, sizeof(cfg->push_udp), value);
    if (strcmp(flag, "export") == 0)
        return strncmp(value, "tcp:", 4) ? -EINVAL
                                         : copy_str(cfg->export_addr, sizeof(cfg->export_addr), value);
    if (strcmp(flag, "import") == 0) {
        if (strncmp(value, "tcp:", 4) != 0 || cfg->import_count == KVR_FEED_MAX_IMPORTS)
            return -EINVAL;
        return copy_str(cfg->import_addrs[cfg->import_count++], sizeof(cfg->import_addrs[0]), value);
    }
    if (strcmp(flag, "relay-secret-file") == 0)
        return copy_str(cfg->relay_secret_file, sizeof(cfg->relay_secret_file), value);
    if (strcmp(flag, "relay-max-engines") == 0 || strcmp(flag, "relay-max-changes") == 0) {
        char *end = NULL;
        errno = 0;
        unsigned long v = strtoul(value, &end, 10);
        if (errno != 0 || end == value || *end != '\0' || v == 0 || v > KVR_FEED_MAX_ENGINES_CONFIG)
            return -EINVAL;
        *(strcmp(flag, "relay-max-engines") == 0 ? &cfg->relay_max_engines : &cfg->relay_max_changes) =
            (uint32_t)v;
        return 0;
    }
    if (strcmp(flag, "listen") == 0)
        return copy_str(cfg->listen_addr, sizeof(cfg->listen_addr), value);
    if (strcmp(flag, "log-level") == 0) {
        kvr_log_level_t level;
        if (kvr_log_level_parse(value, &level) < 0)
            return -EINVAL;
        return copy_str(cfg->log_level, sizeof(cfg->log_level), value);
    }
    if (strcmp(flag, "config") == 0 && !from_file)
        return copy_str(cfg->config_path, sizeof(cfg->config_path), value);
    return -ENOENT;
}

int kvr_feed_config_load_file(kvr_feed_config_t *cfg, const char *path, bool engines_only)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        int err = -errno;
        fprintf(stderr, "kvroute-statefeed: cannot read config %s: %s\n", path, strerror(-err));
        return err;
    }
    char line[1024];
    unsigned lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        char *p = line + strspn(line, " \t\r\n");
        if (*p == '\0')
            continue;
        char *flag = p;
        while (*flag == '-')
            flag++;
        char *sep = flag + strcspn(flag, " \t=");
        char *value = sep;
        if (*sep != '\0') {
            *sep = '\0';
            value = sep + 1 + strspn(sep + 1, " \t=");
        }
        size_t vlen = strlen(value);
        while (vlen > 0 && strchr(" \t\r\n", value[vlen - 1]) != NULL)
            value[--vlen] = '\0';
        int r = apply_flag(cfg, flag, value, true, engines_only);
        if (r < 0) {
            fprintf(stderr, "kvroute-statefeed: %s:%u: %s '%s %s'\n", path, lineno,
                    r == -ENOENT ? "unknown flag" : r == -EEXIST ? "engine given twice" : "bad value in",
                    flag, value);
            rc = -EINVAL;
            break;
        }
    }
    fclose(f);
    return rc;
}

/* Splits "--flag=value" or "--flag value"; advances *i past the value. */
static int split_arg(int argc, char **argv, int *i, char *flag, size_t cap, const char **value)
{
    const char *arg = argv[*i];
    if (strncmp(arg, "--", 2) != 0) {
        fprintf(stderr, "kvroute-statefeed: unexpected argument '%s' (see --help)\n", arg);
        return -EINVAL;
    }
    const char *eq = strchr(arg + 2, '=');
    if (eq != NULL) {
        size_t n = (size_t)(eq - (arg + 2));
        if (n >= cap)
            n = cap - 1;
        memcpy(flag, arg + 2, n);
        flag[n] = '\0';
        *value = eq + 1;
        return 0;
    }
    snprintf(flag, cap, "%s", arg + 2);
    if (*i + 1 >= argc) {
        fprintf(stderr, "kvroute-statefeed: --%s needs a value (see --help)\n", flag);
        return -EINVAL;
    }
    *value = argv[++*i];
    return 0;
}

int kvr_feed_config_parse_args(kvr_feed_config_t *cfg, int argc, char **argv)
{
    /* The file first, so a flag on the command line overrides the same line in it. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            kvr_feed_usage(stdout);
            return 1;
        }
    }
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *value;
        if (split_arg(argc, argv, &i, flag, sizeof(flag), &value) < 0)
            return -EINVAL;
        if (strcmp(flag, "config") == 0 && apply_flag(cfg, flag, value, false, false) < 0) {
            fprintf(stderr, "kvroute-statefeed: bad value for --config: '%s'\n", value);
            return -EINVAL;
        }
    }
    if (cfg->config_path[0] != '\0' && kvr_feed_config_load_file(cfg, cfg->config_path, false) < 0)
        return -EINVAL;
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *value;
        if (split_arg(argc, argv, &i, flag, sizeof(flag), &value) < 0)
            return -EINVAL;
        if (strcmp(flag, "config") == 0)
            continue;
        int rc = apply_flag(cfg, flag, value, false, false);
        if (rc == -ENOENT) {
            fprintf(stderr, "kvroute-statefeed: unknown flag --%s (see --help)\n", flag);
            return -EINVAL;
        }
        if (rc == -EEXIST) {
            fprintf(stderr, "kvroute-statefeed: engine %s given twice\n", value);
            return -EINVAL;
        }
        if (rc < 0) {
            fprintf(stderr, "kvroute-statefeed: bad value for --%s: '%s' (see --help)\n", flag, value);
            return -EINVAL;
        }
    }
    if (cfg->timeout_ns == 0)
        cfg->timeout_ns = 4 * cfg->period_ns;
    if (cfg->push_max_age_ns == 0)
        cfg->push_max_age_ns = 10 * cfg->period_ns;
    if (cfg->engine_count == 0 && cfg->import_count == 0 && cfg->config_path[0] == '\0') {
        fprintf(stderr, "kvroute-statefeed: no engines: give --engine, --config or --import (see --help)\n");
        return -EINVAL;
    }
    if (cfg->relay_secret_file[0] != '\0') {
        /* Checked here so a missing secret stops the start with one line, before any socket opens. */
        uint8_t secret[KVR_RELAY_SECRET_MAX];
        size_t len = 0;
        const char *reason = NULL;
        int rc = kvr_relay_secret_read(cfg->relay_secret_file, secret, sizeof(secret), &len, &reason);
        OPENSSL_cleanse(secret, sizeof(secret));
        if (rc < 0) {
            fprintf(stderr, "kvroute-statefeed: --relay-secret-file %s: %s (%s)\n", cfg->relay_secret_file,
                    reason, kvr_strerror(rc));
            return -EINVAL;
        }
    }
    if (cfg->engine_count > cfg->capacity) {
        fprintf(stderr, "kvroute-statefeed: %u engines do not fit --capacity %u\n",
                cfg->engine_count, cfg->capacity);
        return -EINVAL;
    }
    return 0;
}
