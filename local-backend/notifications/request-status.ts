/**
 * Whether staff were told about a stored request, and how it was screened, as `npm run
 * requests` shows it: read with the requests (database.ts joins public.contact_notifications,
 * contact_digests and contact_screening) and printed as one line each.
 */
const STATUSES = ["pending", "delivered", "skipped", "held", "digest", "digested"] as const;

export interface StaffNotification {
  /** held: waiting for the page's proof; digest: suspect, for the next digest; digested: counted in a sent digest. */
  status: (typeof STATUSES)[number];
  /** ISO time in UTC when delivered, else null. */
  notified_at: string | null;
  attempts: number;
  last_error: string | null;
  /** ISO time in UTC of the next attempt while pending (held: the end of the wait), else null. */
  next_attempt_at: string | null;
  /** ISO time in UTC when the digest that counted it was sent. */
  digest_sent_at?: string | null;
  /** held, digest, digested: why it is not e-mailed one by one (meeting_requests_overview.held_for). */
  held_for?: string[];
  /** The digest that lists it, and its place there (the likeliest real first). */
  digest?: number | null;
  digest_rank?: number | null;
}

/** How the screening judged a visitor's request (20261124110000_request_screening.sql, 20261126110000_one_by_one_budgets.sql). */
export interface RequestScreening {
  verdict: "page-verified" | "awaiting-proof" | "suspect";
  /** verified, pending, confirmed, invalid or missing. */
  proof: string;
  signals: string[];
  /** Page-proved requests: one-by-one, or over which budget. */
  budget?: string | null;
}

/** The columns readRequests selects (from contact_notifications as n), and how a row maps back. */
export const NOTIFICATION_COLUMNS_SQL = `n.status as notification_status,
            to_char(n.notified_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as notified_at,
            n.attempts as notification_attempts,
            n.last_error as notification_error,
            to_char(n.next_attempt_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as next_attempt_at,
            to_char(d.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as digest_sent_at,
            s.verdict as screening_verdict, s.proof as screening_proof, s.signals as screening_signals,
            s.budget as screening_budget, o.held_for, o.digest, o.digest_rank::int as digest_rank`;

/** The joins those columns need, after `from public.contacts c`. */
export const NOTIFICATION_JOINS_SQL = `left join public.contact_notifications n on n.contact_id = c.id
       left join public.contact_digests d on d.id = n.digest_id
       left join public.contact_screening s on s.contact_id = c.id
       left join public.meeting_requests_overview o on o.id = c.id`;

export interface NotificationColumns {
  notification_status: string | null;
  notified_at: string | null;
  notification_attempts: number | null;
  notification_error: string | null;
  next_attempt_at: string | null;
  digest_sent_at?: string | null;
  screening_verdict?: string | null;
  screening_proof?: string | null;
  screening_signals?: string[] | null;
  screening_budget?: string | null;
  held_for?: string[] | null;
  digest?: number | null;
  digest_rank?: number | null;
}

export function screeningFrom(row: NotificationColumns): RequestScreening | null {
  const verdict = row.screening_verdict;
  if (verdict !== "page-verified" && verdict !== "awaiting-proof" && verdict !== "suspect")
    return null;
  return {
    verdict,
    proof: row.screening_proof ?? "",
    signals: row.screening_signals ?? [],
    budget: row.screening_budget ?? null,
  };
}

export function notificationFrom(row: NotificationColumns): StaffNotification | null {
  const status = STATUSES.find((known) => known === row.notification_status);
  if (!status) return null;
  return {
    status,
    notified_at: row.notified_at,
    attempts: row.notification_attempts ?? 0,
    last_error: row.notification_error,
    next_attempt_at: status === "pending" || status === "held" ? row.next_attempt_at : null,
    ...(status === "digested" ? { digest_sent_at: row.digest_sent_at ?? null } : {}),
    ...(status === "held" || status === "digest" || status === "digested"
      ? {
          held_for: row.held_for ?? [],
          digest: row.digest ?? null,
          digest_rank: row.digest_rank ?? null,
        }
      : {}),
  };
}

function minute(iso: string | null): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso ?? "");
  return match ? `${match[1]} ${match[2]} UTC` : String(iso);
}

/** e.g. "yes, 2026-11-23 17:05:02 UTC" or "NOT YET (3 attempts; last error: …; next attempt …)". */
export function describeNotification(
  notification: StaffNotification | null,
  visible: (text: string) => string,
): string {
  if (!notification) return "unknown (no delivery record)";
  if (notification.status === "delivered") {
    const note = notification.last_error ? ` (${visible(notification.last_error)})` : "";
    return `yes, ${minute(notification.notified_at)}${note}`;
  }
  if (notification.status === "skipped")
    return "no (stored before staff notifications were set up)";
  if (notification.status === "held")
    return `not yet: waiting for the page's proof until ${minute(notification.next_attempt_at)}, then the digest`;
  const why = notification.held_for?.length ? ` (${notification.held_for.join("; ")})` : "";
  const place = notification.digest ? ` #${notification.digest}` : "";
  if (notification.status === "digest")
    return `not one by one${why}: in the next digest${place ? `,${place}` : ""}`;
  if (notification.status === "digested")
    return `in digest${place}${why}, ${minute(notification.digest_sent_at ?? null)}`;
  const attempts =
    notification.attempts === 0
      ? "not tried yet"
      : `${notification.attempts} attempt${notification.attempts === 1 ? "" : "s"}`;
  const error = notification.last_error ? `; last error: ${visible(notification.last_error)}` : "";
  return `NOT YET (${attempts}${error}; next attempt ${minute(notification.next_attempt_at)})`;
}

const PROOF_WORDS: Record<string, string> = {
  missing: "no page proof",
  invalid: "invalid page proof",
  pending: "page proof not confirmed yet",
};

/** e.g. "page-verified" or "SUSPECT (no page proof; links)". */
export function describeScreening(screening: RequestScreening): string {
  if (screening.verdict === "page-verified")
    return screening.proof === "confirmed"
      ? "page-verified (confirmed after sending)"
      : "page-verified";
  const reasons = [
    ...(PROOF_WORDS[screening.proof] ? [PROOF_WORDS[screening.proof]!] : []),
    ...screening.signals,
  ];
  if (screening.verdict === "awaiting-proof")
    return "waiting for the page's proof (sent before it was ready)";
  return `SUSPECT (${reasons.join("; ")})`;
}
