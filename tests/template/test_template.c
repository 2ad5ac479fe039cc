/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template/template.h"

/* Compiles and renders src with messages/vars given as JSON text; returns the code. */
static int render(const char *src, const char *messages, const char *vars,
                  const kvr_template_options_t *opts, char **out, kvr_template_error_t *err)
{
    kvr_template_t *t;
    *out = NULL;
    int rc = kvr_template_compile(src, strlen(src), &t, err);
    if (rc)
        return rc;
    cJSON *m = messages ? cJSON_Parse(messages) : NULL;
    cJSON *v = vars ? cJSON_Parse(vars) : NULL;
    cr_assert(!messages || m, "bad test JSON: %s", messages);
    cr_assert(!vars || v, "bad test JSON: %s", vars);
    rc = kvr_template_render(t, m, NULL, false, v, opts, out, NULL, err);
    cJSON_Delete(m);
    cJSON_Delete(v);
    kvr_template_destroy(t);
    return rc;
}

static void expect_text(const char *src, const char *vars, const char *want)
{
    char *out;
    kvr_template_error_t err;
    int rc = render(src, NULL, vars, NULL, &out, &err);
    cr_assert_eq(rc, 0, "%s: %s", src, err.message);
    cr_expect_str_eq(out, want, "%s", src);
    free(out);
}

static void expect_code(const char *src, const char *vars, int code)
{
    char *out;
    kvr_template_error_t err = {0};
    int rc = render(src, NULL, vars, NULL, &out, &err);
    cr_expect_eq(rc, code, "%s: rc=%d (%s)", src, rc, err.message);
    cr_expect_null(out);
    if (rc)
        cr_expect_eq(err.code, rc);
    cr_expect(rc == 0 || err.message[0], "an error carries a message");
    free(out);
}

Test(template, whitespace_control_as_hf_sets_it, .timeout = 5.)
{
    /* trim_blocks drops the newline after a tag, lstrip_blocks the indent before one */
    expect_text("  {% if true %}\n  yes\n  {% endif %}\nz\n", NULL, "  yes\nz");
    expect_text("a  {%- if true %} b {% endif -%}  c", NULL, "a b c");
    expect_text("x {#- note -#} y", NULL, "xy");
    expect_text("{{- 'a' -}}  \n  {{ 'b' }}", NULL, "ab");
}

Test(template, loops_and_namespaces, .timeout = 5.)
{
    expect_text("{% for m in xs %}{{ loop.index0 }}{{ loop.first }}{{ loop.last }}"
                "{{ loop.length }};{% endfor %}",
                "{\"xs\":[1,2]}", "0truefalse2;1falsetrue2;");
    expect_text("{% for x in xs if x %}{{ x }}{% else %}none{% endfor %}", "{\"xs\":[0,null]}",
                "none");
    expect_text("{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}"
                "{% endfor %}{{ ns.n }}",
                "{\"xs\":[1,2,3]}", "6");
    /* a set inside a loop stays in the loop, as in the reference */
    expect_text("{% set c = 1 %}{% for x in xs %}{% set c = x %}{% endfor %}{{ c }}",
                "{\"xs\":[5]}", "1");
    expect_text("{{ xs[::-1] }}{{ xs[-1] }}{{ xs[1:] }}", "{\"xs\":[1,2,3]}", "[3, 2, 1]3[2, 3]");
}

Test(template, javascript_values_as_the_reference_prints_them, .timeout = 5.)
{
    expect_text("{{ 1.0 }} {{ 7 / 2 }} {{ x }} {{ y }}", "{\"x\":2.5,\"y\":1e21}",
                "1.0 3.5 2.5 1e+21");
    expect_code("{{ 1e21 }}", NULL, -EINVAL); /* the reference has no exponent literals */
    expect_text("{{ true }} {{ none }}|{{ [none, 1] }}|{{ 'a' ~ [none] }}", NULL,
                "true |[null, 1]|aundefined");
    /* Object.entries puts array-index keys first */
    expect_text("{{ o | tojson }}", "{\"o\":{\"b\":1,\"2\":2,\"1\":3,\"a\":[]}}",
                "{\"1\": 3, \"2\": 2, \"b\": 1, \"a\": []}");
    expect_text("{{ 'é\"\\n' | tojson }}|{{ 'é' | tojson(ensure_ascii=true) }}", NULL,
                "\"é\\\"\\n\"|\"\\u00e9\"");
    /* the reference's strip ignores its argument and trims all whitespace */
    expect_text("[{{ s.strip('\\n') }}][{{ s.lstrip('\\n') }}]", "{\"s\":\" \\n a \\u3000\"}",
                "[a][a \u3000]");
    expect_text("{{ s.split('</think>')[-1] }}|{{ 'x' in s }}", "{\"s\":\"r</think>c\"}",
                "c|false");
}

