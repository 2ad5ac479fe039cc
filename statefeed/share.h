/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_SHARE_H
#define KVR_STATEFEED_SHARE_H

/*
 * --share NAME: the relay carries this host's dispatch segment (the one its
 * routers map with kvroute --share NAME) to the statefeeds it relays with,
 * and writes theirs into it. Exported with each table: the load every live
 * local router holds per engine, summed, and the placements the local
 * routers appended to the ring since the subscriber's last table. Imported:
 * one row this daemon holds, carrying the remote hosts' summed load, and
 * the remote placements appended to the local ring under that row, so the
 * routers here apply them as another router's and need nothing else. What
 * this daemon appended is never exported again (the ring's own-entry skip),
 * so two hosts importing each other do not echo; every host imports every
 * other (a full mesh).
 */

#include <stdbool.h>
#include <stdint.h>

#include <msgpack.h>

#include "shm_layout/dispatch.h"
#include "statefeed/feed.h"
#include "statefeed/relay_wire.h"

/** One subscriber's place in the local ring. */
typedef struct kvr__share_cursor_s {
    kvr_dsp_cursor_t cursor;
    uint64_t epoch; /* the mapping the cursor belongs to; 0: not placed yet */
} kvr__share_cursor_t;

/** What /metrics reports. */
typedef struct kvr__share_stats_s {
    bool open;
    uint32_t remote_engines; /* engines the row carries */
    uint64_t placements_exported;
    uint64_t placements_imported;   /* appended to the local ring */
    uint64_t placements_over_limit; /* dropped: over --relay-max-placements */
    uint64_t placements_ring_busy;  /* dropped: the local ring slot was taken */
    uint64_t ring_lost;             /* local entries overwritten before a subscriber took them */
    uint64_t loads_truncated;       /* remote engines past the row's capacity */
    uint64_t fallbacks;             /* faults that closed the segment */
} kvr__share_stats_t;

/** Opens (or creates) the dispatch segment and claims a row when cfg.share_name is set. 0 or -ENOMEM. */
int kvr__feed_share_start(kvr__feed_t *feed);
/** True when --share is configured (a table then carries "share", even while the segment is down). */
bool kvr__feed_share_enabled(const kvr__feed_t *feed);
/** Each tick: check the mapping (reopen after a fault), heartbeat, publish the remote load. */
void kvr__feed_share_tick(kvr__feed_t *feed, uint64_t now_ns);
/** Packs a table's "share" for the subscriber at cursor c (kvr__relay_frame_begin with_share first). */
void kvr__feed_share_export(kvr__feed_t *feed, kvr__share_cursor_t *c, msgpack_packer *pk,
                            uint64_t now_ns);
/** Takes the "share" of a table from import index. */
void kvr__feed_share_import(kvr__feed_t *feed, unsigned index, const kvr__relay_share_t *share,
                            uint64_t now_ns);
/** Import place index has a new peer, or none: what the last one sent no longer counts. */
void kvr__feed_share_forget(kvr__feed_t *feed, unsigned index);
void kvr__feed_share_stats(const kvr__feed_t *feed, kvr__share_stats_t *out);
/** Frees the row (the routers stop counting remote load at once) and unmaps. */
void kvr__feed_share_stop(kvr__feed_t *feed);

#endif
