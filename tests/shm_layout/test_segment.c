/* SPDX-License-Identifier: Apache-2.0 */
/* Segment creation, validation, the engine table and its generation, ages. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

static char seg_name[64];
static kvr_shm_t writer;

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-seg");
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
}

static void teardown(void)
{
    kvr_shm_close(&writer);
    kvr_shm_unlink(seg_name);
}

TestSuite(segment, .init = setup, .fini = teardown, .timeout = 10.);

Test(segment, create_makes_a_valid_live_segment_with_mode_0640)
{
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    cr_expect_eq(r.header->capacity, 8);
    cr_expect_eq(r.header->abi_major, KVR_SHM_ABI_MAJOR);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, kvr_clock_now_ns(), KVR_NS_PER_SEC), 0);
    cr_expect_eq(atomic_load(&r.header->writer_pid), getpid());
    struct stat st;
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", seg_name);
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0640);
    kvr_shm_close(&r);
}

Test(segment, open_of_a_missing_segment_says_so)
{
    kvr_shm_t r;
    cr_expect_eq(kvr_shm_open(&r, "/kvr-test-does-not-exist"), -ENOENT);
}

Test(segment, create_refuses_a_live_writers_segment_and_replaces_a_dead_ones)
{
    kvr_shm_t second;
    cr_expect_eq(kvr_shm_create(&second, seg_name, 8), -EBUSY);
    /* The writer stops: its segment is debris a new writer may replace. */
    kvr_shm_mark_writer_stopped(&writer);
    atomic_store(&writer.header->heartbeat_ns, 0);
    cr_assert_eq(kvr_shm_create(&second, seg_name, 16), 0);
    cr_expect_eq(second.header->capacity, 16);
    kvr_shm_close(&second);
}

Test(segment, create_and_open_refuse_to_follow_a_symlink)
{
    char name[64], path[128], target[128];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-link");
    snprintf(path, sizeof path, "/dev/shm%s", name);
    snprintf(target, sizeof target, "/dev/shm%s", seg_name);
    cr_assert_eq(symlink(target, path), 0);
    kvr_shm_t s;
    cr_expect_eq(kvr_shm_open(&s, name), -ELOOP);
    cr_expect_eq(kvr_shm_create(&s, name, 4), -ELOOP);
    unlink(path);
}

Test(segment, engines_are_added_found_and_removed_with_generation_bumps)
{
    uint64_t g0 = kvr_shm_generation(&writer);
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9001"), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9002"), 1);
    cr_expect_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9001"), -EEXIST);
    cr_expect_eq(kvr_shm_generation(&writer), g0 + 2);
    cr_expect_eq(atomic_load(&writer.header->engines_in_use), 2);

    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    /* A reader caches the index and the generation it saw. */
    int cached = kvr_shm_find(&r, "http://127.0.0.1:9002");
    uint64_t seen = kvr_shm_generation(&r);
    cr_assert_eq(cached, 1);

    cr_assert_eq(kvr_shm_remove_engine(&writer, 0), 0);
    cr_assert_eq(kvr_shm_remove_engine(&writer, 1), 0);
    cr_expect_eq(kvr_shm_remove_engine(&writer, 1), -ENOENT);
    /* Re-added in another order: 9003 takes the slot 9002 had. */
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9003"), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9002"), 1);
    cr_assert_eq(kvr_shm_remove_engine(&writer, 0), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9004"), 0);

    cr_expect_neq(kvr_shm_generation(&r), seen,
                  "the reader can tell its cached index may be wrong");
    cr_expect_eq(kvr_shm_find(&r, "http://127.0.0.1:9001"), -ENOENT);
    cr_expect_eq(kvr_shm_find(&r, "http://127.0.0.1:9004"), 0);
    kvr_shm_close(&r);
}

