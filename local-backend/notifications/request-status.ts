/**
 * Whether staff were told about a stored request, as `npm run requests` shows it: read with
 * the requests (database.ts joins public.contact_notifications) and printed as one line.
 */
export interface StaffNotification {
  status: "pending" | "delivered" | "skipped";
  /** ISO time in UTC when delivered, else null. */
  notified_at: string | null;
  attempts: number;
  last_error: string | null;
  /** ISO time in UTC of the next attempt while pending, else null. */
  next_attempt_at: string | null;
}

/** The columns readRequests selects (from contact_notifications as n), and how a row maps back. */
export const NOTIFICATION_COLUMNS_SQL = `n.status as notification_status,
            to_char(n.notified_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as notified_at,
            n.attempts as notification_attempts,
            n.last_error as notification_error,
            to_char(n.next_attempt_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as next_attempt_at`;

export interface NotificationColumns {
  notification_status: string | null;
  notified_at: string | null;
  notification_attempts: number | null;
  notification_error: string | null;
  next_attempt_at: string | null;
}

export function notificationFrom(row: NotificationColumns): StaffNotification | null {
  const status = row.notification_status;
  if (status !== "pending" && status !== "delivered" && status !== "skipped") return null;
  return {
    status,
    notified_at: row.notified_at,
    attempts: row.notification_attempts ?? 0,
    last_error: row.notification_error,
    next_attempt_at: status === "pending" ? row.next_attempt_at : null,
  };
}

function minute(iso: string | null): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso ?? "");
  return match ? `${match[1]} ${match[2]} UTC` : String(iso);
}

/** e.g. "yes, 2026-11-23 17:05:02 UTC" or "NOT YET (3 attempts; last error: …; next attempt …)". */
export function describeNotification(notification: StaffNotification | null, visible: (text: string) => string): string {
  if (!notification) return "unknown (no delivery record)";
  if (notification.status === "delivered") {
    const note = notification.last_error ? ` (${visible(notification.last_error)})` : "";
    return `yes, ${minute(notification.notified_at)}${note}`;
  }
  if (notification.status === "skipped") return "no (stored before staff notifications were set up)";
  const attempts = notification.attempts === 0 ? "not tried yet" : `${notification.attempts} attempt${notification.attempts === 1 ? "" : "s"}`;
  const error = notification.last_error ? `; last error: ${visible(notification.last_error)}` : "";
  return `NOT YET (${attempts}${error}; next attempt ${minute(notification.next_attempt_at)})`;
}
