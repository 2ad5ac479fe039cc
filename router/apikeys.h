/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_APIKEYS_H
#define KVR_ROUTER_APIKEYS_H

/*
 * Client API keys (--api-keys-file): one "NAME sha256:HEX" per line, the
 * SHA-256 of each key, never the key. A request's "Authorization: Bearer
 * KEY" is hashed and compared with every line in constant time; the names
 * label the per-key request counters, so their number bounds the labels.
 */

#include <stddef.h>
#include <stdint.h>

#include "common/prom_writer.h"

#define KVR_APIKEYS_MAX 4096    /* lines with a key in one file */
#define KVR_APIKEYS_NAME_MAX 64 /* bytes of a name: [A-Za-z0-9_.-] */

typedef struct kvr_apikeys_s kvr_apikeys_t;

/** Parses a keys file's text; 0, or -EINVAL (-ENOMEM) with "line N: reason" in err. */
int kvr_apikeys_parse(const char *text, size_t len, kvr_apikeys_t **out, char *err, size_t err_len);
/** Reads and parses the file at path; 0 or -errno with the reason in err. */
int kvr_apikeys_load(const char *path, kvr_apikeys_t **out, char *err, size_t err_len);
void kvr_apikeys_destroy(kvr_apikeys_t *k);
/** The index of the key an Authorization value ("Bearer KEY") presents, or -1. */
int kvr_apikeys_check(const kvr_apikeys_t *k, const char *authorization);
/** Keys in the file. */
size_t kvr_apikeys_count(const kvr_apikeys_t *k);
/** The name of key i. */
const char *kvr_apikeys_name(const kvr_apikeys_t *k, size_t i);
/** Counts one request made with key i. */
void kvr_apikeys_count_request(kvr_apikeys_t *k, size_t i);
/** Requests counted for key i. */
uint64_t kvr_apikeys_requests(const kvr_apikeys_t *k, size_t i);
/** A reloaded file keeps the counts of the names it still has (counters never go back). */
void kvr_apikeys_carry_counts(kvr_apikeys_t *fresh, const kvr_apikeys_t *old);
/** kvroute_api_key_requests_total{key="NAME"}, one sample per name (k may be NULL: nothing). */
void kvr_apikeys_metrics(const kvr_apikeys_t *k, kvr_prom_writer_t *w);

#endif
