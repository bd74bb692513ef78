/**
 * `npm run bench:notify`: a burst of meeting requests through the local backend with staff
 * notifications on, as `npm start` runs them (the Edge Function under Deno, the mail catcher).
 *
 *   200 submissions from 20 clients at once (supabase-js, as the site sends them, each with the
 *   page's proof: a challenge solved before the burst, as the page's worker has it ready at the
 *   tap), then waits until every e-mail has arrived and a few retry sweeps more. The screening's
 *   budgets are lifted: every submission comes from 127.0.0.1, and this measures the one-by-one
 *   path, not the caps (bench:flood does).
 *
 * Prints rows stored, e-mails caught, duplicates and requests without an e-mail, the time until
 * the last e-mail arrived, and insert latency with notifications on and off (the submission
 * must not wait for the notification). Exits 1 if a count is wrong. Loopback only, in memory.
 */
import { performance } from "node:perf_hooks";

import { createClient } from "@supabase/supabase-js";

import { startLocalBackend, type LocalBackend } from "../../local-backend/server";
import { LIFTED_SCREENING, pageProofOverHttp } from "../../local-backend/test-support/helpers";
import { FORM_PROOF_HEADER } from "../../src/lib/form-proof-header";
import { contactsInsertRequest } from "../../src/lib/submit-meeting-request";

const SUBMISSIONS = 200;
const CLIENTS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[
    Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** One solved page proof per submission (a proof counts once), fetched and solved before the burst. */
async function pageProofs(backend: LocalBackend): Promise<string[]> {
  const proofs: string[] = [];
  for (let index = 0; index < SUBMISSIONS; index += 1)
    proofs.push(await pageProofOverHttp(backend.url, backend.anonKey));
  return proofs;
}

async function burst(
  backend: LocalBackend,
  tag: string,
): Promise<{ latencies: number[]; startedAt: number; doneAt: number }> {
  const proofs = await pageProofs(backend);
  const latencies: number[] = [];
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const supabase = createClient(backend.url, backend.anonKey, {
        auth: { persistSession: false },
      });
      for (;;) {
        const index = next++;
        if (index >= SUBMISSIONS) return;
        const started = performance.now();
        const row = {
          name: `Visitor ${index}`,
          email: `${tag}-${index}@example.org`,
          organization: `Client ${client} Transit`,
          message: `Phone: Not provided\nFleet Size: ${index} vehicles\nChallenges/Questions: burst ${tag}`,
        };
        const { error } = await contactsInsertRequest(supabase, row, AbortSignal.timeout(60_000), {
          [FORM_PROOF_HEADER]: proofs[index]!,
        });
        if (error) throw new Error(`insert ${index} failed: ${error.code ?? ""} ${error.message}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { latencies, startedAt, doneAt: performance.now() };
}

function latencyLine(label: string, latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${label.padEnd(28)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms  max ${sorted[sorted.length - 1]!.toFixed(1).padStart(6)} ms`;
}

async function main(): Promise<number> {
  const screening = { ...LIFTED_SCREENING };
  const plain = await startLocalBackend({ port: 0, screening });
  const without = await burst(plain, "plain");
  await plain.close();

  const backend = await startLocalBackend({
    port: 0,
    screening,
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 1_000 },
  });
  try {
    const catcher = backend.notifier!.catcher!;
    const withNotifications = await burst(backend, "notify");
    await catcher.waitFor(SUBMISSIONS, 120_000);
    const lastArrival = performance.now();
    await backend.notifier!.idle();
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // three more retry sweeps: nothing may follow

    const rows = await backend.db.query<{ n: number; delivered: number; verified: number }>(
      `select count(*)::int as n, count(*) filter (where n.status = 'delivered')::int as delivered,
              count(*) filter (where s.verdict = 'page-verified')::int as verified
         from public.contacts c join public.contact_notifications n on n.contact_id = c.id
         left join public.contact_screening s on s.contact_id = c.id`,
    );
    const perRequest = new Map<string, number>();
    for (const mail of catcher.messages) {
      const id = /meeting-request-(\d+)-/.exec(mail.headers.get("message-id") ?? "")?.[1] ?? "?";
      perRequest.set(id, (perRequest.get(id) ?? 0) + 1);
    }
    const duplicates = [...perRequest.values()].filter((count) => count > 1).length;
    const stored = rows.rows[0]!.n;
    const missing = stored - perRequest.size;

    console.log(
      `${SUBMISSIONS} submissions from ${CLIENTS} clients, staff notifications on (Deno function + mail catcher)`,
    );
    console.log(`  rows stored:              ${stored}`);
    console.log(`  page-verified:            ${rows.rows[0]!.verified}`);
    console.log(`  marked delivered:         ${rows.rows[0]!.delivered}`);
    console.log(`  e-mails caught:           ${catcher.messages.length}`);
    console.log(`  requests with 2+ e-mails: ${duplicates}`);
    console.log(`  requests without e-mail:  ${missing}`);
    console.log(
      `  all submissions answered: ${(withNotifications.doneAt - withNotifications.startedAt).toFixed(0)} ms after the first`,
    );
    console.log(
      `  last e-mail arrived:      ${(lastArrival - withNotifications.startedAt).toFixed(0)} ms after the first submission`,
    );
    console.log(latencyLine("  insert, notifications off", without.latencies));
    console.log(latencyLine("  insert, notifications on", withNotifications.latencies));
    const ok =
      stored === SUBMISSIONS &&
      rows.rows[0]!.verified === SUBMISSIONS &&
      catcher.messages.length === SUBMISSIONS &&
      duplicates === 0 &&
      missing === 0;
    if (!ok) console.error("Counts are wrong: see above.");
    return ok ? 0 : 1;
  } finally {
    await backend.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
