/* SPDX-License-Identifier: Apache-2.0 */
#include "shm_layout/shm_layout.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"

/* A segment whose writer's heartbeat is younger than this is someone's, not debris. */
#define KVR_SHM_LIVE_WRITER_NS (5 * KVR_NS_PER_SEC)

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

int kvr_shm_validate(const void *base, size_t len)
{
    /* Only the fields every major-1 header has are read before the size checks. */
    if (len < offsetof(kvr_shm_header_t, capacity) + sizeof(uint32_t))
        return KVR_ESHM_TRUNCATED;
    const kvr_shm_header_t *h = base;
    if (h->magic != KVR_SHM_MAGIC)
        return KVR_ESHM_MAGIC;
    if (h->abi_major != KVR_SHM_ABI_MAJOR)
        return KVR_ESHM_MAJOR;
    if (len < KVR_SHM_HEADER_SIZE)
        return KVR_ESHM_TRUNCATED;
    if (h->header_size < KVR_SHM_HEADER_SIZE || h->header_size % 64 != 0)
        return KVR_ESHM_HEADER_SIZE;
    /* A newer minor may have appended slot fields: a larger stride is fine, a smaller one is not. */
    if (h->slot_size < KVR_SHM_SLOT_SIZE || h->slot_size % 64 != 0)
        return KVR_ESHM_SLOT_SIZE;
    if (h->capacity == 0 || h->capacity > KVR_SHM_MAX_CAPACITY ||
        (size_t)h->header_size + (size_t)h->capacity * h->slot_size > len)
        return KVR_ESHM_CAPACITY;
    return 0;
}

int kvr_shm_check_heartbeat(const kvr_shm_t *shm, uint64_t now_ns, uint64_t max_age_ns)
{
    const kvr_shm_header_t *h = shm->header;
    if (atomic_load_explicit(&h->writer_state, memory_order_acquire) != KVR_SHM_WRITER_LIVE)
        return KVR_ESHM_WRITER_GONE;
    uint64_t beat = atomic_load_explicit(&h->heartbeat_ns, memory_order_acquire);
    if (kvr_clock_age_ns(now_ns, beat) > max_age_ns)
        return KVR_ESHM_STALE;
    return 0;
}

kvr_shm_slot_t *kvr_shm_slot(const kvr_shm_t *shm, uint32_t index)
{
    return (kvr_shm_slot_t *)((char *)shm->base + shm->header->header_size +
                              (size_t)index * shm->header->slot_size);
}

uint64_t kvr_shm_generation(const kvr_shm_t *shm)
{
    return atomic_load_explicit(&shm->header->table_generation, memory_order_acquire);
}

void kvr_shm_close(kvr_shm_t *shm)
{
    if (shm->base != NULL && shm->base != MAP_FAILED)
        munmap(shm->base, shm->map_len);
    shm->base = NULL;
    shm->header = NULL;
    shm->map_len = 0;
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

int kvr_shm_open(kvr_shm_t *shm, const char *name)
{
    memset(shm, 0, sizeof *shm);
    int rc = shm_name(shm->name, sizeof shm->name, name);
    if (rc < 0)
        return rc;
    int fd = shm_open(shm->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0)
        return errno == ELOOP ? -ELOOP : -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        rc = -errno;
        goto fail_fd;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = -EINVAL;
        goto fail_fd;
    }
    if ((size_t)st.st_size < offsetof(kvr_shm_header_t, capacity) + sizeof(uint32_t)) {
        rc = KVR_ESHM_TRUNCATED;
        goto fail_fd;
    }
    rc = map_fd(shm, fd, (size_t)st.st_size, false);
    if (rc < 0)
        goto fail_fd;
    close(fd);
    rc = kvr_shm_validate(shm->base, shm->map_len);
    if (rc < 0) {
        kvr_shm_close(shm);
        return rc;
    }
    return 0;

fail_fd:
    close(fd);
    return rc;
}

/* ---- seqlock ------------------------------------------------------------ */

