/* SPDX-License-Identifier: Apache-2.0 */
/*
 * push-probe: what hook tests in other languages need from the C side.
 *   --socket PATH          bind a Unix datagram socket, decode every datagram
 *                          with the decoder statefeed uses, print one JSON
 *                          line per frame (checks frames without a statefeed)
 *   --shm NAME --engine ID print the engine's slot from a live segment as JSON,
 *                          read with the seqlock reader routers use
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/state_frame.h"
#include "shm_layout/shm_layout.h"

static void usage(FILE *out)
{
    fputs("usage: push-probe --socket PATH [--count N] [--timeout-ms N]\n"
          "       push-probe --shm NAME --engine ID\n"
          "\n"
          "Sink mode receives push state frames on a Unix datagram socket and prints\n"
          "each as one JSON line: the decoded fields, or {\"rc\": code, \"reason\": text}\n"
          "when the decoder rejects it. It prints {\"ready\": true} once bound.\n"
          "Slot mode prints one engine's slot of a live segment as one JSON line.\n"
          "\n"
          "  --socket PATH     socket path to bind (removed on exit)\n"
          "  --count N         exit after N datagrams (default 1)\n"
          "  --timeout-ms N    exit with status 2 when no datagram came for N ms (default 5000)\n"
          "  --shm NAME        segment to read (slot mode)\n"
          "  --engine ID       engine id whose slot to print (slot mode)\n"
          "  --help            this text\n",
          out);
}

static void print_frame(int rc, const char *reason, const kvr_state_frame_t *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rc", rc);
    if (rc != 0) {
        cJSON_AddStringToObject(o, "reason", reason ? reason : kvr_strerror(rc));
    } else {
        const kvr_engine_state_t *s = &f->state;
        /* Wall-clock nanoseconds need all 64 bits; a double would round them. */
        char ts[24];
        snprintf(ts, sizeof ts, "%" PRIu64, f->sample_unix_ns);
        cJSON_AddStringToObject(o, "engine", s->engine_id);
        cJSON_AddRawToObject(o, "ts_ns", ts);
        cJSON_AddNumberToObject(o, "seq", f->seq);
        cJSON_AddNumberToObject(o, "running", s->running);
        cJSON_AddNumberToObject(o, "waiting", s->waiting);
        cJSON_AddNumberToObject(o, "max_running", s->max_running);
        cJSON_AddNumberToObject(o, "dp_ranks", s->dp_ranks);
        cJSON_AddNumberToObject(o, "kv_used", s->kv_tokens_used);
        cJSON_AddNumberToObject(o, "kv_capacity", s->kv_tokens_capacity);
        cJSON_AddNumberToObject(o, "kv_usage", s->kv_usage);
        cJSON_AddNumberToObject(o, "pending_prefill", s->pending_prefill_tokens);
        cJSON_AddNumberToObject(o, "max_prefill_remaining", s->max_prefill_remaining);
        cJSON_AddNumberToObject(o, "utilization", s->utilization);
        cJSON_AddBoolToObject(o, "caps_complete", (s->flags & KVR_SLOT_CAPS_COMPLETE) != 0);
        cJSON_AddBoolToObject(o, "has_pending_prefill", (s->flags & KVR_SLOT_HAS_PENDING_PREFILL) != 0);
        cJSON_AddBoolToObject(o, "has_utilization", (s->flags & KVR_SLOT_HAS_UTILIZATION) != 0);
        cJSON_AddBoolToObject(o, "has_seq", f->has_seq);
    }
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text ? text : "{\"rc\": -12}");
    fflush(stdout);
    cJSON_free(text);
    cJSON_Delete(o);
}

