/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_SIM_SIM_H
#define KVR_BENCH_SIM_SIM_H

/*
 * kvroute-sim: a fleet of simulated engines in one process. Each engine has
 * its own port (its own HTTP server), 1..dp ranks (one model each, stepping
 * on its own timer), its faults and its counters. engine.c holds the fleet,
 * faults and admin; surfaces.c the OpenAI endpoints; metrics.c the vLLM and
 * SGLang telemetry; push.c the msgpack state frames.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

#include "bench/sim/model.h"
#include "common/http_server.h"

#define KVR_SIM_TTFT_BUCKETS 22

typedef enum { KVR_SIM_FLAVOR_VLLM = 0, KVR_SIM_FLAVOR_SGLANG } kvr_sim_flavor_t;

typedef struct kvr_sim_faults_s {
    bool crashed;              /* port closed, connections cut */
    bool stalled;              /* accepts, never answers (admin paths excepted) */
    uint32_t slow_metrics_ms;  /* delay before /metrics, /v1/loads, /get_load answer */
    double error_rate;         /* fraction of completions answered 503 */
    int32_t drop_after_tokens; /* cut each completion after this many tokens; -1 off */
    bool garbage_metrics;      /* telemetry endpoints answer unparseable bodies */
    bool lose_transfers;       /* a decode's KV never arrives: it is held, never answered */
} kvr_sim_faults_t;

/* An SGLang room: which prefill engine builds its KV, and when it was done (bench/sim/pd.c). */
#define KVR_SIM_PD_ROOMS 1024
typedef struct kvr_sim_pd_room_s {
    bool used;
    uint64_t room;
    int owner;           /* the prefill engine's index */
    uint64_t ready_ns;   /* the prefill's last prompt token; 0: still computing */
    uint64_t expires_ns; /* --kv-hold-ms after it opened */
} kvr_sim_pd_room_t;

/* KV a prefill holds for a decode engine to pull (bench/sim/pd.c). */
#define KVR_SIM_PD_TICKETS 256
typedef struct kvr_sim_pd_ticket_s {
    uint64_t first_block;
    uint32_t n_blocks; /* 0: free */
    uint64_t expires_ns;
} kvr_sim_pd_ticket_t;

typedef struct kvr_sim_config_s {
    const char *host;
    int port; /* first engine's port; engine i listens on port + i */
    int engines;
    int dp; /* ranks per engine */
    kvr_sim_flavor_t flavor;
    bool vllm_v0_metrics; /* KV gauge under its pre-v1 name vllm:gpu_cache_usage_perc */
    const char *model_name;
    kvr_sim_params_t params; /* per engine; max_running and kv_tokens are split over ranks */
    double time_scale;       /* simulated seconds per real second */
    uint64_t seed;
    uint32_t default_max_tokens;
    uint32_t max_model_len;
    const char *engine_id_prefix;      /* NULL: engine id = "http://HOST:PORT" */
    const char *push;                  /* "unix:PATH", "udp:HOST:PORT" or NULL */
    uint32_t push_interval_ms;         /* at most one frame per engine per interval */
    uint32_t push_idle_ms;             /* frame cadence while idle */
    int admin_port;                    /* fleet-wide admin server, 0 = none */
    uint32_t max_connections;          /* per engine (and admin) server: connections open at once */
    uint32_t max_connections_per_peer; /* ... from one address; 0 = no per-address limit */
    kvr_sim_faults_t faults;           /* initial faults of the engines selected by fault_engines */
    const bool *fault_engines;         /* engines[i] gets faults (and crash_after_ms); NULL = all */
    uint32_t crash_after_ms;           /* crash those engines after this long; 0 = never */
    const char *tokenizer_dir;         /* --tokenizer DIR, NULL: prompts are text bytes / 4 */
    struct kvr_model_tokens_s
        *tokens;        /* loaded from tokenizer_dir: prefill counted in its tokens */
    int kv_events_port; /* KV events of engine i rank r on this + i * dp + r, 0 = off */
    int kv_replay_port; /* their replay sockets, likewise; 0 = none */
    int kv_encoding;    /* 0: vLLM's map-tagged events, 1: positional arrays (SGLang, older vLLM) */
    uint64_t kv_hold_ms;         /* a prefill's KV waits this long for its decode engine */
    const bool *prefill_engines; /* --prefill-engines: SGLang's prefill role; NULL = none */
    uint32_t bootstrap_port;     /* engine i's SGLang bootstrap port is this + i; 0: unchecked */
    double kv_transfer_gbps;     /* KV moves between engines at this rate; 0: at once */
    uint64_t kv_bytes_per_token; /* KV of one token, all layers */
    const char *tls_cert;        /* engines speak TLS with this pair (common/tls.h); NULL = plain */
    const char *tls_key;
} kvr_sim_config_t;

