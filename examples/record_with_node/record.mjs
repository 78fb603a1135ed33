// Record one streamed Messages call made by the official Anthropic Node SDK
// through `course serve --record`, then replay it from the cassette with
// `course serve`: the second call needs no network and no key.
//
//   npm ci --prefix examples/record_with_node
//   ANTHROPIC_API_KEY=... node examples/record_with_node/record.mjs https://api.anthropic.com answer.json
//
// Prints the streamed answer twice, one line each: as it came through the
// proxy, then as replayed; exits 1 when the two differ. COURSE is the
// command that runs course (default: course), split on spaces.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

import Anthropic from "@anthropic-ai/sdk";

const [upstream, cassette] = process.argv.slice(2);
if (!upstream || !cassette) {
  console.error("usage: record.mjs UPSTREAM_URL CASSETTE");
  process.exit(2);
}
const course = (process.env.COURSE ?? "course").split(" ").filter(Boolean);
const SECONDS = 30;

// Starts `course serve ARGS` and resolves with it and the URL its first line
// prints once it listens; rejects with its stderr when it exits first.
async function serve(...args) {
  const server = spawn(course[0], [...course.slice(1), "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  server.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: server.stdout });
  const exited = once(server, "exit").then(() => {
    throw new Error(`course serve did not start: ${stderr}`);
  });
  const listening = once(lines, "line").then(([line]) => {
    const url = /^course serve: (http\S+)/.exec(line)?.[1];
    if (!url) throw new Error(`course serve printed ${JSON.stringify(line)}`);
    return url;
  });
  const timer = setTimeout(() => server.kill("SIGKILL"), SECONDS * 1000);
  try {
    return { server, url: await Promise.race([listening, exited]) };
  } finally {
    clearTimeout(timer);
    exited.catch(() => {}); // it exits when stopped, later
  }
}

// SIGTERM is what stops a background `course serve` (status 143, as asked).
async function stop(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, "exit");
  server.kill("SIGTERM");
  await exited;
}

// One streamed call; the key is only ever sent, never printed.
async function ask(baseURL) {
  const client = new Anthropic({
    baseURL,
    apiKey: process.env.ANTHROPIC_API_KEY ?? "replaying-needs-no-key",
    maxRetries: 0,
    timeout: SECONDS * 1000,
  });
  const stream = client.messages.stream({
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    messages: [{ role: "user", content: [{ type: "text", text: "What is 20 + 22?" }] }],
  });
  return await stream.finalText();
}

async function through(...args) {
  const { server, url } = await serve(...args);
  try {
    return await ask(url);
  } finally {
    await stop(server);
  }
}

const recorded = await through(cassette, "--record", "--upstream", upstream);
console.log(recorded);
const replayed = await through(cassette);
console.log(replayed);
if (replayed !== recorded) {
  console.error(`the replay read ${JSON.stringify(replayed)}, not ${JSON.stringify(recorded)}`);
  process.exit(1);
}
