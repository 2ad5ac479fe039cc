/* SPDX-License-Identifier: Apache-2.0 */
/* Evaluator: walks the tree as the reference's Interpreter does (a new scope per for loop
 * and macro call, `set` binds in the innermost scope, namespaces are mutable), with bounded
 * depth, loop iterations, memory and output. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tpl_eval.h"

tpl_value_t *kvr__tpl_undef(eval_t *ev)
{
    return kvr__tpl_val(ev->ctx, V_UNDEF);
}

tpl_value_t *kvr__tpl_fn_val(eval_t *ev, int fn, tpl_value_t *self)
{
    tpl_value_t *f = kvr__tpl_val(ev->ctx, V_FUNC);
    f->fn = fn;
    f->self = self;
    return f;
}

tpl_value_t *kvr__tpl_lookup(eval_t *ev, scope_t *sc, tpl_str_t name)
{
    for (; sc; sc = sc->parent) {
        tpl_value_t *v = kvr__tpl_obj_get(ev->ctx, sc->vars, name.p, name.n);
        if (v)
            return v;
    }
    if (STR_IS(name, "namespace"))
        return kvr__tpl_fn_val(ev, FN_NAMESPACE, NULL);
    /* the reference binds these in a macro whose body reads them; here they are refused */
    if (ev->macro_depth && (STR_IS(name, "varargs") || STR_IS(name, "kwargs")))
        FAIL(ev, "%.*s in a macro is not supported", (int)name.n, name.p);
    return kvr__tpl_undef(ev);
}

void kvr__tpl_bind(eval_t *ev, scope_t *sc, tpl_str_t name, tpl_value_t *v)
{
    kvr__tpl_obj_set(ev->ctx, sc->vars, name, v);
}

scope_t *kvr__tpl_new_scope(eval_t *ev, scope_t *parent)
{
    scope_t *s = kvr__tpl_alloc(ev->ctx, sizeof(*s));
    s->vars = kvr__tpl_val(ev->ctx, V_OBJ);
    s->parent = parent;
    return s;
}

tpl_str_t kvr__tpl_to_str(eval_t *ev, const tpl_value_t *v, bool raw)
{
    tpl_sb_t sb = {0};
    if (raw)
        kvr__tpl_print_raw(ev->ctx, &sb, v);
    else
        kvr__tpl_print(ev->ctx, &sb, v);
    return kvr__tpl_sb_str(&sb);
}

static bool is_num(const tpl_value_t *v)
{
    return v->type == V_INT || v->type == V_FLOAT;
}

static bool is_arr(const tpl_value_t *v)
{
    return v->type == V_ARR || v->type == V_TUPLE;
}

static bool is_map(const tpl_value_t *v)
{
    return v->type == V_OBJ || v->type == V_KWARGS;
}

static bool str_eq(tpl_str_t a, tpl_str_t b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bool str_contains(eval_t *ev, tpl_str_t hay, tpl_str_t needle)
{
    kvr__tpl_charge(ev->ctx, hay.n);
    if (needle.n == 0)
        return true;
    return needle.n <= hay.n && memmem(hay.p, hay.n, needle.p, needle.n) != NULL;
}

/* JavaScript ToNumber of a string. */
static double js_to_number(tpl_str_t s)
{
    s = kvr__tpl_trim(s, true, true);
    if (s.n == 0)
        return 0;
    if (s.n > 300)
        return NAN;
    char buf[320];
    memcpy(buf, s.p, s.n);
    buf[s.n] = '\0';
    if (!strcmp(buf, "Infinity") || !strcmp(buf, "+Infinity"))
        return INFINITY;
    if (!strcmp(buf, "-Infinity"))
        return -INFINITY;
    for (size_t i = 0; i < s.n; i++) {
        char c = buf[i];
        bool hex = s.n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
              (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || i == 1))))
            return NAN;
    }
    char *end;
    double d = strtod(buf, &end);
    return *end ? NAN : d;
}

