/* SPDX-License-Identifier: Apache-2.0 */
#include "shm_layout/residency.h"
#include "shm_layout/seqcount.h"
#include "shm_layout/shm_internal.h"
#include "shm_layout/shm_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ENTRY_WORDS (2u * KVR_RES_BUCKET_ENTRIES)
#define BUCKET_WORDS (ENTRY_WORDS + 1u)
/* A table whose writer's heartbeat is younger than this is someone's, not debris. */
#define LIVE_WRITER_NS (5 * KVR_SHM_NS_PER_SEC)
#define MAX_BUCKETS (UINT64_C(1) << 40)

/* The fields every major-1 header starts with, as plain values. */
typedef struct {
    uint64_t magic;
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size;
    uint32_t bucket_size;
    uint32_t engines;
    uint64_t bucket_offset;
    uint64_t bucket_count;
    uint64_t seed;
    uint32_t max_probe;
    uint32_t pad0;
} geometry_t;
_Static_assert(sizeof(geometry_t) == 56 && offsetof(kvr_res_header_t, writer_pid) == 56,
               "geometry_t mirrors the header's first fields");

/* Bucket of a block: the hash mixed with the table's seed (murmur3's finaliser). */
static inline uint64_t home_of(uint64_t hash, uint64_t seed, uint64_t count)
{
    uint64_t x = hash ^ seed;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x % count; /* a division per block: small beside the bucket's cache miss */
}

/* Bucket b + d of count, wrapping (b < count, d <= count). */
static inline uint64_t step(uint64_t b, uint64_t d, uint64_t count)
{
    return b + d >= count ? b + d - count : b + d;
}

/* Buckets from a to b going forward (both < count). */
static inline uint64_t dist(uint64_t a, uint64_t b, uint64_t count)
{
    return b >= a ? b - a : b + count - a;
}

static inline uint32_t holder_slot(uint64_t holder)
{
    return (uint32_t)(holder & 0xffffu);
}
static inline uint32_t holder_tier(uint64_t holder)
{
    return (uint32_t)((holder >> 16) & 0xffu);
}
static inline uint32_t word_epoch(uint64_t word)
{
    return (uint32_t)(word >> 32);
}

static uint64_t engines_bytes(uint32_t engines)
{
    return ((uint64_t)engines * 8u + 63u) & ~UINT64_C(63);
}

