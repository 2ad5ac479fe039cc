/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_LOG_H
#define KVR_COMMON_LOG_H

/*
 * One line per event on stderr: wall time, program, level, message. Messages
 * are written as "event key=value ..." so logs can be grepped and parsed.
 *
 * Logging never blocks the caller: a line goes into a bounded in-memory ring
 * that a writer thread writes to stderr. When stderr does not keep up (a
 * pipe nobody reads) lines are dropped whole and counted, and the next line
 * written is preceded by "log_dropped lines=N why=stderr_full". Safe from
 * any thread.
 */
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    KVR_LOG_DEBUG = 0,
    KVR_LOG_INFO,
    KVR_LOG_WARN,
    KVR_LOG_ERROR,
} kvr_log_level_t;

/** Sets the program name shown on every line and the lowest level printed. */
void kvr_log_init(const char *program, kvr_log_level_t level);
/** Parses "debug", "info", "warn" or "error"; -EINVAL otherwise. */
int kvr_log_level_parse(const char *text, kvr_log_level_t *out);
/** Writes one line when level is at or above the configured level. */
void kvr_log(kvr_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** True when lines of this level are printed (skip building costly messages otherwise). */
int kvr_log_enabled(kvr_log_level_t level);

/** Waits up to timeout_ms until every line logged so far was written (runs at exit too); false on timeout. */
bool kvr_log_flush(unsigned timeout_ms);
/** Lines dropped since start because stderr did not keep up (for /metrics). */
uint64_t kvr_log_dropped_total(void);

#define KVR_DEBUG(...) kvr_log(KVR_LOG_DEBUG, __VA_ARGS__)
#define KVR_INFO(...) kvr_log(KVR_LOG_INFO, __VA_ARGS__)
#define KVR_WARN(...) kvr_log(KVR_LOG_WARN, __VA_ARGS__)
#define KVR_ERROR(...) kvr_log(KVR_LOG_ERROR, __VA_ARGS__)

#endif
