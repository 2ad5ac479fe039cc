/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/support/proc.h"

#include "common/buf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHILDREN 64

static pid_t children[MAX_CHILDREN];
static int n_children;
static bool hook_installed;

static void kill_children(void)
{
    for (int i = 0; i < n_children; i++) {
        if (children[i] > 0) {
            kill(children[i], SIGKILL);
            waitpid(children[i], NULL, 0);
            children[i] = 0;
        }
    }
}

static void forget_child(pid_t pid)
{
    for (int i = 0; i < n_children; i++)
        if (children[i] == pid)
            children[i] = 0;
}

void kvr_test_sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

static uint64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool kvr_test_wait_until(bool (*cond)(void *arg), void *arg, unsigned timeout_ms)
{
    uint64_t end = monotonic_ms() + timeout_ms;
    for (;;) {
        if (cond(arg))
            return true;
        if (monotonic_ms() >= end)
            return cond(arg);
        kvr_test_sleep_ms(1);
    }
}

bool kvr_test_file_contains(const char *path, const char *needle)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return false;
    kvr_buf_t text = KVR_BUF_INIT;
    for (;;) {
        size_t got = fread(kvr_buf_tail(&text, 65536), 1, 65536, fp);
        if (got == 0)
            break;
        kvr_buf_commit(&text, got);
    }
    fclose(fp);
    bool found = text.base && strstr(text.base, needle) != NULL;
    kvr_buf_close(&text);
    return found;
}

typedef struct {
    const char *path, *needle;
} file_needle_t;

static bool file_has_needle(void *arg)
{
    const file_needle_t *fn = arg;
    return kvr_test_file_contains(fn->path, fn->needle);
}

bool kvr_test_wait_file_contains(const char *path, const char *needle, unsigned timeout_ms)
{
    file_needle_t fn = {path, needle};
    return kvr_test_wait_until(file_has_needle, &fn, timeout_ms);
}

const char *kvr_test_bin(const char *env_name)
{
    const char *path = getenv(env_name);
    if (path == NULL || path[0] == '\0') {
        fprintf(stderr, "test: environment variable %s is not set (run through ctest)\n", env_name);
        abort();
    }
    return path;
}

pid_t kvr_test_spawn(char *const argv[], const char *log_path)
{
    if (!hook_installed) {
        atexit(kill_children);
        hook_installed = true;
    }
    if (n_children == MAX_CHILDREN)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (log_path != NULL) {
            int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) {
                dup2(fd, STDOUT_FILENO);
                dup2(fd, STDERR_FILENO);
                close(fd);
            }
        }
        /* Children die with the test even when it is killed outright (ctest timeout). */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(argv[0], argv);
        fprintf(stderr, "test: exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    children[n_children++] = pid;
    return pid;
}

static int bound_socket(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

uint16_t kvr_test_free_port(void)
{
    return kvr_test_free_port_range(1);
}

/* The first port the kernel hands out to outgoing connections. */
static unsigned ephemeral_first(void)
{
    unsigned first = 32768, last;
    FILE *fp = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (fp != NULL) {
        if (fscanf(fp, "%u %u", &first, &last) != 2)
            first = 32768;
        fclose(fp);
    }
    return first;
}

uint16_t kvr_test_free_port_range(unsigned count)
{
    /*
     * Ports below the ephemeral range: a port a test closes and opens again
     * (an engine that crashes and comes back) cannot be taken meanwhile as
     * the source port of some outgoing connection on a busy machine. A
     * per-process window avoids collisions between tests running in parallel.
     */
    static unsigned next, first, end;
    if (next == 0) {
        first = 10000;
        end = ephemeral_first();
        if (end > 65536 || end < first + 4096) { /* an unusual range: any unprivileged port */
            first = 1024;
            end = 65536;
        }
        next = first + (unsigned)getpid() % ((end - first) / 16) * 16;
    }
    for (int tries = 0; tries < 2000; tries++) {
        if (next + count > end)
            next = first;
        unsigned base = next;
        next += count;
        bool ok = true;
        int fds[256];
        unsigned opened = 0;
        for (unsigned i = 0; i < count && i < 256; i++) {
            int fd = bound_socket((uint16_t)(base + i));
            if (fd < 0) {
                ok = false;
                break;
            }
            fds[opened++] = fd;
        }
        for (unsigned i = 0; i < opened; i++)
            close(fds[i]);
        if (ok)
            return (uint16_t)base;
    }
    return 0;
}

int kvr_test_connect(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

bool kvr_test_wait_port(uint16_t port, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited <= timeout_ms; waited += 20) {
        int fd = kvr_test_connect(port);
        if (fd >= 0) {
            close(fd);
            return true;
        }
        kvr_test_sleep_ms(20);
    }
    return false;
}

typedef struct {
    const char *host;
    uint16_t port;
} addr_wait_t;

static bool addr_accepts(void *arg)
{
    const addr_wait_t *a = arg;
    struct sockaddr_storage ss = {0};
    socklen_t len;
    if (strchr(a->host, ':')) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(a->port);
        if (inet_pton(AF_INET6, a->host, &in6->sin6_addr) != 1)
            return false;
        len = sizeof *in6;
    } else {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        in->sin_family = AF_INET;
        in->sin_port = htons(a->port);
        if (inet_pton(AF_INET, a->host, &in->sin_addr) != 1)
            return false;
        len = sizeof *in;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&ss, len) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

bool kvr_test_wait_addr(const char *host, uint16_t port, unsigned timeout_ms)
{
    addr_wait_t a = {host, port};
    return kvr_test_wait_until(addr_accepts, &a, timeout_ms);
}

static bool port_refuses(void *arg)
{
    int fd = kvr_test_connect(*(const uint16_t *)arg);
    if (fd < 0)
        return true;
    close(fd);
    return false;
}

bool kvr_test_wait_port_closed(uint16_t port, unsigned timeout_ms)
{
    return kvr_test_wait_until(port_refuses, &port, timeout_ms);
}

bool kvr_test_alive(pid_t pid)
{
    int status;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
        forget_child(pid);
        return false;
    }
    return r == 0;
}

