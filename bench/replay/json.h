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

#endif
