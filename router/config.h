/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_CONFIG_H
#define KVR_ROUTER_CONFIG_H

/*
 * kvroute's settings: command-line flags, or a config file with one
 * "flag value" per line (the long flag without its dashes, # comments).
 * The flags are rows of an option table (common/options.h); the policies'
 * table (kvr_policy_config_options) is parsed beside it, so
 * --overload-factor 1.3 works as any other flag.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/log.h"
#include "router/admission.h"
#include "router/keys.h"
#include "router/policy.h"
#include "router/sessions.h"
#include "shm_layout/shm_layout.h"

#define KVR_ROUTER_MAX_CONFIG_ENGINES 256
#define KVR_ROUTER_MAX_ENGINE_DNS 16
#define KVR_ROUTER_MAX_TOKENIZERS 64  /* KVR_TOKENIZERS_MAX */
#define KVR_ROUTER_ENGINE_DNS_MAX 262 /* NAME:PORT, a 253-byte name (common/dns_watch.h) */

/** What /readiness asks of the engines (--readiness). */
typedef enum {
    KVR_READINESS_EVERY_POOL = 0, /* each model pool has a healthy engine */
    KVR_READINESS_ANY_POOL,       /* some engine is healthy */
} kvr_readiness_mode_t;
/* --pd-protocol: the disaggregated protocol spoken to role=prefill/decode engines. */
enum { KVR_PD_OFF = 0, KVR_PD_VLLM = 1, KVR_PD_SGLANG = 2 };

typedef struct kvr_router_config_s {
    char listen_host[64];
    int listen_port;
    char admin_listen_host[64]; /* --admin-listen; "" = off */
    int admin_listen_port;
    bool admin_on_client_port;  /* admin endpoints on the client port as well (transition) */
    char api_keys_file[512];    /* "" = no client authentication */
    char tls_cert[512];         /* --tls-cert: the listeners speak TLS; "" = plain HTTP */
    char tls_key[512];          /* --tls-key */
    char engine_ca[512];        /* --engine-ca: the only CA for https:// engines; "" = system */
    bool engine_tls_insecure;   /* --engine-tls-insecure: engines' certificates unchecked */
    bool forward_authorization; /* pass the client's Authorization on to the engine */
    char *engines[KVR_ROUTER_MAX_CONFIG_ENGINES];
    size_t n_engines;
    char policy[32]; /* the scoring policy's name as given (sticky scores as load_only) */
    kvr_placement_t placement;
    bool placement_set; /* --placement given: sticky does not override it */
    bool es;            /* feed on (ES=1) */
    bool es_sent;       /* ES=1: add own sends since the sample to it */
    bool es_spread;     /* ES=1: seeded choice among near-equal picks when others show */
    char shm_name[256];
    uint64_t shm_owner_uid; /* the segment must be this uid's (statefeed's) */
    uint64_t max_age_ms;
    int cache_state;      /* kvr_cache_state_mode_t: --cache-state */
    char share_name[256]; /* --share: dispatch segment name, "" = off */
    uint64_t share_max_age_ms;
    uint64_t reconcile_s; /* ES=0 /metrics reconciliation period, 0 = off */
    char session_header[64];
    kvr_keys_config_t keys;
    uint64_t session_ttl_s;
    uint64_t max_sessions;
    uint32_t migrate_load; /* re-home pins whose engine's eff_requests exceeds this; 0 = off */
    uint32_t retries;
    int pd_protocol;           /* KVR_PD_*: how a prefill engine's KV reaches a decode engine */
    char pd_decode_policy[32]; /* the policy of the decode phase */
    uint64_t pd_transfer_timeout_ms; /* a decode engine's first byte; 0 = --first-byte-timeout-ms */
    uint64_t connect_timeout_ms;
    uint64_t first_byte_timeout_ms;
    uint64_t idle_timeout_ms;
    uint64_t max_body_bytes;
    uint64_t
        parse_offload_bytes; /* bodies at least this big are parsed off the event loop; 0 = never */
    uint64_t max_header_bytes;
    uint64_t request_timeout_ms;       /* slow clients: whole request must arrive in this */
    uint64_t client_idle_timeout_ms;   /* client connection with no request under way is closed */
    uint32_t max_connections;          /* client connections open at once */
    uint32_t max_connections_per_peer; /* ... from one client address; 0 = no per-address limit */
    uint32_t keepalive_per_engine;     /* idle upstream connections kept per engine */
    uint64_t health_interval_ms;
    char health_path[128];
    uint32_t fail_threshold; /* consecutive failures that take an engine out */
    uint32_t max_engines;    /* engine indexes the table holds, removed ones draining included */
    bool engine_header;      /* X-Kvroute-Engine on responses */
    char decision_log[512];
    char admin_token[256];
    kvr_admission_mode_t admission;
    kvr_readiness_mode_t readiness; /* /readiness: every model pool up, or any engine */
    uint32_t max_waiting;
    uint64_t drain_timeout_s;
    char config_file[512];
    char check_config[512]; /* --check-config FILE: parse and validate it, then exit */
    /* --config FILE's settings as read at start-up (heap, or NULL): what a SIGHUP's reading of
     * FILE is compared with, to name the settings it cannot apply */
    struct kvr_router_config_s *file_at_start;
    kvr_log_level_t log_level;
    kvr_policy_config_t policy_config;
    /* --engine-dns NAME:PORT */
    char engine_dns[KVR_ROUTER_MAX_ENGINE_DNS][KVR_ROUTER_ENGINE_DNS_MAX];
    size_t n_engine_dns;
    uint64_t engine_dns_interval_s;
    int engine_dns_family;           /* index of kvr_dns_watch_family_names */
    uint32_t engine_dns_drain_after; /* answers in a row without an address before its drain */
    /* --tokenizer MODEL=DIR (strdup'ed); from_file: read from --config, re-read on SIGHUP */
    char *tokenizers[KVR_ROUTER_MAX_TOKENIZERS];
    bool tokenizer_from_file[KVR_ROUTER_MAX_TOKENIZERS];
    size_t n_tokenizers;
    bool reading_file;               /* a --config file is being applied */
    uint64_t tokenize_offload_bytes; /* with tokenizers, bodies this big go to the threadpool */
    uint32_t block_tokens;      /* --block-tokens: tokens per prefix block of a tokenized prompt */
    uint64_t tokenize_cache_mb; /* --tokenize-cache-mb: the turn cache's bound, 0 = off */
} kvr_router_config_t;

