/**
 * What the function accepts, checked before anything is sent: the Database Webhook body
 * Supabase posts on INSERT into public.contacts, the retry job's `{ "type": "SWEEP" }`, or the
 * digest job's `{ "type": "DIGEST" }` (digest.ts).
 * Pure: no I/O, testable without a network. The site-analytics report (`{ "type": "REPORT" }`)
 * is checked in report.ts.
 */
import { parseReportCall, type ReportCall } from "./report.ts";

/** A stored meeting request: the contacts row (see supabase/migrations). */
export interface MeetingRequest {
  id: number;
  /** As PostgreSQL writes timestamptz in JSON, e.g. 2026-11-23T17:05:01.123456+00:00. */
  createdAt: Date;
  name: string;
  email: string;
  organization: string;
  message: string;
}

export type NotifyCall =
  { kind: "insert"; request: MeetingRequest } | { kind: "sweep" } | { kind: "digest" } | ReportCall;

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The database's own limits (contacts CHECK constraints): anything longer did not come from it. */
const MAX_LENGTH = { name: 200, organization: 200, email: 254, message: 6000 } as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(record: Record<string, unknown>, field: keyof typeof MAX_LENGTH): Parsed<string> {
  const value = record[field];
  if (typeof value !== "string") return { ok: false, problem: `record.${field} must be a string` };
  if ([...value].length > MAX_LENGTH[field]) {
    return { ok: false, problem: `record.${field} is longer than ${MAX_LENGTH[field]} characters` };
  }
  if (value.trim() === "") return { ok: false, problem: `record.${field} is empty` };
  return { ok: true, value };
}

/** A contacts row as JSON (from the webhook's `record`, or from the claim functions). */
export function parseMeetingRequest(value: unknown): Parsed<MeetingRequest> {
  if (!isObject(value)) return { ok: false, problem: "record must be an object" };
  const id = value.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) {
    return { ok: false, problem: "record.id must be a positive integer" };
  }
  const createdAt = typeof value.created_at === "string" ? new Date(value.created_at) : undefined;
  if (!createdAt || Number.isNaN(createdAt.getTime())) {
    return { ok: false, problem: "record.created_at must be a timestamp" };
  }
  const name = text(value, "name");
  if (!name.ok) return name;
  const organization = text(value, "organization");
  if (!organization.ok) return organization;
  const message = text(value, "message");
  if (!message.ok) return message;
  const email = text(value, "email");
  if (!email.ok) return email;
  // The database's own shape rule: one @, a dot after it, no whitespace (so no header injection).
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/u.test(email.value)) {
    return { ok: false, problem: "record.email is not an e-mail address" };
  }
  return {
    ok: true,
    value: {
      id,
      createdAt,
      name: name.value,
      organization: organization.value,
      message: message.value,
      email: email.value,
    },
  };
}

/** The request body: a Database Webhook INSERT on public.contacts, or a retry sweep. */
export function parseNotifyCall(body: unknown): Parsed<NotifyCall> {
  if (!isObject(body)) return { ok: false, problem: "the body must be a JSON object" };
  if (body.type === "SWEEP") return { ok: true, value: { kind: "sweep" } };
  if (body.type === "DIGEST") return { ok: true, value: { kind: "digest" } };
  if (body.type === "REPORT") return parseReportCall(body);
  if (body.type !== "INSERT") {
    return {
      ok: false,
      problem: `type must be "INSERT" (a Database Webhook), "SWEEP", "DIGEST" or "REPORT", not ${JSON.stringify(body.type ?? null)}`,
    };
  }
  if (body.schema !== "public" || body.table !== "contacts") {
    return {
      ok: false,
      problem: `the webhook must be on public.contacts, not ${String(body.schema)}.${String(body.table)}`,
    };
  }
  const request = parseMeetingRequest(body.record);
  if (!request.ok) return request;
  return { ok: true, value: { kind: "insert", request: request.value } };
}
