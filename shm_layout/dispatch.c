/* SPDX-License-Identifier: Apache-2.0 */
#include "shm_layout/dispatch.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "shm_layout/seqcount.h"
#include "shm_layout/shm_internal.h"
#include "shm_layout/shm_layout.h"

/* Step of the wait for an object found at the name empty or magic-less (being created). */
#define DSP_CREATE_WAIT_NS 1000000L

/* The header fields every major-1 dispatch header starts with, as plain values. */
typedef struct {
    uint64_t magic;
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size;
    uint32_t row_size;
    uint32_t row_capacity;
    uint32_t engines_per_row;
    uint32_t ring_capacity;
    uint32_t entry_size;
    uint32_t entry_blocks;
} geometry_t;
_Static_assert(sizeof(geometry_t) == 40 && offsetof(kvr_dsp_header_t, created_ns) == 40,
               "geometry_t mirrors the header's first fields");

#define ENTRY_WORDS (sizeof(kvr_dsp_placement_t) / sizeof(uint64_t))
#define CHECKED_BYTES (offsetof(kvr_dsp_placement_t, check))

static size_t round64(size_t n)
{
    return (n + 63) / 64 * 64;
}

/* Smallest row holding engines entries. */
static size_t row_bytes(uint64_t engines)
{
    return round64(offsetof(kvr_dsp_row_t, words) + sizeof(kvr_dsp_row_head_t) +
                   (size_t)engines * sizeof(kvr_dsp_engine_t));
}

static size_t payload_words(uint32_t engines)
{
    return KVR_DSP_ROW_HEAD_WORDS + (size_t)engines * KVR_DSP_ENGINE_WORDS;
}

static uint64_t segment_bytes(const geometry_t *g)
{
    return (uint64_t)g->header_size + (uint64_t)g->row_capacity * g->row_size +
           (uint64_t)g->ring_capacity * g->entry_size;
}

static int validate_copy(const void *base, size_t len, geometry_t *g)
{
    if (len < sizeof *g)
        return KVR_ESHM_TRUNCATED;
    memcpy(g, base, sizeof *g);
    if (g->magic != KVR_DSP_MAGIC)
        return KVR_EDSP_MAGIC;
    if (g->abi_major != KVR_DSP_ABI_MAJOR)
        return KVR_ESHM_MAJOR;
    if (len < KVR_DSP_HEADER_SIZE)
        return KVR_ESHM_TRUNCATED;
    if (g->header_size < KVR_DSP_HEADER_SIZE || g->header_size % 64 != 0)
        return KVR_EDSP_GEOMETRY;
    if (g->row_capacity == 0 || g->row_capacity > KVR_DSP_MAX_ROWS)
        return KVR_EDSP_GEOMETRY;
    if (g->engines_per_row == 0 || g->engines_per_row > KVR_DSP_MAX_ENGINES)
        return KVR_EDSP_GEOMETRY;
    /* A newer minor may append row or entry fields: a larger stride is fine, a smaller one is not. */
    if (g->row_size < row_bytes(g->engines_per_row) || g->row_size % 64 != 0)
        return KVR_EDSP_GEOMETRY;
    if (g->ring_capacity == 0 || g->ring_capacity > KVR_DSP_MAX_RING ||
        (g->ring_capacity & (g->ring_capacity - 1)) != 0)
        return KVR_EDSP_GEOMETRY;
    if (g->entry_size < sizeof(kvr_dsp_entry_t) || g->entry_size % 64 != 0 ||
        g->entry_blocks != KVR_DSP_ENTRY_BLOCKS)
        return KVR_EDSP_GEOMETRY;
    if (segment_bytes(g) > len)
        return KVR_EDSP_GEOMETRY;
    return 0;
}

int kvr_dsp_validate(const void *base, size_t len)
{
    geometry_t g;
    return validate_copy(base, len, &g);
}

/* The copies of a validated geometry, and the buffer one row is read into (sized by it). */
static int take_geometry(kvr_dsp_t *d, const geometry_t *g)
{
    free(d->read_words);
    d->read_words = calloc(payload_words(g->engines_per_row), sizeof(uint64_t));
    if (d->read_words == NULL)
        return -ENOMEM;
    d->header_size = g->header_size;
    d->row_size = g->row_size;
    d->row_capacity = g->row_capacity;
    d->engines_per_row = g->engines_per_row;
    d->ring_capacity = g->ring_capacity;
    d->entry_size = g->entry_size;
    d->ring_offset = (size_t)g->header_size + (size_t)g->row_capacity * g->row_size;
    return 0;
}

