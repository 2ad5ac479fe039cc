/* SPDX-License-Identifier: Apache-2.0 */
/* Flags and the config file: the same `flag value` vocabulary in both. */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "common/clock.h"
#include "common/dns_watch.h"
#include "common/engine_spec.h"
#include "shm_layout/dispatch.h"
#include "shm_layout/residency.h"
#include "common/error.h"
#include "common/http_server.h"
#include "common/log.h"
#include "common/options.h"
#include "statefeed/feed.h"
#include "statefeed/relay_wire.h"

static int parse_engine(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len);
static int parse_engine_dns(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len);
static int parse_config(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len);
static int parse_export(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len);
static int parse_import(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len);
static int parse_import_dns(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len);

_Static_assert(KVR_SHM_DEFAULT_CAPACITY == 1024, "--capacity's default text below");

#define T kvr__feed_config_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_HEADING("Engines:"),
    KVR_OPT_ROW_CUSTOM(
        "engine", "URL[,kind=vllm|sglang|push][,kv_events=PORT[,kv_replay=PORT][,kv_dp=N]]", NULL,
        parse_engine,
        "http://HOST:PORT[,kind=vllm|sglang|push][,kv_events=PORT[,kv_replay=PORT][,kv_dp=N]], "
        "not given before",
        KVR_OPT_REPEAT,
        "an engine by its base URL http://HOST[:PORT] (port 80 by default, no path), e.g. "
        "http://10.0.0.5:8000. The normalised URL (host lower-cased, port written, no "
        "slash) is the engine id in the segment; routers look slots up by it. A name "
        "is resolved off the loop. vllm: scrape URL/metrics "
        "(default). sglang: GET URL/v1/loads?include=core, falling back to /metrics (caps then "
        "incomplete). push: frames only, no polling. kv_events=PORT subscribes to the engine's KV "
        "events (vLLM --kv-events-config endpoint, SGLang's kv events) at tcp://HOST:PORT; "
        "kv_replay=PORT names its replay socket, asked when the sequence has a gap; kv_dp=N "
        "reads N data-parallel ranks on PORT + rank (and the replay port + rank)."),
    KVR_OPT_ROW_U64(T, kv_max_blocks, "kv-max-blocks", "N", "1048576", 1, 1u << 30,
                    "KV event blocks kept per engine rank; beyond it the engine's block state is "
                    "untrusted"),
    KVR_OPT_ROW_U64(T, kv_max_block_events, "kv-max-block-events", "N", "200000", 0,
                    UINT64_C(1) << 40,
                    "KV event blocks (stored or removed) one engine may send per second, a "
                    "second's worth at once; batches beyond it are discarded and counted, the "
                    "engine's blocks dropped and its state untrusted until it slows. 0: no limit"),
    KVR_OPT_ROW_BOOL(T, kv_drop_on_usage_fall, "kv-drop-on-usage-fall", NULL,
                     "drop an engine's KV event blocks when its KV usage falls from 0.5 or more to "
                     "0.01 or less between two samples, as after an unseen restart. Off by "
                     "default: engines count evictable cached blocks as free, so usage also falls "
                     "so when a burst ends"),
    KVR_OPT_ROW_CUSTOM(
        "engine-dns", "NAME:PORT[,kind=vllm|sglang|push]", NULL, parse_engine_dns,
        "NAME:PORT[,kind=vllm|sglang|push] with a port in [1, 65535], at most 16 names",
        KVR_OPT_REPEAT,
        "discover engines: every address NAME resolves to (e.g. a Kubernetes headless Service, one "
        "address per pod) is an engine http://ADDR:PORT ([ADDR] for IPv6), the id kvroute "
        "--engine-dns gives it too; re-resolved every --engine-dns-interval-s off the loop. A new "
        "address gets a slot; one missing from --engine-dns-drain-after answers in a row loses its "
        "slot (the table generation bumps). A failed resolution keeps every engine; an answer "
        "beyond --capacity is capped and counted"),
    KVR_DNS_WATCH_OPTION_ROWS(T, "its slot is freed (the table generation bumps)"),
    KVR_OPT_ROW_CUSTOM(
        "config", "FILE", NULL, parse_config, "a path shorter than 1024 bytes", KVR_OPT_NO_FILE,
        "read flags from FILE, one `flag value` per line (leading -- optional, # starts a "
        "comment); flags on the command line override the file's. SIGHUP re-reads its engine "
        "lines: engines are added and removed."),
    KVR_OPT_ROW_HEADING("Segment:"),
    {.name = "shm",
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, shm_name),
     .size = sizeof(((T *)0)->shm_name),
     .arg = "NAME",
     .def = KVR_SHM_DEFAULT_NAME,
     .flags = KVR_OPT_NONEMPTY,
     .help = "POSIX shm name of the segment"},
    KVR_OPT_ROW_U64(
        T, capacity, "capacity", "N", "1024", 1, KVR_SHM_MAX_CAPACITY,
        "slots in the segment, one per engine (256 bytes each): at least the engines the "
        "routers reading it route to (the default is their --max-engines default; 16384 at "
        "most there). An engine past it is refused, logged and counted"),
    KVR_OPT_ROW_U64(T, cache_index_mb, "cache-index-mb", "N", "0", 0, KVR_RES_MAX_MB,
                    "MiB of the residency table /dev/shm/NAME-residency, which engines hold which "
                    "token blocks per their KV events, for the routers' --cache-state; 0 = off. "
                    "When full, new blocks are refused and counted, none evicted"),
    KVR_OPT_ROW_HEADING("Polling and health:"),
    KVR_OPT_ROW_MS(T, period_ns, "period-ms", "50", 1, 3600000,
                   "tick period: polls, heartbeat, relay export"),
    KVR_OPT_ROW_MS(T, timeout_ns, "timeout-ms", NULL, 1, 3600000,
                   "deadline of one poll, connect to last byte (default 4 periods)"),
    KVR_OPT_ROW_U64(
        T, fail_threshold, "fail-threshold", "N", "3", 1, 1000000,
        "consecutive failed polls before a slot is marked unhealthy. Garbage answers mark it at once."),
    KVR_OPT_ROW_MS(T, backoff_max_ns, "backoff-max-ms", "2000", 1, 3600000,
                   "longest wait before reconnecting a failing engine"),
    KVR_OPT_ROW_HEADING("Push:"),
    {.name = "push-socket",
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, push_socket),
     .size = sizeof(((T *)0)->push_socket),
     .arg = "PATH",
     .flags = KVR_OPT_NONEMPTY,
     .help = "receive msgpack state frames on this Unix datagram socket"},
    {.name = "push-udp",
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, push_udp),
     .size = sizeof(((T *)0)->push_udp),
     .arg = "HOST:PORT",
     .flags = KVR_OPT_NONEMPTY,
     .help = "receive state frames over UDP too"},
    KVR_OPT_ROW_MS(
        T, push_max_age_ns, "push-max-age-ms", NULL, 1, 3600000,
        "a push sample younger than this wins over polling the same engine; a push-only engine older "
        "than this counts a failure each tick (default 10 periods)"),
    KVR_OPT_ROW_HEADING("Relay:"),
    KVR_OPT_ROW_CUSTOM(
        "export", "tcp:[HOST:]PORT", NULL, parse_export, "tcp:[HOST:]PORT", 0,
        "stream every slot with its age to subscribers each tick. HOST defaults to 127.0.0.1: "
        "name the private interface (or 0.0.0.0) to serve other hosts, with --relay-secret-file"),
    KVR_OPT_ROW_CUSTOM(
        "import", "tcp:HOST:PORT", NULL, parse_import, "tcp:HOST:PORT, at most 16 of them",
        KVR_OPT_REPEAT,
        "subscribe to another statefeed's export and write its engines here (sample time = "
        "receipt time - age); one per scheduler host (at most 16)"),
    KVR_OPT_ROW_CUSTOM(
        "import-dns", "NAME:PORT", NULL, parse_import_dns,
        "NAME:PORT with a port in [1, 65535], at most 4 names", KVR_OPT_REPEAT,
        "find --import peers by DNS: every address NAME resolves to (a Kubernetes headless "
        "Service of the statefeed replicas, one address per pod) is imported as tcp:ADDR:PORT, "
        "except this daemon's own --export address; re-resolved every --engine-dns-interval-s "
        "(with --engine-dns-family), a peer missing from --engine-dns-drain-after answers in a "
        "row is dropped with the engines it relayed"),
    KVR_OPT_ROW_U64(T, import_dns_max_peers, "import-dns-max-peers", "N", "64", 1,
                    KVR_FEED_MAX_DNS_PEERS,
                    "--import-dns: peers imported at once over all names; addresses past it are "
                    "left out, logged and counted. --export then takes as many subscribers "
                    "again, beside its 16"),
    {.name = "relay-secret-file",
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, relay_secret_file),
     .size = sizeof(((T *)0)->relay_secret_file),
     .arg = "FILE",
     .flags = KVR_OPT_NONEMPTY,
     .help =
         "shared secret (1-1024 bytes, trailing newline ignored): --export serves only importers that "
         "prove they hold it, --import takes tables only from an exporter that does (HMAC-SHA256 of the "
         "other end's fresh nonce; the secret never crosses the wire). Same file on both ends"},
    KVR_OPT_ROW_U64(
        T, relay_max_engines, "relay-max-engines", "N", "64", 1, KVR_DSP_MAX_ENGINES,
        "engines one --import may add here; a larger table's extra entries are ignored and counted"),
    KVR_OPT_ROW_U64(
        T, relay_max_changes, "relay-max-changes", "N", "16", 1, KVR_DSP_MAX_ENGINES,
        "engines one --import may add or remove per second after its first table; more changes "
        "wait for a later table and are counted"),
    KVR_OPT_ROW_STRING(
        T, share_name, "share", "NAME", "",
        "carry this host's dispatch segment /dev/shm/NAME (its routers' kvroute --share NAME) "
        "over the relay: each table tells --import peers what the routers here hold and "
        "placed, and what peers send is written here as one more router's row and ring "
        "entries. Needs --export or --import; every host imports every other. Off when empty"),
    KVR_OPT_ROW_MS(
        T, share_max_age_ns, "share-max-age-ms", "3000", 1, 3600000,
        "--share: a local router whose heartbeat is older than this is not exported (as the "
        "routers' own --share-max-age-ms); also the age past which a dead row may be taken"),
    KVR_OPT_ROW_U64(
        T, relay_max_placements, "relay-max-placements", "N", "50000", 1, 10000000,
        "--share: placements one --import may append to the local ring per second; more are "
        "dropped and counted"),
    KVR_OPT_ROW_HEADING("Operations:"),
    {.name = "listen",
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, listen_addr),
     .size = sizeof(((T *)0)->listen_addr),
     .arg = "HOST:PORT",
     .flags = KVR_OPT_NONEMPTY,
     .help =
         "serve this daemon's own Prometheus /metrics (tick lag, poll latency, failures and slot ages per "
         "engine)"},
    KVR_OPT_ROW_U64(T, listen_max_connections, "max-connections", "N", "64", 1,
                    KVR_HTTP_MAX_CONNECTIONS_LIMIT,
                    "--listen: connections open at once; more are accepted and closed"),
    KVR_OPT_ROW_U64(
        T, listen_max_connections_per_peer, "max-connections-per-peer", "N", "16", 0,
        KVR_HTTP_MAX_CONNECTIONS_LIMIT,
        "--listen: connections open at once from one IP address, so that one client cannot "
        "lock the scraper out; 0 = no per-address limit"),
    KVR_OPT_ROW_LOG_LEVEL(T, log_level, "info", "debug, info, warn or error"),
    KVR_OPT_ROW_HELP,
};
#undef T

