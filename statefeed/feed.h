/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_FEED_H
#define KVR_STATEFEED_FEED_H

/*
 * kvroute-statefeed's shared state: the configuration, the engine table and
 * the daemon. One thread: everything below is touched only from the loop.
 */

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "common/log.h"
#include "shm_layout/residency.h"
#include "shm_layout/shm_layout.h"
#include "statefeed/http_client.h"
#include "statefeed/op.h"

#define KVR_FEED_MAX_ENGINES_CONFIG 4096
#define KVR_FEED_LATENCY_BUCKETS 12
#define KVR_FEED_MAX_IMPORTS 16
#define KVR_FEED_MAX_ENGINE_DNS 16
#define KVR_FEED_MAX_IMPORT_DNS 4    /* --import-dns names */
#define KVR_FEED_MAX_DNS_PEERS 1024  /* --import-dns-max-peers at most */
#define KVR_FEED_ENGINE_DNS_MAX 262  /* NAME:PORT, a 253-byte name (common/dns_watch.h) */
#define KVR_FEED_PUSH_DRAIN_BATCH 32 /* datagrams taken per recvmmsg */
#define KVR_FEED_PUSH_DGRAM_MAX 1025 /* KVR_STATE_FRAME_MAX + 1: an oversize datagram shows */

typedef enum {
    KVR_FEED_KIND_VLLM = 0, /* scrape /metrics */
    KVR_FEED_KIND_SGLANG,   /* /v1/loads?include=core, falling back to /metrics */
    KVR_FEED_KIND_PUSH,     /* frames only */
    KVR_FEED_KIND_RELAY,    /* imported from another statefeed */
} kvr__feed_kind_t;

/** One --engine entry. */
typedef struct kvr__feed_engine_spec_s {
    char url[KVR_SHM_ENGINE_ID_MAX];
    kvr__feed_kind_t kind;
    bool from_file;          /* came from --config: SIGHUP may remove it */
    uint16_t kv_events_port; /* kv_events=PORT: the engine's KV event PUB, 0 = none */
    uint16_t kv_replay_port; /* kv_replay=PORT: its replay ROUTER, 0 = none */
    uint16_t kv_dp_ranks;    /* kv_dp=N: ranks on PORT + rank (0 = 1) */
} kvr__feed_engine_spec_t;

/** One --engine-dns entry. */
typedef struct kvr__feed_engine_dns_s {
    char spec[KVR_FEED_ENGINE_DNS_MAX]; /* NAME:PORT */
    kvr__feed_kind_t kind;
} kvr__feed_engine_dns_t;

typedef struct kvr__feed_config_s {
    kvr__feed_engine_spec_t *engines;
    unsigned engine_count, engine_cap;
    kvr__feed_engine_dns_t engine_dns[KVR_FEED_MAX_ENGINE_DNS];
    unsigned engine_dns_count;
    uint64_t engine_dns_interval_s;
    int engine_dns_family; /* index of kvr_dns_watch_family_names */
    uint32_t engine_dns_drain_after;
    char config_path[1024];
    char shm_name[256];
    uint32_t capacity;
    uint32_t cache_index_mb; /* --cache-index-mb: the residency table's size; 0 off */
    uint64_t period_ns;
    uint64_t timeout_ns; /* per poll */
    uint32_t fail_threshold;
    uint64_t push_max_age_ns; /* a push sample this young beats a scrape */
    uint64_t backoff_max_ns;
    char push_socket[108];
    char push_udp[256];
    char export_addr[256];                        /* "tcp:PORT" (loopback) or "tcp:HOST:PORT" */
    char import_addrs[KVR_FEED_MAX_IMPORTS][256]; /* "tcp:HOST:PORT" each */
    unsigned import_count;
    char import_dns[KVR_FEED_MAX_IMPORT_DNS][KVR_FEED_ENGINE_DNS_MAX]; /* NAME:PORT each */
    unsigned import_dns_count;
    uint32_t import_dns_max_peers;   /* peers all --import-dns names may add together */
    char relay_secret_file[1024];    /* both ends: HMAC handshake with this secret */
    uint32_t relay_max_engines;      /* per --import */
    uint32_t relay_max_changes;      /* engines added or removed per second, per --import */
    char share_name[256];            /* --share: this host's dispatch segment, relayed; "" off */
    uint64_t share_max_age_ns;       /* a local router silent this long is not exported */
    uint32_t relay_max_placements;   /* remote placements taken per second, per --import */
    char listen_addr[256];           /* "HOST:PORT" */
    uint32_t listen_max_connections; /* --listen: connections open at once */
    uint32_t listen_max_connections_per_peer; /* --listen: ... from one address; 0 = no limit */
    uint64_t kv_max_blocks;                   /* KV event blocks kept per engine rank */
    bool kv_drop_on_usage_fall;               /* KV usage 0.5+ -> ~0 drops the blocks */
    uint64_t kv_max_block_events;             /* per engine per second; 0 no limit */
    kvr_log_level_t log_level;
} kvr__feed_config_t;

