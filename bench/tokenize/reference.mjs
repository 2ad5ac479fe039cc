// SPDX-License-Identifier: Apache-2.0
// The JavaScript side of bench/tokenize/run.sh.
//   node reference.mjs gen DIR BYTES SEED         writes DIR/{english,code,cjk}.txt, BYTES each
//   node reference.mjs bench MODELS RUNS IDS FILE...
//     loads MODELS/tokenizer.json with @lenml/tokenizers (tests/tokens' npm install), encodes
//     each FILE RUNS times and prints one line per file:
//       js KIND bytes=B tokens=T cpu_ms=C (best of RUNS) mb_per_s=M
//     plus the memory of the loaded tokenizer; IDS/KIND.js.ids gets the ids (u32 little-endian).
import { createRequire } from "node:module";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");

// splitmix32, as tests/tokens/corpus.mjs: the inputs depend on the seed only.
function rng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the of and to a in is it you that he was for on are with as his they be at one have this " +
  "from or had by not word but what some we can out other were all there when up use your how " +
  "said an each she which do their time if will way about many then them write would like so " +
  "these her long make thing see him two has look more day could go come did number sound no " +
  "most people my over know water than call first who may down side been now find any new work " +
  "part take get place made live where after back little only round man year came show every " +
  "good me give our under name very through just form sentence great think say help low line " +
  "differ turn cause much mean before move right boy old too same tell does set three want air " +
  "well also play small end put home read hand port large spell add even land here must big " +
  "high such follow act why ask men change went light kind off need house picture try us again " +
  "animal point mother world near build self earth father head stand own page should country " +
  "found answer school grow study still learn plant cover food sun four between state keep eye " +
  "never last let thought city tree cross farm hard start might story saw far sea draw left late " +
  "run don't while press close night real life few north open seem together next white children " +
  "begin got walk example ease paper group always music those both mark often letter until mile " +
  "river car feet care second book carry took science eat room friend began idea fish mountain " +
  "stop once base hear horse cut sure watch color face wood main enough plain girl usual young " +
  "ready above ever red list though feel talk bird soon body dog family direct pose leave song " +
  "measure door product black short numeral class wind question happen complete ship area half " +
  "rock order fire south problem piece told knew pass since top whole king space heard best hour " +
  "better true during hundred five remember step early hold west ground interest reach fast verb " +
  "sing listen six table travel less morning ten simple several vowel toward war lay against " +
  "pattern slow center love person money serve appear road map rain rule govern pull cold notice " +
  "voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star " +
  "box noun field rest correct able pound done beauty drive stood contain front teach week final " +
  "gave green oh quick develop ocean warm free minute strong special mind behind clear tail " +
  "produce fact street inch multiply nothing course stay wheel full force blue object decide " +
  "surface deep moon island foot system busy test record boat common gold possible plane stead " +
  "dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire " +
  "bring yes distant fill east paint language among grand ball yet wave drop heart am present " +
  "heavy dance engine position arm wide sail material size vary settle speak weight general ice " +
  "matter circle pair include divide syllable felt perhaps pick sudden count square reason " +
  "length represent art subject region energy hunt probable bed brother egg ride cell believe " +
  "fraction forest sit race window store summer train sleep prove lone leg exercise wall catch " +
  "mount wish sky board joy winter sat written wild instrument kept glass grass cow job edge sign " +
  "visit past soft fun bright gas weather month million bear finish happy hope flower clothe " +
  "strange gone jump baby eight village meet root buy raise solve metal whether push seven " +
  "paragraph third shall held hair describe cook floor either result burn hill safe cat century " +
  "consider type law bit coast copy phrase silent tall sand soil roll temperature finger industry " +
  "value fight lie beat excite natural view sense ear else quite broke case middle kill son lake " +
  "moment scale loud spring observe child straight consonant nation dictionary milk speed method " +
  "organ pay age section dress cloud surprise quiet stone tiny climb cool design poor lot " +
  "experiment bottom key iron single stick flat twenty skin smile crease hole trade melody trip " +
  "office receive row mouth exact symbol die least trouble shout except wrote seed tone join " +
  "suggest clean break lady yard rise bad blow oil blood touch grew cent mix team wire cost lost " +
  "brown wear garden equal sent choose fell fit flow fair bank collect save control decimal gentle " +
  "woman captain practice separate difficult doctor please protect noon whose locate ring " +
  "character insect caught period indicate radio spoke atom human history effect electric expect " +
  "crop modern element hit student corner party supply bone rail imagine provide agree thus " +
  "capital won't chair danger fruit rich thick soldier process operate guess necessary sharp wing " +
  "create neighbor wash bat rather crowd corn compare poem string bell depend meat rub tube " +
  "famous dollar stream fear sight thin triangle planet hurry chief colony clock mine tie enter " +
  "major fresh search send yellow gun allow print dead spot desert suit current lift rose arrive " +
  "master track parent shore division sheet substance favor connect post spend chord fat glad " +
  "original share station dad bread charge proper bar offer segment slave duck instant market " +
  "degree populate chick dear enemy reply drink occur support speech nature range steam motion " +
  "path liquid log meant quotient teeth shell neck oxygen sugar death pretty skill women season " +
  "solution magnet silver thank branch match suffix especially fig afraid huge sister steel " +
  "discuss forward similar guide experience score apple bought led pitch coat mass card band rope " +
  "slip win dream evening condition feed tool total basic smell valley nor double seat continue " +
  "block chart hat sell success company subtract event particular deal swim term opposite wife " +
  "shoe shoulder spread arrange camp invent cotton born determine quart nine truck noise level " +
  "chance gather shop stretch throw shine property column molecule select wrong gray repeat " +
  "require broad prepare salt nose plural anger claim continent"
).split(" ");
const NAMES = ["Alice", "Bob", "Paris", "London", "Tuesday", "March", "Kubernetes", "Linux",
  "Python", "Europe", "Dr.", "Mr.", "Ms.", "NASA", "OpenAI", "GPU", "HTTP/2", "JSON"];
