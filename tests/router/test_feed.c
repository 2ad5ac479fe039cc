/* SPDX-License-Identifier: Apache-2.0 */
/* The feed reader: eff = shadow + the sample's load not its own from fresh slots, shadow otherwise, and ES=0 never opens. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "router/engines.h"
#include "router/feed.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

#define ENGINE "http://127.0.0.1:18999"

static char seg_name[64];
static kvr_shm_t writer;
static kvr_engine_table_t table;
static kvr_engine_t *engine;
static kvr_feed_t feed;

static void publish(uint32_t slot, uint32_t running, uint32_t waiting, uint64_t age_ns,
                    bool healthy)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, slot, &st);
    uint64_t now = kvr_clock_now_ns();
    st.sample_time_ns = now - age_ns;
    st.publish_time_ns = now;
    st.sample_seq++;
    st.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | (healthy ? KVR_SLOT_HEALTHY : 0) |
                                        KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL,
                                    KVR_SOURCE_LOADS);
    st.running = running;
    st.waiting = waiting;
    st.max_running = 4;
    st.dp_ranks = 1;
    st.pending_prefill_tokens = 500;
    st.kv_tokens_used = 1000;
    st.kv_tokens_capacity = 10000;
    st.kv_usage = 0.1;
    kvr_shm_write_slot(&writer, slot, &st);
    kvr_shm_heartbeat(&writer, now);
}

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-feed");
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
    cr_assert_eq(kvr_engine_table_init(&table, 0), 0);
    cr_assert_eq(kvr_engine_table_add(&table, ENGINE, &engine), 0);
}

static void teardown(void)
{
    kvr_feed_close(&feed);
    kvr_engine_table_close(&table);
    kvr_shm_close(&writer);
    kvr_shm_unlink(seg_name);
}

TestSuite(feed, .init = setup, .fini = teardown, .timeout = 10.);

Test(feed, fresh_slot_gives_max_of_shadow_and_real)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    cr_assert_geq(slot, 0);
    publish((uint32_t)slot, 7, 3, 10 * KVR_NS_PER_MS, true);
    kvr_charge_t c[6] = {0};
    for (int i = 0; i < 6; i++)
        kvr_charge_begin(&c[i], engine, 200); /* shadow: 6 requests, 1200 pending, 1200 kv */

    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect(v.feed_fresh);
    cr_expect_eq(v.real_running, 7);
    cr_expect_eq(v.real_waiting, 3);
    cr_expect_eq(v.shadow_requests, 6);
    cr_expect_eq(v.eff_requests, 10, "6 own + (7+3 real - 6 own at the sample)");
    cr_expect_eq(v.eff_running, 7, "running up to the cap: the sample runs 7 past its 4");
    cr_expect_eq(v.eff_waiting, 3);
    cr_expect_eq(v.eff_pending_prefill_tokens, 1200, "max(1200 shadow, 500 real)");
    cr_expect_eq(v.eff_kv_tokens, 1200 + 1000 * 4 / 10, "own + the external 4/10 of the real");
    cr_expect_eq(v.max_running, 4);
    cr_expect(v.caps_complete);
    cr_expect_geq(v.feed_age_ns, 10 * KVR_NS_PER_MS);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_FRESH], 1);
    for (int i = 0; i < 6; i++)
        kvr_charge_end(&c[i]);
    cr_expect_eq(engine->shadow_requests, 0);
}

Test(feed, old_slot_falls_back_to_shadow_and_is_counted)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    publish((uint32_t)slot, 7, 3, 5 * KVR_NS_PER_SEC, true);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_SLOT_STALE);
    cr_expect_not(v.feed_fresh);
    cr_expect_eq(v.eff_requests, 0);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_SLOT_STALE], 1);
    /* /engines reads do not count as decisions */
    kvr_feed_view(&feed, engine, now, false, &v);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_SLOT_STALE], 1);
}

Test(feed, unhealthy_slot_and_missing_slot_fall_back)
{
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_SLOT_MISSING);
    int slot = kvr_shm_add_engine(&writer, ENGINE); /* generation bump: the reader re-maps */
    publish((uint32_t)slot, 9, 0, 0, false);
    now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_SLOT_UNHEALTHY);
    cr_expect_eq(v.eff_requests, 0);
    publish((uint32_t)slot, 9, 0, 0, true);
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, 9);
}

