/**
 * The site-analytics report e-mail (docs/analytics.md) from the REPORT call: a text part and an
 * HTML part that reads the same in Gmail and Outlook (tables, width and bgcolor attributes,
 * inline styles only, no images). Pure.
 */
import { plural } from "./compose.ts";
import { escapeHtml, staffEmail, type Addressing, type StaffEmail } from "./mail.ts";
import type { Funnel, ReportCall, SiteReport } from "./payload.ts";

type CampaignRow = SiteReport["campaigns"][number];

/** A share as a percentage with one decimal, "–" when there is nothing to divide by. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "–";
}

export function campaignName(row: Pick<CampaignRow, "source" | "medium" | "campaign">): string {
  const parts = [row.source, row.medium, row.campaign];
  return parts.some(Boolean) ? parts.map((part) => part || "–").join(" / ") : "(no campaign)";
}

function formatDay(date: string, options: Intl.DateTimeFormatOptions): string {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options });
  return format.format(new Date(`${date}T00:00:00Z`));
}

const DAY = { month: "short", day: "numeric" } as const;

function periodLabel({ from, to }: SiteReport): string {
  if (from === to) return formatDay(from, { weekday: "short", ...DAY, year: "numeric" });
  return `${formatDay(from, DAY)} – ${formatDay(to, { ...DAY, year: "numeric" })}`;
}

const TITLES = {
  weekly: "Weekly website report",
  daily: "Daily website report",
  range: "Website report",
};

export function reportSubject(report: SiteReport, period: ReportCall["period"]): string {
  const { views, requests } = report.totals;
  return `${TITLES[period]}, ${periodLabel(report)}: ${plural(views, "view")}, ${plural(requests, "meeting request")}`;
}

/** The funnel's rows: step, count, share of views, share of the step before. */
type Step = [label: string, count: number, ofViews: string, ofPrevious: string];

function funnelSteps({ views, ctaTaps, formStarts, requests, meetings }: Funnel): Step[] {
  return [
    ["Page views", views, "", ""],
    ["Call-to-action taps", ctaTaps, percent(ctaTaps, views), percent(ctaTaps, views)],
    ["Form starts", formStarts, percent(formStarts, views), percent(formStarts, ctaTaps)],
    ["Requests sent", requests, percent(requests, views), percent(requests, formStarts)],
    ["Meetings booked", meetings, percent(meetings, views), percent(meetings, requests)],
  ];
}

const TOP = 10;

const FIGURES = ["Views", "Taps", "Starts", "Requests", "Meetings"];
const FIGURE_KEYS = ["views", "ctaTaps", "formStarts", "requests", "meetings"] as const;
const figures = (row: CampaignRow) => FIGURE_KEYS.map((key) => row[key]);

const listed = <T>(rows: T[], line: (row: T) => string): string[] =>
  rows.length === 0 ? ["  none"] : rows.map((row) => `  ${line(row)}`);

export function reportText(report: SiteReport): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const most = Math.max(1, ...report.days.map((day) => day.views));
  const lines = [
    `Website report ${report.from} to ${report.to} (UTC days)`,
    "",
    "Funnel                      count  of views  of previous step",
    ...funnelSteps(report.totals).map(([label, count, ofViews, ofPrevious]) =>
      `  ${label.padEnd(22)}${pad(count, 8)}${pad(ofViews, 10)}${pad(ofPrevious, 10)}`.trimEnd(),
    ),
    `  ${"Requests that failed".padEnd(22)}${pad(report.totals.failures, 8)}`,
    "",
    "Top campaigns (views / taps / starts / requests / meetings)",
    ...listed(
      report.campaigns.slice(0, TOP),
      (row) =>
        `${campaignName(row)}: ${figures(row).join(" / ")} (${percent(row.requests, row.views)} of views)`,
    ),
    "",
    "Top referrers (views)",
    ...listed(report.referrers.slice(0, TOP), (row) => `${row.domain}: ${row.views}`),
    "",
    "Calls to action (taps)",
    ...listed(report.ctas, (row) => `${row.id}: ${row.taps}`),
    "",
    "Per day (views, requests)",
    ...report.days.map((day) =>
      `  ${formatDay(day.date, { weekday: "short", ...DAY }).padEnd(12)}${pad(day.views, 6)}${pad(day.requests, 4)}  ${"#".repeat(Math.round((24 * day.views) / most))}`.trimEnd(),
    ),
    "",
    "--",
    "Counted without cookies or personal data (docs/analytics.md). In the dashboard: site_funnel_daily.",
  ];
  return `${lines.join("\n")}\n`;
}

const FONT = "font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1f2933;";
const CELL = `${FONT}padding:4px 8px;border-bottom:1px solid #e4e7eb;`;
const NUMBER = `${CELL}text-align:right;`;
const HEAD = `${CELL}font-weight:bold;background-color:#f5f7fa;`;

