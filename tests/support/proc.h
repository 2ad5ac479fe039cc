/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_SUPPORT_PROC_H
#define KVR_TESTS_SUPPORT_PROC_H

/*
 * What integration tests need to run the real programs on loopback: start a
 * program, find a free port, wait until it listens, stop it. Every process
 * started here is also killed by an atexit hook, so a failing assertion
 * (which exits the test process) never leaves one behind.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/** Path of a program the test declared with NEEDS (env KVR_BIN_<NAME>); aborts the test if unset. */
const char *kvr_test_bin(const char *env_name);

/**
 * Starts argv[0] with argv (NULL-terminated), stdout and stderr appended to
 * log_path when it is not NULL (else inherited). Returns the pid, or -1.
 */
pid_t kvr_test_spawn(char *const argv[], const char *log_path);

/** A loopback TCP port that was free a moment ago (bind to port 0, read it, close). */
uint16_t kvr_test_free_port(void);

/** count consecutive free ports starting at the returned one, or 0 when none found. */
uint16_t kvr_test_free_port_range(unsigned count);

/** A blocking TCP socket connected to 127.0.0.1:port, or -1 (errno says why). */
int kvr_test_connect(uint16_t port);

/** Waits until 127.0.0.1:port accepts a connection; false after timeout_ms. */
bool kvr_test_wait_port(uint16_t port, unsigned timeout_ms);

/** Waits until host:port (an IPv4 or IPv6 literal) accepts a connection; false after timeout_ms. */
bool kvr_test_wait_addr(const char *host, uint16_t port, unsigned timeout_ms);

/** Waits until 127.0.0.1:port refuses connections (a program closed it); false after timeout_ms. */
bool kvr_test_wait_port_closed(uint16_t port, unsigned timeout_ms);

/** Sends sig and reaps; SIGKILL after timeout_ms. Returns the wait status, or -1. */
int kvr_test_stop(pid_t pid, int sig, unsigned timeout_ms);

/**
 * Waits for pid to exit by itself and reaps it; SIGKILL after timeout_ms (a
 * safety net). Returns the wait status, or -1.
 */
int kvr_test_wait_exit(pid_t pid, unsigned timeout_ms);

/** True while pid has not exited (reaps it if it has). */
bool kvr_test_alive(pid_t pid);

/**
 * One HTTP/1.1 request to 127.0.0.1:port on a fresh connection (Connection:
 * close), body may be NULL. Returns the status code and fills response (the
 * whole raw response, NUL-terminated, caller frees) or -1 on a socket error.
 */
int kvr_test_http(uint16_t port, const char *method, const char *path, const char *headers,
                  const char *body, char **response, unsigned timeout_ms);

/** The body of a raw HTTP response (after the blank line), or NULL. */
const char *kvr_test_http_body(const char *response);

/** A unique name for a temp file or shm object: prefix-pid-counter. */
void kvr_test_unique_name(char *out, unsigned size, const char *prefix);

/** Sleeps ms milliseconds. */
void kvr_test_sleep_ms(unsigned ms);

/**
 * Calls cond(arg) about every millisecond until it returns true. False when
 * timeout_ms of CLOCK_MONOTONIC pass first: the timeout is a safety net for a
 * condition that never comes, sized far above the wait on a loaded machine.
 */
bool kvr_test_wait_until(bool (*cond)(void *arg), void *arg, unsigned timeout_ms);

/** True when the file at path contains needle (false when it cannot be read). */
bool kvr_test_file_contains(const char *path, const char *needle);

/** Waits until the file at path (a program's log) contains needle; false after timeout_ms. */
bool kvr_test_wait_file_contains(const char *path, const char *needle, unsigned timeout_ms);

/**
 * Runs tests/node/SCRIPT (under KVR_SOURCE_DIR) with node, its environment
 * this process's, and waits up to timeout_ms (then kills it). Returns its
 * exit status, -1 when it did not exit in time, or KVR_TEST_NODE_MISSING
 * when node or the openai package is not installed (scripts/install-deps.sh).
 */
int kvr_test_run_node(const char *script, unsigned timeout_ms);
#define KVR_TEST_NODE_MISSING (-2)

#endif
