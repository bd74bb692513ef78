/**
 * What the functions' tests share: readMail (two parsers nobody here wrote), a request, a
 * digest's row and a report as the database gives them, an in-memory store that follows the
 * SQL's rules, and the handler wired to it and an SMTP receiver (servers.ts).
 */
import assert from "node:assert/strict";

import PostalMime from "postal-mime";

import { bookingLinks } from "../booking-links.ts";
import { loadConfig } from "../config.ts";
import type { DeliveryStore, Outcome } from "../delivery-store.ts";
import { createHandler, SECRET_HEADER } from "../handler.ts";
import type { Funnel, HeldDigest, MeetingRequest, SiteReport } from "../payload.ts";
import { startReceiver } from "./servers.ts";

const PYTHON_READER = `
import email, email.policy, json, sys
message = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
headers, addresses, defects = {}, {}, [str(defect) for defect in message.defects]
for name, value in message.items():
    headers[name.lower()] = str(value)
    defects += [f"{name}: {defect}" for defect in value.defects]
    if hasattr(value, "addresses"):
        addresses[name.lower()] = [[a.display_name, a.addr_spec] for a in value.addresses]
body = message.get_body(("plain",))
print(json.dumps({"headers": headers, "addresses": addresses, "defects": defects,
                  "text": body.get_content().replace("\\r\\n", "\\n") if body else None}))
`;

/**
 * The message as postal-mime and Python's email package (policy.default) decode it: they must
 * agree on the subject, addresses and text, and Python find no defect. Addresses: [name, address].
 */