static kvr_opt_set_t option_set(kvr__feed_config_t *cfg)
{
    return (kvr_opt_set_t){
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = cfg};
}

void kvr__feed_config_init(kvr__feed_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    kvr_opt_set_t set = option_set(cfg);
    char err[256];
    int rc = kvr_opt_defaults(&set, err, sizeof err);
    (void)rc;
    assert(rc == 0); /* the defaults are the table's own text */
    /* timeout and push max age stay 0 here: they follow --period-ms, fixed after parsing */
}

void kvr__feed_config_free(kvr__feed_config_t *cfg)
{
    free(cfg->engines);
    cfg->engines = NULL;
    cfg->engine_count = cfg->engine_cap = 0;
}

const char *kvr__feed_kind_name(kvr__feed_kind_t kind)
{
    switch (kind) {
    case KVR_FEED_KIND_VLLM: return "vllm";
    case KVR_FEED_KIND_SGLANG: return "sglang";
    case KVR_FEED_KIND_PUSH: return "push";
    case KVR_FEED_KIND_RELAY: return "relay";
    }
    return "unknown";
}

void kvr__feed_usage(FILE *out)
{
    fputs("usage: kvroute-statefeed [flags]\n"
          "\n"
          "Keeps the shared-memory state segment true: polls every engine each period\n"
          "(all polls of a tick in flight at once, each with its own timeout), takes\n"
          "pushed state frames and relayed tables, and writes one slot per engine.\n"
          "\n",
          out);
    kvr_opt_set_t set = option_set(NULL);
    kvr_opt_help(out, &set);
    fputs("\n"
          "Signals: SIGTERM/SIGINT mark the writer stopped in the segment and exit;\n"
          "SIGHUP reloads the engine list from --config (--engine lines; engines --engine-dns\n"
          "found stay, the names are kept from the start).\n",
          out);
}

