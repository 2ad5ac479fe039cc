/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_STATEFEED_FEED_HARNESS_H
#define KVR_TESTS_STATEFEED_FEED_HARNESS_H

/*
 * Running kvroute-statefeed in tests: start it on a unique segment name,
 * read its slots like a router does, stop it and remove what it left.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_layout/shm_layout.h"

#define FEED_MAX_ARGS 48

typedef struct feed_proc_s {
    pid_t pid;
    char shm_name[96];
    char log_path[160];
    kvr_shm_t shm;
    bool shm_open;
} feed_proc_t;

/**
 * Starts kvroute-statefeed with extra (NULL-terminated) flags plus --shm and
 * --period-ms 50 unless given, and waits until its segment opens and it logged
 * statefeed_started (push socket, relay and --listen up; not with --log-level).
 */
bool feed_start(feed_proc_t *f, const char *const *extra);
/** feed_start with the program run by the n_wrap arguments of wrap (a namespace wrapper). */
bool feed_start_wrapped(feed_proc_t *f, const char *const *wrap, size_t n_wrap,
                        const char *const *extra);
/** SIGTERM, reap, unmap, unlink. Returns the wait status. */
int feed_stop(feed_proc_t *f);
/** Reads engine id's slot now; false when absent or unreadable. */
bool feed_read(feed_proc_t *f, const char *engine_id, kvr_engine_state_t *out, uint64_t *age_ns);
/** Waits until the slot of engine_id satisfies pred; false after timeout_ms. */
bool feed_wait(feed_proc_t *f, const char *engine_id,
               bool (*pred)(const kvr_engine_state_t *, void *), void *arg, unsigned timeout_ms,
               kvr_engine_state_t *out);
/** Predicates for feed_wait. */
bool feed_pred_healthy(const kvr_engine_state_t *s, void *arg);
bool feed_pred_unhealthy(const kvr_engine_state_t *s, void *arg);
bool feed_pred_running(const kvr_engine_state_t *s, void *arg); /* arg: uint32_t* */
/** "http://127.0.0.1:PORT" into out. */
void feed_url(char *out, size_t cap, uint16_t port);

#endif