export async function readMail(raw: Uint8Array) {
  const child = new Deno.Command("python3", {
    args: ["-c", PYTHON_READER],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  await ReadableStream.from([raw]).pipeTo(child.stdin);
  const parsed = JSON.parse(new TextDecoder().decode((await child.output()).stdout)) as {
    headers: Record<string, string>;
    addresses: Record<string, [string, string][]>;
    defects: string[];
    text: string | null;
  };
  const postal = await PostalMime.parse(raw);
  assert.deepEqual(parsed.defects, []);
  assert.equal(postal.subject, parsed.headers.subject);
  const pairs = (list?: { name: string; address?: string }[]) =>
    list?.map(({ name, address }) => [name, address]);
  assert.deepEqual(pairs(postal.replyTo), parsed.addresses["reply-to"]);
  assert.deepEqual(pairs(postal.to), parsed.addresses.to);
  const text = postal.text?.replace(/\r\n/g, "\n");
  assert.equal(text?.trimEnd(), parsed.text?.trimEnd()); // postal-mime keeps the CRLF before a boundary
  return { ...parsed, text, html: postal.html, raw: new TextDecoder().decode(raw) };
}

export const SECRET = "s".repeat(40);

export const ADDRESSING = {
  from: { name: "Expo website", address: "noreply@example-transit.com" },
  to: [
    { name: "Sales", address: "sales@example-transit.com" },
    { address: "ops@example-transit.com" },
  ],
};

export function meetingRequest(id = 42, fields: Partial<MeetingRequest> = {}): MeetingRequest {
  return {
    id,
    created_at: new Date("2026-11-23T17:05:01.123Z"),
    name: "Ada Lovelace",
    email: "ada@example.org",
    organization: "Metro Transit Authority",
    message: [
      "Phone: +1 555 0100",
      "Fleet Size: 40 vehicles",
      "Products of Interest: MobilityDR (Microtransit Platform), OptiRun (Scheduling Optimization)",
      "Preferred Meeting Time: Day 2 - Morning",
      "Challenges/Questions: None provided",
    ].join("\n"),
    ...fields,
  };
}

/** What a Database Webhook posts for the request's insert. */
export function webhookBody(request: MeetingRequest) {
  const record = { ...request, created_at: request.created_at.toISOString() };
  return { type: "INSERT", table: "contacts", schema: "public", record, old_record: null };
}

/** A funnel's counts in this order, 0 where not given. */
const FUNNEL = ["views", "ctaTaps", "formStarts", "requests", "failures", "meetings"] as const;
const funnel = (...counts: number[]) =>
  Object.fromEntries(FUNNEL.map((key, index) => [key, counts[index] ?? 0])) as Funnel;

/** A week's site report. */
export const REPORT: SiteReport = {
  from: "2026-11-16",
  to: "2026-11-22",
  totals: funnel(200, 40, 20, 5, 1, 2),
  campaigns: [
    { source: "flyer", medium: "qr", campaign: "", ...funnel(120, 30, 15, 4, 0, 2) },
    { source: "", medium: "", campaign: "", ...funnel(60, 8, 4, 1, 1) },
    { source: "linkedin", medium: "social", campaign: "expo-2025", ...funnel(20, 2, 1, 0) },
  ],
  referrers: [
    { domain: "linkedin.com", views: 18 },
    { domain: "mail.google.com", views: 3 },
  ],
  ctas: [
    { id: "hero", taps: 25 },
    { id: "offering-2", taps: 15 },
  ],
  days: ["16", "17", "18", "19", "20", "21", "22"].map((day, index) => ({
    date: `2026-11-${day}`,
    ...funnel(index === 3 ? 100 : 10 * index, 0, 0, index === 3 ? 3 : 0),
  })),
};

/** 14 held requests from 5 addresses; the first 3 listed, the likeliest real first. */
export const DIGEST_ROW = {
  digest_id: 4,
  lease_token: "6f1c1f7e-2f4d-4b4c-9a8e-1d2c3b4a5f60",
  attempt: 1,
  request_count: 14,
  first_at: "2026-11-24T23:02:05.123456+00:00",
  last_at: "2026-11-24T23:19:40+00:00",
  client_count: 5,
  interval_seconds: 900,
  reasons: { "no page proof": 12, "over the address budget": 1, "page proof never confirmed": 1 },
  requests: [
    {
      id: 31,
      created_at: "2026-11-24T23:10:00+00:00",
      name: "Dana Whitfield",
      organization: "Valley Regional Transit",
      email: "dana@vrt.example",
      message: "Phone: Not provided\nChallenges/Questions: We run 40 paratransit vans.",
      truncated: false,
      held_for: ["over the address budget"],
      signals: [],
      same_address: 23,
      copies: 1,
    },
    {
      id: 30,
      created_at: "2026-11-24T23:19:40+00:00",
      name: "Ann Lee",
      organization: "Metro",
      email: "ann@metro.example",
      message: "x".repeat(400),
      truncated: true,
      held_for: ["page proof never confirmed"],
      signals: [],
      same_address: 0,
      copies: 1,
    },
    {
      id: 12,
      created_at: "2026-11-24T23:02:05+00:00",
      name: "John Smith",
      organization: "Digital Agency",
      email: "promo0@spam-sender.example",
      message: "Boost your website traffic!\nVisit https://seo.example and http://links.example",
      truncated: false,
      held_for: ["no page proof"],
      signals: ["links", "repeated-text"],
      same_address: 11,
      copies: 12,
    },
  ],
};

/**
 * The claim and finish rules of the SQL functions, in memory: a request or the digest is handed
 * out under a lease, a delivered one never again, a failed one when its back-off is over on the
 * store's clock (`advance`). In SQL: supabase/tests/notifications.test.ts, digest.test.ts.
 */
export function memoryStore(requests: MeetingRequest[], digest?: HeldDigest) {
  let clock = 0;
  type Entry = {
    status: string;
    attempts: number;
    lease?: string;
    dueAt: number;
    outcomes: Outcome[];
  };
  const entry = (status = "pending"): Entry => ({ status, attempts: 0, dueAt: 0, outcomes: [] });
  const rows = new Map(requests.map((request) => [request.id, { request, ...entry() }]));
  const held = entry(digest ? "pending" : "sent");
  const due = (row: Entry) => row.status === "pending" && !row.lease && row.dueAt <= clock;
  const lease = (row: Entry) => {
    row.lease = crypto.randomUUID();
    row.attempts += 1;
    return { lease_token: row.lease, attempt: row.attempts };
  };
  const claimRow = (row: Entry & { request: MeetingRequest }) => ({
    ...row.request,
    ...lease(row),
  });
  const finish = (row: Entry | undefined, token: string, outcome: Outcome) => {
    if (!row || row.lease !== token) return Promise.resolve(false);
    row.lease = undefined;
    row.outcomes.push(outcome);
    if (outcome.failure === undefined) row.status = "delivered";
    else row.dueAt = clock + (outcome.retryInSeconds ?? 60);
    return Promise.resolve(true);
  };
  const store: DeliveryStore = {
    claim: (id) => {
      const row = rows.get(id);
      return Promise.resolve(row && due(row) ? claimRow(row) : undefined);
    },
    claimDue: (max) => Promise.resolve([...rows.values()].filter(due).slice(0, max).map(claimRow)),
    finish: (id, token, outcome) => finish(rows.get(id), token, outcome),
    claimDigest: () =>
      Promise.resolve(digest && due(held) ? { ...digest, ...lease(held) } : undefined),
    finishDigest: (_id, token, outcome) => finish(held, token, outcome),
  };
  const advance = (seconds: number) => (clock += seconds);
  return { ...store, rows, digest: held, advance };
}

/** A store whose database is out of reach: every method rejects. */
const notReached = () => Promise.reject(new Error("database API not reached"));
export const unreachable = new Proxy({}, { get: () => notReached }) as DeliveryStore;

/** The handler on `store`, a fresh SMTP receiver, these settings and `env`; links via `bookingRpc`. */
export async function startFunction(
  store: DeliveryStore,
  env: Record<string, string> = {},
  bookingRpc?: (name: string, args: Record<string, unknown>) => Promise<unknown>,
) {
  const smtp = await startReceiver();
  const variables: Record<string, string> = {
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_EMAIL_TO: "sales@example-transit.com, ops@example-transit.com",
    NOTIFY_REPORT_TO: "Marketing <marketing@example-transit.com>, ceo@example-transit.com",
    NOTIFY_EMAIL_FROM: "noreply@example-transit.com",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    SUPABASE_URL: "http://unused",
    SUPABASE_SERVICE_ROLE_KEY: "unused",
    ...env,
  };
  const loaded = loadConfig((name) => variables[name]);
  assert.ok(loaded.ok, loaded.ok ? "" : loaded.problems.join("; "));
  const { config } = loaded;
  const links = config.siteUrl && bookingRpc && bookingLinks(config.siteUrl, bookingRpc);
  const handler = createHandler({ config, store, bookingLinks: links || undefined, log: () => {} });
  const post = (body: unknown, secret: string | null = SECRET, method = "POST") => {
    const headers = new Headers(secret === null ? {} : { [SECRET_HEADER]: secret });
    const init = { method, headers, body: method === "POST" ? JSON.stringify(body) : undefined };
    return handler(new Request("http://function.local/", init));
  };
  return {
    smtp,
    post,
    /** The call's JSON answer (a SWEEP unless `body` is given). */
    call: async (body: unknown = { type: "SWEEP" }) => await (await post(body)).json(),
    mails: () => Promise.all(smtp.received.map((mail) => readMail(mail.raw))),
    [Symbol.asyncDispose]: () => smtp[Symbol.asyncDispose](),
  };
}