/* kv_events=PORT, kv_replay=PORT, kv_dp=N of an --engine into spec: 1 when opt is one, 0 if not. */
static int parse_kv_option(const kvr_engine_option_t *opt, kvr__feed_engine_spec_t *spec)
{
    static const struct {
        const char *key;
        unsigned max;
        size_t offset;
    } keys[] = {
        {"kv_events", 65535, offsetof(kvr__feed_engine_spec_t, kv_events_port)},
        {"kv_replay", 65535, offsetof(kvr__feed_engine_spec_t, kv_replay_port)},
        {"kv_dp", 256, offsetof(kvr__feed_engine_spec_t, kv_dp_ranks)},
    };
    for (size_t i = 0; spec != NULL && i < sizeof keys / sizeof keys[0]; i++) {
        if (!kvr_engine_option_is(opt, keys[i].key))
            continue;
        unsigned v = 0;
        if (opt->value_len == 0 || opt->value_len > 5)
            return -EINVAL;
        for (size_t k = 0; k < opt->value_len; k++) {
            if (opt->value[k] < '0' || opt->value[k] > '9')
                return -EINVAL;
            v = v * 10 + (unsigned)(opt->value[k] - '0');
        }
        if (v == 0 || v > keys[i].max)
            return -EINVAL;
        *(uint16_t *)((char *)spec + keys[i].offset) = (uint16_t)v;
        return 1;
    }
    return 0;
}