static int print_slot(const char *name, const char *engine_id)
{
    kvr_shm_t shm;
    int rc = kvr_shm_open(&shm, name);
    if (rc != 0) {
        fprintf(stderr, "push-probe: cannot open segment %s: %s\n", name, kvr_strerror(rc));
        return 1;
    }
    int index = kvr_shm_find(&shm, engine_id);
    kvr_engine_state_t s;
    uint64_t age_ns = 0;
    if (index >= 0)
        rc = kvr_shm_read_slot(&shm, (uint32_t)index, kvr_clock_now_ns(), &s, &age_ns);
    if (index < 0 || rc != 0) {
        fprintf(stderr, "push-probe: engine %s not readable in %s: %s\n", engine_id, name,
                kvr_strerror(index < 0 ? index : rc));
        kvr_shm_close(&shm);
        return 1;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "engine", s.engine_id);
    cJSON_AddStringToObject(o, "source", kvr_source_name(kvr_slot_source(s.flags)));
    cJSON_AddBoolToObject(o, "healthy", (s.flags & KVR_SLOT_HEALTHY) != 0);
    cJSON_AddNumberToObject(o, "running", s.running);
    cJSON_AddNumberToObject(o, "waiting", s.waiting);
    cJSON_AddNumberToObject(o, "max_running", s.max_running);
    cJSON_AddNumberToObject(o, "dp_ranks", s.dp_ranks);
    cJSON_AddNumberToObject(o, "kv_used", s.kv_tokens_used);
    cJSON_AddNumberToObject(o, "kv_capacity", s.kv_tokens_capacity);
    cJSON_AddNumberToObject(o, "sample_seq", s.sample_seq);
    cJSON_AddNumberToObject(o, "kv_usage", s.kv_usage);
    cJSON_AddNumberToObject(o, "pending_prefill", s.pending_prefill_tokens);
    cJSON_AddNumberToObject(o, "max_prefill_remaining", s.max_prefill_remaining);
    cJSON_AddNumberToObject(o, "utilization", s.utilization);
    cJSON_AddBoolToObject(o, "caps_complete", (s.flags & KVR_SLOT_CAPS_COMPLETE) != 0);
    cJSON_AddBoolToObject(o, "has_pending_prefill", (s.flags & KVR_SLOT_HAS_PENDING_PREFILL) != 0);
    cJSON_AddBoolToObject(o, "has_utilization", (s.flags & KVR_SLOT_HAS_UTILIZATION) != 0);
    cJSON_AddNumberToObject(o, "age_ns", age_ns);
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text ? text : "{}");
    cJSON_free(text);
    cJSON_Delete(o);
    kvr_shm_close(&shm);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *shm_name = NULL, *engine_id = NULL;
    long count = 1, timeout_ms = 5000;
    static const struct option opts[] = {{"socket", required_argument, NULL, 's'},
                                         {"count", required_argument, NULL, 'c'},
                                         {"timeout-ms", required_argument, NULL, 't'},
                                         {"shm", required_argument, NULL, 'm'},
                                         {"engine", required_argument, NULL, 'e'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 's': path = optarg; break;
        case 'c': count = strtol(optarg, NULL, 10); break;
        case 't': timeout_ms = strtol(optarg, NULL, 10); break;
        case 'm': shm_name = optarg; break;
        case 'e': engine_id = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 1;
        }
    }
    if (shm_name || engine_id) {
        if (!shm_name || !engine_id) {
            fprintf(stderr, "push-probe: slot mode needs both --shm NAME and --engine ID\n");
            return 1;
        }
        return print_slot(shm_name, engine_id);
    }
    if (!path || count < 1 || timeout_ms < 1) {
        fprintf(stderr, "push-probe: --socket PATH (or --shm and --engine) is required, --count and --timeout-ms > 0\n");
        return 1;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(addr.sun_path)) {
        fprintf(stderr, "push-probe: socket path too long: %s\n", path);
        return 1;
    }
    memcpy(addr.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        fprintf(stderr, "push-probe: cannot bind %s: %s\n", path, strerror(errno));
        return 1;
    }
    printf("{\"ready\": true}\n");
    fflush(stdout);

    int status = 0;
    /* One byte more than the largest frame, so an oversized one is seen as such. */
    char buf[KVR_STATE_FRAME_MAX + 1];
    for (long got = 0; got < count;) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ready = poll(&pfd, 1, (int)timeout_ms);
        if (ready == 0) {
            fprintf(stderr, "push-probe: no datagram for %ld ms after %ld frames\n", timeout_ms, got);
            status = 2;
            break;
        }
        if (ready < 0 && errno == EINTR)
            continue;
        ssize_t n = recv(fd, buf, sizeof(buf), 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "push-probe: recv: %s\n", strerror(errno));
            status = 1;
            break;
        }
        kvr_state_frame_t frame;
        const char *reason = NULL;
        int rc = kvr_state_frame_decode(buf, (size_t)n, &frame, &reason);
        print_frame(rc, reason, &frame);
        got++;
    }
    close(fd);
    unlink(path);
    return status;
}
