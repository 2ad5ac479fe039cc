/* SPDX-License-Identifier: Apache-2.0 */
#include "router/fetch.h"

#include <errno.h>
#include <stdlib.h>

#include "common/buf.h"
#include "common/xmalloc.h"

struct kvr_fetch_s {
    kvr_upstream_t *up;
    kvr_fetch_cb cb;
    void *arg;
    int status;
    kvr_buf_t body;
    size_t max;
    bool too_big;
};

static void on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                    int64_t content_length)
{
    kvr_fetch_t *f = arg;
    (void)headers;
    (void)n;
    (void)content_length;
    f->status = status;
}

static void on_data(void *arg, const char *data, size_t len)
{
    kvr_fetch_t *f = arg;
    if (f->too_big || len > f->max - f->body.len) {
        f->too_big = true;
        return;
    }
    kvr_buf_append(&f->body, data, len);
}

static void on_end(void *arg, int status, kvr_upstream_phase_t phase)
{
    kvr_fetch_t *f = arg;
    (void)phase;
    f->up = NULL;
    int result = status < 0 ? status : f->too_big ? -EFBIG : f->status;
    f->cb(f->arg, result, f->body.base ? f->body.base : "", f->body.len);
    kvr_buf_close(&f->body);
    free(f);
}

int kvr_fetch(kvr_upstream_pool_t *pool, const char *path, uint64_t timeout_ms, size_t max_body,
              kvr_fetch_cb cb, void *arg, kvr_fetch_t **out)
{
    static const kvr_upstream_cbs_t cbs = {on_head, on_data, on_end, NULL};
    kvr_fetch_t *f = kvr_xcalloc(1, sizeof *f);
    f->cb = cb;
    f->arg = arg;
    f->max = max_body;
    kvr_upstream_timeouts_t t = {timeout_ms, timeout_ms, timeout_ms};
    kvr_http_header_t accept = {"Accept", "*/*"};
    int rc = kvr_upstream_request(pool, "GET", path, &accept, 1, NULL, 0, &t, &cbs, f, &f->up);
    if (rc < 0) {
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

void kvr_fetch_cancel(kvr_fetch_t *f)
{
    if (!f)
        return;
    kvr_upstream_cancel(f->up);
    kvr_buf_close(&f->body);
    free(f);
}