/*
 * The options of an engine (common/engine_spec.h's splitter): kind=, and with
 * spec the KV event ones; -EINVAL for others.
 */
static int parse_kind_options(const char *cursor, kvr__feed_kind_t *kind,
                              kvr__feed_engine_spec_t *spec, char *err, size_t err_len)
{
    static const struct {
        const char *name;
        kvr__feed_kind_t kind;
    } kinds[] = {{"sglang", KVR_FEED_KIND_SGLANG},
                 {"vllm", KVR_FEED_KIND_VLLM},
                 {"push", KVR_FEED_KIND_PUSH}};
    kvr_engine_option_t opt;
    int rc;
    while ((rc = kvr_engine_spec_next_option(&cursor, &opt, err, err_len)) > 0) {
        int kv = parse_kv_option(&opt, spec);
        if (kv < 0) {
            snprintf(
                err, err_len,
                "bad engine option '%.*s' (kv_events and kv_replay take a port in [1, 65535], "
                "kv_dp a rank count in [1, 256])",
                (int)(opt.key_len + 1 + opt.value_len > 64 ? 64 : opt.key_len + 1 + opt.value_len),
                opt.key);
            return -EINVAL;
        }
        bool known = kv > 0;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && kvr_engine_option_is(&opt, "kind");
             i++)
            if (strlen(kinds[i].name) == opt.value_len &&
                memcmp(kinds[i].name, opt.value, opt.value_len) == 0) {
                *kind = kinds[i].kind;
                known = true;
            }
        if (!known) {
            snprintf(
                err, err_len,
                "unknown engine option '%.*s' (expected kind=vllm|sglang|push, kv_events=PORT, "
                "kv_replay=PORT, kv_dp=N)",
                (int)(opt.key_len + 1 + opt.value_len > 64 ? 64 : opt.key_len + 1 + opt.value_len),
                opt.key);
            return -EINVAL;
        }
    }
    return rc;
}

