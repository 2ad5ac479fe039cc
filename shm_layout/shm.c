/* SPDX-License-Identifier: Apache-2.0 */
#include "shm_layout/shm_layout.h"
#include "shm_layout/seqcount.h"
#include "shm_layout/shm_internal.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A segment whose writer's heartbeat is younger than this is someone's, not debris. */
#define KVR_SHM_LIVE_WRITER_NS (5 * KVR_SHM_NS_PER_SEC)

/* The writer's private copy of a slot: what it published and the counter it left. */
struct kvr_shm_writer_slot_s {
    uint64_t seq;
    kvr_engine_state_t state;
};

/* The fields every major-1 header starts with, as plain values. */
typedef struct {
    uint64_t magic;
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t header_size;
    uint32_t slot_size;
    uint32_t capacity;
} geometry_t;
_Static_assert(sizeof(geometry_t) == 24 && offsetof(kvr_shm_header_t, engines_in_use) == 24,
               "geometry_t mirrors the header's first fields");

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * KVR_SHM_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int shm_name(char *out, size_t size, const char *name)
{
    if (name == NULL || name[0] == '\0')
        return -EINVAL;
    const char *bare = name[0] == '/' ? name + 1 : name;
    if (bare[0] == '\0' || strchr(bare, '/') != NULL)
        return -EINVAL;
    int n = snprintf(out, size, "/%s", bare);
    if (n < 0 || (size_t)n >= size)
        return -ENAMETOOLONG;
    return 0;
}

static size_t segment_size(uint32_t capacity)
{
    return (size_t)KVR_SHM_HEADER_SIZE + (size_t)capacity * KVR_SHM_SLOT_SIZE;
}

const char *kvr_source_name(kvr_source_t source)
{
    switch (source) {
    case KVR_SOURCE_SCRAPE: return "scrape";
    case KVR_SOURCE_LOADS: return "loads";
    case KVR_SOURCE_PUSH: return "push";
    case KVR_SOURCE_RELAY: return "relay";
    default: return "none";
    }
}

/* Copies the geometry out of len bytes at base, then checks the copy. */
static int validate_copy(const void *base, size_t len, geometry_t *g)
{
    /* Only the fields every major-1 header has are read before the size checks. */
    if (len < sizeof *g)
        return KVR_ESHM_TRUNCATED;
    memcpy(g, base, sizeof *g);
    if (g->magic != KVR_SHM_MAGIC)
        return KVR_ESHM_MAGIC;
    if (g->abi_major != KVR_SHM_ABI_MAJOR)
        return KVR_ESHM_MAJOR;
    if (len < KVR_SHM_HEADER_SIZE)
        return KVR_ESHM_TRUNCATED;
    if (g->header_size < KVR_SHM_HEADER_SIZE || g->header_size % 64 != 0)
        return KVR_ESHM_HEADER_SIZE;
    /* A newer minor may have appended slot fields: a larger stride is fine, a smaller one is not. */
    if (g->slot_size < KVR_SHM_SLOT_SIZE || g->slot_size % 64 != 0)
        return KVR_ESHM_SLOT_SIZE;
    if (g->capacity == 0 || g->capacity > KVR_SHM_MAX_CAPACITY ||
        (uint64_t)g->header_size + (uint64_t)g->capacity * g->slot_size > len)
        return KVR_ESHM_CAPACITY;
    return 0;
}

int kvr_shm_validate(const void *base, size_t len)
{
    geometry_t g;
    return validate_copy(base, len, &g);
}

static void take_geometry(kvr_shm_t *shm, const geometry_t *g)
{
    shm->header_size = g->header_size;
    shm->slot_size = g->slot_size;
    shm->capacity = g->capacity;
}

int kvr_shm_attach(kvr_shm_t *shm, const void *base, size_t len)
{
    memset(shm, 0, sizeof *shm);
    shm->fd = -1;
    geometry_t g;
    int rc = validate_copy(base, len, &g);
    if (rc < 0)
        return rc;
    shm->base = (void *)base;
    shm->map_len = len;
    shm->header = (kvr_shm_header_t *)base;
    take_geometry(shm, &g);
    return 0;
}

