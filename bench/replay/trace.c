/* SPDX-License-Identifier: Apache-2.0 */
#include "bench/replay/trace.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/prefix_hash.h"

static int parse_request(json_t *line, kvr_trace_request_t *r, const char **why)
{
    json_t *ts = json_object_get(line, "timestamp");
    json_t *in = json_object_get(line, "input_length");
    json_t *out = json_object_get(line, "output_length");
    json_t *ids = json_object_get(line, "hash_ids");
    json_t *session = json_object_get(line, "session_id");
    json_t *turn = json_object_get(line, "turn");

    memset(r, 0, sizeof(*r));
    r->turn = -1;
    if (!json_is_number(ts) || json_number_value(ts) < 0) {
        *why = "timestamp missing or negative";
        return KVR_EPARSE;
    }
    r->timestamp_ms = (uint64_t)json_number_value(ts);
    if (!json_is_integer(in) || json_integer_value(in) < 0 || json_integer_value(in) > (1 << 24)) {
        *why = "input_length missing or out of range";
        return KVR_EPARSE;
    }
    r->input_length = (uint32_t)json_integer_value(in);
    if (!json_is_integer(out) || json_integer_value(out) < 0 || json_integer_value(out) > (1 << 24)) {
        *why = "output_length missing or out of range";
        return KVR_EPARSE;
    }
    r->output_length = (uint32_t)json_integer_value(out);
    if (ids && !json_is_array(ids)) {
        *why = "hash_ids is not an array";
        return KVR_EPARSE;
    }
    if (turn && json_is_integer(turn))
        r->turn = (int32_t)json_integer_value(turn);
    /* Sessions may be named by strings or numbers in other generators' traces. */
    if (json_is_string(session)) {
        r->session_id = strdup(json_string_value(session));
    } else if (json_is_integer(session)) {
        char buf[32];
        snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(session));
        r->session_id = strdup(buf);
    }
    if ((json_is_string(session) || json_is_integer(session)) && !r->session_id)
        return -ENOMEM;
    r->n_hash_ids = ids ? json_array_size(ids) : 0;
    if (r->n_hash_ids) {
        r->hash_ids = malloc(r->n_hash_ids * sizeof(uint64_t));
        if (!r->hash_ids)
            return -ENOMEM;
        for (size_t i = 0; i < r->n_hash_ids; i++) {
            json_t *id = json_array_get(ids, i);
            if (!json_is_integer(id)) {
                *why = "hash_ids holds a non-integer";
                return KVR_EPARSE;
            }
            r->hash_ids[i] = (uint64_t)json_integer_value(id);
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
    memset(trace, 0, sizeof(*trace));
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
    while ((n = getline(&line, &line_cap, f)) != -1) {
        lineno++;
        size_t start = strspn(line, " \t\r\n");
        if (line[start] == '\0')
            continue;
        json_error_t jerr;
        json_t *obj = json_loadb(line, (size_t)n, 0, &jerr);
        if (!obj || !json_is_object(obj)) {
            snprintf(errbuf, errlen, "%s:%zu: not a JSON object%s%s", path, lineno, obj ? "" : ": ",
                     obj ? "" : jerr.text);
            json_decref(obj);
            rc = KVR_EPARSE;
            goto fail_line;
        }
        if (trace->len == cap) {
            size_t ncap = cap ? cap * 2 : 1024;
            kvr_trace_request_t *reqs = realloc(trace->requests, ncap * sizeof(*reqs));
            if (!reqs) {
                json_decref(obj);
                rc = -ENOMEM;
                goto fail_line;
            }
            trace->requests = reqs;
            cap = ncap;
        }
        const char *why = "out of memory";
        rc = parse_request(obj, &trace->requests[trace->len], &why);
        json_decref(obj);
        if (rc) {
            request_free(&trace->requests[trace->len]);
            snprintf(errbuf, errlen, "%s:%zu: %s", path, lineno, why);
            goto fail_line;
        }
        trace->len++;
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

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t kvr_trace_text_len(const kvr_trace_request_t *r)
{
    return (size_t)r->input_length * KVR_BYTES_PER_TOKEN;
}

void kvr_trace_text(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback_id,
                    char *out)
{
    _Static_assert(KVR_BYTES_PER_TOKEN == 4, "a token is written as three letters and a space");
    for (uint32_t t = 0; t < r->input_length; t++) {
        size_t block = t / block_size;
        uint32_t pos = t % block_size;
        /* Blocks past the trace's ids are private to the request: a distinct
         * id space keyed by the request, never equal to a trace id's text. */
        uint64_t id = block < r->n_hash_ids ? r->hash_ids[block]
                                            : mix64(fallback_id ^ 0x5eed5eed5eed5eedull) + block;
        uint64_t h = mix64(id * 0x9e3779b97f4a7c15ull + pos + 1);
        char *w = out + (size_t)t * KVR_BYTES_PER_TOKEN;
        w[0] = (char)('a' + h % 26);
        w[1] = (char)('a' + (h >> 8) % 26);
        w[2] = (char)('a' + (h >> 16) % 26);
        w[3] = ' ';
    }
}