int kvr_test_wait_exit(pid_t pid, unsigned timeout_ms)
{
    return kvr_test_stop(pid, 0, timeout_ms); /* signal 0 sends nothing */
}

int kvr_test_stop(pid_t pid, int sig, unsigned timeout_ms)
{
    if (pid <= 0)
        return -1;
    if (sig != 0)
        kill(pid, sig);
    int status = -1;
    for (unsigned waited = 0;; waited += 10) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0) {
            status = -1;
            break;
        }
        if (waited >= timeout_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        kvr_test_sleep_ms(10);
    }
    forget_child(pid);
    return status;
}

int kvr_test_http(uint16_t port, const char *method, const char *path, const char *headers,
                  const char *body, char **response, unsigned timeout_ms)
{
    *response = NULL;
    int fd = kvr_test_connect(port);
    if (fd < 0)
        return -1;
    size_t body_len = body ? strlen(body) : 0;
    char head[4096];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, port, headers ? headers : "", body_len);
    if (n < 0 || (size_t)n >= sizeof head || write(fd, head, (size_t)n) != n ||
        (body_len && write(fd, body, body_len) != (ssize_t)body_len)) {
        close(fd);
        return -1;
    }
    kvr_buf_t answer = KVR_BUF_INIT;
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    for (;;) {
        if (poll(&pfd, 1, (int)timeout_ms) <= 0)
            break;
        ssize_t r = read(fd, kvr_buf_tail(&answer, 4096), 4096);
        if (r <= 0)
            break;
        kvr_buf_commit(&answer, (size_t)r);
    }
    close(fd);
    char *buf = kvr_buf_release(&answer, NULL);
    *response = buf;
    int status = -1;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    return status;
}

const char *kvr_test_http_body(const char *response)
{
    const char *p = response ? strstr(response, "\r\n\r\n") : NULL;
    return p ? p + 4 : NULL;
}

void kvr_test_unique_name(char *out, unsigned size, const char *prefix)
{
    static unsigned counter;
    snprintf(out, size, "%s-%d-%u", prefix, (int)getpid(), ++counter);
}

int kvr_test_run_node(const char *script, unsigned timeout_ms)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    if (!src)
        return KVR_TEST_NODE_MISSING;
    char mod[512], path[512], node[256] = "";
    snprintf(mod, sizeof mod, "%s/tests/node/node_modules/openai/package.json", src);
    snprintf(path, sizeof path, "%s/tests/node/%s", src, script);
    FILE *p = popen("command -v node", "r");
    if (p && fgets(node, sizeof node, p))
        node[strcspn(node, "\n")] = '\0';
    if (p)
        pclose(p);
    if (!node[0] || access(mod, R_OK) != 0)
        return KVR_TEST_NODE_MISSING;
    char *argv[] = {node, path, NULL};
    pid_t pid = kvr_test_spawn(argv, NULL);
    if (pid <= 0)
        return -1;
    /* Exit is the event waited on; the poll interval only bounds how late it is seen. */
    uint64_t deadline = monotonic_ms() + timeout_ms;
    int st = 0;
    while (waitpid(pid, &st, WNOHANG) != pid) {
        if (monotonic_ms() >= deadline) {
            kvr_test_stop(pid, SIGKILL, 1000);
            return -1;
        }
        kvr_test_sleep_ms(20);
    }
    kvr_test_stop(pid, 0, 0); /* already reaped: only drops it from the cleanup list */
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
