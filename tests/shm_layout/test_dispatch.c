/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dispatch segment: creation and refusal rules, rows (claim, publish,
 * sums, stale and dead holders), the placement ring (order, own entries,
 * loss, torn entries), with a forked router where a second process matters.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/dispatch.h"
#include "tests/support/proc.h"

#define MAX_AGE_NS (2 * KVR_NS_PER_SEC)
#define SMALL ((kvr_dsp_geometry_t){4, 8, 64})

static char seg_name[64];
static kvr_dsp_t router_a;

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-dsp");
    cr_assert_eq(kvr_dsp_open(&router_a, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
}

static void teardown(void)
{
    kvr_dsp_close(&router_a);
    kvr_dsp_unlink(seg_name);
}

TestSuite(dispatch, .init = setup, .fini = teardown, .timeout = 10.);

static const char *const ENGINES[] = {"http://127.0.0.1:8001", "http://127.0.0.1:8002",
                                      "http://127.0.0.1:8003"};

static void keys_of(uint64_t *keys, const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        keys[i] = kvr_dsp_engine_key(ids[i]);
}

/* Publishes in_flight = base + i (and tokens from it) for the three engines in the given order. */
static void publish(kvr_dsp_t *d, const char *const *ids, uint64_t base)
{
    uint64_t keys[3];
    kvr_dsp_load_t loads[3];
    keys_of(keys, ids, 3);
    for (size_t i = 0; i < 3; i++)
        loads[i] = (kvr_dsp_load_t){base + i, 100 * (base + i), 1000 * (base + i)};
    cr_assert_eq(kvr_dsp_publish(d, keys, loads, 3, kvr_clock_now_ns()), 0);
}

static void sum(const kvr_dsp_t *d, uint64_t now_ns, kvr_dsp_load_t *out, kvr_dsp_sum_stats_t *st)
{
    uint64_t keys[3];
    keys_of(keys, ENGINES, 3);
    kvr_dsp_sum_others(d, now_ns, MAX_AGE_NS, keys, 3, out, st);
}

Test(dispatch, open_creates_a_0640_segment_and_a_second_open_maps_the_same_one)
{
    cr_expect(router_a.created);
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", seg_name);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0640);
    kvr_dsp_t b;
    kvr_dsp_geometry_t other = {16, 16, 128}; /* ignored: the segment's own geometry wins */
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &other, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_expect_not(b.created);
    cr_expect_eq(b.row_capacity, 4);
    cr_expect_eq(b.engines_per_row, 8);
    cr_expect_eq(b.ring_capacity, 64);
    cr_expect_eq(b.ino, router_a.ino);
    kvr_dsp_close(&b);
}

Test(dispatch, a_router_sums_the_others_rows_per_engine_whatever_their_order)
{
    kvr_dsp_t b, c;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_eq(kvr_dsp_open(&c, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_eq(kvr_dsp_claim(&router_a, "a", now, MAX_AGE_NS), 0);
    cr_assert_eq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 1);
    cr_assert_eq(kvr_dsp_claim(&c, "c", now, MAX_AGE_NS), 2);
    publish(&router_a, ENGINES, 1000); /* its own: never summed by itself */
    publish(&b, ENGINES, 1);
    const char *const reversed[] = {ENGINES[2], ENGINES[1], ENGINES[0]};
    publish(&c, reversed, 10);
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    sum(&router_a, kvr_clock_now_ns(), out, &st);
    cr_expect_eq(st.live, 2);
    /* b gave engine i 1+i; c gave engine 2-i 10+i, i.e. engine i 12-i. */
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(out[i].in_flight, (1 + i) + (12 - i), "engine %zu", i);
        cr_expect_eq(out[i].pending_prefill_tokens, 100 * ((1 + i) + (12 - i)));
        cr_expect_eq(out[i].kv_tokens, 1000 * ((1 + i) + (12 - i)));
    }
    /* A released row stops counting at once. */
    kvr_dsp_release(&c);
    sum(&router_a, kvr_clock_now_ns(), out, &st);
    cr_expect_eq(st.live, 1);
    cr_expect_eq(out[0].in_flight, 1);
    kvr_dsp_close(&b);
    kvr_dsp_close(&c);
}

Test(dispatch, a_relay_sums_every_engine_the_other_rows_name_up_to_its_room)
{
    kvr_dsp_t b, c;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_eq(kvr_dsp_open(&c, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_eq(kvr_dsp_claim(&router_a, "relay", now, MAX_AGE_NS), 0);
    cr_assert_eq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 1);
    cr_assert_eq(kvr_dsp_claim(&c, "c", now, MAX_AGE_NS), 2);
    publish(&router_a, ENGINES, 1000); /* its own row: not summed */
    publish(&b, ENGINES, 1);
    const char *const reversed[] = {ENGINES[2], ENGINES[1], ENGINES[0]};
    publish(&c, reversed, 10);
    uint64_t keys[3];
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    size_t n = kvr_dsp_sum_others_any(&router_a, kvr_clock_now_ns(), MAX_AGE_NS, keys, out, 3, &st);
    cr_assert_eq(n, 3);
    cr_expect_eq(st.live, 2);
    for (size_t i = 0; i < 3; i++) {
        size_t at = 0;
        while (at < n && keys[at] != kvr_dsp_engine_key(ENGINES[i]))
            at++;
        cr_assert_lt(at, n, "engine %zu found", i);
        cr_expect_eq(out[at].in_flight, (1 + i) + (12 - i), "engine %zu", i);
    }
    /* With room for two, the third engine is left out, the two summed whole. */
    n = kvr_dsp_sum_others_any(&router_a, kvr_clock_now_ns(), MAX_AGE_NS, keys, out, 2, &st);
    cr_assert_eq(n, 2);
    cr_expect_eq(out[0].in_flight, 1 + 12);
    cr_expect_eq(out[1].in_flight, 2 + 11);
    kvr_dsp_close(&b);
    kvr_dsp_close(&c);
}

Test(dispatch, sums_saturate_instead_of_wrapping)
{
    kvr_dsp_t b, c;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_eq(kvr_dsp_open(&c, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    cr_assert_geq(kvr_dsp_claim(&c, "c", now, MAX_AGE_NS), 0);
    publish(&b, ENGINES, UINT64_MAX - 1);
    publish(&c, ENGINES, UINT64_MAX - 1);
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    sum(&router_a, kvr_clock_now_ns(), out, &st);
    cr_expect_eq(out[0].in_flight, UINT64_MAX);
    cr_expect_eq(out[0].kv_tokens, UINT64_MAX);
    kvr_dsp_close(&b);
    kvr_dsp_close(&c);
}

Test(dispatch, too_many_engines_are_refused_and_nothing_is_written)
{
    cr_assert_geq(kvr_dsp_claim(&router_a, "a", kvr_clock_now_ns(), MAX_AGE_NS), 0);
    uint64_t keys[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    kvr_dsp_load_t loads[9] = {{0}};
    cr_expect_eq(kvr_dsp_publish(&router_a, keys, loads, 9, kvr_clock_now_ns()), KVR_EDSP_ENGINES);
    cr_expect_str_eq(kvr_strerror(KVR_EDSP_ENGINES),
                     "more engines than a dispatch row holds, or two engines with one key");
}

Test(dispatch, a_row_whose_heartbeat_stopped_or_is_from_the_future_is_stale)
{
    kvr_dsp_t b;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    publish(&b, ENGINES, 5);
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    /* Its last heartbeat was at `now`: past the max age it no longer counts. */
    sum(&router_a, now + MAX_AGE_NS + 1, out, &st);
    cr_expect_eq(st.live, 0);
    cr_expect_eq(st.stale, 1);
    cr_expect_eq(out[0].in_flight, 0);
    /* A heartbeat far ahead of the reader's clock is a lie, not a live router. */
    cr_assert_eq(kvr_dsp_heartbeat(&b, now + 10 * KVR_NS_PER_SEC), 0);
    sum(&router_a, now, out, &st);
    cr_expect_eq(st.stale, 1);
    cr_expect_eq(out[0].in_flight, 0);
    /* Beating again brings it back. */
    cr_assert_eq(kvr_dsp_heartbeat(&b, now), 0);
    sum(&router_a, now, out, &st);
    cr_expect_eq(st.live, 1);
    cr_expect_eq(out[0].in_flight, 5);
    kvr_dsp_close(&b);
}

/* Runs fn in a child that ends by SIGKILL (as a router killed by the operator); returns its pid. */
static pid_t run_killed(void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        fn();
        raise(SIGKILL);
        _exit(99);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return pid;
}

static void child_publishes_then_dies_mid_write(void)
{
    kvr_dsp_t d;
    if (kvr_dsp_open(&d, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS) != 0 ||
        kvr_dsp_claim(&d, "child", kvr_clock_now_ns(), MAX_AGE_NS) < 0)
        _exit(1);
    publish(&d, ENGINES, 7);
    /* The first store of a write, and no second: the counter stays odd. */
    kvr_dsp_row_t *row = (kvr_dsp_row_t *)((char *)d.base + d.header_size +
                                           (size_t)d.row * d.row_size);
    atomic_store(&row->seq, atomic_load(&row->seq) + 1);
}

Test(dispatch, a_writer_killed_mid_write_is_skipped_counted_and_its_row_retaken)
{
    run_killed(child_publishes_then_dies_mid_write);
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    sum(&router_a, kvr_clock_now_ns(), out, &st);
    cr_expect_eq(st.busy, 1, "the odd counter is skipped after bounded retries");
    cr_expect_eq(st.live, 0);
    cr_expect_eq(out[0].in_flight, 0, "nothing of a torn row is summed");
    /* Its pid is gone: with every other row held, a claimer takes it over and its counter is even again. */
    kvr_dsp_t fill[3];
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(kvr_dsp_open(&fill[i], seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
        cr_assert_geq(kvr_dsp_claim(&fill[i], "fill", kvr_clock_now_ns(), MAX_AGE_NS), 0);
    }
    cr_assert_eq(kvr_dsp_claim(&router_a, "a", kvr_clock_now_ns(), MAX_AGE_NS), 0);
    publish(&router_a, ENGINES, 3);
    sum(&fill[0], kvr_clock_now_ns(), out, &st);
    cr_expect_eq(st.busy, 0);
    cr_expect_eq(st.live, 3);
    cr_expect_eq(out[0].in_flight, 3);
    for (int i = 0; i < 3; i++)
        kvr_dsp_close(&fill[i]);
}

static void child_claims_and_dies(void)
{
    kvr_dsp_t d;
    if (kvr_dsp_open(&d, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS) != 0 ||
        kvr_dsp_claim(&d, "old", kvr_clock_now_ns(), MAX_AGE_NS) != 0)
        _exit(1);
    publish(&d, ENGINES, 50);
}

Test(dispatch, a_killed_routers_charge_stops_counting_and_a_restart_takes_a_fresh_row)
{
    run_killed(child_claims_and_dies);
    kvr_dsp_row_t *row0 = (kvr_dsp_row_t *)((char *)router_a.base + router_a.header_size);
    uint64_t dead_token = atomic_load(&row0->owner);
    cr_assert_neq(dead_token, 0);
    kvr_dsp_load_t out[3];
    kvr_dsp_sum_stats_t st;
    uint64_t now = kvr_clock_now_ns();
    sum(&router_a, now, out, &st);
    cr_expect_eq(out[0].in_flight, 50, "within the max age its charge still counts");
    sum(&router_a, now + MAX_AGE_NS + 1, out, &st);
    cr_expect_eq(out[0].in_flight, 0, "past the max age it never does");
    cr_expect_eq(st.stale, 1);
    /* The restarted router prefers a free row; the dead one's row stays until needed. */
    cr_expect_eq(kvr_dsp_claim(&router_a, "new", now, MAX_AGE_NS), 1);
    cr_expect_neq(router_a.token, dead_token);
}

Test(dispatch, a_live_router_whose_heartbeat_lapsed_learns_its_row_was_taken)
{
    kvr_dsp_geometry_t one = {1, 8, 64};
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-dsp1");
    kvr_dsp_t a, b;
    cr_assert_eq(kvr_dsp_open(&a, name, &one, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_eq(kvr_dsp_open(&b, name, &one, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_eq(kvr_dsp_claim(&a, "a", now, MAX_AGE_NS), 0);
    cr_expect_eq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), KVR_EDSP_FULL);
    char text[256];
    cr_expect(strstr(kvr_dsp_explain(&b, KVR_EDSP_FULL, text, sizeof text), "1 rows") != NULL);
    cr_assert_eq(kvr_dsp_claim(&b, "b", now + MAX_AGE_NS + 1, MAX_AGE_NS), 0);
    uint64_t keys[1] = {1};
    kvr_dsp_load_t loads[1] = {{1, 1, 1}};
    cr_expect_eq(kvr_dsp_publish(&a, keys, loads, 1, now), KVR_EDSP_ROW_LOST);
    cr_expect_eq(kvr_dsp_heartbeat(&a, now), KVR_EDSP_ROW_LOST);
    /* a's release must not free what is now b's row. */
    kvr_dsp_close(&a);
    cr_expect_eq(kvr_dsp_heartbeat(&b, now), 0);
    kvr_dsp_close(&b);
    kvr_dsp_unlink(name);
}

/* ---- two routers claiming one row ------------------------------------------ */

#define RACERS 2 /* one per core of a small machine: both on a CPU when the line opens */
#define ROUNDS 2000

/* The tallies the racers share, one set per round; round r opens when round r-1 is done. */
typedef struct race_s {
    _Atomic int ready;
    _Atomic int tried[ROUNDS + 1];
    _Atomic int wins[ROUNDS + 1];
    _Atomic int done[ROUNDS + 1];
} race_t;

/* A busy spin, yielding only now and then: racers leave a line within nanoseconds of each other. */
static void spin_until(_Atomic int *word, int value)
{
    for (unsigned i = 1; atomic_load(word) < value; i++)
        if (i % 4096 == 0)
            sched_yield();
}

static void racer(const char *name, race_t *race)
{
    kvr_dsp_geometry_t one = {1, 8, 64};
    kvr_dsp_t d;
    if (kvr_dsp_open(&d, name, &one, KVR_DSP_CREATE_WAIT_MS) != 0)
        _exit(3);
    atomic_fetch_add(&race->ready, 1);
    spin_until(&race->ready, RACERS);
    for (int r = 1; r <= ROUNDS; r++) {
        int rc = kvr_dsp_claim(&d, "racer", kvr_clock_now_ns(), MAX_AGE_NS);
        if (rc == 0)
            atomic_fetch_add(&race->wins[r], 1);
        else if (rc != KVR_EDSP_FULL)
            _exit(2);
        /* Hold the row until every racer has tried, so none sees it free again this round. */
        atomic_fetch_add(&race->tried[r], 1);
        spin_until(&race->tried[r], RACERS);
        kvr_dsp_release(&d);
        atomic_fetch_add(&race->done[r], 1);
        spin_until(&race->done[r], RACERS);
    }
    _exit(0);
}

Test(dispatch, routers_racing_for_one_row_never_both_get_it, .timeout = 60.)
{
    kvr_dsp_geometry_t one = {1, 8, 64};
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-race");
    kvr_dsp_t creator;
    cr_assert_eq(kvr_dsp_open(&creator, name, &one, KVR_DSP_CREATE_WAIT_MS), 0);
    race_t *race = mmap(NULL, sizeof *race, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
                        0);
    cr_assert_neq(race, MAP_FAILED);
    memset(race, 0, sizeof *race);
    pid_t pids[RACERS];
    fflush(NULL);
    for (int i = 0; i < RACERS; i++) {
        pids[i] = fork();
        cr_assert_geq(pids[i], 0);
        if (pids[i] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            racer(name, race);
        }
    }
    for (int i = 0; i < RACERS; i++) {
        int status = 0;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    for (int r = 1; r <= ROUNDS; r++)
        cr_assert_eq(atomic_load(&race->wins[r]), 1, "round %d: %d routers hold the one row", r,
                     atomic_load(&race->wins[r]));
    munmap(race, sizeof *race);
    kvr_dsp_close(&creator);
    kvr_dsp_unlink(name);
}

/* ---- rows torn under a writer flat out, across two processes ---------------- */

Test(dispatch, a_reader_never_sums_a_half_written_row, .timeout = 30.)
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed assertion in the reader ends the writer too */
        kvr_dsp_t d;
        if (kvr_dsp_open(&d, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS) != 0 ||
            kvr_dsp_claim(&d, "writer", kvr_clock_now_ns(), MAX_AGE_NS) < 0)
            _exit(1);
        uint64_t keys[3];
        keys_of(keys, ENGINES, 3);
        for (uint64_t v = 1;; v++) {
            kvr_dsp_load_t loads[3] = {{v, v, v}, {v, v, v}, {v, v, v}};
            kvr_dsp_publish(&d, keys, loads, 3, kvr_clock_now_ns());
            kvr_dsp_heartbeat(&d, kvr_clock_now_ns());
        }
    }
    unsigned seen = 0, changed = 0;
    uint64_t last = 0;
    for (unsigned i = 0; i < 200000 && changed < 2000; i++) {
        kvr_dsp_load_t out[3];
        kvr_dsp_sum_stats_t st;
        sum(&router_a, kvr_clock_now_ns(), out, &st);
        cr_assert_eq(st.bad, 0);
        if (st.live == 0)
            continue;
        seen++;
        /* One store of one value into nine words on two cache lines: any mix is a torn read. */
        for (size_t e = 0; e < 3; e++) {
            cr_assert_eq(out[e].in_flight, out[0].in_flight);
            cr_assert_eq(out[e].pending_prefill_tokens, out[0].in_flight);
            cr_assert_eq(out[e].kv_tokens, out[0].in_flight);
        }
        changed += out[0].in_flight != last;
        last = out[0].in_flight;
    }
    kvr_test_stop(pid, SIGKILL, 1000);
    cr_expect_gt(seen, 0);
}

/* ---- the segment itself ------------------------------------------------------ */

/* Plants len bytes at a fresh name; returns the name in out. */
static void plant(char *out, size_t size, const void *bytes, size_t len, mode_t mode)
{
    kvr_test_unique_name(out, (unsigned)size, "/kvr-test-dsp-bad");
    int fd = shm_open(out, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    if (len > 0)
        cr_assert_eq(write(fd, bytes, len), (ssize_t)len);
    cr_assert_eq(fchmod(fd, mode), 0);
    close(fd);
}

/* A valid small segment's bytes, made by the real creator. */
static void *valid_bytes(size_t *len)
{
    *len = router_a.map_len;
    void *copy = malloc(*len);
    memcpy(copy, router_a.base, *len);
    return copy;
}

typedef struct bad_case_s {
    const char *what;
    size_t offset; /* a uint32 at this offset is set to value (SIZE_MAX: none) */
    uint32_t value;
    long length; /* bytes kept (-1: all) */
    int want;
} bad_case_t;

ParameterizedTestParameters(dispatch, a_bad_object_is_refused_with_its_code)
{
    static bad_case_t cases[] = {
        {"foreign bytes (magic)", 0, 0x5a5a5a5a, -1, KVR_EDSP_MAGIC},
        {"state segment magic", 0, 0x53525655, -1, KVR_EDSP_MAGIC},
        {"wrong major", 8, 2, -1, KVR_ESHM_MAJOR},
        {"truncated header", SIZE_MAX, 0, 100, KVR_ESHM_TRUNCATED},
        {"truncated ring", SIZE_MAX, 0, 4096, KVR_EDSP_GEOMETRY},
        {"header size 64", 12, 64, -1, KVR_EDSP_GEOMETRY},
        {"row size too small", 16, 64, -1, KVR_EDSP_GEOMETRY},
        {"no rows", 20, 0, -1, KVR_EDSP_GEOMETRY},
        {"rows past the end", 20, 256, -1, KVR_EDSP_GEOMETRY},
        {"engines past the row", 24, 1000, -1, KVR_EDSP_GEOMETRY},
        {"ring not a power of two", 28, 63, -1, KVR_EDSP_GEOMETRY},
        {"entry size 64", 32, 64, -1, KVR_EDSP_GEOMETRY},
        {"entry blocks 9", 36, 9, -1, KVR_EDSP_GEOMETRY},
    };
    return cr_make_param_array(bad_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_case_t *c, dispatch, a_bad_object_is_refused_with_its_code)
{
    size_t len;
    unsigned char *bytes = valid_bytes(&len);
    if (c->offset == 0 && c->value == 0x5a5a5a5a)
        memset(bytes, 0x5a, len);
    else if (c->offset != SIZE_MAX)
        memcpy(bytes + c->offset, &c->value, sizeof c->value);
    if (c->length >= 0)
        len = (size_t)c->length;
    cr_expect_eq(kvr_dsp_validate(bytes, len), c->want, "%s: validate", c->what);
    char name[64];
    plant(name, sizeof name, bytes, len, 0640);
    kvr_dsp_t d;
    int rc = kvr_dsp_open(&d, name, &SMALL, KVR_DSP_CREATE_WAIT_MS);
    cr_expect_eq(rc, c->want, "%s: open gave %d (%s)", c->what, rc, kvr_strerror(rc));
    char text[256];
    cr_expect(strstr(kvr_dsp_explain(&d, rc, text, sizeof text),
                     "remove /dev/shm/kvr-test-dsp-bad") != NULL,
              "%s: %s", c->what, text);
    /* Never removed: it is the operator's to look at. */
    kvr_dsp_t again;
    cr_expect_eq(kvr_dsp_open(&again, name, &SMALL, KVR_DSP_CREATE_WAIT_MS), c->want);
    shm_unlink(name);
    free(bytes);
}

Test(dispatch, an_empty_object_nobody_finishes_creating_is_refused_after_a_bounded_wait)
{
    char name[64];
    plant(name, sizeof name, NULL, 0, 0640);
    kvr_dsp_t d;
    cr_expect_eq(kvr_dsp_open(&d, name, &SMALL, KVR_DSP_CREATE_WAIT_MS), KVR_ESHM_TRUNCATED);
    /* A router reopening from its event loop does not wait at all. */
    cr_expect_eq(kvr_dsp_open(&d, name, &SMALL, 0), KVR_ESHM_TRUNCATED);
    shm_unlink(name);
}

Test(dispatch, an_object_others_may_write_or_a_symlink_is_refused)
{
    size_t len;
    void *bytes = valid_bytes(&len);
    char name[64];
    plant(name, sizeof name, bytes, len, 0666);
    kvr_dsp_t d;
    cr_expect_eq(kvr_dsp_open(&d, name, &SMALL, KVR_DSP_CREATE_WAIT_MS), KVR_ESHM_OWNER);
    char text[256];
    cr_expect(strstr(kvr_dsp_explain(&d, KVR_ESHM_OWNER, text, sizeof text), "mode 0666") != NULL);
    shm_unlink(name);
    free(bytes);

    char link_name[64], path[128], target[128];
    kvr_test_unique_name(link_name, sizeof link_name, "/kvr-test-dsp-link");
    snprintf(path, sizeof path, "/dev/shm%s", link_name);
    snprintf(target, sizeof target, "/dev/shm%s", seg_name);
    cr_assert_eq(symlink(target, path), 0);
    cr_expect_eq(kvr_dsp_open(&d, link_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), -ELOOP);
    unlink(path);
}

Test(dispatch, a_shrunk_or_replaced_object_is_reported_changed)
{
    cr_expect_eq(kvr_dsp_check(&router_a), 0);
    cr_expect_eq(kvr_dsp_check_identity(&router_a), 0);
    int fd = shm_open(seg_name, O_RDWR, 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 1024), 0);
    close(fd);
    cr_expect_eq(kvr_dsp_check(&router_a), KVR_ESHM_CHANGED);
    kvr_dsp_unlink(seg_name);
    cr_expect_eq(kvr_dsp_check_identity(&router_a), -ENOENT);
    /* close must not touch the part that is gone (SIGBUS) */
    kvr_dsp_close(&router_a);
    cr_assert_eq(kvr_dsp_open(&router_a, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
}

/* ---- the placement ring ------------------------------------------------------- */

static kvr_dsp_placement_t prefix_of(uint64_t first, uint16_t n, uint64_t engine)
{
    kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_PREFIX, .block_count = n, .engine_key = engine};
    for (uint16_t i = 0; i < n; i++)
        p.blocks[i] = first + i;
    return p;
}

Test(dispatch, others_entries_arrive_in_order_and_own_ones_are_skipped)
{
    kvr_dsp_t b;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&router_a, "a", now, MAX_AGE_NS), 0);
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&router_a, &cur);
    kvr_dsp_placement_t p = prefix_of(100, 3, 7);
    cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    p = prefix_of(200, 1, 8);
    cr_assert_eq(kvr_dsp_append(&router_a, &p), 0); /* own */
    kvr_dsp_placement_t pin = {.kind = KVR_DSP_PLACE_SESSION,
                               .engine_key = 9,
                               .session_hash = kvr_dsp_session_hash("s1", 2)};
    cr_assert_eq(kvr_dsp_append(&b, &pin), 0);
    kvr_dsp_placement_t got;
    cr_assert_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), 0);
    cr_expect_eq(got.kind, KVR_DSP_PLACE_PREFIX);
    cr_expect_eq(got.block_count, 3);
    cr_expect_eq(got.blocks[2], 102);
    cr_expect_eq(got.engine_key, 7);
    cr_expect_eq(got.origin, b.token);
    cr_assert_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), 0);
    cr_expect_eq(got.kind, KVR_DSP_PLACE_SESSION);
    cr_expect_eq(got.session_hash, kvr_dsp_session_hash("s1", 2));
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), -EAGAIN);
    cr_expect_eq(cur.applied, 2);
    cr_expect_eq(cur.own, 1);
    cr_expect_eq(cur.lost + cur.torn, 0);
    /* Bad kinds and block counts never reach the ring. */
    p.kind = 3;
    cr_expect_eq(kvr_dsp_append(&b, &p), -EINVAL);
    p = prefix_of(1, 1, 1);
    p.block_count = KVR_DSP_ENTRY_BLOCKS + 1;
    cr_expect_eq(kvr_dsp_append(&b, &p), -EINVAL);
    kvr_dsp_close(&b);
}

