/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-sim-bench: simulator throughput. Starts kvroute-sim, holds
 * --streams streaming completions open on each engine (long max_tokens, so
 * each engine keeps a full batch decoding), and after a warm-up measures SSE
 * chunks per second and the simulator's CPU time (from /proc), per engine.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "common/clock.h"
#include "common/options.h"

typedef struct {
    uv_tcp_t tcp;
    uv_connect_t connect;
    uv_write_t write;
    char carry[8]; /* tail of the previous read, for "data: " split across reads */
    size_t carry_len;
} stream_t;

static uint64_t chunks;
static int open_streams, failed_streams;
static char request[4096];
static size_t request_len;

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)h;
    (void)suggested;
    static char slab[256 * 1024];
    *buf = uv_buf_init(slab, sizeof slab);
}

static void count_events(stream_t *s, const char *data, size_t len)
{
    /* Join the previous tail with the start of this read to catch a split marker. */
    char joint[16];
    size_t head = len < 5 ? len : 5;
    memcpy(joint, s->carry, s->carry_len);
    memcpy(joint + s->carry_len, data, head);
    size_t jl = s->carry_len + head;
    for (size_t i = 0; i + 6 <= jl; i++)
        if (memcmp(joint + i, "data: ", 6) == 0 && i < s->carry_len)
            chunks++;
    for (const char *p = data; (p = memmem(p, len - (size_t)(p - data), "data: ", 6)); p += 6)
        chunks++;
    s->carry_len = len < 5 ? len : 5;
    memcpy(s->carry, data + len - s->carry_len, s->carry_len);
}

static void read_cb(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf)
{
    stream_t *s = st->data;
    if (nread < 0) {
        open_streams--;
        uv_close((uv_handle_t *)st, NULL);
        return;
    }
    count_events(s, buf->base, (size_t)nread);
}

static void write_cb(uv_write_t *w, int status)
{
    (void)w;
    (void)status;
}

static void connect_cb(uv_connect_t *c, int status)
{
    stream_t *s = c->data;
    if (status < 0) {
        failed_streams++;
        uv_close((uv_handle_t *)&s->tcp, NULL);
        return;
    }
    open_streams++;
    uv_buf_t b = uv_buf_init(request, (unsigned)request_len);
    uv_write(&s->write, (uv_stream_t *)&s->tcp, &b, 1, write_cb);
    uv_read_start((uv_stream_t *)&s->tcp, alloc_cb, read_cb);
}

