/* SPDX-License-Identifier: Apache-2.0 */
/* Parser: the reference's recursive descent, same precedence (ternary, or, and, not,
 * comparison and membership, + - ~, * / // %, **, is-tests, filters, unary sign, call and
 * member access), same statements. Nesting is bounded by the context's depth limit. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_internal.h"

typedef struct parser_s {
    tpl_ctx_t *ctx;
    const tpl_tok_t *t;
    size_t n, cur;
} parser_t;

static tpl_node_t *parse_any(parser_t *ps);
static tpl_node_t *parse_expression(parser_t *ps);
static tpl_node_t *parse_primary(parser_t *ps);

static tpl_node_t *node(parser_t *ps, tpl_node_type_t type)
{
    tpl_node_t *nd = kvr__tpl_alloc(ps->ctx, sizeof(*nd));
    memset(nd, 0, sizeof(*nd));
    nd->type = type;
    return nd;
}

static void list_push(tpl_ctx_t *ctx, tpl_list_t *l, tpl_node_t *nd)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 4;
        tpl_node_t **v = kvr__tpl_alloc(ctx, cap * sizeof(*v));
        if (l->n)
            memcpy(v, l->v, l->n * sizeof(*v));
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = nd;
}

static void enter(parser_t *ps)
{
    if (++ps->ctx->depth > ps->ctx->max_depth * 4)
        kvr__tpl_fail(ps->ctx, -ELOOP, "template nesting too deep");
}

static void leave(parser_t *ps)
{
    ps->ctx->depth--;
}

static bool is(const parser_t *ps, tpl_tok_type_t type)
{
    return ps->cur < ps->n && ps->t[ps->cur].type == type;
}

static bool tok_is_ident(const parser_t *ps, size_t at, const char *name)
{
    if (at >= ps->n || ps->t[at].type != TK_IDENT)
        return false;
    size_t len = strlen(name);
    return ps->t[at].text.n == len && memcmp(ps->t[at].text.p, name, len) == 0;
}

static bool is_ident(const parser_t *ps, const char *name)
{
    return tok_is_ident(ps, ps->cur, name);
}

static bool is_statement(const parser_t *ps, const char *a, const char *b, const char *c)
{
    if (!is(ps, TK_OPEN_STMT))
        return false;
    return tok_is_ident(ps, ps->cur + 1, a) || (b && tok_is_ident(ps, ps->cur + 1, b)) ||
           (c && tok_is_ident(ps, ps->cur + 1, c));
}

static const tpl_tok_t *expect(parser_t *ps, tpl_tok_type_t type, const char *what)
{
    if (!is(ps, type))
        kvr__tpl_fail(ps->ctx, -EINVAL, "parser error: expected %s", what);
    return &ps->t[ps->cur++];
}

static void expect_ident(parser_t *ps, const char *name)
{
    if (!is_ident(ps, name))
        kvr__tpl_fail(ps->ctx, -EINVAL, "expected %s", name);
    ps->cur++;
}

static void need_more(parser_t *ps)
{
    if (ps->cur >= ps->n)
        kvr__tpl_fail(ps->ctx, -EINVAL, "unexpected end of template");
}

static tpl_node_t *binary(parser_t *ps, tpl_str_t op, tpl_node_t *l, tpl_node_t *r)
{
    tpl_node_t *nd = node(ps, N_BINARY);
    nd->str = op;
    nd->a = l;
    nd->b = r;
    return nd;
}

static tpl_node_t *parse_sequence(parser_t *ps, bool primary)
{
    tpl_node_t *first = primary ? parse_primary(ps) : parse_expression(ps);
    if (!is(ps, TK_COMMA))
        return first;
    tpl_node_t *tuple = node(ps, N_TUPLE);
    list_push(ps->ctx, &tuple->list, first);
    while (is(ps, TK_COMMA)) {
        ps->cur++;
        list_push(ps->ctx, &tuple->list, primary ? parse_primary(ps) : parse_expression(ps));
    }
    return tuple;
}

static void parse_args(parser_t *ps, tpl_list_t *out, bool parameters)
{
    expect(ps, TK_LPAREN, "(");
    bool saw_kw = false;
    while (!is(ps, TK_RPAREN)) {
        need_more(ps);
        if (is(ps, TK_POW) || (is(ps, TK_MUL) && ps->t[ps->cur].text.p[0] == '*'))
            kvr__tpl_fail(ps->ctx, -EINVAL, "argument unpacking is not supported");
        tpl_node_t *arg = parse_expression(ps);
        if (is(ps, TK_EQUALS)) {
            ps->cur++;
            if (arg->type != N_IDENT)
                kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier for keyword argument");
            tpl_node_t *kw = node(ps, N_KWARG);
            kw->str = arg->str;
            kw->a = parse_expression(ps);
            arg = kw;
        }
        if (parameters && arg->type != N_IDENT && arg->type != N_KWARG)
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier for parameter declaration");
        if (parameters) {
            for (size_t i = 0; i < out->n; i++)
                if (out->v[i]->str.n == arg->str.n &&
                    memcmp(out->v[i]->str.p, arg->str.p, arg->str.n) == 0)
                    kvr__tpl_fail(ps->ctx, -EINVAL, "duplicate parameter name");
        }
        if (arg->type == N_KWARG)
            saw_kw = true;
        else if (saw_kw)
            kvr__tpl_fail(ps->ctx, -EINVAL, "positional argument after keyword argument");
        list_push(ps->ctx, out, arg);
        if (is(ps, TK_COMMA))
            ps->cur++;
    }
    expect(ps, TK_RPAREN, ")");
}

static tpl_node_t *parse_member(parser_t *ps, tpl_node_t *object)
{
    while (is(ps, TK_DOT) || is(ps, TK_LBRACK)) {
        bool computed = is(ps, TK_LBRACK);
        ps->cur++;
        tpl_node_t *prop;
        if (computed) {
            tpl_node_t *slots[3] = {0};
            size_t nslots = 0;
            bool slice = false;
            while (!is(ps, TK_RBRACK)) {
                need_more(ps);
                if (nslots == 3)
                    kvr__tpl_fail(ps->ctx, -EINVAL, "expected 0-3 arguments for slice");
                if (is(ps, TK_COLON)) {
                    slots[nslots++] = NULL;
                    ps->cur++;
                    slice = true;
                } else {
                    slots[nslots++] = parse_expression(ps);
                    if (is(ps, TK_COLON)) {
                        ps->cur++;
                        slice = true;
                    }
                }
            }
            if (nslots == 0)
                kvr__tpl_fail(ps->ctx, -EINVAL, "expected an argument for member expression");
            if (slice) {
                prop = node(ps, N_SLICE);
                prop->a = slots[0];
                prop->b = nslots > 1 ? slots[1] : NULL;
                prop->c = nslots > 2 ? slots[2] : NULL;
            } else {
                prop = slots[0];
            }
            expect(ps, TK_RBRACK, "]");
        } else {
            prop = parse_primary(ps);
            if (prop->type != N_IDENT && prop->type != N_INT)
                kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier or integer after dot");
        }
        tpl_node_t *m = node(ps, N_MEMBER);
        m->a = object;
        m->b = prop;
        m->flag = computed;
        object = m;
    }
    return object;
}

static tpl_node_t *parse_call(parser_t *ps, tpl_node_t *callee)
{
    enter(ps);
    tpl_node_t *call = node(ps, N_CALL);
    call->a = callee;
    parse_args(ps, &call->list, false);
    tpl_node_t *e = parse_member(ps, call);
    if (is(ps, TK_LPAREN))
        e = parse_call(ps, e);
    leave(ps);
    return e;
}

static tpl_node_t *parse_call_member(parser_t *ps)
{
    tpl_node_t *m = parse_member(ps, parse_primary(ps));
    return is(ps, TK_LPAREN) ? parse_call(ps, m) : m;
}

static tpl_node_t *parse_unary_sign(parser_t *ps)
{
    if (ps->cur < ps->n && (is(ps, TK_UNARY) || is(ps, TK_ADD)) && ps->t[ps->cur].text.n == 1 &&
        (ps->t[ps->cur].text.p[0] == '-' || ps->t[ps->cur].text.p[0] == '+')) {
        tpl_node_t *u = node(ps, N_UNARY);
        u->str = ps->t[ps->cur++].text;
        enter(ps);
        u->a = parse_unary_sign(ps);
        leave(ps);
        return u;
    }
    return parse_call_member(ps);
}

static tpl_node_t *parse_filter(parser_t *ps)
{
    tpl_node_t *operand = parse_unary_sign(ps);
    while (is(ps, TK_PIPE)) {
        ps->cur++;
        tpl_node_t *f = parse_primary(ps);
        if (f->type != N_IDENT)
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier for the filter");
        if (is(ps, TK_LPAREN))
            f = parse_call(ps, f);
        tpl_node_t *fe = node(ps, N_FILTER);
        fe->a = operand;
        fe->b = f;
        operand = fe;
    }
    return operand;
}

static tpl_node_t *parse_test(parser_t *ps)
{
    tpl_node_t *operand = parse_filter(ps);
    while (is_ident(ps, "is")) {
        ps->cur++;
        bool negate = is_ident(ps, "not");
        if (negate)
            ps->cur++;
        tpl_node_t *name = parse_primary(ps);
        if (name->type != N_IDENT)
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier for the test");
        tpl_node_t *t = node(ps, N_TEST);
        t->a = operand;
        t->str = name->str;
        t->flag = negate;
        operand = t;
    }
    return operand;
}

static tpl_node_t *parse_power(parser_t *ps)
{
    tpl_node_t *l = parse_test(ps);
    while (is(ps, TK_POW)) {
        tpl_str_t op = ps->t[ps->cur++].text;
        l = binary(ps, op, l, parse_test(ps));
    }
    return l;
}

static tpl_node_t *parse_multiplicative(parser_t *ps)
{
    tpl_node_t *l = parse_power(ps);
    while (is(ps, TK_MUL)) {
        tpl_str_t op = ps->t[ps->cur++].text;
        l = binary(ps, op, l, parse_power(ps));
    }
    return l;
}

static tpl_node_t *parse_additive(parser_t *ps)
{
    tpl_node_t *l = parse_multiplicative(ps);
    while (is(ps, TK_ADD)) {
        tpl_str_t op = ps->t[ps->cur++].text;
        l = binary(ps, op, l, parse_multiplicative(ps));
    }
    return l;
}

static tpl_node_t *parse_comparison(parser_t *ps)
{
    tpl_node_t *l = parse_additive(ps);
    for (;;) {
        tpl_str_t op;
        if (is_ident(ps, "not") && tok_is_ident(ps, ps->cur + 1, "in")) {
            op = (tpl_str_t){"not in", 6};
            ps->cur += 2;
        } else if (is_ident(ps, "in") || is(ps, TK_CMP)) {
            op = ps->t[ps->cur++].text;
        } else {
            break;
        }
        l = binary(ps, op, l, parse_additive(ps));
    }
    return l;
}

static tpl_node_t *parse_not(parser_t *ps)
{
    if (is_ident(ps, "not")) {
        tpl_node_t *u = node(ps, N_UNARY);
        u->str = ps->t[ps->cur++].text;
        enter(ps);
        u->a = parse_not(ps);
        leave(ps);
        return u;
    }
    return parse_comparison(ps);
}

static tpl_node_t *parse_and(parser_t *ps)
{
    tpl_node_t *l = parse_not(ps);
    while (is_ident(ps, "and")) {
        tpl_str_t op = ps->t[ps->cur++].text;
        l = binary(ps, op, l, parse_not(ps));
    }
    return l;
}

static tpl_node_t *parse_or(parser_t *ps)
{
    tpl_node_t *l = parse_and(ps);
    while (is_ident(ps, "or")) {
        tpl_str_t op = ps->t[ps->cur++].text;
        l = binary(ps, op, l, parse_and(ps));
    }
    return l;
}

static tpl_node_t *parse_expression(parser_t *ps)
{
    enter(ps);
    tpl_node_t *a = parse_or(ps);
    if (is_ident(ps, "if")) {
        ps->cur++;
        tpl_node_t *test = parse_or(ps);
        if (is_ident(ps, "else")) {
            ps->cur++;
            tpl_node_t *t = node(ps, N_TERNARY);
            t->a = test;
            t->b = a;
            t->c = parse_expression(ps);
            a = t;
        } else {
            tpl_node_t *s = node(ps, N_SELECT);
            s->a = a;
            s->b = test;
            a = s;
        }
    }
    leave(ps);
    return a;
}

static tpl_node_t *parse_primary(parser_t *ps)
{
    need_more(ps);
    const tpl_tok_t *tk = &ps->t[ps->cur++];
    switch (tk->type) {
    case TK_NUM: {
        bool is_float = memchr(tk->text.p, '.', tk->text.n) != NULL;
        tpl_node_t *nd = node(ps, is_float ? N_FLOAT : N_INT);
        char buf[400];
        size_t n = tk->text.n < sizeof(buf) - 1 ? tk->text.n : sizeof(buf) - 1;
        memcpy(buf, tk->text.p, n);
        buf[n] = '\0';
        nd->num = strtod(buf, NULL);
        return nd;
    }
    case TK_STR: {
        tpl_node_t *nd = node(ps, N_STR);
        nd->str = tk->text;
        if (is(ps, TK_STR)) {
            tpl_sb_t sb = {0};
            kvr__tpl_sb_puts(ps->ctx, &sb, tk->text);
            while (is(ps, TK_STR))
                kvr__tpl_sb_puts(ps->ctx, &sb, ps->t[ps->cur++].text);
            nd->str = kvr__tpl_sb_str(&sb);
        }
        return nd;
    }
    case TK_IDENT: {
        tpl_node_t *nd = node(ps, N_IDENT);
        nd->str = tk->text;
        return nd;
    }
    case TK_LPAREN: {
        tpl_node_t *e = parse_sequence(ps, false);
        expect(ps, TK_RPAREN, ")");
        return e;
    }
    case TK_LBRACK: {
        tpl_node_t *arr = node(ps, N_ARRAY);
        while (!is(ps, TK_RBRACK)) {
            need_more(ps);
            list_push(ps->ctx, &arr->list, parse_expression(ps));
            if (is(ps, TK_COMMA))
                ps->cur++;
        }
        ps->cur++;
        return arr;
    }
    case TK_LBRACE: {
        tpl_node_t *obj = node(ps, N_OBJECT);
        while (!is(ps, TK_RBRACE)) {
            need_more(ps);
            list_push(ps->ctx, &obj->list, parse_expression(ps));
            expect(ps, TK_COLON, ":");
            list_push(ps->ctx, &obj->list2, parse_expression(ps));
            if (is(ps, TK_COMMA))
                ps->cur++;
        }
        ps->cur++;
        return obj;
    }
    default: kvr__tpl_fail(ps->ctx, -EINVAL, "unexpected token");
    }
}

static void parse_body(parser_t *ps, tpl_list_t *body, const char *a, const char *b, const char *c)
{
    while (!is_statement(ps, a, b, c)) {
        need_more(ps);
        list_push(ps->ctx, body, parse_any(ps));
    }
}

static tpl_node_t *parse_if(parser_t *ps)
{
    enter(ps);
    tpl_node_t *nd = node(ps, N_IF);
    nd->a = parse_expression(ps);
    expect(ps, TK_CLOSE_STMT, "%}");
    parse_body(ps, &nd->list, "elif", "else", "endif");
    if (is_statement(ps, "elif", NULL, NULL)) {
        ps->cur += 2;
        list_push(ps->ctx, &nd->list2, parse_if(ps));
    } else if (is_statement(ps, "else", NULL, NULL)) {
        ps->cur += 2;
        expect(ps, TK_CLOSE_STMT, "%}");
        parse_body(ps, &nd->list2, "endif", NULL, NULL);
    }
    leave(ps);
    return nd;
}

static void expect_end(parser_t *ps, const char *name)
{
    expect(ps, TK_OPEN_STMT, "{%");
    expect_ident(ps, name);
    expect(ps, TK_CLOSE_STMT, "%}");
}

static tpl_node_t *parse_statement(parser_t *ps)
{
    expect(ps, TK_OPEN_STMT, "{%");
    if (!is(ps, TK_IDENT))
        kvr__tpl_fail(ps->ctx, -EINVAL, "unknown statement");
    const tpl_tok_t *name = &ps->t[ps->cur++];
#define NAME_IS(s) (name->text.n == strlen(s) && memcmp(name->text.p, s, strlen(s)) == 0)
    tpl_node_t *nd;
    if (NAME_IS("set")) {
        nd = node(ps, N_SET);
        nd->a = parse_sequence(ps, false);
        if (is(ps, TK_EQUALS)) {
            ps->cur++;
            nd->b = parse_sequence(ps, false);
        } else {
            expect(ps, TK_CLOSE_STMT, "%}");
            parse_body(ps, &nd->list, "endset", NULL, NULL);
            expect(ps, TK_OPEN_STMT, "{%");
            expect_ident(ps, "endset");
        }
        expect(ps, TK_CLOSE_STMT, "%}");
    } else if (NAME_IS("if")) {
        nd = parse_if(ps);
        expect_end(ps, "endif");
    } else if (NAME_IS("macro")) {
        nd = node(ps, N_MACRO);
        tpl_node_t *id = parse_primary(ps);
        if (id->type != N_IDENT)
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier following macro");
        nd->str = id->str;
        parse_args(ps, &nd->list, true);
        expect(ps, TK_CLOSE_STMT, "%}");
        parse_body(ps, &nd->list2, "endmacro", NULL, NULL);
        expect_end(ps, "endmacro");
    } else if (NAME_IS("for")) {
        nd = node(ps, N_FOR);
        nd->a = parse_sequence(ps, true);
        if (nd->a->type != N_IDENT && nd->a->type != N_TUPLE)
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected identifier/tuple for the loop variable");
        if (!is_ident(ps, "in"))
            kvr__tpl_fail(ps->ctx, -EINVAL, "expected `in` following loop variable");
        ps->cur++;
        nd->b = parse_expression(ps);
        expect(ps, TK_CLOSE_STMT, "%}");
        parse_body(ps, &nd->list, "endfor", "else", NULL);
        if (is_statement(ps, "else", NULL, NULL)) {
            ps->cur += 2;
            expect(ps, TK_CLOSE_STMT, "%}");
            parse_body(ps, &nd->list2, "endfor", NULL, NULL);
        }
        expect_end(ps, "endfor");
    } else if (NAME_IS("break") || NAME_IS("continue")) {
        nd = node(ps, NAME_IS("break") ? N_BREAK : N_CONTINUE);
        expect(ps, TK_CLOSE_STMT, "%}");
    } else if (NAME_IS("filter")) {
        nd = node(ps, N_FILTER_BLOCK);
        tpl_node_t *f = parse_primary(ps);
        if (f->type == N_IDENT && is(ps, TK_LPAREN))
            f = parse_call(ps, f);
        nd->b = f;
        expect(ps, TK_CLOSE_STMT, "%}");
        parse_body(ps, &nd->list, "endfilter", NULL, NULL);
        expect_end(ps, "endfilter");
    } else {
        kvr__tpl_fail(ps->ctx, -EINVAL, "unsupported statement: %.*s", (int)name->text.n,
                      name->text.p);
    }
#undef NAME_IS
    return nd;
}

static tpl_node_t *parse_any(parser_t *ps)
{
    need_more(ps);
    const tpl_tok_t *tk = &ps->t[ps->cur];
    switch (tk->type) {
    case TK_COMMENT: ps->cur++; return node(ps, N_COMMENT);
    case TK_TEXT: {
        tpl_node_t *nd = node(ps, N_STR);
        nd->str = tk->text;
        ps->cur++;
        return nd;
    }
    case TK_OPEN_STMT: {
        enter(ps);
        tpl_node_t *nd = parse_statement(ps);
        leave(ps);
        return nd;
    }
    case TK_OPEN_EXPR: {
        ps->cur++;
        tpl_node_t *nd = parse_expression(ps);
        expect(ps, TK_CLOSE_EXPR, "}}");
        return nd;
    }
    default: kvr__tpl_fail(ps->ctx, -EINVAL, "unexpected token at top level");
    }
}

tpl_node_t *kvr__tpl_parse(tpl_ctx_t *ctx, const tpl_tok_t *toks, size_t ntoks)
{
    parser_t ps = {.ctx = ctx, .t = toks, .n = ntoks};
    tpl_node_t *prog = node(&ps, N_PROGRAM);
    while (ps.cur < ps.n)
        list_push(ctx, &prog->list, parse_any(&ps));
    return prog;
}
