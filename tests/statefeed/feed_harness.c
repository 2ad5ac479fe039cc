/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/statefeed/feed_harness.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "tests/support/proc.h"

void feed_url(char *out, size_t cap, uint16_t port)
{
    snprintf(out, cap, "http://127.0.0.1:%u", port);
}

/* How long the daemon may take to start on a loaded machine before a test gives up. */
#define FEED_START_MS 10000

/* Condition for kvr_test_wait_until: the segment opens (or the daemon died). */
static bool segment_opened(void *arg)
{
    feed_proc_t *f = arg;
    if (kvr_shm_open(&f->shm, f->shm_name) == 0) {
        f->shm_open = true;
        return true;
    }
    return !kvr_test_alive(f->pid);
}

static bool started(void *arg)
{
    feed_proc_t *f = arg;
    return kvr_test_file_contains(f->log_path, "statefeed_started") || !kvr_test_alive(f->pid);
}

bool feed_start(feed_proc_t *f, const char *const *extra)
{
    return feed_start_wrapped(f, NULL, 0, extra);
}

bool feed_start_wrapped(feed_proc_t *f, const char *const *wrap, size_t n_wrap,
                        const char *const *extra)
{
    memset(f, 0, sizeof(*f));
    char base[64];
    kvr_test_unique_name(base, sizeof(base), "kvr-feedtest");
    snprintf(f->shm_name, sizeof(f->shm_name), "/%s", base);
    snprintf(f->log_path, sizeof(f->log_path), "%s/%s.log",
             getenv("KVR_BUILD_DIR") ? getenv("KVR_BUILD_DIR") : "/tmp", base);
    const char *argv[FEED_MAX_ARGS];
    int n = 0;
    for (size_t i = 0; i < n_wrap && n < FEED_MAX_ARGS / 2; i++)
        argv[n++] = wrap[i];
    argv[n++] = kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED");
    bool has_shm = false, has_period = false, has_log_level = false;
    for (int i = 0; extra[i] != NULL && n < FEED_MAX_ARGS - 6; i++) {
        has_shm |= strcmp(extra[i], "--shm") == 0;
        has_log_level |= strcmp(extra[i], "--log-level") == 0;
        has_period |= strcmp(extra[i], "--period-ms") == 0;
        argv[n++] = extra[i];
    }
    if (has_shm) {
        for (int i = 0; extra[i] != NULL; i++)
            if (strcmp(extra[i], "--shm") == 0)
                snprintf(f->shm_name, sizeof(f->shm_name), "%s", extra[i + 1]);
    } else {
        argv[n++] = "--shm";
        argv[n++] = f->shm_name;
    }
    if (!has_period) {
        argv[n++] = "--period-ms";
        argv[n++] = "50";
    }
    argv[n] = NULL;
    f->pid = kvr_test_spawn((char *const *)argv, f->log_path);
    if (f->pid <= 0)
        return false;
    if (!kvr_test_wait_until(segment_opened, f, FEED_START_MS) || !f->shm_open)
        return false;
    /* The segment exists before the push socket, the relay and --listen
     * are up; statefeed_started says all of them are. */
    if (has_log_level)
        return true;
    return kvr_test_wait_until(started, f, FEED_START_MS) && kvr_test_alive(f->pid);
}

int feed_stop(feed_proc_t *f)
{
    int status = -1;
    if (f->pid > 0)
        status = kvr_test_stop(f->pid, SIGTERM, 3000);
    f->pid = 0;
    if (f->shm_open)
        kvr_shm_close(&f->shm);
    f->shm_open = false;
    kvr_shm_unlink(f->shm_name);
    return status;
}

bool feed_read(feed_proc_t *f, const char *engine_id, kvr_engine_state_t *out, uint64_t *age_ns)
{
    int idx = kvr_shm_find(&f->shm, engine_id);
    if (idx < 0)
        return false;
    uint64_t age = 0;
    if (kvr_shm_read_slot(&f->shm, (uint32_t)idx, kvr_clock_now_ns(), out, &age) != 0)
        return false;
    if (age_ns != NULL)
        *age_ns = age;
    return true;
}

bool feed_wait(feed_proc_t *f, const char *engine_id,
               bool (*pred)(const kvr_engine_state_t *, void *), void *arg, unsigned timeout_ms,
               kvr_engine_state_t *out)
{
    kvr_engine_state_t s;
    for (unsigned waited = 0; waited <= timeout_ms; waited += 5) {
        if (feed_read(f, engine_id, &s, NULL) && pred(&s, arg)) {
            if (out != NULL)
                *out = s;
            return true;
        }
        kvr_test_sleep_ms(5);
    }
    return false;
}

bool feed_pred_healthy(const kvr_engine_state_t *s, void *arg)
{
    (void)arg;
    return (s->flags & KVR_SLOT_HEALTHY) != 0 && s->sample_time_ns != 0;
}

bool feed_pred_unhealthy(const kvr_engine_state_t *s, void *arg)
{
    (void)arg;
    return (s->flags & KVR_SLOT_HEALTHY) == 0;
}

bool feed_pred_running(const kvr_engine_state_t *s, void *arg)
{
    return (s->flags & KVR_SLOT_HEALTHY) && s->running == *(const uint32_t *)arg;
}