Test(template, refusals_carry_a_code_and_a_message, .timeout = 5.)
{
    expect_code("{{ raise_exception('no system role') }}", NULL, -ECANCELED);
    expect_code("{{ x + 1 }}", NULL, -EINVAL);              /* undefined + number */
    expect_code("{{ 'a' + none }}", NULL, -EINVAL);         /* null in arithmetic */
    expect_code("{{ x | trim }}", "{\"x\":null}", -EINVAL); /* filter on null */
    expect_code("{{ xs | first }}", "{\"xs\":[]}", -EINVAL);
    expect_code("{{ 'ß' | upper }}", NULL, -EINVAL);                  /* no Unicode case tables */
    expect_code("{{ s.items }}", "{\"s\":{}}", -EINVAL);              /* printing a function */
    expect_code("{{ s[0] }}", "{\"s\":\"\\ud83d\\ude00\"}", -EILSEQ); /* half a pair */
    expect_code("{% if x %}", NULL, -EINVAL);
    expect_code("{{ x", NULL, -EINVAL);
    expect_code("{% call foo() %}{% endcall %}", NULL, -EINVAL);
    expect_code("{{ 'abc }}", NULL, -EINVAL);
    expect_code("{{ f(*xs) }}", NULL, -EINVAL);
    expect_code("{% macro m() %}{{ varargs }}{% endmacro %}{{ m() }}", NULL, -EINVAL);
}

Test(template, hostile_templates_hit_bounds_not_the_stack, .timeout = 10.)
{
    /* nesting far past the depth bound */
    size_t n = 20000;
    char *deep = malloc(2 * n + 8);
    strcpy(deep, "{{ ");
    memset(deep + 3, '(', n);
    strcpy(deep + 3 + n, "1");
    memset(deep + 4 + n, ')', n);
    strcpy(deep + 4 + 2 * n, " }}");
    expect_code(deep, NULL, -ELOOP);
    free(deep);
    expect_code("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", NULL, -ELOOP);
    /* loops and output are capped */
    expect_code("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
                NULL, -E2BIG);
    char *out;
    kvr_template_error_t err;
    kvr_template_options_t small = {.max_output_bytes = 1000};
    cr_expect_eq(render("{% for i in range(2000) %}ab{% endfor %}", NULL, NULL, &small, &out, &err),
                 -E2BIG);
    cr_expect_null(out);
    kvr_template_options_t mem = {.max_memory_bytes = 1 << 20};
    cr_expect_eq(render("{% set ns = namespace(s='x') %}{% for i in range(100000) %}"
                        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
                        NULL, NULL, &mem, &out, &err),
                 -E2BIG);
    /* time: a body scanning a long string every iteration stops at the work bound */
    kvr_template_options_t work = {.max_work = 10u << 20};
    cr_expect_eq(render("{% set ns = namespace(s='ab') %}"
                        "{% for i in range(20) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"
                        "{% for i in range(100000) %}{% if 'zz' in ns.s %}!{% endif %}{% endfor %}",
                        NULL, NULL, &work, &out, &err),
                 -E2BIG);
    cr_expect(strstr(err.message, "work") != NULL, "%s", err.message);
    /* the source size is bounded before any work */
    size_t big = KVR_TEMPLATE_MAX_SOURCE_BYTES + 1;
    char *huge = malloc(big);
    memset(huge, 'a', big);
    kvr_template_t *t;
    cr_expect_eq(kvr_template_compile(huge, big, &t, &err), -E2BIG);
    free(huge);
    cr_expect_eq(kvr_template_compile("\xff{{ x }}", 9, &t, &err), -EILSEQ);
}

