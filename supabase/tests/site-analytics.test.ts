/**
 * Site analytics (20261128000009_site_analytics.sql, …11_site_analytics_report.sql). Who may call
 * what: advisor.test.ts.
 */
import { rejection } from "../../local-backend/test-support/helpers";
import { asStaff, asVisitor, migrated, one } from "./harness";

jest.setTimeout(120_000);

const db = migrated();
const limits = { events_per_client_hour: 600, new_counters_per_day: 1000 }; // docs/analytics.md
beforeEach(() =>
  db().exec(
    "delete from private.site_event_counts; delete from private.site_event_clients; delete from private.site_event_salts; delete from private.site_report_runs",
  ),
);

const BROWSER = {
  "cf-connecting-ip": "203.0.113.7",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
};

/** POST /rest/v1/rpc/record_site_event as PostgREST runs it: role anon, the request's headers. */
const record = (event: unknown, headers: Record<string, string> = BROWSER) =>
  asVisitor(db(), headers, (tx) =>
    tx.query("select public.record_site_event($1)", [
      typeof event === "string" ? event : JSON.stringify(event),
    ]),
  );

/** Each counter as [kind, source, medium, campaign, referrer, cta, count]. */
const counters = async () =>
  (
    await db().query<{ row: unknown[] }>(
      "select array[kind, source, medium, campaign, referrer, cta, count::text] as row from private.site_event_counts order by kind, source, referrer, cta",
    )
  ).rows.map(({ row }) => [...row.slice(0, 6), Number(row[6])]);

const TODAY = "(now() at time zone 'UTC')::date";

describe("recording", () => {
  test("a page view, a tap, a form start and a request each add one to their counter", async () => {
    const campaign = { source: "linkedin", medium: "social", campaign: "expo-2025" };
    await record({ kind: "view", ...campaign, referrer: "linkedin.com" });
    await record({ kind: "view", ...campaign, referrer: "linkedin.com" });
    await record({ kind: "cta", ...campaign, cta: "hero" });
    await record({ kind: "form_start", ...campaign });
    await record({ kind: "request_sent", ...campaign });
    await record({ kind: "request_failed" });
    expect(await counters()).toEqual([
      ["cta", "linkedin", "social", "expo-2025", "", "hero", 1],
      ["form_start", "linkedin", "social", "expo-2025", "", "", 1],
      ["request_failed", "", "", "", "", "", 1],
      ["request_sent", "linkedin", "social", "expo-2025", "", "", 1],
      ["view", "linkedin", "social", "expo-2025", "linkedin.com", "", 2],
    ]);
  });

  test("campaign tags are stored normalised: trimmed, lower case, spaces as dashes", async () => {
    await record({
      kind: "view",
      source: "  LinkedIn ",
      medium: "Paid  Social",
      campaign: "Expo_2025.v2",
    });
    expect(await counters()).toEqual([
      ["view", "linkedin", "paid-social", "expo_2025.v2", "", "", 1],
    ]);
  });

  test.each([
    ["not JSON", "view"],
    ["a JSON array", "[]"],
    ["a JSON string", '"view"'],
    ["no kind", {}],
    ["an unknown kind", { kind: "purchase" }],
    ["an unknown field", { kind: "view", visitor: "abc" }],
    ["a number where text belongs", { kind: "view", source: 5 }],
    ["a null field", { kind: "view", source: null }],
    ["a tag over 40 characters", { kind: "view", source: "a".repeat(41) }],
    ["a tag with other characters", { kind: "view", campaign: "spring<sale>" }],
    ["a tag with non-ASCII letters", { kind: "view", campaign: "été" }],
    ["a referrer with a path", { kind: "view", referrer: "example.com/page?q=1" }],
    ["a referrer that is an IP address", { kind: "view", referrer: "192.168.1.20" }],
    ["a referrer without a dot", { kind: "view", referrer: "localhost" }],
    ["a referrer on a tap", { kind: "cta", cta: "hero", referrer: "example.com" }],
    [
      "a referrer over 253 characters",
      { kind: "view", referrer: `${"a".repeat(60)}.`.repeat(4) + "example.com" },
    ],
    ["a tap without its id", { kind: "cta" }],
    ["an unknown call to action", { kind: "cta", cta: "header" }],
    ["offering-0", { kind: "cta", cta: "offering-0" }],
    ["offering-100", { kind: "cta", cta: "offering-100" }],
    ["a call-to-action id on a view", { kind: "view", cta: "hero" }],
    [
      "a body over 1000 characters",
      JSON.stringify({ kind: "view", source: "x" }).padEnd(1001, " "),
    ],
  ])("refused with 22023: %s", async (_what, event) => {
    expect((await rejection(record(event))).code).toBe("22023");
    expect(await counters()).toEqual([]);
  });

  test("the limits at their edges: a 40-character tag, a 253-character domain, offering-99", async () => {
    const domain = `${"a".repeat(61)}.`.repeat(3) + "b".repeat(63) + ".com"; // labels of 61 and 63
    expect(domain).toHaveLength(253);
    await record({ kind: "view", source: "a".repeat(40), referrer: domain });
    await record({ kind: "cta", cta: "offering-99" });
    expect((await counters()).map((row) => row[6])).toEqual([1, 1]);
  });

  test("with Sec-GPC: 1 or DNT: 1 nothing is counted, and the call still succeeds", async () => {
    await record({ kind: "view" }, { ...BROWSER, "sec-gpc": "1" });
    await record({ kind: "view" }, { ...BROWSER, dnt: "1" });
    expect(await counters()).toEqual([]);
    expect((await db().query("select * from private.site_event_clients")).rows).toEqual([]);
    await record({ kind: "view" }, { ...BROWSER, dnt: "0" });
    expect(await counters()).toHaveLength(1);
  });
});

