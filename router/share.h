/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_SHARE_H
#define KVR_ROUTER_SHARE_H

/*
 * --share NAME: routers on one host that name one dispatch segment
 * (shm_layout/dispatch.h) act as one. Each publishes its shadow charge per
 * engine in its row and what it placed in the ring; before each decision it
 * adds the other live routers' charge to its own shadow counters and
 * applies their placements to its prefix index and session pins. Any fault
 * is one log line and a counter, and the router decides on its own shadow
 * counters until the segment is usable again.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "router/engines.h"
#include "shm_layout/dispatch.h"

/*
 * Prefix blocks a placement shares at most (8 per ring entry): 8192 tokens'
 * worth. A prompt cut shorter than the placing router knows it gives the
 * others a shorter match on that engine than on the engines they placed on
 * themselves, so each would lean to its own: the bound covers the prompts
 * of the study trace (a 3000-token system prompt is 188 blocks).
 */
#define KVR_SHARE_MAX_BLOCKS 512
/* Ring entries applied per decision at most (eight of the longest placements); the rest wait
 * for the next decision or the timer. */
#define KVR_SHARE_APPLY_BUDGET 512
/* Other routers' session pins remembered (direct-mapped by hash; a collision forgets the older). */
#define KVR_SHARE_PIN_SLOTS 65536

/** What a router does with another router's placement (the router's prefix index and pins). */
typedef struct kvr_share_apply_s {
    /** blocks[0..n) of a prompt were sent to engine_index. */
    void (*prefix)(void *ctx, const uint64_t *blocks, size_t n, uint32_t engine_index,
                   uint64_t now_ns);
    void *ctx;
} kvr_share_apply_t;

typedef struct kvr_share_pin_s {
    uint64_t hash;       /* kvr_dsp_session_hash(); 0 = empty */
    uint64_t placed_ns;  /* when the other router pinned it */
    uint32_t engine;     /* engine index here */
    uint32_t generation; /* of that index when the pin was read */
} kvr_share_pin_t;

typedef struct kvr_share_s {
    char name[256];
    char label[KVR_DSP_LABEL_MAX];
    uint64_t max_age_ns;
    kvr_dsp_t dsp;
    bool open;      /* mapped, checked, holding a row */
    int last_error; /* logged once per change */
    uint64_t next_open_ns;
    uint64_t next_identity_ns;
    kvr_dsp_cursor_t cursor;
    uint32_t max_engines; /* entries of the arrays below */
    uint64_t *keys; /* engine index -> key (0: not computed; cleared when the index is freed) */
    kvr_dsp_load_t *published; /* own row as last written */
    uint64_t *published_keys;
    uint32_t published_n;
    uint64_t *scratch_keys; /* a sync's or publish's keys and loads */
    kvr_dsp_load_t *scratch_loads;
    kvr_share_pin_t *pins; /* KVR_SHARE_PIN_SLOTS */

    /* /metrics */
    uint32_t rows_live;       /* other routers summed at the last decision */
    uint32_t rows_stale;      /* held rows ignored at the last decision */
    uint64_t rows_busy_total; /* row reads skipped: counter odd or moving */
    uint64_t rows_bad_total;  /* row reads skipped: payload of another owner */
    uint64_t ring_applied_total;
    uint64_t ring_lost_total; /* entries overwritten before this router read them */
    uint64_t ring_torn_total;
    uint64_t ring_dropped_total; /* own entries the ring could not take */
    uint64_t pins_applied_total; /* others' pins found for a session this router decided */
    uint64_t fallbacks_total;    /* faults that left this router on its own counters */
    uint64_t publishes_total;
} kvr_share_t;

/**
 * Prepares sharing under name (a POSIX shm name) for a router known to the
 * others as label; max_age_ns is how long a silent router's row still
 * counts. Opens (or creates) the segment and claims a row now; a failure is
 * logged and retried by kvr_share_tick(). 0 or -ENOMEM.
 */
int kvr_share_init(kvr_share_t *s, const char *name, const char *label, uint64_t max_age_ns,
                   uint32_t max_engines, uint64_t now_ns);

/** The engine index was freed for reuse: its cached key goes (the next engine there has another id). */
void kvr_share_forget_engine(kvr_share_t *s, uint32_t engine_index);

/** Frees the row (the others stop counting it at once) and unmaps. */
void kvr_share_close(kvr_share_t *s);

/**
 * Before a decision: checks the mapping, adds the other live routers'
 * charge into each engine's peer counters (zero when not sharing), applies
 * up to KVR_SHARE_APPLY_BUDGET of their ring entries through apply.
 */
void kvr_share_sync(kvr_share_t *s, kvr_engine_table_t *t, uint64_t now_ns,
                    const kvr_share_apply_t *apply);

/** Writes this router's row when its shadow counters changed since the last write. */
void kvr_share_publish(kvr_share_t *s, const kvr_engine_table_t *t, uint64_t now_ns);

/**
 * Housekeeping: heartbeat, reopen after a fault, a publish, and the ring
 * followed through apply (as before a decision), so an idle router neither
 * falls a lap behind nor drops the prefixes it reads.
 */
void kvr_share_tick(kvr_share_t *s, kvr_engine_table_t *t, uint64_t now_ns,
                    const kvr_share_apply_t *apply);

/** Tells the others that blocks[0..n) went to e (at most KVR_SHARE_MAX_BLOCKS are shared). */
void kvr_share_place_prefix(kvr_share_t *s, const kvr_engine_t *e, const uint64_t *blocks, size_t n,
                            uint64_t now_ns);

/** Tells the others that session_id is pinned to e. */
void kvr_share_place_pin(kvr_share_t *s, const kvr_engine_t *e, const char *session_id,
                         uint64_t now_ns);

/**
 * Another router's pin of session_id made after since_ns: 1 with
 * *engine_index and the *generation that index had when the pin was read
 * (the caller checks it still names that engine), else 0. A pin older than
 * ttl_ns is forgotten.
 */
int kvr_share_pin_lookup(kvr_share_t *s, const char *session_id, uint64_t since_ns, uint64_t now_ns,
                         uint64_t ttl_ns, uint32_t *engine_index, uint32_t *generation);

#endif
