/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_LAYOUT_H
#define KVR_SHM_LAYOUT_H

/*
 * The state segment: the ABI between kvroute-statefeed (the one writer) and
 * any number of kvroute routers (readers, PROT_READ). Byte offsets, the
 * versioning rules and the seqlock protocol are in shm_layout/README.md; a
 * reader in another process, of another build, depends on every word here.
 *
 * Layout: one kvr_shm_header_t at offset 0 (header_size bytes), then
 * `capacity` slots of slot_size bytes each, every slot 64-byte aligned.
 * Readers take header_size and slot_size from the header, so a newer minor
 * that appends header or slot fields stays readable by older readers.
 */

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_layout/shm_error.h"

#define KVR_SHM_MAGIC 0x4554415453525655ull /* "UVRSTATE" read as little-endian bytes */
#define KVR_SHM_ABI_MAJOR 1
#define KVR_SHM_ABI_MINOR 0
#define KVR_SHM_DEFAULT_NAME "/kvroute-state"
#define KVR_SHM_ENGINE_ID_MAX 128 /* bytes including the NUL */
#define KVR_SHM_READ_RETRIES 64   /* seqlock read attempts before -busy */
#define KVR_SHM_MAX_CAPACITY 65536
/* Slots a statefeed makes unless told (--capacity): a router's --max-engines default. */
#define KVR_SHM_DEFAULT_CAPACITY 1024u
/* A heartbeat or sample time at most this far ahead of the reader's clock is
 * a store that landed after the reader took its time; further ahead, it is a
 * lie (or another boot's clock) and counts as stale. */
#define KVR_SHM_FUTURE_SLACK_NS 100000000ull
#define KVR_SHM_NS_PER_SEC 1000000000ull

/* writer_state values */
#define KVR_SHM_WRITER_NONE 0u /* created by a tool, no live writer yet */
#define KVR_SHM_WRITER_LIVE 1u
#define KVR_SHM_WRITER_STOPPED 2u /* writer exited cleanly; slots are history */

/* Slot flags (kvr_engine_state_t.flags) */
#define KVR_SLOT_IN_USE (1u << 0)        /* the slot holds an engine of the table */
#define KVR_SLOT_HEALTHY (1u << 1)       /* the last poll(s) succeeded */
#define KVR_SLOT_CAPS_COMPLETE (1u << 2) /* every DP rank reported max_running > 0 */
#define KVR_SLOT_HAS_UTILIZATION (1u << 3)
#define KVR_SLOT_HAS_PENDING_PREFILL                                                               \
    (1u << 4) /* pending_prefill_tokens is measured, not 0-by-default */
#define KVR_SLOT_SOURCE_SHIFT 8
#define KVR_SLOT_SOURCE_MASK (0xffu << KVR_SLOT_SOURCE_SHIFT)

typedef enum {
    KVR_SOURCE_NONE = 0,
    KVR_SOURCE_SCRAPE = 1, /* Prometheus /metrics */
    KVR_SOURCE_LOADS = 2,  /* SGLang /v1/loads */
    KVR_SOURCE_PUSH = 3,   /* msgpack frames from an engine-side hook */
    KVR_SOURCE_RELAY = 4,  /* imported from another statefeed */
} kvr_source_t;

/**
 * One engine's state, as the writer publishes it and a reader gets a copy of
 * it. Plain data, no pointers; its size is a multiple of 8 so it moves as
 * KVR_SLOT_WORDS relaxed 64-bit atomic words. Times are CLOCK_MONOTONIC
 * nanoseconds of the segment's host.
 */
typedef struct kvr_engine_state_s {
    char engine_id
        [KVR_SHM_ENGINE_ID_MAX];   /* normalised base URL (common/engine_spec.h), NUL-terminated */
    uint64_t sample_time_ns;       /* when the state was observed at its source */
    uint64_t publish_time_ns;      /* when the writer stored it */
    uint64_t sample_seq;           /* increments with every new sample of this engine */
    uint32_t flags;                /* KVR_SLOT_* and the source in bits 8..15 */
    uint32_t dp_ranks;             /* data-parallel ranks summed into the counts (0 = unknown) */
    uint32_t running;              /* requests in the running batch, summed over DP ranks */
    uint32_t waiting;              /* requests queued, summed over DP ranks */
    uint32_t max_running;          /* batch slots summed over DP ranks, 0 = unknown */
    uint32_t consecutive_failures; /* polls failed in a row since the last sample */
    uint64_t kv_tokens_used;
    uint64_t kv_tokens_capacity;     /* 0 = unknown */
    double kv_usage;                 /* 0..1, max over KV pools */
    uint64_t pending_prefill_tokens; /* prompt tokens admitted but not yet prefilled */
    uint64_t max_prefill_remaining;  /* largest remaining prefill of one request */
    double utilization; /* 0..1 where the engine reports it (KVR_SLOT_HAS_UTILIZATION) */
} kvr_engine_state_t;