/* left.value == right.value with JavaScript's loose equality. */
static bool kvr__tpl_loose_eq(eval_t *ev, const tpl_value_t *a, const tpl_value_t *b)
{
    bool an = a->type == V_UNDEF || a->type == V_NULL, bn = b->type == V_UNDEF || b->type == V_NULL;
    if (an || bn)
        return an && bn;
    if (a->type == V_STR && b->type == V_STR)
        return str_eq(a->s, b->s);
    bool aobj = is_arr(a) || is_map(a) || a->type == V_NS || a->type == V_FUNC;
    bool bobj = is_arr(b) || is_map(b) || b->type == V_NS || b->type == V_FUNC;
    if (aobj && bobj)
        return a == b || (a->items && a->items == b->items) || (a->kv && a->kv == b->kv);
    if (aobj || bobj) {
        const tpl_value_t *o = aobj ? a : b, *p = aobj ? b : a;
        tpl_value_t *prim = kvr__tpl_str_val(ev->ctx, kvr__tpl_to_str(ev, o, true));
        return kvr__tpl_loose_eq(ev, aobj ? prim : p, aobj ? p : prim);
    }
    double x = a->type == V_BOOL ? a->b : a->type == V_STR ? js_to_number(a->s) : a->num;
    double y = b->type == V_BOOL ? b->b : b->type == V_STR ? js_to_number(b->s) : b->num;
    return x == y;
}

/* x.value === y.value */
bool kvr__tpl_strict_eq(const tpl_value_t *a, const tpl_value_t *b)
{
    if (a->type == V_STR || b->type == V_STR)
        return a->type == b->type && str_eq(a->s, b->s);
    if (is_num(a) || is_num(b))
        return is_num(a) && is_num(b) && a->num == b->num;
    if (a->type == V_BOOL || b->type == V_BOOL)
        return a->type == b->type && a->b == b->b;
    /* NullValue and UndefinedValue both hold JavaScript's undefined */
    if (a->type == V_NULL || a->type == V_UNDEF || b->type == V_NULL || b->type == V_UNDEF)
        return (a->type == V_NULL || a->type == V_UNDEF) &&
               (b->type == V_NULL || b->type == V_UNDEF);
    return a == b;
}

static tpl_value_t *num_result(eval_t *ev, const tpl_value_t *l, const tpl_value_t *r, double v)
{
    return kvr__tpl_num_val(ev->ctx, l->type == V_FLOAT || r->type == V_FLOAT ? V_FLOAT : V_INT, v);
}