Test(segment, table_full_and_overlong_ids_are_refused)
{
    char id[KVR_SHM_ENGINE_ID_MAX + 8];
    memset(id, 'a', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    cr_expect_eq(kvr_shm_add_engine(&writer, id), -ENAMETOOLONG);
    for (int i = 0; i < 8; i++) {
        snprintf(id, sizeof id, "http://127.0.0.1:%d", 9100 + i);
        cr_assert_eq(kvr_shm_add_engine(&writer, id), i);
    }
    cr_expect_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:9999"), -ENOSPC);
}

Test(segment, read_returns_a_copy_and_its_age)
{
    int idx = kvr_shm_add_engine(&writer, "http://127.0.0.1:9001");
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    uint64_t now = kvr_clock_now_ns();
    s.sample_time_ns = now - 30 * KVR_NS_PER_MS;
    s.publish_time_ns = now;
    s.flags |= KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE;
    s.flags = kvr_slot_with_source(s.flags, KVR_SOURCE_LOADS);
    s.running = 38;
    s.waiting = 36;
    s.max_running = 38;
    s.kv_usage = 0.12;
    kvr_shm_write_slot(&writer, (uint32_t)idx, &s);

    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    kvr_engine_state_t got;
    uint64_t age;
    cr_assert_eq(kvr_shm_read_slot(&r, (uint32_t)idx, now, &got, &age), 0);
    cr_expect_eq(age, 30 * KVR_NS_PER_MS);
    cr_expect_str_eq(got.engine_id, "http://127.0.0.1:9001");
    cr_expect_eq(got.running, 38);
    cr_expect_eq(got.waiting, 36);
    cr_expect_eq(got.max_running, 38);
    cr_expect_float_eq(got.kv_usage, 0.12, 1e-12);
    cr_expect_eq(kvr_slot_source(got.flags), KVR_SOURCE_LOADS);
    cr_expect(got.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_expect_eq(kvr_shm_read_slot(&r, 5, now, &got, &age), -ENOENT, "unused slot");
    cr_expect_eq(kvr_shm_read_slot(&r, 8, now, &got, &age), -ERANGE);
    kvr_shm_close(&r);
}

Test(segment, cached_read_follows_every_write_and_skips_the_copy_otherwise)
{
    int idx = kvr_shm_add_engine(&writer, "http://127.0.0.1:9001");
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    kvr_shm_slot_cache_t cache = {.valid = false};
    for (uint32_t running = 1; running <= 5; running++) {
        s.running = running;
        s.sample_time_ns = 1000 * running;
        kvr_shm_write_slot(&writer, (uint32_t)idx, &s);
        uint64_t age;
        cr_assert_eq(kvr_shm_read_slot_cached(&r, (uint32_t)idx, 10000, &cache, &age), 0);
        cr_expect_eq(cache.state.running, running, "the cache saw write %u", running);
        cr_expect_eq(age, 10000 - 1000 * running);
        /* No write in between: the copy is reused, the age still moves with now. */
        cache.state.waiting = 77; /* marks the copy: a re-read would overwrite it */
        cr_assert_eq(kvr_shm_read_slot_cached(&r, (uint32_t)idx, 20000, &cache, &age), 0);
        cr_expect_eq(cache.state.waiting, 77);
        cr_expect_eq(age, 20000 - 1000 * running);
    }
    cr_expect_eq(kvr_shm_read_slot_cached(&r, 6, 0, &cache, NULL), -ENOENT, "unused slot");
    cr_expect_eq(kvr_shm_read_slot_cached(&r, 8, 0, &cache, NULL), -ERANGE);
    kvr_shm_close(&r);
}

Test(segment, heartbeat_stale_and_writer_stopped_are_told_apart)
{
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    uint64_t now = kvr_clock_now_ns();
    kvr_shm_heartbeat(&writer, now);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, now + KVR_NS_PER_SEC, 2 * KVR_NS_PER_SEC), 0);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, now + 3 * KVR_NS_PER_SEC, 2 * KVR_NS_PER_SEC),
                 KVR_ESHM_STALE);
    kvr_shm_mark_writer_stopped(&writer);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, now, 2 * KVR_NS_PER_SEC), KVR_ESHM_WRITER_GONE);
    kvr_shm_close(&r);
}

