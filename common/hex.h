/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_HEX_H
#define KVR_COMMON_HEX_H

/* Hexadecimal digits as URLs' percent escapes, JSON's \u escapes and digests write them. */

/** The value of the hex digit c, either case; -1 for any other character. */
static inline int kvr_hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

#endif
