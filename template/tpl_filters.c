/* SPDX-License-Identifier: Apache-2.0 */
/* Filters, tests and the string helpers they share with member access, as the reference's
 * applyFilter and Environment tests have them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_eval.h"

/* JavaScript string length counts UTF-16 code units. */
double kvr__tpl_utf16_length(tpl_str_t s)
{
    double n = 0;
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if ((c & 0xC0) != 0x80)
            n += c >= 0xF0 ? 2 : 1;
    }
    return n;
}

/* utils.ts titleCase (/\b\w/g upper-cased: ASCII only) and capitalize (first UTF-16 unit
 * upper-cased; refused when it is not ASCII, having no Unicode case tables here). */
tpl_str_t kvr__tpl_ascii_case(eval_t *ev, tpl_str_t s, bool title)
{
    char *d = kvr__tpl_alloc(ev->ctx, s.n + 1);
    memcpy(d, s.p, s.n);
    d[s.n] = '\0';
    if (!title) {
        if (s.n && (unsigned char)d[0] >= 0x80)
            FAIL(ev, "capitalize of non-ASCII text is not supported");
        if (s.n && d[0] >= 'a' && d[0] <= 'z')
            d[0] = (char)(d[0] - 32);
        return (tpl_str_t){d, s.n};
    }
    bool prev_word = false;
    for (size_t i = 0; i < s.n; i++) {
        char c = d[i];
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
        if (word && !prev_word && c >= 'a' && c <= 'z')
            d[i] = (char)(c - 32);
        prev_word = word;
    }
    return (tpl_str_t){d, s.n};
}

/* JavaScript parseInt(s, 10) / parseFloat(s); NaN when nothing parses. */
static double js_parse_number(tpl_str_t s, bool integer)
{
    s = kvr__tpl_trim(s, true, false);
    char buf[64];
    size_t n = 0, i = 0;
    if (i < s.n && (s.p[i] == '+' || s.p[i] == '-'))
        buf[n++] = s.p[i++];
    size_t digits = 0;
    if (!integer && s.n - i >= 8 && memcmp(s.p + i, "Infinity", 8) == 0)
        return n && buf[0] == '-' ? -INFINITY : INFINITY;
    while (i < s.n && n < 60 &&
           ((s.p[i] >= '0' && s.p[i] <= '9') ||
            (!integer &&
             (s.p[i] == '.' || s.p[i] == 'e' || s.p[i] == 'E' ||
              ((s.p[i] == '+' || s.p[i] == '-') && (s.p[i - 1] == 'e' || s.p[i - 1] == 'E')))))) {
        digits += s.p[i] >= '0' && s.p[i] <= '9';
        buf[n++] = s.p[i++];
    }
    if (!digits)
        return NAN;
    buf[n] = '\0';
    char *end;
    double d = strtod(buf, &end);
    if (end == buf)
        return NAN;
    if (integer)
        return trunc(d);
    return d;
}

static tpl_value_t *filter_number(eval_t *ev, tpl_value_t *v, bool integer, bool has_args,
                                  const args_t *a)
{
    tpl_ctx_t *ctx = ev->ctx;
    tpl_value_t *dflt = a->npos ? a->pos[0] : kvr__tpl_kwarg(a, "default");
    if (v->type == V_STR) {
        double d = js_parse_number(v->s, integer);
        if (isnan(d))
            return dflt ? dflt : kvr__tpl_num_val(ctx, integer ? V_INT : V_FLOAT, 0);
        return kvr__tpl_num_val(ctx, integer ? V_INT : V_FLOAT, d);
    }
    if (v->type == V_INT || v->type == V_FLOAT)
        return has_args ? v
                        : kvr__tpl_num_val(ctx, integer ? V_INT : V_FLOAT,
                                           integer ? floor(v->num) : v->num);
    if (v->type == V_BOOL)
        return kvr__tpl_num_val(ctx, integer ? V_INT : V_FLOAT, v->b ? 1 : 0);
    FAIL(ev, "cannot apply filter \"%s\" to type: %s", integer ? "int" : "float",
         kvr__tpl_type_name(v));
}