Test(segment, engine_id_without_nul_is_rejected_on_read)
{
    int idx = kvr_shm_add_engine(&writer, "http://127.0.0.1:9001");
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    memset(s.engine_id, 'x', sizeof s.engine_id);
    kvr_shm_write_slot(&writer, (uint32_t)idx, &s);
    kvr_engine_state_t got;
    cr_expect_eq(kvr_shm_read_slot(&writer, (uint32_t)idx, kvr_clock_now_ns(), &got, NULL),
                 KVR_ESHM_ENGINE_ID);
}

/* ---- validation: each broken header has its own code and message -------- */

/* Criterion runs each parameter in a fresh process: the table holds no pointers. */
typedef enum {
    INTACT,
    BAD_MAGIC,
    OTHER_MAJOR,
    NEWER_MINOR,
    SMALLER_THAN_HEADER,
    TINY_OBJECT,
    CAPACITY_PAST_MAPPING,
    ZERO_CAPACITY,
    SLOT_SIZE_MISMATCH,
    SLOT_SIZE_UNALIGNED,
    SLOT_SIZE_LARGER,
    HEADER_SIZE_TOO_SMALL,
} defect_t;

typedef struct {
    defect_t defect;
    int expected;
} corrupt_case_t;

static void corrupt(kvr_shm_header_t *h, size_t *len, defect_t defect)
{
    switch (defect) {
    case INTACT: break;
    case BAD_MAGIC: h->magic ^= 1; break;
    case OTHER_MAJOR: h->abi_major = KVR_SHM_ABI_MAJOR + 1; break;
    case NEWER_MINOR: h->abi_minor = KVR_SHM_ABI_MINOR + 7; break;
    case SMALLER_THAN_HEADER: *len = KVR_SHM_HEADER_SIZE - 8; break;
    case TINY_OBJECT: *len = 12; break;
    case CAPACITY_PAST_MAPPING: h->capacity = 9; break;
    case ZERO_CAPACITY: h->capacity = 0; break;
    case SLOT_SIZE_MISMATCH: h->slot_size = KVR_SHM_SLOT_SIZE - 64; break;
    case SLOT_SIZE_UNALIGNED: h->slot_size = KVR_SHM_SLOT_SIZE + 8; break;
    case SLOT_SIZE_LARGER: /* a newer minor appended slot fields */
        h->slot_size = KVR_SHM_SLOT_SIZE + 64;
        h->capacity = 4;
        break;
    case HEADER_SIZE_TOO_SMALL: h->header_size = 64; break;
    }
}

