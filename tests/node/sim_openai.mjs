// SPDX-License-Identifier: Apache-2.0
// The official OpenAI client against kvroute-sim (or anything in front of it):
// streaming and non-streaming chat and completions, usage with cached tokens,
// model listing. Base URL from KVR_SIM_URL (e.g. http://127.0.0.1:8100/v1).
// Exits 0 when every check passes; prints the first failure and exits 1.
import OpenAI from "openai";

const baseURL = process.env.KVR_SIM_URL;
if (!baseURL) {
  console.error("sim_openai: set KVR_SIM_URL, e.g. http://127.0.0.1:8100/v1");
  process.exit(2);
}
const client = new OpenAI({ baseURL, apiKey: "unused", maxRetries: 0, timeout: 20000 });

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const shared = "You are a careful assistant. ".repeat(40);

async function chatStream() {
  const stream = await client.chat.completions.create({
    model: "sim-30b-a3b",
    messages: [{ role: "system", content: shared }, { role: "user", content: "stream please" }],
    max_tokens: 7,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "", contentChunks = 0, finish = null, usage = null, role = null;
  for await (const chunk of stream) {
    check(chunk.object === "chat.completion.chunk", `chunk object ${chunk.object}`);
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.delta.role) role = choice.delta.role;
      if (choice.delta.content) { text += choice.delta.content; contentChunks++; }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  check(role === "assistant", "first chunk announces the assistant role");
  check(contentChunks === 7, `7 content chunks, got ${contentChunks}`);
  check(text.length > 0, "streamed text");
  check(finish === "length", `finish_reason length, got ${finish}`);
  check(usage && usage.completion_tokens === 7, "usage.completion_tokens is 7");
  check(usage.prompt_tokens > 0 && usage.total_tokens === usage.prompt_tokens + 7, "usage totals add up");
  check(typeof usage.prompt_tokens_details?.cached_tokens === "number", "cached_tokens reported");
  return usage;
}

async function chatWhole() {
  const r = await client.chat.completions.create({
    model: "sim-30b-a3b",
    messages: [{ role: "system", content: shared }, { role: "user", content: "whole please" }],
    max_tokens: 5,
  });
  check(r.object === "chat.completion", "chat.completion object");
  check(r.choices[0].message.role === "assistant", "assistant message");
  check(r.choices[0].message.content.split(" ").length === 5, "five words for five tokens");
  check(r.choices[0].finish_reason === "length", "finish_reason length");
  check(r.usage.completion_tokens === 5, "completion_tokens 5");
  return r.usage;
}

async function completions() {
  const s = await client.completions.create({ model: "sim-30b-a3b", prompt: shared, max_tokens: 4, stream: true });
  let n = 0;
  for await (const chunk of s) {
    check(chunk.object === "text_completion", "text_completion chunk");
    if (chunk.choices.length && chunk.choices[0].text) n++;
  }
  check(n === 4, `4 completion chunks, got ${n}`);
  const w = await client.completions.create({ model: "sim-30b-a3b", prompt: shared, max_tokens: 3 });
  check(w.choices[0].text.split(" ").length === 3, "three words");
  check(w.usage.completion_tokens === 3, "completion usage");
  check(w.usage.prompt_tokens_details.cached_tokens > 0, "the shared prompt is cached by now");
}

try {
  const models = await client.models.list();
  check(models.data.length === 1 && models.data[0].id, "one model listed");
  const first = await chatStream();
  const second = await chatWhole();
  check(second.prompt_tokens_details.cached_tokens >= first.prompt_tokens_details.cached_tokens,
    "the second request with the same system prompt is served from cache");
  check(second.prompt_tokens_details.cached_tokens > 0, "cached tokens after a shared prefix");
  await completions();
  console.log("sim_openai: ok");
} catch (err) {
  console.error(`sim_openai: FAIL: ${err.message}`);
  process.exit(1);
}