static void child_floods_the_ring(void)
{
    kvr_dsp_t d;
    if (kvr_dsp_open(&d, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS) != 0 ||
        kvr_dsp_claim(&d, "flood", kvr_clock_now_ns(), MAX_AGE_NS) < 0)
        _exit(1);
    for (uint64_t i = 0; i < 100 * 64; i++) {
        kvr_dsp_placement_t p = prefix_of(i, 1, 1);
        kvr_dsp_append(&d, &p);
    }
}

Test(dispatch, a_reader_lapped_by_a_runaway_writer_counts_the_loss_and_carries_on)
{
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&router_a, &cur);
    run_killed(child_floods_the_ring);
    kvr_dsp_placement_t got;
    unsigned n = 0;
    uint64_t now = kvr_clock_now_ns();
    while (kvr_dsp_ring_next(&router_a, &cur, now, &got) == 0)
        n++;
    cr_expect_eq(n, 64, "the ring's whole content is still read");
    cr_expect_eq(cur.lost, 100 * 64 - 64);
    cr_expect_eq(got.blocks[0], 100 * 64 - 1, "the newest entry last");
    /* And the next entry after the flood arrives as usual. */
    kvr_dsp_t b;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    kvr_dsp_placement_t p = prefix_of(5, 1, 2);
    cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), 0);
    cr_expect_eq(got.blocks[0], 5);
    kvr_dsp_close(&b);
}

