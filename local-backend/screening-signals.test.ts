/**
 * The screening's content signals on realistic and spam text (local-backend/screening-corpus.ts;
 * the figures in docs/notifications.md), and the verdict and notification state each kind of
 * request gets (20261124110000_request_screening.sql, 20261126110000_one_by_one_budgets.sql).
 */

import { REAL_REQUESTS, SPAM_REQUESTS, spamRequest } from "./screening-corpus";
import { screeningDatabase } from "./screening-harness";
import { goodRow, insertAs, pendingProof } from "./test-helpers";

jest.setTimeout(120_000);

const { db, asService, send, sendVerified, screened, signalsOf } = screeningDatabase();

describe("content signals", () => {
  test("no realistic request is flagged; every spam text is (the figures in docs/notifications.md)", async () => {
    const flaggedReal = [];
    for (const row of REAL_REQUESTS)
      if ((await signalsOf(row)).length > 0) flaggedReal.push(row.name);
    expect(REAL_REQUESTS.length).toBe(40);
    expect(flaggedReal).toEqual([]);
    const hits = [];
    for (const row of SPAM_REQUESTS) hits.push((await signalsOf(row)).join(","));
    expect(hits).toEqual([
      "links",
      "links",
      "links",
      "links",
      "gibberish",
      "gibberish",
      "links",
      "links",
      "links",
      "links",
    ]);
  });

  test("links: one link in the message is a real visitor's RFP; two are a signal; any in the name or organization is one", async () => {
    const row = (message: string, name = "Ann Lee", organization = "Metro") => ({
      ...goodRow(),
      name,
      organization,
      message,
    });
    expect(await signalsOf(row("Our RFP: https://city.example.gov/rfp"))).toEqual([]);
    expect(await signalsOf(row("See https://a.example and www.b.example"))).toEqual(["links"]);
    expect(await signalsOf(row('<a href="x">y</a> [url=z]w[/url]'))).toEqual(["links"]);
    expect(await signalsOf(row("Hello", "Visit www.spam.example"))).toEqual(["links"]);
    expect(await signalsOf(row("Hello", "Ann", "https://agency.example"))).toEqual(["links"]);
  });

  test("gibberish: two random-looking words that make 30% of the words; one such word or a long name is not", async () => {
    const row = (message: string, name = "Ann Lee") => ({
      ...goodRow(),
      name,
      organization: "Metro",
      message,
    });
    expect(await signalsOf(row("qwrtzpsdfg then some ordinary words here"))).toEqual([]);
    // 2 random words of 6 (with the name and organization's words): 2/7 < 30%.
    expect(await signalsOf(row("qwrtzpsdfg xkcdqwrtpl with some ordinary words"))).toEqual([]);
    // 2 of 6: 33%.
    expect(await signalsOf(row("qwrtzpsdfg xkcdqwrtpl with some words"))).toEqual(["gibberish"]);
    expect(
      await signalsOf(
        row("Wir brauchen Echtzeitdaten", "Grzegorz Brzęczyszczykiewicz Schwarzschild"),
      ),
    ).toEqual([]);
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
    expect(
      await screened(await send({ ...goodRow(), message: text }, "203.0.113.9")),
    ).toMatchObject({ signals: ["repeated-text"], verdict: "suspect" });
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
      expect(
        (await screened(await sendVerified({ ...pageDefaults, email: `li${i}@agency.example` })))
          .verdict,
      ).toBe("page-verified");
      expect(
        (await screened(await sendVerified({ ...goodRow(), message: "Demo please, thanks!" })))
          .verdict,
      ).toBe("page-verified");
    }
  });
});

describe("verdicts and notification states", () => {
  test("page-verified: notified one by one, first; no or a bad proof: the digest; pending: held 2 minutes", async () => {
    expect(await screened(await sendVerified())).toEqual({
      verdict: "page-verified",
      proof: "verified",
      signals: [],
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
    const wait = await db().query<{ s: number }>(
      "select extract(epoch from next_attempt_at - now())::int as s from public.contact_notifications where contact_id = $1",
      [held],
    );
    expect(wait.rows[0]!.s).toBeGreaterThan(110);
    expect(wait.rows[0]!.s).toBeLessThanOrEqual(120);
  });

  test("a page-proved request is never held back for its words alone: spam-looking, it is still e-mailed one by one, its signals noted", async () => {
    for (const [index, row] of SPAM_REQUESTS.entries()) {
      expect(await screened(await sendVerified(row, `203.0.113.${100 + index}`))).toMatchObject({
        verdict: "page-verified",
        proof: "verified",
        status: "pending",
        priority: 0,
      });
    }
    expect((await screened(await sendVerified(spamRequest(0)))).signals).toEqual(["links"]);
    // Without the proof the same text is suspect.
    expect(await screened(await send(spamRequest(0), "192.0.2.2"))).toMatchObject({
      verdict: "suspect",
      status: "digest",
    });
  });

  test("staff's own inserts (service role) are not screened and are notified as before", async () => {
    await asService((tx) => insertAs(tx, goodRow()));
    const result = await db().query(
      "select n.status, s.contact_id from public.contact_notifications n left join public.contact_screening s using (contact_id)",
    );
    expect(result.rows).toEqual([{ status: "pending", contact_id: null }]);
  });
});