int kvr_residency_name(char *out, size_t size, const char *state_name)
{
    char base[256];
    int rc = kvr__shm_name(base, sizeof base, state_name);
    if (rc < 0)
        return rc;
    int n = snprintf(out, size, "%s%s", base, KVR_RES_NAME_SUFFIX);
    return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ---- validation ---------------------------------------------------------- */

static int validate_copy(const void *base, size_t len, geometry_t *g)
{
    if (len < 16)
        return KVR_ESHM_TRUNCATED;
    memcpy(g, base, 16);
    if (g->magic != KVR_RES_MAGIC)
        return KVR_ERES_MAGIC;
    if (g->abi_major != KVR_RES_ABI_MAJOR)
        return KVR_ESHM_MAJOR;
    if (len < KVR_RES_HEADER_SIZE)
        return KVR_ESHM_TRUNCATED;
    memcpy(g, base, sizeof *g);
    if (g->magic != KVR_RES_MAGIC || g->abi_major != KVR_RES_ABI_MAJOR)
        return KVR_ERES_MAGIC; /* changed between the two copies */
    if (g->header_size < KVR_RES_HEADER_SIZE || g->header_size % 64 != 0 ||
        g->bucket_size < KVR_RES_BUCKET_SIZE || g->bucket_size % 64 != 0 || g->engines == 0 ||
        g->engines > KVR_RES_MAX_ENGINES || g->bucket_count == 0 || g->bucket_count > MAX_BUCKETS ||
        g->max_probe > KVR_RES_MAX_PROBE ||
        g->max_probe >= g->bucket_count + (g->bucket_count == 1))
        return KVR_ERES_GEOMETRY;
    /* Every term is bounded above (2^40 buckets of at most 2^32 bytes): no sum wraps. */
    uint64_t words_end = (uint64_t)g->header_size + engines_bytes(g->engines);
    if (g->bucket_offset < words_end || g->bucket_offset % 64 != 0 || g->bucket_offset > len)
        return KVR_ERES_GEOMETRY;
    if (g->bucket_count > (len - g->bucket_offset) / g->bucket_size)
        return KVR_ERES_GEOMETRY;
    return 0;
}

int kvr_residency_validate(const void *base, size_t len)
{
    geometry_t g;
    return validate_copy(base, len, &g);
}

/* ---- writer ---------------------------------------------------------------- */

static kvr_res_bucket_t *w_bucket(const kvr_residency_writer_t *w, uint64_t b)
{
    return &w->buckets[b];
}

static uint64_t *w_entries(const kvr_residency_writer_t *w, uint64_t b)
{
    return &w->mirror[b * ENTRY_WORDS];
}

/* Readers see bucket b as the writer's copy has it now. */
static void publish(kvr_residency_writer_t *w, uint64_t b)
{
    uint64_t words[BUCKET_WORDS] = {0};
    memcpy(words, w_entries(w, b), ENTRY_WORDS * sizeof(uint64_t));
    w->seqs[b] = kvr__seqcount_write(&w_bucket(w, b)->seq, w->seqs[b], w_bucket(w, b)->words, words,
                                     BUCKET_WORDS);
}

static bool bucket_full(const uint64_t *e)
{
    for (uint32_t k = 0; k < KVR_RES_BUCKET_ENTRIES; k++)
        if (e[2 * k] == 0)
            return false;
    return true;
}

static bool entry_live(const kvr_residency_writer_t *w, const uint64_t *e, uint32_t k)
{
    uint64_t holder = e[2 * k + 1];
    return e[2 * k] != 0 && word_epoch(holder) == w->epoch[holder_slot(holder)];
}

static void store_counters(kvr_residency_writer_t *w)
{
    kvr_res_header_t *h = w->header;
    atomic_store_explicit(&h->entries, w->stats.entries, memory_order_relaxed);
    atomic_store_explicit(&h->refused, w->stats.refused_total, memory_order_relaxed);
    atomic_store_explicit(&h->clears, w->stats.clears_total, memory_order_relaxed);
}

/*
 * Empties entry k of bucket b and keeps every chain reachable: a reader
 * stops at the first bucket with a free entry, so entries of later buckets
 * whose chain passed through b move back into the hole (backward-shift
 * deletion, bucket by bucket). Each bucket is published after its change;
 * a reader racing a move may miss the moved entry, never see a wrong one.
 */
static void delete_at(kvr_residency_writer_t *w, uint64_t b, uint32_t k)
{
    uint64_t count = w->bucket_count;
    uint64_t *e = w_entries(w, b);
    bool was_full = bucket_full(e);
    e[2 * k] = 0;
    e[2 * k + 1] = 0;
    publish(w, b);
    uint64_t hole = b;
    uint32_t hole_k = k;
    uint64_t j = step(b, 1, count);
    for (uint64_t steps = 0; was_full && steps <= (uint64_t)w->max_probe + 1u; steps++) {
        uint64_t *je = w_entries(w, j);
        bool j_full = bucket_full(je);
        bool moved = false;
        for (uint32_t m = 0; m < KVR_RES_BUCKET_ENTRIES && !moved; m++) {
            if (je[2 * m] == 0)
                continue;
            uint64_t home = home_of(je[2 * m], w->seed, count);
            if (dist(home, hole, count) >= dist(home, j, count))
                continue; /* its chain does not pass the hole */
            uint64_t *he = w_entries(w, hole);
            he[2 * hole_k] = je[2 * m];
            he[2 * hole_k + 1] = je[2 * m + 1];
            publish(w, hole);
            je[2 * m] = 0;
            je[2 * m + 1] = 0;
            publish(w, j);
            hole = j;
            hole_k = m;
            moved = true;
        }
        if (!j_full)
            return; /* the chain ended at j */
        if (!moved && j == b)
            return;
        j = step(j, 1, count);
    }
}

int kvr_residency_stored(kvr_residency_writer_t *w, uint32_t slot, uint64_t hash, uint32_t tier)
{
    if (slot >= w->engines || tier >= KVR_RES_TIERS || hash == 0)
        return -EINVAL;
    uint64_t count = w->bucket_count;
    uint64_t holder = KVR_RES_HOLDER(slot, tier, w->epoch[slot]);
    uint64_t home = home_of(hash, w->seed, count);
    uint64_t free_b = UINT64_MAX;
    uint32_t free_k = 0;
    bool free_dead = false;
    for (uint64_t d = 0; d <= w->max_probe; d++) {
        uint64_t b = step(home, d, count);
        uint64_t *e = w_entries(w, b);
        bool end = false;
        for (uint32_t k = 0; k < KVR_RES_BUCKET_ENTRIES; k++) {
            if (e[2 * k] == hash && e[2 * k + 1] == holder)
                return 0; /* held already */
            bool empty = e[2 * k] == 0;
            end |= empty;
            if (free_b == UINT64_MAX && (empty || !entry_live(w, e, k))) {
                free_b = b;
                free_k = k;
                free_dead = !empty;
            }
        }
        if (end)
            break;
    }
    bool fill_ok = w->stats.entries + w->stats.dead_entries < w->stats.capacity_entries;
    if (free_b == UINT64_MAX || (!free_dead && !fill_ok)) {
        w->stats.refused_total++;
        store_counters(w);
        return -ENOSPC;
    }
    uint64_t *e = w_entries(w, free_b);
    if (free_dead)
        w->stats.dead_entries--;
    e[2 * free_k] = hash;
    e[2 * free_k + 1] = holder;
    publish(w, free_b);
    w->per_slot[slot]++;
    w->stats.entries++;
    w->stats.stored_total++;
    store_counters(w);
    return 0;
}

int kvr_residency_removed(kvr_residency_writer_t *w, uint32_t slot, uint64_t hash, uint32_t tier)
{
    if (slot >= w->engines || tier >= KVR_RES_TIERS || hash == 0)
        return -EINVAL;
    uint64_t count = w->bucket_count;
    uint64_t holder = KVR_RES_HOLDER(slot, tier, w->epoch[slot]);
    uint64_t home = home_of(hash, w->seed, count);
    for (uint64_t d = 0; d <= w->max_probe; d++) {
        uint64_t b = step(home, d, count);
        uint64_t *e = w_entries(w, b);
        for (uint32_t k = 0; k < KVR_RES_BUCKET_ENTRIES; k++) {
            if (e[2 * k] == hash && e[2 * k + 1] == holder) {
                delete_at(w, b, k);
                w->per_slot[slot]--;
                w->stats.entries--;
                w->stats.removed_total++;
                store_counters(w);
                return 0;
            }
        }
        if (!bucket_full(e))
            break;
    }
    return -ENOENT;
}

static void store_engine(kvr_residency_writer_t *w, uint32_t slot)
{
    uint64_t word = (w->epoch[slot] << 32) | (w->trusted[slot] ? KVR_RES_ENGINE_TRUSTED : 0);
    atomic_store_explicit(&w->engine_words[slot], word, memory_order_release);
}

int kvr_residency_cleared(kvr_residency_writer_t *w, uint32_t slot)
{
    if (slot >= w->engines)
        return -EINVAL;
    /* 32 bits of epoch; 0 is never an epoch, so a zeroed entry never matches. */
    w->epoch[slot] = w->epoch[slot] >= UINT32_MAX ? 1 : w->epoch[slot] + 1;
    store_engine(w, slot);
    w->stats.dead_entries += w->per_slot[slot];
    w->stats.entries -= w->per_slot[slot];
    w->per_slot[slot] = 0;
    w->stats.clears_total++;
    store_counters(w);
    return 0;
}

int kvr_residency_trust(kvr_residency_writer_t *w, uint32_t slot, bool trusted)
{
    if (slot >= w->engines)
        return -EINVAL;
    w->trusted[slot] = trusted;
    store_engine(w, slot);
    return 0;
}

void kvr_residency_writer_tick(kvr_residency_writer_t *w, uint64_t now_ns, uint64_t sweep_buckets)
{
    atomic_store_explicit(&w->header->heartbeat_ns, now_ns, memory_order_release);
    if (w->stats.dead_entries == 0)
        return;
    if (sweep_buckets > w->bucket_count)
        sweep_buckets = w->bucket_count;
    for (uint64_t i = 0; i < sweep_buckets && w->stats.dead_entries > 0; i++) {
        uint64_t b = w->sweep_next;
        w->sweep_next = step(w->sweep_next, 1, w->bucket_count);
        uint64_t *e = w_entries(w, b);
        /* A deletion may pull another entry into k: look at k again. */
        for (uint32_t k = 0, guard = 0; k < KVR_RES_BUCKET_ENTRIES && guard < 64; guard++) {
            if (e[2 * k] != 0 && !entry_live(w, e, k)) {
                delete_at(w, b, k);
                w->stats.dead_entries--;
            } else {
                k++;
            }
        }
    }
    store_counters(w);
}

void kvr_residency_writer_stats(const kvr_residency_writer_t *w, kvr_res_stats_t *out)
{
    *out = w->stats;
}

/* An object at the name this uid owns and whose writer lives: not ours to replace. */
static bool owned_by_live_writer(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size < (off_t)KVR_RES_HEADER_SIZE)
        return false;
    void *p = mmap(NULL, KVR_RES_HEADER_SIZE, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return false;
    const kvr_res_header_t *h = p;
    bool live = false;
    if (h->magic == KVR_RES_MAGIC && atomic_load(&h->writer_state) == KVR_SHM_WRITER_LIVE &&
        kvr__shm_pid_alive(atomic_load(&h->writer_pid))) {
        uint64_t now = kvr__shm_clock_ns(CLOCK_MONOTONIC);
        live = kvr_shm_age_ns(now, atomic_load(&h->heartbeat_ns)) < LIVE_WRITER_NS;
    }
    munmap(p, KVR_RES_HEADER_SIZE);
    return live;
}

static int create_object(const char *name, size_t size, int *fd_out)
{
    int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = shm_open(name, flags, 0640);
    if (fd < 0 && errno == EEXIST) {
        struct stat st;
        int old = kvr__shm_open_reader(name, geteuid(), 0, &st);
        if (old < 0)
            return old;
        bool live = owned_by_live_writer(old);
        close(old);
        if (live)
            return -EBUSY;
        if (shm_unlink(name) < 0 && errno != ENOENT)
            return -errno;
        fd = shm_open(name, flags, 0640);
    }
    if (fd < 0)
        return -errno;
    if (fchmod(fd, 0640) < 0 || ftruncate(fd, (off_t)size) < 0) {
        int rc = -errno;
        close(fd);
        shm_unlink(name);
        return rc;
    }
    *fd_out = fd;
    return 0;
}

static void free_writer(kvr_residency_writer_t *w)
{
    free(w->mirror);
    free(w->seqs);
    free(w->epoch);
    free(w->trusted);
    free(w->per_slot);
    w->mirror = NULL;
    w->seqs = NULL;
    w->epoch = NULL;
    w->trusted = NULL;
    w->per_slot = NULL;
}

/* Geometry for total bytes and the writer's private copies. 0, -EINVAL, -ENOMEM. */
static int writer_plan(kvr_residency_writer_t *w, uint64_t total, uint32_t engines, uint64_t seed)
{
    if (engines == 0 || engines > KVR_RES_MAX_ENGINES)
        return -EINVAL;
    uint64_t offset = KVR_RES_HEADER_SIZE + engines_bytes(engines);
    if (total < offset + KVR_RES_BUCKET_SIZE)
        return -EINVAL;
    uint64_t count = (total - offset) / KVR_RES_BUCKET_SIZE;
    w->engines = engines;
    w->bucket_count = count;
    w->max_probe = count - 1 < KVR_RES_MAX_PROBE ? (uint32_t)(count - 1) : KVR_RES_MAX_PROBE;
    w->seed = seed;
    w->stats.capacity_entries = count * KVR_RES_BUCKET_ENTRIES * KVR_RES_FILL_NUM /
                                KVR_RES_FILL_DEN;
    w->map_len = offset + count * KVR_RES_BUCKET_SIZE;
    w->mirror = calloc(count, ENTRY_WORDS * sizeof(uint64_t));
    w->seqs = calloc(count, sizeof(uint64_t));
    w->epoch = calloc(engines, sizeof(uint64_t));
    w->trusted = calloc(engines, sizeof(bool));
    w->per_slot = calloc(engines, sizeof(uint64_t));
    if (!w->mirror || !w->seqs || !w->epoch || !w->trusted || !w->per_slot) {
        free_writer(w);
        return -ENOMEM;
    }
    return 0;
}

/* The whole table at w->base (zeroed bytes) from the plan; the magic last. */
static void writer_lay_out(kvr_residency_writer_t *w)
{
    uint64_t offset = KVR_RES_HEADER_SIZE + engines_bytes(w->engines);
    w->header = w->base;
    w->engine_words = (_Atomic uint64_t *)((char *)w->base + KVR_RES_HEADER_SIZE);
    w->buckets = (kvr_res_bucket_t *)((char *)w->base + offset);
    for (uint32_t s = 0; s < w->engines; s++) {
        w->epoch[s] = 1;
        store_engine(w, s);
    }
    kvr_res_header_t *h = w->header;
    h->abi_major = KVR_RES_ABI_MAJOR;
    h->abi_minor = KVR_RES_ABI_MINOR;
    h->header_size = KVR_RES_HEADER_SIZE;
    h->bucket_size = KVR_RES_BUCKET_SIZE;
    h->engines = w->engines;
    h->bucket_offset = offset;
    h->bucket_count = w->bucket_count;
    h->seed = w->seed;
    h->max_probe = w->max_probe;
    atomic_store(&h->writer_pid, (int64_t)getpid());
    atomic_store(&h->heartbeat_ns, kvr__shm_clock_ns(CLOCK_MONOTONIC));
    atomic_store(&h->writer_state, KVR_SHM_WRITER_LIVE);
    /* A reader racing creation sees "not a table", not half a header. */
    atomic_thread_fence(memory_order_release);
    h->magic = KVR_RES_MAGIC;
}

int kvr_residency_writer_open(kvr_residency_writer_t *w, const char *name, uint32_t mb,
                              uint32_t engines)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    if (mb < KVR_RES_MIN_MB || mb > KVR_RES_MAX_MB)
        return -EINVAL;
    int rc = kvr__shm_name(w->name, sizeof w->name, name);
    if (rc < 0)
        return rc;
    uint64_t seed;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        seed = kvr__shm_clock_ns(CLOCK_MONOTONIC) ^ ((uint64_t)getpid() << 32);
    rc = writer_plan(w, (uint64_t)mb << 20, engines, seed);
    if (rc < 0)
        return rc;
    rc = create_object(w->name, w->map_len, &w->fd);
    if (rc < 0)
        goto fail_alloc;
    w->base = mmap(NULL, w->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
    if (w->base == MAP_FAILED) {
        rc = -errno;
        w->base = NULL;
        goto fail_object;
    }
    writer_lay_out(w);
    return 0;

fail_object:
    close(w->fd);
    w->fd = -1;
    shm_unlink(w->name);
fail_alloc:
    free_writer(w);
    return rc;
}

int kvr_residency_writer_init_buffer(kvr_residency_writer_t *w, void *buf, size_t len,
                                     uint32_t engines, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    if (buf == NULL || ((uintptr_t)buf & 63u) != 0)
        return -EINVAL;
    int rc = writer_plan(w, len, engines, seed);
    if (rc < 0)
        return rc;
    memset(buf, 0, w->map_len);
    w->base = buf;
    writer_lay_out(w);
    return 0;
}

void kvr_residency_writer_mark_stopped(kvr_residency_writer_t *w)
{
    if (w->base)
        atomic_store(&w->header->writer_state, KVR_SHM_WRITER_STOPPED);
}

void kvr_residency_writer_close(kvr_residency_writer_t *w)
{
    if (w->base) {
        kvr_residency_writer_mark_stopped(w);
        if (w->fd >= 0)
            munmap(w->base, w->map_len);
    }
    if (w->fd >= 0)
        close(w->fd);
    free_writer(w);
    w->base = NULL;
    w->fd = -1;
}

/* The name still names the object fd maps: someone may have replaced it since. */
static bool name_is_ours(const char *name, int fd)
{
    struct stat mine, now;
    int other = shm_open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (other < 0)
        return false;
    bool same = fstat(fd, &mine) == 0 && fstat(other, &now) == 0 && mine.st_dev == now.st_dev &&
                mine.st_ino == now.st_ino;
    close(other);
    return same;
}

void kvr_residency_writer_destroy(kvr_residency_writer_t *w)
{
    char name[sizeof w->name];
    memcpy(name, w->name, sizeof name);
    bool ours = w->base != NULL && w->fd >= 0 && name_is_ours(name, w->fd);
    kvr_residency_writer_close(w);
    if (ours)
        shm_unlink(name);
}

/* ---- reader ---------------------------------------------------------------- */

static int reader_take(kvr_residency_reader_t *r, const void *base, size_t len)
{
    geometry_t g;
    int rc = validate_copy(base, len, &g);
    if (rc < 0)
        return rc;
    r->base = base;
    r->map_len = len;
    r->need_len = g.bucket_offset + g.bucket_count * g.bucket_size;
    r->header = base;
    r->engine_words = (const _Atomic uint64_t *)((const char *)base + g.header_size);
    r->buckets = (const kvr_res_bucket_t *)((const char *)base + g.bucket_offset);
    r->engines = g.engines;
    r->bucket_size = g.bucket_size;
    r->bucket_offset = g.bucket_offset;
    r->bucket_count = g.bucket_count;
    r->seed = g.seed;
    r->max_probe = g.max_probe;
    r->stamp = calloc(g.engines, sizeof *r->stamp);
    r->position = calloc(g.engines, sizeof *r->position);
    r->word = calloc(g.engines, sizeof *r->word);
    r->mask = calloc(g.engines, sizeof *r->mask);
    r->active = calloc(g.engines, sizeof *r->active);
    if (!r->stamp || !r->position || !r->word || !r->mask || !r->active)
        return -ENOMEM;
    return 0;
}

static void reader_free(kvr_residency_reader_t *r)
{
    free(r->stamp);
    free(r->position);
    free(r->word);
    free(r->mask);
    free(r->active);
}

int kvr_residency_reader_attach(kvr_residency_reader_t *r, const void *base, size_t len)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    int rc = reader_take(r, base, len);
    if (rc < 0) {
        reader_free(r);
        memset(r, 0, sizeof *r);
        r->fd = -1;
    }
    return rc;
}