static tpl_value_t *filter_attr(eval_t *ev, tpl_value_t *v, tpl_str_t name, args_t *a)
{
    tpl_ctx_t *ctx = ev->ctx;
    bool select = STR_IS(name, "selectattr"), reject = STR_IS(name, "rejectattr");
    if (!kvr__tpl_is_arr(v))
        FAIL(ev, "cannot apply filter %.*s to %s", (int)name.n, name.p, kvr__tpl_type_name(v));
    tpl_value_t *out = kvr__tpl_val(ctx, V_ARR);
    if (STR_IS(name, "map")) {
        tpl_value_t *attr = kvr__tpl_kwarg(a, "attribute");
        if (!attr || attr->type != V_STR || a->npos)
            FAIL(ev, "map is supported with attribute= only");
        tpl_value_t *dflt = kvr__tpl_kwarg(a, "default");
        for (size_t i = 0; i < v->n; i++) {
            tpl_value_t *it = v->items[i];
            tpl_value_t *x = kvr__tpl_is_map(it)
                                 ? kvr__tpl_obj_get(ev->ctx, it, attr->s.p, attr->s.n)
                                 : NULL;
            if (!kvr__tpl_is_map(it))
                FAIL(ev, "items in map must be objects");
            kvr__tpl_arr_push(ctx, out, x ? x : dflt ? dflt : kvr__tpl_undef(ev));
        }
        return out;
    }
    if (!select && !reject)
        FAIL(ev, "unknown filter: %.*s", (int)name.n, name.p);
    if (a->npos < 1 || a->pos[0]->type != V_STR)
        FAIL(ev, "%.*s requires an attribute name", (int)name.n, name.p);
    if (a->npos > 1 && !(a->pos[1]->type == V_STR &&
                         (STR_IS(a->pos[1]->s, "equalto") || STR_IS(a->pos[1]->s, "eq") ||
                          STR_IS(a->pos[1]->s, "defined"))))
        FAIL(ev, "%.*s test is not supported", (int)name.n, name.p);
    for (size_t i = 0; i < v->n; i++) {
        tpl_value_t *it = v->items[i];
        if (!kvr__tpl_is_map(it))
            FAIL(ev, "items in %.*s must be objects", (int)name.n, name.p);
        tpl_value_t *x = kvr__tpl_obj_get(ev->ctx, it, a->pos[0]->s.p, a->pos[0]->s.n);
        bool ok;
        if (a->npos == 1)
            ok = x && kvr__tpl_truthy(x);
        else if (STR_IS(a->pos[1]->s, "defined"))
            ok = x != NULL;
        else
            ok = x && a->npos > 2 && kvr__tpl_strict_eq(x, a->pos[2]);
        if (ok == select)
            kvr__tpl_arr_push(ctx, out, it);
    }
    return out;
}