Test(template, hostile_json_is_refused, .timeout = 10.)
{
    char *out;
    kvr_template_error_t err;
    /* invalid UTF-8 inside a JSON string (cJSON does not check it) */
    cr_expect_eq(
        render("{{ messages[0].content }}", "[{\"content\":\"\xc3\x28\"}]", NULL, NULL, &out, &err),
        -EILSEQ);
    /* nesting past the JSON depth bound */
    char deep[2000];
    memset(deep, '[', 500);
    memset(deep + 500, ']', 500);
    deep[1000] = '\0';
    cr_expect_eq(render("{{ messages }}", deep, NULL, NULL, &out, &err), -ELOOP);
    /* more members in one object than the bound */
    char *wide = malloc(200000);
    size_t o = (size_t)sprintf(wide, "[{");
    for (int i = 0; i < 5000; i++)
        o += (size_t)sprintf(wide + o, "%s\"k%d\":%d", i ? "," : "", i, i);
    strcpy(wide + o, "}]");
    cr_expect_eq(render("{{ messages|length }}", wide, NULL, NULL, &out, &err), -E2BIG);
    free(wide);
    /* no messages at all: undefined, as when the key is missing */
    cr_expect_eq(render("{{ messages is defined }}", NULL, NULL, NULL, &out, &err), 0);
    cr_expect_str_eq(out, "false");
    free(out);
}

Test(template, strftime_now_reads_the_given_time, .timeout = 5.)
{
    setenv("TZ", "UTC", 1);
    kvr_template_options_t opts = {.now_unix_s = 1764633600}; /* 2025-12-02 00:00 UTC */
    char *out;
    kvr_template_error_t err;
    cr_assert_eq(
        render("{{ strftime_now('%Y-%m-%d %H:%M %b %B %%') }}", NULL, NULL, &opts, &out, &err), 0,
        "%s", err.message);
    cr_expect_str_eq(out, "2025-12-02 00:00 Dec December %");
    free(out);
}

Test(template, request_numbers_as_javascript_reads_them, .timeout = 5.)
{
    /* JSON.parse, then the reference's printing, tojson and concatenation */
    static const struct {
        const char *raw, *want;
    } cases[] = {
        {"1.0", "1|1|[1]|1"},
        {"1E5", "100000|100000|[100000]|100000"},
        {"-0", "0|0|[0]|0"},
        {"1e400", "Infinity|null|[null]|Infinity"},
        {"0.30000000000000004", "0.30000000000000004|0.30000000000000004|[0.30000000000000004]|"
                                "0.30000000000000004"},
        {"12345678901234567890", "12345678901234567000|12345678901234567000|"
                                 "[12345678901234567000]|12345678901234567000"},
        {"-1.5e-9", "-1.5e-9|-1.5e-9|[-1.5e-9]|-1.5e-9"},
        {"5e-324", "5e-324|5e-324|[5e-324]|5e-324"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char vars[128];
        snprintf(vars, sizeof vars, "{\"x\":%s}", cases[i].raw);
        expect_text("{{ x }}|{{ x|tojson }}|{{ [x] }}|{{ x ~ \"\" }}", vars, cases[i].want);
    }
}

Test(template, scratch_memory_is_reused_across_renders, .timeout = 10.)
{
    kvr_template_scratch_t *scratch = kvr_template_scratch_create(8u << 20);
    kvr_template_options_t opts = {.scratch = scratch, .max_memory_bytes = 16u << 20};
    const char *src = "{% for i in range(n) %}{{ i ~ s }}{% endfor %}";
    char *first = NULL;
    for (int round = 0; round < 5; round++) {
        char *out;
        kvr_template_error_t err;
        /* a refusal in between hands its chunks back too */
        int rc = render(src, NULL,
                        round == 2 ? "{\"n\":1000000,\"s\":\"xxxxxxxxxx\"}"
                                   : "{\"n\":3000,\"s\":\"ab\"}",
                        &opts, &out, &err);
        if (round == 2) {
            cr_expect_eq(rc, -E2BIG);
            continue;
        }
        cr_assert_eq(rc, 0, "%s", err.message);
        if (!first)
            first = out;
        else {
            cr_expect_str_eq(out, first);
            free(out);
        }
    }
    free(first);
    kvr_template_scratch_destroy(scratch);
}