/** Fills the defaults documented in --help. */
void kvr_router_config_defaults(kvr_router_config_t *cfg);
/** Frees the engine list. */
void kvr_router_config_free(kvr_router_config_t *cfg);
/** kvroute's flags as the decision core takes them (the gateway and kvroute-fleetsim map them alike). */
struct kvr_decide_config_s; /* router/decide.h, which includes this header */
void kvr_router_config_decide(const kvr_router_config_t *cfg, struct kvr_decide_config_s *out);
/**
 * Parses argv (after the defaults and the ES environment variable). A
 * --config file is read where it appears; later flags win. Returns 0, 1 when
 * --help was printed, or -EINVAL with a one-line reason in err.
 */
int kvr_router_config_parse_args(kvr_router_config_t *cfg, int argc, char **argv, char *err,
                                 size_t err_len);
/**
 * The settings that differ between two readings of one config file and that a
 * SIGHUP does not apply (all but the engine list, --tokenizer, --api-keys-file
 * and --tls-cert/--tls-key); their flag names go to names[0..cap). Returns how many.
 */
size_t kvr_router_config_unreloadable(const kvr_router_config_t *was,
                                      const kvr_router_config_t *now, const char **names,
                                      size_t cap);
/** Reads a config file (one "flag value" per line). 0 or -errno / -EINVAL with err. */
int kvr_router_config_load_file(kvr_router_config_t *cfg, const char *path, char *err,
                                size_t err_len);
/** Checks cross-flag rules and resolves sticky; 0 or -EINVAL with err. */
int kvr_router_config_finish(kvr_router_config_t *cfg, char *err, size_t err_len);
/** Prints --help. */
void kvr_router_config_help(FILE *out);
/** "oneshot" or "per-request". */
const char *kvr_placement_name(kvr_placement_t placement);

#endif
