/* SPDX-License-Identifier: Apache-2.0 */
/*
 * push-probe: what hook tests in other languages need from the C side.
 *   --socket PATH          bind a Unix datagram socket, decode every datagram
 *                          with the decoder statefeed uses, print one JSON
 *                          line per frame (checks frames without a statefeed)
 *   --shm NAME --engine ID print the engine's slot from a live segment as JSON,
 *                          read with the seqlock reader routers use
 * Exit status: 0, 1 on a failure, 2 on bad usage, 3 when sink mode timed out.
 */
#include <cjson/cJSON.h>
#include <errno.h>
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
#include "common/options.h"
#include "common/state_frame.h"
#include "shm_layout/shm_layout.h"

#define PROBE_TIMEOUT_STATUS 3 /* 2 is bad usage, as for every program of the tree */

static const char usage_text[] =
    "usage: push-probe --socket PATH [--count N] [--timeout-ms N]\n"
    "       push-probe --shm NAME --engine ID\n"
    "\n"
    "Sink mode receives push state frames on a Unix datagram socket and prints\n"
    "each as one JSON line: the decoded fields, or {\"rc\": code, \"reason\": text}\n"
    "when the decoder rejects it. It prints {\"ready\": true} once bound.\n"
    "Slot mode prints one engine's slot of a live segment as one JSON line.\n"
    "Exit status: 0, 1 on a failure, 2 on bad usage, 3 when sink mode timed out.\n"
    "\n";

typedef struct {
    const char *socket_path, *shm_name, *engine_id;
    uint64_t count, timeout_ms;
} probe_args_t;

#define T probe_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_HELP,
    KVR_OPT_ROW_HEADING("sink mode:"),
    KVR_OPT_ROW_STRPTR(T, socket_path, "socket", "PATH", NULL,
                       "Unix datagram socket path to bind (removed on exit)"),
    KVR_OPT_ROW_U64(T, count, "count", "N", "1", 1, 1000000000, "exit after N datagrams"),
    KVR_OPT_ROW_U64(T, timeout_ms, "timeout-ms", "N", "5000", 1, 2147483647,
                    "exit with status 3 when no datagram came for N ms"),
    KVR_OPT_ROW_HEADING("slot mode:"),
    KVR_OPT_ROW_STRPTR(T, shm_name, "shm", "NAME", NULL, "segment to read"),
    KVR_OPT_ROW_STRPTR(T, engine_id, "engine", "ID", NULL, "engine id whose slot to print"),
};
#undef T

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
        cJSON_AddBoolToObject(o, "has_pending_prefill",
                              (s->flags & KVR_SLOT_HAS_PENDING_PREFILL) != 0);
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
    probe_args_t args = {0};
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {.name = "push-probe", .head = usage_text};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (args.shm_name || args.engine_id) {
        if (!args.shm_name || !args.engine_id) {
            fprintf(stderr,
                    "push-probe: slot mode needs both --shm NAME and --engine ID (see --help)\n");
            return 2;
        }
        return print_slot(args.shm_name, args.engine_id);
    }
    if (!args.socket_path) {
        fprintf(stderr,
                "push-probe: --socket PATH (or --shm and --engine) is required (see --help)\n");
        return 2;
    }
    const char *path = args.socket_path;
    long count = (long)args.count, timeout_ms = (long)args.timeout_ms;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(addr.sun_path)) {
        fprintf(stderr, "push-probe: --socket: expected a path shorter than %zu bytes, got '%s'\n",
                sizeof(addr.sun_path), path);
        return 2;
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
            fprintf(stderr, "push-probe: no datagram for %ld ms after %ld frames\n", timeout_ms,
                    got);
            status = PROBE_TIMEOUT_STATUS;
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
