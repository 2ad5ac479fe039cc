/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_JSON_TEXT_H
#define KVR_COMMON_JSON_TEXT_H

/*
 * JSON text without a document: UTF-8 checks and string escaping, for lines
 * written straight into a file buffer on a hot path (the router's decision
 * log) and for text that must stay valid JSON whatever bytes it was given.
 */

#include <stddef.h>
#include <stdio.h>

/**
 * Length of the valid UTF-8 sequence whose lead byte (>= 0x80) is at p, or 0
 * when it is not one. end bounds the read; NULL when the text is
 * NUL-terminated (a NUL ends any sequence early, so the read stays inside).
 */
size_t kvr_json_utf8_len(const unsigned char *p, const unsigned char *end);

/** Offset of the first byte of [s, s + len) that is not UTF-8, or len when all are. */
size_t kvr_json_utf8_valid_prefix(const char *s, size_t len);

/** Writes s as a JSON string ("null" for NULL): escapes, and U+FFFD for bytes that are not UTF-8. */
void kvr_json_put_string(FILE *f, const char *s);

#define KVR_JSON_REAL_MAX 32
/** v as a JSON number that reads back exactly and stays a real when whole ("3.0"); "null" if not finite. */
const char *kvr_json_format_real(char buf[KVR_JSON_REAL_MAX], double v);

#endif