describe("limits", () => {
  test("each client is counted up to the hourly allowance, then answered 429; other clients still count", async () => {
    for (let i = 0; i < limits.events_per_client_hour; i += 1) await record({ kind: "view" });
    expect(await rejection(record({ kind: "view" }))).toMatchObject({
      code: "PT429",
      message: "Too many site events from this client this hour",
    });
    await record({ kind: "view" }, { "cf-connecting-ip": "198.51.100.4" });
    expect(await counters()).toEqual([
      ["view", "", "", "", "", "", limits.events_per_client_hour + 1],
    ]);
  });

  test("new counters per day stop at the cap with 429; existing counters keep counting", async () => {
    // Fill the day up to one below the cap directly, then create the last one through the function.
    await db().query(
      `insert into private.site_event_counts (day, kind, source, count)
       select ${TODAY}, 'view', 'tag-' || i, 1 from generate_series(1, $1::int - 1) i`,
      [limits.new_counters_per_day],
    );
    await record({ kind: "view", source: "last-one" });
    const tooMany = record(
      { kind: "view", source: "one-too-many" },
      { "cf-connecting-ip": "198.51.100.5" },
    );
    expect(await rejection(tooMany)).toMatchObject({
      code: "PT429",
      message: "Too many different site counters today",
    });
    await record({ kind: "view", source: "tag-1" }, { "cf-connecting-ip": "198.51.100.6" });
    const stored = await db().query(
      "select count(*)::int as n, (sum(count) filter (where source = 'tag-1'))::int as tag1 from private.site_event_counts",
    );
    expect(stored.rows[0]).toEqual({ n: limits.new_counters_per_day, tag1: 2 });
  });
});

test("nothing stored identifies a visitor: no address, no user agent; the limiter keeps a salted hash for the current hour only", async () => {
  await record({ kind: "view", source: "qr", medium: "print", referrer: "news.example.org" });
  const everything = JSON.stringify([
    ...(await db().query("select * from private.site_event_counts")).rows,
    ...(await db().query("select * from private.site_event_clients")).rows,
  ]);
  expect(everything).not.toContain("203.0.113.7");
  expect(everything).not.toContain("Mozilla");
  const columns = await one(
    db(),
    "select string_agg(column_name, ', ' order by ordinal_position) as value from information_schema.columns where table_schema = 'private' and table_name = 'site_event_counts'",
  );
  expect(columns).toBe("day, kind, source, medium, campaign, referrer, cta, count");
  // An hour later the previous hour's buckets and salt are gone with the first event.
  await db().exec(
    "update private.site_event_clients set hour = hour - interval '1 hour'; update private.site_event_salts set hour = hour - interval '1 hour'",
  );
  await record({ kind: "view" }, { "cf-connecting-ip": "198.51.100.9" });
  expect((await db().query("select * from private.site_event_clients")).rows).toHaveLength(1);
  expect((await db().query("select * from private.site_event_salts")).rows).toHaveLength(1);
});