#define KVR_SLOT_WORDS (sizeof(kvr_engine_state_t) / sizeof(uint64_t))
_Static_assert(sizeof(kvr_engine_state_t) % sizeof(uint64_t) == 0, "payload moves as 64-bit words");

/** One slot: the seqlock counter then the payload words. Even = stable, odd = write in progress. */
typedef struct kvr_shm_slot_s {
    alignas(64) _Atomic uint64_t seq;
    _Atomic uint64_t words[KVR_SLOT_WORDS];
} kvr_shm_slot_t;

#define KVR_SHM_SLOT_SIZE ((uint32_t)sizeof(kvr_shm_slot_t))
_Static_assert(sizeof(kvr_shm_slot_t) % 64 == 0, "slots are whole cache lines");

/** The header at offset 0. Fields after abi_minor may grow by appending (minor bump). */
typedef struct kvr_shm_header_s {
    uint64_t magic; /* KVR_SHM_MAGIC */
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size; /* offset of slot 0; readers use this, not sizeof */
    uint32_t slot_size;
    uint32_t capacity;                 /* number of slots */
    _Atomic uint32_t engines_in_use;   /* slots with KVR_SLOT_IN_USE */
    _Atomic uint32_t writer_state;     /* KVR_SHM_WRITER_* */
    _Atomic uint64_t table_generation; /* bumped on every engine add or remove */
    _Atomic int64_t writer_pid;
    _Atomic uint64_t writer_start_ns; /* CLOCK_REALTIME when the writer started */
    _Atomic uint64_t heartbeat_ns;    /* CLOCK_MONOTONIC, stored every writer tick */
    uint8_t reserved[64];             /* room to append fields without moving slot 0 */
} kvr_shm_header_t;

#define KVR_SHM_HEADER_SIZE ((uint32_t)sizeof(kvr_shm_header_t))
_Static_assert(sizeof(kvr_shm_header_t) == 128, "header is two cache lines");
_Static_assert(offsetof(kvr_shm_header_t, heartbeat_ns) == 56, "ABI offset");

/* A torn 64-bit word would defeat the seqlock's payload argument entirely. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics must be lock-free");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "32-bit atomics must be lock-free");

struct kvr_shm_writer_slot_s;

/**
 * A mapped segment, writer or reader side. Geometry (header_size, slot_size,
 * capacity) is validated against the object's size and copied here once, at
 * open or create: every bound comes from these copies, never from the live
 * header, which anyone able to write the object may change at any time.
 */
typedef struct kvr_shm_s {
    void *base;
    size_t map_len;
    kvr_shm_header_t *header;
    bool writable;
    int fd;               /* the object, kept for the size check (-1: a plain buffer) */
    uint32_t header_size; /* copies of the validated geometry */
    uint32_t slot_size;
    uint32_t capacity;
    dev_t dev; /* identity of the mapped object */
    ino_t ino;
    uid_t owner_uid; /* owner of the object found at the name (also on KVR_ESHM_OWNER) */
    mode_t mode;     /* its permission bits */
    /* Writer only: its own copy of the table, so nothing it decides is read back from the mapping. */
    struct kvr_shm_writer_slot_s *shadow;
    uint64_t generation;
    uint32_t engines_in_use;
    uint64_t start_wall_ns;
    char name[256];
} kvr_shm_t;

/* ---- both sides --------------------------------------------------------- */

/**
 * Checks len bytes holding a segment: magic, major version, header and slot
 * sizes (at least this build's, multiples of 64), capacity against len. A
 * newer minor is accepted (fields were appended). The fields are copied
 * before they are checked, so a writer changing them meanwhile cannot make
 * a checked value differ from the one used.
 * Returns 0 or KVR_ESHM_MAGIC / _MAJOR / _TRUNCATED / _HEADER_SIZE /
 * _SLOT_SIZE / _CAPACITY.
 */
int kvr_shm_validate(const void *base, size_t len);