static kvr_dsp_entry_t *entry_of(const kvr_dsp_t *d, uint64_t g)
{
    return (kvr_dsp_entry_t *)((char *)d->base + d->ring_offset +
                               (size_t)(g & (d->ring_capacity - 1)) * d->entry_size);
}

Test(dispatch, torn_and_never_completed_entries_are_counted_and_skipped)
{
    kvr_dsp_t b;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&router_a, &cur);
    kvr_dsp_placement_t p = prefix_of(1, 2, 3);
    cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    uint64_t torn_g = p.sequence;
    /* A scribble over a completed entry: its check no longer holds. */
    atomic_store(&entry_of(&b, torn_g)->words[8], 0xdeadbeef);
    /* A writer that took the next sequence and died before completing it. */
    uint64_t dead_g = atomic_fetch_add(&b.header->ring_head, 1);
    atomic_store(&entry_of(&b, dead_g)->seq, 2 * dead_g + 1);
    p = prefix_of(50, 1, 3);
    cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    kvr_dsp_placement_t got;
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), -EAGAIN,
                 "an entry being written is waited for");
    cr_expect_eq(cur.torn, 1);
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, now + KVR_DSP_PENDING_NS / 2, &got), -EAGAIN);
    cr_assert_eq(kvr_dsp_ring_next(&router_a, &cur, now + KVR_DSP_PENDING_NS + 1, &got), 0,
                 "but not forever");
    cr_expect_eq(got.blocks[0], 50);
    cr_expect_eq(cur.torn, 2);
    /* A writer lapping that dead slot two rounds later takes it back. */
    atomic_store(&b.header->ring_head, dead_g + 3 * b.ring_capacity);
    p = prefix_of(60, 1, 3);
    cr_expect_eq(kvr_dsp_append(&b, &p), 0);
    kvr_dsp_close(&b);
}

