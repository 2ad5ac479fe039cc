/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-engine: an OpenAI-compatible engine that answers at once, so
 * that a benchmark through a proxy measures the proxy. A whole chat answer
 * is one small JSON document; a streamed one is --chunks SSE events and
 * [DONE], written in one go.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "common/http_server.h"
#include "common/log.h"
#include "common/options.h"

static char stream_body[65536];
static size_t stream_len;

static const char whole[] =
    "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\",\"created\":0,\"model\":\"bench\","
    "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
    "\"usage\":{\"prompt_tokens\":256,\"completion_tokens\":1,\"total_tokens\":257}}";

static void on_request(kvr_http_req_t *req, void *user)
{
    (void)user;
    if (strcmp(kvr_http_req_method(req), "POST") != 0) {
        static const char ok[] = "{\"status\":\"ok\"}";
        kvr_http_respond(req, 200, "application/json", NULL, 0, ok, sizeof ok - 1);
        return;
    }
    size_t len;
    const char *body = kvr_http_req_body(req, &len);
    if (strstr(body, "\"stream\":true") || strstr(body, "\"stream\": true")) {
        kvr_http_stream_begin(req, 200, "text/event-stream", NULL, 0, KVR_HTTP_CHUNKED);
        kvr_http_stream_write(req, stream_body, stream_len);
        kvr_http_stream_end(req);
        return;
    }
    kvr_http_respond(req, 200, "application/json", NULL, 0, whole, sizeof whole - 1);
}

static void on_signal(uv_signal_t *s, int signum)
{
    (void)signum;
    uv_stop(s->loop);
}

typedef struct {
    int port, chunks;
} instant_args_t;

#define T instant_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_INT(T, port, "port", "P", NULL, 1, 65535,
                    "port on 127.0.0.1 to listen on (required)"),
    KVR_OPT_ROW_INT(T, chunks, "chunks", "N", "16", 0, 200, "SSE events per streamed answer"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    instant_args_t args = {.port = 0};
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-bench-engine",
        .head = "usage: kvroute-bench-engine --port P [--chunks N]\n\n"
                "An engine that answers every POST at once: a small chat.completion JSON, or with\n"
                "\"stream\":true N SSE chunks and [DONE] in one write.\n\n"};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (args.port == 0) {
        fprintf(stderr, "kvroute-bench-engine: --port is required\n");
        return 2;
    }
    int port = args.port, chunks = args.chunks;
    for (int i = 0; i < chunks; i++)
        stream_len += (size_t)snprintf(
            stream_body + stream_len, sizeof stream_body - stream_len,
            "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
            "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok%d \"}}]}\n\n",
            i);
    stream_len += (size_t)snprintf(stream_body + stream_len, sizeof stream_body - stream_len,
                                   "data: [DONE]\n\n");
    kvr_log_init("kvroute-bench-engine", KVR_LOG_WARN);
    signal(SIGPIPE, SIG_IGN);
    uv_loop_t *loop = uv_default_loop();
    kvr_http_server_config_t cfg;
    kvr_http_server_config_init(&cfg);
    cfg.port = port;
    cfg.on_request = on_request;
    kvr_http_server_t *srv;
    if (kvr_http_server_create(loop, &cfg, &srv) < 0) {
        fprintf(stderr, "kvroute-bench-engine: cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    uv_signal_t sig;
    uv_signal_init(loop, &sig);
    uv_signal_start(&sig, on_signal, SIGTERM);
    uv_run(loop, UV_RUN_DEFAULT);
    return 0;
}