/**
 * Reads a segment held in a caller's buffer of len bytes (a copy, a file
 * read into memory): validates it and copies its geometry into shm, which
 * the reader functions then accept. Nothing is mapped; kvr_shm_close() only
 * forgets the buffer. Returns kvr_shm_validate()'s code.
 */
int kvr_shm_attach(kvr_shm_t *shm, const void *base, size_t len);

/**
 * Age of a time taken at `then` as seen at `now` (CLOCK_MONOTONIC ns):
 * now - then; 0 when then is ahead by at most KVR_SHM_FUTURE_SLACK_NS;
 * UINT64_MAX when it is further ahead, so a time from the future is never
 * fresh.
 */
uint64_t kvr_shm_age_ns(uint64_t now_ns, uint64_t then_ns);

/**
 * Checks the writer's liveness: 0 when writer_state is LIVE and heartbeat is
 * at most max_age_ns old at now_ns (kvr_shm_age_ns()); KVR_ESHM_WRITER_GONE
 * when it stopped (or never started); KVR_ESHM_STALE when its heartbeat is
 * older, or in the future.
 */
int kvr_shm_check_heartbeat(const kvr_shm_t *shm, uint64_t now_ns, uint64_t max_age_ns);

/**
 * Checks that the mapping can still be read: the object is at least as long
 * as the mapping (fstat; a shorter object would raise SIGBUS on access) and
 * the header's magic, major and geometry still equal the copies taken at
 * open. Call it before every batch of reads. Returns 0 or KVR_ESHM_CHANGED;
 * after KVR_ESHM_CHANGED nothing but kvr_shm_close() may touch the mapping.
 */
int kvr_shm_check_size(const kvr_shm_t *shm);

/**
 * Checks that the name still names the mapped object (same device and
 * inode). Returns 0, KVR_ESHM_CHANGED when it names another object, -ENOENT
 * when it names none.
 */
int kvr_shm_check_identity(const kvr_shm_t *shm);

/**
 * Writes into buf (size bytes) one line saying what rc means for this
 * segment and, where the operator has something to do, what: for
 * KVR_ESHM_OWNER "remove /dev/shm/NAME, owned by uid N". Returns buf.
 */
const char *kvr_shm_explain(const kvr_shm_t *shm, int rc, char *buf, size_t size);

/** The slot at index (< capacity, from the copied geometry). */
kvr_shm_slot_t *kvr_shm_slot(const kvr_shm_t *shm, uint32_t index);

/** Current table generation (acquire): a reader that cached slot indexes re-maps when it changes. */
uint64_t kvr_shm_generation(const kvr_shm_t *shm);

/** Unmaps and closes; the object stays. */
void kvr_shm_close(kvr_shm_t *shm);

/* ---- reader ------------------------------------------------------------- */

/**
 * Opens an existing segment read-only (O_RDONLY, PROT_READ, no symlinks),
 * checks that it is a regular file owned by owner_uid and writable by
 * nobody else (no group or other write bit), and validates it. name is a
 * POSIX shm name ("/kvroute-state"; a missing leading '/' is added).
 * Returns 0, -ENOENT, -EACCES, -EINVAL (not a regular file), KVR_ESHM_OWNER
 * (shm->owner_uid and shm->mode say what was found), or a kvr_shm_validate()
 * code.
 */
int kvr_shm_open_as(kvr_shm_t *shm, const char *name, uid_t owner_uid);

/** kvr_shm_open_as() expecting the caller's own effective uid as the owner. */
int kvr_shm_open(kvr_shm_t *shm, const char *name);

/**
 * Reads slot index with the seqlock: at most KVR_SHM_READ_RETRIES attempts.
 * On 0, *out is a consistent copy and *age_ns = kvr_shm_age_ns(now_ns,
 * sample_time_ns). Returns -ENOENT when the slot is not in use, KVR_ESHM_BUSY
 * when every attempt saw a write in progress or a change (writer flat out,
 * or died mid-write leaving the counter odd), KVR_ESHM_ENGINE_ID when the
 * copy's engine id is not NUL-terminated, -ERANGE when index >= capacity.
 */
int kvr_shm_read_slot(const kvr_shm_t *shm, uint32_t index, uint64_t now_ns,
                      kvr_engine_state_t *out, uint64_t *age_ns);

/** A reader's copy of one slot and the counter it was taken at (kvr_shm_read_slot_cached). */
typedef struct kvr_shm_slot_cache_s {
    kvr_engine_state_t state;
    uint64_t seq;
    uint32_t index;
    bool valid; /* false: nothing cached; set it so after a remap */
} kvr_shm_slot_cache_t;