uint64_t kvr_shm_age_ns(uint64_t now_ns, uint64_t then_ns)
{
    if (then_ns <= now_ns)
        return now_ns - then_ns;
    return then_ns - now_ns <= KVR_SHM_FUTURE_SLACK_NS ? 0 : UINT64_MAX;
}

int kvr_shm_check_heartbeat(const kvr_shm_t *shm, uint64_t now_ns, uint64_t max_age_ns)
{
    const kvr_shm_header_t *h = shm->header;
    if (atomic_load_explicit(&h->writer_state, memory_order_acquire) != KVR_SHM_WRITER_LIVE)
        return KVR_ESHM_WRITER_GONE;
    uint64_t beat = atomic_load_explicit(&h->heartbeat_ns, memory_order_acquire);
    if (kvr_shm_age_ns(now_ns, beat) > max_age_ns)
        return KVR_ESHM_STALE;
    return 0;
}

/* The live header still says what the copies say. */
static bool header_matches(const kvr_shm_t *shm)
{
    geometry_t g;
    memcpy(&g, shm->base, sizeof g);
    return g.magic == KVR_SHM_MAGIC && g.abi_major == KVR_SHM_ABI_MAJOR &&
           g.header_size == shm->header_size && g.slot_size == shm->slot_size &&
           g.capacity == shm->capacity;
}

int kvr_shm_check_size(const kvr_shm_t *shm)
{
    if (shm->fd >= 0) {
        struct stat st;
        if (fstat(shm->fd, &st) < 0)
            return -errno;
        if (st.st_size < 0 || (uint64_t)st.st_size < shm->map_len)
            return KVR_ESHM_CHANGED;
    }
    return header_matches(shm) ? 0 : KVR_ESHM_CHANGED;
}

static void object_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s%s", KVR_SHM_DIR, name);
}

int kvr_shm_check_identity(const kvr_shm_t *shm)
{
    char path[300];
    object_path(path, sizeof path, shm->name);
    struct stat st;
    if (lstat(path, &st) < 0)
        return -errno;
    return st.st_dev == shm->dev && st.st_ino == shm->ino ? 0 : KVR_ESHM_CHANGED;
}

const char *kvr_shm_explain(const kvr_shm_t *shm, int rc, char *buf, size_t size)
{
    const char *text = kvr_shm_strerror(rc);
    if (text == NULL)
        text = rc < 0 ? strerror(-rc) : "success";
    if (rc == KVR_ESHM_OWNER)
        snprintf(buf, size, "%s (uid %u, mode %04o); remove %s%s, owned by uid %u", text,
                 (unsigned)shm->owner_uid, (unsigned)(shm->mode & 07777), KVR_SHM_DIR, shm->name,
                 (unsigned)shm->owner_uid);
    else
        snprintf(buf, size, "%s", text);
    return buf;
}

kvr_shm_slot_t *kvr_shm_slot(const kvr_shm_t *shm, uint32_t index)
{
    assert(index < shm->capacity);
    return (kvr_shm_slot_t *)((char *)shm->base + shm->header_size +
                              (size_t)index * shm->slot_size);
}

uint64_t kvr_shm_generation(const kvr_shm_t *shm)
{
    return atomic_load_explicit(&shm->header->table_generation, memory_order_acquire);
}

void kvr_shm_close(kvr_shm_t *shm)
{
    /* A zeroed kvr_shm_t (never opened) has fd 0 and no base: nothing of it is ours. */
    if (shm->base != NULL && shm->fd >= 0) {
        munmap(shm->base, shm->map_len);
        close(shm->fd);
    }
    free(shm->shadow);
    shm->shadow = NULL;
    shm->fd = -1;
    shm->base = NULL;
    shm->header = NULL;
    shm->map_len = 0;
    shm->capacity = 0;
}

