/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_DISPATCH_H
#define KVR_SHM_DISPATCH_H

/*
 * The dispatch segment: what several routers on one host tell each other so
 * that they place requests as one router would. Every router maps it read
 * and write; each one writes only its own row (its shadow load per engine)
 * and appends to the placement ring; it reads everyone else's. Byte offsets,
 * the claim rule, both seqlocks and the versioning rules are in
 * shm_layout/README.md ("The dispatch segment"); a router of another build
 * depends on every word here.
 *
 * Layout: kvr_dsp_header_t at offset 0 (header_size bytes), then
 * row_capacity rows of row_size bytes, then ring_capacity entries of
 * entry_size bytes. Every bound a router uses is its validated copy of the
 * header's geometry, never the live header.
 */

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_layout/shm_error.h"

#define KVR_DSP_MAGIC 0x4843505344525655ull /* "UVRDSPCH" read as little-endian bytes */
#define KVR_DSP_ABI_MAJOR 1
#define KVR_DSP_ABI_MINOR 1
#define KVR_DSP_LABEL_MAX 48   /* router label bytes including the NUL */
#define KVR_DSP_ENTRY_BLOCKS 8 /* block hashes one ring entry carries */
#define KVR_DSP_MAX_ROWS 256
#define KVR_DSP_MAX_ENGINES 16384   /* engines one row holds, at most (1024 before ABI 1.1) */
#define KVR_DSP_MAX_RING (1u << 20) /* ring entries, at most (a power of two) */
#define KVR_DSP_READ_RETRIES 64     /* seqlock attempts on a row or an entry */
/* A ring entry taken but not completed this long is a writer that died or stalled: skipped. */
#define KVR_DSP_PENDING_NS 50000000ull

/* Ring entry kinds */
#define KVR_DSP_PLACE_PREFIX 1u  /* prefix blocks were sent to engine_key */
#define KVR_DSP_PLACE_SESSION 2u /* session session_hash is pinned to engine_key */

/** The geometry a segment is created with (and every router's copy of it). */
typedef struct kvr_dsp_geometry_s {
    uint32_t rows;            /* routers that can share at once */
    uint32_t engines_per_row; /* engines one router's row can hold */
    uint32_t ring_capacity;   /* placement entries held; a power of two */
} kvr_dsp_geometry_t;

/** Defaults for kvr_dsp_open(): 32 rows, 128 engines per row, 32768 ring entries (4 MB). */
#define KVR_DSP_DEFAULT_GEOMETRY ((kvr_dsp_geometry_t){32, 128, 32768})

/** The header at offset 0: 256 bytes in ABI 1.0. Only ring_head changes after creation. */
typedef struct kvr_dsp_header_s {
    uint64_t magic; /* KVR_DSP_MAGIC, stored last at creation */
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size;     /* offset of row 0 */
    uint32_t row_size;        /* stride between rows */
    uint32_t row_capacity;    /* number of rows */
    uint32_t engines_per_row; /* engine entries in each row's payload */
    uint32_t ring_capacity;   /* number of ring entries, a power of two */
    uint32_t entry_size;      /* stride between ring entries */
    uint32_t entry_blocks;    /* block hashes per entry (KVR_DSP_ENTRY_BLOCKS) */
    uint64_t created_ns;      /* CLOCK_REALTIME of creation */
    int64_t creator_pid;
    uint64_t reserved0;
    alignas(64) _Atomic uint64_t ring_head; /* offset 64: the next entry sequence number, from 1 */
    uint8_t reserved[184];                  /* room to append fields (minor bump) */
} kvr_dsp_header_t;

#define KVR_DSP_HEADER_SIZE ((uint32_t)sizeof(kvr_dsp_header_t))
_Static_assert(sizeof(kvr_dsp_header_t) == 256, "header is four cache lines");
_Static_assert(offsetof(kvr_dsp_header_t, ring_head) == 64, "ABI offset");

/** A row's fixed part: claim words (outside the seqlock), then the seqlock counter. */
typedef struct kvr_dsp_row_s {
    alignas(64) _Atomic uint64_t owner; /* claim token of the holder; 0 = free */
    _Atomic uint64_t heartbeat_ns;      /* CLOCK_MONOTONIC, stored on the holder's timer */
    _Atomic int64_t pid;                /* the holder's pid */
    _Atomic uint64_t start_ns;          /* CLOCK_REALTIME of the holder's start */
    uint64_t reserved[4];
    _Atomic uint64_t seq;     /* offset 64: seqlock counter of the payload words */
    _Atomic uint64_t words[]; /* KVR_DSP_ROW_HEAD_WORDS then 4 per engine */
} kvr_dsp_row_t;
_Static_assert(offsetof(kvr_dsp_row_t, seq) == 64 && offsetof(kvr_dsp_row_t, words) == 72,
               "ABI offsets");

