/**
 * The site-analytics report: the REPORT body is checked, the e-mail reads the same as text and
 * as HTML that Gmail and Outlook render (tables, width/bgcolor bars, inline styles, no images),
 * and the handler sends it once to the report's recipients over SMTP.
 */
import assert from "node:assert/strict";

import { readMail } from "../../../local-backend/notifications/read-mail.ts";
import { loadConfig } from "./config.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import { createHandler, SECRET_HEADER } from "./handler.ts";
import { parseNotifyCall } from "./payload.ts";
import {
  composeReport,
  reportHtml,
  reportSubject,
  reportText,
  type ReportCall,
  type SiteReport,
} from "./report.ts";
import { sendMail } from "./smtp.ts";
import { messageBytes } from "./staff-email.ts";
import { startReceiver } from "./test-support/receiver.ts";

const funnel = (
  views: number,
  ctaTaps: number,
  formStarts: number,
  requests: number,
  failures = 0,
) => ({ views, ctaTaps, formStarts, requests, failures });

const REPORT: SiteReport = {
  from: "2026-11-16",
  to: "2026-11-22",
  totals: funnel(200, 40, 20, 5, 1),
  campaigns: [
    { source: "flyer", medium: "qr", campaign: "", ...funnel(120, 30, 15, 4) },
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

const CALL: ReportCall = { kind: "report", period: "weekly", report: REPORT };

Deno.test(
  "a REPORT body is accepted as pg_cron sends it, and refused with one sentence when anything is off",
  () => {
    assert.deepEqual(parseNotifyCall({ type: "REPORT", kind: "weekly", report: REPORT }), {
      ok: true,
      value: CALL,
    });
    const broken: [unknown, RegExp][] = [
      [{ type: "REPORT", kind: "hourly", report: REPORT }, /kind must be/],
      [{ type: "REPORT", kind: "daily" }, /report must be an object/],
      [{ type: "REPORT", kind: "daily", report: { ...REPORT, from: "16 Nov" } }, /dates/],
      [
        {
          type: "REPORT",
          kind: "daily",
          report: { ...REPORT, totals: { ...REPORT.totals, views: -1 } },
        },
        /report\.totals\.views must be a count/,
      ],
      [
        {
          type: "REPORT",
          kind: "daily",
          report: { ...REPORT, campaigns: [{ ...REPORT.campaigns[0], source: "<b>x</b>" }] },
        },
        /report\.campaigns\[0\]\.source/,
      ],
      [
        {
          type: "REPORT",
          kind: "daily",
          report: { ...REPORT, referrers: [{ domain: "a.com", views: 1.5 }] },
        },
        /report\.referrers\[0\]\.views/,
      ],
      [
        { type: "REPORT", kind: "daily", report: { ...REPORT, days: "none" } },
        /report\.days must be an array/,
      ],
    ];
    for (const [body, problem] of broken) {
      const parsed = parseNotifyCall(body);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { problem: string }).problem, problem);
    }
  },
);