tpl_value_t *kvr__tpl_apply_filter(eval_t *ev, tpl_value_t *v, const tpl_node_t *f, scope_t *sc)
{
    tpl_ctx_t *ctx = ev->ctx;
    args_t a = {0};
    tpl_str_t name;
    bool has_args = f->type == N_CALL;
    if (has_args) {
        if (f->a->type != N_IDENT)
            FAIL(ev, "unknown filter");
        name = f->a->str;
        kvr__tpl_eval_args(ev, &f->list, sc, &a);
    } else {
        name = f->str;
    }
    if (STR_IS(name, "safe"))
        return v;
    if (STR_IS(name, "tojson")) {
        tpl_json_opts_t o = {.undefined_as_null = true};
        tpl_value_t *x;
        if ((x = kvr__tpl_kwarg(&a, "indent")) && x->type != V_NULL) {
            if (x->type != V_INT || x->num < 0 || x->num > 64)
                FAIL(ev, "indent must be a small number");
            o.indent = (int)x->num;
        }
        if ((x = kvr__tpl_kwarg(&a, "ensure_ascii"))) {
            if (x->type != V_BOOL)
                FAIL(ev, "ensure_ascii must be a boolean");
            o.ensure_ascii = x->b;
        }
        if ((x = kvr__tpl_kwarg(&a, "sort_keys"))) {
            if (x->type != V_BOOL)
                FAIL(ev, "sort_keys must be a boolean");
            o.sort_keys = x->b;
        }
        if ((x = kvr__tpl_kwarg(&a, "separators")) && x->type != V_NULL) {
            if (!kvr__tpl_is_arr(x) || x->n != 2 || x->items[0]->type != V_STR ||
                x->items[1]->type != V_STR)
                FAIL(ev, "separators must be a tuple of two strings");
            o.item_sep = x->items[0]->s;
            o.key_sep = x->items[1]->s;
        }
        tpl_sb_t sb = {.max = ev->max_output};
        kvr__tpl_tojson(ctx, &sb, v, &o, 0);
        return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&sb));
    }
    if (STR_IS(name, "default")) {
        tpl_value_t *dflt = a.npos ? a.pos[0] : kvr__tpl_str_val(ctx, (tpl_str_t){"", 0});
        tpl_value_t *boolean = a.npos > 1 ? a.pos[1] : kvr__tpl_kwarg(&a, "boolean");
        if (boolean && boolean->type != V_BOOL)
            FAIL(ev, "`default` filter flag must be a boolean");
        if (v->type == V_UNDEF || (boolean && boolean->b && !kvr__tpl_truthy(v)))
            return dflt;
        return v;
    }
    if (STR_IS(name, "join")) {
        if (!kvr__tpl_is_arr(v))
            FAIL(ev, "join of %s is not supported", kvr__tpl_type_name(v));
        tpl_value_t *sep = a.npos ? a.pos[0] : kvr__tpl_kwarg(&a, "separator");
        if (sep && sep->type != V_STR)
            FAIL(ev, "separator must be a string");
        tpl_sb_t sb = {.max = ev->max_output};
        for (size_t i = 0; i < v->n; i++) {
            if (i && sep)
                kvr__tpl_sb_puts(ctx, &sb, sep->s);
            tpl_value_t *it = v->items[i];
            /* Array.prototype.join of the items' raw values: undefined prints nothing */
            if (it->type != V_NULL && it->type != V_UNDEF)
                kvr__tpl_print_raw(ctx, &sb, it);
        }
        return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&sb));
    }
    if (STR_IS(name, "map") || STR_IS(name, "selectattr") || STR_IS(name, "rejectattr"))
        return filter_attr(ev, v, name, &a);
    if (STR_IS(name, "int") || STR_IS(name, "float"))
        return filter_number(ev, v, STR_IS(name, "int"), has_args, &a);
    if (has_args && !STR_IS(name, "trim") && !STR_IS(name, "length"))
        FAIL(ev, "filter %.*s with arguments is not supported", (int)name.n, name.p);
    if (kvr__tpl_is_arr(v)) {
        if (STR_IS(name, "list"))
            return v;
        if ((STR_IS(name, "first") || STR_IS(name, "last")) && v->n == 0)
            FAIL(ev, "%.*s of an empty array", (int)name.n, name.p);
        if (STR_IS(name, "first"))
            return v->items[0];
        if (STR_IS(name, "last"))
            return v->items[v->n - 1];
        if (STR_IS(name, "length"))
            return kvr__tpl_num_val(ctx, V_INT, (double)v->n);
        if (STR_IS(name, "reverse")) {
            tpl_value_t *out = kvr__tpl_val(ctx, V_ARR);
            for (size_t i = v->n; i-- > 0;)
                kvr__tpl_arr_push(ctx, out, v->items[i]);
            return out;
        }
        if (STR_IS(name, "string")) {
            tpl_json_opts_t o = {0};
            tpl_sb_t sb = {.max = ev->max_output};
            kvr__tpl_tojson(ctx, &sb, v, &o, 0);
            return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&sb));
        }
    } else if (v->type == V_STR) {
        if (STR_IS(name, "length"))
            return kvr__tpl_num_val(ctx, V_INT, kvr__tpl_utf16_length(v->s));
        if (STR_IS(name, "upper") || STR_IS(name, "lower")) {
            args_t none = {0};
            return kvr__tpl_call(ev, kvr__tpl_builtin_of(ev, v, name), &none, sc);
        }
        if (STR_IS(name, "trim"))
            return kvr__tpl_str_val(ctx, kvr__tpl_trim(v->s, true, true));
        if (STR_IS(name, "capitalize") || STR_IS(name, "title"))
            return kvr__tpl_str_val(ctx, kvr__tpl_ascii_case(ev, v->s, STR_IS(name, "title")));
        if (STR_IS(name, "string"))
            return v;
    } else if (v->type == V_INT || v->type == V_FLOAT) {
        if (STR_IS(name, "string"))
            return kvr__tpl_str_val(ctx, kvr__tpl_to_str(ev, v, false));
        if (STR_IS(name, "abs"))
            return kvr__tpl_num_val(ctx, v->type, fabs(v->num));
    } else if (v->type == V_OBJ || v->type == V_KWARGS) {
        if (STR_IS(name, "items"))
            return kvr__tpl_call(ev, kvr__tpl_fn_val(ev, M_ITEMS, v), &a, sc);
        if (STR_IS(name, "length"))
            return kvr__tpl_num_val(ctx, V_INT, (double)v->n);
    } else if (v->type == V_BOOL) {
        if (STR_IS(name, "string"))
            return kvr__tpl_str_val(ctx, v->b ? (tpl_str_t){"true", 4} : (tpl_str_t){"false", 5});
    }
    FAIL(ev, "cannot apply filter \"%.*s\" to type: %s", (int)name.n, name.p,
         kvr__tpl_type_name(v));
}

