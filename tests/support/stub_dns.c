/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/support/stub_dns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

typedef struct {
    uint8_t packet[512];
    size_t len;
    struct sockaddr_in peer;
} held_query_t;

/*
 * The answer to one query: a name whose first label starts with "nx" does
 * not exist (NXDOMAIN); otherwise A gets d->answer and any other type no
 * record (NOERROR, NODATA).
 */
static void answer(const kvr_stub_dns_t *d, const held_query_t *q)
{
    if (q->len < 12 + 5)
        return;
    size_t i = 12;
    while (i < q->len && q->packet[i] != 0)
        i += 1u + q->packet[i];
    if (i + 5 > q->len)
        return;
    size_t question_end = i + 5;
    uint16_t qtype = (uint16_t)(q->packet[i + 1] << 8 | q->packet[i + 2]);
    bool missing = q->packet[12] >= 2 && q->packet[13] == 'n' && q->packet[14] == 'x';
    if (missing)
        qtype = 0;
    uint8_t out[600];
    memcpy(out, q->packet, question_end);
    out[2] = 0x81;                  /* QR, RD */
    out[3] = missing ? 0x83 : 0x80; /* RA, NXDOMAIN or NOERROR */
    out[4] = 0, out[5] = 1;
    out[6] = 0, out[7] = qtype == 1 ? 1 : 0;
    memset(out + 8, 0, 4);
    size_t n = question_end;
    if (qtype == 1) {
        static const uint8_t rr[] = {0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4};
        memcpy(out + n, rr, sizeof rr);
        n += sizeof rr;
        inet_pton(AF_INET, d->answer, out + n);
        n += 4;
    }
    (void)sendto(d->fd, out, n, 0, (const struct sockaddr *)&q->peer, sizeof q->peer);
}

static void *serve(void *arg)
{
    kvr_stub_dns_t *d = arg;
    held_query_t *held = calloc(KVR_STUB_DNS_HELD_MAX, sizeof *held);
    size_t n_held = 0;
    while (!atomic_load(&d->stop)) {
        if (atomic_load(&d->releasing)) {
            for (size_t i = 0; i < n_held; i++)
                answer(d, &held[i]);
            n_held = 0;
        }
        struct pollfd p = {.fd = d->fd, .events = POLLIN};
        if (poll(&p, 1, 20) <= 0)
            continue;
        held_query_t q;
        socklen_t len = sizeof q.peer;
        ssize_t got = recvfrom(d->fd, q.packet, sizeof q.packet, 0, (struct sockaddr *)&q.peer,
                               &len);
        if (got <= 0)
            continue;
        q.len = (size_t)got;
        atomic_fetch_add(&d->queries, 1);
        if (atomic_load(&d->releasing))
            answer(d, &q);
        else if (n_held < KVR_STUB_DNS_HELD_MAX)
            held[n_held++] = q;
    }
    for (size_t i = 0; i < n_held; i++)
        answer(d, &held[i]);
    free(held);
    return NULL;
}

bool kvr_stub_dns_start(kvr_stub_dns_t *d, const char *answer_ipv4, char *why, size_t why_len)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    snprintf(d->answer, sizeof d->answer, "%s", answer_ipv4);
    d->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (d->fd < 0) {
        snprintf(why, why_len, "socket: %s", strerror(errno));
        return false;
    }
    /* An address of its own, so parallel suites (and a "nothing on 127.0.0.1:53") do not meet. */
    unsigned seed = (unsigned)getpid();
    bool bound = false;
    for (unsigned attempt = 0; attempt < 16 && !bound; attempt++) {
        unsigned v = (seed + attempt * 7919u) % 65000u;
        snprintf(d->address, sizeof d->address, "127.53.%u.%u", v / 250u, 1u + v % 250u);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
        inet_pton(AF_INET, d->address, &a.sin_addr);
        bound = bind(d->fd, (struct sockaddr *)&a, sizeof a) == 0;
    }
    if (!bound) {
        snprintf(why, why_len, "cannot bind UDP port 53 on 127.53.0.0/16: %s", strerror(errno));
        close(d->fd);
        d->fd = -1;
        return false;
    }
    char text[160];
    /* One server, one try, a long wait: a held query keeps the resolver waiting. */
    snprintf(text, sizeof text, "nameserver %s\noptions timeout:30 attempts:1\n", d->address);
    if (!kvr_scratch_hosts_make(&d->files, "/tmp/kvroute-stub-dns",
                                "127.0.0.1 localhost\n::1 localhost\n", text, "localhost")) {
        snprintf(why, why_len, "needs 'unshare -m' and 'mount --bind' (root or CAP_SYS_ADMIN)");
        kvr_stub_dns_stop(d);
        return false;
    }
    if (pthread_create(&d->thread, NULL, serve, d) != 0) {
        snprintf(why, why_len, "pthread_create failed");
        kvr_stub_dns_stop(d);
        return false;
    }
    d->thread_started = true;
    return true;
}

size_t kvr_stub_dns_wrap(kvr_stub_dns_t *d, const char **argv)
{
    argv[0] = kvr_scratch_hosts_wrapper(&d->files, NULL);
    return 1;
}

typedef struct {
    kvr_stub_dns_t *d;
    unsigned n;
} wait_arg_t;

static bool enough_queries(void *arg)
{
    wait_arg_t *w = arg;
    return atomic_load(&w->d->queries) >= w->n;
}

bool kvr_stub_dns_wait_queries(kvr_stub_dns_t *d, unsigned n, unsigned timeout_ms)
{
    wait_arg_t w = {d, n};
    return kvr_test_wait_until(enough_queries, &w, timeout_ms);
}

void kvr_stub_dns_release(kvr_stub_dns_t *d)
{
    atomic_store(&d->releasing, true);
}

void kvr_stub_dns_hold(kvr_stub_dns_t *d)
{
    atomic_store(&d->releasing, false);
}

void kvr_stub_dns_stop(kvr_stub_dns_t *d)
{
    if (d->thread_started) {
        atomic_store(&d->stop, true);
        pthread_join(d->thread, NULL);
        d->thread_started = false;
    }
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
    kvr_scratch_hosts_remove(&d->files);
}