const CODE_KW = ["if", "else", "for", "while", "return", "static", "const", "int", "size_t",
  "void", "struct", "char", "bool", "uint32_t", "def", "self", "None", "import", "let", "fn"];
const CJK = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家" +
  "学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三" +
  "已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机" +
  "给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先" +
  "山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更" +
  "反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统" +
  "色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红" +
  "治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收" +
  "脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵" +
  "弟谁校读志飞观争究包组造落视济喜离虽坏兴切份尔";
const KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん" +
  "アイウエオカキクケコサシスセソタチツテトナニヌネノ";

// A word outside the list, as real text has a long tail of them.
const SYL = ["ka", "lo", "ven", "str", "ion", "ment", "pre", "dis", "qu", "ar", "eth", "ly", "ous", "ph"];
function rareWord(rnd) {
  let w = "";
  for (let i = 2 + Math.floor(rnd() * 3); i > 0; i--) w += SYL[Math.floor(rnd() * SYL.length)];
  return w;
}

// Zipf-like: a few words often, the long tail rarely.
function zipf(rnd, n) {
  return Math.min(n - 1, Math.floor(Math.pow(n + 1, rnd()) - 1));
}

function english(rnd, bytes) {
  const out = [];
  let len = 0, sentence = 0;
  while (len < bytes) {
    const n = 6 + Math.floor(rnd() * 18);
    const w = [];
    for (let i = 0; i < n; i++) {
      const r = rnd();
      if (r < 0.04) w.push(NAMES[Math.floor(rnd() * NAMES.length)]);
      else if (r < 0.06) w.push(String(Math.floor(rnd() * 100000)));
      else if (r < 0.09) w.push(rareWord(rnd));
      else w.push(WORDS[zipf(rnd, WORDS.length)]);
      if (rnd() < 0.06 && i + 1 < n) w[w.length - 1] += ",";
    }
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    const s = w.join(" ") + (rnd() < 0.1 ? "?" : ".") + (++sentence % 7 === 0 ? "\n\n" : " ");
    out.push(s);
    len += Buffer.byteLength(s);
  }
  return out.join("");
}

function ident(rnd) {
  const a = WORDS[zipf(rnd, 400)].replace("'", ""), b = WORDS[zipf(rnd, 400)].replace("'", "");
  const r = rnd();
  return r < 0.5 ? `${a}_${b}` : r < 0.8 ? a + b[0].toUpperCase() + b.slice(1) : a;
}