Test(dispatch, a_scribbled_ring_head_is_answered_not_followed)
{
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&router_a, &cur);
    cr_assert_geq(kvr_dsp_claim(&router_a, "a", kvr_clock_now_ns(), MAX_AGE_NS), 0);
    atomic_store(&router_a.header->ring_head, UINT64_MAX - 5);
    kvr_dsp_placement_t p = prefix_of(1, 1, 1), got;
    cr_expect_eq(kvr_dsp_append(&router_a, &p), KVR_EDSP_RING_BUSY);
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, kvr_clock_now_ns(), &got), -EAGAIN);
    /* Back from far ahead: the cursor follows the head down rather than waiting for it. */
    atomic_store(&router_a.header->ring_head, 1000);
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, kvr_clock_now_ns(), &got), -EAGAIN);
    cr_expect_gt(cur.lost, 0);
    atomic_store(&router_a.header->ring_head, 10);
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, kvr_clock_now_ns(), &got), -EAGAIN);
    cr_expect_eq(cur.next, 10);
}

Test(dispatch, an_entry_left_behind_by_half_a_ring_is_skipped_without_waiting)
{
    kvr_dsp_t b;
    cr_assert_eq(kvr_dsp_open(&b, seg_name, &SMALL, KVR_DSP_CREATE_WAIT_MS), 0);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&router_a, &cur);
    /* A sequence taken and never written (its writer dropped it), then a third of a ring... */
    atomic_fetch_add(&b.header->ring_head, 1);
    for (uint64_t i = 0; i < 20; i++) {
        kvr_dsp_placement_t p = prefix_of(100 + i, 1, 3);
        cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    }
    kvr_dsp_placement_t got;
    cr_expect_eq(kvr_dsp_ring_next(&router_a, &cur, now, &got), -EAGAIN, "a moment's wait for it");
    /* ...then more than half a ring behind it: readers stop waiting at once. */
    for (uint64_t i = 20; i < 40; i++) {
        kvr_dsp_placement_t p = prefix_of(100 + i, 1, 3);
        cr_assert_eq(kvr_dsp_append(&b, &p), 0);
    }
    unsigned n = 0;
    while (kvr_dsp_ring_next(&router_a, &cur, now, &got) == 0)
        n++;
    cr_expect_eq(n, 40);
    cr_expect_eq(cur.torn, 1);
    cr_expect_eq(cur.lost, 0);
    kvr_dsp_close(&b);
}

