// SPDX-License-Identifier: Apache-2.0
// Writes a seeded corpus of hostile texts for one model family, each encoded by
// the reference tokenizer: JSONL {"text"|"hex", "ids", "ids_special"} on stdout.
//   node corpus.mjs FAMILY COUNT SEED      FAMILY: qwen3 llama3_1 deepseek_v3 gptoss
import { TokenizerLoader } from "@lenml/tokenizers";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const [family, countArg, seedArg] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const models = path.join(here, "node_modules", "@lenml", `tokenizer-${family}`, "models");
const tokenizerJSON = JSON.parse(readFileSync(path.join(models, "tokenizer.json"), "utf8"));
const tokenizerConfig = JSON.parse(readFileSync(path.join(models, "tokenizer_config.json"), "utf8"));
const tok = TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
const count = Number(countArg ?? 10000);

// splitmix32: the corpus depends on the seed only.
let state = Number(seedArg ?? 1) >>> 0;
function rnd() {
  state = (state + 0x9e3779b9) >>> 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(rnd() * n);
const pick = (a) => a[int(a.length)];
const cp = (lo, hi) => String.fromCodePoint(lo + int(hi - lo + 1));

// Code point pools assigned since Unicode 15.0 or earlier (PCRE2 and utf8proc
// on Debian 12 know Unicode 15; node knows a later one), plus planes that stay
// unassigned, private use and noncharacters.
const pools = {
  latin: [[0x20, 0x7e], [0xa0, 0x24f], [0x1e00, 0x1eff]],
  greek_cyrillic: [[0x370, 0x3ff], [0x400, 0x4ff]],
  arabic_hebrew: [[0x5d0, 0x5ea], [0x600, 0x6ff]],
  indic: [[0x900, 0x97f], [0xb80, 0xbff], [0xe00, 0xe5b]],
  cjk: [[0x4e00, 0x9fff], [0x3040, 0x30ff], [0xac00, 0xd7a3], [0x3000, 0x303f], [0xff00, 0xffef], [0x20000, 0x2a6df]],
  emoji: [[0x1f300, 0x1f5ff], [0x1f600, 0x1f64f], [0x1f680, 0x1f6c5], [0x2600, 0x26ff]],
  combining: [[0x300, 0x36f], [0x1ab0, 0x1abe], [0x20d0, 0x20f0], [0xfe20, 0xfe2f]],
  strange: [[0xe000, 0xf8ff], [0xf0000, 0xffffd], [0x100000, 0x10fffd], [0xfdd0, 0xfdef], [0x40000, 0xdffff],
            [0xe0020, 0xe007f], [0xfe00, 0xfe0f], [0x1d400, 0x1d7ff], [0x0, 0x1f], [0x7f, 0x9f]],
  spaces: [[0x9, 0xd], [0x20, 0x20], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680], [0x180e, 0x180e],
           [0x2000, 0x200f], [0x2028, 0x202f], [0x205f, 0x2060], [0x3000, 0x3000], [0xfeff, 0xfeff]],
};
const fromPool = (name) => { const [lo, hi] = pick(pools[name]); return cp(lo, hi); };
const nonchars = [0xfffe, 0xffff, 0x1fffe, 0x1ffff, 0x10fffe, 0x10ffff, 0xfffd];

const words = ["the", "The", "HELLO", "world", "naïve", "café", "résumé", "don't", "I'm", "we'll",
  "they're", "you've", "she'd", "IT'S", "WE'LL", "O'Neil", "rock'n'roll", "ſtraße", "Straße", "ǅemal",
  "ᏣᎳᎩ", "Ωmega", "İstanbul", "ﬁne", "Å", "Å", "e\u0301", "n\u0303", "ǈ", "CamelCase", "snake_case",
  "kebab-case", "x86_64", "3.14159", "1,000,000", "v2.0.1", "iPhone", "AT&T", "e.g.", "U.S.A."];
const code = ["int main(void) {\n\treturn 0;\n}\n", "def f(x):\n    return x ** 2\n",
  "const a = [1, 2, 3].map((x) => x * 2);", "#include <stdio.h>\r\n", "SELECT * FROM t WHERE id = 42;",
  "if (a && b || !c) { x += 1; }", "<div class=\"a\">&amp;</div>", "fn main() -> Result<(), E> {}",
  "    // comment\n\n\n", "$ ls -la | grep '^d'\n", "{\"key\": [true, null, 1e-9]}", "a\\b\\c", "@@ -1,3 +1,4 @@"];
