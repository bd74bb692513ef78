/**
 * `npm run bench:booking`: from the staff tap on "Book" to the invitation accepted by the local
 * mail server (goal ≤ 5 s). The local backend runs in memory with its mail catcher and both Edge
 * Functions, as `npm start` runs them; /book/schedule.json is the built site's, else the tests'.
 * Each run: a request, the link from the staff e-mail in the catcher, "view", then the timed
 * "book" until the catcher has the invitation. Exit 1 when a run failed or the slowest is over.
 *
 *   npm run bench:booking [-- --runs N (default 10)]
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";

import { startLocalBackend } from "../../local-backend";
import { SCHEDULE } from "../../supabase/functions/book-meeting/test-support/fixtures.ts";
import { runCli, wholeNumberOption } from "../lib/cli";
import { median, spread } from "../lib/stats";
import { PUBLIC_DIR } from "../lib/test-build";
import { keyHeaders } from "./flood/attack";

const GOAL_MS = 5_000;

/** The site's schedule.json on a loopback port: the built one when there is one. */
async function scheduleSite(): Promise<{ url: string; source: string; close: () => void }> {
  const built = path.join(PUBLIC_DIR, "book", "schedule.json");
  const body = fs.existsSync(built) ? fs.readFileSync(built) : JSON.stringify(SCHEDULE);
  const server = http.createServer((req, res) => {
    const found = req.url === "/book/schedule.json";
    res.writeHead(found ? 200 : 404, { "Content-Type": "application/json" });
    res.end(found ? body : "{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const source = fs.existsSync(built) ? built : "the tests' fixture (no built site)";
  return { url: `http://127.0.0.1:${port}`, source, close: () => server.close() };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string" } } });
  const runs = wholeNumberOption(values.runs, "runs", 10);
  const site = await scheduleSite();
  const backend = await startLocalBackend({
    port: 0,
    notifications: { catcher: { port: 0 }, functionEnv: { SITE_URL: site.url } },
  });
  const catcher = backend.notifier!.catcher!;
  const fn = `${backend.url}/functions/v1/book-meeting`;
  const call = async (body: object) => {
    const response = await fetch(fn, {
      method: "POST",
      headers: { ...keyHeaders(backend.anonKey), Origin: site.url },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { message?: string; slots?: { startsAt: string }[] };
    return { status: response.status, ...answer };
  };
  console.log(`bench:booking: ${runs} runs; schedule from ${site.source}`);
  const taps: number[] = [];
  let failed = 0;
  try {
    for (let run = 1; run <= runs; run += 1) {
      const caught = catcher.messages.length;
      const insert = await fetch(`${backend.url}/rest/v1/contacts`, {
        method: "POST",
        headers: keyHeaders(backend.serviceKey),
        body: JSON.stringify({
          name: `Bench Visitor ${run}`,
          email: `bench-${run}-${Date.now()}@example.org`,
          organization: "Bench Transit",
          message: "Phone: Not provided\nPreferred Meeting Time: Day 2 Morning",
        }),
      });
      if (!insert.ok) throw new Error(`the insert answered HTTP ${insert.status}`);
      const staff = (await catcher.waitFor(caught + 1))[caught]!;
      const token = /\/book\/#([A-Za-z0-9_-]{43})/.exec(staff.body)?.[1];
      if (!token) throw new Error("the staff e-mail has no booking link");
      const view = await call({ token, action: "view" });
      const slot = view.slots?.[0];
      if (!slot) throw new Error(`"view" gave no free time: ${JSON.stringify(view)}`);
      const start = performance.now();
      const booked = await call({ token, action: "book", startsAt: slot.startsAt });
      const [invitation] = await catcher.waitFor(caught + 2, 30_000).then((all) => all.slice(-1));
      const accepted = performance.now() - start;
      const ok = booked.status === 200 && /^Invitation:/.test(invitation!.headers.get("subject")!);
      if (!ok) failed += 1;
      taps.push(accepted);
      const failure = ok ? "" : ` FAILED: ${String(booked.message)}`;
      console.log(`  run ${run}: tap → invitation accepted ${accepted.toFixed(0)} ms${failure}`);
    }
  } finally {
    await backend.close();
    site.close();
  }
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(`tap → invitation accepted: median ${ms(median(taps))} (${spread(taps, ms)})`);
  const slowest = Math.max(...taps);
  console.log(
    `goal: the slowest tap → invitation ≤ ${ms(GOAL_MS)}: ${slowest <= GOAL_MS && failed === 0 ? "met" : "NOT met"}${failed ? ` (${failed} runs failed)` : ""}`,
  );
  return slowest <= GOAL_MS && failed === 0 ? 0 : 1;
}

runCli(main);