function code(rnd, bytes) {
  const out = [];
  let len = 0;
  while (len < bytes) {
    const f = ident(rnd), lines = [`static int ${f}(const struct ${ident(rnd)} *${ident(rnd)}, size_t n)`, "{"];
    const body = 3 + Math.floor(rnd() * 12);
    let depth = 1;
    for (let i = 0; i < body; i++) {
      const pad = "    ".repeat(depth), r = rnd();
      if (r < 0.2 && depth < 4) {
        lines.push(`${pad}for (size_t i = 0; i < ${ident(rnd)}->len; i++) {`);
        depth++;
      } else if (r < 0.35 && depth < 4) {
        lines.push(`${pad}if (${ident(rnd)} == NULL || ${ident(rnd)} >= ${Math.floor(rnd() * 4096)}) {`);
        depth++;
      } else if (r < 0.5 && depth > 1) {
        depth--;
        lines.push("    ".repeat(depth) + "}");
      } else if (r < 0.6) {
        lines.push(`${pad}// ${WORDS[zipf(rnd, WORDS.length)]} ${WORDS[zipf(rnd, WORDS.length)]} ` +
                   `${WORDS[zipf(rnd, WORDS.length)]}`);
      } else if (r < 0.75) {
        lines.push(`${pad}${CODE_KW[Math.floor(rnd() * 10) + 6]} ${ident(rnd)} = ${ident(rnd)}(${ident(rnd)}, ` +
                   `"${WORDS[zipf(rnd, WORDS.length)]}: %d\\n", 0x${Math.floor(rnd() * 65536).toString(16)});`);
      } else {
        lines.push(`${pad}${ident(rnd)}->${ident(rnd)} += ${ident(rnd)}[i] * ${Math.floor(rnd() * 100)};`);
      }
    }
    while (depth > 1) lines.push("    ".repeat(--depth) + "}");
    lines.push(`    return ${ident(rnd)};`, "}", "", "");
    const s = lines.join("\n");
    out.push(s);
    len += Buffer.byteLength(s);
  }
  return out.join("");
}

function cjk(rnd, bytes) {
  const out = [];
  let len = 0;
  while (len < bytes) {
    const n = 8 + Math.floor(rnd() * 30);
    let s = "";
    for (let i = 0; i < n; i++) {
      const r = rnd();
      if (r < 0.08) s += KANA[Math.floor(rnd() * KANA.length)];
      else if (r < 0.1) s += String(Math.floor(rnd() * 2030));
      else s += CJK[zipf(rnd, CJK.length)];
      if (rnd() < 0.08) s += "，";
    }
    s += rnd() < 0.1 ? "？" : "。";
    if (rnd() < 0.1) s += "\n";
    out.push(s);
    len += Buffer.byteLength(s);
  }
  return out.join("");
}

async function loadReference() {
  const require = createRequire(path.join(root, "tests", "tokens", "package.json"));
  let entry;
  try {
    entry = require.resolve("@lenml/tokenizers");
  } catch {
    console.error("reference.mjs: @lenml/tokenizers missing: run scripts/install-deps.sh " +
                  "(npm install in tests/tokens)");
    process.exit(2);
  }
  const mjs = entry.replace(/main\.js$/, "main.mjs");
  return (await import(pathToFileURL(mjs).href)).TokenizerLoader;
}

function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function settle() {
  if (global.gc) { global.gc(); global.gc(); }
  return process.memoryUsage();
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "gen") {
  const [dir, bytesArg, seedArg] = args;
  const bytes = Number(bytesArg), seed = Number(seedArg ?? 1);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "english.txt"), english(rng(seed), bytes));
  writeFileSync(path.join(dir, "code.txt"), code(rng(seed + 1), bytes));
  writeFileSync(path.join(dir, "cjk.txt"), cjk(rng(seed + 2), bytes));
} else if (cmd === "bench") {
  const [models, runsArg, idsDir, ...files] = args;
  const runs = Number(runsArg);
  const TokenizerLoader = await loadReference();
  const before = settle();
  const tokenizerJSON = JSON.parse(readFileSync(path.join(models, "tokenizer.json"), "utf8"));
  const tokenizerConfig = JSON.parse(readFileSync(path.join(models, "tokenizer_config.json"), "utf8"));
  const t0 = cpuMs();
  const tok = TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
  const loadMs = cpuMs() - t0;
  const loaded = settle(); // the parsed JSON stays reachable (tokenizerJSON), as the library keeps parts of it
  console.log(`js load cpu_ms=${loadMs.toFixed(0)} heap_mb=${((loaded.heapUsed - before.heapUsed) / 1048576).toFixed(1)} ` +
              `rss_mb=${((loaded.rss - before.rss) / 1048576).toFixed(1)}`);
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const bytes = Buffer.byteLength(text);
    const kind = path.basename(file).replace(/\.txt$/, "");
    let best = Infinity, ids;
    for (let r = 0; r < runs; r++) {
      const t = cpuMs();
      ids = tok.encode(text, { add_special_tokens: false });
      best = Math.min(best, cpuMs() - t);
    }
    writeFileSync(path.join(idsDir, `${kind}.js.ids`), Buffer.from(Uint32Array.from(ids).buffer));
    console.log(`js ${kind} bytes=${bytes} tokens=${ids.length} cpu_ms=${best.toFixed(1)} ` +
                `mb_per_s=${(bytes / 1e6 / (best / 1000)).toFixed(2)}`);
  }
  console.log(`js peak_rss_mb=${(process.resourceUsage().maxRSS / 1024).toFixed(1)}`);
} else {
  console.error("usage: reference.mjs gen DIR BYTES SEED | bench MODELS RUNS IDS FILE...");
  process.exit(2);
}
