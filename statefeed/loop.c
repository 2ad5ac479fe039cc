/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The io_uring loop: one ring carries the tick timer, every engine's socket
 * steps, push datagrams, relay streams, signals and the libuv backend fd of
 * the metrics endpoint. Nothing here blocks except the wait for completions.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "statefeed/feed.h"
#include "statefeed/kv_feed.h"

#define RING_ENTRIES 4096
#define BATCH_WAIT_NS 1000000      /* longest wait for more of a tick's answers */
#define BATCH_WINDOW_NS 5000000ull /* after a tick, answers are awaited in batches */
/*
 * A tick sends its requests, then every RECV_PHASE_NS takes the answers that
 * have arrived with receives that do not wait: each completes inside the
 * submission, where a waiting receive would arm a poll whose wakeup
 * interrupts the thread once per answer. After RECV_PHASE_ROUNDS the
 * stragglers get receives that wait. A sample's time is its poll's start,
 * so this adds at most one phase to the age a router reads.
 */
#define RECV_PHASE_NS 1000000ll
#define RECV_PHASE_ROUNDS 8u

static void arm_signal(kvr__feed_t *feed)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL)
        return;
    io_uring_prep_read(sqe, feed->signal_fd, feed->signal_buf, sizeof(struct signalfd_siginfo), 0);
    io_uring_sqe_set_data(sqe, &feed->signal_op);
}

static void arm_tick(kvr__feed_t *feed)
{
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL) {
        KVR_ERROR("tick_arm_failed reason=\"submission queue full\"");
        feed->stopping = true;
        return;
    }
    feed->tick_ts.tv_sec = (long long)(feed->next_tick_ns / KVR_NS_PER_SEC);
    feed->tick_ts.tv_nsec = (long long)(feed->next_tick_ns % KVR_NS_PER_SEC);
    /* Absolute deadlines on CLOCK_MONOTONIC: ticks do not drift with load. */
    io_uring_prep_timeout(sqe, &feed->tick_ts, 0, IORING_TIMEOUT_ABS);
    io_uring_sqe_set_data(sqe, &feed->tick_op);
}

static void arm_recv_phase(kvr__feed_t *feed)
{
    if (feed->recv_phase_armed || feed->polls_in_flight == 0)
        return;
    struct io_uring_sqe *sqe = kvr__ring_sqe(&feed->ring);
    if (sqe == NULL) {
        kvr__feed_engines_recv_phase(feed, false);
        return;
    }
    feed->recv_phase_ts.tv_sec = 0;
    feed->recv_phase_ts.tv_nsec = RECV_PHASE_NS;
    io_uring_prep_timeout(sqe, &feed->recv_phase_ts, 0, 0);
    io_uring_sqe_set_data(sqe, &feed->recv_phase_op);
    feed->recv_phase_armed = true;
}

/* Before the tick touches the mapping: a segment shrunk, overwritten or
 * unlinked by someone else is restored from the writer's own table. */
static void guard_segment(kvr__feed_t *feed)
{
    const char *what = NULL;
    int rc = kvr_shm_writer_check(&feed->shm, &what);
    if (rc > 0) {
        feed->segment_repairs++;
        KVR_WARN("shm_repaired name=%s what=\"%s\" generation=%llu", feed->cfg.shm_name, what,
                 (unsigned long long)kvr_shm_generation(&feed->shm));
    } else if (rc < 0 && rc != feed->segment_error) {
        char text[512];
        KVR_ERROR("shm_repair_failed name=%s reason=\"%s\"", feed->cfg.shm_name,
                  kvr_shm_explain(&feed->shm, rc, text, sizeof text));
    }
    feed->segment_error = rc < 0 ? rc : 0;
}

/* --cache-index-mb: the residency table beside the segment, one word per slot of it. */
static int open_residency(kvr__feed_t *feed)
{
    if (feed->cfg.cache_index_mb == 0)
        return 0;
    char name[300];
    int rc = kvr_residency_name(name, sizeof name, feed->cfg.shm_name);
    if (rc == 0)
        rc = kvr_residency_writer_open(&feed->residency, name, feed->cfg.cache_index_mb,
                                       feed->cfg.capacity);
    if (rc < 0) {
        KVR_ERROR("residency_create_failed name=%s mb=%u reason=\"%s\"", name,
                  feed->cfg.cache_index_mb, kvr_strerror(rc));
        return rc;
    }
    feed->residency_on = true;
    kvr_res_stats_t st;
    kvr_residency_writer_stats(&feed->residency, &st);
    KVR_INFO("residency_created name=%s mb=%u engines=%u capacity_entries=%llu", name,
             feed->cfg.cache_index_mb, feed->cfg.capacity, (unsigned long long)st.capacity_entries);
    return 0;
}

