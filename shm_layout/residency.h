/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_RESIDENCY_H
#define KVR_SHM_RESIDENCY_H

/*
 * The residency table: which engines hold which token blocks in their KV
 * cache, as the engines' own KV events say. A POSIX shared-memory object of
 * its own beside the state segment (default /dev/shm/kvroute-state-residency),
 * written by one kvroute-statefeed, read by any number of routers. Byte
 * layout, versions and the reader's algorithm are in shm_layout/README.md
 * ("The residency table"); a reader in another process depends on every word.
 *
 * Keys are kvroute's chain hashes of token blocks (common/prefix_hash.h
 * kvr_token_block_hash, never 0); an engine is named by its slot index in
 * the state segment. Each (block, engine, tier) is one entry in an
 * open-addressed table of 128-byte buckets, each under its own seqlock.
 * Each engine has an epoch word: an entry counts only while its epoch equals
 * its engine's, so clearing an engine is one store.
 *
 * Layout: header (header_size bytes), then `engines` engine words (8 bytes
 * each, the array padded to 64 bytes), then `bucket_count` buckets of
 * bucket_size bytes from bucket_offset.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_layout/shm_error.h"

#define KVR_RES_MAGIC 0x4449534552525655ull /* "UVRRESID" read as little-endian bytes */
#define KVR_RES_ABI_MAJOR 1
#define KVR_RES_ABI_MINOR 0
#define KVR_RES_NAME_SUFFIX "-residency" /* appended to the state segment's name */
#define KVR_RES_HEADER_SIZE 256u
#define KVR_RES_BUCKET_SIZE 128u
#define KVR_RES_BUCKET_ENTRIES 7u  /* (hash, holder) pairs per bucket */
#define KVR_RES_MAX_PROBE 4096u    /* buckets an entry may sit past its home */
#define KVR_RES_MAX_ENGINES 65536u /* the state segment's capacity bound */
#define KVR_RES_MIN_MB 1u
#define KVR_RES_MAX_MB 65536u
#define KVR_RES_READ_RETRIES 64u
/* Entries in use (live or of a cleared epoch) beyond this share of the table refuse new blocks. */
#define KVR_RES_FILL_NUM 7u
#define KVR_RES_FILL_DEN 8u

/** Where a block is held. A reader's per-tier match counts blocks held in that tier or a faster one. */
typedef enum {
    KVR_RES_TIER_GPU = 0,  /* device memory: no transfer before prefill reuses it */
    KVR_RES_TIER_HOST = 1, /* CPU / host memory offload */
    KVR_RES_TIER_DISK = 2, /* local disk or a remote store */
} kvr_res_tier_t;
#define KVR_RES_TIERS 3u

/* Engine word: bit 0 trusted, bits 32..63 epoch (never 0 once the writer set it up). */
#define KVR_RES_ENGINE_TRUSTED 1ull
/* Holder word: bits 0..15 slot, 16..23 tier, 24..31 zero, 32..63 epoch. */
#define KVR_RES_HOLDER(slot, tier, epoch)                                                          \
    ((uint64_t)(uint16_t)(slot) | ((uint64_t)(uint8_t)(tier) << 16) | ((uint64_t)(epoch) << 32))

/** The header at offset 0. Only the atomics change after creation. */
typedef struct kvr_res_header_s {
    uint64_t magic; /* KVR_RES_MAGIC, stored last at creation */
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size;   /* offset of the engine words; readers use this */
    uint32_t bucket_size;   /* stride between buckets (128 in 1.0) */
    uint32_t engines;       /* engine words: slot indexes 0..engines-1 */
    uint64_t bucket_offset; /* offset of bucket 0 */
    uint64_t bucket_count;  /* buckets, 1..2^40 */
    uint64_t seed;          /* mixes block hashes into bucket numbers */
    uint32_t max_probe;     /* buckets a reader scans past a block's home, at most */
    uint32_t pad0;          /* zero */
    _Atomic int64_t writer_pid;
    _Atomic uint64_t heartbeat_ns; /* CLOCK_MONOTONIC, stored every writer tick */
    _Atomic uint32_t writer_state; /* KVR_SHM_WRITER_* (shm_layout.h) */
    uint32_t pad1;
    _Atomic uint64_t entries; /* live entries (informative) */
    _Atomic uint64_t refused; /* stores refused because the table was full (informative) */
    _Atomic uint64_t clears;  /* engine clears (informative) */
    uint8_t reserved[152];    /* zero; room for appended fields */
} kvr_res_header_t;

_Static_assert(sizeof(kvr_res_header_t) == KVR_RES_HEADER_SIZE, "header is four cache lines");
_Static_assert(offsetof(kvr_res_header_t, writer_pid) == 56 &&
                   offsetof(kvr_res_header_t, clears) == 96,
               "ABI offsets");