Test(feed, stale_heartbeat_means_shadow_for_every_engine)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    publish((uint32_t)slot, 7, 3, 0, true);
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns() - 5 * KVR_NS_PER_SEC);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_WRITER_STALE);
    cr_expect_eq(v.eff_requests, 0);
    /* Past the reopen interval (500 ms): the same object is not mapped again. */
    now += 600 * KVR_NS_PER_MS;
    kvr_feed_refresh(&feed, now);
    cr_expect_eq(feed.opens_total, 1);
    kvr_shm_heartbeat(&writer, now);
    kvr_feed_refresh(&feed, now);
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
}

Test(feed, es0_never_opens_the_segment)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    publish((uint32_t)slot, 7, 3, 0, true);
    kvr_feed_init(&feed, false, seg_name, 2000 * KVR_NS_PER_MS);
    kvr_charge_t c = {0};
    kvr_charge_begin(&c, engine, 100);
    for (int i = 0; i < 3; i++) {
        uint64_t now = kvr_clock_now_ns();
        kvr_feed_refresh(&feed, now);
        kvr_engine_view_t v;
        kvr_feed_view(&feed, engine, now, true, &v);
        cr_expect_not(v.feed_fresh);
        cr_expect_eq(v.eff_requests, 1);
        cr_expect_eq(v.eff_pending_prefill_tokens, 100);
    }
    cr_expect_not(feed.open);
    cr_expect_eq(feed.opens_total, 0);
    for (int s = 0; s < KVR_FEED_N_STATES; s++)
        cr_expect_eq(feed.fallbacks_total[s], 0, "ES=0 counts no fallbacks");
    kvr_charge_end(&c);
}

Test(feed, missing_segment_then_appearing)
{
    char other[64];
    kvr_test_unique_name(other, sizeof other, "/kvr-test-feed-late");
    kvr_feed_init(&feed, true, other, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_NO_SEGMENT);
    kvr_shm_t late;
    cr_assert_eq(kvr_shm_create(&late, other, 4), 0);
    int slot = kvr_shm_add_engine(&late, ENGINE);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&late, (uint32_t)slot, &st);
    st.flags |= KVR_SLOT_HEALTHY;
    st.running = 2;
    st.sample_time_ns = kvr_clock_now_ns();
    kvr_shm_write_slot(&late, (uint32_t)slot, &st);
    now += 600 * KVR_NS_PER_MS; /* reopen attempts are rate limited (one per 500 ms) */
    kvr_shm_heartbeat(&late, now);
    kvr_feed_refresh(&feed, now);
    cr_expect_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, 2);
    kvr_shm_close(&late);
    kvr_shm_unlink(other);
}

Test(feed, remaps_on_generation_change_and_reopens_a_restarted_writer)
{
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:1"), 0);
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    cr_assert_eq(slot, 1);
    publish(1, 5, 0, 0, true);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, 5);

    /* The engine moves to slot 0: the old slot now names another engine. */
    kvr_shm_remove_engine(&writer, 1);
    kvr_shm_remove_engine(&writer, 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, ENGINE), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, "http://127.0.0.1:2"), 1);
    publish(0, 6, 0, 0, true);
    publish(1, 99, 0, 0, true);
    now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, 6);

    /* A writer restart: the name now names a new object with other values. */
    kvr_shm_close(&writer);
    kvr_shm_unlink(seg_name);
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, ENGINE), 0);
    publish(0, 11, 0, 0, true);
    now = kvr_clock_now_ns() + 300 * KVR_NS_PER_MS; /* past the identity check interval (250 ms) */
    kvr_feed_refresh(&feed, now);
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, 11);
    cr_expect_geq(feed.opens_total, 2);
}

/* ---- the segment changed in place, squatted or lying ---------------------- */