/** The payload's first words: whose payload it is, when, and how many engines follow. */
typedef struct kvr_dsp_row_head_s {
    uint64_t owner;        /* the token the payload was written under */
    uint64_t publish_ns;   /* CLOCK_MONOTONIC of the write */
    uint32_t engine_count; /* engine entries in use (<= engines_per_row) */
    uint32_t reserved;
    char label[KVR_DSP_LABEL_MAX]; /* the router's listen address, NUL-terminated */
} kvr_dsp_row_head_t;
#define KVR_DSP_ROW_HEAD_WORDS (sizeof(kvr_dsp_row_head_t) / sizeof(uint64_t))
_Static_assert(sizeof(kvr_dsp_row_head_t) == 72, "row head is nine words");

/** One engine's load as one router charged it. */
typedef struct kvr_dsp_load_s {
    uint64_t in_flight;              /* requests sent and not finished */
    uint64_t pending_prefill_tokens; /* prompt tokens sent and not yet prefilled */
    uint64_t kv_tokens;              /* KV tokens those requests hold */
} kvr_dsp_load_t;

/** An engine entry of a row's payload: the engine's key then its load. */
typedef struct kvr_dsp_engine_s {
    uint64_t key; /* kvr_dsp_engine_key() of the engine id */
    kvr_dsp_load_t load;
} kvr_dsp_engine_t;
#define KVR_DSP_ENGINE_WORDS (sizeof(kvr_dsp_engine_t) / sizeof(uint64_t))
_Static_assert(sizeof(kvr_dsp_engine_t) == 32, "engine entry is four words");

/** A ring entry: a seqlock counter that also names the entry's sequence, then the payload. */
typedef struct kvr_dsp_entry_s {
    alignas(64) _Atomic uint64_t seq; /* 2g+1 while entry g is written, 2g+2 once it holds g */
    _Atomic uint64_t words[15];
} kvr_dsp_entry_t;
_Static_assert(sizeof(kvr_dsp_entry_t) == 128, "entry is two cache lines");

/** A placement as it travels the ring (a plain copy of an entry's payload). */
typedef struct kvr_dsp_placement_s {
    uint64_t sequence;    /* g, set by kvr_dsp_append */
    uint64_t origin;      /* claim token of the writer, set by kvr_dsp_append */
    uint16_t kind;        /* KVR_DSP_PLACE_* */
    uint16_t block_count; /* hashes in blocks[] (<= KVR_DSP_ENTRY_BLOCKS) */
    uint32_t
        first_block;     /* position of blocks[0] in the prompt: a long prefix is several entries */
    uint64_t engine_key; /* kvr_dsp_engine_key() of the engine placed on */
    uint64_t session_hash; /* kvr_dsp_session_hash() for a pin, else 0 */
    uint64_t time_ns;      /* CLOCK_MONOTONIC of the placement */
    uint64_t blocks[KVR_DSP_ENTRY_BLOCKS];
    uint64_t check; /* XXH3-64 of the words above, seeded with sequence */
} kvr_dsp_placement_t;
_Static_assert(sizeof(kvr_dsp_placement_t) == 15 * sizeof(uint64_t), "placement fills an entry");

/* A torn 64-bit word would defeat both seqlocks. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics must be lock-free");

/** What one kvr_dsp_sum_others() pass saw of the other rows. */
typedef struct kvr_dsp_sum_stats_s {
    uint32_t live;  /* rows summed */
    uint32_t stale; /* held rows ignored: heartbeat older than the max age or in the future */
    uint32_t
        busy; /* rows skipped: the counter stayed odd or kept moving (writer died mid-write), or a claim not yet published */
    uint32_t bad; /* rows skipped: an engine count past the row */
} kvr_dsp_sum_stats_t;

/** A reader's place in the ring and what it met there. */
typedef struct kvr_dsp_cursor_s {
    uint64_t next;          /* the next sequence to read */
    uint64_t pending_since; /* when `next` was first seen taken but not complete (0: not) */
    uint64_t applied;       /* others' entries returned */
    uint64_t own;           /* this router's entries skipped */
    uint64_t lost;          /* entries overwritten before they were read (the reader fell behind) */
    uint64_t torn;          /* entries that failed their check, or were never completed */
} kvr_dsp_cursor_t;

