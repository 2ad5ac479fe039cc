/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pre-tokenizer's split regex, compiled by PCRE2 so that it means what
 * the reference's JavaScript engine reads ("gu" flags): JavaScript's \s set,
 * its ".", \uXXXX escapes, and the rewrites the reference applies first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/hex.h"
#include "tokens/internal.h"

#define JS_SPACE_CLASS                                                                             \
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"  \
    "\\x{3000}\\x{FEFF}"

bool kvr__tok_is_js_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0xa0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
           cp == 0x205f || cp == 0x3000 || cp == 0xfeff;
}

/* The reference's own rewrites, applied before the engine sees the pattern. */
static const char *const k_rewrites[][2] = {
    {"(?i:'s|'t|'re|'ve|'m|'ll|'d)", "(?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))"},
    {" ?[^(\\s|[.,!?\xe2\x80\xa6\xe3\x80\x82\xef\xbc\x8c\xe3\x80\x81\xe0\xa5\xa4\xdb\x94\xd8\x8c])]+",
     " ?[^\\s.,!?\xe2\x80\xa6\xe3\x80\x82\xef\xbc\x8c\xe3\x80\x81\xe0\xa5\xa4\xdb\x94\xd8\x8c]+"},
};

static int replace_all(kvr_buf_t *b, const char *from, const char *to)
{
    size_t flen = strlen(from), tlen = strlen(to);
    kvr_buf_t out;
    kvr_buf_init(&out);
    size_t i = 0;
    while (i < b->len) {
        if (b->len - i >= flen && memcmp(b->base + i, from, flen) == 0) {
            kvr_buf_append(&out, to, tlen);
            i += flen;
        } else {
            kvr_buf_append(&out, b->base + i, 1);
            i++;
        }
    }
    kvr_buf_close(b);
    *b = out;
    return 0;
}

/* \uXXXX or \u{X...} at p (after the backslash); returns characters used or -1. */
static int parse_u_escape(const char *p, size_t left, uint32_t *cp)
{
    if (left >= 2 && p[1] == '{') {
        uint32_t v = 0;
        size_t i = 2;
        while (i < left && p[i] != '}') {
            int h = kvr_hex_digit(p[i]);
            if (h < 0 || v > 0x10ffff)
                return -1;
            v = v * 16 + (uint32_t)h;
            i++;
        }
        if (i >= left || i == 2 || v > 0x10ffff)
            return -1;
        *cp = v;
        return (int)i + 1;
    }
    if (left < 5)
        return -1;
    uint32_t v = 0;
    for (int i = 1; i <= 4; i++) {
        int h = kvr_hex_digit(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + (uint32_t)h;
    }
    *cp = v;
    return 5;
}

static int translate(const char *s, size_t len, kvr_buf_t *out, char *err, size_t err_len)
{
    bool in_class = false;
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == '\\') {
            if (i + 1 >= len) {
                snprintf(err, err_len, "regex ends with a backslash");
                return -EINVAL;
            }
            char e = s[i + 1];
            if (e == 's' || e == 'S') {
                if (in_class && e == 'S') {
                    snprintf(err, err_len, "regex: \\S inside a character class is not supported");
                    return -ENOTSUP;
                }
                if (in_class)
                    kvr_buf_append_str(out, JS_SPACE_CLASS);
                else
                    kvr_buf_append_str(out,
                                       e == 's' ? "[" JS_SPACE_CLASS "]" : "[^" JS_SPACE_CLASS "]");
                i += 2;
                continue;
            }
            if (e == 'u') {
                uint32_t cp;
                int used = parse_u_escape(s + i + 1, len - i - 1, &cp);
                if (used < 0) {
                    snprintf(err, err_len, "regex: bad \\u escape");
                    return -EINVAL;
                }
                i += 1 + (size_t)used;
                if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < len && s[i] == '\\' &&
                    s[i + 1] == 'u') {
                    uint32_t lo;
                    int used2 = parse_u_escape(s + i + 1, len - i - 1, &lo);
                    if (used2 > 0 && lo >= 0xdc00 && lo <= 0xdfff) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                        i += 1 + (size_t)used2;
                    }
                }
                if (cp >= 0xd800 && cp <= 0xdfff) {
                    snprintf(err, err_len, "regex: lone surrogate escape");
                    return -ENOTSUP;
                }
                kvr_buf_printf(out, "\\x{%X}", (unsigned)cp);
                continue;
            }
            /* Any other escape passes through whole, with a multi-byte character intact. */
            size_t n = 2;
            while (i + n < len && ((uint8_t)s[i + n] & 0xc0) == 0x80)
                n++;
            kvr_buf_append(out, s + i, n);
            i += n;
            continue;
        }
        if (in_class) {
            if (c == ']')
                in_class = false;
            if (c == '[') {
                kvr_buf_append_str(out, "\\[");
                i++;
                continue;
            }
            kvr_buf_append(out, &c, 1);
            i++;
            continue;
        }
        if (c == '[') {
            if (i + 1 < len && s[i + 1] == ']') {
                kvr_buf_append_str(out, "(?!)");
                i += 2;
                continue;
            }
            if (i + 2 < len && s[i + 1] == '^' && s[i + 2] == ']') {
                kvr_buf_append_str(out, "[\\x{0}-\\x{10FFFF}]");
                i += 3;
                continue;
            }
            in_class = true;
            kvr_buf_append(out, &c, 1);
            if (i + 1 < len && s[i + 1] == '^') {
                kvr_buf_append(out, "^", 1);
                i++;
            }
            i++;
            continue;
        }
        if (c == '.') {
            kvr_buf_append_str(out, "[^\\n\\r\\x{2028}\\x{2029}]");
            i++;
            continue;
        }
        kvr_buf_append(out, &c, 1);
        i++;
    }
    return 0;
}