/* A fresh view of ENGINE through a feed opened on the test's segment. */
static void open_fresh(uint32_t running, uint32_t waiting)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    cr_assert_geq(slot, 0);
    publish((uint32_t)slot, running, waiting, 0, true);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    kvr_engine_view_t v;
    cr_assert_eq(kvr_feed_view(&feed, engine, now, true, &v), KVR_FEED_FRESH);
}

/* Another process's hands on the object: a writable descriptor of its own. */
static int tamper_fd(void)
{
    int fd = shm_open(seg_name, O_RDWR, 0);
    cr_assert_geq(fd, 0, "shm_open %s: %s", seg_name, strerror(errno));
    return fd;
}

static kvr_feed_state_t decide(kvr_engine_view_t *v)
{
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&feed, now);
    return kvr_feed_view(&feed, engine, now, true, v);
}

Test(feed, a_truncated_segment_is_dropped_not_faulted_on)
{
    open_fresh(3, 0);
    int fd = tamper_fd();
    cr_assert_eq(ftruncate(fd, 0), 0);
    close(fd);
    kvr_engine_view_t v;
    /* Reading slot pages past the new end would be SIGBUS. */
    cr_expect_eq(decide(&v), KVR_FEED_NO_SEGMENT);
    cr_expect_not(v.feed_fresh);
    cr_expect_not(feed.open);
    cr_expect_eq(feed.changes_total, 1);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_NO_SEGMENT], 1);
}

Test(feed, a_capacity_rewritten_in_place_is_never_used_as_a_bound)
{
    open_fresh(3, 0);
    int fd = tamper_fd();
    kvr_shm_header_t *h = mmap(NULL, KVR_SHM_HEADER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                               0);
    cr_assert_neq(h, MAP_FAILED);
    close(fd);
    /* A crafted header: 65536 slots in an object of 8, and a generation bump so readers re-map. */
    h->capacity = KVR_SHM_MAX_CAPACITY;
    atomic_fetch_add(&h->table_generation, 1);
    kvr_engine_view_t v;
    cr_expect_neq(decide(&v), KVR_FEED_FRESH);
    cr_expect_eq(feed.changes_total, 1);
    /* Even a reader that skipped the check stops at the capacity it validated. */
    kvr_shm_t r;
    cr_assert_eq(kvr_shm_attach(&r, writer.base, writer.map_len), KVR_ESHM_CAPACITY);
    h->capacity = 8;
    cr_assert_eq(kvr_shm_open(&r, seg_name), 0);
    h->capacity = KVR_SHM_MAX_CAPACITY;
    cr_expect_eq(kvr_shm_find(&r, "http://127.0.0.1:1"), -ENOENT);
    cr_expect_eq(kvr_shm_check_size(&r), KVR_ESHM_CHANGED);
    kvr_shm_close(&r);
    munmap(h, KVR_SHM_HEADER_SIZE);
}

Test(feed, random_bytes_over_the_segment_never_crash_the_reader)
{
    open_fresh(3, 0);
    int fd = tamper_fd();
    size_t len = writer.map_len;
    unsigned char *junk = malloc(len);
    srand(7);
    for (size_t i = 0; i < len; i++)
        junk[i] = (unsigned char)rand();
    cr_assert_eq(pwrite(fd, junk, len, 0), (ssize_t)len);
    close(fd);
    free(junk);
    kvr_engine_view_t v;
    for (int i = 0; i < 3; i++)
        cr_expect_neq(decide(&v), KVR_FEED_FRESH);
    cr_expect_geq(feed.changes_total, 1);
}

Test(feed, a_heartbeat_from_the_future_is_stale)
{
    open_fresh(3, 0);
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns() + 3600 * KVR_NS_PER_SEC);
    kvr_engine_view_t v;
    cr_expect_eq(decide(&v), KVR_FEED_WRITER_STALE);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_WRITER_STALE], 1);
    /* A store that lands just after the reader took its time is not a lie. */
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns() + 5 * KVR_NS_PER_MS);
    cr_expect_eq(decide(&v), KVR_FEED_FRESH);
}

Test(feed, a_sample_from_the_future_is_stale)
{
    open_fresh(3, 0);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, 0, &st);
    st.sample_time_ns = kvr_clock_now_ns() + 3600 * KVR_NS_PER_SEC;
    kvr_shm_write_slot(&writer, 0, &st);
    kvr_engine_view_t v;
    cr_expect_eq(decide(&v), KVR_FEED_SLOT_STALE);
    cr_expect_eq(v.feed_age_ns, 0, "no age is shown for it, not 2^64 ns");
}

