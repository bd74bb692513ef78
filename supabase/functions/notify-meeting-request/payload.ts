/**
 * Everything the function reads, checked before anything is sent: the call (the Database
 * Webhook's INSERT, the jobs' SWEEP, DIGEST and REPORT) and the claim functions' rows. Pure.
 */
import { z } from "zod";

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const timestamp = z
  .string({ error: "must be a timestamp" })
  .pipe(z.coerce.date({ error: "must be a timestamp" }));

/** The database's own limits (contacts CHECK constraints), in characters, not UTF-16 units. */
const text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .refine((value) => value.trim() !== "", "is empty")
    .refine((value) => [...value].length <= max, `is longer than ${max} characters`);

/** A contacts row, as the webhook's `record` or a claim's row. */
const meetingRequest = z.object(
  {
    id: z.int({ error: "must be a positive integer" }).min(1, "must be a positive integer"),
    created_at: timestamp,
    name: text(200),
    organization: text(200),
    message: text(6000),
    // The database's shape rule: one @, a dot after it, no whitespace (so no header injection).
    email: text(254).regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/u, "is not an e-mail address"),
  },
  { error: "must be an object" },
);
export type MeetingRequest = z.infer<typeof meetingRequest>;

const claimedRequest = meetingRequest.extend({ lease_token: z.string(), attempt: z.int() });
export type ClaimedRequest = z.infer<typeof claimedRequest>;

/** Tags, domains and ids as the database stores them (nothing else can be in a report). */
const tag = z.string().regex(/^[a-z0-9._-]{0,253}$/, "is not a tag the database stores");
const count = z.int({ error: "must be a count" }).min(0, "must be a count");
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)");
const list = <T extends z.ZodType>(item: T) => z.array(item, { error: "must be an array" });
const funnel = {
  views: count,
  ctaTaps: count,
  formStarts: count,
  requests: count,
  failures: count,
  /** Booked, not cancelled, counted on the day their request came in (public.meetings). */
  meetings: count,
};

/** public.site_analytics_report(from, to): what `npm run report -- --json` prints too. */
const siteReport = z.object(
  {
    from: date,
    to: date,
    totals: z.object(funnel, { error: "must be an object" }),
    campaigns: list(z.object({ ...funnel, source: tag, medium: tag, campaign: tag })),
    referrers: list(z.object({ domain: tag, views: count })),
    ctas: list(z.object({ id: tag, taps: count })),
    days: list(z.object({ ...funnel, date })),
  },
  { error: "must be an object" },
);
export type SiteReport = z.infer<typeof siteReport>;
export type Funnel = SiteReport["totals"];

/** weekly and daily come from pg_cron; range from `npm run report -- --mail`. */
const reportCall = z
  .object({
    kind: z.enum(["weekly", "daily", "range"], { error: 'must be "weekly", "daily" or "range"' }),
    report: siteReport,
  })
  .transform(({ kind, report }) => ({ kind: "report" as const, period: kind, report }));
export type ReportCall = z.infer<typeof reportCall>;

const insertCall = z
  .object({ record: meetingRequest })
  .transform(({ record }) => ({ kind: "insert" as const, request: record }));

export type NotifyCall =
  z.infer<typeof insertCall> | { kind: "sweep" } | { kind: "digest" } | ReportCall;

/** A request listed in a digest (the first 400 characters of its message). */
const heldRequest = z.object({
  id: z.number(),
  created_at: timestamp,
  name: z.string().catch(""),
  organization: z.string().catch(""),
  email: z.string().catch(""),
  message: z.string().catch(""),
  truncated: z.boolean().catch(false),
  held_for: z.array(z.string()).catch([]),
  /** Content signals: they order the list, they never hold a page-proved request. */
  signals: z.array(z.string()).catch([]),
  /** Requests from the same network address in the window before this one. */
  same_address: z.number().catch(0),
  copies: z.number().catch(1),
});
export type HeldRequest = z.infer<typeof heldRequest>;

/** A row of public.claim_contact_digest: the counts, and the first requests, likeliest real first. */
const heldDigest = z.object({
  digest_id: z.number(),
  lease_token: z.string(),
  attempt: z.number(),
  request_count: z.number(),
  first_at: timestamp,
  last_at: timestamp,
  client_count: z.number(),
  /** The least time between two digests (private.screening_settings). */
  interval_seconds: z.number(),
  /** Why requests were held → how many (a request can have several reasons). */
  reasons: z.record(z.string(), z.number()).catch({}),
  requests: z.array(heldRequest).catch([]),
});
export type HeldDigest = z.infer<typeof heldDigest>;

/** The schema's first complaint as one sentence, e.g. `record.id must be a positive integer`. */
function check<T>(schema: z.ZodType<T>, value: unknown): Parsed<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  const where = issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`));
  return { ok: false, problem: `${where.join("").replace(/^\./, "")} ${issue.message}`.trim() };
}

export function parseNotifyCall(body: unknown): Parsed<NotifyCall> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, problem: "the body must be a JSON object" };
  const { type, schema, table } = body as Record<string, unknown>;
  if (type === "SWEEP" || type === "DIGEST")
    return { ok: true, value: { kind: type === "SWEEP" ? "sweep" : "digest" } };
  if (type === "REPORT") return check(reportCall, body);
  if (type !== "INSERT") {
    const problem = `type must be "INSERT" (a Database Webhook), "SWEEP", "DIGEST" or "REPORT", not ${JSON.stringify(type ?? null)}`;
    return { ok: false, problem };
  }
  if (schema !== "public" || table !== "contacts") {
    const problem = `the webhook must be on public.contacts, not ${String(schema)}.${String(table)}`;
    return { ok: false, problem };
  }
  return check(insertCall, body);
}

function rows<T>(schema: z.ZodType<T>, value: unknown, what: string): T[] {
  const parsed = check(z.array(schema), value);
  if (!parsed.ok) throw new Error(`${what} answered with an unexpected row (${parsed.problem})`);
  return parsed.value;
}

export const claimedRequests = (value: unknown): ClaimedRequest[] =>
  rows(claimedRequest, value, "the claim");

export const heldDigests = (value: unknown): HeldDigest[] =>
  rows(heldDigest, value, "the digest claim");