/* KV events reach the residency table through these; tiers are numbered alike in both. */
static void residency_stored(void *ctx, uint32_t slot, uint64_t hash, kvr_kv_tier_t tier)
{
    kvr__feed_t *feed = ctx;
    (void)kvr_residency_stored(&feed->residency, slot, hash,
                               (uint32_t)tier); /* full: counted there */
}

static void residency_removed(void *ctx, uint32_t slot, uint64_t hash, kvr_kv_tier_t tier)
{
    kvr__feed_t *feed = ctx;
    (void)kvr_residency_removed(&feed->residency, slot, hash, (uint32_t)tier);
}

static void residency_cleared(void *ctx, uint32_t slot)
{
    kvr__feed_t *feed = ctx;
    (void)kvr_residency_cleared(&feed->residency, slot);
}

static void residency_trust(void *ctx, uint32_t slot, bool trusted)
{
    kvr__feed_t *feed = ctx;
    (void)kvr_residency_trust(&feed->residency, slot, trusted);
}

static int start_kv_events(kvr__feed_t *feed)
{
    kvr_kv_sink_t sink = {.ctx = feed,
                          .stored = residency_stored,
                          .removed = residency_removed,
                          .cleared = residency_cleared,
                          .trust = residency_trust};
    return kvr__feed_kv_start(feed, feed->residency_on ? &sink : NULL);
}

static void on_tick(kvr__feed_t *feed)
{
    uint64_t now = kvr_clock_now_ns();
    uint64_t lag = kvr_clock_age_ns(now, feed->next_tick_ns);
    feed->last_tick_ns = now;
    kvr__feed_histogram_add(feed->tick_lag_buckets, lag);
    feed->tick_lag_sum_ns += lag;
    feed->tick_lag_count++;
    feed->ticks++;

    guard_segment(feed);
    kvr_shm_heartbeat(&feed->shm, now);
    if (feed->residency_on) /* heartbeat, and cleared engines' entries reclaimed a little at a time */
        kvr_residency_writer_tick(&feed->residency, now, 4096);
    if (feed->reload_pending) {
        feed->reload_pending = false;
        kvr__feed_engines_reload(feed);
    }
    kvr__feed_discovery_tick(feed);
    kvr__feed_engines_tick(feed, now);
    feed->recv_phase_round = 0;
    arm_recv_phase(feed);
    kvr__feed_relay_tick(feed, now);
    kvr__feed_kv_tick(feed, now);
    kvr__feed_metrics_tick(feed);
    kvr__feed_engines_reap(feed);

    feed->next_tick_ns += feed->cfg.period_ns;
    if (feed->next_tick_ns <= now) /* fell behind by a whole period: skip, do not burst */
        feed->next_tick_ns = now + feed->cfg.period_ns;
    arm_tick(feed);
}