/** A mapped dispatch segment and this router's row in it. */
typedef struct kvr_dsp_s {
    void *base;
    size_t map_len;
    kvr_dsp_header_t *header;
    int fd;       /* -1: a plain buffer (kvr_dsp_attach) */
    bool created; /* this process created the object */
    /* copies of the validated geometry */
    uint32_t header_size, row_size, row_capacity, engines_per_row;
    uint32_t ring_capacity, entry_size;
    size_t ring_offset;
    dev_t dev;
    ino_t ino;
    uid_t owner_uid; /* owner of the object found at the name (also on KVR_ESHM_OWNER) */
    mode_t mode;
    char name[256];
    /* this router's row: never read back from the mapping to decide anything */
    int32_t row; /* -1: none claimed */
    uint64_t token;
    uint64_t row_seq;
    uint64_t start_ns;
    uint64_t *payload;    /* the row's payload words as last written */
    uint64_t *read_words; /* another row's payload as read, engines_per_row entries */
} kvr_dsp_t;

/* ---- segment ------------------------------------------------------------ */

/**
 * Checks len bytes holding a dispatch segment: magic, major, header, row and
 * entry sizes, row capacity (1..KVR_DSP_MAX_ROWS), engines per row
 * (1..KVR_DSP_MAX_ENGINES, and they fit the row), ring capacity (a power of
 * two up to KVR_DSP_MAX_RING) and that rows and ring end within len. The
 * fields are copied before they are checked. Returns 0 or KVR_EDSP_MAGIC /
 * KVR_ESHM_MAJOR / KVR_ESHM_TRUNCATED / KVR_EDSP_GEOMETRY.
 */
int kvr_dsp_validate(const void *base, size_t len);

/**
 * Opens the dispatch segment name, creating it with geometry want when the
 * name is free (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0640 set by fchmod, magic
 * stored last). An existing object is opened O_RDWR|O_NOFOLLOW and must be
 * a regular file of this uid that no group or other may write
 * (KVR_ESHM_OWNER, with shm->owner_uid and mode), then is validated; its
 * geometry, not want, is used. An object another router is still creating
 * (empty or without its magic) is waited for, at most wait_ms (a router
 * starting waits; one reopening from its event loop does not). Nothing
 * found at the name is ever removed: a foreign or wrong-version object is
 * refused with its code (kvr_dsp_explain() gives the fix).
 * Returns 0, -ELOOP, -EINVAL, -errno, or a kvr_dsp_validate() code.
 */
int kvr_dsp_open(kvr_dsp_t *d, const char *name, const kvr_dsp_geometry_t *want, unsigned wait_ms);

/** What a starting router waits for another one's creation of the object (kvr_dsp_open). */
#define KVR_DSP_CREATE_WAIT_MS 200

/** Bytes a segment of geometry g takes; 0 when g is out of range. */
size_t kvr_dsp_size(const kvr_dsp_geometry_t *g);

/**
 * Writes an empty segment of geometry g into a caller's zeroed buffer of
 * len >= kvr_dsp_size(g) bytes (64-byte aligned), as creation does. 0 or
 * -EINVAL.
 */
int kvr_dsp_format(void *base, size_t len, const kvr_dsp_geometry_t *g);

/**
 * Reads a segment held in a caller's buffer of len bytes (64-byte aligned):
 * validates it and copies its geometry. Nothing is mapped. Readers and, on a
 * writable buffer, writers work on it as on a mapping.
 */
int kvr_dsp_attach(kvr_dsp_t *d, void *base, size_t len);

/**
 * Before every batch of accesses: the object is still at least as long as
 * the mapping (fstat), and the header's magic, major and geometry equal the
 * copies. 0 or KVR_ESHM_CHANGED (then only kvr_dsp_close() may touch it).
 */
int kvr_dsp_check(const kvr_dsp_t *d);

/** The name still names the mapped inode: 0, KVR_ESHM_CHANGED, or -ENOENT. */
int kvr_dsp_check_identity(const kvr_dsp_t *d);

/** One line saying what rc means for this segment and what to do. Returns buf. */
const char *kvr_dsp_explain(const kvr_dsp_t *d, int rc, char *buf, size_t size);

/** Gives up the row (kvr_dsp_release()), unmaps and closes; the object stays. */
void kvr_dsp_close(kvr_dsp_t *d);

/** Removes the name. 0 or -errno. */
int kvr_dsp_unlink(const char *name);

/** The key of an engine: XXH3-64 (seed 0) of its id's bytes without the NUL; never 0. */
uint64_t kvr_dsp_engine_key(const char *engine_id);

