// SPDX-License-Identifier: Apache-2.0
// Small templates, one construct each, rendered by the reference renderer over random
// values: OUT/features.jsonl lines are {template, vars, text} or {template, vars, error}.
// usage: node gen_features.mjs --count N [--seed S] --out DIR
import { Template } from "@huggingface/jinja";
import fs from "node:fs";
import path from "node:path";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const count = Number(args.count ?? 2000);
const out = args.out ?? ".";
let state = (Number(args.seed ?? 7) >>> 0) || 1;
function next() {
  // xorshift32: small and deterministic
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 2 ** 32;
}
const int = (n) => Math.floor(next() * n);
const pick = (a) => a[int(a.length)];

const strings = ["", " ", "a", "abc", "Hello World", "  padded\t\n", "\n\nlead", "trail\n\n", "你好", "😀x😀",
  "e\u0301", "\u00a0nbsp\u00a0", "\u3000wide\u3000", "a,b,,c", "x</think>y", "<think>r</think>\n\nc", "1", "0", "-3",
  "1.5", "true", "null", "abcabc", "ABC", "MiXeD", "\ufeffbom", "tab\tsep", "line\u2028sep"];
// upper/lower are ASCII-only in the C renderer (it refuses other text): their cases get ASCII
const asciiStrings = strings.filter((x) => /^[\x00-\x7f]*$/.test(x));
let pool = strings;
function value(depth = 0) {
  switch (int(depth > 1 ? 6 : 9)) {
    case 0: return pick([0, 1, -1, 2, 3, 10, 42, -7, 1.5, -2.5, 0.1, 1e21, 2 ** 53, 1e-7, 100.25]);
    case 1: case 2: return pick(pool);
    case 3: return pick([true, false]);
    case 4: return null;
    case 5: return pick(pool);
    case 6: return Array.from({ length: int(5) }, () => value(depth + 1));
    default: {
      const o = {};
      for (let i = 0; i < int(5); i++) o[pick(pool === strings ? ["a", "b", "name", "role", "content", "2", "1", "type", "k k", "ключ"] : ["a", "b", "2", "k k"])] = value(depth + 1);
      return o;
    }
  }
}

