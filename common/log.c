/* SPDX-License-Identifier: Apache-2.0 */
#include "common/log.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Lines are formatted on the caller's thread into a bounded ring and written
 * to stderr by one writer thread, so a stalled reader of stderr (a pipe
 * nobody drains) never blocks the caller's event loop: when the ring is full
 * the line is dropped and counted, and the writer says how many were lost
 * at its next successful write ("log_dropped lines=N").
 */
#define LOG_RING_BYTES (64u * 1024u)
#define LOG_LINE_MAX 2048u
#define LOG_EXIT_FLUSH_MS 1000u

typedef struct log_state_s {
    const char *program;
    kvr_log_level_t level;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* the writer: bytes to write */
    pthread_cond_t idle; /* kvr_log_flush: everything was written */
    char ring[LOG_RING_BYTES];
    size_t head, used;       /* the bytes not written yet: [head, head + used) modulo the size */
    bool writing;            /* the writer is writing ring bytes outside the lock */
    pid_t writer_pid;        /* the process whose writer thread runs (0: none, or fork's child) */
    bool hooks;              /* atexit and atfork handlers registered */
    uint64_t dropped_total;  /* lines dropped since start */
    uint64_t dropped_unsaid; /* dropped since the last notice */
} log_state_t;

/* The process's one logger: every thread of every module writes through it. */
static log_state_t log_state = {
    .program = "kvroute",
    .level = KVR_LOG_INFO,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .idle = PTHREAD_COND_INITIALIZER,
};
static const char *const level_names[] = {"debug", "info", "warn", "error"};

void kvr_log_init(const char *program, kvr_log_level_t level)
{
    log_state.program = program;
    log_state.level = level;
}

int kvr_log_level_parse(const char *text, kvr_log_level_t *out)
{
    for (int i = 0; i <= KVR_LOG_ERROR; i++) {
        if (strcmp(text, level_names[i]) == 0) {
            *out = (kvr_log_level_t)i;
            return 0;
        }
    }
    return -EINVAL;
}

int kvr_log_enabled(kvr_log_level_t level)
{
    return level >= log_state.level;
}

/* Writes all of p to stderr, waiting as long as it takes (the writer thread only). */
static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd pfd = {.fd = STDERR_FILENO, .events = POLLOUT};
            (void)poll(&pfd, 1, -1); /* someone made stderr non-blocking */
        } else {
            return; /* closed or broken: these bytes are lost, the next ones are tried */
        }
    }
}

static void *writer_main(void *arg);

static void atfork_prepare(void)
{
    pthread_mutex_lock(&log_state.lock);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&log_state.lock);
}

/* The child has no writer thread, and the parent's unwritten lines are the parent's to write. */
static void atfork_child(void)
{
    log_state.writer_pid = 0;
    log_state.writing = false;
    log_state.head = 0;
    log_state.used = 0;
    pthread_mutex_unlock(&log_state.lock);
}

static void flush_at_exit(void)
{
    kvr_log_flush(LOG_EXIT_FLUSH_MS);
}

/* Under the lock: the writer thread of this process runs after this (false: none could start). */
static bool writer_ready_locked(log_state_t *s)
{
    pid_t self = getpid();
    if (s->writer_pid == self)
        return true;
    if (!s->hooks) {
        s->hooks = true;
        pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
        atexit(flush_at_exit);
    }
    /* Signals stay with the program's threads (statefeed reads them from a signalfd). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_t thread;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&thread, &attr, writer_main, s);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return false;
    s->writer_pid = self;
    return true;
}

/* "<time> <program> <level> " into out (at least 64 bytes); returns its length. */
static size_t format_prefix(char *out, size_t cap, kvr_log_level_t level)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s ", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     ts.tv_nsec / 1000000, log_state.program, level_names[level]);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static void ring_put_locked(log_state_t *s, const char *p, size_t n)
{
    size_t tail = (s->head + s->used) % LOG_RING_BYTES;
    size_t first = n < LOG_RING_BYTES - tail ? n : LOG_RING_BYTES - tail;
    memcpy(s->ring + tail, p, first);
    memcpy(s->ring, p + first, n - first);
    s->used += n;
}

/* The notice of the lines dropped since the last one, into out; returns its length. */
static size_t format_notice(const log_state_t *s, char *out, size_t cap)
{
    size_t n = format_prefix(out, cap, KVR_LOG_WARN);
    int m = snprintf(out + n, cap - n, "log_dropped lines=%llu why=stderr_full\n",
                     (unsigned long long)s->dropped_unsaid);
    return n + (m > 0 && (size_t)m < cap - n ? (size_t)m : 0);
}

/*
 * Appends line (len bytes, ending in '\n'), preceded by the notice of lines
 * dropped before it; drops and counts it when the ring has no room for both.
 */
static void ring_append_locked(log_state_t *s, const char *line, size_t len)
{
    char notice[160];
    size_t notice_len = s->dropped_unsaid ? format_notice(s, notice, sizeof notice) : 0;
    if (LOG_RING_BYTES - s->used < notice_len + len) {
        s->dropped_total++;
        s->dropped_unsaid++;
        return;
    }
    ring_put_locked(s, notice, notice_len);
    ring_put_locked(s, line, len);
    s->dropped_unsaid = 0;
    pthread_cond_signal(&s->wake);
}

static void *writer_main(void *arg)
{
    log_state_t *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        if (s->used == 0 && s->dropped_unsaid) {
            /* Everything before was written: the loss is said even when no line follows. */
            char notice[160];
            size_t n = format_notice(s, notice, sizeof notice);
            ring_put_locked(s, notice, n);
            s->dropped_unsaid = 0;
        }
        while (s->used == 0) {
            s->writing = false;
            pthread_cond_broadcast(&s->idle);
            pthread_cond_wait(&s->wake, &s->lock);
        }
        size_t n = s->used < LOG_RING_BYTES - s->head ? s->used : LOG_RING_BYTES - s->head;
        const char *p = s->ring + s->head;
        s->writing = true;
        pthread_mutex_unlock(&s->lock);
        write_all(p, n); /* callers append only after head + used: these bytes stay put */
        pthread_mutex_lock(&s->lock);
        s->head = (s->head + n) % LOG_RING_BYTES;
        s->used -= n;
    }
    return NULL;
}

void kvr_log(kvr_log_level_t level, const char *fmt, ...)
{
    if (level < log_state.level)
        return;
    char line[LOG_LINE_MAX];
    size_t n = format_prefix(line, sizeof line, level);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
    va_end(ap);
    size_t len = n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    log_state_t *s = &log_state;
    pthread_mutex_lock(&s->lock);
    if (writer_ready_locked(s)) {
        ring_append_locked(s, line, len);
    } else {
        /* No thread to hand it to: written here, once per line so processes sharing stderr never interleave. */
        write_all(line, len);
    }
    pthread_mutex_unlock(&s->lock);
}

bool kvr_log_flush(unsigned timeout_ms)
{
    log_state_t *s = &log_state;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->lock);
    bool done = true;
    while (s->writer_pid == getpid() && (s->used > 0 || s->writing)) {
        if (pthread_cond_timedwait(&s->idle, &s->lock, &deadline) == ETIMEDOUT) {
            done = s->used == 0 && !s->writing;
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return done;
}

uint64_t kvr_log_dropped_total(void)
{
    pthread_mutex_lock(&log_state.lock);
    uint64_t n = log_state.dropped_total;
    pthread_mutex_unlock(&log_state.lock);
    return n;
}
