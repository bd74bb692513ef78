/**
 * How `npm run requests` prints the stored requests: readable blocks with control characters made
 * visible, whether and how staff were told, how the screening judged each one, and CSV a
 * spreadsheet cannot run.
 */
import type { RequestStatus, StoredRequest } from "./database";
import {
  csvField,
  describeNotification,
  formatRequestsText,
  requestsToCsv,
  terminalSafe,
} from "./requests";

const request: StoredRequest = {
  id: 7,
  created_at: "2026-11-23T17:05:01.123456Z",
  name: "Ada Lovelace",
  email: "ada@example.org",
  organization: "Metro Transit",
  message: "Phone: 555",
};
/** Text a visitor or an attacker may send: a bidirectional override, a spreadsheet formula. */
const tricky = { ...request, name: "Zoë \u202eevil", organization: '=HYPERLINK("x"), "Inc"' };

/** A request's status: pending and never tried, unless `fields` say otherwise; the rest unset. */
const status = (fields: Partial<RequestStatus>) =>
  ({
    notification: "pending",
    notification_attempts: 0,
    next_attempt_at: "2026-11-23T17:10:01.123456Z",
    ...fields,
  }) as RequestStatus;

test("a block: time, name, organization, e-mail, then the message indented; control characters made visible", () => {
  const delivered = status({
    notification: "delivered",
    notified_at: "2026-11-23T17:05:02.5+00:00",
    notification_attempts: 1,
  });
  const message = "Line one\r\nLine two\u001b[31m\n\ttabbed";
  expect(formatRequestsText([{ ...tricky, message, status: delivered }])).toBe(
    [
      "#7  2026-11-23 17:05 UTC",
      "  Name:          Zoë \\u202eevil",
      '  Organization:  =HYPERLINK("x"), "Inc"',
      "  Email:         ada@example.org",
      "  Notified:      yes, 2026-11-23 17:05:02 UTC",
      "  Message:",
      "    Line one",
      "    Line two\\u001b[31m",
      "        tabbed",
      "",
      "1 meeting request, newest first.",
      "",
    ].join("\n"),
  );
  expect(terminalSafe("a\u0000b\u009bc")).toBe("a\\u0000b\\u009bc");
});

test.each<[string, Partial<RequestStatus>, string]>([
  [
    "pending after failures",
    {
      notification_attempts: 3,
      notification_error: "Cannot connect to SMTP server 127.0.0.1:54325",
    },
    "NOT YET (3 attempts; last error: Cannot connect to SMTP server 127.0.0.1:54325; next attempt 2026-11-23 17:10:01 UTC)",
  ],
  ["pending, never tried", {}, "NOT YET (not tried yet; next attempt 2026-11-23 17:10:01 UTC)"],
  [
    "delivered with a failed chat post",
    {
      notification: "delivered",
      notified_at: "2026-11-23T17:05:02Z",
      notification_error: "chat: HTTP 500",
    },
    "yes, 2026-11-23 17:05:02 UTC (chat: HTTP 500)",
  ],
  [
    "stored before notifications",
    { notification: "skipped" },
    "no (stored before staff notifications were set up)",
  ],
  ["no delivery record", { notification: null }, "unknown (no delivery record)"],
  [
    "an error text from a server",
    { notification_error: "550 \u001b[31mred\nline" },
    "550 \\u001b[31mred line",
  ],
])("Notified: %s", (_label, fields, expected) => {
  const visible = (text: string) => terminalSafe(text).replace(/\n/g, " ");
  expect(describeNotification(status(fields), visible)).toContain(expected);
});

test("suspect requests are marked, and the listing says how staff hear of each", () => {
  const stored = (id: number, fields: Partial<RequestStatus>) => ({
    ...request,
    id,
    status: status(fields),
  });
  const suspect: Partial<RequestStatus> = {
    screening: "suspect",
    page_proof: "missing",
    held_for: ["no page proof"],
  };
  const verified: Partial<RequestStatus> = { screening: "page-verified", page_proof: "verified" };
  const text = formatRequestsText([
    stored(11, {
      ...verified,
      notification: "digest",
      held_for: ["over the address burst budget"],
    }),
    stored(10, { ...verified, page_proof: "confirmed" }),
    stored(9, {
      ...suspect,
      screening_signals: ["gibberish", "repeated-text"],
      notification: "digested",
      digest_sent_at: "2026-11-23T17:20:00Z",
      digest: 3,
    }),
    stored(8, { screening: "awaiting-proof", page_proof: "pending", notification: "held" }),
    stored(7, { ...suspect, screening_signals: ["links"], notification: "digest" }),
  ]);
  for (const expected of [
    "#7  2026-11-23 17:05 UTC  [SUSPECT]\n  Name:",
    "  Screening:     SUSPECT (no page proof; links)\n  Notified:      not one by one (no page proof): in the next digest\n",
    "#8  2026-11-23 17:05 UTC  [SUSPECT]\n",
    "  Screening:     waiting for the page's proof (sent before it was ready)\n  Notified:      not yet: waiting for the page's proof until 2026-11-23 17:10:01 UTC, then the digest\n",
    "  Screening:     SUSPECT (no page proof; gibberish; repeated-text)\n  Notified:      in digest #3 (no page proof), 2026-11-23 17:20:00 UTC\n",
    "#10  2026-11-23 17:05 UTC\n",
    "  Screening:     page-verified (confirmed after sending)\n  Notified:      NOT YET (not tried yet; next attempt 2026-11-23 17:10:01 UTC)\n",
    "#11  2026-11-23 17:05 UTC\n",
    "  Screening:     page-verified\n  Notified:      not one by one (over the address burst budget): in the next digest\n",
  ])
    expect(text).toContain(expected);
  expect(text).toMatch(
    /5 meeting requests, newest first \(4 not e-mailed one by one: held for the page's proof or listed in a digest\)\.\n$/,
  );
});

test("CSV: RFC 4180 quoting, CRLF rows, spreadsheet formulas neutralised", () => {
  expect(["plain", 'say "hi", ok', "two\nlines", "=1+1", "-5", -5].map(csvField)).toEqual([
    "plain",
    '"say ""hi"", ok"',
    '"two\nlines"',
    "'=1+1",
    "'-5",
    "-5",
  ]);
  expect(requestsToCsv([{ ...tricky, message: "a\r\nb" }])).toBe(
    "id,created_at,name,email,organization,message\r\n" +
      `7,2026-11-23T17:05:01.123456Z,Zoë \u202eevil,ada@example.org,"'=HYPERLINK(""x""), ""Inc""","a\r\nb"\r\n`,
  );
});