/**
 * kvr_shm_read_slot() for a reader that reads the same slot far more often
 * than the writer writes it (a router deciding thousands of times a second
 * on a 20 Hz feed): when the slot's counter still equals the one cache was
 * taken at, cache->state is current and only the counter was read. Otherwise
 * the slot is read as kvr_shm_read_slot() does, into cache. Returns the same
 * codes; on 0, cache->state is a consistent copy and *age_ns its age. The
 * cache belongs to one mapping: clear cache->valid when the segment is
 * reopened.
 */
int kvr_shm_read_slot_cached(const kvr_shm_t *shm, uint32_t index, uint64_t now_ns,
                             kvr_shm_slot_cache_t *cache, uint64_t *age_ns);

/**
 * Finds the slot holding engine_id. Returns its index, -ENOENT when no slot
 * holds it. Slots the seqlock could not read are skipped.
 */
int kvr_shm_find(const kvr_shm_t *shm, const char *engine_id);

/* ---- writer (one process: kvroute-statefeed) ---------------------------- */

/**
 * Creates the segment with capacity slots, mode 0640, refusing to follow a
 * symlink. An existing object owned by another user or writable by group or
 * other is refused with KVR_ESHM_OWNER (shm->owner_uid says whose; see
 * kvr_shm_explain()). One whose writer is live (pid alive, heartbeat younger
 * than 5 s) is refused with -EBUSY; a dead writer's object is unlinked and
 * created anew (routers notice the stale heartbeat and reopen).
 * The new header says writer LIVE, pid getpid(), heartbeat now.
 */
int kvr_shm_create(kvr_shm_t *shm, const char *name, uint32_t capacity);

/**
 * The writer's guard, once per tick: when its object was shrunk, its header
 * or slot counters overwritten, or its name unlinked or pointed at another
 * object, the writer restores its segment from its own copy of the table
 * (growing the object back, or creating it anew under the name) and bumps
 * the generation. Returns 0 when nothing was wrong, 1 when it repaired
 * (what is in *what), or a negative code when it could not (retried next
 * tick; KVR_ESHM_OWNER when another user's object holds the name).
 */
int kvr_shm_writer_check(kvr_shm_t *shm, const char **what);

/** Removes the name; mappings stay valid. 0 or -errno. */
int kvr_shm_unlink(const char *name);

/**
 * Puts engine_id into the first free slot (state zeroed, IN_USE, not
 * healthy), bumps the generation. Returns the slot index, -EEXIST when the
 * engine is already there, -ENOSPC when full, -ENAMETOOLONG when the id does
 * not fit KVR_SHM_ENGINE_ID_MAX.
 */
int kvr_shm_add_engine(kvr_shm_t *shm, const char *engine_id);

/** Clears slot index and bumps the generation. 0 or -ENOENT. */
int kvr_shm_remove_engine(kvr_shm_t *shm, uint32_t index);

/**
 * Publishes state into slot index with the seqlock (seq+1 relaxed, release
 * fence, relaxed payload words, seq+2 release). The writer keeps
 * KVR_SLOT_IN_USE and engine_id as they are in state; callers start from
 * the slot's current state (kvr_shm_writer_state()).
 */
void kvr_shm_write_slot(kvr_shm_t *shm, uint32_t index, const kvr_engine_state_t *state);

/** The writer's own copy of a slot (kept in private memory, never read back from the mapping). */
void kvr_shm_writer_state(const kvr_shm_t *shm, uint32_t index, kvr_engine_state_t *out);

/** Stores the heartbeat (CLOCK_MONOTONIC ns). */
void kvr_shm_heartbeat(kvr_shm_t *shm, uint64_t now_ns);

/** Marks the writer stopped: readers treat every slot as stale at once. */
void kvr_shm_mark_writer_stopped(kvr_shm_t *shm);

/** The source stored in a slot's flags. */
static inline kvr_source_t kvr_slot_source(uint32_t flags)
{
    return (kvr_source_t)((flags & KVR_SLOT_SOURCE_MASK) >> KVR_SLOT_SOURCE_SHIFT);
}
/** flags with the source replaced. */
static inline uint32_t kvr_slot_with_source(uint32_t flags, kvr_source_t source)
{
    return (flags & ~KVR_SLOT_SOURCE_MASK) | ((uint32_t)source << KVR_SLOT_SOURCE_SHIFT);
}
/** "scrape", "loads", "push", "relay" or "none". */
const char *kvr_source_name(kvr_source_t source);

#endif