ParameterizedTestParameters(segment_validate, each_defect)
{
    static corrupt_case_t cases[] = {
        {INTACT, 0},
        {BAD_MAGIC, KVR_ESHM_MAGIC},
        {OTHER_MAJOR, KVR_ESHM_MAJOR},
        {NEWER_MINOR, 0},
        {SMALLER_THAN_HEADER, KVR_ESHM_TRUNCATED},
        {TINY_OBJECT, KVR_ESHM_TRUNCATED},
        {CAPACITY_PAST_MAPPING, KVR_ESHM_CAPACITY},
        {ZERO_CAPACITY, KVR_ESHM_CAPACITY},
        {SLOT_SIZE_MISMATCH, KVR_ESHM_SLOT_SIZE},
        {SLOT_SIZE_UNALIGNED, KVR_ESHM_SLOT_SIZE},
        {SLOT_SIZE_LARGER, 0},
        {HEADER_SIZE_TOO_SMALL, KVR_ESHM_HEADER_SIZE},
    };
    return cr_make_param_array(corrupt_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(corrupt_case_t *c, segment_validate, each_defect, .timeout = 5.)
{
    size_t len = KVR_SHM_HEADER_SIZE + 8 * (size_t)KVR_SHM_SLOT_SIZE;
    kvr_shm_header_t *h = aligned_alloc(64, len);
    memset(h, 0, len);
    h->magic = KVR_SHM_MAGIC;
    h->abi_major = KVR_SHM_ABI_MAJOR;
    h->abi_minor = KVR_SHM_ABI_MINOR;
    h->header_size = KVR_SHM_HEADER_SIZE;
    h->slot_size = KVR_SHM_SLOT_SIZE;
    h->capacity = 8;
    corrupt(h, &len, c->defect);
    int rc = kvr_shm_validate(h, len);
    cr_expect_eq(rc, c->expected, "defect %d: got %d (%s)", (int)c->defect, rc, kvr_strerror(rc));
    if (c->expected != 0)
        cr_expect_str_neq(kvr_strerror(rc), "unknown error");
    free(h);
}

Test(segment_validate, a_truncated_object_is_refused_by_open, .timeout = 5.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-trunc");
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    kvr_shm_header_t h = {.magic = KVR_SHM_MAGIC,
                          .abi_major = KVR_SHM_ABI_MAJOR,
                          .header_size = KVR_SHM_HEADER_SIZE,
                          .slot_size = KVR_SHM_SLOT_SIZE,
                          .capacity = 64};
    cr_assert_eq(write(fd, &h, sizeof h), (ssize_t)sizeof h);
    close(fd);
    kvr_shm_t r;
    cr_expect_eq(kvr_shm_open(&r, name), KVR_ESHM_CAPACITY);
    shm_unlink(name);
}

Test(segment_validate, a_foreign_object_is_refused_by_open, .timeout = 5.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-foreign");
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    char junk[4096];
    memset(junk, 0x5a, sizeof junk);
    cr_assert_eq(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    kvr_shm_t r;
    cr_expect_eq(kvr_shm_open(&r, name), KVR_ESHM_MAGIC);
    shm_unlink(name);
}

/* ---- in-place changes, squatters, the writer's guard ---------------------- */

/* Another process's hands on the object: a writable descriptor of its own. */
static int tamper_fd(const char *name)
{
    int fd = shm_open(name, O_RDWR, 0);
    cr_assert_geq(fd, 0, "shm_open %s: %s", name, strerror(errno));
    return fd;
}

/* An engine with a sample in it, so a restore has something to bring back. */
static int publish_one(uint32_t running)
{
    int idx = kvr_shm_add_engine(&writer, "http://127.0.0.1:7001");
    cr_assert_geq(idx, 0);
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    s.flags |= KVR_SLOT_HEALTHY;
    s.running = running;
    s.sample_time_ns = kvr_clock_now_ns();
    s.sample_seq = 1;
    kvr_shm_write_slot(&writer, (uint32_t)idx, &s);
    return idx;
}

static void expect_reader_sees(uint32_t running)
{
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    int idx = kvr_shm_find(&r, "http://127.0.0.1:7001");
    cr_assert_geq(idx, 0);
    kvr_engine_state_t s;
    cr_assert_eq(kvr_shm_read_slot(&r, (uint32_t)idx, kvr_clock_now_ns(), &s, NULL), 0);
    cr_expect_eq(s.running, running);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, kvr_clock_now_ns(), KVR_NS_PER_SEC), 0);
    kvr_shm_close(&r);
}

Test(segment, the_writer_grows_back_a_truncated_segment_before_writing)
{
    int idx = publish_one(5);
    int fd = tamper_fd(seg_name);
    cr_assert_eq(ftruncate(fd, 0), 0);
    close(fd);
    const char *what;
    cr_assert_eq(kvr_shm_writer_check(&writer, &what), 1);
    cr_expect_not_null(strstr(what, "shrunk"), "%s", what);
    /* Writing before the check would have been SIGBUS; now the pages are back. */
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    s.running = 6;
    kvr_shm_write_slot(&writer, (uint32_t)idx, &s);
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns());
    expect_reader_sees(6);
    cr_expect_eq(kvr_shm_writer_check(&writer, &what), 0, "nothing left to repair");
}