/** One engine the feed keeps a slot for. */
typedef struct kvr__feed_engine_s {
    struct kvr__feed_s *feed;
    char id[KVR_SHM_ENGINE_ID_MAX];
    kvr__feed_kind_t kind;
    bool from_file;
    bool removed; /* dropped by a reload; freed when no request is in flight */
    uint32_t slot;
    kvr__http_client_conn_t http; /* scrape / loads engines */
    bool named; /* the URL's host is a name: resolved off the loop, again when it fails */
    struct kvr__resolve_s *resolving; /* the name's resolution in flight, NULL when none */
    uint32_t failed_in_row;           /* polls failed since the last good one */
    unsigned relay_source;            /* relay engines: 1 + index of the --import that owns it */
    bool loads_unsupported;           /* SGLang without /v1/loads: scrape /metrics instead */
    bool poll_is_loads;               /* the poll in flight asked /v1/loads */
    uint64_t loads_retry_ns;          /* when to try /v1/loads again after a fallback */
    uint64_t poll_started_ns;
    uint64_t backoff_until_ns;
    uint64_t backoff_ns;
    uint64_t last_push_ns;  /* local receipt of the last push frame, 0 = never */
    uint64_t last_push_seq; /* the sender's frame counter, for loss accounting */
    bool has_push_seq;
    const char *last_reason; /* why the last poll failed, for the transition log */
    bool logged_unhealthy;
    /* own metrics */
    uint64_t polls_ok, polls_failed, garbage, push_frames, push_frames_lost;
    uint64_t latency_buckets[KVR_FEED_LATENCY_BUCKETS + 1];
    uint64_t latency_sum_ns, latency_count;
    struct kvr__kv_engine_s *kv; /* its KV event subscription (kv_feed.h), NULL when none */
} kvr__feed_engine_t;

typedef struct kvr__push_sock_s {
    int fd;
    kvr__op_t op;
    struct kvr__feed_s *feed;
    char buf[KVR_SHM_ENGINE_ID_MAX * 16];
} kvr__push_sock_t;

struct kvr__relay_s;
struct kvr__share_s;
struct kvr__metrics_s;
struct kvr__discovery_s;
struct kvr__peers_s;