const emojiSeq = ["👨‍👩‍👧‍👦", "👩🏽‍💻", "🏳️‍🌈", "🇺🇸", "🇯🇵", "👍🏿", "👋🏻", "❤️", "🧑🏾‍🤝‍🧑🏼", "1️⃣", "#️⃣",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👁️‍🗨️", "🤷‍♀️", "☺︎", "✌🏽"];
const special = tokenizerJSON.added_tokens.map((t) => t.content);

function ws() {
  const kinds = [" ", "  ", "\t", "\n", "\r\n", "\n\n", " \n", "\t\t ", "\u00a0", "\u3000", "\r", "\f\v"];
  let s = "";
  const n = 1 + int(4);
  for (let i = 0; i < n; i++) s += rnd() < 0.8 ? pick(kinds) : fromPool("spaces");
  return s;
}
function run(name, n) { let s = ""; for (let i = 0; i < n; i++) s += fromPool(name); return s; }
function digits() { let s = ""; const n = 1 + int(rnd() < 0.1 ? 40 : 8); for (let i = 0; i < n; i++) s += rnd() < 0.9 ? String(int(10)) : pick(["٣", "५", "１", "²", "Ⅻ", "①", "."]); return s; }

const gens = {
  cjk: () => run("cjk", 1 + int(30)) + (rnd() < 0.5 ? pick(["。", "，", "、", "！", " "]) + run("cjk", int(10)) : ""),
  emoji: () => { let s = ""; for (let i = 0, n = 1 + int(8); i < n; i++) s += rnd() < 0.5 ? pick(emojiSeq) : fromPool("emoji"); if (rnd() < 0.5) s += pick(words); return s; },
  combining: () => { let s = ""; for (let i = 0, n = 1 + int(10); i < n; i++) { s += fromPool(pick(["latin", "greek_cyrillic", "indic", "arabic_hebrew"])); for (let k = int(4); k > 0; k--) s += fromPool("combining"); } return s; },
  strange: () => { let s = ""; for (let i = 0, n = 1 + int(12); i < n; i++) s += rnd() < 0.2 ? String.fromCodePoint(pick(nonchars)) : fromPool("strange"); return s; },
  code: () => { let s = ""; for (let i = 0, n = 1 + int(5); i < n; i++) s += pick(code); return s; },
  whitespace: () => { let s = ""; for (let i = 0, n = 1 + int(6); i < n; i++) s += (rnd() < 0.5 ? ws() : " ".repeat(1 + int(70))) + (rnd() < 0.5 ? pick(words) : ""); return s; },
  digits: () => { let s = ""; for (let i = 0, n = 1 + int(5); i < n; i++) s += digits() + pick(["", " ", ",", ".", "-", "x", "年"]); return s; },
  contractions: () => { let s = ""; for (let i = 0, n = 1 + int(8); i < n; i++) s += pick(words) + pick(["'s", "'S", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'LL", "'d", "'x", "’s", ""]) + pick([" ", "", "\n", "'"]); return s; },
  special: () => { let s = ""; for (let i = 0, n = 1 + int(5); i < n; i++) s += pick(["", " ", "\n", "  ", pick(words), pick(words) + " "]) + pick(special) + pick(["", " ", "\n", pick(words)]); if (rnd() < 0.2) { const t = pick(special); s += t.slice(0, 1 + int(t.length - 1)); } return s; },
  mixed: () => { let s = ""; for (let i = 0, n = 1 + int(12); i < n; i++) s += pick([gens.cjk, gens.emoji, gens.combining, gens.strange, gens.code, gens.whitespace, gens.digits, gens.contractions, () => pick(words), () => ws()])(); return s; },
  long: () => { let s = ""; const target = 2000 + int(30000); while (s.length < target) s += gens.mixed() + pick([" ", "\n", ""]); return s; },
};
const names = Object.keys(gens);

// Bytes that are not UTF-8, for the "hex" records: the reference reads them through TextDecoder.
function badBytes() {
  const parts = [];
  const n = 1 + int(10);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.4) parts.push(...Buffer.from(gens.mixed(), "utf8"));
    else if (r < 0.6) parts.push(pick([0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff, 0xfe]));
    else if (r < 0.8) { const b = Buffer.from(String.fromCodePoint(0x80 + int(0x10ff00)).replace(/[\ud800-\udfff]/g, "x"), "utf8"); parts.push(...b.subarray(0, Math.max(1, b.length - 1))); }
    else parts.push(pick([0xed, 0xe0, 0xf0, 0xf4]), pick([0xa0, 0x80, 0x8f, 0x90, 0xbf]), 0x80);
  }
  return Buffer.from(parts);
}

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
for (let i = 0; i < count; i++) {
  let rec;
  let text;
  if (rnd() < 0.05) {
    const bytes = badBytes();
    text = decoder.decode(bytes);
    rec = { hex: bytes.toString("hex") };
  } else {
    const name = names[i % names.length];
    text = gens[name]();
    // cJSON strings end at a NUL: such texts travel as hex.
    rec = text.includes("\0") ? { hex: Buffer.from(text, "utf8").toString("hex") } : { text };
  }
  rec.ids = tok.encode(text, { add_special_tokens: false });
  rec.ids_special = tok.encode(text, { add_special_tokens: true });
  process.stdout.write(JSON.stringify(rec) + "\n");
}
