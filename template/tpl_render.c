/* SPDX-License-Identifier: Apache-2.0 */
/* Statements, member access, and the public compile/render API. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/xmalloc.h"
#include "tpl_eval.h"

struct kvr_template_s {
    tpl_ctx_t ctx;
    tpl_node_t *program;
};

static const struct {
    const char *name;
    int fn;
} str_methods[] = {
    {"upper", M_UPPER},       {"lower", M_LOWER},   {"strip", M_STRIP},
    {"rstrip", M_RSTRIP},     {"lstrip", M_LSTRIP}, {"startswith", M_STARTSWITH},
    {"endswith", M_ENDSWITH}, {"split", M_SPLIT},   {"replace", M_REPLACE},
};

tpl_value_t *kvr__tpl_builtin_of(eval_t *ev, tpl_value_t *obj, tpl_str_t name)
{
    if (obj->type == V_STR) {
        if (STR_IS(name, "length"))
            return kvr__tpl_num_val(ev->ctx, V_INT, kvr__tpl_utf16_length(obj->s));
        for (size_t i = 0; i < sizeof(str_methods) / sizeof(str_methods[0]); i++)
            if (name.n == strlen(str_methods[i].name) &&
                memcmp(name.p, str_methods[i].name, name.n) == 0)
                return kvr__tpl_fn_val(ev, str_methods[i].fn, obj);
        if (STR_IS(name, "title") || STR_IS(name, "capitalize"))
            return kvr__tpl_fn_val(ev, STR_IS(name, "title") ? M_TITLE : M_CAPITALIZE, obj);
    } else if (kvr__tpl_is_arr(obj)) {
        if (STR_IS(name, "length"))
            return kvr__tpl_num_val(ev->ctx, V_INT, (double)obj->n);
    } else if (kvr__tpl_is_map(obj)) {
        if (STR_IS(name, "get"))
            return kvr__tpl_fn_val(ev, M_GET, obj);
        if (STR_IS(name, "items"))
            return kvr__tpl_fn_val(ev, M_ITEMS, obj);
        if (STR_IS(name, "keys"))
            return kvr__tpl_fn_val(ev, M_KEYS, obj);
        if (STR_IS(name, "values"))
            return kvr__tpl_fn_val(ev, M_VALUES, obj);
        if (STR_IS(name, "dictsort"))
            FAIL(ev, "dictsort is not supported");
    }
    return NULL;
}

/* Code points of a string (Array.from), for slicing and indexing. */
static size_t code_points(eval_t *ev, tpl_str_t s, tpl_str_t **out)
{
    size_t n = 0;
    for (size_t i = 0; i < s.n; i++)
        if (((unsigned char)s.p[i] & 0xC0) != 0x80)
            n++;
    tpl_str_t *cps = kvr__tpl_alloc(ev->ctx, (n + 1) * sizeof(*cps));
    size_t k = 0;
    for (size_t i = 0; i < s.n;) {
        size_t j = i + 1;
        while (j < s.n && ((unsigned char)s.p[j] & 0xC0) == 0x80)
            j++;
        cps[k++] = (tpl_str_t){s.p + i, j - i};
        i = j;
    }
    *out = cps;
    return k;
}

