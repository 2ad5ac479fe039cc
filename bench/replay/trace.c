/* SPDX-License-Identifier: Apache-2.0 */
#include "bench/replay/trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/replay/json.h"
#include "common/error.h"
#include "common/json_text.h"
#include "common/prefix_hash.h"
#include "common/rng.h"

/* cJSON's numbers are doubles, exact below 2^53 only: ids of 2^53 or more are refused, not rounded. */
static int parse_request(const cJSON *line, kvr_trace_request_t *r, const char **why)
{
    const cJSON *ts = kvr_rj_get(line, "timestamp");
    const cJSON *in = kvr_rj_get(line, "input_length");
    const cJSON *out = kvr_rj_get(line, "output_length");
    const cJSON *ids = kvr_rj_get(line, "hash_ids");
    const cJSON *session = kvr_rj_get(line, "session_id");
    const cJSON *turn = kvr_rj_get(line, "turn");
    double v;

    memset(r, 0, sizeof(*r));
    r->turn = -1;
    if (!cJSON_IsNumber(ts) || !(ts->valuedouble >= 0)) {
        *why = "timestamp missing or negative";
        return KVR_EPARSE;
    }
    if (!(ts->valuedouble < 18446744073709551616.0)) {
        *why = "timestamp out of range";
        return KVR_EPARSE;
    }
    r->timestamp_ms = (uint64_t)ts->valuedouble;
    if (cJSON_IsNumber(in) && in->valuedouble < 0) {
        *why = "input_length is negative";
        return KVR_EPARSE;
    }
    if (!kvr_rj_whole(in, 0, 1 << 24, &v)) {
        *why = "input_length missing or out of range";
        return KVR_EPARSE;
    }
    r->input_length = (uint32_t)v;
    if (cJSON_IsNumber(out) && out->valuedouble < 0) {
        *why = "output_length is negative";
        return KVR_EPARSE;
    }
    if (!kvr_rj_whole(out, 0, 1 << 24, &v)) {
        *why = "output_length missing or out of range";
        return KVR_EPARSE;
    }
    r->output_length = (uint32_t)v;
    if (ids && !cJSON_IsArray(ids)) {
        *why = "hash_ids is not an array";
        return KVR_EPARSE;
    }
    /* A turn that is not a whole number is ignored; a huge one wraps as an int64 would. */
    if (kvr_rj_whole(turn, -9.2e18, 9.2e18, &v))
        r->turn = (int32_t)(int64_t)v;
    /* Sessions may be named by strings or numbers in other generators' traces. */
    if (cJSON_IsString(session)) {
        if (!(r->session_id = strdup(session->valuestring)))
            return -ENOMEM;
    } else if (kvr_rj_whole(session, -9.2e18, 9.2e18, &v)) {
        if (v < -KVR_RJ_EXACT_MAX || v > KVR_RJ_EXACT_MAX) {
            *why = "session_id is a number of magnitude 2^53 or more (write it as a string)";
            return KVR_EPARSE;
        }
        char buf[32];
        snprintf(buf, sizeof(buf), "%lld", (long long)v);
        if (!(r->session_id = strdup(buf)))
            return -ENOMEM;
    }
    r->n_hash_ids = ids ? (size_t)cJSON_GetArraySize(ids) : 0;
    if (r->n_hash_ids) {
        r->hash_ids = malloc(r->n_hash_ids * sizeof(uint64_t));
        if (!r->hash_ids)
            return -ENOMEM;
        size_t i = 0;
        for (const cJSON *id = ids->child; id && i < r->n_hash_ids; id = id->next, i++) {
            if (!kvr_rj_whole(id, -KVR_RJ_EXACT_MAX, KVR_RJ_EXACT_MAX, &v)) {
                bool big = cJSON_IsNumber(id) && (id->valuedouble > KVR_RJ_EXACT_MAX ||
                                                  id->valuedouble < -KVR_RJ_EXACT_MAX);
                *why = big ? "hash_ids holds an id of magnitude 2^53 or more"
                           : "hash_ids holds a non-integer";
                return KVR_EPARSE;
            }
            r->hash_ids[i] = (uint64_t)(int64_t)v;
        }
    }
    return 0;
}

static void request_free(kvr_trace_request_t *r)
{
    free(r->session_id);
    free(r->hash_ids);
}

int kvr_trace_load(kvr_trace_t *trace, const char *path, char *errbuf, size_t errlen)
{
    kvr_trace_load_opts_t opts = {0};
    return kvr_trace_load_opts(trace, path, &opts, errbuf, errlen);
}

