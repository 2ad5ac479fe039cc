/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SUPPORT_SCRATCH_HOSTS_H
#define KVR_TESTS_SUPPORT_SCRATCH_HOSTS_H

/*
 * Name resolution a test controls: a program runs in a private mount
 * namespace whose /etc/hosts and /etc/resolv.conf are scratch files the test
 * owns (bind-mounted; the system's are never touched), so editing the
 * scratch hosts file changes the resolver's answer. Lines are switched on
 * and off by rewriting their first byte (' ' or '#') in place: the bind
 * mount follows the inode, and a one-byte write never shows a reader half a
 * line. The resolv.conf names a server that is not there, so a name missing
 * from the hosts file fails at once.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kvr_scratch_hosts_s {
    char dir[128];
    char hosts_path[160];
    char resolv_path[160];
    char wrapper_path[160];
    char text[1024]; /* the hosts file as written, to find a line's first byte */
} kvr_scratch_hosts_t;

/**
 * Makes a private directory (prefix plus a unique suffix) holding hosts_text
 * as the hosts file; skips the test (cr_skip_test) when 'unshare -m' and
 * 'mount --bind' do not work here, checked by finding name in the bound file.
 */
void kvr_scratch_hosts_setup(kvr_scratch_hosts_t *s, const char *prefix, const char *hosts_text,
                             const char *name);
/** As kvr_scratch_hosts_setup with resolv.conf's text given, returning false instead of skipping. */
bool kvr_scratch_hosts_make(kvr_scratch_hosts_t *s, const char *prefix, const char *hosts_text,
                            const char *resolv_text, const char *name);
/** A file in the directory; returns its path (in out). */
const char *kvr_scratch_hosts_file(const kvr_scratch_hosts_t *s, const char *file, const char *text,
                                   char *out, size_t cap);
/**
 * An executable in the directory that runs program (with its arguments) in
 * the namespace; with program NULL, the program is its first argument. Its path;
 * one wrapper per directory, a later call replaces it.
 */
const char *kvr_scratch_hosts_wrapper(kvr_scratch_hosts_t *s, const char *program);
/** Comments out (or back in) the line whose address is addr ("127.0.0.2"). */
void kvr_scratch_hosts_set_listed(const kvr_scratch_hosts_t *s, const char *addr, bool listed);
/** Removes every file it made and the directory; safe to call when setup never ran. */
void kvr_scratch_hosts_remove(kvr_scratch_hosts_t *s);

#endif
