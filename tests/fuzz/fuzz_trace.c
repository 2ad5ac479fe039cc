/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A trace file, as kvroute-replay and kvroute-fleetsim load it: fatal mode
 * fails with a line number or loads every line; skip mode always loads and
 * accounts for every line it dropped; an ordered load never goes back in
 * time; every loaded request's numbers are within the documented bounds.
 * The input reaches the loader through an anonymous memory file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/replay/trace.h"
#include "common/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n + (size && data[size - 1] != '\n');
}

static void check(const kvr_trace_t *t, bool ordered)
{
    for (size_t i = 0; i < t->len; i++) {
        const kvr_trace_request_t *r = &t->requests[i];
        if (r->input_length > (1u << 24) || r->output_length > (1u << 24) ||
            (r->n_hash_ids && !r->hash_ids))
            abort();
        if (ordered && i && r->timestamp_ms < t->requests[i - 1].timestamp_ms)
            abort();
        if (r->input_length <= 256) {
            char text[1024];
            kvr_trace_text(r, 16, i, text);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-trace", 0);
    if (fd < 0)
        abort();
    if (size && write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    size_t lines = count_lines(data, size);

    kvr_trace_t t;
    char err[512] = "";
    kvr_trace_load_opts_t fatal = {.ordered = true};
    int rc = kvr_trace_load_opts(&t, path, &fatal, err, sizeof err);
    if (rc == 0) {
        check(&t, true);
        if (t.len > lines || fatal.skipped)
            abort();
        kvr_trace_free(&t);
    } else if (rc != KVR_EPARSE && rc != -ENOMEM) {
        abort();
    } else if (rc == KVR_EPARSE && !strstr(err, ":")) {
        abort(); /* a refusal names its line */
    }

    kvr_trace_load_opts_t skip = {.skip_bad = true};
    rc = kvr_trace_load_opts(&t, path, &skip, err, sizeof err);
    if (rc == 0) {
        check(&t, false);
        if (t.len + skip.skipped > lines)
            abort();
        kvr_trace_free(&t);
    } else if (rc != -ENOMEM) {
        abort(); /* skip mode only fails when memory does */
    }
    close(fd);
    return 0;
}
