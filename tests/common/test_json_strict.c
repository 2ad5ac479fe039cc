/* SPDX-License-Identifier: Apache-2.0 */
/* common/json_strict.c: which member and string a program reads could be read another way. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "common/json_strict.h"

static cJSON *doc;
static kvr_json_strict_t strict;

static void parse(const char *text, size_t len)
{
    doc = cJSON_ParseWithLength(text, len);
    cr_assert_not_null(doc, "%s", text);
    kvr_json_strict_init(&strict, doc, text, len);
}

static void done(void)
{
    kvr_json_strict_close(&strict);
    cJSON_Delete(doc);
    doc = NULL;
}

TestSuite(json_strict, .fini = done, .timeout = 5.);

/* Member lookup: 0 and the member, or -EINVAL with the reason. */
static int member(const cJSON *obj, const char *name, const cJSON **out, const char **why)
{
    *why = NULL;
    return kvr_json_strict_member(&strict, obj, name, out, why);
}

Test(json_strict, a_plain_body_has_nothing_to_report)
{
    static const char text[] = "{\"a\":\"x\",\"b\":[\"y\",{\"c\":\"\\\\u0000\"}]}";
    parse(text, sizeof text - 1);
    cr_expect_eq(strict.n_nul_keys + strict.n_nul_strings, 0, "an escaped backslash is not U+0000");
    const cJSON *a, *c;
    const char *why;
    cr_expect_eq(member(doc, "a", &a, &why), 0);
    cr_expect_eq(kvr_json_strict_string(&strict, a, true, &why), 0);
    cr_expect_eq(member(doc, "missing", &c, &why), 0);
    cr_expect_null(c);
    cr_expect_eq(member(cJSON_GetObjectItem(doc, "b"), "c", &c, &why), 0, "not an object: absent");
    cr_expect_null(c);
}

Test(json_strict, duplicates_and_nul_keys_are_reported)
{
    static const char text[] = "{\"a\":1,\"b\":2,\"a\":3,\"k\\u0000x\":4}";
    parse(text, sizeof text - 1);
    const cJSON *v;
    const char *why;
    cr_expect_eq(member(doc, "a", &v, &why), -EINVAL);
    cr_expect(why && strstr(why, "twice"), "%s", why);
    cr_expect_eq(member(doc, "k", &v, &why), -EINVAL, "cJSON names it k");
    cr_expect(why && strstr(why, "key holding"), "%s", why);
    cr_expect_eq(member(doc, "b", &v, &why), 0);
    cr_expect_eq(v->valueint, 2);
}

Test(json_strict, each_string_is_told_apart_in_text_order)
{
    /* Keys and values, nested, in arrays: only the ones with U+0000 (escaped or raw) are marked. */
    static const char text[] =
        "[\"\\u0000\",\"ok\",{\"k\":\"a\\u0000\",\"ok\":\"b\",\"r\":\"c\0d\"},"
        "[[\"x\"],\"\\\\\",\"\\u0000\"]]";
    parse(text, sizeof text - 1);
    const cJSON *v0 = cJSON_GetArrayItem(doc, 0), *v1 = cJSON_GetArrayItem(doc, 1);
    const cJSON *obj = cJSON_GetArrayItem(doc, 2), *inner = cJSON_GetArrayItem(doc, 3);
    const char *why;
    cr_expect_eq(kvr_json_strict_string(&strict, v0, false, &why), -EINVAL);
    cr_expect_eq(kvr_json_strict_string(&strict, v1, false, &why), 0);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(obj, "k"), false, &why),
                 -EINVAL);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(obj, "ok"), false, &why), 0);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(obj, "r"), false, &why),
                 -EINVAL, "a raw NUL byte");
    cr_expect_eq(kvr_json_strict_string(
                     &strict, cJSON_GetArrayItem(cJSON_GetArrayItem(inner, 0), 0), false, &why),
                 0);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetArrayItem(inner, 1), false, &why), 0);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetArrayItem(inner, 2), false, &why),
                 -EINVAL);
    cr_expect_eq(strict.n_nul_strings, 4);
}

Test(json_strict, utf8_is_checked_only_when_asked)
{
    static const char text[] = "{\"a\":\"caf\xc3\xa9\",\"b\":\"\xed\xa0\x80\",\"c\":\"\xff\"}";
    parse(text, sizeof text - 1);
    const char *why = NULL;
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(doc, "a"), true, &why), 0);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(doc, "b"), true, &why),
                 -EINVAL, "an encoded surrogate is not UTF-8");
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(doc, "c"), true, &why),
                 -EINVAL);
    cr_expect(why && strstr(why, "UTF-8"), "%s", why);
    cr_expect_eq(kvr_json_strict_string(&strict, cJSON_GetObjectItem(doc, "c"), false, &why), 0);
}

/* Printed again, numbers read as written: Python's json keeps 2^64 - 1 exact, cJSON's double not. */
static void expect_kept(const char *body, const char *printed, int numbers)
{
    parse(body, strlen(body));
    cr_expect_eq(kvr_json_strict_keep_numbers(doc, body, strlen(body)), numbers, "%s", body);
    char *text = cJSON_PrintUnformatted(doc);
    cr_assert_not_null(text);
    cr_expect_str_eq(text, printed);
    cJSON_free(text);
    done();
}

Test(json_strict, numbers_print_as_the_body_wrote_them)
{
    expect_kept("{\"seed\":18446744073709551615,\"t\":1.0,\"a\":[1e400,-0.0,2.50,-7]}",
                "{\"seed\":18446744073709551615,\"t\":1.0,\"a\":[1e400,-0.0,2.50,-7]}", 6);
    /* Digits inside strings and keys, escaped quotes, literals with an e: none is a number. */
    expect_kept("{\"k\\\"1\" : \"a\\\"2 3e4\", \"true\": [true, false, null], \"v\" : 3E+2 }",
                "{\"k\\\"1\":\"a\\\"2 3e4\",\"true\":[true,false,null],\"v\":3E+2}", 1);
    expect_kept("[]", "[]", 0);
    expect_kept("{\"s\":\"no numbers\"}", "{\"s\":\"no numbers\"}", 0);
    /* Keys and order stay: the raw node takes the number's place. */
    expect_kept("{\"a\":1,\"b\":{\"c\":[2,{\"d\":3}]},\"e\":4}",
                "{\"a\":1,\"b\":{\"c\":[2,{\"d\":3}]},\"e\":4}", 4);
}

Test(json_strict, a_tree_of_another_text_is_left_as_it_is)
{
    parse("[1,2]", 5);
    cr_expect_eq(kvr_json_strict_keep_numbers(doc, "[1,2,3]", 7), -EINVAL);
    cr_expect(cJSON_IsNumber(doc->child) && cJSON_IsNumber(doc->child->next), "unchanged");
    done();
}