typedef struct kvr__feed_s {
    kvr__feed_config_t cfg;
    struct io_uring ring;
    kvr_shm_t shm;
    uint64_t segment_repairs; /* times the segment was found shrunk, overwritten or replaced */
    int segment_error;        /* the last repair failure, logged once per change */
    kvr_residency_writer_t residency; /* --cache-index-mb; meaningful when residency_on */
    bool residency_on;
    kvr__feed_engine_t **engines;
    unsigned engine_count, engine_cap;
    /* tick */
    kvr__op_t tick_op;
    struct __kernel_timespec tick_ts;
    uint64_t next_tick_ns;
    uint64_t last_tick_ns;
    uint64_t ticks;
    unsigned polls_in_flight; /* HTTP polls started and not yet answered */
    kvr__op_t recv_phase_op;
    struct __kernel_timespec recv_phase_ts;
    bool recv_phase_armed;
    unsigned recv_phase_round; /* probes since the tick */
    uint64_t tick_lag_buckets[KVR_FEED_LATENCY_BUCKETS + 1];
    uint64_t tick_lag_sum_ns, tick_lag_count;
    /* signals */
    int signal_fd;
    kvr__op_t signal_op;
    char signal_buf[128];
    bool stopping;
    bool reload_pending;
    /* push */
    kvr__push_sock_t push_unix, push_udp;
    char push_drain_bufs[KVR_FEED_PUSH_DRAIN_BATCH][KVR_FEED_PUSH_DGRAM_MAX];
    uint64_t push_rejected, push_unknown_engine;
    uint64_t engines_over_capacity; /* engines refused a slot: every one of --capacity taken */
    bool over_capacity_logged;      /* since the last engine that got a slot */
    /* relay and own metrics */
    struct kvr__relay_s *relay;
    struct kvr__share_s *share; /* --share (share.h) */
    struct kvr__metrics_s *metrics;
    struct kvr__discovery_s *discovery; /* --engine-dns, NULL when none */
    struct kvr__peers_s *peers;         /* --import-dns, NULL when none */
    struct kvr__kv_s *kv;               /* KV event subscriptions (kv_feed.h), NULL when none */
} kvr__feed_t;

/* ---- loop.c ---- */
/** Creates the ring, the segment, the engines and every endpoint; 0 or negative (logged). */
int kvr__feed_open(kvr__feed_t *feed);
/** Runs ticks until SIGTERM/SIGINT. */
int kvr__feed_run(kvr__feed_t *feed);
/** Marks the writer stopped and releases everything. */
void kvr__feed_close(kvr__feed_t *feed);

/* ---- config.c ---- */
/** Defaults for every flag. */
void kvr__feed_config_init(kvr__feed_config_t *cfg);
/** Parses argv; 1 when --help was printed, 0, or -EINVAL with a one-line error on stderr. */
int kvr__feed_config_parse_args(kvr__feed_config_t *cfg, int argc, char **argv);
/** Reads cfg->config_path; engines from it are marked from_file. 0 or negative with a logged line. */
int kvr__feed_config_load_file(kvr__feed_config_t *cfg, const char *path, bool engines_only);
/** Parses "URL[,kind=K]" into spec. */
int kvr__feed_engine_spec_parse(const char *text, kvr__feed_engine_spec_t *spec, char *err,
                                size_t err_len);
/** Frees the engine list. */
void kvr__feed_config_free(kvr__feed_config_t *cfg);
/** Prints --help. */
void kvr__feed_usage(FILE *out);
/** "vllm", "sglang", "push", "relay". */
const char *kvr__feed_kind_name(kvr__feed_kind_t kind);

/* ---- engines.c ---- */
/**
 * Adds an engine and its slot; 0 or negative (logged). A host name is
 * resolved now before the loop runs (start-up), else off the loop: the
 * engine is polled from the tick after its address came.
 */
int kvr__feed_engine_add(kvr__feed_t *feed, const char *id, kvr__feed_kind_t kind, bool from_file);
/** Frees an engine taken out of the table (a resolution in flight is forgotten). */
void kvr__feed_engine_free(kvr__feed_engine_t *e);
/** Removes an engine's slot now; its memory goes when no request is in flight. */
void kvr__feed_engine_remove(kvr__feed_t *feed, kvr__feed_engine_t *engine);
/** The engine with this id, NULL when none. */
kvr__feed_engine_t *kvr__feed_engine_find(kvr__feed_t *feed, const char *id);
/** Starts this tick's polls. */
void kvr__feed_engines_tick(kvr__feed_t *feed, uint64_t now_ns);
/** Posts the receives of the polls whose requests are out (see kvr__http_client_recv_now). */
void kvr__feed_engines_recv_phase(kvr__feed_t *feed, bool probe);
/** Applies the config file's engine list again (SIGHUP). */
void kvr__feed_engines_reload(kvr__feed_t *feed);
/** Frees removed engines whose requests have all completed. */
void kvr__feed_engines_reap(kvr__feed_t *feed);

