import type { StoredRequest } from "../database";
import { formatRequestsText, terminalSafe } from "../requests";
import {
  describeNotification,
  notificationFrom,
  screeningFrom,
  type NotificationColumns,
} from "./request-status";

const request: StoredRequest = {
  id: 7,
  created_at: "2026-11-23T17:05:01.123456Z",
  name: "Ada Lovelace",
  email: "ada@example.org",
  organization: "Metro Transit",
  message: "Phone: 555",
};

test("npm run requests shows, for each request, whether and when staff were notified", () => {
  const delivered = notificationFrom({
    notification_status: "delivered",
    notified_at: "2026-11-23T17:05:02.500000Z",
    notification_attempts: 1,
    notification_error: null,
    next_attempt_at: "2026-11-23T17:05:01.123456Z",
  });
  expect(formatRequestsText([{ ...request, notification: delivered }])).toBe(
    [
      "#7  2026-11-23 17:05 UTC",
      "  Name:          Ada Lovelace",
      "  Organization:  Metro Transit",
      "  Email:         ada@example.org",
      "  Notified:      yes, 2026-11-23 17:05:02 UTC",
      "  Message:",
      "    Phone: 555",
      "",
      "1 meeting request, newest first.",
      "",
    ].join("\n"),
  );
});

test.each([
  [
    "pending after failures",
    {
      notification_status: "pending",
      notified_at: null,
      notification_attempts: 3,
      notification_error: "Cannot connect to SMTP server 127.0.0.1:54325: Connection refused",
      next_attempt_at: "2026-11-23T17:07:01Z",
    },
    "NOT YET (3 attempts; last error: Cannot connect to SMTP server 127.0.0.1:54325: Connection refused; next attempt 2026-11-23 17:07:01 UTC)",
  ],
  [
    "pending, never tried",
    {
      notification_status: "pending",
      notified_at: null,
      notification_attempts: 0,
      notification_error: null,
      next_attempt_at: "2026-11-23T17:05:01Z",
    },
    "NOT YET (not tried yet; next attempt 2026-11-23 17:05:01 UTC)",
  ],
  [
    "delivered with a failed chat post",
    {
      notification_status: "delivered",
      notified_at: "2026-11-23T17:05:02Z",
      notification_attempts: 1,
      notification_error: "E-mail sent; chat webhook at hooks.example.com answered HTTP 500",
      next_attempt_at: null,
    },
    "yes, 2026-11-23 17:05:02 UTC (E-mail sent; chat webhook at hooks.example.com answered HTTP 500)",
  ],
  [
    "stored before notifications existed",
    {
      notification_status: "skipped",
      notified_at: null,
      notification_attempts: 0,
      notification_error: "stored before staff notifications were set up",
      next_attempt_at: null,
    },
    "no (stored before staff notifications were set up)",
  ],
  [
    "no delivery record",
    {
      notification_status: null,
      notified_at: null,
      notification_attempts: null,
      notification_error: null,
      next_attempt_at: null,
    },
    "unknown (no delivery record)",
  ],
])("%s", (_label, columns, expected) => {
  expect(describeNotification(notificationFrom(columns), terminalSafe)).toBe(expected);
});

test("an error text from a server is printed safely", () => {
  const notification = notificationFrom({
    notification_status: "pending",
    notified_at: null,
    notification_attempts: 1,
    notification_error: "550 \u001b[31mred\nline",
    next_attempt_at: "2026-11-23T17:07:01Z",
  });
  expect(
    describeNotification(notification, (text) => terminalSafe(text).replace(/\n/g, " ")),
  ).toContain("550 \\u001b[31mred line");
});

test("npm run requests marks suspect requests and says how staff hear of them", () => {
  const base = {
    notified_at: null,
    notification_attempts: 0,
    notification_error: null,
    next_attempt_at: "2026-11-23T17:10:01.123456Z",
  };
  /** Request #id as database.ts reads it: its notification and its screening from one row. */
  const stored = (
    id: number,
    columns: Omit<NotificationColumns, keyof typeof base>,
  ): StoredRequest => {
    const row = { ...base, ...columns };
    return { ...request, id, notification: notificationFrom(row), screening: screeningFrom(row) };
  };
  const suspect = stored(7, {
    notification_status: "digest",
    held_for: ["no page proof"],
    screening_verdict: "suspect",
    screening_proof: "missing",
    screening_signals: ["links"],
  });
  const held = stored(8, {
    notification_status: "held",
    screening_verdict: "awaiting-proof",
    screening_proof: "pending",
    screening_signals: [],
  });
  const digested = stored(9, {
    notification_status: "digested",
    digest_sent_at: "2026-11-23T17:20:00.000000Z",
    held_for: ["no page proof"],
    digest: 3,
    screening_verdict: "suspect",
    screening_proof: "missing",
    screening_signals: ["gibberish", "repeated-text"],
  });
  const verified = stored(10, {
    notification_status: "pending",
    screening_verdict: "page-verified",
    screening_proof: "confirmed",
    screening_signals: [],
  });
  const overBudget = stored(11, {
    notification_status: "digest",
    held_for: ["over the address burst budget"],
    digest: null,
    screening_verdict: "page-verified",
    screening_proof: "verified",
    screening_signals: [],
    screening_budget: "over-address-burst",
  });
  const text = formatRequestsText([overBudget, verified, digested, held, suspect]);
  expect(text).toContain("#7  2026-11-23 17:05 UTC  [SUSPECT]\n  Name:");
  expect(text).toContain(
    "  Screening:     SUSPECT (no page proof; links)\n  Notified:      not one by one (no page proof): in the next digest\n",
  );
  expect(text).toContain("#8  2026-11-23 17:05 UTC  [SUSPECT]\n");
  expect(text).toContain(
    "  Screening:     waiting for the page's proof (sent before it was ready)\n  Notified:      not yet: waiting for the page's proof until 2026-11-23 17:10:01 UTC, then the digest\n",
  );
  expect(text).toContain(
    "  Screening:     SUSPECT (no page proof; gibberish; repeated-text)\n  Notified:      in digest #3 (no page proof), 2026-11-23 17:20:00 UTC\n",
  );
  expect(text).toContain("#10  2026-11-23 17:05 UTC\n");
  expect(text).toContain(
    "  Screening:     page-verified (confirmed after sending)\n  Notified:      NOT YET (not tried yet; next attempt 2026-11-23 17:10:01 UTC)\n",
  );
  // Page-proved, past a budget: not suspect, listed in the digest.
  expect(text).toContain("#11  2026-11-23 17:05 UTC\n");
  expect(text).toContain(
    "  Screening:     page-verified\n  Notified:      not one by one (over the address burst budget): in the next digest\n",
  );
  expect(text).toMatch(
    /5 meeting requests, newest first \(4 not e-mailed one by one: held for the page's proof or listed in a digest\)\.\n$/,
  );
});
