/**
 * The screening of visitor requests (20261128000004_request_screening.sql), its content signals
 * measured on screening-corpus.ts (the figures of docs/notifications.md).
 */
import { asRole, goodRow, pendingProof, rejection } from "../../local-backend/test-support/helpers";
import { insertAs, migrated, one, screeningSteps } from "./harness";
import { REAL_REQUESTS, SPAM_REQUESTS, spamRequest } from "./screening-corpus";

jest.setTimeout(120_000);

const db = migrated();
const { send, sendVerified, screened, confirm } = screeningSteps(db);

const signalsOf = (name: string, organization: string, message: string) =>
  one<string[]>(db(), "select private.content_signals($1, $2, $3) as value", [
    name,
    organization,
    message,
  ]);

describe("content signals", () => {
  test("no realistic request is flagged; every spam text is (the figures in docs/notifications.md)", async () => {
    expect(REAL_REQUESTS).toHaveLength(40);
    const flagged = [];
    for (const row of REAL_REQUESTS)
      if ((await signalsOf(row.name, row.organization, row.message)).length > 0)
        flagged.push(row.name);
    expect(flagged).toEqual([]);
    const hits = [];
    for (const row of SPAM_REQUESTS)
      hits.push((await signalsOf(row.name, row.organization, row.message)).join());
    expect(hits.join(" ")).toBe(
      "links links links links gibberish gibberish links links links links",
    );
  });

  test.each<[string, string, string, [name: string, organization: string]?]>([
    ["one link in the message (a real visitor's RFP)", "Our RFP: https://city.example.gov/rfp", ""],
    ["two links in the message", "See https://a.example and www.b.example", "links"],
    ["HTML and BBCode links", '<a href="x">y</a> [url=z]w[/url]', "links"],
    ["one random-looking word", "qwrtzpsdfg then some ordinary words here", ""],
    ["2 random words of 7 (under 30%)", "qwrtzpsdfg xkcdqwrtpl with some ordinary words", ""],
    ["2 random words of 6 (33%)", "qwrtzpsdfg xkcdqwrtpl with some words", "gibberish"],
    ["a link in the name", "Hello", "links", ["Visit www.spam.example", "Metro"]],
    ["a link in the organization", "Hello", "links", ["Ann", "https://agency.example"]],
    [
      "long names",
      "Wir brauchen Echtzeitdaten",
      "",
      ["Grzegorz Brzęczyszczykiewicz Schwarzschild", "Metro"],
    ],
  ])("%s: [%s]", async (_label, message, expected, [name, organization] = ["Ann Lee", "Metro"]) => {
    expect((await signalsOf(name, organization, message)).join()).toBe(expected);
  });

  test("repeated text: the third request with the same free text in the window is flagged, from any sender, and a page-proved one is still e-mailed", async () => {
    const text = "Please see our special offer for transit agencies today";
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(
        await sendVerified(
          { ...goodRow(), message: `Challenges/Questions: ${text.toUpperCase()}!` },
          `203.0.113.${i}`,
        ),
      );
    expect((await screened(ids[1]!)).signals).toEqual([]);
    // Never held for its words: the venue's visitors may well write the same sentence.
    expect(await screened(ids[2]!)).toMatchObject({
      signals: ["repeated-text"],
      verdict: "page-verified",
      status: "pending",
      priority: 0,
    });
    const unproved = await send({ ...goodRow(), message: text }, "203.0.113.9");
    expect(await screened(unproved)).toMatchObject({
      signals: ["repeated-text"],
      verdict: "suspect",
    });
    await db().query(
      "update public.contact_screening set screened_at = screened_at - interval '61 minutes'",
    );
    expect((await screened(await sendVerified({ ...goodRow(), message: text }))).signals).toEqual(
      [],
    );
  });

  test("repeated text ignores the page's labelled answers and texts under 20 characters", async () => {
    const pageDefaults = REAL_REQUESTS.find((row) => row.name === "Li Wei")!;
    for (let i = 0; i < 4; i += 1) {
      const sameAnswers = await sendVerified({ ...pageDefaults, email: `li${i}@agency.example` });
      const short = await sendVerified({ ...goodRow(), message: "Demo please, thanks!" });
      for (const id of [sameAnswers, short])
        expect((await screened(id)).verdict).toBe("page-verified");
    }
  });
});