/** The hash a session pin carries: XXH3-64 (seed 0) of the id's bytes; never 0. */
uint64_t kvr_dsp_session_hash(const char *session_id, size_t len);

/* ---- this router's row --------------------------------------------------- */

/**
 * Takes a row: the first free one, else the first whose holder is dead
 * (heartbeat older than max_age_ns or from the future, or its pid gone),
 * with a compare-and-swap on its owner word, so of two routers racing for
 * one row exactly one wins and the other moves on. The row gets a fresh
 * token (never a restarted router's old one), an empty payload, pid, start
 * time and heartbeat now. label (the router's address) is truncated to
 * KVR_DSP_LABEL_MAX-1 bytes. Returns the row index or KVR_EDSP_FULL.
 */
int kvr_dsp_claim(kvr_dsp_t *d, const char *label, uint64_t now_ns, uint64_t max_age_ns);

/**
 * Writes this router's load of n engines (keys[i] with loads[i]) into its
 * row under the seqlock (seq+1, release fence, relaxed words, seq+2
 * release). Returns 0, KVR_EDSP_ENGINES when n > engines_per_row,
 * KVR_EDSP_ROW_LOST when the owner word no longer holds this router's token
 * (nothing written; claim again), -ENOENT without a row.
 */
int kvr_dsp_publish(kvr_dsp_t *d, const uint64_t *keys, const kvr_dsp_load_t *loads, size_t n,
                    uint64_t now_ns);

/** Stores the row's heartbeat. 0, KVR_EDSP_ROW_LOST, or -ENOENT without a row. */
int kvr_dsp_heartbeat(kvr_dsp_t *d, uint64_t now_ns);

/** Frees the row (owner 0) if it is still this router's; others stop summing it at once. */
void kvr_dsp_release(kvr_dsp_t *d);

/* ---- the other rows ------------------------------------------------------ */

/**
 * Adds up, per engine keys[i], the loads of every other row that is held,
 * fresh (heartbeat at most max_age_ns old, not from the future) and reads
 * consistently, into out[i] (zeroed first; sums saturate, never wrap).
 * A row whose counter stays odd or moving for KVR_DSP_READ_RETRIES attempts
 * (its writer died mid-write) is skipped, as is one whose payload names
 * another owner or more engines than a row holds; *stats counts each kind.
 */
void kvr_dsp_sum_others(const kvr_dsp_t *d, uint64_t now_ns, uint64_t max_age_ns,
                        const uint64_t *keys, size_t n, kvr_dsp_load_t *out,
                        kvr_dsp_sum_stats_t *stats);

/**
 * As kvr_dsp_sum_others(), over every engine the other rows name rather
 * than a given list: keys[0..return) are the engines found (at most cap, in
 * the order met; engines past cap are left out) and out[] their summed loads.
 * A relay uses it to tell another host what this host's routers hold.
 */
size_t kvr_dsp_sum_others_any(const kvr_dsp_t *d, uint64_t now_ns, uint64_t max_age_ns,
                              uint64_t *keys, kvr_dsp_load_t *out, size_t cap,
                              kvr_dsp_sum_stats_t *stats);

/* ---- the placement ring -------------------------------------------------- */

/**
 * Appends p (kind, blocks, keys, time; sequence, origin and check are
 * filled in) to the ring: a fetch-add on ring_head gives its sequence g,
 * a compare-and-swap on the entry's counter makes this writer its only one.
 * Returns 0, KVR_EDSP_RING_BUSY when another writer held the slot (the
 * entry is dropped; the ring is being lapped), -EINVAL for a bad kind or
 * block count, -ENOENT without a row.
 */
int kvr_dsp_append(kvr_dsp_t *d, kvr_dsp_placement_t *p);

/** Puts a new cursor at the ring's head: a router applies what is placed after it starts. */
void kvr_dsp_cursor_init(const kvr_dsp_t *d, kvr_dsp_cursor_t *c);

/**
 * The next entry another router appended: 0 with *out a consistent copy, or
 * -EAGAIN when there is nothing more to read now. Own entries are skipped
 * (c->own); entries overwritten before they were read are counted
 * (c->lost) and the cursor jumps to the oldest one the ring still holds;
 * torn entries, and entries taken but not completed for KVR_DSP_PENDING_NS
 * or while half a ring of later entries was appended, are counted (c->torn)
 * and skipped. At most ring_capacity entries are
 * looked at per call.
 */
int kvr_dsp_ring_next(const kvr_dsp_t *d, kvr_dsp_cursor_t *c, uint64_t now_ns,
                      kvr_dsp_placement_t *out);

#endif