static tpl_value_t *eval_slice(eval_t *ev, tpl_value_t *obj, const tpl_node_t *sl, scope_t *sc)
{
    if (!kvr__tpl_is_arr(obj) && obj->type != V_STR)
        FAIL(ev, "slice object must be an array or string");
    tpl_value_t *sv[3];
    const tpl_node_t *parts[3] = {sl->a, sl->b, sl->c};
    for (int i = 0; i < 3; i++) {
        sv[i] = parts[i] ? kvr__tpl_eval(ev, parts[i], sc) : kvr__tpl_undef(ev);
        if (sv[i]->type != V_INT && sv[i]->type != V_UNDEF)
            FAIL(ev, "slice indices must be integers");
    }
    tpl_str_t *cps = NULL;
    double len = obj->type == V_STR ? (double)code_points(ev, obj->s, &cps) : (double)obj->n;
    /* utils.ts slice(): a zero step gives an empty result */
    double step = sv[2]->type == V_INT ? sv[2]->num : 1;
    double dir = step > 0 ? 1 : step < 0 ? -1 : 0;
    double start, stop;
    if (dir >= 0) {
        start = sv[0]->type == V_INT ? sv[0]->num : 0;
        start = start < 0 ? fmax(len + start, 0) : fmin(start, len);
        stop = sv[1]->type == V_INT ? sv[1]->num : len;
        stop = stop < 0 ? fmax(len + stop, 0) : fmin(stop, len);
    } else {
        start = sv[0]->type == V_INT ? sv[0]->num : len - 1;
        start = start < 0 ? fmax(len + start, -1) : fmin(start, len - 1);
        stop = sv[1]->type == V_INT ? sv[1]->num : -1;
        stop = stop < -1 ? fmax(len + stop, -1) : fmin(stop, len - 1);
    }
    tpl_value_t *arr = kvr__tpl_val(ev->ctx, V_ARR);
    tpl_sb_t sb = {0};
    for (double i = start; dir * i < dir * stop; i += step) {
        size_t k = (size_t)i;
        if (obj->type == V_STR)
            kvr__tpl_sb_puts(ev->ctx, &sb, cps[k]);
        else
            kvr__tpl_arr_push(ev->ctx, arr, obj->items[k]);
    }
    return obj->type == V_STR ? kvr__tpl_str_val(ev->ctx, kvr__tpl_sb_str(&sb)) : arr;
}

/* String.prototype.at counts UTF-16 code units; half of a surrogate pair is not text. */
static tpl_value_t *string_at(eval_t *ev, tpl_str_t s, double i)
{
    double len = kvr__tpl_utf16_length(s);
    if (i < 0)
        i += len;
    if (!(i >= 0 && i < len))
        return NULL;
    double unit = 0;
    for (size_t b = 0; b < s.n;) {
        size_t e = b + 1;
        while (e < s.n && ((unsigned char)s.p[e] & 0xC0) == 0x80)
            e++;
        double width = (unsigned char)s.p[b] >= 0xF0 ? 2 : 1;
        if (i < unit + width) {
            if (width == 2)
                kvr__tpl_fail(ev->ctx, -EILSEQ, "string index splits a surrogate pair");
            return kvr__tpl_str_val(ev->ctx, (tpl_str_t){s.p + b, e - b});
        }
        unit += width;
        b = e;
    }
    return NULL;
}

static tpl_value_t *member(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    tpl_value_t *obj = kvr__tpl_eval(ev, nd->a, sc);
    tpl_value_t *prop;
    if (nd->flag) {
        if (nd->b->type == N_SLICE)
            return eval_slice(ev, obj, nd->b, sc);
        prop = kvr__tpl_eval(ev, nd->b, sc);
    } else if (nd->b->type == N_INT) {
        prop = kvr__tpl_num_val(ev->ctx, V_INT, nd->b->num);
    } else {
        prop = kvr__tpl_str_val(ev->ctx, nd->b->str);
    }
    tpl_value_t *v = NULL;
    if (kvr__tpl_is_map(obj) || obj->type == V_NS) {
        if (prop->type != V_STR)
            FAIL(ev, "cannot access property with non-string: got %s", kvr__tpl_type_name(prop));
        v = kvr__tpl_obj_get(ev->ctx, obj, prop->s.p, prop->s.n);
        if (!v && obj->type == V_OBJ)
            v = kvr__tpl_builtin_of(ev, obj, prop->s);
    } else if (kvr__tpl_is_arr(obj) || obj->type == V_STR) {
        if (prop->type == V_INT && obj->type == V_STR) {
            v = string_at(ev, obj->s, prop->num);
        } else if (prop->type == V_INT) {
            double i = prop->num;
            if (i < 0)
                i += (double)obj->n;
            if (i >= 0 && i < (double)obj->n)
                v = obj->items[(size_t)i];
        } else if (prop->type == V_STR) {
            v = kvr__tpl_builtin_of(ev, obj, prop->s);
        } else {
            FAIL(ev, "cannot access property with non-string/non-number: got %s",
                 kvr__tpl_type_name(prop));
        }
    } else {
        if (prop->type != V_STR)
            FAIL(ev, "cannot access property with non-string: got %s", kvr__tpl_type_name(prop));
    }
    return v ? v : kvr__tpl_undef(ev);
}

