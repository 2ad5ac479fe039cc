/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TPL_EVAL_H
#define KVR_TPL_EVAL_H

#include "tpl_internal.h"

enum {
    FN_RAISE = 1,
    FN_RANGE,
    FN_STRFTIME,
    FN_NAMESPACE,
    FN_MACRO,
    M_UPPER,
    M_LOWER,
    M_STRIP,
    M_RSTRIP,
    M_LSTRIP,
    M_STARTSWITH,
    M_ENDSWITH,
    M_SPLIT,
    M_REPLACE,
    M_GET,
    M_ITEMS,
    M_KEYS,
    M_VALUES,
    M_TITLE,
    M_CAPITALIZE,
};

typedef struct scope_s scope_t;
struct scope_s {
    tpl_value_t *vars;
    scope_t *parent;
};

typedef struct eval_s {
    tpl_ctx_t *ctx;
    size_t iterations, max_iterations, max_output;
    int loop_ctl; /* 1 break, 2 continue */
    int64_t now_unix_s;
    unsigned macro_depth;
} eval_t;

#define FAIL(ev, ...) kvr__tpl_fail((ev)->ctx, -EINVAL, __VA_ARGS__)
#define STR_IS(s, lit) ((s).n == sizeof(lit) - 1 && memcmp((s).p, lit, sizeof(lit) - 1) == 0)

#define FAIL(ev, ...) kvr__tpl_fail((ev)->ctx, -EINVAL, __VA_ARGS__)
#define STR_IS(s, lit) ((s).n == sizeof(lit) - 1 && memcmp((s).p, lit, sizeof(lit) - 1) == 0)

typedef struct args_s {
    tpl_value_t *pos[8];
    size_t npos;
    tpl_value_t *kw; /* V_KWARGS or NULL */
} args_t;

tpl_value_t *kvr__tpl_eval(eval_t *ev, const tpl_node_t *nd, scope_t *sc);
tpl_str_t kvr__tpl_eval_block(eval_t *ev, const tpl_list_t *body, scope_t *sc);
tpl_value_t *kvr__tpl_undef(eval_t *ev);
tpl_value_t *kvr__tpl_fn_val(eval_t *ev, int fn, tpl_value_t *self);
tpl_value_t *kvr__tpl_lookup(eval_t *ev, scope_t *sc, tpl_str_t name);
void kvr__tpl_bind(eval_t *ev, scope_t *sc, tpl_str_t name, tpl_value_t *v);
scope_t *kvr__tpl_new_scope(eval_t *ev, scope_t *parent);
tpl_str_t kvr__tpl_to_str(eval_t *ev, const tpl_value_t *v, bool raw);
bool kvr__tpl_strict_eq(const tpl_value_t *a, const tpl_value_t *b);
tpl_value_t *kvr__tpl_eval_binary(eval_t *ev, const tpl_node_t *nd, scope_t *sc);
void kvr__tpl_eval_args(eval_t *ev, const tpl_list_t *list, scope_t *sc, args_t *out);
tpl_value_t *kvr__tpl_kwarg(const args_t *a, const char *name);
tpl_value_t *kvr__tpl_call(eval_t *ev, tpl_value_t *f, const args_t *a, scope_t *sc);
tpl_str_t kvr__tpl_ascii_case(eval_t *ev, tpl_str_t s, bool title);
double kvr__tpl_utf16_length(tpl_str_t s);
tpl_value_t *kvr__tpl_builtin_of(eval_t *ev, tpl_value_t *obj, tpl_str_t name);
tpl_value_t *kvr__tpl_apply_filter(eval_t *ev, tpl_value_t *v, const tpl_node_t *f, scope_t *sc);
tpl_value_t *kvr__tpl_run_test(eval_t *ev, const tpl_node_t *nd, scope_t *sc);

static inline bool kvr__tpl_is_arr(const tpl_value_t *v)
{
    return v->type == V_ARR || v->type == V_TUPLE;
}

static inline bool kvr__tpl_is_map(const tpl_value_t *v)
{
    return v->type == V_OBJ || v->type == V_KWARGS;
}

#endif