/* A fleet of 16,384 engines fits one row: published by one router, summed by another. */
Test(dispatch, a_row_holds_the_largest_fleet_a_router_can_have, .timeout = 30.)
{
    enum { N = KVR_DSP_MAX_ENGINES };
    cr_assert_geq(N, 16384);
    char big[64];
    kvr_test_unique_name(big, sizeof big, "/kvr-test-dsp-big");
    kvr_dsp_geometry_t geo = {2, N, 64};
    kvr_dsp_geometry_t over = {2, N + 1, 64};
    cr_expect_eq(kvr_dsp_size(&over), 0);
    kvr_dsp_t a, b;
    cr_expect_eq(kvr_dsp_open(&a, big, &over, KVR_DSP_CREATE_WAIT_MS), -EINVAL);
    cr_assert_eq(kvr_dsp_open(&a, big, &geo, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_assert_eq(kvr_dsp_open(&b, big, &geo, KVR_DSP_CREATE_WAIT_MS), 0);
    cr_expect_eq(b.engines_per_row, N);
    uint64_t now = kvr_clock_now_ns();
    cr_assert_geq(kvr_dsp_claim(&a, "a", now, MAX_AGE_NS), 0);
    cr_assert_geq(kvr_dsp_claim(&b, "b", now, MAX_AGE_NS), 0);
    uint64_t *keys = calloc(N, sizeof *keys);
    kvr_dsp_load_t *loads = calloc(N, sizeof *loads), *out = calloc(N, sizeof *out);
    cr_assert(keys && loads && out);
    for (uint32_t i = 0; i < N; i++) {
        keys[i] = 0x1000u + i;
        loads[i] = (kvr_dsp_load_t){i, 2ull * i, 3ull * i};
    }
    cr_assert_eq(kvr_dsp_publish(&a, keys, loads, N, now), 0);
    kvr_dsp_sum_stats_t st;
    kvr_dsp_sum_others(&b, now, MAX_AGE_NS, keys, N, out, &st);
    cr_expect_eq(st.live, 1);
    cr_expect_eq(st.bad, 0);
    cr_expect_eq(out[0].in_flight, 0);
    cr_expect_eq(out[N - 1].in_flight, N - 1);
    cr_expect_eq(out[N - 1].kv_tokens, 3ull * (N - 1));

    /* A header claiming more engines per row than the ABI allows is refused, whatever its size. */
    void *copy = NULL;
    cr_assert_eq(posix_memalign(&copy, 64, a.map_len), 0);
    memcpy(copy, a.base, a.map_len);
    ((kvr_dsp_header_t *)copy)->engines_per_row = N + 1;
    cr_expect_eq(kvr_dsp_validate(copy, a.map_len), KVR_EDSP_GEOMETRY);
    free(copy);
    free(keys);
    free(loads);
    free(out);
    kvr_dsp_close(&a);
    kvr_dsp_close(&b);
    kvr_dsp_unlink(big);
}