static void on_signal(kvr__feed_t *feed, int res)
{
    if (res == (int)sizeof(struct signalfd_siginfo)) {
        struct signalfd_siginfo si;
        memcpy(&si, feed->signal_buf, sizeof(si));
        if (si.ssi_signo == SIGHUP) {
            KVR_INFO("signal name=SIGHUP action=reload");
            feed->reload_pending = true;
        } else {
            KVR_INFO("signal name=%s action=stop", si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM");
            feed->stopping = true;
            return;
        }
    }
    arm_signal(feed);
}

static void dispatch(kvr__feed_t *feed, struct io_uring_cqe *cqe)
{
    kvr__op_t *op = io_uring_cqe_get_data(cqe);
    if (op == NULL)
        return; /* a link timeout's own completion */
    switch (op->kind) {
    case KVR_OP_TICK: on_tick(feed); return;
    case KVR_OP_SIGNAL: on_signal(feed, cqe->res); return;
    case KVR_OP_RECV_PHASE:
        feed->recv_phase_armed = false;
        kvr__feed_engines_recv_phase(feed, ++feed->recv_phase_round < RECV_PHASE_ROUNDS);
        return;
    case KVR_OP_HTTP:
        kvr__http_client_on_cqe(op->owner, &feed->ring, cqe->res);
        if (((kvr__http_client_conn_t *)op->owner)->stage == KVR_HTTP_SENT)
            arm_recv_phase(feed); /* probed too early: again next phase */
        return;
    case KVR_OP_HTTP_SEND: kvr__http_client_on_send_cqe(op->owner, cqe->res); return;
    case KVR_OP_PUSH: kvr__feed_push_on_cqe(feed, op->owner, cqe->res); return;
    case KVR_OP_UV_POLL: kvr__feed_metrics_on_cqe(feed, cqe->res); return;
    case KVR_OP_EXPORT_ACCEPT:
    case KVR_OP_EXPORT_SEND:
    case KVR_OP_EXPORT_HELLO:
    case KVR_OP_IMPORT: kvr__feed_relay_on_cqe(feed, op, cqe->res); return;
    }
}

int kvr__feed_open(kvr__feed_t *feed)
{
    int rc;
    feed->signal_fd = -1;
    feed->push_unix.fd = feed->push_udp.fd = -1;
    feed->tick_op.kind = KVR_OP_TICK;
    feed->signal_op.kind = KVR_OP_SIGNAL;
    feed->recv_phase_op.kind = KVR_OP_RECV_PHASE;

    rc = io_uring_queue_init(RING_ENTRIES, &feed->ring, 0);
    if (rc == -ENOSYS || rc == -EPERM) {
        /* What a container's default seccomp profile (or kernel.io_uring_disabled) answers. */
        KVR_ERROR("ring_init_failed reason=\"%s\" hint=\"io_uring_setup was refused: the daemon's "
                  "loop is io_uring, which a seccomp profile blocks (container runtimes' defaults "
                  "do) or the kernel has off (sysctl kernel.io_uring_disabled). Run it with "
                  "deploy/seccomp/kvroute-statefeed.json, the default profile plus "
                  "io_uring_setup, io_uring_enter and io_uring_register (deploy/README.md)\"",
                  kvr_strerror(rc));
        return rc;
    }
    if (rc < 0) {
        KVR_ERROR("ring_init_failed reason=\"%s\"", kvr_strerror(rc));
        return rc;
    }
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    signal(SIGPIPE, SIG_IGN);
    feed->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC);
    if (feed->signal_fd < 0) {
        rc = -errno;
        goto fail_ring;
    }
    rc = kvr_shm_create(&feed->shm, feed->cfg.shm_name, feed->cfg.capacity);
    if (rc < 0) {
        char text[512];
        KVR_ERROR("shm_create_failed name=%s reason=\"%s\"", feed->cfg.shm_name,
                  kvr_shm_explain(&feed->shm, rc, text, sizeof text));
        goto fail_signal;
    }
    rc = open_residency(feed);
    if (rc == 0)
        rc = start_kv_events(feed);
    if (rc < 0)
        goto fail_shm;
    for (unsigned i = 0; i < feed->cfg.engine_count; i++) {
        const kvr__feed_engine_spec_t *s = &feed->cfg.engines[i];
        rc = kvr__feed_engine_add(feed, s->url, s->kind, s->from_file);
        if (rc < 0)
            goto fail_shm;
        rc = kvr__feed_kv_attach(feed, kvr__feed_engine_find(feed, s->url), s);
        if (rc < 0)
            goto fail_engines;
    }
    rc = kvr__feed_push_start(feed);
    if (rc < 0)
        goto fail_engines;
    rc = kvr__feed_relay_start(feed);
    if (rc < 0)
        goto fail_push;
    rc = kvr__feed_metrics_start(feed);
    if (rc < 0)
        goto fail_relay;
    rc = kvr__feed_discovery_start(feed);
    if (rc < 0)
        goto fail_metrics;
    rc = kvr__feed_peers_start(feed);
    if (rc < 0) {
        kvr__feed_peers_stop(feed);
        kvr__feed_discovery_stop(feed);
        kvr__feed_peers_free(feed);
        goto fail_metrics;
    }
    KVR_INFO("statefeed_started shm=%s capacity=%u engines=%u period_ms=%llu timeout_ms=%llu "
             "fail_threshold=%u",
             feed->cfg.shm_name, feed->cfg.capacity, feed->engine_count,
             (unsigned long long)(feed->cfg.period_ns / KVR_NS_PER_MS),
             (unsigned long long)(feed->cfg.timeout_ns / KVR_NS_PER_MS), feed->cfg.fail_threshold);
    return 0;

fail_metrics:
    kvr__feed_metrics_stop(feed);
fail_relay:
    kvr__feed_relay_stop(feed);
fail_push:
    kvr__feed_push_stop(feed);
fail_engines:
    for (unsigned i = 0; i < feed->engine_count; i++)
        feed->engines[i]->removed = true;
fail_shm:
    kvr__feed_engines_reap(feed);
    kvr__feed_kv_stop(feed);
    free(feed->engines);
    feed->engines = NULL;
    kvr_shm_mark_writer_stopped(&feed->shm);
    kvr_shm_close(&feed->shm);
    if (feed->residency_on)
        kvr_residency_writer_destroy(&feed->residency);
    feed->residency_on = false;
fail_signal:
    close(feed->signal_fd);
fail_ring:
    io_uring_queue_exit(&feed->ring);
    return rc;
}

