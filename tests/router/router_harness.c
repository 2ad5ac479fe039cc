/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/router/router_harness.h"

#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

void kvr_harness_start(kvr_harness_t *h, int n_engines, const char *const *extra)
{
    kvr_fake_fleet_t *fleet = n_engines > 0 ? kvr_fake_start(n_engines) : NULL;
    kvr_harness_start_router(h, fleet, n_engines, extra);
    h->fleet = fleet;
}

void kvr_harness_start_router(kvr_harness_t *h, const kvr_fake_fleet_t *fleet, int n_engines,
                              const char *const *extra)
{
    memset(h, 0, sizeof *h);
    h->port = kvr_test_free_port();
    h->admin_port = kvr_test_free_port();
    char listen[32], admin_listen[32];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", h->port);
    snprintf(admin_listen, sizeof admin_listen, "127.0.0.1:%u", h->admin_port);
    char urls[KVR_FAKE_MAX][64];
    const char *argv[96];
    size_t k = 0;
    argv[k++] = kvr_test_bin("KVR_BIN_KVROUTE");
    argv[k++] = "--listen";
    argv[k++] = listen;
    argv[k++] = "--admin-listen";
    argv[k++] = admin_listen;
    argv[k++] = "--engine-header";
    argv[k++] = "--es";
    argv[k++] = "0";
    argv[k++] = "--health-interval-ms";
    argv[k++] = "200";
    argv[k++] = "--log-level";
    argv[k++] = "warn";
    for (int i = 0; i < n_engines; i++) {
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", kvr_fake_port(fleet, i));
        argv[k++] = "--engine";
        argv[k++] = urls[i];
    }
    for (size_t i = 0; extra && extra[i] && k < 94; i++)
        argv[k++] = extra[i];
    argv[k] = NULL;
    kvr_test_unique_name(h->log_path, sizeof h->log_path, "/tmp/kvroute-test-log");
    h->pid = kvr_test_spawn((char *const *)argv, h->log_path);
    cr_assert_gt(h->pid, 0);
    cr_assert(kvr_test_wait_port(h->port, 5000), "kvroute did not listen; see %s", h->log_path);
    cr_assert(kvr_test_wait_port(h->admin_port, 5000),
              "kvroute's admin listener did not listen; see %s", h->log_path);
}

int kvr_harness_stop(kvr_harness_t *h)
{
    int status = -1;
    bool clean = true;
    if (h->pid > 0) {
        status = kvr_test_stop(h->pid, SIGTERM, 5000);
        /* A sanitizer report or a crash at shutdown is a failure of the test that ran. */
        clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        cr_expect(clean, "kvroute exited with status %d; its log is kept at %s", status,
                  h->log_path);
    }
    h->pid = 0;
    kvr_fake_stop(h->fleet);
    h->fleet = NULL;
    if (h->log_path[0] && clean)
        unlink(h->log_path);
    return status;
}

long kvr_harness_shadow_total(const kvr_harness_t *h)
{
    char *resp;
    int status = kvr_test_http(h->admin_port, "GET", "/engines", NULL, NULL, &resp, 2000);
    if (status != 200) {
        free(resp);
        return -1;
    }
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(doc, "engines");
    if (!cJSON_IsArray(engines)) {
        cJSON_Delete(doc);
        return -1;
    }
    long total = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, engines)
    {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(e, "shadow");
        static const char *const fields[] = {"requests", "pending_prefill_tokens", "kv_tokens"};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, fields[i]);
            if (cJSON_IsNumber(v))
                total += (long)v->valuedouble;
        }
    }
    cJSON_Delete(doc);
    return total;
}

/* Conditions read over HTTP: one request every ~10 ms is enough, and keeps the router's loop free. */
static bool shadow_zero(void *arg)
{
    if (kvr_harness_shadow_total(arg) == 0)
        return true;
    kvr_test_sleep_ms(10);
    return false;
}

bool kvr_harness_wait_zero(const kvr_harness_t *h, unsigned timeout_ms)
{
    return kvr_test_wait_until(shadow_zero, (void *)h, timeout_ms);
}

typedef struct {
    const kvr_harness_t *h;
    const char *sample;
    double value;
    bool reach;
} metric_wait_t;

static bool metric_there(void *arg)
{
    const metric_wait_t *m = arg;
    double v = kvr_harness_metric(m->h, m->sample);
    if (m->reach ? v >= m->value : v == m->value)
        return true;
    kvr_test_sleep_ms(10);
    return false;
}

bool kvr_harness_wait_metric(const kvr_harness_t *h, const char *sample, double value,
                             unsigned timeout_ms)
{
    metric_wait_t m = {h, sample, value, false};
    return kvr_test_wait_until(metric_there, &m, timeout_ms);
}

bool kvr_harness_wait_metric_reach(const kvr_harness_t *h, const char *sample, double value,
                                   unsigned timeout_ms)
{
    metric_wait_t m = {h, sample, value, true};
    return kvr_test_wait_until(metric_there, &m, timeout_ms);
}

double kvr_harness_metric(const kvr_harness_t *h, const char *sample)
{
    char *resp;
    if (kvr_test_http(h->admin_port, "GET", "/metrics", NULL, NULL, &resp, 2000) != 200) {
        free(resp);
        return -1;
    }
    double v = -1;
    size_t n = strlen(sample);
    for (const char *line = kvr_test_http_body(resp); line && *line;) {
        if (strncmp(line, sample, n) == 0 && line[n] == ' ') {
            v = strtod(line + n + 1, NULL);
            break;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    free(resp);
    return v;
}

const char *kvr_harness_header(const char *response, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    const char *end = strstr(response, "\r\n\r\n");
    for (const char *line = strstr(response, "\r\n"); line && line < end;
         line = strstr(line + 2, "\r\n")) {
        const char *l = line + 2;
        if (strncasecmp(l, name, n) == 0 && l[n] == ':') {
            const char *v = l + n + 1;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            if (len >= cap)
                len = cap - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return out;
        }
    }
    return NULL;
}

long kvr_harness_dechunk(char *body)
{
    char *in = body, *out = body;
    for (;;) {
        char *endp;
        long size = strtol(in, &endp, 16);
        if (endp == in || strncmp(endp, "\r\n", 2) != 0 || size < 0)
            return -1;
        in = endp + 2;
        if (size == 0) {
            *out = '\0';
            return strncmp(in, "\r\n", 2) == 0 ? out - body : -1;
        }
        if ((long)strlen(in) < size + 2)
            return -1;
        memmove(out, in, (size_t)size);
        out += size;
        in += size;
        if (strncmp(in, "\r\n", 2) != 0)
            return -1;
        in += 2;
        *out = '\0';
    }
}