static void assign(eval_t *ev, const tpl_node_t *target, tpl_value_t *v, scope_t *sc)
{
    if (target->type == N_IDENT) {
        kvr__tpl_bind(ev, sc, target->str, v);
    } else if (target->type == N_TUPLE) {
        if (!kvr__tpl_is_arr(v))
            FAIL(ev, "cannot unpack non-iterable type: %s", kvr__tpl_type_name(v));
        if (v->n != target->list.n)
            FAIL(ev, "too %s items to unpack", target->list.n > v->n ? "few" : "many");
        for (size_t i = 0; i < v->n; i++) {
            if (target->list.v[i]->type != N_IDENT)
                FAIL(ev, "cannot unpack to a non-identifier");
            kvr__tpl_bind(ev, sc, target->list.v[i]->str, v->items[i]);
        }
    } else if (target->type == N_MEMBER) {
        tpl_value_t *obj = kvr__tpl_eval(ev, target->a, sc);
        if (obj->type != V_NS)
            FAIL(ev, "cannot assign attribute on non-namespace object");
        if (target->b->type != N_IDENT)
            FAIL(ev, "cannot assign to member with non-identifier property");
        kvr__tpl_obj_set(ev->ctx, obj, target->b->str, v);
    } else {
        FAIL(ev, "invalid left-hand side of assignment");
    }
}

static tpl_value_t *eval_for(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    tpl_ctx_t *ctx = ev->ctx;
    scope_t *scope = kvr__tpl_new_scope(ev, sc);
    const tpl_node_t *test = NULL;
    tpl_value_t *it;
    if (nd->b->type == N_SELECT) {
        it = kvr__tpl_eval(ev, nd->b->a, scope);
        test = nd->b->b;
    } else {
        it = kvr__tpl_eval(ev, nd->b, scope);
    }
    if (!kvr__tpl_is_arr(it) && it->type != V_OBJ)
        FAIL(ev, "expected iterable or object type in for loop: got %s", kvr__tpl_type_name(it));
    if (it->type == V_OBJ) {
        args_t none = {0};
        it = kvr__tpl_call(ev, kvr__tpl_fn_val(ev, M_KEYS, it), &none, sc);
    }
    tpl_value_t *items = kvr__tpl_val(ctx, V_ARR);
    for (size_t i = 0; i < it->n; i++) {
        if (++ev->iterations > ev->max_iterations)
            kvr__tpl_fail(ctx, -E2BIG, "loop iteration limit reached");
        if (nd->a->type == N_TUPLE && !kvr__tpl_is_arr(it->items[i]))
            FAIL(ev, "cannot unpack non-iterable type: %s", kvr__tpl_type_name(it->items[i]));
        if (test) {
            scope_t *ls = kvr__tpl_new_scope(ev, scope);
            assign(ev, nd->a, it->items[i], ls);
            if (!kvr__tpl_truthy(kvr__tpl_eval(ev, test, ls)))
                continue;
        }
        kvr__tpl_arr_push(ctx, items, it->items[i]);
    }
    tpl_sb_t out = {.max = ev->max_output};
    bool none = true;
    for (size_t i = 0; i < items->n; i++) {
        if (++ev->iterations > ev->max_iterations)
            kvr__tpl_fail(ctx, -E2BIG, "loop iteration limit reached");
        tpl_value_t *loop = kvr__tpl_val(ctx, V_OBJ);
        double n = (double)items->n, k = (double)i;
        static const char *const names[] = {"index", "index0", "revindex", "revindex0", "length"};
        double vals[] = {k + 1, k, n - k, n - k - 1, n};
        for (int j = 0; j < 5; j++)
            kvr__tpl_obj_set(ctx, loop, (tpl_str_t){names[j], strlen(names[j])},
                             kvr__tpl_num_val(ctx, V_INT, vals[j]));
        kvr__tpl_obj_set(ctx, loop, (tpl_str_t){"first", 5}, kvr__tpl_bool_val(ctx, i == 0));
        kvr__tpl_obj_set(ctx, loop, (tpl_str_t){"last", 4},
                         kvr__tpl_bool_val(ctx, i + 1 == items->n));
        kvr__tpl_obj_set(ctx, loop, (tpl_str_t){"previtem", 8},
                         i > 0 ? items->items[i - 1] : kvr__tpl_undef(ev));
        kvr__tpl_obj_set(ctx, loop, (tpl_str_t){"nextitem", 8},
                         i + 1 < items->n ? items->items[i + 1] : kvr__tpl_undef(ev));
        kvr__tpl_bind(ev, scope, (tpl_str_t){"loop", 4}, loop);
        assign(ev, nd->a, items->items[i], scope);
        tpl_str_t body = kvr__tpl_eval_block(ev, &nd->list, scope);
        int ctl = ev->loop_ctl;
        ev->loop_ctl = 0;
        if (ctl == 2)
            continue;
        if (ctl == 1)
            break;
        kvr__tpl_sb_puts(ctx, &out, body);
        none = false;
    }
    if (none)
        kvr__tpl_sb_puts(ctx, &out, kvr__tpl_eval_block(ev, &nd->list2, scope));
    return kvr__tpl_str_val(ctx, kvr__tpl_sb_str(&out));
}