tpl_value_t *kvr__tpl_eval_binary(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    tpl_str_t op = nd->str;
    tpl_value_t *l = kvr__tpl_eval(ev, nd->a, sc);
    if (STR_IS(op, "and"))
        return kvr__tpl_truthy(l) ? kvr__tpl_eval(ev, nd->b, sc) : l;
    if (STR_IS(op, "or"))
        return kvr__tpl_truthy(l) ? l : kvr__tpl_eval(ev, nd->b, sc);
    tpl_value_t *r = kvr__tpl_eval(ev, nd->b, sc);
    if (STR_IS(op, "=="))
        return kvr__tpl_bool_val(ev->ctx, kvr__tpl_loose_eq(ev, l, r));
    if (STR_IS(op, "!="))
        return kvr__tpl_bool_val(ev->ctx, !kvr__tpl_loose_eq(ev, l, r));
    bool in = STR_IS(op, "in"), not_in = STR_IS(op, "not in");
    if (l->type == V_UNDEF || r->type == V_UNDEF) {
        if (r->type == V_UNDEF && (in || not_in))
            return kvr__tpl_bool_val(ev->ctx, not_in);
        FAIL(ev, "cannot perform operation %.*s on undefined values", (int)op.n, op.p);
    }
    if (l->type == V_NULL || r->type == V_NULL)
        FAIL(ev, "cannot perform operation on null values");
    if (STR_IS(op, "~")) {
        tpl_sb_t sb = {0};
        kvr__tpl_print_raw(ev->ctx, &sb, l);
        kvr__tpl_print_raw(ev->ctx, &sb, r);
        return kvr__tpl_str_val(ev->ctx, kvr__tpl_sb_str(&sb));
    }
    if (STR_IS(op, "**") && (is_num(l) || l->type == V_BOOL) && (is_num(r) || r->type == V_BOOL)) {
        /* booleans count as integers here, as in Jinja */
        double a = l->type == V_BOOL ? l->b : l->num, b = r->type == V_BOOL ? r->b : r->num;
        if (a == 0 && b < 0)
            FAIL(ev, "0.0 cannot be raised to a negative power");
        double res = pow(a, b);
        if (!isfinite(res))
            FAIL(ev, "exponentiation result is not a finite real number");
        return kvr__tpl_num_val(
            ev->ctx, l->type == V_FLOAT || r->type == V_FLOAT || b < 0 ? V_FLOAT : V_INT, res);
    }
    if (is_num(l) && is_num(r)) {
        double a = l->num, b = r->num;
        if (STR_IS(op, "+"))
            return num_result(ev, l, r, a + b);
        if (STR_IS(op, "-"))
            return num_result(ev, l, r, a - b);
        if (STR_IS(op, "*"))
            return num_result(ev, l, r, a * b);
        if (STR_IS(op, "/"))
            return kvr__tpl_num_val(ev->ctx, V_FLOAT, a / b);
        if (STR_IS(op, "//"))
            return num_result(ev, l, r, floor(a / b));
        if (STR_IS(op, "%"))
            return num_result(ev, l, r, fmod(a, b));
        if (STR_IS(op, "<"))
            return kvr__tpl_bool_val(ev->ctx, a < b);
        if (STR_IS(op, ">"))
            return kvr__tpl_bool_val(ev->ctx, a > b);
        if (STR_IS(op, "<="))
            return kvr__tpl_bool_val(ev->ctx, a <= b);
        if (STR_IS(op, ">="))
            return kvr__tpl_bool_val(ev->ctx, a >= b);
    } else if (is_arr(l) && is_arr(r)) {
        if (STR_IS(op, "+")) {
            tpl_value_t *out = kvr__tpl_val(ev->ctx, V_ARR);
            for (size_t i = 0; i < l->n; i++)
                kvr__tpl_arr_push(ev->ctx, out, l->items[i]);
            for (size_t i = 0; i < r->n; i++)
                kvr__tpl_arr_push(ev->ctx, out, r->items[i]);
            return out;
        }
    } else if (is_arr(r) && (in || not_in)) {
        bool member = false;
        for (size_t i = 0; i < r->n && !member; i++)
            member = kvr__tpl_strict_eq(r->items[i], l);
        return kvr__tpl_bool_val(ev->ctx, in ? member : !member);
    }
    if ((l->type == V_STR || r->type == V_STR) && STR_IS(op, "+")) {
        tpl_sb_t sb = {0};
        kvr__tpl_print_raw(ev->ctx, &sb, l);
        kvr__tpl_print_raw(ev->ctx, &sb, r);
        return kvr__tpl_str_val(ev->ctx, kvr__tpl_sb_str(&sb));
    }
    if (l->type == V_STR && r->type == V_STR && (in || not_in)) {
        bool has = str_contains(ev, r->s, l->s);
        return kvr__tpl_bool_val(ev->ctx, in ? has : !has);
    }
    if (l->type == V_STR && is_map(r) && (in || not_in)) {
        bool has = kvr__tpl_obj_get(ev->ctx, r, l->s.p, l->s.n) != NULL;
        return kvr__tpl_bool_val(ev->ctx, in ? has : !has);
    }
    FAIL(ev, "unknown operator \"%.*s\" between %s and %s", (int)op.n, op.p, kvr__tpl_type_name(l),
         kvr__tpl_type_name(r));
}