int kvr__feed_run(kvr__feed_t *feed)
{
    feed->next_tick_ns = kvr_clock_now_ns();
    arm_signal(feed);
    on_tick(feed); /* the first tick at once: a fresh segment gets samples without waiting */
    while (!feed->stopping) {
        int rc;
        /* Only right after a tick: a stalled poll must not turn the wait into a 1 ms spin. */
        if (feed->polls_in_flight > 1 && !feed->recv_phase_armed &&
            kvr_clock_now_ns() - feed->last_tick_ns < BATCH_WINDOW_NS) {
            /*
             * A tick's answers arrive within a millisecond or so of each
             * other. Waking once for the batch instead of once per answer
             * halves the daemon's CPU at 64 engines; a sample's time is its
             * poll's start, so publishing it up to BATCH_WAIT_NS later adds
             * that much to what a router reads, no more.
             */
            struct __kernel_timespec ts = {.tv_sec = 0, .tv_nsec = BATCH_WAIT_NS};
            struct io_uring_cqe *first;
            rc = io_uring_submit_and_wait_timeout(&feed->ring, &first, feed->polls_in_flight, &ts,
                                                  NULL);
        } else {
            rc = io_uring_submit_and_wait(&feed->ring, 1);
        }
        if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EBUSY) {
            KVR_ERROR("ring_wait_failed reason=\"%s\"", kvr_strerror(rc));
            return rc;
        }
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe (&feed->ring, head, cqe) {
            dispatch(feed, cqe);
            seen++;
        }
        io_uring_cq_advance(&feed->ring, seen);
    }
    return 0;
}

void kvr__feed_close(kvr__feed_t *feed)
{
    /* Readers must learn at once that these slots are history, and so are the blocks. */
    kvr_shm_mark_writer_stopped(&feed->shm);
    if (feed->residency_on)
        kvr_residency_writer_mark_stopped(&feed->residency);
    /* Exiting the ring cancels every operation still in flight, so the
     * buffers they point into can go afterwards. */
    io_uring_queue_exit(&feed->ring);
    kvr__feed_peers_stop(feed);
    kvr__feed_discovery_stop(feed); /* its loop finishes the stopped peer watches too */
    kvr__feed_peers_free(feed);
    kvr__feed_metrics_stop(feed);
    kvr__feed_relay_stop(feed);
    kvr__feed_push_stop(feed);
    kvr__feed_kv_stop(feed);
    for (unsigned i = 0; i < feed->engine_count; i++)
        kvr__feed_engine_free(feed->engines[i]);
    free(feed->engines);
    feed->engines = NULL;
    feed->engine_count = 0;
    kvr_shm_close(&feed->shm);
    /*
     * Unlike the segment, the table goes: it may be gigabytes of tmpfs, and the next
     * statefeed builds a new one (new seed, every engine untrusted) rather than reading it.
     * A router that has it mapped reads the writer stopped and uses its own index.
     */
    if (feed->residency_on)
        kvr_residency_writer_destroy(&feed->residency);
    feed->residency_on = false;
    if (feed->signal_fd >= 0)
        close(feed->signal_fd);
    KVR_INFO("statefeed_stopped shm=%s", feed->cfg.shm_name);
}
