// SPDX-License-Identifier: Apache-2.0
// The official OpenAI client through kvroute in front of disaggregated
// kvroute-sim engines (--pd-protocol vllm or sglang): one streamed and one
// whole chat completion, each answered by a decode engine.
// KVR_ROUTER_URL: the router's base URL (http://127.0.0.1:8080/v1);
// KVR_DECODE_ENGINES: the decode engines' URLs, comma-separated.
// Exits 0 when every check passes; prints the first failure and exits 1.
import OpenAI from "openai";

const baseURL = process.env.KVR_ROUTER_URL;
const decode = (process.env.KVR_DECODE_ENGINES || "").split(",").filter((u) => u);
if (!baseURL || decode.length === 0) {
  console.error("router_pd_openai: set KVR_ROUTER_URL and KVR_DECODE_ENGINES");
  process.exit(2);
}
const client = new OpenAI({ baseURL, apiKey: "unused", maxRetries: 0, timeout: 20000 });
const model = "sim-30b-a3b";

function check(cond, what) {
  if (!cond) throw new Error(what);
}

function fromDecode(response, what) {
  const engine = response.headers.get("x-kvroute-engine");
  check(decode.includes(engine), `${what} answered by ${engine}, not a decode engine (${decode})`);
}

async function chatStream() {
  const { data: stream, response } = await client.chat.completions
    .create({
      model,
      messages: [{ role: "user", content: "a disaggregated stream: prefill here, decode there" }],
      max_tokens: 6,
      stream: true,
      stream_options: { include_usage: true },
    })
    .withResponse();
  fromDecode(response, "the stream");
  let chunks = 0, usage = null, finish = null;
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      if (c.delta.content) chunks++;
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  check(chunks === 6, `6 content chunks from the decode engine, got ${chunks}`);
  check(finish === "length", `finish_reason length, got ${finish}`);
  check(usage && usage.completion_tokens === 6, "usage arrives on a disaggregated stream");
}

async function chatWhole() {
  const { data, response } = await client.chat.completions
    .create({ model, messages: [{ role: "user", content: "a disaggregated whole answer" }], max_tokens: 5 })
    .withResponse();
  fromDecode(response, "the whole answer");
  check(data.choices[0].message.role === "assistant", "assistant message");
  check(typeof data.choices[0].message.content === "string" && data.choices[0].message.content.length > 0,
        "the decode engine's text");
  check(data.usage.completion_tokens === 5, `5 completion tokens, got ${data.usage.completion_tokens}`);
}

try {
  await chatStream();
  await chatWhole();
} catch (e) {
  console.error(`router_pd_openai: ${e.message}`);
  process.exit(1);
}
