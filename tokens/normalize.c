/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Unicode normalizers (utf8proc), with a quick check first: most text a
 * router sees is ASCII, Latin, CJK or kana, which NFC leaves as it is, and
 * utf8proc's decompose-then-compose of it was a fifth of the encode time.
 */
#include <errno.h>
#include <stdlib.h>

#include <utf8proc.h>

#include "tokens/internal.h"

/*
 * Characters NFC keeps and that compose with no neighbour from this set:
 * none has a canonical decomposition that NFC changes, none has a nonzero
 * combining class, and none is the second character of a composition
 * (checked against every code point's NFD by a JavaScript engine). A text
 * made only of them is its own NFC.
 */
static bool nfc_inert(uint32_t cp)
{
    return cp < 0x300 || (cp >= 0x3000 && cp <= 0x3029) || (cp >= 0x3030 && cp <= 0x303f) ||
           (cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30a1 && cp <= 0x30fa) ||
           (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3) ||
           (cp >= 0xff01 && cp <= 0xff5e);
}

/* Whether FORM leaves S (well-formed UTF-8) unchanged, for sure; false means "ask utf8proc". */
static bool form_keeps(kvr__tok_norm_t form, const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t i = 0;
    for (;;) {
        while (i < len && p[i] < 0x80)
            i++;
        if (i == len)
            return true; /* every form keeps ASCII */
        if (form != KVR__TOK_NORM_NFC)
            return false; /* decomposition and compatibility change much of Latin-1 on */
        size_t n = p[i] < 0xe0 ? 2 : p[i] < 0xf0 ? 3 : 0; /* nothing astral is inert */
        if (n == 0 || n > len - i)
            return false;
        uint32_t cp = n == 2 ? (uint32_t)(p[i] & 0x1f) << 6 | (p[i + 1] & 0x3f)
                             : (uint32_t)(p[i] & 0x0f) << 12 | (uint32_t)(p[i + 1] & 0x3f) << 6 |
                                   (p[i + 2] & 0x3f);
        if (!nfc_inert(cp))
            return false;
        i += n;
    }
}

int kvr__tok_normalize(kvr__tok_norm_t form, const char *s, size_t len, char **out, size_t *out_len)
{
    *out = NULL;
    if (form_keeps(form, s, len))
        return 0;
    int opts = UTF8PROC_STABLE;
    switch (form) {
    case KVR__TOK_NORM_NFC: opts |= UTF8PROC_COMPOSE; break;
    case KVR__TOK_NORM_NFD: opts |= UTF8PROC_DECOMPOSE; break;
    case KVR__TOK_NORM_NFKC: opts |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
    case KVR__TOK_NORM_NFKD: opts |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
    }
    utf8proc_uint8_t *dst = NULL;
    utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len, &dst,
                                      (utf8proc_option_t)opts);
    if (n < 0)
        return n == UTF8PROC_ERROR_NOMEM ? -ENOMEM : -EINVAL;
    *out = (char *)dst;
    *out_len = (size_t)n;
    return 0;
}
