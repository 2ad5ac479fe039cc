/* SPDX-License-Identifier: Apache-2.0 */
/* The growable buffer: contents survive growth, stay NUL-terminated, and sizes never wrap. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"

Test(buf, appends_grow_and_keep_every_byte, .timeout = 5.)
{
    kvr_buf_t b;
    kvr_buf_init(&b);
    for (unsigned i = 0; i < 10000; i++) {
        char c = (char)('a' + i % 26);
        kvr_buf_append(&b, &c, 1);
    }
    cr_assert_eq(b.len, 10000u);
    cr_assert_geq(b.cap, b.len + 1);
    unsigned wrong = 0;
    for (unsigned i = 0; i < 10000; i++)
        wrong += b.base[i] != (char)('a' + i % 26);
    cr_assert_eq(wrong, 0u, "every byte survives the moves");
    cr_expect_eq(b.base[b.len], '\0');
    kvr_buf_append(&b, "", 0);
    cr_expect_eq(b.len, 10000u);
    kvr_buf_close(&b);
    cr_expect_null(b.base);
    cr_expect_eq(b.len, 0u);
}

Test(buf, empty_append_still_gives_a_string, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_buf_append(&b, NULL, 0);
    cr_assert_not_null(b.base);
    cr_expect_str_eq(b.base, "");
    kvr_buf_close(&b);
}

Test(buf, printf_appends_output_longer_than_the_room_left, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_buf_append_str(&b, "head:");
    char long_arg[5000];
    memset(long_arg, 'x', sizeof long_arg - 1);
    long_arg[sizeof long_arg - 1] = '\0';
    kvr_buf_printf(&b, "%s|%d|%.3f", long_arg, -42, 1.5);
    cr_assert_eq(b.len, 5u + 4999u + strlen("|-42|1.500"));
    cr_expect_eq(strncmp(b.base, "head:", 5), 0);
    cr_expect_eq(strspn(b.base + 5, "x"), 4999u);
    cr_expect_str_eq(b.base + 5 + 4999, "|-42|1.500");
    /* Output that fits exactly in the room left. */
    kvr_buf_reset(&b);
    size_t room = b.cap - 1;
    kvr_buf_printf(&b, "%*s", (int)room, "");
    cr_expect_eq(b.cap, room + 1, "no growth for output that fits");
    cr_expect_eq(b.len, room);
    cr_expect_eq(b.base[room], '\0');
    kvr_buf_close(&b);
}

Test(buf, reset_keeps_capacity, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    char big[3000] = {0};
    kvr_buf_append(&b, big, sizeof big);
    size_t cap = b.cap;
    char *base = b.base;
    kvr_buf_reset(&b);
    cr_expect_eq(b.len, 0u);
    cr_expect_eq(b.cap, cap);
    cr_expect_eq(b.base, base);
    cr_expect_str_eq(b.base, "");
    kvr_buf_append(&b, big, sizeof big);
    cr_expect_eq(b.base, base, "refilling to the old size does not reallocate");
    kvr_buf_close(&b);
}

Test(buf, reserve_refuses_sizes_that_would_wrap, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_buf_append_str(&b, "abc");
    size_t cap = b.cap;
    cr_expect_eq(kvr_buf_reserve(&b, SIZE_MAX), -ENOMEM);
    cr_expect_eq(kvr_buf_reserve(&b, SIZE_MAX - 3), -ENOMEM);
    cr_expect_eq(kvr_buf_reserve(&b, SIZE_MAX - 2), -ENOMEM);
    cr_expect_eq(kvr_buf_reserve(&b, SIZE_MAX / 2), -ENOMEM);
    cr_expect_eq(b.len, 3u);
    cr_expect_eq(b.cap, cap);
    cr_expect_str_eq(b.base, "abc", "a refused reserve leaves the contents");
    cr_expect_eq(kvr_buf_reserve(&b, 1000), 0);
    cr_expect_geq(b.cap, 1004u);
    kvr_buf_close(&b);
}

Test(buf, append_of_an_impossible_size_aborts, .signal = SIGABRT, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_buf_append_str(&b, "abc");
    (void)kvr_buf_tail(&b, SIZE_MAX - 1);
}

Test(buf, starts_in_caller_storage_and_moves_to_the_heap, .timeout = 5.)
{
    char stack[8];
    kvr_buf_t b;
    kvr_buf_init_in(&b, stack, sizeof stack);
    kvr_buf_append_str(&b, "1234567");
    cr_expect_eq(b.base, stack, "7 bytes and the NUL fit");
    kvr_buf_append_str(&b, "89");
    cr_expect_neq(b.base, stack);
    cr_expect_str_eq(b.base, "123456789");
    kvr_buf_close(&b); /* frees the heap copy only */

    kvr_buf_init_in(&b, stack, sizeof stack);
    kvr_buf_append_str(&b, "ab");
    size_t len = 0;
    char *out = kvr_buf_release(&b, &len);
    cr_expect_neq(out, stack, "release hands out heap memory");
    cr_expect_str_eq(out, "ab");
    cr_expect_eq(len, 2u);
    free(out);
}

Test(buf, tail_commit_and_consume, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_buf_commit(&b, 0); /* a read that returned nothing */
    cr_expect_null(b.base);
    char *t = kvr_buf_tail(&b, 5);
    memcpy(t, "hello", 5);
    kvr_buf_commit(&b, 5);
    kvr_buf_append_str(&b, " world");
    kvr_buf_consume(&b, 6);
    cr_expect_str_eq(b.base, "world");
    cr_expect_eq(b.len, 5u);
    kvr_buf_consume(&b, 99);
    cr_expect_eq(b.len, 0u);
    cr_expect_str_eq(b.base, "");
    char *out = kvr_buf_release(&b, NULL);
    cr_expect_str_eq(out, "");
    free(out);
    cr_expect_null(b.base);
}