void kvr_shm_write_slot(kvr_shm_t *shm, uint32_t index, const kvr_engine_state_t *state)
{
    assert(shm->writable && index < shm->header->capacity);
    kvr_shm_slot_t *slot = kvr_shm_slot(shm, index);
    uint64_t words[KVR_SLOT_WORDS];
    memcpy(words, state, sizeof words);

    uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_relaxed);
    atomic_store_explicit(&slot->seq, seq + 1, memory_order_relaxed);
    /* Orders the odd counter before every payload store (DPDK rte_seqcount_write_begin). */
    atomic_thread_fence(memory_order_release);
    for (size_t i = 0; i < KVR_SLOT_WORDS; i++)
        atomic_store_explicit(&slot->words[i], words[i], memory_order_relaxed);
    atomic_store_explicit(&slot->seq, seq + 2, memory_order_release);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* One attempt: 0 with a consistent copy taken at counter *seq, -EAGAIN when a write overlapped. */
static int read_once(const kvr_shm_slot_t *slot, uint64_t *words, uint64_t *seq)
{
    uint64_t begin = atomic_load_explicit(&slot->seq, memory_order_acquire);
    if (begin & 1)
        return -EAGAIN;
    for (size_t i = 0; i < KVR_SLOT_WORDS; i++)
        words[i] = atomic_load_explicit(&slot->words[i], memory_order_relaxed);
    /* Orders the payload loads before the re-check (Boehm's fence-based reader). */
    atomic_thread_fence(memory_order_acquire);
    uint64_t end = atomic_load_explicit(&slot->seq, memory_order_relaxed);
    *seq = begin;
    return begin == end ? 0 : -EAGAIN;
}

/* What every successful read checks of its copy, cached or not. */
static int check_copy(const kvr_engine_state_t *s, uint64_t now_ns, uint64_t *age_ns)
{
    if (!(s->flags & KVR_SLOT_IN_USE))
        return -ENOENT;
    if (s->engine_id[KVR_SHM_ENGINE_ID_MAX - 1] != '\0' &&
        memchr(s->engine_id, '\0', sizeof s->engine_id) == NULL)
        return KVR_ESHM_ENGINE_ID;
    if (age_ns != NULL)
        *age_ns = kvr_clock_age_ns(now_ns, s->sample_time_ns);
    return 0;
}