int kvr_residency_reader_open(kvr_residency_reader_t *r, const char *name, uid_t owner_uid)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    int rc = kvr__shm_name(r->name, sizeof r->name, name);
    if (rc < 0)
        return rc;
    struct stat st;
    int fd = kvr__shm_open_reader(r->name, owner_uid, KVR_RES_HEADER_SIZE, &st);
    if (fd < 0)
        return fd;
    size_t len = (size_t)st.st_size;
    void *base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        rc = -errno;
        goto fail_fd;
    }
    rc = reader_take(r, base, len);
    if (rc < 0) {
        munmap(base, len);
        reader_free(r);
        goto fail_fd;
    }
    r->map_len = len; /* what is mapped; need_len is what the geometry reads */
    r->fd = fd;
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    return 0;

fail_fd:
    close(fd);
    memset(r, 0, sizeof *r);
    r->fd = -1;
    return rc;
}

void kvr_residency_reader_close(kvr_residency_reader_t *r)
{
    if (r->fd >= 0) {
        munmap((void *)r->base, r->map_len);
        close(r->fd);
    }
    reader_free(r);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

int kvr_residency_reader_check(kvr_residency_reader_t *r, uint64_t now_ns, uint64_t max_age_ns)
{
    if (r->base == NULL)
        return KVR_ESHM_CHANGED;
    if (r->fd >= 0) {
        struct stat st;
        if (fstat(r->fd, &st) < 0)
            return -errno;
        if (st.st_size < 0 || (uint64_t)st.st_size < r->need_len)
            return KVR_ESHM_CHANGED;
    }
    geometry_t g;
    memcpy(&g, r->base, sizeof g);
    if (g.magic != KVR_RES_MAGIC || g.abi_major != KVR_RES_ABI_MAJOR ||
        g.header_size != (uint64_t)((const char *)r->engine_words - (const char *)r->base) ||
        g.bucket_size != r->bucket_size || g.engines != r->engines ||
        g.bucket_offset != r->bucket_offset || g.bucket_count != r->bucket_count ||
        g.seed != r->seed || g.max_probe != r->max_probe)
        return KVR_ESHM_CHANGED;
    const kvr_res_header_t *h = r->header;
    if (atomic_load_explicit(&h->writer_state, memory_order_acquire) != KVR_SHM_WRITER_LIVE)
        return KVR_ESHM_WRITER_GONE;
    uint64_t beat = atomic_load_explicit(&h->heartbeat_ns, memory_order_acquire);
    if (kvr_shm_age_ns(now_ns, beat) > max_age_ns)
        return KVR_ESHM_STALE;
    return 0;
}

static uint64_t engine_word(const kvr_residency_reader_t *r, uint32_t slot)
{
    return atomic_load_explicit(&r->engine_words[slot], memory_order_acquire);
}

static bool word_usable(uint64_t word)
{
    return (word & KVR_RES_ENGINE_TRUSTED) != 0 && word_epoch(word) != 0;
}

bool kvr_residency_reader_trusted(const kvr_residency_reader_t *r, uint32_t slot)
{
    return r->base != NULL && slot < r->engines && word_usable(engine_word(r, slot));
}

/* A consistent copy of bucket b's entries, or false when the seqlock never gave one. */
static bool read_bucket(const kvr_residency_reader_t *r, uint64_t b, uint64_t *out)
{
    const kvr_res_bucket_t *bucket = (const kvr_res_bucket_t *)((const char *)r->buckets +
                                                                b * r->bucket_size);
    for (uint32_t attempt = 0; attempt < KVR_RES_READ_RETRIES; attempt++) {
        uint64_t begin = kvr__seqcount_read_begin(&bucket->seq);
        if (begin & 1u) {
            kvr__seqcount_relax();
            continue;
        }
        kvr__seqcount_load(out, bucket->words, ENTRY_WORDS);
        if (!kvr__seqcount_read_retry(&bucket->seq, begin))
            return true;
        kvr__seqcount_relax();
    }
    return false;
}

uint64_t kvr_residency_reader_slot_entries(kvr_residency_reader_t *r, uint32_t slot)
{
    if (r->base == NULL || slot >= r->engines)
        return 0;
    uint32_t epoch = word_epoch(engine_word(r, slot));
    uint64_t n = 0, e[ENTRY_WORDS];
    for (uint64_t b = 0; b < r->bucket_count; b++) {
        if (!read_bucket(r, b, e)) {
            r->stats.busy++;
            continue;
        }
        for (uint32_t k = 0; k < KVR_RES_BUCKET_ENTRIES; k++)
            if (e[2 * k] != 0 && holder_slot(e[2 * k + 1]) == slot &&
                word_epoch(e[2 * k + 1]) == epoch && epoch != 0)
                n++;
    }
    return n;
}

size_t kvr_residency_lookup(kvr_residency_reader_t *r, const uint64_t *hashes, size_t n,
                            kvr_res_match_t *out, size_t cap)
{
    if (r->base == NULL || n == 0 || cap == 0)
        return 0;
    r->stats.lookups++;
    if (++r->lookup_no == 0) {
        memset(r->stamp, 0, r->engines * sizeof *r->stamp);
        r->lookup_no = 1;
    }
    const uint32_t stamp = r->lookup_no;
    const uint64_t count = r->bucket_count;
    size_t found = 0;
    size_t n_active = 0;
    uint64_t e[ENTRY_WORDS];
    for (size_t i = 0; i < n && i < UINT32_MAX; i++) {
        uint64_t hash = hashes[i];
        if (hash == 0)
            break;
        uint64_t home = home_of(hash, r->seed, count);
        /* The next block's bucket is a miss of its own: start it while this one is read. */
        if (i + 1 < n && hashes[i + 1] != 0)
            __builtin_prefetch((const char *)r->buckets +
                               home_of(hashes[i + 1], r->seed, count) * r->bucket_size);
        for (uint64_t d = 0;; d++) {
            if (d > r->max_probe) {
                r->stats.probe_capped++;
                break;
            }
            if (!read_bucket(r, step(home, d, count), e)) {
                r->stats.busy++;
                break;
            }
            bool end = false;
            for (uint32_t k = 0; k < KVR_RES_BUCKET_ENTRIES; k++) {
                if (e[2 * k] == 0) {
                    end = true;
                    continue;
                }
                if (e[2 * k] != hash)
                    continue;
                uint64_t holder = e[2 * k + 1];
                uint32_t slot = holder_slot(holder);
                uint32_t tier = holder_tier(holder);
                if (slot >= r->engines || tier >= KVR_RES_TIERS || (holder & 0xff000000u) != 0 ||
                    word_epoch(holder) == 0) {
                    r->stats.bad_entries++;
                    continue;
                }
                if (r->stamp[slot] != stamp) {
                    if (i != 0)
                        continue; /* lacked an earlier block */
                    r->stamp[slot] = stamp;
                    r->word[slot] = engine_word(r, slot);
                    r->mask[slot] = 0;
                    r->position[slot] = UINT32_MAX;
                    if (word_usable(r->word[slot]) && found < cap) {
                        r->position[slot] = (uint32_t)found;
                        out[found] = (kvr_res_match_t){.slot = slot};
                        r->active[n_active++] = (uint32_t)found;
                        found++;
                    }
                }
                uint32_t pos = r->position[slot];
                if (pos == UINT32_MAX || out[pos].blocks[KVR_RES_TIERS - 1] != i ||
                    word_epoch(holder) != word_epoch(r->word[slot]))
                    continue; /* untrusted, dropped earlier, or an entry of a cleared epoch */
                r->mask[slot] |= (uint8_t)(1u << tier);
            }
            if (end)
                break;
        }
        /* Every engine still matching extends by this block in each tier it holds it at or faster. */
        size_t kept = 0;
        for (size_t a = 0; a < n_active; a++) {
            kvr_res_match_t *m = &out[r->active[a]];
            uint8_t seen = r->mask[m->slot];
            r->mask[m->slot] = 0;
            for (uint32_t t = 0; t < KVR_RES_TIERS; t++)
                if (m->blocks[t] == i && (seen & ((2u << t) - 1u)) != 0)
                    m->blocks[t] = (uint32_t)i + 1;
            if (m->blocks[KVR_RES_TIERS - 1] == i + 1)
                r->active[kept++] = r->active[a];
        }
        n_active = kept;
        if (n_active == 0)
            break;
    }
    /* An engine cleared or untrusted while we read drops out: its word moved. */
    size_t kept = 0;
    for (size_t j = 0; j < found; j++) {
        if (out[j].blocks[KVR_RES_TIERS - 1] == 0 ||
            engine_word(r, out[j].slot) != r->word[out[j].slot])
            continue;
        out[kept++] = out[j];
    }
    return kept;
}