int kvr__tok_regex_compile(const char *pattern, size_t len, bool literal, pcre2_code **out,
                           char *err, size_t err_len)
{
    kvr_buf_t src, pcre;
    kvr_buf_init(&src);
    kvr_buf_init(&pcre);
    int rc = 0;
    if (literal) {
        for (size_t i = 0; i < len; i++) {
            char c = pattern[i];
            if ((uint8_t)c < 0x80 && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') &&
                !(c >= 'A' && c <= 'Z') && c != ' ')
                kvr_buf_append(&pcre, "\\", 1);
            kvr_buf_append(&pcre, &c, 1);
        }
    } else {
        /* The reference drops the backslash of \# \& \~ (a JavaScript "u" regex refuses them). */
        for (size_t i = 0; i < len; i++) {
            if (pattern[i] == '\\' && i + 1 < len &&
                (pattern[i + 1] == '#' || pattern[i + 1] == '&' || pattern[i + 1] == '~'))
                continue;
            kvr_buf_append(&src, pattern + i, 1);
        }
        for (size_t k = 0; k < sizeof k_rewrites / sizeof k_rewrites[0]; k++)
            replace_all(&src, k_rewrites[k][0], k_rewrites[k][1]);
        rc = translate(src.base ? src.base : "", src.len, &pcre, err, err_len);
        if (rc < 0)
            goto done;
    }
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)(pcre.base ? pcre.base : ""), pcre.len,
                                   PCRE2_UTF | PCRE2_DOLLAR_ENDONLY, &code, &off, NULL);
    if (!re) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(code, msg, sizeof msg);
        snprintf(err, err_len, "regex does not compile at offset %zu: %s", (size_t)off,
                 (const char *)msg);
        rc = -EINVAL;
        goto done;
    }
    /* Without JIT (not built in, or no executable memory) the interpreter answers the same. */
    (void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    *out = re;
done:
    kvr_buf_close(&src);
    kvr_buf_close(&pcre);
    return rc;
}