const T = [
  "{{ x }}", "{{ y }}", "{{ s }}", "{{ arr }}", "{{ obj }}", "{{ x ~ y }}", "{{ x + y }}", "{{ s + x }}",
  "{{ x - y }}", "{{ x * y }}", "{{ x / y }}", "{{ x // y }}", "{{ x % y }}", "{{ x == y }}", "{{ x != y }}",
  "{{ x < y }}", "{{ x >= y }}", "{{ x and y }}", "{{ x or y }}", "{{ not x }}", "{{ -x }}", "{{ x if y else s }}",
  "{{ x in arr }}", "{{ s in x }}", "{{ s not in obj }}", "{{ 'a' in s }}", "{{ x is defined }}", "{{ z is defined }}",
  "{{ x is none }}", "{{ x is string }}", "{{ x is mapping }}", "{{ x is number }}", "{{ x is integer }}",
  "{{ x is iterable }}", "{{ x is sequence }}", "{{ x is boolean }}", "{{ x is true }}", "{{ x is false }}",
  "{{ x is not none }}", "{{ x is odd }}", "{{ x is even }}", "{{ x | length }}", "{{ s | trim }}",
  "{{ x | trim }}", "{{ x | tojson }}", "{{ obj | tojson }}", "{{ arr | tojson(indent=2) }}",
  "{{ obj | tojson(indent=4) }}", "{{ obj | tojson(sort_keys=true) }}", "{{ x | tojson(ensure_ascii=true) }}",
  "{{ x | tojson(separators=(',', ':')) }}", "{{ x | string }}", "{{ x | upper }}", "{{ x | lower }}",
  "{{ x | default('d') }}", "{{ z | default('d') }}", "{{ x | default('d', true) }}", "{{ arr | first }}",
  "{{ arr | last }}", "{{ arr | join(', ') }}", "{{ arr | join }}", "{{ arr | reverse }}", "{{ obj | items }}",
  "{{ x | abs }}", "{{ arr | selectattr('a') | list }}", "{{ arr | rejectattr('a') | list }}",
  "{{ arr | selectattr('type', 'equalto', 'a') | list }}", "{{ arr | map(attribute='a') | list }}",
  "{{ s.startswith('a') }}", "{{ s.endswith('c') }}", "{{ s.startswith(('a', 'H')) }}", "{{ s.split(',') }}",
  "{{ s.split() }}", "{{ s.split(',', 1) }}", "{{ s.strip() }}", "{{ s.strip('\\n') }}", "{{ s.lstrip() }}",
  "{{ s.rstrip('\\n') }}", "{{ s.replace('a', 'X') }}", "{{ s.replace('', '-') }}", "{{ s.replace('a', 'X', 1) }}",
  "{{ s.upper() }}", "{{ s.lower() }}", "{{ x.get('a') }}", "{{ x.get('a', 'none') }}", "{{ obj.get('name', 5) }}",
  "{{ obj.items() }}", "{{ obj.keys() }}", "{{ obj.values() }}", "{{ s.length }}", "{{ arr.length }}",
  "{{ arr[0] }}", "{{ arr[-1] }}", "{{ arr[1:] }}", "{{ arr[:-1] }}", "{{ arr[::-1] }}", "{{ arr[::2] }}",
  "{{ s[0] }}", "{{ s[-1] }}", "{{ s[1:3] }}", "{{ s[::-1] }}", "{{ obj['a'] }}", "{{ obj.a }}", "{{ x[0] }}",
  "{{ x.a }}", "{{ x[y] }}", "{% for i in arr %}{{ loop.index0 }}:{{ i }};{% endfor %}",
  "{% for i in arr %}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.revindex }}{% endfor %}",
  "{% for i in arr if i %}{{ i }}|{% else %}empty{% endfor %}", "{% for k in obj %}{{ k }},{% endfor %}",
  "{% for k, v in obj.items() %}{{ k }}={{ v }};{% endfor %}", "{% for i in x %}{{ i }}{% endfor %}",
  "{% for i in arr %}{% if loop.index0 == 1 %}{% break %}{% endif %}{{ i }}{% endfor %}",
  "{% for i in arr %}{% if not i %}{% continue %}{% endif %}{{ i }}{% endfor %}",
  "{% for i in range(arr|length) %}{{ i }}{% endfor %}", "{% for i in range(5, 0, -2) %}{{ i }}{% endfor %}", "{% for i in range(1, 4) %}{{ i }}{% endfor %}",
  "{% if x %}T{% elif y %}E{% else %}F{% endif %}", "{% set a = x %}{{ a }}", "{% set a, b = arr %}{{ a }}{{ b }}",
  "{% set ns = namespace(v=x) %}{% for i in arr %}{% set ns.v = i %}{% endfor %}{{ ns.v }}",
  "{% set a %}block {{ x }}{% endset %}[{{ a }}]", "{% macro m(p, q='d') %}<{{ p }}{{ q }}>{% endmacro %}{{ m(x) }}{{ m(x, y) }}{{ m(q=s, p=1) }}",
  "{{ raise_exception('bad: ' ~ x) }}", "{% if x is string %}{{ raise_exception(x) }}{% endif %}ok",
  "  {% if x %}\n  yes\n  {% endif %}\n", "a  {%- if x %} b {% endif -%}  c", "{# c #}\n{{ x }}\n{#- d -#}  z",
  "{{- x -}}  \n  {{ y }}", "line\n    {% for i in arr %}\n    - {{ i }}\n    {% endfor %}\ndone\n",
  "{{ [x, y] }}", "{{ {'k': x, 'j': y} }}", "{{ (x, y) }}", "{{ 'a' 'b' }}", "{{ \"q\\\"\" }}", "{{ '\\u00e9\\x41\\n' }}",
  "{{ x|tojson|length }}", "{{ (arr|length) - 1 }}", "{{ messages|length }}", "{{ arr + [1] }}",
  "{{ 1.0 }}", "{{ 2.5 * 2 }}", "{{ 7 / 2 }}", "{{ -0.0 }}", "{{ 10 // 3 }}", "{{ 10 % 3 }}", "{{ 1e3 }}",
  "{% filter upper %}abc{{ x }}{% endfilter %}", "{{ x is defined and x }}", "{{ true }}{{ True }}{{ none }}",
  "{{ s.title() }}", "{{ s | title }}", "{{ x | items }}", "{{ unknown.attr }}", "{{ x[1:2:0] }}",
  "{% for a in arr %}{% for b in arr %}{{ loop.index }}{% endfor %}{{ loop.index }}{% endfor %}",
  "{% set c = 0 %}{% for a in arr %}{% set c = c + 1 %}{% endfor %}{{ c }}",
  "{{ obj | length }}", "{{ s | length }}", "{{ x | int }}", "{{ x | float }}", "{{ s | capitalize }}",
  "{{ x == none }}", "{{ z == none }}", "{{ arr == arr }}", "{{ none in arr }}", "{{ x ** 2 }}",
  "{% if x %}", "{{ x", "{% endif %}", "{% for %}", "{{ ) }}", "{% set = 1 %}", "{% unknown %}", "{{ 'abc }}",
  "{{ x | nosuchfilter }}", "{{ x is nosuchtest }}", "{{ x() }}", "{% generation %}x{% endgeneration %}",
];

const lines = [];
let refused = 0;
for (let i = 0; i < count; i++) {
  const template = T[i % T.length];
  pool = /upper|lower|capitalize/.test(template) ? asciiStrings : strings;
  const vars = JSON.parse(JSON.stringify({ x: value(), y: value(), s: pick(pool), arr: Array.from({ length: int(5) }, () => value(1)), obj: value(2), messages: [] }));
  const c = { template, vars };
  try {
    const text = new Template(template).render(vars);
    // half of a surrogate pair has no UTF-8 form: the C renderer refuses such output
    if (!text.isWellFormed()) throw new Error("rendered text is not well-formed Unicode");
    c.text = text;
  } catch (e) {
    c.error = String(e && e.message ? e.message : e);
    refused++;
  }
  lines.push(JSON.stringify(c));
}
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "features.jsonl"), lines.join("\n") + "\n");
console.log(`features: cases=${count} templates=${T.length} refused=${refused}`);