int kvr_trace_load_opts(kvr_trace_t *trace, const char *path, kvr_trace_load_opts_t *opts,
                        char *errbuf, size_t errlen)
{
    memset(trace, 0, sizeof(*trace));
    opts->skipped = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        int rc = -errno;
        snprintf(errbuf, errlen, "cannot open %s: %s", path, strerror(errno));
        return rc;
    }
    char *line = NULL;
    size_t line_cap = 0, cap = 0, lineno = 0;
    ssize_t n;
    int rc = 0;
    uint64_t last_ts = 0;
    while ((n = getline(&line, &line_cap, f)) != -1) {
        lineno++;
        size_t start = strspn(line, " \t\r\n");
        if (line[start] == '\0')
            continue;
        cJSON *obj = NULL;
        char why_not[64] = "";
        char bad[160] = "";
        const char *end = NULL;
        size_t bad_at = kvr_json_utf8_valid_prefix(line, (size_t)n);
        if (bad_at < (size_t)n)
            snprintf(why_not, sizeof(why_not), ": not UTF-8 at byte %zu", bad_at);
        else if (!(obj = cJSON_ParseWithLengthOpts(line, (size_t)n, &end, false)))
            snprintf(why_not, sizeof(why_not), ": invalid JSON at byte %td",
                     end && end >= line ? end - line : 0);
        else if (!kvr_rj_blank(end, line + n))
            snprintf(why_not, sizeof(why_not), ": data after the JSON value at byte %td",
                     end - line);
        if (!obj || why_not[0] || !cJSON_IsObject(obj)) {
            snprintf(bad, sizeof(bad), "not a JSON object%s", why_not);
            cJSON_Delete(obj);
            goto bad_line;
        }
        if (trace->len == cap) {
            size_t ncap = cap ? cap * 2 : 1024;
            kvr_trace_request_t *reqs = realloc(trace->requests, ncap * sizeof(*reqs));
            if (!reqs) {
                cJSON_Delete(obj);
                rc = -ENOMEM;
                snprintf(errbuf, errlen, "%s:%zu: out of memory", path, lineno);
                goto fail_line;
            }
            trace->requests = reqs;
            cap = ncap;
        }
        const char *why = "out of memory";
        kvr_trace_request_t *r = &trace->requests[trace->len];
        rc = parse_request(obj, r, &why);
        cJSON_Delete(obj);
        if (rc == 0 && opts->ordered && trace->len > 0 && r->timestamp_ms < last_ts) {
            snprintf(bad, sizeof(bad), "timestamp %llu goes backwards (the line before says %llu)",
                     (unsigned long long)r->timestamp_ms, (unsigned long long)last_ts);
            rc = KVR_EPARSE;
        }
        if (rc) {
            request_free(r);
            if (rc != KVR_EPARSE) {
                snprintf(errbuf, errlen, "%s:%zu: %s", path, lineno, why);
                goto fail_line;
            }
            if (!bad[0])
                snprintf(bad, sizeof(bad), "%s", why);
            goto bad_line;
        }
        last_ts = r->timestamp_ms;
        trace->len++;
        continue;

    bad_line:
        if (!opts->skip_bad) {
            snprintf(errbuf, errlen, "%s:%zu: %s", path, lineno, bad);
            rc = KVR_EPARSE;
            goto fail_line;
        }
        opts->skipped++;
        if (opts->report)
            fprintf(opts->report, "%s:%zu: %s (line skipped)\n", path, lineno, bad);
        rc = 0;
    }
    if (ferror(f)) {
        rc = -EIO;
        snprintf(errbuf, errlen, "reading %s failed", path);
        goto fail_line;
    }
    free(line);
    fclose(f);
    return 0;

fail_line:
    free(line);
    fclose(f);
    kvr_trace_free(trace);
    return rc;
}

void kvr_trace_free(kvr_trace_t *trace)
{
    for (size_t i = 0; i < trace->len; i++)
        request_free(&trace->requests[i]);
    free(trace->requests);
    memset(trace, 0, sizeof(*trace));
}

size_t kvr_trace_text_len(const kvr_trace_request_t *r)
{
    return (size_t)r->input_length * KVR_BYTES_PER_TOKEN;
}

void kvr_trace_text(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback_id,
                    char *out)
{
    kvr_trace_text_from(r, block_size, fallback_id, 0, out);
}

void kvr_trace_text_from(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback_id,
                         uint32_t first_token, char *out)
{
    _Static_assert(KVR_BYTES_PER_TOKEN == 4, "a token is written as three letters and a space");
    for (uint32_t t = first_token; t < r->input_length; t++) {
        size_t block = t / block_size;
        uint32_t pos = t % block_size;
        /* Blocks past the trace's ids are private to the request: a distinct
         * id space keyed by the request, never equal to a trace id's text. */
        uint64_t id = block < r->n_hash_ids
                          ? r->hash_ids[block]
                          : kvr_rng_mix64(fallback_id ^ 0x5eed5eed5eed5eedull) + block;
        uint64_t h = kvr_rng_mix64(id * 0x9e3779b97f4a7c15ull + pos + 1);
        char *w = out + (size_t)(t - first_token) * KVR_BYTES_PER_TOKEN;
        w[0] = (char)('a' + h % 26);
        w[1] = (char)('a' + (h >> 8) % 26);
        w[2] = (char)('a' + (h >> 16) % 26);
        w[3] = ' ';
    }
}