void kvr__tpl_eval_args(eval_t *ev, const tpl_list_t *list, scope_t *sc, args_t *out)
{
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < list->n; i++) {
        const tpl_node_t *a = list->v[i];
        if (a->type == N_KWARG)
            continue;
        if (out->npos == 8)
            FAIL(ev, "too many arguments");
        out->pos[out->npos++] = kvr__tpl_eval(ev, a, sc);
    }
    for (size_t i = 0; i < list->n; i++) {
        const tpl_node_t *a = list->v[i];
        if (a->type != N_KWARG)
            continue;
        if (!out->kw)
            out->kw = kvr__tpl_val(ev->ctx, V_KWARGS);
        if (kvr__tpl_obj_get(ev->ctx, out->kw, a->str.p, a->str.n))
            FAIL(ev, "got multiple values for keyword argument");
        kvr__tpl_obj_set(ev->ctx, out->kw, a->str, kvr__tpl_eval(ev, a->a, sc));
    }
}

tpl_value_t *kvr__tpl_kwarg(const args_t *a, const char *name)
{
    return a->kw ? kvr__tpl_obj_get(NULL, a->kw, name, strlen(name)) : NULL;
}

static tpl_value_t *string_method(eval_t *ev, int fn, tpl_value_t *self, const args_t *a)
{
    tpl_ctx_t *ctx = ev->ctx;
    tpl_str_t s = self->s;
    /* a trailing kwargs object is one more positional argument, as in the reference */
    tpl_value_t *arg0 = a->npos > 0 ? a->pos[0] : a->kw;
    switch (fn) {
    case M_UPPER:
    case M_LOWER: {
        char *d = kvr__tpl_alloc(ctx, s.n + 1);
        for (size_t i = 0; i < s.n; i++) {
            char c = s.p[i];
            if (fn == M_UPPER && c >= 'a' && c <= 'z')
                c = (char)(c - 32);
            else if (fn == M_LOWER && c >= 'A' && c <= 'Z')
                c = (char)(c + 32);
            else if ((unsigned char)c >= 0x80)
                FAIL(ev, "upper/lower of non-ASCII text is not supported");
            d[i] = c;
        }
        return kvr__tpl_str_val(ctx, (tpl_str_t){d, s.n});
    }
    /* The reference ignores strip's argument: strip('\n') trims all whitespace. */
    case M_TITLE:
    case M_CAPITALIZE: return kvr__tpl_str_val(ctx, kvr__tpl_ascii_case(ev, s, fn == M_TITLE));
    case M_STRIP: return kvr__tpl_str_val(ctx, kvr__tpl_trim(s, true, true));
    case M_RSTRIP: return kvr__tpl_str_val(ctx, kvr__tpl_trim(s, false, true));
    case M_LSTRIP: return kvr__tpl_str_val(ctx, kvr__tpl_trim(s, true, false));
    case M_STARTSWITH:
    case M_ENDSWITH: {
        if (!arg0)
            FAIL(ev, "startswith()/endswith() requires an argument");
        tpl_value_t *pats[64];
        size_t np = 0;
        if (arg0->type == V_STR) {
            pats[np++] = arg0;
        } else if (is_arr(arg0)) {
            for (size_t i = 0; i < arg0->n && np < 64; i++) {
                if (arg0->items[i]->type != V_STR)
                    FAIL(ev, "startswith() tuple elements must be strings");
                pats[np++] = arg0->items[i];
            }
            if (arg0->n > 64)
                FAIL(ev, "too many prefixes");
        } else {
            FAIL(ev, "startswith() argument must be a string or tuple of strings");
        }
        for (size_t i = 0; i < np; i++) {
            tpl_str_t p = pats[i]->s;
            if (p.n <= s.n && memcmp(fn == M_STARTSWITH ? s.p : s.p + s.n - p.n, p.p, p.n) == 0)
                return kvr__tpl_bool_val(ctx, true);
        }
        return kvr__tpl_bool_val(ctx, false);
    }
    case M_SPLIT: {
        tpl_value_t *sep = arg0;
        tpl_value_t *maxsplit = a->npos > 1 ? a->pos[1] : NULL;
        if (sep && sep->type != V_STR && sep->type != V_NULL)
            FAIL(ev, "sep argument must be a string or null");
        if (maxsplit && maxsplit->type != V_INT)
            FAIL(ev, "maxsplit argument must be a number");
        double max = maxsplit ? maxsplit->num : -1;
        tpl_value_t *out = kvr__tpl_val(ctx, V_ARR);
        if (!sep || sep->type == V_NULL) {
            tpl_str_t t = kvr__tpl_trim(s, true, false);
            while (t.n) {
                size_t w = 0;
                while (w < t.n && !kvr__tpl_ws_at(t.p + w, t.n - w))
                    w++;
                if (max != -1 && (double)out->n >= max) {
                    kvr__tpl_arr_push(ctx, out, kvr__tpl_str_val(ctx, t));
                    break;
                }
                kvr__tpl_arr_push(ctx, out, kvr__tpl_str_val(ctx, (tpl_str_t){t.p, w}));
                t.p += w;
                t.n -= w;
                t = kvr__tpl_trim(t, true, false);
            }
            return out;
        }
        if (sep->s.n == 0)
            FAIL(ev, "empty separator");
        tpl_str_t rest = s;
        for (;;) {
            const char *hit = (max == -1 || (double)out->n < max)
                                  ? memmem(rest.p, rest.n, sep->s.p, sep->s.n)
                                  : NULL;
            if (!hit) {
                kvr__tpl_arr_push(ctx, out, kvr__tpl_str_val(ctx, rest));
                break;
            }
            kvr__tpl_arr_push(ctx, out,
                              kvr__tpl_str_val(ctx, (tpl_str_t){rest.p, (size_t)(hit - rest.p)}));
            size_t adv = (size_t)(hit - rest.p) + sep->s.n;
            rest.p += adv;
            rest.n -= adv;
        }
        return out;
    }
    case M_REPLACE: {
        if (a->npos < 2 || a->pos[0]->type != V_STR || a->pos[1]->type != V_STR)
            FAIL(ev, "replace() requires two string arguments");
        tpl_value_t *count = a->npos > 2 ? a->pos[2] : kvr__tpl_kwarg(a, "count");
        if (count && count->type != V_INT && count->type != V_NULL)
            FAIL(ev, "replace() count argument must be a number or null");
        double remaining = count && count->type == V_INT && count->num >= 0 ? count->num : INFINITY;
        tpl_str_t from = a->pos[0]->s, to = a->pos[1]->s, rest = s;
        tpl_sb_t sb = {.max = ev->max_output};
        if (from.n == 0) {
            /* an empty pattern matches before every code point and at the end */
            size_t i = 0;
            for (;;) {
                if (remaining > 0) {
                    kvr__tpl_sb_puts(ctx, &sb, to);
                    remaining--;
                }
                if (i >= s.n)
                    break;
                size_t j = i + 1;
                while (j < s.n && ((unsigned char)s.p[j] & 0xC0) == 0x80)
                    j++;
                kvr__tpl_sb_put(ctx, &sb, s.p + i, j - i);
                i = j;
            }
            return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&sb));
        }
        const char *hit;
        while (remaining > 0 && (hit = memmem(rest.p, rest.n, from.p, from.n))) {
            kvr__tpl_sb_put(ctx, &sb, rest.p, (size_t)(hit - rest.p));
            kvr__tpl_sb_puts(ctx, &sb, to);
            size_t adv = (size_t)(hit - rest.p) + from.n;
            rest.p += adv;
            rest.n -= adv;
            remaining--;
        }
        kvr__tpl_sb_puts(ctx, &sb, rest);
        return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&sb));
    }
    }
    FAIL(ev, "unknown string method");
}

