/* SPDX-License-Identifier: Apache-2.0 */
#include "common/json_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t kvr_json_utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (end != NULL && (size_t)(end - p) < n)
        return 0;
    /* Without end, a NUL fails the continuation-byte test before any read past it. */
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

size_t kvr_json_utf8_valid_prefix(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        size_t n = *p < 0x80 ? 1 : kvr_json_utf8_len(p, end);
        if (n == 0)
            return (size_t)(p - (const unsigned char *)s);
        p += n;
    }
    return len;
}

void kvr_json_put_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    const unsigned char *p = (const unsigned char *)s, *run = p;
    putc('"', f);
    while (*p) {
        unsigned char c = *p;
        size_t n = 1;
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0x80 && (n = kvr_json_utf8_len(p, NULL)) > 0) {
            p += n;
            continue;
        }
        fwrite(run, 1, (size_t)(p - run), f);
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputs("\\ufffd", f); /* a byte that is not UTF-8: the line stays valid JSON */
        }
        run = ++p;
    }
    fwrite(run, 1, (size_t)(p - run), f);
    putc('"', f);
}

const char *kvr_json_format_real(char buf[KVR_JSON_REAL_MAX], double v)
{
    if (!isfinite(v))
        return "null";
    /* The shortest of 15 or 17 digits that reads back the same value... */
    int n = snprintf(buf, KVR_JSON_REAL_MAX, "%.15g", v);
    if (strtod(buf, NULL) != v)
        n = snprintf(buf, KVR_JSON_REAL_MAX, "%.17g", v);
    /* ...written as a real even when whole, so readers keep its type. */
    if (!strpbrk(buf, ".eE") && n > 0 && n + 2 < KVR_JSON_REAL_MAX)
        memcpy(buf + n, ".0", 3);
    return buf;
}
