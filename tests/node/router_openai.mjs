// SPDX-License-Identifier: Apache-2.0
// The official OpenAI client through kvroute (in front of kvroute-sim):
// streamed and whole chat, completions, the models union, the response
// headers kvroute adds, session stickiness and OpenAI-shaped errors.
// Base URL from KVR_ROUTER_URL (e.g. http://127.0.0.1:8080/v1).
// Exits 0 when every check passes; prints the first failure and exits 1.
import OpenAI from "openai";

const baseURL = process.env.KVR_ROUTER_URL;
if (!baseURL) {
  console.error("router_openai: set KVR_ROUTER_URL, e.g. http://127.0.0.1:8080/v1");
  process.exit(2);
}
const client = new OpenAI({ baseURL, apiKey: "unused", maxRetries: 0, timeout: 20000 });
const model = "sim-30b-a3b";

function check(cond, what) {
  if (!cond) throw new Error(what);
}

async function chatStream() {
  const { data: stream, response } = await client.chat.completions
    .create({
      model,
      messages: [{ role: "user", content: "stream through the router" }],
      max_tokens: 6,
      stream: true,
      stream_options: { include_usage: true },
    })
    .withResponse();
  check(response.headers.get("x-kvroute-engine")?.startsWith("http://127.0.0.1:"), "X-Kvroute-Engine on a stream");
  check(response.headers.get("x-request-id"), "X-Request-ID on a stream");
  let chunks = 0, usage = null, finish = null;
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      if (c.delta.content) chunks++;
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  check(chunks === 6, `6 content chunks through the router, got ${chunks}`);
  check(finish === "length", `finish_reason length, got ${finish}`);
  check(usage && usage.completion_tokens === 6, "usage arrives through the router");
}

async function chatWhole() {
  const { data, response } = await client.chat.completions
    .create({ model, messages: [{ role: "user", content: "whole answer" }], max_tokens: 5 }, {
      headers: { "X-Request-ID": "node-req-1" },
    })
    .withResponse();
  check(response.headers.get("x-request-id") === "node-req-1", "X-Request-ID echoed");
  check(data.choices[0].message.role === "assistant", "assistant message");
  check(data.usage.completion_tokens === 5, "5 completion tokens");
}

async function completions() {
  const r = await client.completions.create({ model, prompt: "Once upon a time", max_tokens: 3 });
  check(r.choices.length === 1 && typeof r.choices[0].text === "string", "completion text");
}

async function models() {
  const list = [];
  for await (const m of client.models.list()) list.push(m.id);
  check(list.filter((id) => id === model).length === 1, `model listed once, got ${JSON.stringify(list)}`);
}

async function sticky() {
  const engines = new Set();
  for (let turn = 0; turn < 4; turn++) {
    const { response } = await client.chat.completions
      .create({ model, messages: [{ role: "user", content: `turn ${turn}` }], max_tokens: 2 }, {
        headers: { "X-Session-ID": "node-session" },
      })
      .withResponse();
    engines.add(response.headers.get("x-kvroute-engine"));
  }
  check(engines.size === 1, `a session's turns stay on one engine, saw ${[...engines]}`);
}

async function errors() {
  try {
    await client.post("/no/such/path", { body: {} });
    check(false, "unknown path must fail");
  } catch (e) {
    check(e instanceof OpenAI.NotFoundError, `404 as NotFoundError, got ${e.constructor.name}`);
    check(e.error && typeof e.error.message === "string", "OpenAI-shaped error body");
  }
}

try {
  await chatStream();
  await chatWhole();
  await completions();
  await models();
  await sticky();
  await errors();
  console.log("router_openai: all checks passed");
} catch (e) {
  console.error(`router_openai: ${e.message}`);
  process.exit(1);
}