Test(feed, running_plus_waiting_saturates_instead_of_wrapping_to_idle)
{
    open_fresh(UINT32_MAX, 1);
    kvr_engine_view_t v;
    cr_assert_eq(decide(&v), KVR_FEED_FRESH);
    cr_expect_eq(v.eff_requests, UINT32_MAX, "4294967295 + 1 is not 0");
    cr_expect_eq(v.eff_running, UINT32_MAX);
}

Test(feed, token_counts_near_2_64_cannot_wrap_a_policy_sum)
{
    open_fresh(1, 0);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, 0, &st);
    st.pending_prefill_tokens = UINT64_MAX;
    st.kv_tokens_used = UINT64_MAX - 5;
    st.max_prefill_remaining = UINT64_MAX;
    st.kv_tokens_capacity = UINT64_MAX;
    kvr_shm_write_slot(&writer, 0, &st);
    kvr_engine_view_t v;
    cr_assert_eq(decide(&v), KVR_FEED_FRESH);
    /* lmetric adds the uncached prompt, cost adds a block less one: neither may come out small. */
    uint64_t prompt = 1ull << 20;
    cr_expect_gt(v.eff_pending_prefill_tokens + prompt, v.eff_pending_prefill_tokens);
    cr_expect_gt(v.eff_kv_tokens + 63, v.eff_kv_tokens);
    cr_expect_geq(v.eff_pending_prefill_tokens, 1ull << 40, "still the most loaded");
    cr_expect_gt(v.max_prefill_remaining + prompt, v.max_prefill_remaining);
}

Test(feed, fractions_from_the_segment_are_kept_in_range)
{
    open_fresh(1, 0);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, 0, &st);
    st.kv_usage = NAN;
    st.utilization = 1e300;
    st.flags |= KVR_SLOT_HAS_UTILIZATION;
    kvr_shm_write_slot(&writer, 0, &st);
    kvr_engine_view_t v;
    cr_assert_eq(decide(&v), KVR_FEED_FRESH);
    cr_expect_lt(v.kv_usage, 0.0, "NaN is unknown");
    cr_expect_eq(v.utilization, 1.0);
}

/* A segment this process did not write: created here, then handed to another uid or opened to the group. */
static void squat(uid_t uid, mode_t mode)
{
    int slot = kvr_shm_add_engine(&writer, ENGINE);
    publish((uint32_t)slot, 0, 0, 0, true); /* a live heartbeat and an idle engine: bait */
    int fd = tamper_fd();
    cr_assert_eq(fchown(fd, uid, (gid_t)-1), 0, "fchown: %s", strerror(errno));
    cr_assert_eq(fchmod(fd, mode), 0);
    close(fd);
}

Test(feed, a_segment_of_another_user_is_refused_and_counted)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give the object another owner");
    squat(65534, 0644);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    kvr_engine_view_t v;
    cr_expect_eq(decide(&v), KVR_FEED_SEGMENT_REJECTED);
    cr_expect_not(v.feed_fresh);
    cr_expect_not(feed.open);
    cr_expect_eq(feed.last_error, KVR_ESHM_OWNER);
    cr_expect_eq(feed.fallbacks_total[KVR_FEED_SEGMENT_REJECTED], 1);
}

Test(feed, a_group_writable_segment_is_refused)
{
    squat(geteuid(), 0660);
    kvr_feed_init(&feed, true, seg_name, 2000 * KVR_NS_PER_MS);
    kvr_engine_view_t v;
    cr_expect_eq(decide(&v), KVR_FEED_SEGMENT_REJECTED);
    kvr_shm_t r;
    cr_expect_eq(kvr_shm_open(&r, seg_name), KVR_ESHM_OWNER);
    char text[512];
    cr_expect_not_null(
        strstr(kvr_shm_explain(&r, KVR_ESHM_OWNER, text, sizeof text), "remove /dev/shm/"), "%s",
        text);
}
