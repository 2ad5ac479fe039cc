/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_REPLAY_JSON_H
#define KVR_BENCH_REPLAY_JSON_H

/*
 * Small cJSON helpers the replayer's trace reader, stream reader and record
 * writer share.
 */

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* 2^53 - 1: every whole number up to here is exact in a double (2^53 may be 2^53 + 1 rounded). */
#define KVR_RJ_EXACT_MAX 9007199254740991.0

/**
 * The member of object o named key, NULL when o is not an object or has
 * none. A key given twice means its last value, as most JSON readers do
 * (cJSON's own lookup returns the first).
 */
static inline const cJSON *kvr_rj_get(const cJSON *o, const char *key)
{
    const cJSON *found = NULL;
    if (!cJSON_IsObject(o))
        return NULL;
    for (const cJSON *m = o->child; m; m = m->next)
        if (m->string && strcmp(m->string, key) == 0)
            found = m;
    return found;
}

/** True when v is a whole number within [min, max]; its value in *out. */
static inline bool kvr_rj_whole(const cJSON *v, double min, double max, double *out)
{
    if (!cJSON_IsNumber(v))
        return false;
    double d = v->valuedouble;
    if (!(d >= min && d <= max) || d != (double)(long long)d)
        return false;
    *out = d;
    return true;
}

/** True when only JSON whitespace lies in [p, end). */
static inline bool kvr_rj_blank(const char *p, const char *end)
{
    for (; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    return true;
}

/** Length of the valid UTF-8 sequence at p (lead byte >= 0x80), 0 when it is not one. */
static inline size_t kvr_rj_utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/** Offset of the first byte of [s, s + len) that is not UTF-8, or len when all are. */
static inline size_t kvr_rj_utf8_check(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        size_t n = *p < 0x80 ? 1 : kvr_rj_utf8_len(p, end);
        if (n == 0)
            return (size_t)(p - (const unsigned char *)s);
        p += n;
    }
    return len;
}

#endif