static int read_slot_at(const kvr_shm_t *shm, uint32_t index, kvr_engine_state_t *out,
                        uint64_t *seq)
{
    if (index >= shm->header->capacity)
        return -ERANGE;
    const kvr_shm_slot_t *slot = kvr_shm_slot(shm, index);
    uint64_t words[KVR_SLOT_WORDS];
    int rc = -EAGAIN;
    for (int attempt = 0; attempt < KVR_SHM_READ_RETRIES && rc != 0; attempt++) {
        rc = read_once(slot, words, seq);
        if (rc != 0)
            cpu_relax();
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
    if (index >= shm->header->capacity)
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
    for (uint32_t i = 0; i < shm->header->capacity; i++) {
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
    kvr_shm_t old = {0};
    if (map_fd(&old, fd, (size_t)st.st_size, false) < 0)
        return false;
    bool live = false;
    if (kvr_shm_validate(old.base, old.map_len) == 0 &&
        kvr_shm_check_heartbeat(&old, kvr_clock_now_ns(), KVR_SHM_LIVE_WRITER_NS) == 0) {
        pid_t pid = (pid_t)atomic_load(&old.header->writer_pid);
        live = pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
    }
    kvr_shm_close(&old);
    return live;
}

int kvr_shm_create(kvr_shm_t *shm, const char *name, uint32_t capacity)
{
    memset(shm, 0, sizeof *shm);
    if (capacity == 0 || capacity > KVR_SHM_MAX_CAPACITY)
        return -EINVAL;
    int rc = shm_name(shm->name, sizeof shm->name, name);
    if (rc < 0)
        return rc;

    int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = shm_open(shm->name, flags, 0640);
    if (fd < 0 && errno == EEXIST) {
        int old = shm_open(shm->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (old < 0)
            return -errno; /* ELOOP: a symlink sits at the name */
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
    /* shm_open's mode is filtered by the umask; the design promises 0640. */
    if (fchmod(fd, 0640) < 0) {
        rc = -errno;
        goto fail_unlink;
    }
    size_t len = segment_size(capacity);
    if (ftruncate(fd, (off_t)len) < 0) {
        rc = -errno;
        goto fail_unlink;
    }
    rc = map_fd(shm, fd, len, true);
    if (rc < 0)
        goto fail_unlink;
    close(fd);

    kvr_shm_header_t *h = shm->header;
    h->abi_major = KVR_SHM_ABI_MAJOR;
    h->abi_minor = KVR_SHM_ABI_MINOR;
    h->header_size = KVR_SHM_HEADER_SIZE;
    h->slot_size = KVR_SHM_SLOT_SIZE;
    h->capacity = capacity;
    atomic_store(&h->engines_in_use, 0);
    atomic_store(&h->table_generation, 1);
    atomic_store(&h->writer_pid, (int64_t)getpid());
    atomic_store(&h->writer_start_ns, kvr_clock_wall_ns());
    atomic_store(&h->heartbeat_ns, kvr_clock_now_ns());
    atomic_store(&h->writer_state, KVR_SHM_WRITER_LIVE);
    /* The magic goes last: a reader racing creation sees "not a segment" rather than half a header. */
    atomic_thread_fence(memory_order_release);
    h->magic = KVR_SHM_MAGIC;
    return 0;

fail_unlink:
    close(fd);
    shm_unlink(shm->name);
    return rc;
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
    const kvr_shm_slot_t *slot = kvr_shm_slot(shm, index);
    uint64_t words[KVR_SLOT_WORDS];
    for (size_t i = 0; i < KVR_SLOT_WORDS; i++)
        words[i] = atomic_load_explicit(&slot->words[i], memory_order_relaxed);
    memcpy(out, words, sizeof *out);
}

static void bump_generation(kvr_shm_t *shm)
{
    atomic_fetch_add_explicit(&shm->header->table_generation, 1, memory_order_release);
}

int kvr_shm_add_engine(kvr_shm_t *shm, const char *engine_id)
{
    size_t len = strlen(engine_id);
    if (len == 0)
        return -EINVAL;
    if (len >= KVR_SHM_ENGINE_ID_MAX)
        return -ENAMETOOLONG;
    int free_index = -1;
    kvr_engine_state_t state;
    for (uint32_t i = 0; i < shm->header->capacity; i++) {
        kvr_shm_writer_state(shm, i, &state);
        if (!(state.flags & KVR_SLOT_IN_USE)) {
            if (free_index < 0)
                free_index = (int)i;
        } else if (strcmp(state.engine_id, engine_id) == 0) {
            return -EEXIST;
        }
    }
    if (free_index < 0)
        return -ENOSPC;
    memset(&state, 0, sizeof state);
    memcpy(state.engine_id, engine_id, len + 1);
    state.flags = KVR_SLOT_IN_USE;
    kvr_shm_write_slot(shm, (uint32_t)free_index, &state);
    atomic_fetch_add(&shm->header->engines_in_use, 1);
    bump_generation(shm);
    return free_index;
}

int kvr_shm_remove_engine(kvr_shm_t *shm, uint32_t index)
{
    if (index >= shm->header->capacity)
        return -ENOENT;
    kvr_engine_state_t state;
    kvr_shm_writer_state(shm, index, &state);
    if (!(state.flags & KVR_SLOT_IN_USE))
        return -ENOENT;
    memset(&state, 0, sizeof state);
    kvr_shm_write_slot(shm, index, &state);
    atomic_fetch_sub(&shm->header->engines_in_use, 1);
    bump_generation(shm);
    return 0;
}

void kvr_shm_heartbeat(kvr_shm_t *shm, uint64_t now_ns)
{
    atomic_store_explicit(&shm->header->heartbeat_ns, now_ns, memory_order_release);
}

void kvr_shm_mark_writer_stopped(kvr_shm_t *shm)
{
    atomic_store_explicit(&shm->header->writer_state, KVR_SHM_WRITER_STOPPED, memory_order_release);
}