/* ---- discovery.c ---- */
/** Starts resolving every --engine-dns name (nothing without one); 0 or negative (logged). */
int kvr__feed_discovery_start(kvr__feed_t *feed);
/** Runs the resolver's completions and timers (each tick): engines join and leave here. */
void kvr__feed_discovery_tick(kvr__feed_t *feed);
/** Stops resolving (waits for a resolution in flight) and frees the state. */
void kvr__feed_discovery_stop(kvr__feed_t *feed);
struct kvr_prom_writer_s;
/** The libuv loop names are resolved on (each tick runs it); NULL before the loop runs. */
struct uv_loop_s *kvr__feed_resolver_loop(kvr__feed_t *feed);
/** The kvroute_statefeed_discovery_* families (none without --engine-dns). */
void kvr__feed_discovery_metrics(kvr__feed_t *feed, struct kvr_prom_writer_s *w);

/* ---- scrape.c / loads.c: turn a response body into state ---- */
/** Parses a /metrics page into out; 0 or negative with *reason. */
int kvr__feed_scrape_parse(const char *body, size_t len, kvr_engine_state_t *out,
                           const char **reason);
/** Parses a /v1/loads body into out; 0 or negative with *reason. */
int kvr__feed_loads_parse(const char *body, size_t len, kvr_engine_state_t *out,
                          const char **reason);
/** True when this poll of engine should ask /v1/loads (SGLang, not fallen back, or time to retry). */
bool kvr__feed_loads_wanted(kvr__feed_engine_t *engine, uint64_t now_ns);
/** Handles a /v1/loads answer with this status: true when it means "not supported" (fallback armed). */
bool kvr__feed_loads_fallback(kvr__feed_engine_t *engine, int status, uint64_t now_ns);

/* ---- publish.c ---- */
/**
 * Publishes a new sample observed at sample_ns from source: marks the slot
 * healthy, resets failures, bumps sample_seq.
 */
void kvr__feed_publish_sample(kvr__feed_t *feed, kvr__feed_engine_t *engine,
                              const kvr_engine_state_t *sample, kvr_source_t source,
                              uint64_t sample_ns, uint64_t now_ns);
/**
 * Records a failed poll: the sample time stays, failures count up, and the
 * slot turns unhealthy at the threshold (at once when immediate: garbage).
 */
void kvr__feed_publish_failure(kvr__feed_t *feed, kvr__feed_engine_t *engine, const char *reason,
                               bool immediate, uint64_t now_ns);
/**
 * Publishes a relayed sample as the remote feed saw it: its health and
 * failure count, sample time = receipt - age (never moving backwards).
 */
void kvr__feed_publish_relayed(kvr__feed_t *feed, kvr__feed_engine_t *engine,
                               const kvr_engine_state_t *sample, uint64_t sample_ns, bool healthy,
                               uint64_t now_ns);
/** Records a poll's latency in the engine's histogram. */
void kvr__feed_record_latency(kvr__feed_engine_t *engine, uint64_t latency_ns);
/** Bucket upper bounds in ns shared by the histograms. */
extern const double kvr__feed_latency_bounds_ns[KVR_FEED_LATENCY_BUCKETS];
/** Adds one observation to a histogram of KVR_FEED_LATENCY_BUCKETS + 1 counters. */
void kvr__feed_histogram_add(uint64_t *buckets, uint64_t value_ns);

/* ---- push.c ---- */
/** Binds the configured push sockets and arms their receives. */
int kvr__feed_push_start(kvr__feed_t *feed);
/** A datagram arrived (or failed) on sock. */
void kvr__feed_push_on_cqe(kvr__feed_t *feed, kvr__push_sock_t *sock, int res);
/** Handles one frame's bytes; 0 or negative (counted and logged). Exposed for tests. */
int kvr__feed_push_frame(kvr__feed_t *feed, const void *buf, size_t len, uint64_t now_ns);
/** Closes the push sockets and removes the Unix socket path. */
void kvr__feed_push_stop(kvr__feed_t *feed);