describe("verdicts and notification states", () => {
  test("page-verified: notified one by one, first; no or a bad proof: the digest; pending: held 2 minutes", async () => {
    expect(await screened(await sendVerified())).toEqual({
      verdict: "page-verified",
      proof: "verified",
      signals: [],
      budget: "one-by-one",
      status: "pending",
      priority: 0,
    });
    expect(await screened(await send(goodRow(), "192.0.2.1"))).toMatchObject({
      verdict: "suspect",
      proof: "missing",
      status: "digest",
    });
    expect(await screened(await send(goodRow(), "192.0.2.1", "garbage"))).toMatchObject({
      verdict: "suspect",
      proof: "invalid",
      status: "digest",
    });
    const held = await send(goodRow(), "192.0.2.1", pendingProof().header);
    expect(await screened(held)).toMatchObject({
      verdict: "awaiting-proof",
      proof: "pending",
      status: "held",
    });
    const wait = await one<number>(
      db(),
      "select extract(epoch from next_attempt_at - now())::int as value from public.contact_notifications where contact_id = $1",
      [held],
    );
    expect(wait).toBeGreaterThan(110);
    expect(wait).toBeLessThanOrEqual(120);
  });

  test("a page-proved request is never held back for its words alone: spam-looking, it is still e-mailed one by one, its signals noted", async () => {
    for (const [index, row] of SPAM_REQUESTS.entries())
      expect(await screened(await sendVerified(row, `203.0.113.${100 + index}`))).toMatchObject({
        verdict: "page-verified",
        proof: "verified",
        status: "pending",
        priority: 0,
      });
    expect((await screened(await sendVerified(spamRequest(0)))).signals).toEqual(["links"]);
    // Without the proof the same text is suspect.
    expect(await screened(await send(spamRequest(0), "192.0.2.2"))).toMatchObject({
      verdict: "suspect",
      status: "digest",
    });
  });

  test("staff's own inserts (service role) are not screened and are notified one by one", async () => {
    await asRole(db(), "service_role", (tx) => insertAs(tx, goodRow()));
    const result = await db().query(
      "select n.status, s.contact_id from public.contact_notifications n left join public.contact_screening s using (contact_id)",
    );
    expect(result.rows).toEqual([{ status: "pending", contact_id: null }]);
  });
});

describe("caps on rows without a page proof", () => {
  const fill = async (count: number, address: string) => {
    for (let i = 0; i < count; i += 1) await send(goodRow(), address);
  };

  test("per client address: the 20th in an hour is stored, the 21st refused with PT429 and a reason", async () => {
    await fill(19, "192.0.2.10");
    await send(goodRow(), "192.0.2.10", pendingProof().header); // pending counts too: the 20th
    expect(await rejection(send(goodRow(), "192.0.2.10"))).toMatchObject({
      code: "PT429",
      message: "Too many meeting requests without the page's proof from this network address",
      detail: expect.stringMatching(
        /At most 20 meeting requests that were not verified/,
      ) as unknown,
      hint: expect.stringMatching(/site's form/) as unknown,
    });
    // Another address, and a page-verified request from the same one, are not affected.
    await send(goodRow(), "192.0.2.11");
    for (let i = 0; i < 30; i += 1) await sendVerified(goodRow(), "192.0.2.10");
    // An hour later the address may send again.
    await db().query(
      "update public.contact_screening set screened_at = screened_at - interval '61 minutes'",
    );
    await send(goodRow(), "192.0.2.10");
  });

  test("a confirmed pending request no longer counts against its address", async () => {
    const tickets = Array.from({ length: 20 }, pendingProof);
    for (const ticket of tickets) await send(goodRow(), "192.0.2.20", ticket.header);
    expect((await rejection(send(goodRow(), "192.0.2.20"))).code).toBe("PT429");
    await confirm(tickets[0]!.ticketHash);
    await send(goodRow(), "192.0.2.20");
  });

  test("overall: 200 in an hour from all addresses together, then PT429 for everyone unverified", async () => {
    for (let client = 0; client < 10; client += 1)
      await fill(client === 9 ? 19 : 20, `192.0.2.${100 + client}`);
    await send(goodRow(), "192.0.2.120"); // the 200th
    expect(await rejection(send(goodRow(), "192.0.2.121"))).toMatchObject({
      code: "PT429",
      message: "Too many meeting requests without the page's proof right now",
    });
    await sendVerified(goodRow(), "192.0.2.121");
    expect(await one(db(), "select count(*)::int as value from public.contacts")).toBe(201);
  });
});

describe("the client address", () => {
  const address = (headers: string | null) =>
    one(db(), "select private.client_address($1) as value", [headers]);
  const XFF = { "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" };

  test.each([
    [{ "cf-connecting-ip": "2001:db8:1:2:aaaa::1" }, "2001:db8:1:2::/64"],
    [{ "cf-connecting-ip": "2001:db8:1:2:ffff:ffff:ffff:ffff" }, "2001:db8:1:2::/64"],
    [{ "cf-connecting-ip": "203.0.113.9", ...XFF }, "203.0.113.9"],
    [XFF, "unknown"],
    [{ "cf-connecting-ip": "not an address" }, "unknown"],
  ])("headers %j: client %p (CF-Connecting-IP alone, IPv6 per /64)", async (headers, ip) => {
    expect(await address(JSON.stringify(headers))).toBe(ip);
  });

  test("no headers at all are the one client 'unknown'; only a keyed hash is stored, never the address", async () => {
    expect(await address(null)).toBe("unknown");
    const id = await send(goodRow(), "198.51.100.77");
    const stored = await one<string>(
      db(),
      "select client_key as value from public.contact_screening where contact_id = $1",
      [id],
    );
    expect(stored).toMatch(/^[0-9a-f]{32}$/);
    const dump = await one<string>(
      db(),
      "select string_agg(row_to_json(s)::text, ',') as value from public.contact_screening s",
    );
    expect(dump).not.toContain("198.51.100.77");
    const unkeyed =
      "select left(encode(sha256(convert_to(':198.51.100.77', 'UTF8')), 'hex'), 32) as value";
    expect(stored).not.toBe(await one(db(), unkeyed));
  });
});