static tpl_value_t *items_of(eval_t *ev, const tpl_value_t *obj, int what)
{
    tpl_value_t *out = kvr__tpl_val(ev->ctx, V_ARR);
    for (size_t i = 0; i < obj->n; i++) {
        tpl_value_t *k = kvr__tpl_str_val(ev->ctx, obj->kv[i].key);
        if (what == M_KEYS) {
            kvr__tpl_arr_push(ev->ctx, out, k);
        } else if (what == M_VALUES) {
            kvr__tpl_arr_push(ev->ctx, out, obj->kv[i].val);
        } else {
            tpl_value_t *pair = kvr__tpl_val(ev->ctx, V_ARR);
            kvr__tpl_arr_push(ev->ctx, pair, k);
            kvr__tpl_arr_push(ev->ctx, pair, obj->kv[i].val);
            kvr__tpl_arr_push(ev->ctx, out, pair);
        }
    }
    return out;
}

static tpl_value_t *call_macro(eval_t *ev, const tpl_node_t *m, const args_t *a, scope_t *sc);

/* utils.ts strftime: %Y %m %d %b %B %H %M %% in local time, other directives kept. */
static tpl_value_t *strftime_now(eval_t *ev, const args_t *a)
{
    static const char *const months[] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
    tpl_value_t *fmt = a->npos ? a->pos[0] : NULL;
    if (!fmt || fmt->type != V_STR)
        FAIL(ev, "strftime_now expects a format string");
    time_t now = ev->now_unix_s ? (time_t)ev->now_unix_s : time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm))
        FAIL(ev, "strftime_now: no local time");
    tpl_sb_t sb = {0};
    tpl_str_t f = fmt->s;
    for (size_t i = 0; i < f.n; i++) {
        char buf[16];
        int n = -1;
        if (f.p[i] == '%' && i + 1 < f.n) {
            switch (f.p[i + 1]) {
            case 'Y': n = snprintf(buf, sizeof(buf), "%d", tm.tm_year + 1900); break;
            case 'm': n = snprintf(buf, sizeof(buf), "%02d", tm.tm_mon + 1); break;
            case 'd': n = snprintf(buf, sizeof(buf), "%02d", tm.tm_mday); break;
            case 'H': n = snprintf(buf, sizeof(buf), "%02d", tm.tm_hour); break;
            case 'M': n = snprintf(buf, sizeof(buf), "%02d", tm.tm_min); break;
            case 'b': n = snprintf(buf, sizeof(buf), "%.3s", months[tm.tm_mon]); break;
            case 'B': n = snprintf(buf, sizeof(buf), "%s", months[tm.tm_mon]); break;
            case '%': n = snprintf(buf, sizeof(buf), "%%"); break;
            }
        }
        if (n >= 0) {
            kvr__tpl_sb_put(ev->ctx, &sb, buf, (size_t)n);
            i++;
        } else {
            kvr__tpl_sb_put(ev->ctx, &sb, f.p + i, 1);
        }
    }
    return kvr__tpl_str_val(ev->ctx, kvr__tpl_sb_str(&sb));
}