static void reset(kvr_dsp_t *d)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->row = -1;
}

/* The geometry a segment created with want has; -EINVAL when want is out of range. */
static int geometry_for(const kvr_dsp_geometry_t *want, geometry_t *g)
{
    if (want->rows == 0 || want->rows > KVR_DSP_MAX_ROWS || want->engines_per_row == 0 ||
        want->engines_per_row > KVR_DSP_MAX_ENGINES || want->ring_capacity == 0 ||
        want->ring_capacity > KVR_DSP_MAX_RING ||
        (want->ring_capacity & (want->ring_capacity - 1)) != 0)
        return -EINVAL;
    *g = (geometry_t){
        .magic = KVR_DSP_MAGIC,
        .abi_major = KVR_DSP_ABI_MAJOR,
        .abi_minor = KVR_DSP_ABI_MINOR,
        .header_size = KVR_DSP_HEADER_SIZE,
        .row_size = (uint32_t)row_bytes(want->engines_per_row),
        .row_capacity = want->rows,
        .engines_per_row = want->engines_per_row,
        .ring_capacity = want->ring_capacity,
        .entry_size = (uint32_t)sizeof(kvr_dsp_entry_t),
        .entry_blocks = KVR_DSP_ENTRY_BLOCKS,
    };
    return 0;
}

static int map_fd(kvr_dsp_t *d, int fd, size_t len)
{
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        return -errno;
    d->base = base;
    d->map_len = len;
    d->header = base;
    return 0;
}

