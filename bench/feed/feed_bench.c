/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-feed-bench: feed freshness as a router sees it. Starts a
 * kvroute-sim fleet and a kvroute-statefeed over it, puts a long prefill on
 * every engine, then reads every slot each millisecond and reports the slot
 * age distribution and statefeed's CPU, for each fleet size and source.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/options.h"
#include "shm_layout/shm_layout.h"

extern char **environ;

typedef struct {
    const char *sim_path;
    const char *feed_path;
    char engine_counts[64];
    char sources[32];
    unsigned period_ms;
    unsigned seconds;
    unsigned prefill_tokens;
    unsigned base_port;
    unsigned push_idle_ms;
} bench_opts_t;

static pid_t spawn(char *const argv[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

static void stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 300; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static bool port_free(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bool ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
    close(fd);
    return ok;
}

static unsigned free_range(unsigned start, unsigned count)
{
    for (unsigned base = start; base + count < 60000; base += count + 1) {
        unsigned i = 0;
        while (i < count + 2 && port_free(base + i)) /* +2: admin and push ports */
            i++;
        if (i == count + 2)
            return base;
    }
    return 0;
}

static int connect_port(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/*
 * Sends a completion whose prompt is prefill_tokens words and leaves the
 * connection open: the engine keeps prefilling while the feed is measured.
 */
static int send_prefill(unsigned port, unsigned tokens)
{
    int fd = connect_port(port);
    if (fd < 0)
        return -1;
    size_t prompt_len = (size_t)tokens * 4;
    char *body = malloc(prompt_len + 256);
    int n = snprintf(body, 256,
                     "{\"model\":\"sim\",\"max_tokens\":1,\"stream\":true,\"prompt\":\"");
    char *p = body + n;
    for (unsigned i = 0; i < tokens; i++) {
        memcpy(p, "tok ", 4);
        p[1] = (char)('a' + i % 26); /* distinct words: no prefix-cache shortcut */
        p[2] = (char)('a' + (i / 26) % 26);
        p += 4;
    }
    p += sprintf(p, "\"}");
    size_t body_len = (size_t)(p - body);
    char head[256];
    int hl = snprintf(
        head, sizeof(head),
        "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: %zu\r\n\r\n",
        body_len);
    bool ok = write(fd, head, (size_t)hl) == hl;
    size_t off = 0;
    while (ok && off < body_len) {
        ssize_t w = write(fd, body + off, body_len - off);
        ok = w > 0;
        off += w > 0 ? (size_t)w : 0;
    }
    free(body);
    if (!ok) {
        close(fd);
        return -1;
    }
    return fd;
}

/* CPU time of pid in ns from /proc/PID/schedstat: clock-tick accounting in
 * /proc/PID/stat is too coarse for a daemon that uses well under 1% of a core. */
/* Requests the fleet holds (running + waiting over every engine and rank), from /admin/state; -1 on error. */
static long fleet_requests(unsigned admin_port)
{
    int fd = connect_port(admin_port);
    if (fd < 0)
        return -1;
    const char *req = "GET /admin/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (write(fd, req, strlen(req)) < 0) {
        close(fd);
        return -1;
    }
    kvr_buf_t answer = KVR_BUF_INIT;
    for (;;) {
        ssize_t r = read(fd, kvr_buf_tail(&answer, 4096), 4096);
        if (r <= 0)
            break;
        kvr_buf_commit(&answer, (size_t)r);
    }
    close(fd);
    char *buf = kvr_buf_release(&answer, NULL);
    long total = -1;
    char *body = strstr(buf, "\r\n\r\n");
    cJSON *doc = body ? cJSON_Parse(body + 4) : NULL;
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(doc, "engines");
    if (cJSON_IsArray(engines)) {
        total = 0;
        const cJSON *e, *r;
        cJSON_ArrayForEach(e, engines)
        {
            const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
            if (!cJSON_IsArray(ranks))
                continue;
            cJSON_ArrayForEach(r, ranks)
            {
                const cJSON *running = cJSON_GetObjectItemCaseSensitive(r, "running");
                const cJSON *waiting = cJSON_GetObjectItemCaseSensitive(r, "waiting");
                total += cJSON_IsNumber(running) ? (long)running->valuedouble : 0;
                total += cJSON_IsNumber(waiting) ? (long)waiting->valuedouble : 0;
            }
        }
    }
    cJSON_Delete(doc);
    free(buf);
    return total;
}

static uint64_t cpu_ns(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    unsigned long long on_cpu = 0;
    if (fscanf(f, "%llu", &on_cpu) != 1)
        on_cpu = 0;
    fclose(f);
    return on_cpu;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct_ms(const uint64_t *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(q * (double)(n - 1));
    return (double)v[i] / 1e6;
}

/* One run: fleet of n engines, statefeed from source; prints one line. */
static int run_one(const bench_opts_t *o, unsigned n, bool push, bool udp)
{
    char tag[64], shm_name[96], cfg_path[128], sock_path[128], sim_log[128], feed_log[128];
    const char *source = udp ? "push-udp" : push ? "push" : "scrape";
    snprintf(tag, sizeof(tag), "kvr-feedbench-%d-%u-%s", (int)getpid(), n, source);
    snprintf(shm_name, sizeof(shm_name), "/%s", tag);
    snprintf(cfg_path, sizeof(cfg_path), "/tmp/%s.conf", tag);
    snprintf(sock_path, sizeof(sock_path), "/tmp/%s.sock", tag);
    snprintf(sim_log, sizeof(sim_log), "/tmp/%s-sim.log", tag);
    snprintf(feed_log, sizeof(feed_log), "/tmp/%s-feed.log", tag);
    unsigned base = o->base_port ? o->base_port : free_range(31000, n);
    if (base == 0) {
        fprintf(stderr, "feed-bench: no free port range for %u engines\n", n);
        return -1;
    }
    unsigned admin = base + n, udp_port = base + n + 1;

    FILE *cf = fopen(cfg_path, "w");
    if (cf == NULL)
        return -1;
    fprintf(cf, "shm %s\nperiod-ms %u\n", shm_name, o->period_ms);
    if (push && udp)
        fprintf(cf, "push-udp 127.0.0.1:%u\n", udp_port);
    else if (push)
        fprintf(cf, "push-socket %s\n", sock_path);
    for (unsigned i = 0; i < n; i++)
        fprintf(cf, "engine http://127.0.0.1:%u%s\n", base + i, push ? ",kind=push" : "");
    fclose(cf);

    char port_s[16], n_s[16], admin_s[16], push_s[160], idle_s[16];
    snprintf(port_s, sizeof(port_s), "%u", base);
    snprintf(n_s, sizeof(n_s), "%u", n);
    snprintf(admin_s, sizeof(admin_s), "%u", admin);
    if (udp)
        snprintf(push_s, sizeof(push_s), "udp:127.0.0.1:%u", udp_port);
    else
        snprintf(push_s, sizeof(push_s), "unix:%s", sock_path);
    snprintf(idle_s, sizeof(idle_s), "%u", o->push_idle_ms);
    /* statefeed first, so the push socket exists when the fleet starts sending */
    char *feed_argv[] = {(char *)o->feed_path, "--config", cfg_path, NULL};
    pid_t feed = spawn(feed_argv, feed_log);
    usleep(200000);
    char *sim_argv[16] = {(char *)o->sim_path, "--port", port_s, "--engines", n_s,
                          "--admin-port",      admin_s};
    int a = 7;
    if (push) {
        sim_argv[a++] = "--push";
        sim_argv[a++] = push_s;
        if (o->push_idle_ms) {
            sim_argv[a++] = "--push-idle-ms";
            sim_argv[a++] = idle_s;
        }
    }
    sim_argv[a] = NULL;
    pid_t sim = spawn(sim_argv, sim_log);

    kvr_shm_t shm;
    bool opened = false;
    int rc = -1;
    uint64_t *ages = NULL;
    int *conns = calloc(n, sizeof(int));
    for (int i = 0; i < 500 && !opened; i++) {
        opened = kvr_shm_open(&shm, shm_name) == 0;
        if (!opened)
            usleep(10000);
    }
    if (!opened || feed <= 0 || sim <= 0) {
        fprintf(stderr, "feed-bench: start failed; see %s and %s\n", feed_log, sim_log);
        goto out;
    }
    /* Every engine healthy before measuring. */
    uint64_t deadline = kvr_clock_now_ns() + 15 * KVR_NS_PER_SEC;
    unsigned healthy = 0;
    while (kvr_clock_now_ns() < deadline) {
        healthy = 0;
        for (uint32_t s = 0; s < shm.header->capacity; s++) {
            kvr_engine_state_t st;
            uint64_t age;
            if (kvr_shm_read_slot(&shm, s, kvr_clock_now_ns(), &st, &age) == 0 &&
                (st.flags & KVR_SLOT_HEALTHY))
                healthy++;
        }
        if (healthy == n)
            break;
        usleep(20000);
    }
    if (healthy != n) {
        fprintf(stderr, "feed-bench: only %u of %u engines healthy; see %s and %s\n", healthy, n,
                feed_log, sim_log);
        goto out;
    }
    for (unsigned i = 0; i < n; i++)
        conns[i] = send_prefill(base + i, o->prefill_tokens);
    /* Measure once the simulator holds every prefill: ingesting 64 prompts of
     * 400 KB in one process is the simulator's cost, not the feed's. */
    uint64_t admit_deadline = kvr_clock_now_ns() + 20 * KVR_NS_PER_SEC;
    long held = 0;
    while (kvr_clock_now_ns() < admit_deadline && (held = fleet_requests(admin)) < (long)n)
        usleep(20000);
    if (held < (long)n)
        fprintf(stderr, "feed-bench: only %ld of %u prefills admitted; measuring anyway\n", held,
                n);
    usleep(2 * o->period_ms * 1000);

    size_t cap = (size_t)o->seconds * 1000 * n + n, count = 0, unhealthy = 0;
    ages = malloc(cap * sizeof(*ages));
    uint64_t pending_seen = 0;
    uint64_t sim_cpu0 = cpu_ns(sim);
    uint64_t cpu0 = cpu_ns(feed), t0 = kvr_clock_now_ns();
    uint64_t end = t0 + (uint64_t)o->seconds * KVR_NS_PER_SEC;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    while (kvr_clock_now_ns() < end && count + n <= cap) {
        uint64_t now = kvr_clock_now_ns();
        for (uint32_t s = 0; s < shm.header->capacity; s++) {
            kvr_engine_state_t st;
            uint64_t age;
            if (kvr_shm_read_slot(&shm, s, now, &st, &age) != 0)
                continue;
            if (!(st.flags & KVR_SLOT_HEALTHY))
                unhealthy++;
            if (st.pending_prefill_tokens > pending_seen)
                pending_seen = st.pending_prefill_tokens;
            ages[count++] = age;
        }
        next.tv_nsec += 1000000;
        if (next.tv_nsec >= 1000000000) {
            next.tv_nsec -= 1000000000;
            next.tv_sec++;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    uint64_t cpu1 = cpu_ns(feed), t1 = kvr_clock_now_ns();
    double cpu_s = (double)(cpu1 - cpu0) / 1e9;
    double wall_s = (double)(t1 - t0) / 1e9;
    double cpu_pct = 100.0 * cpu_s / wall_s;
    double sim_cpu_pct = 100.0 * (double)(cpu_ns(sim) - sim_cpu0) / 1e9 / wall_s;
    qsort(ages, count, sizeof(*ages), cmp_u64);
    printf(
        "feed_bench source=%s engines=%u period_ms=%u prefill_tokens=%u samples=%zu "
        "age_p50_ms=%.1f age_p99_ms=%.1f age_max_ms=%.1f unhealthy_samples=%zu "
        "max_pending_prefill_seen=%llu statefeed_cpu_pct=%.3f cpu_pct_per_engine=%.4f sim_cpu_pct=%.1f\n",
        source, n, o->period_ms, o->prefill_tokens, count, pct_ms(ages, count, 0.50),
        pct_ms(ages, count, 0.99), count ? (double)ages[count - 1] / 1e6 : 0.0, unhealthy,
        (unsigned long long)pending_seen, cpu_pct, cpu_pct / n, sim_cpu_pct);
    fflush(stdout);
    rc = 0;

out:
    for (unsigned i = 0; i < n; i++)
        if (conns[i] > 0)
            close(conns[i]);
    free(conns);
    free(ages);
    stop(sim);
    stop(feed);
    if (opened)
        kvr_shm_close(&shm);
    kvr_shm_unlink(shm_name);
    unlink(cfg_path);
    if (rc == 0) {
        unlink(sim_log);
        unlink(feed_log);
    }
    return rc;
}

#define T bench_opts_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, sim_path, "sim", "PATH", NULL,
                       "kvroute-sim binary (default: the one built with this)"),
    KVR_OPT_ROW_STRPTR(T, feed_path, "statefeed", "PATH", NULL,
                       "kvroute-statefeed binary (default: the one built with this)"),
    KVR_OPT_ROW_STRING(T, engine_counts, "engines", "LIST", "8,64",
                       "fleet sizes, comma separated, each 1 to 1000"),
    KVR_OPT_ROW_STRING(T, sources, "sources", "LIST", "scrape,push,push-udp",
                       "scrape, push (Unix datagram socket), push-udp, comma separated"),
    KVR_OPT_ROW_U64(T, period_ms, "period-ms", "N", "50", 1, 3600000, "statefeed tick"),
    KVR_OPT_ROW_U64(T, seconds, "seconds", "N", "5", 1, 86400, "sampling window per run"),
    KVR_OPT_ROW_U64(T, prefill_tokens, "prefill-tokens", "N", "100000", 1, 100000000,
                    "prompt tokens of the prefill sent to each engine"),
    KVR_OPT_ROW_U64(T, push_idle_ms, "push-idle-ms", "N", "0", 0, 3600000,
                    "the simulated hook's frame cadence when no step ends sooner (kvroute-sim "
                    "--push-idle-ms; 0: the simulator's)"),
    KVR_OPT_ROW_U64(T, base_port, "base-port", "N", "0", 0, 65535,
                    "first engine port (0: a free range near 31000)"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    bench_opts_t o = {
#ifdef KVR_BENCH_SIM_PATH
        .sim_path = KVR_BENCH_SIM_PATH,
#endif
#ifdef KVR_BENCH_FEED_PATH
        .feed_path = KVR_BENCH_FEED_PATH,
#endif
    };
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &o};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-feed-bench",
        .head =
            "usage: kvroute-feed-bench [flags]\n"
            "\n"
            "Measures slot age (now - sample time) as a router reads it, sampled every\n"
            "millisecond over all engines, while every simulated engine runs a long prefill.\n"
            "Prints one line per (source, engines) with p50/p99/max age and statefeed's CPU.\n\n"};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (o.sim_path == NULL || o.feed_path == NULL) {
        fprintf(
            stderr,
            "kvroute-feed-bench: --sim and --statefeed are required (no built binary to default to)\n");
        return 2;
    }
    char err[256];
    signal(SIGPIPE, SIG_IGN);
    int failures = 0;
    /* The first pass only checks both lists, so a bad entry is refused before any run. */
    for (int check = 1; check >= 0; check--) {
        char sources[32];
        snprintf(sources, sizeof(sources), "%s", o.sources);
        char *save_src = NULL;
        for (char *src = strtok_r(sources, ",", &save_src); src != NULL;
             src = strtok_r(NULL, ",", &save_src)) {
            bool udp = strcmp(src, "push-udp") == 0;
            bool push = udp || strcmp(src, "push") == 0;
            if (!push && strcmp(src, "scrape") != 0) {
                kvr_opt_error(err, sizeof err, "sources",
                              "scrape, push or push-udp, comma separated", src);
                fprintf(stderr, "kvroute-feed-bench: %s\n", err);
                return 2;
            }
            char counts[64];
            snprintf(counts, sizeof(counts), "%s", o.engine_counts);
            char *save = NULL;
            for (char *c = strtok_r(counts, ",", &save); c != NULL;
                 c = strtok_r(NULL, ",", &save)) {
                uint64_t n;
                if (kvr_opt_parse_u64(c, 1, 1000, &n) < 0) {
                    kvr_opt_error(err, sizeof err, "engines",
                                  "fleet sizes 1 to 1000, comma separated", c);
                    fprintf(stderr, "kvroute-feed-bench: %s\n", err);
                    return 2;
                }
                if (!check)
                    failures += run_one(&o, (unsigned)n, push, udp) < 0;
            }
        }
    }
    return failures ? 1 : 0;
}