tpl_value_t *kvr__tpl_run_test(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    tpl_value_t *v = kvr__tpl_eval(ev, nd->a, sc);
    tpl_str_t t = nd->str;
    bool r;
    if (STR_IS(t, "defined"))
        r = v->type != V_UNDEF;
    else if (STR_IS(t, "undefined"))
        r = v->type == V_UNDEF;
    else if (STR_IS(t, "none"))
        r = v->type == V_NULL;
    else if (STR_IS(t, "string"))
        r = v->type == V_STR;
    else if (STR_IS(t, "boolean"))
        r = v->type == V_BOOL;
    else if (STR_IS(t, "false"))
        r = v->type == V_BOOL && !v->b;
    else if (STR_IS(t, "true"))
        r = v->type == V_BOOL && v->b;
    else if (STR_IS(t, "number"))
        r = v->type == V_INT || v->type == V_FLOAT;
    else if (STR_IS(t, "integer"))
        r = v->type == V_INT;
    else if (STR_IS(t, "mapping"))
        r = kvr__tpl_is_map(v);
    else if (STR_IS(t, "iterable"))
        r = v->type == V_ARR || v->type == V_STR;
    else if (STR_IS(t, "sequence"))
        r = kvr__tpl_is_arr(v) || kvr__tpl_is_map(v) || v->type == V_STR;
    else if (STR_IS(t, "callable"))
        r = v->type == V_FUNC;
    else if (STR_IS(t, "odd") || STR_IS(t, "even")) {
        if (v->type != V_INT)
            FAIL(ev, "cannot test odd/even on %s", kvr__tpl_type_name(v));
        r = (fmod(v->num, 2) != 0) == STR_IS(t, "odd");
    } else
        FAIL(ev, "unknown test: %.*s", (int)t.n, t.p);
    return kvr__tpl_bool_val(ev->ctx, nd->flag ? !r : r);
}