typedef struct kvr_sim_fleet_s kvr_sim_fleet_t;
typedef struct kvr_sim_engine_s kvr_sim_engine_t;
typedef struct kvr_sim_call_s kvr_sim_call_t;

typedef struct kvr_sim_rank_s {
    kvr_sim_engine_t *engine;
    int index;
    kvr_sim_model_t model;
    uv_timer_t step_timer;
    bool timer_armed;
    uint64_t due_ns; /* when the step in flight ends (monotonic), 0 when idle */
    /* histograms and rates for the telemetry */
    uint64_t ttft_buckets[KVR_SIM_TTFT_BUCKETS + 1]; /* last one is +Inf */
    double ttft_sum;
    uint64_t ttft_count;
    uint64_t e2e_buckets[KVR_SIM_TTFT_BUCKETS + 1];
    double e2e_sum;
    uint64_t rate_last_ns, rate_last_tokens, rate_last_busy_ns;
    double gen_throughput, utilization;
    struct kvr_sim_kv_pub_s *kv; /* its KV event publisher (kv_events.c), NULL when off */
} kvr_sim_rank_t;

struct kvr_sim_engine_s {
    kvr_sim_fleet_t *fleet;
    int index;
    int port;
    char engine_id[128];
    kvr_http_server_t *server;
    kvr_sim_rank_t *ranks;
    int dp;
    uint32_t next_rank;
    kvr_sim_faults_t faults;
    uint64_t rng; /* splitmix64 state (common/rng.h), seeded per engine */
    uint64_t next_request_id;
    kvr_sim_call_t *calls; /* completions in flight */
    kvr_http_req_t **held; /* requests held by a stall or slow metrics */
    size_t nheld, held_cap;
    uv_timer_t push_timer;
    uv_timer_t crash_timer; /* defers a crash so the admin answer leaves first */
    uint64_t last_push_ns;
    uint64_t push_seq;
    uint64_t requests_total, requests_rejected, requests_dropped, requests_aborted;
    kvr_sim_pd_ticket_t pd_tickets[KVR_SIM_PD_TICKETS];
    uint32_t pd_next;
    uint64_t pd_next_block;
};

struct kvr_sim_fleet_s {
    uv_loop_t *loop;
    kvr_sim_config_t cfg;
    kvr_sim_engine_t *engines;
    kvr_http_server_t *admin;
    char model_json[256]; /* the model name as a JSON string literal */
    int push_fd;
    struct sockaddr_storage push_addr;
    socklen_t push_addr_len;
    uint64_t push_errors;
    bool push_blocking; /* Unix target: sends wait (bounded) for room in its queue */
    uv_timer_t crash_timer;
    void *zctx;          /* ZMQ context of the KV event publishers, NULL when off */
    uv_timer_t kv_timer; /* flushes KV event batches, answers replay requests */
    kvr_sim_pd_room_t pd_rooms[KVR_SIM_PD_ROOMS];
    struct kvr_sim_pd_wait_s *pd_waits; /* decodes waiting for their KV (pd.c) */
    uv_timer_t pd_timer;                /* the first of them to start or fail */
    bool stopping;
    int pending_closes;
    struct kvr_tls_ctx_s *tls; /* --tls-cert: every engine's TLS; NULL = plain HTTP */
};