tpl_value_t *kvr__tpl_call(eval_t *ev, tpl_value_t *f, const args_t *a, scope_t *sc)
{
    tpl_ctx_t *ctx = ev->ctx;
    if (f->type != V_FUNC)
        FAIL(ev, "cannot call something that is not a function: got %s", kvr__tpl_type_name(f));
    switch (f->fn) {
    case FN_RAISE: {
        tpl_value_t *m = a->npos ? a->pos[0] : NULL;
        tpl_str_t msg = m ? kvr__tpl_to_str(ev, m, true) : (tpl_str_t){"", 0};
        kvr__tpl_fail(ctx, -ECANCELED, "raise_exception: %.*s", (int)(msg.n > 200 ? 200 : msg.n),
                      msg.p);
    }
    case FN_STRFTIME: return strftime_now(ev, a);
    case FN_RANGE: {
        /* utils.ts range() on the arguments' JavaScript values */
        double v[3] = {0, 0, 1};
        if (a->kw || a->npos < 1 || a->npos > 3)
            FAIL(ev, "range() takes 1 to 3 positional arguments");
        for (size_t i = 0; i < a->npos; i++) {
            const tpl_value_t *x = a->pos[i];
            if (x->type == V_BOOL)
                v[i] = x->b;
            else if (x->type == V_INT || x->type == V_FLOAT)
                v[i] = x->num;
            else
                FAIL(ev, "range() of %s is not supported", kvr__tpl_type_name(x));
        }
        double start = a->npos == 1 ? 0 : v[0], stop = a->npos == 1 ? v[0] : v[1];
        double step = a->npos == 3 ? v[2] : 1;
        if (step == 0)
            FAIL(ev, "range() step must not be zero");
        tpl_value_t *out = kvr__tpl_val(ctx, V_ARR);
        for (double x = start; step > 0 ? x < stop : x > stop; x += step) {
            if (++ev->iterations > ev->max_iterations)
                kvr__tpl_fail(ctx, -E2BIG, "loop iteration limit reached");
            kvr__tpl_arr_push(ctx, out, kvr__tpl_num_val(ctx, x == floor(x) ? V_INT : V_FLOAT, x));
        }
        return out;
    }
    case FN_NAMESPACE: {
        if (a->npos > 1)
            FAIL(ev, "namespace expected at most 1 argument");
        tpl_value_t *ns = kvr__tpl_val(ctx, V_NS);
        if (a->npos == 1) {
            if (!is_map(a->pos[0]))
                FAIL(ev, "namespace argument is not supported");
            for (size_t i = 0; i < a->pos[0]->n; i++)
                kvr__tpl_obj_set(ctx, ns, a->pos[0]->kv[i].key, a->pos[0]->kv[i].val);
        }
        if (a->kw)
            for (size_t i = 0; i < a->kw->n; i++)
                kvr__tpl_obj_set(ctx, ns, a->kw->kv[i].key, a->kw->kv[i].val);
        return ns;
    }
    case FN_MACRO: return call_macro(ev, f->macro, a, sc);
    case M_GET: {
        tpl_value_t *key = a->npos ? a->pos[0] : a->kw;
        if (!key || key->type != V_STR)
            FAIL(ev, "object key must be a string");
        tpl_value_t *v = kvr__tpl_obj_get(ev->ctx, f->self, key->s.p, key->s.n);
        if (v)
            return v;
        if (a->npos > 1)
            return a->pos[1];
        if (a->npos == 1 && a->kw)
            return a->kw;
        return kvr__tpl_val(ctx, V_NULL);
    }
    case M_ITEMS:
    case M_KEYS:
    case M_VALUES: return items_of(ev, f->self, f->fn);
    default: return string_method(ev, f->fn, f->self, a);
    }
}