/** One bucket: the seqlock counter, 7 (hash, holder) pairs, one zero word. */
typedef struct kvr_res_bucket_s {
    _Atomic uint64_t seq;
    _Atomic uint64_t words[2 * KVR_RES_BUCKET_ENTRIES + 1];
} kvr_res_bucket_t;
_Static_assert(sizeof(kvr_res_bucket_t) == KVR_RES_BUCKET_SIZE, "bucket is two cache lines");

/** What a writer did since it opened (also the metrics of kvroute-statefeed). */
typedef struct kvr_res_stats_s {
    uint64_t entries;      /* (block, engine, tier) entries live */
    uint64_t dead_entries; /* entries of a cleared epoch not yet swept */
    uint64_t stored_total;
    uint64_t removed_total;
    uint64_t refused_total; /* stores refused with -ENOSPC */
    uint64_t clears_total;
    uint64_t capacity_entries; /* entries the table holds before it refuses */
} kvr_res_stats_t;

struct kvr_res_mirror_s;

/** The writer (kvroute-statefeed): the mapping and its own copy of every bucket. */
typedef struct kvr_residency_writer_s {
    void *base;
    size_t map_len;
    int fd;
    kvr_res_header_t *header;
    _Atomic uint64_t *engine_words;
    kvr_res_bucket_t *buckets;
    uint32_t engines;
    uint64_t bucket_count;
    uint64_t seed;
    uint32_t max_probe;
    uint64_t *mirror;    /* bucket_count x (2 x 7) words: hash, holder */
    uint64_t *seqs;      /* the writer's counter of each bucket */
    uint64_t *epoch;     /* per engine: the epoch in use (writer's copy) */
    bool *trusted;       /* per engine */
    uint64_t *per_slot;  /* per engine: live entries */
    uint64_t sweep_next; /* next bucket the sweep looks at */
    kvr_res_stats_t stats;
    char name[256];
} kvr_residency_writer_t;

/** The table's name beside the state segment state_name: "/kvroute-state" -> "/kvroute-state-residency". 0, -EINVAL, -ENAMETOOLONG. */
int kvr_residency_name(char *out, size_t size, const char *state_name);

/**
 * Creates the table name (a POSIX shm name) of mb MiB for engines slots
 * (the state segment's capacity), mode 0640, no symlinks; an object already
 * there is replaced when it is this uid's and its writer is dead, refused
 * with -EBUSY when its writer lives, with KVR_ESHM_OWNER when another uid
 * owns it. Every engine starts untrusted. *w is zeroed first.
 * Returns 0, -EINVAL (mb or engines out of range), -ENOMEM or -errno.
 */
int kvr_residency_writer_open(kvr_residency_writer_t *w, const char *name, uint32_t mb,
                              uint32_t engines);
/**
 * A table in a caller's buffer of len bytes (64-byte aligned; its first
 * map_len bytes are used) with a fixed seed: what the fuzz seeds and tests
 * build without /dev/shm. 0, -EINVAL, -ENOMEM; kvr_residency_writer_close
 * frees the private copies and leaves the buffer.
 */
int kvr_residency_writer_init_buffer(kvr_residency_writer_t *w, void *buf, size_t len,
                                     uint32_t engines, uint64_t seed);
/** Stores writer state STOPPED: readers see the writer gone at once, before it unmaps. */
void kvr_residency_writer_mark_stopped(kvr_residency_writer_t *w);
/** Marks the writer stopped, unmaps, frees; the object stays (readers see the writer gone). */
void kvr_residency_writer_close(kvr_residency_writer_t *w);
/** Marks the writer stopped, unmaps and also removes the name (statefeed's exit). */
void kvr_residency_writer_destroy(kvr_residency_writer_t *w);

/**
 * Engine slot holds block hash in tier. 0 (also when it was held already),
 * -EINVAL (slot, tier or hash 0 out of range), -ENOSPC when the table is
 * full (counted in refused_total; nothing is evicted).
 */
int kvr_residency_stored(kvr_residency_writer_t *w, uint32_t slot, uint64_t hash, uint32_t tier);
/** Engine slot no longer holds block hash in tier. 0, -ENOENT (it was not held), -EINVAL. */
int kvr_residency_removed(kvr_residency_writer_t *w, uint32_t slot, uint64_t hash, uint32_t tier);
/**
 * Every block of engine slot is gone at once (a restart, AllBlocksCleared, a
 * gap in its events, its slot given to another engine): one epoch store;
 * the entries are reclaimed later by kvr_residency_writer_tick. 0 or -EINVAL.
 */
int kvr_residency_cleared(kvr_residency_writer_t *w, uint32_t slot);
/** Whether readers may use engine slot's entries (stored while untrusted they are kept). 0 or -EINVAL. */
int kvr_residency_trust(kvr_residency_writer_t *w, uint32_t slot, bool trusted);
/** Once per statefeed tick: stores the heartbeat, reclaims up to sweep_buckets buckets' cleared entries. */
void kvr_residency_writer_tick(kvr_residency_writer_t *w, uint64_t now_ns, uint64_t sweep_buckets);
/** The writer's counters. */
void kvr_residency_writer_stats(const kvr_residency_writer_t *w, kvr_res_stats_t *out);