describe("reading", () => {
  const funnel = ([views, ctaTaps, formStarts, requests]: number[]) =>
    ({ views, ctaTaps, formStarts, requests, failures: 0, meetings: 0 }) as Record<string, unknown>;

  beforeEach(async () => {
    const flyer = { source: "flyer", medium: "qr" };
    const mail = { source: "newsletter", medium: "email", campaign: "invite" };
    for (const event of [
      ...Array.from({ length: 3 }, () => ({ kind: "view", ...flyer })),
      { kind: "cta", ...flyer, cta: "hero" },
      { kind: "form_start", ...flyer },
      { kind: "request_sent", ...flyer },
      { kind: "view", ...mail, referrer: "mail.example.com" },
      { kind: "cta", ...mail, cta: "expo" },
      { kind: "view", referrer: "www.linkedin.com" },
    ])
      await record(event);
    // Yesterday's view, written directly.
    await db().exec(
      `insert into private.site_event_counts (day, kind, count) values (${TODAY} - 1, 'view', 4)`,
    );
  });

  test("site_funnel_daily has the funnel per day and campaign, for the service role", async () => {
    const rows = await asStaff(
      db(),
      `select source, medium, campaign, views::int, cta_taps::int, form_starts::int, requests::int, failures::int from public.site_funnel_daily where day = ${TODAY}`,
    );
    expect(rows.map(Object.values)).toEqual([
      ["flyer", "qr", "", 3, 1, 1, 1, null],
      ["", "", "", 1, null, null, null, null],
      ["newsletter", "email", "invite", 1, 1, null, null, null],
    ]);
  });

  test("site_analytics_report has totals, campaigns, referrers, taps per call to action and every day of the range", async () => {
    type Report = { from: string; to: string; days: { date: string; views: number }[] };
    const sql = `select public.site_analytics_report(${TODAY} - 2, ${TODAY}) as report`;
    const { from, to, days, ...rest } = (await asStaff<{ report: Report }>(db(), sql))[0]!.report;
    expect(Date.parse(to) - Date.parse(from)).toBe(2 * 86_400_000);
    expect(days.map((day) => day.views)).toEqual([0, 4, 5]);
    expect(days[0]!.date).toBe(from);
    expect(rest).toEqual({
      totals: funnel([9, 2, 1, 1]),
      campaigns: [
        { source: "", medium: "", campaign: "", ...funnel([5, 0, 0, 0]) },
        { source: "flyer", medium: "qr", campaign: "", ...funnel([3, 1, 1, 1]) },
        { source: "newsletter", medium: "email", campaign: "invite", ...funnel([1, 1, 0, 0]) },
      ],
      referrers: [
        { domain: "mail.example.com", views: 1 },
        { domain: "www.linkedin.com", views: 1 },
      ],
      ctas: [
        { id: "expo", taps: 1 },
        { id: "hero", taps: 1 },
      ],
    });
  });

  test("claim_site_report hands out each period's report once, as the notification function's body", async () => {
    type Body = { report: { from: string; to: string } } | null;
    const claim = async (kind: string) =>
      (
        await asStaff<{ body: Body }>(db(), "select public.claim_site_report($1) as body", [kind])
      )[0]!.body;
    const first = await claim("daily");
    expect(first).toMatchObject({
      type: "REPORT",
      kind: "daily",
      report: { totals: { views: 4 } },
    });
    expect(first!.report.from).toBe(first!.report.to);
    expect(await claim("daily")).toBeNull();
    const weekly = (await claim("weekly"))!.report;
    expect([new Date(weekly.from).getUTCDay(), new Date(weekly.to).getUTCDay()]).toEqual([1, 0]); // Monday to Sunday
    expect((await rejection(claim("hourly"))).code).toBe("22023");
  });
});