Test(segment, a_store_between_ticks_survives_a_truncation)
{
    int idx = publish_one(5);
    int fd = tamper_fd(seg_name);
    cr_assert_eq(ftruncate(fd, 0), 0);
    close(fd);
    /* A push frame arriving before the tick's check: the store must not be SIGBUS. */
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    s.running = 8;
    kvr_shm_write_slot(&writer, (uint32_t)idx, &s);
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns());
    const char *what;
    cr_assert_eq(kvr_shm_writer_check(&writer, &what), 1, "the zeroed header is rewritten");
    expect_reader_sees(8);
}

Test(segment, the_writer_restores_a_segment_overwritten_with_random_bytes)
{
    int idx = publish_one(5);
    uint64_t generation = kvr_shm_generation(&writer);
    int fd = tamper_fd(seg_name);
    unsigned char junk[4096];
    srand(11);
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)rand();
    cr_assert_eq(pwrite(fd, junk, sizeof junk, 0), (ssize_t)sizeof junk);
    close(fd);
    /* The writer reads its own copy, never the mapping: no misaligned slot, no garbage kept. */
    kvr_engine_state_t s;
    kvr_shm_writer_state(&writer, (uint32_t)idx, &s);
    cr_expect_eq(s.running, 5);
    cr_expect_str_eq(s.engine_id, "http://127.0.0.1:7001");
    const char *what;
    cr_assert_eq(kvr_shm_writer_check(&writer, &what), 1);
    cr_expect_gt(kvr_shm_generation(&writer), generation, "readers re-map after a restore");
    expect_reader_sees(5);
}

Test(segment, the_writer_restores_slots_overwritten_behind_an_intact_header)
{
    int idx = publish_one(5);
    int fd = tamper_fd(seg_name);
    uint64_t odd = 12345;
    off_t at = (off_t)KVR_SHM_HEADER_SIZE + (off_t)idx * KVR_SHM_SLOT_SIZE;
    cr_assert_eq(pwrite(fd, &odd, sizeof odd, at), (ssize_t)sizeof odd);
    close(fd);
    const char *what;
    cr_assert_eq(kvr_shm_writer_check(&writer, &what), 1);
    cr_expect_not_null(strstr(what, "slots"), "%s", what);
    expect_reader_sees(5);
}

Test(segment, the_writer_puts_a_new_object_under_an_unlinked_name)
{
    publish_one(5);
    cr_assert_eq(kvr_shm_unlink(seg_name), 0);
    const char *what;
    cr_assert_eq(kvr_shm_writer_check(&writer, &what), 1);
    cr_expect_not_null(strstr(what, "created anew"), "%s", what);
    expect_reader_sees(5);
}

Test(segment, a_reader_keeps_the_geometry_it_validated)
{
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    cr_expect_eq(kvr_shm_check_size(&r), 0);
    cr_expect_eq(kvr_shm_check_identity(&r), 0);
    writer.header->capacity = KVR_SHM_MAX_CAPACITY;
    cr_expect_eq(r.capacity, 8);
    cr_expect_eq(kvr_shm_find(&r, "http://127.0.0.1:1"), -ENOENT, "stops at slot 8, not 65536");
    kvr_engine_state_t s;
    cr_expect_eq(kvr_shm_read_slot(&r, 9, 0, &s, NULL), -ERANGE);
    cr_expect_eq(kvr_shm_check_size(&r), KVR_ESHM_CHANGED);
    writer.header->capacity = 8;
    int fd = tamper_fd(seg_name);
    cr_assert_eq(ftruncate(fd, KVR_SHM_HEADER_SIZE), 0);
    close(fd);
    cr_expect_eq(kvr_shm_check_size(&r), KVR_ESHM_CHANGED, "shorter than the mapping");
    kvr_shm_close(&r);
}