/* engine.c */
/** Starts every engine's server (and the admin one); -errno when a port cannot be bound. */
int kvr_sim_fleet_start(kvr_sim_fleet_t *fleet, uv_loop_t *loop, const kvr_sim_config_t *cfg);
/** Closes every server and timer; the loop then runs dry. */
void kvr_sim_fleet_stop(kvr_sim_fleet_t *fleet);
/** Frees the fleet's memory once the loop has run dry after kvr_sim_fleet_stop. */
void kvr_sim_fleet_free(kvr_sim_fleet_t *fleet);
/** Arms the rank's step timer when it has work and no step in flight. */
void kvr_sim_rank_kick(kvr_sim_rank_t *rank);
/** Keeps req unanswered (stall, slow metrics); released on abort or when the fault clears. */
void kvr_sim_engine_hold(kvr_sim_engine_t *e, kvr_http_req_t *req);
void kvr_sim_engine_unhold(kvr_sim_engine_t *e, kvr_http_req_t *req);
/** Monotonic ns: all times are real; only step durations are scaled by --time-scale. */
uint64_t kvr_sim_now_ns(void);

/* surfaces.c */
/** Serves the OpenAI and health endpoints; false when the path is not one of them. */
bool kvr_sim_serve_openai(kvr_sim_engine_t *e, kvr_http_req_t *req);
/** A model event of a completion (token or finish). */
void kvr_sim_call_event(kvr_sim_req_t *mreq, kvr_sim_event_t ev, void *arg);
/** Starts a call kvr_sim_pd_defer kept waiting: its stream begins, the model gets it. */
void kvr_sim_call_start(kvr_sim_call_t *c);
/** Answers a call kept waiting with an error, and frees it. */
void kvr_sim_call_fail(kvr_sim_call_t *c, int status, const char *type, const char *message);
/** Cancels and frees every completion in flight (crash): their clients are cut. */
void kvr_sim_calls_abort_all(kvr_sim_engine_t *e);

/* metrics.c */
/** Serves /metrics, /v1/loads, /get_load; false when the path is not one of them. */
bool kvr_sim_serve_telemetry(kvr_sim_engine_t *e, kvr_http_req_t *req);
/** Records TTFT and end-to-end latency of a finished request. */
void kvr_sim_rank_observe(kvr_sim_rank_t *rank, double ttft_s, double e2e_s);

/* kv_events.c */
/** Binds every rank's KV event sockets (nothing without --kv-events-port); -errno. */
int kvr_sim_kv_open(kvr_sim_fleet_t *fleet);
/** Sends the rank's pending events as one batch (nothing when none). */
void kvr_sim_kv_flush(kvr_sim_rank_t *rank);
/** Admin faults: the publisher restarts (sequence from 0, replay buffer gone), or the next n
 * batches are kept for replay but not sent (a subscriber sees a gap). */
void kvr_sim_kv_restart(kvr_sim_engine_t *e);
void kvr_sim_kv_drop(kvr_sim_engine_t *e, uint32_t n);
/** The rank's next sequence number, for /admin/state. */
uint64_t kvr_sim_kv_seq(const kvr_sim_rank_t *rank);
/** Subscriptions its publisher has seen. */
uint64_t kvr_sim_kv_subscriptions(const kvr_sim_rank_t *rank);
void kvr_sim_kv_close(kvr_sim_fleet_t *fleet);

/* push.c */
/** Opens the push socket for cfg->push; -EINVAL for a bad target. */
int kvr_sim_push_open(kvr_sim_fleet_t *fleet);
/** Sends the engine's state frame if the interval allows (force: always). */
void kvr_sim_push_frame(kvr_sim_engine_t *e, bool force);
void kvr_sim_push_close(kvr_sim_fleet_t *fleet);

#endif