static double proc_cpu_s(pid_t pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    /* Fields after the parenthesised command: utime is the 14th, stime the 15th. */
    const char *p = strrchr(line, ')');
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double self_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void stop_timer_cb(uv_timer_t *t)
{
    uv_stop(t->loop);
}

static void run_for(uv_loop_t *loop, uint64_t ms)
{
    uv_timer_t t;
    uv_timer_init(loop, &t);
    uv_timer_start(&t, stop_timer_cb, ms, 0);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_close((uv_handle_t *)&t, NULL);
    uv_run(loop, UV_RUN_NOWAIT);
}

static const char usage_text[] =
    "Usage: kvroute-sim-bench --sim PATH [options] [-- extra kvroute-sim flags]\n"
    "\n"
    "Measures kvroute-sim's SSE chunk rate and CPU per engine with every engine\n"
    "holding --streams decoding sequences. Arguments after -- go to kvroute-sim.\n"
    "\n";

typedef struct {
    const char *sim;
    uint64_t engines, streams, port;
    double warmup_s, seconds;
} sim_bench_args_t;

#define T sim_bench_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, sim, "sim", "PATH", NULL, "the kvroute-sim binary (required)"),
    KVR_OPT_ROW_U64(T, engines, "engines", "N", "8", 1, 4096,
                    "engines, on consecutive ports from --port"),
    KVR_OPT_ROW_U64(T, streams, "streams", "N", "64", 1, 65536,
                    "concurrent streams per engine, also passed as kvroute-sim --max-running"),
    KVR_OPT_ROW_U64(T, port, "port", "P", "18800", 1, 65535, "first engine's port"),
    KVR_OPT_ROW_DOUBLE(T, warmup_s, "warmup", "S", "2", 0, 3600,
                       "seconds before measuring, while batches fill"),
    KVR_OPT_ROW_DOUBLE(T, seconds, "seconds", "S", "10", 0.1, 86400, "measured seconds"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    sim_bench_args_t args = {0};
    char *extra[64];
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set,
                               .n_sets = 1,
                               .positional = extra,
                               .max_positional = sizeof extra / sizeof extra[0]};
    const kvr_opt_program_t program = {.name = "kvroute-sim-bench", .head = usage_text};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (!args.sim) {
        fprintf(stderr, "kvroute-sim-bench: --sim PATH is required (see --help)\n");
        return 2;
    }
    if (args.port + args.engines - 1 > 65535) {
        fprintf(stderr,
                "kvroute-sim-bench: --port %" PRIu64 " with --engines %" PRIu64
                " puts the last engine past port 65535\n",
                args.port, args.engines);
        return 2;
    }
    const char *sim = args.sim;
    int engines = (int)args.engines, streams = (int)args.streams, port = (int)args.port;
    double warmup = args.warmup_s, seconds = args.seconds;
    char port_s[16], engines_s[16], streams_s[16];
    snprintf(port_s, sizeof port_s, "%d", port);
    snprintf(engines_s, sizeof engines_s, "%d", engines);
    snprintf(streams_s, sizeof streams_s, "%d", streams);
    char *sim_argv[9 + sizeof extra / sizeof extra[0] + 1] = {
        (char *)sim,     "--port",  port_s,        "--engines", engines_s,
        "--max-running", streams_s, "--log-level", "warn"};
    size_t sa = 9;
    for (size_t i = 0; i < parser.n_positional; i++)
        sim_argv[sa++] = extra[i];
    sim_argv[sa] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execv(sim, sim_argv);
        fprintf(stderr, "kvroute-sim-bench: cannot run %s: %s\n", sim, strerror(errno));
        _exit(127);
    }
    usleep(300000);

    uv_loop_t *loop = uv_default_loop();
    /* A prompt of 1 KiB and outputs that outlast the run: each engine keeps a full batch. */
    char prompt[1025];
    memset(prompt, 'b', 1024);
    prompt[1024] = '\0';
    char body[1400];
    int bl = snprintf(body, sizeof body,
                      "{\"prompt\":\"%s\",\"max_tokens\":100000,\"stream\":true}", prompt);
    stream_t *all = calloc((size_t)engines * (size_t)streams, sizeof *all);
    if (!all) {
        fprintf(stderr, "kvroute-sim-bench: out of memory for %d x %d streams\n", engines, streams);
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return 1;
    }
    for (int e = 0; e < engines; e++) {
        struct sockaddr_in addr;
        uv_ip4_addr("127.0.0.1", port + e, &addr);
        request_len = (size_t)snprintf(
            request, sizeof request,
            "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n",
            bl);
        if (request_len + (size_t)bl < sizeof request) {
            memcpy(request + request_len, body, (size_t)bl);
            request_len += (size_t)bl;
        }
        for (int i = 0; i < streams; i++) {
            stream_t *s = &all[(size_t)e * (size_t)streams + (size_t)i];
            uv_tcp_init(loop, &s->tcp);
            s->tcp.data = s;
            s->connect.data = s;
            uv_tcp_connect(&s->connect, &s->tcp, (const struct sockaddr *)&addr, connect_cb);
        }
    }
    run_for(loop, (uint64_t)(warmup * 1000));
    uint64_t c0 = chunks, t0 = kvr_clock_now_ns();
    double cpu0 = proc_cpu_s(pid), self0 = self_cpu_s();
    run_for(loop, (uint64_t)(seconds * 1000));
    uint64_t c1 = chunks, t1 = kvr_clock_now_ns();
    double cpu1 = proc_cpu_s(pid), self1 = self_cpu_s();

    double wall = (double)(t1 - t0) / 1e9;
    double rate = (double)(c1 - c0) / wall;
    double cpu = (cpu1 - cpu0) / wall;
    printf("engines=%d streams_per_engine=%d open_streams=%d failed_streams=%d seconds=%.1f\n",
           engines, streams, open_streams, failed_streams, wall);
    printf("sse_chunks_per_s=%.0f per_engine=%.0f\n", rate, rate / engines);
    printf("sim_cpu_percent=%.1f per_engine=%.2f cpu_us_per_chunk=%.2f\n", cpu * 100,
           cpu * 100 / engines, rate > 0 ? cpu * 1e6 / rate : 0.0);
    printf("client_cpu_percent=%.1f\n", (self1 - self0) / wall * 100);
    fflush(stdout);

    kill(pid, SIGTERM);
    int st;
    waitpid(pid, &st, 0);
    for (size_t i = 0; i < (size_t)engines * (size_t)streams; i++)
        if (!uv_is_closing((uv_handle_t *)&all[i].tcp))
            uv_close((uv_handle_t *)&all[i].tcp, NULL);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
    free(all);
    return 0;
}