static int map_fd(kvr_shm_t *shm, int fd, size_t len, bool writable)
{
    void *base = mmap(NULL, len, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        return -errno;
    shm->base = base;
    shm->map_len = len;
    shm->header = base;
    shm->writable = writable;
    return 0;
}

int kvr__shm_check_owner(const struct stat *st, uid_t owner_uid)
{
    if (!S_ISREG(st->st_mode))
        return -EINVAL;
    if (st->st_uid != owner_uid || (st->st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return KVR_ESHM_OWNER;
    return 0;
}

int kvr__shm_open_reader(const char *shm_name, uid_t owner_uid, size_t min_len, struct stat *st)
{
    memset(st, 0, sizeof *st);
    int fd = shm_open(shm_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    int rc = fstat(fd, st) < 0 ? -errno : kvr__shm_check_owner(st, owner_uid);
    if (rc == 0 && st->st_size < (off_t)min_len)
        rc = KVR_ESHM_TRUNCATED;
    if (rc < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

int kvr_shm_open_as(kvr_shm_t *shm, const char *name, uid_t owner_uid)
{
    memset(shm, 0, sizeof *shm);
    shm->fd = -1;
    int rc = shm_name(shm->name, sizeof shm->name, name);
    if (rc < 0)
        return rc;
    /* Who may have written it: only owner_uid, nobody through group or other bits. */
    struct stat st;
    int fd = kvr__shm_open_reader(shm->name, owner_uid, sizeof(geometry_t), &st);
    shm->owner_uid = st.st_uid;
    shm->mode = st.st_mode;
    if (fd < 0)
        return fd;
    rc = map_fd(shm, fd, (size_t)st.st_size, false);
    if (rc < 0)
        goto fail_fd;
    geometry_t g;
    rc = validate_copy(shm->base, shm->map_len, &g);
    if (rc < 0)
        goto fail_map;
    take_geometry(shm, &g);
    shm->fd = fd;
    shm->dev = st.st_dev;
    shm->ino = st.st_ino;
    return 0;

fail_map:
    munmap(shm->base, shm->map_len);
    shm->base = NULL;
    shm->header = NULL;
fail_fd:
    close(fd);
    return rc;
}

int kvr_shm_open(kvr_shm_t *shm, const char *name)
{
    return kvr_shm_open_as(shm, name, geteuid());
}

/* ---- seqlock ------------------------------------------------------------ */

/* Stores the writer's copy of slot index into the mapping under the seqlock. */
static void store_slot(kvr_shm_t *shm, uint32_t index)
{
    struct kvr_shm_writer_slot_s *own = &shm->shadow[index];
    kvr_shm_slot_t *slot = kvr_shm_slot(shm, index);
    uint64_t words[KVR_SLOT_WORDS];
    memcpy(words, &own->state, sizeof words);

    own->seq = kvr__seqcount_write(&slot->seq, own->seq, slot->words, words, KVR_SLOT_WORDS);
}

/*
 * The writer stores between its ticks too (push frames, relayed tables): an
 * object shrunk since the last kvr_shm_writer_check() is grown back first,
 * so the store cannot raise SIGBUS. The tick's check then rewrites what the
 * shrinking lost.
 */
static void keep_length(kvr_shm_t *shm)
{
    struct stat st;
    if (shm->fd >= 0 && fstat(shm->fd, &st) == 0 && (uint64_t)st.st_size < shm->map_len)
        (void)ftruncate(shm->fd, (off_t)shm->map_len);
}

void kvr_shm_write_slot(kvr_shm_t *shm, uint32_t index, const kvr_engine_state_t *state)
{
    assert(shm->writable && shm->shadow != NULL && index < shm->capacity);
    shm->shadow[index].state = *state;
    keep_length(shm);
    store_slot(shm, index);
}

/* One attempt: 0 with a consistent copy taken at counter *seq, -EAGAIN when a write overlapped. */
static int read_once(const kvr_shm_slot_t *slot, uint64_t *words, uint64_t *seq)
{
    uint64_t begin = kvr__seqcount_read_begin(&slot->seq);
    if (begin & 1)
        return -EAGAIN;
    kvr__seqcount_load(words, slot->words, KVR_SLOT_WORDS);
    *seq = begin;
    return kvr__seqcount_read_retry(&slot->seq, begin) ? -EAGAIN : 0;
}

/* What every successful read checks of its copy, cached or not. */
static int check_copy(const kvr_engine_state_t *s, uint64_t now_ns, uint64_t *age_ns)
{
    if (!(s->flags & KVR_SLOT_IN_USE))
        return -ENOENT;
    if (memchr(s->engine_id, '\0', sizeof s->engine_id) == NULL)
        return KVR_ESHM_ENGINE_ID;
    if (age_ns != NULL)
        *age_ns = kvr_shm_age_ns(now_ns, s->sample_time_ns);
    return 0;
}

static int read_slot_at(const kvr_shm_t *shm, uint32_t index, kvr_engine_state_t *out,
                        uint64_t *seq)
{
    if (index >= shm->capacity)
        return -ERANGE;
    const kvr_shm_slot_t *slot = kvr_shm_slot(shm, index);
    uint64_t words[KVR_SLOT_WORDS];
    int rc = -EAGAIN;
    for (int attempt = 0; attempt < KVR_SHM_READ_RETRIES && rc != 0; attempt++) {
        rc = read_once(slot, words, seq);
        if (rc != 0)
            kvr__seqcount_relax();
    }
    if (rc != 0)
        return KVR_ESHM_BUSY;
    memcpy(out, words, sizeof *out);
    return 0;
}

int kvr_shm_read_slot(const kvr_shm_t *shm, uint32_t index, uint64_t now_ns,
                      kvr_engine_state_t *out, uint64_t *age_ns)
{
    uint64_t seq;
    int rc = read_slot_at(shm, index, out, &seq);
    return rc < 0 ? rc : check_copy(out, now_ns, age_ns);
}

int kvr_shm_read_slot_cached(const kvr_shm_t *shm, uint32_t index, uint64_t now_ns,
                             kvr_shm_slot_cache_t *cache, uint64_t *age_ns)
{
    if (index >= shm->capacity)
        return -ERANGE;
    /* One writer, and every write moves the counter: an even counter equal to the
     * one the copy was taken at means the slot has not changed since. */
    uint64_t seq = atomic_load_explicit(&kvr_shm_slot(shm, index)->seq, memory_order_acquire);
    if (!cache->valid || cache->index != index || seq != cache->seq) {
        cache->valid = false;
        int rc = read_slot_at(shm, index, &cache->state, &cache->seq);
        if (rc < 0)
            return rc;
        cache->index = index;
        cache->valid = true;
    }
    return check_copy(&cache->state, now_ns, age_ns);
}

int kvr_shm_find(const kvr_shm_t *shm, const char *engine_id)
{
    kvr_engine_state_t state;
    for (uint32_t i = 0; i < shm->capacity; i++) {
        if (kvr_shm_read_slot(shm, i, 0, &state, NULL) == 0 &&
            strcmp(state.engine_id, engine_id) == 0)
            return (int)i;
    }
    return -ENOENT;
}

/* ---- writer ------------------------------------------------------------- */

/* True when the object at fd belongs to a writer that is still alive. */
static bool owned_by_live_writer(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || (size_t)st.st_size < KVR_SHM_HEADER_SIZE)
        return false;
    kvr_shm_t old = {.fd = -1};
    if (map_fd(&old, fd, (size_t)st.st_size, false) < 0)
        return false;
    bool live = false;
    geometry_t g;
    if (validate_copy(old.base, old.map_len, &g) == 0 &&
        kvr_shm_check_heartbeat(&old, clock_ns(CLOCK_MONOTONIC), KVR_SHM_LIVE_WRITER_NS) == 0) {
        live = kvr__shm_pid_alive(atomic_load(&old.header->writer_pid));
    }
    munmap(old.base, old.map_len);
    return live;
}

/*
 * Creates the object under shm->name, sized and moded: 0 and *fd_out, or a
 * negative code. An object already there is replaced only when it is this
 * user's, writable by nobody else, and its writer is dead.
 */
static int create_object(kvr_shm_t *shm, int *fd_out)
{
    int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = shm_open(shm->name, flags, 0640);
    if (fd < 0 && errno == EEXIST) {
        /* -ELOOP: a symlink sits at the name. Another user's object is refused before its
         * heartbeat and pid, which are whatever they chose to write, are read. */
        struct stat st;
        int old = kvr__shm_open_reader(shm->name, geteuid(), 0, &st);
        shm->owner_uid = st.st_uid;
        shm->mode = st.st_mode;
        if (old < 0)
            return old;
        bool live = owned_by_live_writer(old);
        close(old);
        if (live)
            return -EBUSY;
        /* A dead writer's debris: readers still mapping it see its stale heartbeat. */
        if (shm_unlink(shm->name) < 0 && errno != ENOENT)
            return -errno;
        fd = shm_open(shm->name, flags, 0640);
    }
    if (fd < 0)
        return -errno;
    int rc = 0;
    struct stat st;
    /* shm_open's mode is filtered by the umask; the design promises 0640. */
    if (fchmod(fd, 0640) < 0 || ftruncate(fd, (off_t)segment_size(shm->capacity)) < 0 ||
        fstat(fd, &st) < 0) {
        rc = -errno;
        close(fd);
        shm_unlink(shm->name);
        return rc;
    }
    shm->dev = st.st_dev;
    shm->ino = st.st_ino;
    shm->owner_uid = st.st_uid;
    shm->mode = st.st_mode;
    *fd_out = fd;
    return 0;
}

/* The whole header from the writer's copies; the magic last, so a reader
 * racing it sees "not a segment" rather than half a header. */
static void store_header(kvr_shm_t *shm)
{
    kvr_shm_header_t *h = shm->header;
    h->magic = 0;
    atomic_thread_fence(memory_order_release);
    h->abi_major = KVR_SHM_ABI_MAJOR;
    h->abi_minor = KVR_SHM_ABI_MINOR;
    h->header_size = shm->header_size;
    h->slot_size = shm->slot_size;
    h->capacity = shm->capacity;
    atomic_store(&h->engines_in_use, shm->engines_in_use);
    atomic_store(&h->table_generation, shm->generation);
    atomic_store(&h->writer_pid, (int64_t)getpid());
    atomic_store(&h->writer_start_ns, shm->start_wall_ns);
    atomic_store(&h->heartbeat_ns, clock_ns(CLOCK_MONOTONIC));
    atomic_store(&h->writer_state, KVR_SHM_WRITER_LIVE);
    memset(h->reserved, 0, sizeof h->reserved);
    atomic_thread_fence(memory_order_release);
    h->magic = KVR_SHM_MAGIC;
}

int kvr_shm_create(kvr_shm_t *shm, const char *name, uint32_t capacity)
{
    memset(shm, 0, sizeof *shm);
    shm->fd = -1;
    if (capacity == 0 || capacity > KVR_SHM_MAX_CAPACITY)
        return -EINVAL;
    int rc = shm_name(shm->name, sizeof shm->name, name);
    if (rc < 0)
        return rc;
    shm->header_size = KVR_SHM_HEADER_SIZE;
    shm->slot_size = KVR_SHM_SLOT_SIZE;
    shm->capacity = capacity;
    shm->generation = 1;
    shm->start_wall_ns = clock_ns(CLOCK_REALTIME);
    shm->shadow = calloc(capacity, sizeof *shm->shadow);
    if (shm->shadow == NULL)
        return -ENOMEM;
    int fd;
    rc = create_object(shm, &fd);
    if (rc < 0)
        goto fail_shadow;
    rc = map_fd(shm, fd, segment_size(capacity), true);
    if (rc < 0)
        goto fail_unlink;
    shm->fd = fd;
    store_header(shm);
    return 0;

fail_unlink:
    close(fd);
    shm_unlink(shm->name);
fail_shadow:
    free(shm->shadow);
    shm->shadow = NULL;
    return rc;
}

/* Everything readers see again from the writer's copies, under a new generation. */
static void restore(kvr_shm_t *shm)
{
    shm->generation++;
    store_header(shm);
    for (uint32_t i = 0; i < shm->capacity; i++)
        store_slot(shm, i);
}

/* The name lost our object: put a new one under it and move the mapping there. */
static int recreate(kvr_shm_t *shm)
{
    int fd;
    int rc = create_object(shm, &fd);
    if (rc < 0)
        return rc;
    void *base = mmap(NULL, shm->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        rc = -errno;
        close(fd);
        shm_unlink(shm->name);
        return rc;
    }
    munmap(shm->base, shm->map_len);
    close(shm->fd);
    shm->base = base;
    shm->header = base;
    shm->fd = fd;
    restore(shm);
    return 0;
}

int kvr_shm_writer_check(kvr_shm_t *shm, const char **what)
{
    assert(shm->writable && shm->shadow != NULL);
    *what = NULL;
    if (kvr_shm_check_identity(shm) != 0) {
        int rc = recreate(shm);
        if (rc < 0)
            return rc;
        *what = "name unlinked or replaced: segment created anew";
        return 1;
    }
    struct stat st;
    if (fstat(shm->fd, &st) < 0)
        return -errno;
    if (st.st_size < 0 || (uint64_t)st.st_size < shm->map_len) {
        /* Shrunk under us: the next store past the end would raise SIGBUS. */
        if (ftruncate(shm->fd, (off_t)shm->map_len) < 0)
            return -errno;
        restore(shm);
        *what = "object shrunk: grown back and rewritten";
        return 1;
    }
    if (!header_matches(shm)) {
        restore(shm);
        *what = "header overwritten: rewritten";
        return 1;
    }
    bool slots = false;
    for (uint32_t i = 0; i < shm->capacity; i++) {
        if (atomic_load_explicit(&kvr_shm_slot(shm, i)->seq, memory_order_relaxed) !=
            shm->shadow[i].seq) {
            store_slot(shm, i);
            slots = true;
        }
    }
    if (slots) {
        *what = "slots overwritten: rewritten";
        return 1;
    }
    return 0;
}

int kvr_shm_unlink(const char *name)
{
    char full[256];
    int rc = shm_name(full, sizeof full, name);
    if (rc < 0)
        return rc;
    return shm_unlink(full) < 0 ? -errno : 0;
}

void kvr_shm_writer_state(const kvr_shm_t *shm, uint32_t index, kvr_engine_state_t *out)
{
    assert(shm->shadow != NULL && index < shm->capacity);
    *out = shm->shadow[index].state;
}

static void bump_generation(kvr_shm_t *shm)
{
    shm->generation++;
    atomic_store_explicit(&shm->header->table_generation, shm->generation, memory_order_release);
}

int kvr_shm_add_engine(kvr_shm_t *shm, const char *engine_id)
{
    size_t len = strlen(engine_id);
    if (len == 0)
        return -EINVAL;
    if (len >= KVR_SHM_ENGINE_ID_MAX)
        return -ENAMETOOLONG;
    int free_index = -1;
    for (uint32_t i = 0; i < shm->capacity; i++) {
        const kvr_engine_state_t *s = &shm->shadow[i].state;
        if (!(s->flags & KVR_SLOT_IN_USE)) {
            if (free_index < 0)
                free_index = (int)i;
        } else if (strcmp(s->engine_id, engine_id) == 0) {
            return -EEXIST;
        }
    }
    if (free_index < 0)
        return -ENOSPC;
    kvr_engine_state_t state;
    memset(&state, 0, sizeof state);
    memcpy(state.engine_id, engine_id, len + 1);
    state.flags = KVR_SLOT_IN_USE;
    kvr_shm_write_slot(shm, (uint32_t)free_index, &state);
    shm->engines_in_use++;
    atomic_store(&shm->header->engines_in_use, shm->engines_in_use);
    bump_generation(shm);
    return free_index;
}

int kvr_shm_remove_engine(kvr_shm_t *shm, uint32_t index)
{
    if (index >= shm->capacity || !(shm->shadow[index].state.flags & KVR_SLOT_IN_USE))
        return -ENOENT;
    kvr_engine_state_t state;
    memset(&state, 0, sizeof state);
    kvr_shm_write_slot(shm, index, &state);
    shm->engines_in_use--;
    atomic_store(&shm->header->engines_in_use, shm->engines_in_use);
    bump_generation(shm);
    return 0;
}

void kvr_shm_heartbeat(kvr_shm_t *shm, uint64_t now_ns)
{
    keep_length(shm);
    atomic_store_explicit(&shm->header->heartbeat_ns, now_ns, memory_order_release);
}

void kvr_shm_mark_writer_stopped(kvr_shm_t *shm)
{
    if (shm->header == NULL)
        return;
    if (shm->writable)
        keep_length(shm);
    atomic_store_explicit(&shm->header->writer_state, KVR_SHM_WRITER_STOPPED, memory_order_release);
}

/* ---- shared with dispatch.c ---------------------------------------------- */

int kvr__shm_name(char *out, size_t size, const char *name)
{
    return shm_name(out, size, name);
}

uint64_t kvr__shm_clock_ns(clockid_t id)
{
    return clock_ns(id);
}

int kvr__shm_pid_alive(int64_t pid)
{
    return pid > 0 && pid <= INT32_MAX && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}