tpl_str_t kvr__tpl_eval_block(eval_t *ev, const tpl_list_t *body, scope_t *sc)
{
    tpl_sb_t out = {.max = ev->max_output};
    for (size_t i = 0; i < body->n; i++) {
        tpl_value_t *v = kvr__tpl_eval(ev, body->v[i], sc);
        if (ev->loop_ctl)
            return (tpl_str_t){"", 0};
        if (v->type != V_NULL && v->type != V_UNDEF)
            kvr__tpl_print(ev->ctx, &out, v);
    }
    return kvr__tpl_sb_str(&out);
}

static tpl_value_t *eval_node(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    tpl_ctx_t *ctx = ev->ctx;
    switch (nd->type) {
    case N_PROGRAM: return kvr__tpl_str_val(ctx, kvr__tpl_eval_block(ev, &nd->list, sc));
    case N_STR: return kvr__tpl_str_val(ctx, nd->str);
    case N_INT: return kvr__tpl_num_val(ctx, V_INT, nd->num);
    case N_FLOAT: return kvr__tpl_num_val(ctx, V_FLOAT, nd->num);
    case N_ARRAY:
    case N_TUPLE: {
        tpl_value_t *arr = kvr__tpl_val(ctx, nd->type == N_ARRAY ? V_ARR : V_TUPLE);
        for (size_t i = 0; i < nd->list.n; i++)
            kvr__tpl_arr_push(ctx, arr, kvr__tpl_eval(ev, nd->list.v[i], sc));
        return arr;
    }
    case N_OBJECT: {
        tpl_value_t *obj = kvr__tpl_val(ctx, V_OBJ);
        for (size_t i = 0; i < nd->list.n; i++) {
            tpl_value_t *k = kvr__tpl_eval(ev, nd->list.v[i], sc);
            if (k->type != V_STR)
                FAIL(ev, "object keys must be strings: got %s", kvr__tpl_type_name(k));
            kvr__tpl_obj_set(ctx, obj, k->s, kvr__tpl_eval(ev, nd->list2.v[i], sc));
        }
        return obj;
    }
    case N_IDENT: return kvr__tpl_lookup(ev, sc, nd->str);
    case N_MEMBER: return member(ev, nd, sc);
    case N_CALL: {
        args_t a;
        kvr__tpl_eval_args(ev, &nd->list, sc, &a);
        tpl_value_t *f = kvr__tpl_eval(ev, nd->a, sc);
        return kvr__tpl_call(ev, f, &a, sc);
    }
    case N_UNARY: {
        tpl_value_t *v = kvr__tpl_eval(ev, nd->a, sc);
        if (STR_IS(nd->str, "not"))
            return kvr__tpl_bool_val(ctx, !kvr__tpl_truthy(v));
        double sign = nd->str.p[0] == '-' ? -1 : 1;
        if (v->type == V_INT || v->type == V_FLOAT)
            return kvr__tpl_num_val(ctx, v->type, sign * v->num);
        if (v->type == V_BOOL)
            return kvr__tpl_num_val(ctx, V_INT, sign * (v->b ? 1 : 0));
        FAIL(ev, "unknown operator \"%.*s\" for %s", (int)nd->str.n, nd->str.p,
             kvr__tpl_type_name(v));
    }
    case N_BINARY: return kvr__tpl_eval_binary(ev, nd, sc);
    case N_FILTER: return kvr__tpl_apply_filter(ev, kvr__tpl_eval(ev, nd->a, sc), nd->b, sc);
    case N_FILTER_BLOCK:
        return kvr__tpl_apply_filter(
            ev, kvr__tpl_str_val(ctx, kvr__tpl_eval_block(ev, &nd->list, sc)), nd->b, sc);
    case N_TEST: return kvr__tpl_run_test(ev, nd, sc);
    case N_SELECT:
        if (!kvr__tpl_truthy(kvr__tpl_eval(ev, nd->b, sc)))
            return kvr__tpl_undef(ev);
        return kvr__tpl_eval(ev, nd->a, sc);
    case N_TERNARY:
        return kvr__tpl_eval(ev, kvr__tpl_truthy(kvr__tpl_eval(ev, nd->a, sc)) ? nd->b : nd->c, sc);
    case N_SET: {
        tpl_value_t *v = nd->b ? kvr__tpl_eval(ev, nd->b, sc)
                               : kvr__tpl_str_val(ctx, kvr__tpl_eval_block(ev, &nd->list, sc));
        assign(ev, nd->a, v, sc);
        return kvr__tpl_val(ctx, V_NULL);
    }
    case N_IF: {
        bool t = kvr__tpl_truthy(kvr__tpl_eval(ev, nd->a, sc));
        return kvr__tpl_str_val(ctx, kvr__tpl_eval_block(ev, t ? &nd->list : &nd->list2, sc));
    }
    case N_FOR: return eval_for(ev, nd, sc);
    case N_MACRO: {
        tpl_value_t *f = kvr__tpl_fn_val(ev, FN_MACRO, NULL);
        f->macro = nd;
        kvr__tpl_bind(ev, sc, nd->str, f);
        return kvr__tpl_val(ctx, V_NULL);
    }
    case N_BREAK: ev->loop_ctl = 1; return kvr__tpl_val(ctx, V_NULL);
    case N_CONTINUE: ev->loop_ctl = 2; return kvr__tpl_val(ctx, V_NULL);
    case N_COMMENT: return kvr__tpl_val(ctx, V_NULL);
    case N_KWARG:
    case N_SLICE: break;
    }
    FAIL(ev, "unexpected node");
}

