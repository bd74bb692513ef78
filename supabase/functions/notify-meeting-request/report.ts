/**
 * The site-analytics report e-mail (docs/analytics.md): the body pg_cron posts
 * (`{"type":"REPORT","kind":"weekly","report":{…}}`, public.claim_site_report's JSON), checked,
 * and the e-mail composed from it: a text part and an HTML part that reads the same in Gmail and
 * Outlook (tables with width and bgcolor attributes, inline styles only, no images). Pure.
 */
import type { Parsed } from "./payload.ts";
import { staffEmail, type Addressing, type StaffEmail } from "./staff-email.ts";

export type Funnel = {
  views: number;
  ctaTaps: number;
  formStarts: number;
  requests: number;
  failures: number;
};
export type CampaignRow = Funnel & { source: string; medium: string; campaign: string };
export type DayRow = Funnel & { date: string };

/** public.site_analytics_report(from, to): what `npm run report -- --json` prints too. */
export interface SiteReport {
  from: string;
  to: string;
  totals: Funnel;
  campaigns: CampaignRow[];
  referrers: { domain: string; views: number }[];
  ctas: { id: string; taps: number }[];
  days: DayRow[];
}

/** weekly and daily come from pg_cron; range from `npm run report -- --mail`. */
export type ReportKind = "weekly" | "daily" | "range";
export type ReportCall = { kind: "report"; period: ReportKind; report: SiteReport };

const FUNNEL_FIELDS = ["views", "ctaTaps", "formStarts", "requests", "failures"] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Tags, domains and ids as the database allows them (nothing else can be in a report). */
const TOKEN = /^[a-z0-9._-]{0,253}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function funnelProblem(value: unknown, where: string): string | undefined {
  if (!isObject(value)) return `${where} must be an object`;
  const bad = FUNNEL_FIELDS.find((field) => !isCount(value[field]));
  return bad ? `${where}.${bad} must be a count` : undefined;
}

function listProblem(
  value: unknown,
  where: string,
  check: (item: Record<string, unknown>, at: string) => string | undefined,
): string | undefined {
  if (!Array.isArray(value)) return `${where} must be an array`;
  for (const [index, item] of value.entries()) {
    const at = `${where}[${index}]`;
    const problem = isObject(item) ? check(item, at) : `${at} must be an object`;
    if (problem) return problem;
  }
  return undefined;
}

const tokenProblem = (item: Record<string, unknown>, field: string, at: string) =>
  typeof item[field] === "string" && TOKEN.test(item[field] as string)
    ? undefined
    : `${at}.${field} is not a tag the database stores`;

/** The REPORT call's body, checked field by field (the function sends nothing it cannot read). */
export function parseReportCall(body: Record<string, unknown>): Parsed<ReportCall> {
  const period = body.kind;
  if (period !== "weekly" && period !== "daily" && period !== "range")
    return { ok: false, problem: 'kind must be "weekly", "daily" or "range"' };
  const report = body.report;
  if (!isObject(report)) return { ok: false, problem: "report must be an object" };
  if (
    typeof report.from !== "string" ||
    !DATE.test(report.from) ||
    typeof report.to !== "string" ||
    !DATE.test(report.to)
  ) {
    return { ok: false, problem: "report.from and report.to must be dates (YYYY-MM-DD)" };
  }
  const problem =
    funnelProblem(report.totals, "report.totals") ??
    listProblem(
      report.campaigns,
      "report.campaigns",
      (item, at) =>
        funnelProblem(item, at) ??
        tokenProblem(item, "source", at) ??
        tokenProblem(item, "medium", at) ??
        tokenProblem(item, "campaign", at),
    ) ??
    listProblem(
      report.referrers,
      "report.referrers",
      (item, at) =>
        tokenProblem(item, "domain", at) ??
        (isCount(item.views) ? undefined : `${at}.views must be a count`),
    ) ??
    listProblem(
      report.ctas,
      "report.ctas",
      (item, at) =>
        tokenProblem(item, "id", at) ??
        (isCount(item.taps) ? undefined : `${at}.taps must be a count`),
    ) ??
    listProblem(
      report.days,
      "report.days",
      (item, at) =>
        funnelProblem(item, at) ??
        (typeof item.date === "string" && DATE.test(item.date)
          ? undefined
          : `${at}.date must be a date`),
    );
  if (problem) return { ok: false, problem };
  return { ok: true, value: { kind: "report", period, report: report as unknown as SiteReport } };
}

