/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --cache-index-mb: kvroute-statefeed creates the residency table beside its
 * segment, sized by the flag and with one engine word per slot, keeps its
 * heartbeat, reports its counters on /metrics, tells readers it stopped and
 * removes the table when it exits. Without the flag there is no table.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/residency.h"
#include "tests/statefeed/feed_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

#define WAIT_MS 10000

typedef struct {
    kvr_residency_reader_t *r;
    uint64_t after_ns;
} beat_t;

/* The writer's tick stored a heartbeat later than the one the reader first saw. */
static bool heartbeat_moved(void *p)
{
    beat_t *b = p;
    return atomic_load(&b->r->header->heartbeat_ns) > b->after_ns;
}

Test(feed_residency, cache_index_mb_creates_the_table_and_its_metrics, .timeout = 30.)
{
    kvr_fake_fleet_t *fleet = kvr_fake_start(1);
    char url[64];
    feed_url(url, sizeof url, kvr_fake_port(fleet, 0));
    uint16_t port = kvr_test_free_port();
    char listen[32];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", port);
    feed_proc_t f;
    const char *args[] = {"--engine", url, "--cache-index-mb", "2", "--capacity", "32", "--listen",
                          listen,     NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    char name[300];
    cr_assert_eq(kvr_residency_name(name, sizeof name, f.shm_name), 0);
    kvr_residency_reader_t r;
    cr_assert_eq(kvr_residency_reader_open(&r, name, geteuid()), 0, "no table at %s", name);
    cr_expect_eq(r.engines, 32, "one engine word per segment slot");
    cr_expect_leq(r.need_len, 2u << 20);
    cr_expect_gt(r.need_len, 1u << 20);
    cr_expect_eq(kvr_residency_reader_check(&r, kvr_clock_now_ns(), 2 * KVR_NS_PER_SEC), 0);
    cr_expect(!kvr_residency_reader_trusted(&r, 0), "an engine starts untrusted");
    beat_t b = {&r, atomic_load(&r.header->heartbeat_ns)};
    cr_expect(kvr_test_wait_until(heartbeat_moved, &b, WAIT_MS), "no heartbeat from the ticks");

    cr_assert(kvr_test_wait_port(port, WAIT_MS));
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(port, "GET", "/metrics", NULL, NULL, &resp, WAIT_MS), 200);
    cr_expect_not_null(strstr(resp, "\nkvroute_statefeed_residency_blocks 0\n"));
    cr_expect_not_null(strstr(resp, "\nkvroute_statefeed_residency_full_refusals_total 0\n"));
    cr_expect_not_null(strstr(resp, "\nkvroute_statefeed_residency_clears_total 0\n"));
    cr_expect_not_null(strstr(resp, "\nkvroute_statefeed_residency_capacity_blocks "));
    free(resp);

    feed_stop(&f);
    cr_expect_eq(kvr_residency_reader_check(&r, kvr_clock_now_ns(), 2 * KVR_NS_PER_SEC),
                 KVR_ESHM_WRITER_GONE, "a stopped statefeed's table reads as gone");
    kvr_residency_reader_close(&r);
    kvr_residency_reader_t again;
    int rc = kvr_residency_reader_open(&again, name, geteuid());
    cr_expect_eq(rc, -ENOENT, "statefeed left its table in /dev/shm on exit (%s)",
                 kvr_strerror(rc));
    if (rc == 0)
        kvr_residency_reader_close(&again);
    shm_unlink(name);
    kvr_fake_stop(fleet);
}

Test(feed_residency, no_table_without_the_flag, .timeout = 30.)
{
    kvr_fake_fleet_t *fleet = kvr_fake_start(1);
    char url[64];
    feed_url(url, sizeof url, kvr_fake_port(fleet, 0));
    feed_proc_t f;
    const char *args[] = {"--engine", url, NULL};
    cr_assert(feed_start(&f, args), "statefeed did not start; log in %s", f.log_path);
    char name[300];
    cr_assert_eq(kvr_residency_name(name, sizeof name, f.shm_name), 0);
    kvr_residency_reader_t r;
    cr_expect_eq(kvr_residency_reader_open(&r, name, geteuid()), -ENOENT);
    feed_stop(&f);
    kvr_fake_stop(fleet);
}
