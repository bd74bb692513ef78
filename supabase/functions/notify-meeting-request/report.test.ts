/**
 * The site-analytics report: the text and the HTML part read the same, the HTML as Gmail and
 * Outlook render it (tables, width/bgcolor bars, inline styles, no images).
 */
import assert from "node:assert/strict";

import { messageBytes } from "./mail.ts";
import { composeReport, reportHtml, reportSubject, reportText } from "./report.ts";
import { ADDRESSING, readMail, REPORT } from "./test-support/harness.ts";

Deno.test("the text part: funnel with rates, top campaigns and referrers, a bar per day", () => {
  const text = reportText(REPORT);
  assert.match(text, /Page views\s+200\n/);
  assert.match(text, /Call-to-action taps\s+40\s+20\.0%\s+20\.0%/);
  assert.match(text, /Form starts\s+20\s+10\.0%\s+50\.0%/);
  assert.match(text, /Requests sent\s+5\s+2\.5%\s+25\.0%/);
  assert.match(text, /Meetings booked\s+2\s+1\.0%\s+40\.0%/);
  assert.match(text, /flyer \/ qr \/ –: 120 \/ 30 \/ 15 \/ 4 \/ 2 \(3\.3% of views\)/);
  assert.match(text, /\(no campaign\): 60/);
  assert.match(text, /linkedin\.com: 18/);
  assert.match(text, /Thu, Nov 19\s+100\s+3\s+#{24}\n/);
  assert.match(text, /Mon, Nov 16\s+0\s+0\n/);
  assert.match(reportText({ ...REPORT, ctas: [] }), /Calls to action \(taps\)\n {2}none\n/);
  assert.equal(
    reportSubject(REPORT, "weekly"),
    "Weekly website report, Nov 16 – Nov 22, 2026: 200 views, 5 meeting requests",
  );
  assert.equal(
    reportSubject({ ...REPORT, to: REPORT.from }, "daily"),
    "Daily website report, Mon, Nov 16, 2026: 200 views, 5 meeting requests",
  );
});

Deno.test("the HTML part: tables and bgcolor bars with pixel widths, inline styles only", () => {
  const html = reportHtml(REPORT, "subject");
  assert.doesNotMatch(html, /<img|<style|<link|class=|<script|url\(/i);
  const bars = [...html.matchAll(/<td width="(\d+)" height="12" bgcolor="#2563eb"/g)].map((match) =>
    Number(match[1]),
  );
  assert.deepEqual(bars, [24, 48, 240, 96, 120, 144]); // 10..60 and 100 views; none without views
  assert.match(html, /<td align="right" style="[^"]*">20\.0%<\/td>/);
  assert.match(html, /flyer \/ qr \/ –/);
  assert.match(reportHtml({ ...REPORT, ctas: [] }, "subject"), /<p style="[^"]*">No taps\.<\/p>/);
  const hostile = reportHtml(
    { ...REPORT, campaigns: [{ ...REPORT.campaigns[0]!, source: "a&b" }] },
    "<subject>",
  );
  assert.match(hostile, /a&amp;b/);
  assert.match(hostile, /<title>&lt;subject&gt;<\/title>/);
});

Deno.test("multipart/alternative, text then HTML, one Message-ID per period", async () => {
  const call = { kind: "report", period: "weekly", report: REPORT } as const;
  const email = composeReport(call, ADDRESSING, new Date("2026-11-23T07:00:00Z"));
  const message = await readMail(await messageBytes(email));
  assert.match(message.headers["content-type"]!, /^multipart\/alternative; boundary=/);
  assert.equal(
    message.headers["message-id"],
    "<site-report-weekly-2026-11-16-2026-11-22@example-transit.com>",
  );
  assert.equal(message.headers["auto-submitted"], "auto-generated");
  // The text part first, then the HTML part (mail clients show the last part they can).
  const parts = [...message.raw.matchAll(/^Content-Type: (text\/[a-z]+); charset=utf-8\r$/gm)];
  assert.deepEqual(
    parts.map((match) => match[1]),
    ["text/plain", "text/html"],
  );
  // Each part as written, give or take the line break before the next boundary.
  assert.equal(message.text?.trimEnd(), email.text.trimEnd());
  assert.equal(message.html?.trimEnd(), email.html?.trimEnd());
});
