/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_FEED_H
#define KVR_ROUTER_FEED_H

/*
 * The feed reader (ES=1): the router's read-only view of the statefeed
 * segment. Per decision it yields, for each engine from a fresh slot, eff =
 * this router's own in flight now (shadow) + the sample's load that is not
 * its own (real at the sample - own in flight at the sample, which is the
 * shadow less what was sent since plus what ended since) + what other
 * senders likely added since (from how that load grew), else shadow alone,
 * and counts why it fell back. With
 * ES=0 nothing here touches the segment: the only difference between the
 * ablation arms is this one flag.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "router/engines.h"
#include "router/feed_slots.h"
#include "router/policy.h"
#include "shm_layout/shm_layout.h"

/* Why an engine's decision used shadow only (ES=1). */
typedef enum {
    KVR_FEED_FRESH = 0,
    KVR_FEED_NO_SEGMENT,       /* segment missing or invalid */
    KVR_FEED_WRITER_STALE,     /* writer heartbeat too old, or the writer stopped */
    KVR_FEED_SLOT_MISSING,     /* no slot holds this engine */
    KVR_FEED_SLOT_STALE,       /* the slot's sample is older than max age */
    KVR_FEED_SLOT_UNHEALTHY,   /* the writer could not poll the engine */
    KVR_FEED_SLOT_BUSY,        /* the seqlock never settled */
    KVR_FEED_SEGMENT_REJECTED, /* the name holds an object of another owner, or writable by others */
    KVR_FEED_N_STATES,
} kvr_feed_state_t;

typedef struct kvr_feed_s {
    bool enabled;          /* ES=1 */
    bool add_sent;         /* eff = shadow + the sample's load not ours; false: max(shadow, real) */
    double peer_ratio;     /* others' in flight per own + 1 in the samples (EWMA) */
    bool peer_ratio_known; /* the first observation sets it */
    bool spread;           /* set herd_slack / tie_draw when other routers' load shows */
    uint64_t spread_rng;   /* this router's draws for tie_draw */
    uint64_t spread_decisions_total; /* decisions made with herd_slack > 0 */
    char name[256];
    uint64_t max_age_ns;

    kvr_shm_t shm;
    kvr_feed_slots_t slots; /* engine id -> slot, per table generation */
    bool open;
    bool writer_ok;            /* heartbeat checked at the last refresh */
    uint64_t generation;       /* table generation at the last refresh, for /metrics */
    uid_t owner_uid;           /* the writer's uid the segment must have: the router's own */
    bool rejected;             /* the last open refused the object at the name (owner, mode) */
    uint64_t next_open_ns;     /* earliest next open attempt while the segment is missing */
    uint64_t next_identity_ns; /* next check that the name still names our object */
    int last_error;            /* logged once per change */

    uint64_t opens_total;
    uint64_t changes_total; /* mapped segment found shrunk, rewritten in its geometry or replaced */
    uint64_t fallbacks_total[KVR_FEED_N_STATES]; /* per reason; [FRESH] counts fresh reads */
    uint64_t last_heartbeat_age_ns;
} kvr_feed_t;

/** Sets up the reader; nothing is opened (and with enabled false, nothing ever is). */
void kvr_feed_init(kvr_feed_t *feed, bool enabled, const char *name, uint64_t max_age_ns);
void kvr_feed_close(kvr_feed_t *feed);
/**
 * Called once per decision before the views: checks that the mapping is
 * still as long as it was and its geometry unchanged (a change closes it,
 * counts it and logs once), opens or reopens the segment when it is
 * missing, replaced or stale (rate limited), and checks the writer's
 * heartbeat.
 */
void kvr_feed_refresh(kvr_feed_t *feed, uint64_t now_ns);
/**
 * Fills view for engine e: shadow from its counters, real from its slot when
 * fresh, eff per router/policy.h. count: add the outcome to the fallback
 * counters (decisions count, /engines does not). Returns the feed state.
 */
kvr_feed_state_t kvr_feed_view(kvr_feed_t *feed, kvr_engine_t *e, uint64_t now_ns, bool count,
                               kvr_engine_view_t *view);
/**
 * Notes that this router dispatched a request with uncached_tokens still to
 * prefill to e at now_ns: until a feed sample taken after now_ns shows it,
 * the views add it to the sample's counts (add_sent). Returns the entry's
 * time for the charge (kvr_charge_end clears it), 0 when nothing was noted.
 */
uint64_t kvr_feed_note_sent(kvr_feed_t *feed, kvr_engine_t *e, uint64_t now_ns,
                            uint64_t uncached_tokens);
/**
 * Notes that a request this router dispatched to e at sent_ns (what
 * kvr_feed_note_sent returned; 0: nothing is noted) ended at now_ns holding
 * kv_tokens: until a sample taken after now_ns, the views count it back into
 * what this router had in flight at the sample.
 */
void kvr_feed_note_end(kvr_feed_t *feed, kvr_engine_t *e, uint64_t sent_ns, uint64_t kv_tokens,
                       uint64_t now_ns);
/**
 * After the views of one decision: when the fresh samples show load this
 * router did not send on at least two engines that hold its own requests
 * too and half of the fresh ones (other routers route from the same sample;
 * a client sending straight to engines this router has nothing on is not
 * one), it updates peer_ratio (which scales this router's sends since a
 * sample into the others' likely ones) and gives every view herd_slack 1
 * and a fresh tie_draw (router/policy.h); else leaves them 0.
 */
void kvr_feed_mark_herd(kvr_feed_t *feed, kvr_engine_view_t *views, size_t n);
/** "fresh", "no_segment", "writer_stale", ... for logs and metric labels. */
const char *kvr_feed_state_name(kvr_feed_state_t state);

#endif