Test(segment, a_heartbeat_from_the_future_is_stale)
{
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    uint64_t now = kvr_clock_now_ns();
    kvr_shm_heartbeat(&writer, now + 60 * KVR_NS_PER_SEC);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, now, 2 * KVR_NS_PER_SEC), KVR_ESHM_STALE);
    kvr_shm_heartbeat(&writer, UINT64_MAX);
    cr_expect_eq(kvr_shm_check_heartbeat(&r, now, UINT64_MAX - 1), KVR_ESHM_STALE);
    cr_expect_eq(kvr_shm_age_ns(now, now + 1000), 0, "a store racing the reader's clock");
    cr_expect_eq(kvr_shm_age_ns(now, now + KVR_NS_PER_SEC), UINT64_MAX);
    kvr_shm_close(&r);
}

/* What a local user can leave at a name before statefeed starts: a live-looking header, writer pid 1. */
static void plant_squatter(const char *name, uid_t uid, mode_t mode)
{
    size_t len = KVR_SHM_HEADER_SIZE + 4 * (size_t)KVR_SHM_SLOT_SIZE;
    kvr_shm_header_t *h = aligned_alloc(64, len);
    memset(h, 0, len);
    h->magic = KVR_SHM_MAGIC;
    h->abi_major = KVR_SHM_ABI_MAJOR;
    h->header_size = KVR_SHM_HEADER_SIZE;
    h->slot_size = KVR_SHM_SLOT_SIZE;
    h->capacity = 4;
    atomic_store(&h->writer_state, KVR_SHM_WRITER_LIVE);
    atomic_store(&h->writer_pid, 1);
    atomic_store(&h->heartbeat_ns, UINT64_MAX); /* "fresh" forever, to a reader that clamps ages */
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, h, len), (ssize_t)len);
    cr_assert_eq(fchown(fd, uid, (gid_t)-1), 0, "fchown: %s", strerror(errno));
    cr_assert_eq(fchmod(fd, mode), 0);
    close(fd);
    free(h);
}

Test(segment_squat, create_refuses_another_users_object_and_names_the_fix, .timeout = 10.)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give the object another owner");
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-squat");
    plant_squatter(name, 65534, 0644);
    kvr_shm_t w;
    int rc = kvr_shm_create(&w, name, 8);
    cr_expect_eq(rc, KVR_ESHM_OWNER, "got %d (%s)", rc, kvr_strerror(rc));
    char text[512], want[128];
    kvr_shm_explain(&w, rc, text, sizeof text);
    snprintf(want, sizeof want, "remove /dev/shm%s, owned by uid 65534", name);
    cr_expect_not_null(strstr(text, want), "%s", text);
    kvr_shm_t r;
    cr_expect_eq(kvr_shm_open(&r, name), KVR_ESHM_OWNER);
    cr_expect_eq(kvr_shm_open_as(&r, name, 65534), 0, "the owner a reader was told to expect");
    kvr_shm_close(&r);
    shm_unlink(name);
}

Test(segment_squat, create_refuses_an_object_others_may_write, .timeout = 10.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-squat");
    plant_squatter(name, geteuid(), 0666);
    kvr_shm_t w;
    cr_expect_eq(kvr_shm_create(&w, name, 8), KVR_ESHM_OWNER);
    shm_unlink(name);
}

Test(segment_validate, attach_reads_a_segment_held_in_a_buffer, .timeout = 5.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-attach");
    kvr_shm_t w;
    cr_assert_eq(kvr_shm_create(&w, name, 4), 0);
    cr_assert_eq(kvr_shm_add_engine(&w, "http://127.0.0.1:9"), 0);
    void *copy = aligned_alloc(64, w.map_len);
    memcpy(copy, w.base, w.map_len);
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_attach(&r, copy, w.map_len), 0);
    cr_expect_eq(r.capacity, 4);
    cr_expect_eq(kvr_shm_find(&r, "http://127.0.0.1:9"), 0);
    cr_expect_eq(kvr_shm_check_size(&r), 0);
    cr_expect_eq(kvr_shm_attach(&r, copy, w.map_len - 1), KVR_ESHM_CAPACITY);
    kvr_shm_close(&r);
    free(copy);
    kvr_shm_close(&w);
    kvr_shm_unlink(name);
}