/* ---- relay.c ---- */
/** Starts --export and --import when configured. */
int kvr__feed_relay_start(kvr__feed_t *feed);
/** Streams the table to export subscribers (once per tick) and ticks the import's health. */
void kvr__feed_relay_tick(kvr__feed_t *feed, uint64_t now_ns);
/** Completions of relay operations. */
void kvr__feed_relay_on_cqe(kvr__feed_t *feed, kvr__op_t *op, int res);
void kvr__feed_relay_stop(kvr__feed_t *feed);
/** What the metrics endpoint reports about relays. */
typedef struct kvr__feed_relay_stats_s {
    unsigned subscribers; /* export subscribers streaming */
    uint64_t export_refused;
    unsigned imports; /* import places ever used: kvr__feed_relay_import_stats' bound */
} kvr__feed_relay_stats_t;
/** One import's figures. */
typedef struct kvr__feed_import_stats_s {
    const char *addr; /* "tcp:HOST:PORT" */
    bool connected;
    bool self;                 /* found to be this daemon's own export */
    uint64_t rejected;         /* streams dropped for a bad frame */
    uint64_t engines_refused;  /* entries over --relay-max-engines */
    uint64_t changes_deferred; /* adds/removals over --relay-max-changes */
} kvr__feed_import_stats_t;
void kvr__feed_relay_stats(const kvr__feed_t *feed, kvr__feed_relay_stats_t *out);
/** Import place k's figures; false when no peer holds it. */
bool kvr__feed_relay_import_stats(const kvr__feed_t *feed, unsigned k,
                                  kvr__feed_import_stats_t *out);
/** The address --export is bound to; -ENOENT without --export. */
int kvr__feed_relay_export_bound(const kvr__feed_t *feed, struct sockaddr_storage *addr,
                                 socklen_t *len);
/** "tcp:ADDR:PORT" ("tcp:[ADDR6]:PORT") of a DNS peer, NUL included. */
#define KVR_DNS_PEER_ADDR_MAX 64
/**
 * Imports a peer found by DNS while the daemon runs: 0, -EEXIST when a live
 * import has that address, -ENOSPC past --import-dns-max-peers, -ENOMEM.
 */
int kvr__feed_relay_import_add(kvr__feed_t *feed, const struct sockaddr *sa, socklen_t len,
                               const char *addr_text);
/** Drops a DNS peer and the engines it relayed (a fixed --import is never dropped). */
void kvr__feed_relay_import_remove(kvr__feed_t *feed, const char *addr_text);

/* ---- peers.c ---- */
/** Starts the --import-dns watches on the resolver loop (after kvr__feed_discovery_start). */
int kvr__feed_peers_start(kvr__feed_t *feed);
/** Stops them (before kvr__feed_discovery_stop, whose loop finishes them). */
void kvr__feed_peers_stop(kvr__feed_t *feed);
/** Frees them, after kvr__feed_discovery_stop. */
void kvr__feed_peers_free(kvr__feed_t *feed);
struct kvr_prom_writer_s;
/** kvroute_statefeed_import_dns_* families. */
void kvr__feed_peers_metrics(kvr__feed_t *feed, struct kvr_prom_writer_s *w);

/* ---- metrics.c ---- */
/** Starts the --listen endpoint (libuv server polled from the ring). */
int kvr__feed_metrics_start(kvr__feed_t *feed);
/** The uv backend fd became readable, or a tick passed: run libuv once. */
void kvr__feed_metrics_on_cqe(kvr__feed_t *feed, int res);
void kvr__feed_metrics_tick(kvr__feed_t *feed);
void kvr__feed_metrics_stop(kvr__feed_t *feed);
/** Renders the Prometheus page into a malloc'd string. */
char *kvr__feed_metrics_render(kvr__feed_t *feed, size_t *len);

#endif