tpl_value_t *kvr__tpl_eval(eval_t *ev, const tpl_node_t *nd, scope_t *sc)
{
    kvr__tpl_charge(ev->ctx, 16);
    if (++ev->ctx->depth > ev->ctx->max_depth * 8)
        kvr__tpl_fail(ev->ctx, -ELOOP, "evaluation nested too deep");
    tpl_value_t *v = eval_node(ev, nd, sc);
    ev->ctx->depth--;
    return v;
}

static void ctx_init(tpl_ctx_t *ctx, kvr_template_error_t *err, size_t max_mem, unsigned depth,
                     uint64_t max_work)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->err = err;
    ctx->arena.max_bytes = max_mem;
    ctx->max_depth = depth;
    ctx->max_work = max_work;
}

static void compile_body(kvr_template_t *t, const char *text, size_t len)
{
    if (kvr_json_utf8_valid_prefix(text, len) != len)
        kvr__tpl_fail(&t->ctx, -EILSEQ, "template is not valid UTF-8");
    tpl_str_t src = kvr__tpl_strdup(&t->ctx, text, len);
    tpl_tok_t *toks;
    size_t ntoks;
    kvr__tpl_tokenize(&t->ctx, src.p, src.n, &toks, &ntoks);
    t->program = kvr__tpl_parse(&t->ctx, toks, ntoks);
}

int kvr_template_compile(const char *text, size_t len, kvr_template_t **out,
                         kvr_template_error_t *err)
{
    kvr_template_error_t dummy;
    if (!err)
        err = &dummy;
    err->code = 0;
    err->message[0] = '\0';
    *out = NULL;
    if (len > KVR_TEMPLATE_MAX_SOURCE_BYTES) {
        err->code = -E2BIG;
        snprintf(err->message, sizeof(err->message), "template longer than %u bytes",
                 KVR_TEMPLATE_MAX_SOURCE_BYTES);
        return -E2BIG;
    }
    kvr_template_t *t = kvr_xcalloc(1, sizeof(*t));
    /* tokens and nodes: a few dozen bytes per source byte at most, doubled by growth */
    ctx_init(&t->ctx, err, 128u * len + (4u << 20), KVR_TEMPLATE_DEFAULT_MAX_DEPTH,
             256u * len + (16u << 20));
    int rc = setjmp(t->ctx.jmp);
    if (rc) {
        kvr__tpl_arena_free(&t->ctx.arena);
        free(t);
        return rc;
    }
    compile_body(t, text, len);
    t->ctx.err = NULL;
    *out = t;
    return 0;
}