const TABLE = `role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 20px 0;"`;

/** A table whose first column is text and the others are figures; `empty` when it has no rows. */
function table(headers: string[], rows: (string | number)[][], empty: string): string {
  if (rows.length === 0) return `<p style="${FONT}">${empty}</p>`;
  const cell = (tag: string, style: string, index: number, text: string | number) =>
    `<${tag} align="${index > 0 ? "right" : "left"}" style="${style}">${escapeHtml(String(text))}</${tag}>`;
  const head = headers.map((text, index) => cell("th", HEAD, index, text)).join("");
  const body = rows.map(
    (row) =>
      `<tr>${row.map((text, index) => cell("td", index > 0 ? NUMBER : CELL, index, text)).join("")}</tr>`,
  );
  return `<table ${TABLE}><tr>${head}</tr>${body.join("")}</table>`;
}

/** A bar Outlook draws too: a one-row table whose cell has a width in pixels and a bgcolor. */
function bar(value: number, most: number, color: string): string {
  const width = Math.max(value > 0 ? 2 : 0, Math.round((240 * value) / Math.max(1, most)));
  if (width === 0) return "&nbsp;";
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td width="${width}" height="12" bgcolor="${color}" style="width:${width}px;height:12px;background-color:${color};font-size:1px;line-height:1px;">&nbsp;</td></tr></table>`;
}

const heading = (text: string) =>
  `<h2 style="${FONT}font-size:16px;margin:16px 0 8px 0;">${escapeHtml(text)}</h2>`;

export function reportHtml(report: SiteReport, subject: string): string {
  const most = Math.max(1, ...report.days.map((day) => day.views));
  const dayRows = report.days
    .map(
      (day) =>
        `<tr><td style="${CELL}white-space:nowrap;">${escapeHtml(formatDay(day.date, { weekday: "short", ...DAY }))}</td>` +
        `<td style="${CELL}">${bar(day.views, most, "#2563eb")}</td>` +
        `<td align="right" style="${NUMBER}">${day.views}</td><td align="right" style="${NUMBER}">${day.requests}</td></tr>`,
    )
    .join("");
  const parts = [
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:0;background-color:#ffffff;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" style="padding:16px;">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;"><tr><td>`,
    `<h1 style="${FONT}font-size:20px;margin:0 0 4px 0;">${escapeHtml(periodLabel(report))}</h1>`,
    `<p style="${FONT}margin:0 0 16px 0;color:#52606d;">What the website turned into meetings (UTC days ${escapeHtml(report.from)} to ${escapeHtml(report.to)}).</p>`,
    heading("Funnel"),
    table(
      ["Step", "Count", "Of views", "Of previous step"],
      [...funnelSteps(report.totals), ["Requests that failed", report.totals.failures, "", ""]],
      "",
    ),
    heading("Per day"),
    `<table ${TABLE}>`,
    `<tr><th align="left" style="${HEAD}">Day</th><th align="left" style="${HEAD}">Page views</th><th align="right" style="${HEAD}">Views</th><th align="right" style="${HEAD}">Requests</th></tr>${dayRows}</table>`,
    heading("Top campaigns"),
    table(
      ["Campaign (source / medium / campaign)", ...FIGURES, "Request rate"],
      report.campaigns
        .slice(0, TOP)
        .map((row) => [campaignName(row), ...figures(row), percent(row.requests, row.views)]),
      "No visits.",
    ),
    heading("Top referrers"),
    table(
      ["Site", "Views"],
      report.referrers.slice(0, TOP).map((row) => [row.domain, row.views]),
      "No visits from other sites.",
    ),
    heading("Calls to action"),
    table(
      ["Call to action", "Taps"],
      report.ctas.map((row) => [row.id, row.taps]),
      "No taps.",
    ),
    `<p style="${FONT}font-size:12px;color:#7b8794;margin:16px 0 0 0;">Counted without cookies or personal data. Day by day in the Supabase dashboard: site_funnel_daily.</p>`,
    `</td></tr></table></td></tr></table></body></html>`,
  ];
  return parts.join("\n");
}

/** The whole message: multipart/alternative, the text part first (mail clients show the last part they can). */
export function composeReport(call: ReportCall, addressing: Addressing, now: Date): StaffEmail {
  const subject = reportSubject(call.report, call.period);
  const content = {
    subject,
    text: reportText(call.report),
    html: reportHtml(call.report, subject),
    // One id per period: a report sent twice for the same days is folded by mail clients.
    messageIdLocalPart: `site-report-${call.period}-${call.report.from}-${call.report.to}`,
  };
  return staffEmail(content, addressing, now);
}
