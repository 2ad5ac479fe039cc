/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SUPPORT_STUB_DNS_H
#define KVR_TESTS_SUPPORT_STUB_DNS_H

/*
 * A DNS server that answers only when the test says so, for programs run
 * in a private mount namespace whose /etc/resolv.conf and /etc/hosts are
 * scratch files naming it (unshare -m + mount --bind; the system's files
 * are never touched). It listens on UDP port 53 of a loopback address of
 * its own (127.53.x.y), so a held query is a resolver that has not
 * answered: the program's resolution stays pending until
 * kvr_stub_dns_release. Released, it answers every A query with one
 * address, and a name whose first label starts with "nx" with NXDOMAIN.
 * Needs root (port 53, mount namespaces).
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "tests/support/scratch_hosts.h"

#define KVR_STUB_DNS_HELD_MAX 16

typedef struct kvr_stub_dns_s {
    int fd;
    char address[32];          /* the server's IPv4 address */
    char answer[32];           /* the IPv4 address every A query is answered with */
    kvr_scratch_hosts_t files; /* resolv.conf naming this server, a hosts file with localhost */
    pthread_t thread;
    bool thread_started;
    atomic_bool stop;
    atomic_bool releasing; /* answer held and new queries at once */
    atomic_uint queries;   /* queries received, answered or not */
} kvr_stub_dns_t;

/**
 * Binds the server, writes the scratch files and starts answering nothing.
 * false (with why) when this machine cannot run it: not root, no
 * unshare/mount, port 53 taken on every address tried.
 */
bool kvr_stub_dns_start(kvr_stub_dns_t *d, const char *answer_ipv4, char *why, size_t why_len);
/**
 * The argv prefix that runs a program with the scratch files bind-mounted
 * (the program's own argv follows); returns how many entries it wrote.
 */
size_t kvr_stub_dns_wrap(kvr_stub_dns_t *d, const char **argv);
/** Waits until at least n queries arrived; false after timeout_ms. */
bool kvr_stub_dns_wait_queries(kvr_stub_dns_t *d, unsigned n, unsigned timeout_ms);
/** Answers the held queries and, until kvr_stub_dns_hold, every new one at once. */
void kvr_stub_dns_release(kvr_stub_dns_t *d);
/** New queries are held again. */
void kvr_stub_dns_hold(kvr_stub_dns_t *d);
/** Answers what is held, stops the server and removes the scratch files. */
void kvr_stub_dns_stop(kvr_stub_dns_t *d);

#endif