/* ---- reader ------------------------------------------------------------- */

/** What a reader counted (each lookup adds to it). */
typedef struct kvr_res_reader_stats_s {
    uint64_t lookups;
    uint64_t busy; /* buckets the seqlock could not read: scan of that block ended (a miss) */
    uint64_t bad_entries;  /* entries with a slot, tier or epoch out of range, skipped */
    uint64_t probe_capped; /* scans stopped at max_probe */
} kvr_res_reader_stats_t;

/** One engine's match: leading blocks held in tier t or faster, per t (non-decreasing in t). */
typedef struct kvr_res_match_s {
    uint32_t slot;
    uint32_t blocks[KVR_RES_TIERS];
} kvr_res_match_t;

/** A mapped table, read side: the geometry validated once and copied; scratch per engine. */
typedef struct kvr_residency_reader_s {
    const void *base;
    size_t map_len;  /* bytes mapped */
    size_t need_len; /* bytes the geometry reads: the object must stay at least this long */
    int fd;          /* -1: a caller's buffer */
    const kvr_res_header_t *header;
    const _Atomic uint64_t *engine_words;
    const kvr_res_bucket_t *buckets;
    uint32_t engines;
    uint32_t bucket_size;
    uint64_t bucket_offset;
    uint64_t bucket_count;
    uint64_t seed;
    uint32_t max_probe;
    dev_t dev;
    ino_t ino;
    uint32_t *stamp;    /* per slot: the lookup that last saw it */
    uint32_t *position; /* per slot: its index in the lookup's result */
    uint64_t *word;     /* per slot: its engine word as this lookup read it */
    uint8_t *mask;      /* per slot: tiers seen for the current block */
    uint32_t *active;   /* result indexes still matching */
    uint32_t lookup_no;
    kvr_res_reader_stats_t stats;
    char name[256];
} kvr_residency_reader_t;

/**
 * Checks len bytes holding a table: magic, major, header and bucket sizes,
 * engines, bucket count, offsets and probe bound against
 * len, every sum checked. Returns 0 or KVR_ESHM_TRUNCATED / KVR_ERES_MAGIC /
 * KVR_ESHM_MAJOR / KVR_ERES_GEOMETRY.
 */
int kvr_residency_validate(const void *base, size_t len);

/**
 * Opens table name read-only (O_RDONLY|O_NOFOLLOW, PROT_READ): a regular
 * file of owner_uid no group or other may write (else KVR_ESHM_OWNER), then
 * kvr_residency_validate; the geometry is copied once. 0 or -errno / a code.
 */
int kvr_residency_reader_open(kvr_residency_reader_t *r, const char *name, uid_t owner_uid);
/** Reads a table held in a caller's buffer (a copy; the fuzz target). Same codes. */
int kvr_residency_reader_attach(kvr_residency_reader_t *r, const void *base, size_t len);
void kvr_residency_reader_close(kvr_residency_reader_t *r);

/**
 * The mapping can still be read and its writer lives: object not shorter
 * than the mapping, header's magic, major and geometry equal to the copy
 * (else KVR_ESHM_CHANGED: close and open again), writer LIVE with a
 * heartbeat at most max_age_ns old at now_ns (else KVR_ESHM_WRITER_GONE /
 * KVR_ESHM_STALE). Call it before a batch of lookups.
 */
int kvr_residency_reader_check(kvr_residency_reader_t *r, uint64_t now_ns, uint64_t max_age_ns);

/** True when slot's engine word says trusted (and its epoch was ever set). */
bool kvr_residency_reader_trusted(const kvr_residency_reader_t *r, uint32_t slot);

/**
 * Entries engine slot holds now, of its current epoch, in any tier: a walk of
 * every bucket (tools and tests; a router never needs it). Buckets the
 * seqlock cannot read count as busy and are skipped. 0 for a slot out of range.
 */
uint64_t kvr_residency_reader_slot_entries(kvr_residency_reader_t *r, uint32_t slot);

/**
 * The longest prefix of hashes[0..n) each trusted engine holds: out[0..
 * returned) gets one entry per engine holding at least hashes[0] (in any
 * tier), at most cap of them. An engine's prefix ends at the first block it
 * lacks; blocks[t] counts the leading blocks held in tier t or faster. A
 * bucket torn past the retries, an entry out of range, an epoch not its
 * engine's or an engine untrusted is a miss, never a holder.
 */
size_t kvr_residency_lookup(kvr_residency_reader_t *r, const uint64_t *hashes, size_t n,
                            kvr_res_match_t *out, size_t cap);

#endif