/* The header from g, the magic last: a router racing creation sees "not yet" rather than half a header. */
static void store_header(kvr_dsp_t *d, const geometry_t *g)
{
    kvr_dsp_header_t *h = d->header;
    h->abi_major = g->abi_major;
    h->abi_minor = g->abi_minor;
    h->header_size = g->header_size;
    h->row_size = g->row_size;
    h->row_capacity = g->row_capacity;
    h->engines_per_row = g->engines_per_row;
    h->ring_capacity = g->ring_capacity;
    h->entry_size = g->entry_size;
    h->entry_blocks = g->entry_blocks;
    h->created_ns = kvr__shm_clock_ns(CLOCK_REALTIME);
    h->creator_pid = (int64_t)getpid();
    atomic_store_explicit(&h->ring_head, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    h->magic = KVR_DSP_MAGIC;
}

static int create_new(kvr_dsp_t *d, const kvr_dsp_geometry_t *want)
{
    geometry_t g;
    int rc = geometry_for(want, &g);
    if (rc < 0)
        return rc;
    int fd = shm_open(d->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
    if (fd < 0)
        return -errno;
    struct stat st;
    /* shm_open's mode passes through the umask; the design promises 0640. */
    if (fchmod(fd, 0640) < 0 || ftruncate(fd, (off_t)segment_bytes(&g)) < 0 || fstat(fd, &st) < 0) {
        rc = -errno;
        goto fail_unlink;
    }
    rc = map_fd(d, fd, (size_t)segment_bytes(&g));
    if (rc < 0)
        goto fail_unlink;
    store_header(d, &g);
    rc = take_geometry(d, &g);
    if (rc < 0) {
        munmap(d->base, d->map_len);
        d->base = NULL;
        goto fail_unlink;
    }
    d->fd = fd;
    d->dev = st.st_dev;
    d->ino = st.st_ino;
    d->owner_uid = st.st_uid;
    d->mode = st.st_mode;
    d->created = true;
    return 0;

fail_unlink:
    close(fd);
    shm_unlink(d->name);
    return rc;
}

/* Opens what is at the name: 0, -ENOENT (gone: create it), -EAGAIN (still being created), or a refusal. */
static int open_existing(kvr_dsp_t *d)
{
    int fd = shm_open(d->name, O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    struct stat st;
    int rc = fstat(fd, &st) < 0 ? -errno : 0;
    if (rc == 0) {
        d->owner_uid = st.st_uid;
        d->mode = st.st_mode;
        rc = kvr__shm_check_owner(&st, geteuid());
    }
    if (rc < 0)
        goto fail_fd;
    if (st.st_size < (off_t)sizeof(geometry_t)) {
        /* The creator has not sized it yet, or it is debris: the caller waits, then reports it. */
        rc = st.st_size == 0 ? -EAGAIN : KVR_ESHM_TRUNCATED;
        goto fail_fd;
    }
    rc = map_fd(d, fd, (size_t)st.st_size);
    if (rc < 0)
        goto fail_fd;
    geometry_t g;
    rc = validate_copy(d->base, d->map_len, &g);
    if (rc == KVR_EDSP_MAGIC && g.magic == 0)
        rc = -EAGAIN; /* sized, magic not stored yet */
    if (rc == 0)
        rc = take_geometry(d, &g);
    if (rc < 0)
        goto fail_map;
    d->fd = fd;
    d->dev = st.st_dev;
    d->ino = st.st_ino;
    return 0;

fail_map:
    munmap(d->base, d->map_len);
    d->base = NULL;
    d->header = NULL;
fail_fd:
    close(fd);
    return rc;
}

int kvr_dsp_open(kvr_dsp_t *d, const char *name, const kvr_dsp_geometry_t *want, unsigned wait_ms)
{
    reset(d);
    int rc = kvr__shm_name(d->name, sizeof d->name, name);
    if (rc < 0)
        return rc;
    /* One look, then one per millisecond of the wait (a name freed meanwhile is created again). */
    for (unsigned attempt = 0; attempt <= wait_ms + 1; attempt++) {
        rc = create_new(d, want);
        if (rc != -EEXIST)
            return rc;
        rc = open_existing(d);
        if (rc != -EAGAIN && rc != -ENOENT)
            return rc;
        if (rc == -EAGAIN && attempt < wait_ms) {
            struct timespec pause = {0, DSP_CREATE_WAIT_NS};
            nanosleep(&pause, NULL);
        }
    }
    /* Still empty or magic-less after the wait: no creator is coming. */
    return rc == -EAGAIN ? KVR_ESHM_TRUNCATED : rc;
}

size_t kvr_dsp_size(const kvr_dsp_geometry_t *want)
{
    geometry_t g;
    return geometry_for(want, &g) < 0 ? 0 : (size_t)segment_bytes(&g);
}

int kvr_dsp_format(void *base, size_t len, const kvr_dsp_geometry_t *want)
{
    geometry_t g;
    if (geometry_for(want, &g) < 0 || len < segment_bytes(&g))
        return -EINVAL;
    kvr_dsp_t d;
    reset(&d);
    d.base = base;
    d.header = base;
    store_header(&d, &g);
    return 0;
}

int kvr_dsp_attach(kvr_dsp_t *d, void *base, size_t len)
{
    reset(d);
    geometry_t g;
    int rc = validate_copy(base, len, &g);
    if (rc < 0)
        return rc;
    d->base = base;
    d->map_len = len;
    d->header = base;
    return take_geometry(d, &g);
}

int kvr_dsp_check(const kvr_dsp_t *d)
{
    if (d->fd >= 0) {
        struct stat st;
        if (fstat(d->fd, &st) < 0)
            return -errno;
        if (st.st_size < 0 || (uint64_t)st.st_size < d->map_len)
            return KVR_ESHM_CHANGED;
    }
    geometry_t g;
    memcpy(&g, d->base, sizeof g);
    bool same = g.magic == KVR_DSP_MAGIC && g.abi_major == KVR_DSP_ABI_MAJOR &&
                g.header_size == d->header_size && g.row_size == d->row_size &&
                g.row_capacity == d->row_capacity && g.engines_per_row == d->engines_per_row &&
                g.ring_capacity == d->ring_capacity && g.entry_size == d->entry_size;
    return same ? 0 : KVR_ESHM_CHANGED;
}

int kvr_dsp_check_identity(const kvr_dsp_t *d)
{
    char path[300];
    snprintf(path, sizeof path, "%s%s", KVR_SHM_DIR, d->name);
    struct stat st;
    if (lstat(path, &st) < 0)
        return -errno;
    return st.st_dev == d->dev && st.st_ino == d->ino ? 0 : KVR_ESHM_CHANGED;
}

const char *kvr_dsp_explain(const kvr_dsp_t *d, int rc, char *buf, size_t size)
{
    const char *text = kvr_shm_strerror(rc);
    if (text == NULL)
        text = rc < 0 ? strerror(-rc) : "success";
    switch (rc) {
    case KVR_ESHM_OWNER:
        snprintf(buf, size, "%s (uid %u, mode %04o); remove %s%s, owned by uid %u", text,
                 (unsigned)d->owner_uid, (unsigned)(d->mode & 07777), KVR_SHM_DIR, d->name,
                 (unsigned)d->owner_uid);
        break;
    case KVR_EDSP_MAGIC:
    case KVR_ESHM_MAJOR:
    case KVR_ESHM_TRUNCATED:
    case KVR_EDSP_GEOMETRY:
        snprintf(buf, size, "%s; remove %s%s once no router uses it, or share under another name",
                 text, KVR_SHM_DIR, d->name);
        break;
    case KVR_EDSP_FULL:
        snprintf(buf, size, "%s (%u rows); stop a router or share under another name", text,
                 (unsigned)d->row_capacity);
        break;
    default: snprintf(buf, size, "%s", text); break;
    }
    return buf;
}

void kvr_dsp_close(kvr_dsp_t *d)
{
    /* A changed object may be shorter than the mapping: its row is not touched then. */
    if (d->base != NULL && kvr_dsp_check(d) == 0)
        kvr_dsp_release(d);
    if (d->base != NULL && d->fd >= 0) {
        munmap(d->base, d->map_len);
        close(d->fd);
    }
    free(d->payload);
    free(d->read_words);
    reset(d);
}

int kvr_dsp_unlink(const char *name)
{
    char full[256];
    int rc = kvr__shm_name(full, sizeof full, name);
    if (rc < 0)
        return rc;
    return shm_unlink(full) < 0 ? -errno : 0;
}

uint64_t kvr_dsp_engine_key(const char *engine_id)
{
    uint64_t key = XXH3_64bits(engine_id, strlen(engine_id));
    return key != 0 ? key : 1; /* 0 marks an unused entry */
}

uint64_t kvr_dsp_session_hash(const char *session_id, size_t len)
{
    uint64_t hash = XXH3_64bits(session_id, len);
    return hash != 0 ? hash : 1;
}

/* ---- rows ---------------------------------------------------------------- */

static kvr_dsp_row_t *row_at(const kvr_dsp_t *d, uint32_t index)
{
    assert(index < d->row_capacity);
    return (kvr_dsp_row_t *)((char *)d->base + d->header_size + (size_t)index * d->row_size);
}

static kvr_dsp_entry_t *entry_at(const kvr_dsp_t *d, uint64_t sequence)
{
    size_t index = (size_t)(sequence & (d->ring_capacity - 1));
    return (kvr_dsp_entry_t *)((char *)d->base + d->ring_offset + index * d->entry_size);
}

/* Stores the private payload copy under the row's seqlock; the counter comes from the copy too. */
static void store_payload(kvr_dsp_t *d, size_t words)
{
    kvr_dsp_row_t *row = row_at(d, (uint32_t)d->row);
    d->row_seq = kvr__seqcount_write(&row->seq, d->row_seq, row->words, d->payload, words);
}

/*
 * A token no router held before: the pid in the high half (so a claimer
 * judges the holder by the owner word alone, which the compare-and-swap
 * moves with it), and a nonce of pid, clocks and row in the low half.
 */
static uint64_t new_token(const kvr_dsp_t *d, uint32_t index)
{
    uint64_t parts[4] = {(uint64_t)getpid(), kvr__shm_clock_ns(CLOCK_REALTIME),
                         kvr__shm_clock_ns(CLOCK_MONOTONIC), index};
    uint32_t nonce = (uint32_t)XXH3_64bits_withSeed(parts, sizeof parts, d->start_ns);
    return ((uint64_t)(uint32_t)getpid() << 32) | (nonce != 0 ? nonce : 1);
}

/*
 * The holder of owner is gone: its pid is, or its heartbeat is older than
 * the max age or from the future. A holder that has not yet published its
 * claim's payload (the payload's owner word is not its token) has not
 * stored its first heartbeat either: what the row shows is the previous
 * holder's, so only its pid is judged.
 */
static bool holder_dead(const kvr_dsp_row_t *row, uint64_t owner, uint64_t now_ns,
                        uint64_t max_age_ns)
{
    if (!kvr__shm_pid_alive((int64_t)(owner >> 32)))
        return true;
    /* Acquire: pairs with the release fence before the claim's payload stores, which
     * follow its heartbeat store. */
    if (atomic_load_explicit(&row->words[0], memory_order_acquire) != owner)
        return false;
    uint64_t beat = atomic_load_explicit(&row->heartbeat_ns, memory_order_acquire);
    return kvr_shm_age_ns(now_ns, beat) > max_age_ns;
}

static void fill_head(kvr_dsp_t *d, uint64_t now_ns, uint32_t engines, const char *label)
{
    kvr_dsp_row_head_t head;
    memset(&head, 0, sizeof head);
    if (label == NULL)
        memcpy(&head, d->payload, sizeof head); /* keep the label */
    else
        snprintf(head.label, sizeof head.label, "%s", label);
    head.owner = d->token;
    head.publish_ns = now_ns;
    head.engine_count = engines;
    head.reserved = 0;
    memcpy(d->payload, &head, sizeof head);
}

int kvr_dsp_claim(kvr_dsp_t *d, const char *label, uint64_t now_ns, uint64_t max_age_ns)
{
    if (d->payload == NULL) {
        d->payload = calloc(payload_words(d->engines_per_row), sizeof(uint64_t));
        if (d->payload == NULL)
            return -ENOMEM;
        d->start_ns = kvr__shm_clock_ns(CLOCK_REALTIME);
    }
    kvr_dsp_release(d);
    /* Free rows first: a dead router's row keeps telling who it was until someone needs it. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < d->row_capacity; i++) {
            kvr_dsp_row_t *row = row_at(d, i);
            uint64_t owner = atomic_load_explicit(&row->owner, memory_order_acquire);
            if (pass == 0 ? owner != 0 : owner == 0 || !holder_dead(row, owner, now_ns, max_age_ns))
                continue;
            uint64_t token = new_token(d, i);
            if (!atomic_compare_exchange_strong_explicit(
                    &row->owner, &owner, token, memory_order_acq_rel, memory_order_relaxed))
                continue; /* another router won it */
            /* Before the payload names us: a claimer that sees our token in the payload judges
             * this heartbeat, never the dead holder's. */
            atomic_store_explicit(&row->heartbeat_ns, now_ns, memory_order_release);
            d->row = (int32_t)i;
            d->token = token;
            /* A holder killed mid-write left the counter odd: start from the next even value. */
            uint64_t seq = atomic_load_explicit(&row->seq, memory_order_relaxed);
            d->row_seq = (seq + 1) & ~1ull;
            memset(d->payload, 0, payload_words(d->engines_per_row) * sizeof(uint64_t));
            fill_head(d, now_ns, 0, label);
            store_payload(d, KVR_DSP_ROW_HEAD_WORDS);
            atomic_store_explicit(&row->pid, (int64_t)getpid(), memory_order_relaxed);
            atomic_store_explicit(&row->start_ns, d->start_ns, memory_order_release);
            return (int)i;
        }
    }
    return KVR_EDSP_FULL;
}

/* The row is still ours: its owner word holds our token. */
static int row_held(const kvr_dsp_t *d)
{
    if (d->row < 0)
        return -ENOENT;
    uint64_t owner = atomic_load_explicit(&row_at(d, (uint32_t)d->row)->owner,
                                          memory_order_acquire);
    return owner == d->token ? 0 : KVR_EDSP_ROW_LOST;
}

int kvr_dsp_publish(kvr_dsp_t *d, const uint64_t *keys, const kvr_dsp_load_t *loads, size_t n,
                    uint64_t now_ns)
{
    int rc = row_held(d);
    if (rc < 0)
        return rc;
    if (n > d->engines_per_row)
        return KVR_EDSP_ENGINES;
    fill_head(d, now_ns, (uint32_t)n, NULL);
    for (size_t i = 0; i < n; i++) {
        kvr_dsp_engine_t e = {.key = keys[i], .load = loads[i]};
        memcpy(d->payload + KVR_DSP_ROW_HEAD_WORDS + i * KVR_DSP_ENGINE_WORDS, &e, sizeof e);
    }
    store_payload(d, payload_words((uint32_t)n));
    return 0;
}

int kvr_dsp_heartbeat(kvr_dsp_t *d, uint64_t now_ns)
{
    int rc = row_held(d);
    if (rc < 0)
        return rc;
    atomic_store_explicit(&row_at(d, (uint32_t)d->row)->heartbeat_ns, now_ns, memory_order_release);
    return 0;
}

void kvr_dsp_release(kvr_dsp_t *d)
{
    if (d->row < 0)
        return;
    uint64_t token = d->token;
    /* Only if it is still ours: a row taken over after our heartbeat lapsed is the new holder's. */
    atomic_compare_exchange_strong_explicit(&row_at(d, (uint32_t)d->row)->owner, &token, 0,
                                            memory_order_acq_rel, memory_order_relaxed);
    d->row = -1;
    d->token = 0;
}

/*
 * One seqlock attempt at a row's payload: 0 with the head and the engines it
 * names copied (at most max_engines of them, so a scribbled count reads no
 * further than the row), -EAGAIN when a write overlapped.
 */
static int read_row_once(const kvr_dsp_row_t *row, uint64_t *words, uint32_t max_engines)
{
    uint64_t begin = kvr__seqcount_read_begin(&row->seq);
    if (begin & 1)
        return -EAGAIN;
    kvr__seqcount_load(words, row->words, KVR_DSP_ROW_HEAD_WORDS);
    kvr_dsp_row_head_t head;
    memcpy(&head, words, sizeof head);
    size_t n = payload_words(head.engine_count < max_engines ? head.engine_count : max_engines);
    if (n > KVR_DSP_ROW_HEAD_WORDS)
        kvr__seqcount_load(words + KVR_DSP_ROW_HEAD_WORDS, row->words + KVR_DSP_ROW_HEAD_WORDS,
                           n - KVR_DSP_ROW_HEAD_WORDS);
    return kvr__seqcount_read_retry(&row->seq, begin) ? -EAGAIN : 0;
}

static void add_saturating(uint64_t *sum, uint64_t value)
{
    *sum = value > UINT64_MAX - *sum ? UINT64_MAX : *sum + value;
}

/* Index of key in keys, trying hint first (routers usually list engines in one order). */
static ptrdiff_t find_key(const uint64_t *keys, size_t n, uint64_t key, size_t hint)
{
    if (hint < n && keys[hint] == key)
        return (ptrdiff_t)hint;
    for (size_t i = 0; i < n; i++)
        if (keys[i] == key)
            return (ptrdiff_t)i;
    return -1;
}

/* Reads one other row and adds it into out: 0 summed, or which stats counter it belongs to. */
static int sum_row(const kvr_dsp_t *d, const kvr_dsp_row_t *row, uint64_t owner, uint64_t *keys,
                   size_t *n, size_t cap, kvr_dsp_load_t *out, uint64_t *words)
{
    int rc = -EAGAIN;
    for (int attempt = 0; attempt < KVR_DSP_READ_RETRIES && rc != 0; attempt++)
        rc = read_row_once(row, words, d->engines_per_row);
    if (rc != 0)
        return KVR_ESHM_BUSY;
    kvr_dsp_row_head_t head;
    memcpy(&head, words, sizeof head);
    /* A claim not yet published still carries the holder before's payload, and
     * a row taken over while it was read changed hands: both pass, so they are
     * busy, not bad. An engine count past the row is a scribble. */
    if (head.engine_count > d->engines_per_row)
        return KVR_EDSP_ENGINES;
    if (head.owner != owner || atomic_load_explicit(&row->owner, memory_order_acquire) != owner)
        return KVR_ESHM_BUSY;
    for (size_t i = 0; i < head.engine_count; i++) {
        kvr_dsp_engine_t e;
        memcpy(&e, words + KVR_DSP_ROW_HEAD_WORDS + i * KVR_DSP_ENGINE_WORDS, sizeof e);
        ptrdiff_t at = find_key(keys, *n, e.key, i);
        if (at < 0 && *n < cap && e.key != 0) {
            at = (ptrdiff_t)*n;
            keys[(*n)++] = e.key;
            out[at] = (kvr_dsp_load_t){0};
        }
        if (at < 0)
            continue; /* an engine this router does not route to */
        add_saturating(&out[at].in_flight, e.load.in_flight);
        add_saturating(&out[at].pending_prefill_tokens, e.load.pending_prefill_tokens);
        add_saturating(&out[at].kv_tokens, e.load.kv_tokens);
    }
    return 0;
}

static void sum_rows(const kvr_dsp_t *d, uint64_t now_ns, uint64_t max_age_ns, uint64_t *keys,
                     size_t *n, size_t cap, kvr_dsp_load_t *out, kvr_dsp_sum_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    memset(out, 0, *n * sizeof *out);
    /* One row's payload at a time, into the buffer sized by the validated geometry. */
    uint64_t *words = d->read_words;
    for (uint32_t i = 0; i < d->row_capacity; i++) {
        if ((int32_t)i == d->row)
            continue;
        const kvr_dsp_row_t *row = row_at(d, i);
        uint64_t owner = atomic_load_explicit(&row->owner, memory_order_acquire);
        if (owner == 0 || owner == d->token)
            continue;
        uint64_t beat = atomic_load_explicit(&row->heartbeat_ns, memory_order_acquire);
        if (kvr_shm_age_ns(now_ns, beat) > max_age_ns) {
            stats->stale++;
            continue;
        }
        int rc = sum_row(d, row, owner, keys, n, cap, out, words);
        if (rc == KVR_ESHM_BUSY)
            stats->busy++;
        else if (rc < 0)
            stats->bad++;
        else
            stats->live++;
    }
}

/* ---- ring ---------------------------------------------------------------- */

void kvr_dsp_sum_others(const kvr_dsp_t *d, uint64_t now_ns, uint64_t max_age_ns,
                        const uint64_t *keys, size_t n, kvr_dsp_load_t *out,
                        kvr_dsp_sum_stats_t *stats)
{
    /* Without room to grow, keys is only read. */
    sum_rows(d, now_ns, max_age_ns, (uint64_t *)keys, &n, n, out, stats);
}

size_t kvr_dsp_sum_others_any(const kvr_dsp_t *d, uint64_t now_ns, uint64_t max_age_ns,
                              uint64_t *keys, kvr_dsp_load_t *out, size_t cap,
                              kvr_dsp_sum_stats_t *stats)
{
    size_t n = 0;
    sum_rows(d, now_ns, max_age_ns, keys, &n, cap, out, stats);
    return n;
}

static uint64_t entry_check(const kvr_dsp_placement_t *p)
{
    return XXH3_64bits_withSeed(p, CHECKED_BYTES, p->sequence);
}

int kvr_dsp_append(kvr_dsp_t *d, kvr_dsp_placement_t *p)
{
    if (d->row < 0)
        return -ENOENT;
    if ((p->kind != KVR_DSP_PLACE_PREFIX && p->kind != KVR_DSP_PLACE_SESSION) ||
        p->block_count > KVR_DSP_ENTRY_BLOCKS)
        return -EINVAL;
    uint64_t g = atomic_fetch_add_explicit(&d->header->ring_head, 1, memory_order_relaxed);
    /* 2g+2 must not wrap; a head scribbled near the top is answered, not followed. */
    if (g == 0 || g > (UINT64_MAX - 2) / 2)
        return KVR_EDSP_RING_BUSY;
    kvr_dsp_entry_t *entry = entry_at(d, g);
    uint64_t held = atomic_load_explicit(&entry->seq, memory_order_relaxed);
    /* Odd: someone is writing it. Only a writer of two laps ago (dead, or stalled past any
     * reader's patience) is overtaken; a newer or current one keeps the slot. */
    if (held & 1) {
        uint64_t writing = (held - 1) / 2;
        if (writing >= g || g - writing <= 2ull * d->ring_capacity)
            return KVR_EDSP_RING_BUSY;
    } else if (held >= 2 * g + 1) {
        return KVR_EDSP_RING_BUSY; /* we were lapped before we began */
    }
    if (!atomic_compare_exchange_strong_explicit(&entry->seq, &held, 2 * g + 1,
                                                 memory_order_relaxed, memory_order_relaxed))
        return KVR_EDSP_RING_BUSY;
    kvr__seqcount_write_fence();
    p->sequence = g;
    p->origin = d->token;
    for (size_t i = p->block_count; i < KVR_DSP_ENTRY_BLOCKS; i++)
        p->blocks[i] = 0;
    p->check = entry_check(p);
    uint64_t words[ENTRY_WORDS];
    memcpy(words, p, sizeof words);
    kvr__seqcount_store(entry->words, words, ENTRY_WORDS);
    uint64_t writing = 2 * g + 1;
    if (!atomic_compare_exchange_strong_explicit(&entry->seq, &writing, 2 * g + 2,
                                                 memory_order_release, memory_order_relaxed))
        return KVR_EDSP_RING_BUSY; /* overtaken while writing: readers' check catches any mix */
    return 0;
}

void kvr_dsp_cursor_init(const kvr_dsp_t *d, kvr_dsp_cursor_t *c)
{
    memset(c, 0, sizeof *c);
    c->next = atomic_load_explicit(&d->header->ring_head, memory_order_acquire);
}

/* What reading entry g found. */
enum { ENTRY_OK, ENTRY_PENDING, ENTRY_OVERWRITTEN, ENTRY_TORN };

static int read_entry(const kvr_dsp_t *d, uint64_t g, kvr_dsp_placement_t *out)
{
    const kvr_dsp_entry_t *entry = entry_at(d, g);
    uint64_t want = 2 * g + 2;
    for (int attempt = 0; attempt < KVR_DSP_READ_RETRIES; attempt++) {
        uint64_t begin = kvr__seqcount_read_begin(&entry->seq);
        if (begin > want)
            return ENTRY_OVERWRITTEN;
        if (begin < want)
            return ENTRY_PENDING;
        uint64_t words[ENTRY_WORDS];
        kvr__seqcount_load(words, entry->words, ENTRY_WORDS);
        if (kvr__seqcount_read_retry(&entry->seq, begin))
            continue;
        memcpy(out, words, sizeof *out);
        if (out->sequence != g || out->check != entry_check(out) ||
            out->block_count > KVR_DSP_ENTRY_BLOCKS ||
            (out->kind != KVR_DSP_PLACE_PREFIX && out->kind != KVR_DSP_PLACE_SESSION))
            return ENTRY_TORN;
        return ENTRY_OK;
    }
    return ENTRY_OVERWRITTEN; /* kept changing: later laps are writing it */
}

int kvr_dsp_ring_next(const kvr_dsp_t *d, kvr_dsp_cursor_t *c, uint64_t now_ns,
                      kvr_dsp_placement_t *out)
{
    for (uint32_t looked = 0; looked < d->ring_capacity; looked++) {
        uint64_t head = atomic_load_explicit(&d->header->ring_head, memory_order_acquire);
        if (head > (UINT64_MAX - 2) / 2)
            return -EAGAIN; /* a scribbled head: nothing it points at can be valid */
        if (c->next >= head) {
            if (c->next > head) {
                c->next = head; /* the head went back: the segment was made anew */
                c->pending_since = 0;
            }
            return -EAGAIN;
        }
        if (head - c->next > d->ring_capacity) {
            uint64_t oldest = head - d->ring_capacity;
            c->lost += oldest - c->next;
            c->next = oldest;
            c->pending_since = 0;
        }
        int what = read_entry(d, c->next, out);
        if (what == ENTRY_PENDING) {
            if (c->pending_since == 0)
                c->pending_since = now_ns != 0 ? now_ns : 1;
            /* Taken and not completed: waited for, but not for long, nor while half a ring
             * of later entries piles up behind it (its writer died, stalled or dropped it). */
            bool waited_enough = now_ns >= c->pending_since &&
                                 now_ns - c->pending_since >= KVR_DSP_PENDING_NS;
            if (!waited_enough && head - c->next <= d->ring_capacity / 2)
                return -EAGAIN;
            what = ENTRY_TORN;
        }
        c->pending_since = 0;
        c->next++;
        if (what == ENTRY_OVERWRITTEN) {
            c->lost++;
        } else if (what == ENTRY_TORN) {
            c->torn++;
        } else if (out->origin == d->token) {
            c->own++;
        } else {
            c->applied++;
            return 0;
        }
    }
    return -EAGAIN;
}