static void set_json_var(tpl_ctx_t *ctx, scope_t *root, const char *name, const cJSON *j)
{
    kvr__tpl_obj_set(ctx, root->vars, (tpl_str_t){name, strlen(name)},
                     kvr__tpl_from_json(ctx, j, 0));
}

/* Everything after the setjmp lives here, so no local of that frame changes after it. */
static void render_body(eval_t *ev, const kvr_template_t *tpl, const cJSON *messages,
                        const cJSON *tools, bool add_generation_prompt, const cJSON *extra_vars,
                        char **out, size_t *out_len)
{
    scope_t *root = kvr__tpl_new_scope(ev, NULL);
    static const char *const bools[] = {"false", "true", "False", "True"};
    for (int i = 0; i < 4; i++)
        kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){bools[i], strlen(bools[i])},
                         kvr__tpl_bool_val(ev->ctx, i & 1));
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"none", 4}, kvr__tpl_val(ev->ctx, V_NULL));
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"None", 4}, kvr__tpl_val(ev->ctx, V_NULL));
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"raise_exception", 15},
                     kvr__tpl_fn_val(ev, FN_RAISE, NULL));
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"range", 5},
                     kvr__tpl_fn_val(ev, FN_RANGE, NULL));
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"strftime_now", 12},
                     kvr__tpl_fn_val(ev, FN_STRFTIME, NULL));
    if (extra_vars && cJSON_IsObject(extra_vars))
        for (const cJSON *c = extra_vars->child; c; c = c->next)
            if (c->string)
                set_json_var(ev->ctx, root, c->string, c);
    if (messages)
        set_json_var(ev->ctx, root, "messages", messages);
    if (tools)
        set_json_var(ev->ctx, root, "tools", tools);
    kvr__tpl_obj_set(ev->ctx, root->vars, (tpl_str_t){"add_generation_prompt", 21},
                     kvr__tpl_bool_val(ev->ctx, add_generation_prompt));
    tpl_str_t text = kvr__tpl_eval_block(ev, &tpl->program->list, root);
    char *res = malloc(text.n + 1);
    if (!res)
        kvr__tpl_fail(ev->ctx, -ENOMEM, "out of memory");
    memcpy(res, text.p, text.n);
    res[text.n] = '\0';
    *out = res;
    if (out_len)
        *out_len = text.n;
}

int kvr_template_render(const kvr_template_t *tpl, const cJSON *messages, const cJSON *tools,
                        bool add_generation_prompt, const cJSON *extra_vars,
                        const kvr_template_options_t *opts, char **out, size_t *out_len,
                        kvr_template_error_t *err)
{
    kvr_template_error_t dummy;
    kvr_template_options_t lim = opts ? *opts : (kvr_template_options_t){0};
    if (!err)
        err = &dummy;
    err->code = 0;
    err->message[0] = '\0';
    *out = NULL;
    if (out_len)
        *out_len = 0;
    tpl_ctx_t ctx;
    ctx_init(&ctx, err,
             lim.max_memory_bytes ? lim.max_memory_bytes : KVR_TEMPLATE_DEFAULT_MAX_MEMORY_BYTES,
             lim.max_depth ? lim.max_depth : KVR_TEMPLATE_DEFAULT_MAX_DEPTH,
             lim.max_work ? lim.max_work : KVR_TEMPLATE_DEFAULT_MAX_WORK);
    eval_t ev = {
        .ctx = &ctx,
        .max_iterations = lim.max_loop_iterations ? lim.max_loop_iterations
                                                  : KVR_TEMPLATE_DEFAULT_MAX_LOOP_ITERATIONS,
        .max_output = lim.max_output_bytes ? lim.max_output_bytes
                                           : KVR_TEMPLATE_DEFAULT_MAX_OUTPUT_BYTES,
        .now_unix_s = lim.now_unix_s,
    };
    ctx.arena.scratch = lim.scratch;
    int rc = setjmp(ctx.jmp);
    if (rc) {
        kvr__tpl_arena_free(&ctx.arena);
        return rc;
    }
    render_body(&ev, tpl, messages, tools, add_generation_prompt, extra_vars, out, out_len);
    kvr__tpl_arena_free(&ctx.arena);
    return 0;
}

void kvr_template_destroy(kvr_template_t *tpl)
{
    if (!tpl)
        return;
    kvr__tpl_arena_free(&tpl->ctx.arena);
    free(tpl);
}
