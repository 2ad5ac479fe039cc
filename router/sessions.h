/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_SESSIONS_H
#define KVR_ROUTER_SESSIONS_H

/*
 * Session pins for oneshot placement: session id -> engine, with an idle
 * TTL and a size bound (least recently used goes first). A hash table with
 * chaining for lookups and one recency list for expiry, both intrusive.
 */

#include <stddef.h>
#include <stdint.h>

/** Where a session's requests go: each placed on its own, or pinned to its first pick (oneshot). */
typedef enum {
    KVR_PLACEMENT_PER_REQUEST = 0,
    KVR_PLACEMENT_ONESHOT,
} kvr_placement_t;

typedef struct kvr_session_s {
    char *id;
    uint64_t hash;
    uint32_t engine;    /* engine index the session is pinned to */
    uint64_t placed_ns; /* when the pin was (re)made */
    uint64_t last_used_ns;
    struct kvr_session_s *hnext;
    struct kvr_session_s *newer, *older;
} kvr_session_t;

typedef struct kvr_session_table_s {
    kvr_session_t **buckets;
    size_t n_buckets; /* power of two */
    size_t count;
    size_t max_sessions;
    uint64_t ttl_ns;
    kvr_session_t *newest, *oldest;
    uint64_t expired_total; /* idle past the TTL */
    uint64_t evicted_total; /* pushed out by max_sessions */
} kvr_session_table_t;

/** 0 or -ENOMEM. ttl_ns: idle time after which a pin is forgotten; max_sessions > 0. */
int kvr_sessions_init(kvr_session_table_t *t, uint64_t ttl_ns, size_t max_sessions);
void kvr_sessions_close(kvr_session_table_t *t);
/** The live pin of id (expired pins are dropped and not returned), or NULL. */
kvr_session_t *kvr_sessions_get(kvr_session_table_t *t, const char *id, uint64_t now_ns);
/** Pins id to engine (creating or moving the pin) and marks it used now. */
kvr_session_t *kvr_sessions_pin(kvr_session_table_t *t, const char *id, uint32_t engine,
                                uint64_t now_ns);
/** Marks s used now. */
void kvr_sessions_touch(kvr_session_table_t *t, kvr_session_t *s, uint64_t now_ns);
/** Drops pins idle past the TTL; returns how many. */
size_t kvr_sessions_expire(kvr_session_table_t *t, uint64_t now_ns);
/** Drops every pin on engine (its index was freed for reuse); returns how many. */
size_t kvr_sessions_forget_engine(kvr_session_table_t *t, uint32_t engine);
/** Pins currently held on engine (for /engines). */
size_t kvr_sessions_count_on(const kvr_session_table_t *t, uint32_t engine);

#endif
