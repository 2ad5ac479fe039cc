/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_SHM_INTERNAL_H
#define KVR_SHM_INTERNAL_H

/*
 * What the state segment (shm.c) and the dispatch segment (dispatch.c)
 * share: one way to spell a name, to read a clock, to judge who may have
 * written an object. Not part of the ABI; nothing outside shm_layout/ uses it.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/* POSIX shm objects live here on Linux; identity checks and fix texts name the file. */
#define KVR_SHM_DIR "/dev/shm"

/** name as a POSIX shm name in out ("/x"; a missing '/' is added). 0, -EINVAL, -ENAMETOOLONG. */
int kvr__shm_name(char *out, size_t size, const char *name);

/** clock id in nanoseconds. */
uint64_t kvr__shm_clock_ns(clockid_t id);

/** 0 when st is a regular file of owner_uid that no group or other may write; -EINVAL, KVR_ESHM_OWNER. */
int kvr__shm_check_owner(const struct stat *st, uid_t owner_uid);

/**
 * Opens the shm object shm_name read-only for a reader, without following a link: a regular
 * file of owner_uid that no group or other may write (kvr__shm_check_owner), at least min_len
 * bytes long. Returns its descriptor with *st filled, or -errno, -EINVAL, KVR_ESHM_OWNER,
 * KVR_ESHM_TRUNCATED; *st is filled whenever fstat succeeded, so a caller can say what it found.
 */
int kvr__shm_open_reader(const char *shm_name, uid_t owner_uid, size_t min_len, struct stat *st);

/** True when pid names a live process (kill(pid, 0) succeeds or says EPERM). */
int kvr__shm_pid_alive(int64_t pid);

#endif