static tpl_value_t *call_macro(eval_t *ev, const tpl_node_t *m, const args_t *a, scope_t *sc)
{
    if (++ev->ctx->depth > ev->ctx->max_depth)
        kvr__tpl_fail(ev->ctx, -ELOOP, "macro recursion too deep");
    scope_t *ms = kvr__tpl_new_scope(ev, sc);
    const tpl_list_t *params = &m->list;
    size_t used_kw = 0;
    for (size_t i = 0; i < params->n; i++) {
        tpl_value_t *v = i < a->npos ? a->pos[i] : NULL;
        if (!v && a->kw &&
            (v = kvr__tpl_obj_get(ev->ctx, a->kw, params->v[i]->str.p, params->v[i]->str.n)))
            used_kw++;
        kvr__tpl_bind(ev, ms, params->v[i]->str, v ? v : kvr__tpl_undef(ev));
    }
    if (a->kw && used_kw < a->kw->n)
        FAIL(ev, "macro takes no such keyword argument");
    if (a->npos > params->n)
        FAIL(ev, "macro called with too many arguments");
    for (size_t i = 0; i < params->n; i++)
        if (params->v[i]->type == N_KWARG && !(i < a->npos) &&
            !(a->kw && kvr__tpl_obj_get(ev->ctx, a->kw, params->v[i]->str.p, params->v[i]->str.n)))
            kvr__tpl_bind(ev, ms, params->v[i]->str, kvr__tpl_eval(ev, params->v[i]->a, ms));
    ev->macro_depth++;
    tpl_str_t out = kvr__tpl_eval_block(ev, &m->list2, ms);
    ev->macro_depth--;
    ev->ctx->depth--;
    return kvr__tpl_str_val(ev->ctx, out);
}