/** A share as a percentage with one decimal, "–" when there is nothing to divide by. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "–";
}

export function campaignName(row: Pick<CampaignRow, "source" | "medium" | "campaign">): string {
  const parts = [row.source, row.medium, row.campaign];
  return parts.some(Boolean) ? parts.map((part) => part || "–").join(" / ") : "(no campaign)";
}

function formatDay(date: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

function periodLabel(report: SiteReport): string {
  if (report.from === report.to)
    return formatDay(report.from, {
      weekday: "short",
      month: "short",
      day: "numeric",
      year: "numeric",
    });
  return `${formatDay(report.from, { month: "short", day: "numeric" })} – ${formatDay(report.to, { month: "short", day: "numeric", year: "numeric" })}`;
}

export function reportSubject(report: SiteReport, period: ReportKind): string {
  const what =
    period === "weekly"
      ? "Weekly website report"
      : period === "daily"
        ? "Daily website report"
        : "Website report";
  const { views, requests } = report.totals;
  return `${what}, ${periodLabel(report)}: ${views} view${views === 1 ? "" : "s"}, ${requests} meeting request${requests === 1 ? "" : "s"}`;
}

type FunnelStep = { label: string; count: number; ofViews: string; ofPrevious: string };

function funnelSteps(totals: Funnel): FunnelStep[] {
  return [
    { label: "Page views", count: totals.views, ofViews: "", ofPrevious: "" },
    {
      label: "Call-to-action taps",
      count: totals.ctaTaps,
      ofViews: percent(totals.ctaTaps, totals.views),
      ofPrevious: percent(totals.ctaTaps, totals.views),
    },
    {
      label: "Form starts",
      count: totals.formStarts,
      ofViews: percent(totals.formStarts, totals.views),
      ofPrevious: percent(totals.formStarts, totals.ctaTaps),
    },
    {
      label: "Requests sent",
      count: totals.requests,
      ofViews: percent(totals.requests, totals.views),
      ofPrevious: percent(totals.requests, totals.formStarts),
    },
  ];
}

const TOP = 10;

export function reportText(report: SiteReport): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const most = Math.max(1, ...report.days.map((day) => day.views));
  const lines = [
    `Website report ${report.from} to ${report.to} (UTC days)`,
    "",
    "Funnel                      count  of views  of previous step",
    ...funnelSteps(report.totals).map((step) =>
      `  ${step.label.padEnd(22)}${pad(step.count, 8)}${pad(step.ofViews, 10)}${pad(step.ofPrevious, 10)}`.trimEnd(),
    ),
    `  ${"Requests that failed".padEnd(22)}${pad(report.totals.failures, 8)}`,
    "",
    "Top campaigns (views / taps / starts / requests)",
    ...(report.campaigns.length === 0
      ? ["  none"]
      : report.campaigns
          .slice(0, TOP)
          .map(
            (row) =>
              `  ${campaignName(row)}: ${row.views} / ${row.ctaTaps} / ${row.formStarts} / ${row.requests} (${percent(row.requests, row.views)} of views)`,
          )),
    "",
    "Top referrers (views)",
    ...(report.referrers.length === 0
      ? ["  none"]
      : report.referrers.slice(0, TOP).map((row) => `  ${row.domain}: ${row.views}`)),
    "",
    "Calls to action (taps)",
    ...(report.ctas.length === 0
      ? ["  none"]
      : report.ctas.map((row) => `  ${row.id}: ${row.taps}`)),
    "",
    "Per day (views, requests)",
    ...report.days.map((day) =>
      `  ${formatDay(day.date, { weekday: "short", month: "short", day: "numeric" }).padEnd(12)}${pad(day.views, 6)}${pad(day.requests, 4)}  ${"#".repeat(Math.round((24 * day.views) / most))}`.trimEnd(),
    ),
    "",
    "--",
    "Counted without cookies or personal data (docs/analytics.md). In the dashboard: site_funnel_daily.",
  ];
  return `${lines.join("\n")}\n`;
}

const escapeHtml = (text: string | number): string =>
  String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

const FONT = "font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1f2933;";
const CELL = `${FONT}padding:4px 8px;border-bottom:1px solid #e4e7eb;`;
const NUMBER = `${CELL}text-align:right;`;
const HEAD = `${CELL}font-weight:bold;background-color:#f5f7fa;`;

function table(headers: string[], rows: (string | number)[][], numeric: boolean[]): string {
  const head = headers
    .map(
      (text, index) =>
        `<th align="${numeric[index] ? "right" : "left"}" style="${HEAD}">${escapeHtml(text)}</th>`,
    )
    .join("");
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, index) => `<td align="${numeric[index] ? "right" : "left"}" style="${numeric[index] ? NUMBER : CELL}">${escapeHtml(cell)}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 20px 0;"><tr>${head}</tr>${body}</table>`;
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
        `<tr><td style="${CELL}white-space:nowrap;">${escapeHtml(formatDay(day.date, { weekday: "short", month: "short", day: "numeric" }))}</td>` +
        `<td style="${CELL}">${bar(day.views, most, "#2563eb")}</td>` +
        `<td align="right" style="${NUMBER}">${day.views}</td><td align="right" style="${NUMBER}">${day.requests}</td></tr>`,
    )
    .join("");
  const steps = funnelSteps(report.totals);
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
      [
        ...steps.map((step) => [step.label, step.count, step.ofViews, step.ofPrevious]),
        ["Requests that failed", report.totals.failures, "", ""],
      ],
      [false, true, true, true],
    ),
    heading("Per day"),
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 20px 0;">`,
    `<tr><th align="left" style="${HEAD}">Day</th><th align="left" style="${HEAD}">Page views</th><th align="right" style="${HEAD}">Views</th><th align="right" style="${HEAD}">Requests</th></tr>${dayRows}</table>`,
    heading("Top campaigns"),
    report.campaigns.length === 0
      ? `<p style="${FONT}">No visits.</p>`
      : table(
          [
            "Campaign (source / medium / campaign)",
            "Views",
            "Taps",
            "Starts",
            "Requests",
            "Request rate",
          ],
          report.campaigns
            .slice(0, TOP)
            .map((row) => [
              campaignName(row),
              row.views,
              row.ctaTaps,
              row.formStarts,
              row.requests,
              percent(row.requests, row.views),
            ]),
          [false, true, true, true, true, true],
        ),
    heading("Top referrers"),
    report.referrers.length === 0
      ? `<p style="${FONT}">No visits from other sites.</p>`
      : table(
          ["Site", "Views"],
          report.referrers.slice(0, TOP).map((row) => [row.domain, row.views]),
          [false, true],
        ),
    heading("Calls to action"),
    report.ctas.length === 0
      ? `<p style="${FONT}">No taps.</p>`
      : table(
          ["Call to action", "Taps"],
          report.ctas.map((row) => [row.id, row.taps]),
          [false, true],
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