int kvr__feed_engine_spec_parse(const char *text, kvr__feed_engine_spec_t *spec, char *err,
                                size_t err_len)
{
    memset(spec, 0, sizeof(*spec));
    kvr_engine_spec_t parsed;
    int rc = kvr_engine_spec_parse(text, strlen(text), &parsed, err, err_len);
    if (rc < 0)
        return rc;
    if (parsed.tls) { /* its io_uring client speaks plain HTTP only */
        snprintf(err, err_len,
                 "https:// engines are not supported by kvroute-statefeed: scrape "
                 "them over http:// (the router reaches them over TLS)");
        return -EINVAL;
    }
    snprintf(spec->url, sizeof(spec->url), "%s", parsed.url);
    spec->kind = KVR_FEED_KIND_VLLM;
    rc = parse_kind_options(parsed.options, &spec->kind, spec, err, err_len);
    if (rc == 0 && spec->kv_events_port == 0 && (spec->kv_replay_port || spec->kv_dp_ranks)) {
        snprintf(err, err_len, "kv_replay= and kv_dp= need kv_events=PORT");
        return -EINVAL;
    }
    return rc;
}

static int add_engine_spec(kvr__feed_config_t *cfg, const char *text, char *err, size_t err_len)
{
    kvr__feed_engine_spec_t spec;
    if (kvr__feed_engine_spec_parse(text, &spec, err, err_len) < 0)
        return -EINVAL;
    for (unsigned i = 0; i < cfg->engine_count; i++)
        if (strcmp(cfg->engines[i].url, spec.url) == 0)
            return -EEXIST;
    if (cfg->engine_count == cfg->engine_cap) {
        unsigned cap = cfg->engine_cap ? cfg->engine_cap * 2 : 16;
        kvr__feed_engine_spec_t *n = realloc(cfg->engines, cap * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        cfg->engines = n;
        cfg->engine_cap = cap;
    }
    cfg->engines[cfg->engine_count++] = spec;
    return 0;
}

static int parse_engine(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len)
{
    char why[200] = "";
    int rc = add_engine_spec(obj, value, why, sizeof why);
    if (rc == -EINVAL)
        snprintf(err, err_len, "--%s: %s in '%.200s'", opt->name, why, value);
    else if (rc == -EEXIST)
        snprintf(err, err_len, "--%s: engine %s given twice", opt->name, value);
    else if (rc == -ENOMEM)
        snprintf(err, err_len, "--%s: out of memory", opt->name);
    return rc;
}

static int parse_engine_dns(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len)
{
    kvr__feed_config_t *cfg = obj;
    char name[KVR_DNS_WATCH_NAME_MAX];
    uint16_t port;
    const char *rest;
    if (kvr_dns_watch_parse(value, name, sizeof name, &port, &rest) < 0)
        return -EINVAL;
    kvr__feed_engine_dns_t dns = {.kind = KVR_FEED_KIND_VLLM};
    size_t spec_len = rest[0] ? (size_t)(rest - 1 - value) : strlen(value);
    if (spec_len >= sizeof dns.spec)
        return -EINVAL;
    memcpy(dns.spec, value, spec_len);
    dns.spec[spec_len] = '\0';
    char why[200];
    if (parse_kind_options(rest, &dns.kind, NULL, why, sizeof why) < 0)
        return -EINVAL; /* the flag's one error line names the form */
    for (unsigned i = 0; i < cfg->engine_dns_count; i++)
        if (strcmp(cfg->engine_dns[i].spec, dns.spec) == 0) {
            snprintf(err, err_len, "--%s: %s given twice", opt->name, dns.spec);
            return -EINVAL;
        }
    if (cfg->engine_dns_count == KVR_FEED_MAX_ENGINE_DNS)
        return -EINVAL;
    cfg->engine_dns[cfg->engine_dns_count++] = dns;
    return 0;
}

static int copy_addr(char *dst, size_t cap, const char *value)
{
    if (strncmp(value, "tcp:", 4) != 0 || value[4] == '\0' || strlen(value) >= cap)
        return -EINVAL;
    memcpy(dst, value, strlen(value) + 1);
    return 0;
}

static int parse_config(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr__feed_config_t *cfg = obj;
    if (value[0] == '\0' || strlen(value) >= sizeof(cfg->config_path))
        return -EINVAL;
    memcpy(cfg->config_path, value, strlen(value) + 1);
    return 0;
}

static int parse_export(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr__feed_config_t *cfg = obj;
    return copy_addr(cfg->export_addr, sizeof(cfg->export_addr), value);
}

static int parse_import(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    kvr__feed_config_t *cfg = obj;
    if (cfg->import_count == KVR_FEED_MAX_IMPORTS ||
        copy_addr(cfg->import_addrs[cfg->import_count], sizeof(cfg->import_addrs[0]), value) < 0)
        return -EINVAL;
    cfg->import_count++;
    return 0;
}

static int parse_import_dns(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len)
{
    kvr__feed_config_t *cfg = obj;
    char name[KVR_DNS_WATCH_NAME_MAX];
    uint16_t port;
    const char *rest;
    if (kvr_dns_watch_parse(value, name, sizeof name, &port, &rest) < 0 || rest[0] != '\0' ||
        strlen(value) >= sizeof cfg->import_dns[0])
        return -EINVAL;
    for (unsigned i = 0; i < cfg->import_dns_count; i++)
        if (strcmp(cfg->import_dns[i], value) == 0) {
            snprintf(err, err_len, "--%s: %s given twice", opt->name, value);
            return -EINVAL;
        }
    if (cfg->import_dns_count == KVR_FEED_MAX_IMPORT_DNS)
        return -EINVAL;
    memcpy(cfg->import_dns[cfg->import_dns_count++], value, strlen(value) + 1);
    return 0;
}

int kvr__feed_config_load_file(kvr__feed_config_t *cfg, const char *path, bool engines_only)
{
    /* engines_only (SIGHUP): the whole file is checked, only its engine list is taken. */
    kvr__feed_config_t scratch;
    kvr__feed_config_t *into = cfg;
    if (engines_only) {
        kvr__feed_config_init(&scratch);
        scratch.engines = cfg->engines;
        scratch.engine_count = cfg->engine_count;
        scratch.engine_cap = cfg->engine_cap;
        into = &scratch;
    }
    unsigned first = into->engine_count;
    kvr_opt_set_t set = option_set(into);
    char err[1024];
    int rc = kvr_opt_load_file(&set, 1, path, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "kvroute-statefeed: %s\n", err);
    for (unsigned i = first; i < into->engine_count; i++)
        into->engines[i].from_file = true;
    if (engines_only) {
        cfg->engines = scratch.engines;
        cfg->engine_count = scratch.engine_count;
        cfg->engine_cap = scratch.engine_cap;
    }
    return rc < 0 ? rc : 0;
}

int kvr__feed_config_parse_args(kvr__feed_config_t *cfg, int argc, char **argv)
{
    char err[1024];
    /* A first pass finds --help, --config and any bad flag; the file is then read
     * before the command line so a flag given on both wins from the command line. */
    kvr__feed_config_t probe;
    kvr__feed_config_init(&probe);
    kvr_opt_set_t set = option_set(&probe);
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    int rc = kvr_opt_parse_args(&parser, argc, argv, err, sizeof err);
    char config_path[sizeof(cfg->config_path)];
    memcpy(config_path, probe.config_path, sizeof config_path);
    kvr__feed_config_free(&probe);
    if (rc == 1) {
        kvr__feed_usage(stdout);
        return 1;
    }
    if (rc < 0) {
        fprintf(stderr, "kvroute-statefeed: %s\n", err);
        return -EINVAL;
    }
    if (config_path[0] != '\0' && kvr__feed_config_load_file(cfg, config_path, false) < 0)
        return -EINVAL;
    set = option_set(cfg);
    rc = kvr_opt_parse_args(&parser, argc, argv, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "kvroute-statefeed: %s\n", err);
        return -EINVAL;
    }
    if (cfg->timeout_ns == 0)
        cfg->timeout_ns = 4 * cfg->period_ns;
    if (cfg->push_max_age_ns == 0)
        cfg->push_max_age_ns = 10 * cfg->period_ns;
    if (cfg->engine_count == 0 && cfg->engine_dns_count == 0 && cfg->import_count == 0 &&
        cfg->import_dns_count == 0 && cfg->config_path[0] == '\0') {
        fprintf(stderr, "kvroute-statefeed: no engines: give --engine, --engine-dns, --config, "
                        "--import or --import-dns (see --help)\n");
        return -EINVAL;
    }
    const char *share = cfg->share_name[0] == '/' ? cfg->share_name + 1 : cfg->share_name;
    if (cfg->share_name[0] != '\0' &&
        (share[0] == '\0' || strchr(share, '/') || strlen(share) > 200)) {
        fprintf(
            stderr,
            "kvroute-statefeed: --share: expected a name without '/' of at most 200 bytes, got '%s'\n",
            cfg->share_name);
        return -EINVAL;
    }
    if (cfg->share_name[0] != '\0' && cfg->export_addr[0] == '\0' && cfg->import_count == 0 &&
        cfg->import_dns_count == 0) {
        fprintf(stderr, "kvroute-statefeed: --share needs --export, --import or --import-dns: it "
                        "travels over the relay\n");
        return -EINVAL;
    }
    if (cfg->relay_secret_file[0] != '\0') {
        /* Checked here so a missing secret stops the start with one line, before any socket opens. */
        uint8_t secret[KVR_RELAY_SECRET_MAX];
        size_t len = 0;
        const char *reason = NULL;
        rc = kvr__relay_secret_read(cfg->relay_secret_file, secret, sizeof(secret), &len, &reason);
        OPENSSL_cleanse(secret, sizeof(secret));
        if (rc < 0) {
            fprintf(stderr, "kvroute-statefeed: --relay-secret-file %s: %s (%s)\n",
                    cfg->relay_secret_file, reason, kvr_strerror(rc));
            return -EINVAL;
        }
    }
    if (cfg->engine_count > cfg->capacity) {
        fprintf(stderr,
                "kvroute-statefeed: %u engines do not fit --capacity %u: raise --capacity (one "
                "256-byte slot per engine, at most %u)\n",
                cfg->engine_count, cfg->capacity, KVR_SHM_MAX_CAPACITY);
        return -EINVAL;
    }
    return 0;
}
