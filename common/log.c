/* SPDX-License-Identifier: Apache-2.0 */
#include "common/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *log_program = "kvroute";
static kvr_log_level_t log_level = KVR_LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn", "error"};

void kvr_log_init(const char *program, kvr_log_level_t level)
{
    log_program = program;
    log_level = level;
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
    return level >= log_level;
}

void kvr_log(kvr_log_level_t level, const char *fmt, ...)
{
    if (level < log_level)
        return;
    char line[2048];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec, ts.tv_nsec / 1000000, log_program, level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    /* One write per line so lines from several processes sharing stderr never interleave. */
    fwrite(line, 1, len, stderr);
    fflush(stderr);
}