Deno.test(
  "the text part: the funnel with its rates, top campaigns and referrers, one bar per day",
  () => {
    const text = reportText(REPORT);
    assert.match(text, /Page views\s+200\n/);
    assert.match(text, /Call-to-action taps\s+40\s+20\.0%\s+20\.0%/);
    assert.match(text, /Form starts\s+20\s+10\.0%\s+50\.0%/);
    assert.match(text, /Requests sent\s+5\s+2\.5%\s+25\.0%/);
    assert.match(text, /flyer \/ qr \/ –: 120 \/ 30 \/ 15 \/ 4 \(3\.3% of views\)/);
    assert.match(text, /\(no campaign\): 60/);
    assert.match(text, /linkedin\.com: 18/);
    assert.match(text, /Thu, Nov 19\s+100\s+3\s+#{24}\n/);
    assert.match(text, /Mon, Nov 16\s+0\s+0\n/);
    assert.equal(
      reportSubject(REPORT, "weekly"),
      "Weekly website report, Nov 16 – Nov 22, 2026: 200 views, 5 meeting requests",
    );
    assert.equal(
      reportSubject({ ...REPORT, to: REPORT.from }, "daily"),
      "Daily website report, Mon, Nov 16, 2026: 200 views, 5 meeting requests",
    );
  },
);

Deno.test(
  "the HTML part: tables and bgcolor bars with pixel widths, inline styles only, no images or style sheets",
  () => {
    const html = reportHtml(REPORT, "subject");
    assert.doesNotMatch(html, /<img|<style|<link|class=|<script|url\(/i);
    const bars = [...html.matchAll(/<td width="(\d+)" height="12" bgcolor="#2563eb"/g)].map(
      (match) => Number(match[1]),
    );
    assert.deepEqual(bars, [24, 48, 240, 96, 120, 144]); // 10..60 and 100 views; a day with none has no bar
    assert.match(html, /<td align="right" style="[^"]*">20\.0%<\/td>/);
    assert.match(html, /flyer \/ qr \/ –/);
    const hostile = reportHtml(
      { ...REPORT, campaigns: [{ ...REPORT.campaigns[0]!, source: "a&b" }] },
      "<subject>",
    );
    assert.match(hostile, /a&amp;b/);
    assert.match(hostile, /<title>&lt;subject&gt;<\/title>/);
  },
);

Deno.test(
  "the message: multipart/alternative with a text and an HTML part, one Message-ID per period",
  async () => {
    const now = new Date("2026-11-23T07:00:00Z");
    const email = composeReport(
      CALL,
      {
        from: { name: "Expo website", address: "noreply@example-transit.com" },
        to: [{ address: "marketing@example-transit.com" }],
      },
      now,
    );
    const raw = new TextDecoder().decode(await messageBytes(email));
    const message = await readMail(raw);
    assert.equal(message.headers.get("to"), "marketing@example-transit.com");
    assert.match(message.headers.get("content-type")!, /^multipart\/alternative; boundary=/);
    assert.equal(
      message.headers.get("message-id"),
      "<site-report-weekly-2026-11-16-2026-11-22@example-transit.com>",
    );
    assert.equal(message.headers.get("auto-submitted"), "auto-generated");
    // The text part first, then the HTML part (mail clients show the last part they can).
    const parts = [...raw.matchAll(/^Content-Type: (text\/[a-z]+); charset=utf-8\r$/gm)].map(
      (match) => match[1],
    );
    assert.deepEqual(parts, ["text/plain", "text/html"]);
    // Each part as written, give or take the line break before the next boundary.
    assert.equal(message.body.trimEnd(), email.text.trimEnd());
    assert.equal(message.html?.trimEnd(), email.html?.trimEnd());
  },
);

Deno.test(
  "the handler sends a REPORT once, to NOTIFY_REPORT_TO, without touching the delivery state",
  async () => {
    const receiver = await startReceiver();
    const untouched = () => Promise.reject(new Error("the report must not use the delivery store"));
    const store: DeliveryStore = { claim: untouched, claimDue: untouched, finish: untouched };
    const loaded = loadConfig(
      (name) =>
        ({
          NOTIFY_WEBHOOK_SECRET: "s".repeat(40),
          NOTIFY_EMAIL_TO: "sales@example-transit.com",
          NOTIFY_REPORT_TO: "Marketing <marketing@example-transit.com>, ceo@example-transit.com",
          NOTIFY_EMAIL_FROM: "noreply@example-transit.com",
          SMTP_HOST: "127.0.0.1",
          SMTP_PORT: String(receiver.port),
          SUPABASE_URL: "http://unused",
          SUPABASE_SERVICE_ROLE_KEY: "unused",
        })[name],
    );
    assert.ok(loaded.ok);
    const { config } = loaded;
    const handler = createHandler({
      config,
      store,
      sendMail,
      postChatMessage: () => Promise.resolve(),
      log: () => {},
    });
    try {
      const response = await handler(
        new Request("http://function/", {
          method: "POST",
          headers: { [SECRET_HEADER]: config.webhookSecret, "Content-Type": "application/json" },
          body: JSON.stringify({ type: "REPORT", kind: "weekly", report: REPORT }),
        }),
      );
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { reported: true });
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(receiver.received[0]!.to, [
        "marketing@example-transit.com",
        "ceo@example-transit.com",
      ]);
      assert.equal(
        (await readMail(receiver.received[0]!.raw)).headers.get("subject"),
        reportSubject(REPORT, "weekly"),
      );
    } finally {
      await receiver.close();
    }
  },
);
