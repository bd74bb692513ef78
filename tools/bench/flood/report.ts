/**
 * A flood run's figures and its goals, "met" or "NOT met" from the measured numbers: reporting,
 * not asserting (the bench exits 0 whatever they say).
 */
import { DIRECT_AT_ONCE, DIRECT_FROM, attackerAddresses, type AttackResult } from "./attack";
import { caseName, type FloodOptions } from "./options";
import { type StaffMail, type StoredRequest, type WaitOutcome } from "./staff";
import type { RealSubmission } from "./visitors";

export interface Run {
  options: FloodOptions;
  /** Date.now() when the load started. */
  startedAt: number;
  mail: StaffMail;
  outcome: WaitOutcome;
  attackerKeys: Set<string>;
  attack: AttackResult | undefined;
  real: RealSubmission[];
}

const f = (n: number): string => Math.round(n).toLocaleString("en-US");
export const line = (label: string, value: string): void =>
  console.log(`  ${`${label}:`.padEnd(42)} ${value}`);
export const goal = (text: string, met: boolean, why: string): void =>
  console.log(`  GOAL ${text}: ${met ? "met" : "NOT met"} (${why})`);

const attackerRows = (run: Run): StoredRequest[] =>
  run.outcome.requests.filter((row) => row.clientKey && run.attackerKeys.has(row.clientKey));

/** Staff e-mails caused by the attack: one by one to an attacker's address, and digests listing one. */
function attackMail(run: Run): { singles: number; digests: number; total: number } {
  const emails = new Set(attackerRows(run).map((row) => row.email));
  const singles = run.mail.singles.filter((single) => emails.has(single.email)).length;
  const digests = run.mail.digests.filter((d) => d.listed.some((e) => emails.has(e))).length;
  return { singles, digests, total: singles + digests };
}

/** How the wait for staff ended. */
function printWait(run: Run): void {
  const { outcome, options } = run;
  const { requests, waiting, unlisted } = outcome;
  const how =
    waiting.length === 0
      ? "every stored request had reached staff or been in a digest already sent"
      : `the deadline (${options.waitMinutes} min after the last submission) came`;
  console.log(
    `Wait: ended at +${Math.round((outcome.endedAt - run.startedAt) / 1000)} s, when ${how}; ${requests.length - waiting.length - unlisted.length}/${requests.length} stored requests reached staff, ${waiting.length} still waiting, ${unlisted.length} in a digest without being listed.`,
  );
}

/** The attacker's rows and the staff e-mails it caused, with their goals. */
function printAttackOutcome(run: Run, mailGoal: number, rowsGoal?: number): void {
  const rows = attackerRows(run);
  const mails = attackMail(run);
  line("rows stored from the attacker", f(rows.length));
  line(
    "staff e-mails caused by the attack",
    `${mails.total}  (${mails.singles} one by one, ${mails.digests} digest${mails.digests === 1 ? "" : "s"} listing attacker requests)`,
  );
  if (rowsGoal !== undefined)
    goal(`≤ ${rowsGoal} rows stored from the attacker`, rows.length <= rowsGoal, `${rows.length}`);
  goal(
    `≤ ${mailGoal} staff e-mails caused by the attack, digests included`,
    mails.total <= mailGoal,
    `${mails.total}`,
  );
}

function printDirect(run: Run, { tally, seconds }: AttackResult): void {
  const accepted = tally["insert 201"] ?? 0;
  const inserts = Object.entries(tally).filter(([name]) => name.startsWith("insert "));
  const sent = inserts.reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `Attacker (${caseName(run.options)}): ${sent} direct POSTs from ${DIRECT_FROM} in ${seconds.toFixed(1)} s (${DIRECT_AT_ONCE} at a time, spoofed X-Forwarded-For/CF-Connecting-IP/X-Real-IP)`,
  );
  line("accepted (201)", `${accepted}`);
  line("refused", `${sent - accepted}`);
  printAttackOutcome(run, 10);
}

function printSolving(run: Run, { tally, seconds, threads }: AttackResult): void {
  const n = (name: string) => tally[name] ?? 0;
  const addresses = attackerAddresses(run.options.addresses);
  const where =
    addresses.length === 1 ? addresses[0] : `${addresses[0]}–${addresses.at(-1)!.split(".").pop()}`;
  console.log(
    `Attacker (${caseName(run.options)}): ${seconds.toFixed(1)} s from ${where}, ${threads} threads (one per core)`,
  );
  line(
    "inserts",
    `201 × ${n("insert 201")}, 429 × ${n("insert 429")}; with a proof ${n("with proof")}, with a pending ticket ${n("pending")}`,
  );
  printAttackOutcome(
    run,
    addresses.length === 1 ? 20 : 40,
    addresses.length === 1 ? 150 : undefined,
  );
}

/** What the attack did; the real visitors' block is visitor-goals.ts. */
export function printLoad(run: Run): void {
  const { options, attack } = run;
  const addresses = options.mode === "solving" ? ` --addresses ${options.addresses}` : "";
  console.log(`\n=== bench:flood --mode ${options.mode}${addresses} (${caseName(options)}) ===`);
  printWait(run);
  if (attack && options.mode === "direct") printDirect(run, attack);
  if (attack && options.mode === "solving") printSolving(run, attack);
  if (!attack)
    line(
      "staff e-mails in all",
      `${run.mail.singles.length + run.mail.digests.length} (${run.mail.singles.length} one by one, ${run.mail.digests.length} digests)`,
    );
}
