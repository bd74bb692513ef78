/**
 * `npm run bench:booking [-- --runs N]`: from the staff tap on "Book" to the invitation accepted
 * by the mail catcher of an in-memory local backend (goal ≤ 5 s; the schedule is the tests'
 * fixture). Each run sends a request and views it from the staff e-mail's link, then times "book".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";

import { startLocalBackend } from "../../local-backend";
import { SCHEDULE } from "../../supabase/functions/book-meeting/test-support/fixtures.ts";
import { runCli, wholeNumberOption } from "../lib/cli";
import { median, spread } from "../lib/stats";
import { keyHeaders } from "./flood/attack";

const GOAL_MS = 5_000;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string" } } });
  const runs = wholeNumberOption(values.runs, "runs", 10);
  const site = http.createServer((_request, response) => response.end(JSON.stringify(SCHEDULE)));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const backend = await startLocalBackend({
    port: 0,
    notifications: { catcher: { port: 0 }, functionEnv: { SITE_URL: siteUrl } },
  });
  const catcher = backend.notifier!.catcher!;
  const fn = `${backend.url}/functions/v1/book-meeting`;
  const call = async (body: object) => {
    const response = await fetch(fn, {
      method: "POST",
      headers: { ...keyHeaders(backend.anonKey), Origin: siteUrl },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { message?: string; slots?: { startsAt: string }[] };
    return { status: response.status, ...answer };
  };
  console.log(`bench:booking: ${runs} runs`);
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
  const met = Math.max(...taps) <= GOAL_MS && failed === 0;
  const failures = failed ? ` (${failed} runs failed)` : "";
  console.log(
    `goal: the slowest tap → invitation ≤ ${ms(GOAL_MS)}: ${met ? "met" : "NOT met"}${failures}`,
  );
  return met ? 0 : 1;
}

runCli(main);
