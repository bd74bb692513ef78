/**
 * The budgets of private.screening_settings (docs/notifications.md, "Budgets"), each just at and
 * just over its limit.
 */
import {
  applyScreeningSettings,
  type ScreeningSettings,
} from "../../local-backend/screening-settings";
import {
  goodRow,
  pendingProof,
  rejection,
  solveFormChallenge,
} from "../../local-backend/test-support/helpers";
import { asStaff, formChallenge, migrated, one, screeningSteps } from "./harness";

jest.setTimeout(120_000);

const db = migrated();
const { send, sendVerified, screened, confirm, waited, claimDigest, statuses } = screeningSteps(db);

/** The screening's settings: `values`, every other one its default (each test starts with these). */
const settings = (values: ScreeningSettings) => applyScreeningSettings(db(), values);
beforeEach(() => settings({}));

/** Moves every decision, screening and challenge back in time, as if `seconds` had passed. */
const later = (seconds: number) =>
  db()
    .exec(`update public.contact_screening set screened_at = screened_at - make_interval(secs => ${seconds}), budget_at = budget_at - make_interval(secs => ${seconds});
    update private.one_by_one_pace set full_again_at = full_again_at - make_interval(secs => ${seconds});
    update private.form_challenges_issued set issued_at = issued_at - make_interval(secs => ${seconds});`);

const budgetOf = async (id: number) => (await screened(id)).budget;

async function sendMany(count: number, address: (index: number) => string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await sendVerified(goodRow(), address(i)));
  return ids;
}

const ONE_BY_ONE = { budget: "one-by-one", status: "pending" };

describe("one-by-one e-mails per address, in any burst, and in all", () => {
  test("per address per window: the 20th page-proved request is e-mailed one by one, the 21st goes to the digest; a window later, again", async () => {
    await settings({ one_by_one_per_address_burst: 1000 });
    const ids = await sendMany(21, () => "203.0.113.1");
    expect(await screened(ids[19]!)).toMatchObject(ONE_BY_ONE);
    expect(await screened(ids[20]!)).toMatchObject({ budget: "over-address", status: "digest" });
    expect(await screened(await sendVerified(goodRow(), "203.0.113.2"))).toMatchObject(ONE_BY_ONE);
    await later(3601);
    expect(await screened(await sendVerified(goodRow(), "203.0.113.1"))).toMatchObject(ONE_BY_ONE);
  });

  test("per address at a pace: 4 at once are e-mailed, the 5th goes to the digest; one more every 15 s, 4 again once the bucket is full", async () => {
    const ids = await sendMany(5, () => "203.0.113.3");
    expect(await screened(ids[3]!)).toMatchObject(ONE_BY_ONE);
    expect(await screened(ids[4]!)).toMatchObject({
      budget: "over-address-burst",
      status: "digest",
    });
    await later(15);
    const [refilled, over] = await sendMany(2, () => "203.0.113.3");
    expect(await screened(refilled!)).toMatchObject(ONE_BY_ONE);
    expect(await budgetOf(over!)).toBe("over-address-burst");
    await later(60);
    const again = await sendMany(5, () => "203.0.113.3");
    expect(await Promise.all(again.map(budgetOf))).toEqual([
      ...Array(4).fill("one-by-one"),
      "over-address-burst",
    ]);
  });

  test("a queue at one booth, one request every 15 s, is e-mailed one by one up to the address's 20 of the hour", async () => {
    const budgets = [];
    for (let i = 0; i < 22; i += 1) {
      budgets.push(await budgetOf(await sendVerified(goodRow(), "203.0.113.14")));
      await later(15);
    }
    expect(budgets).toEqual([...Array(20).fill("one-by-one"), "over-address", "over-address"]);
  });

  test("in all: the 35th one-by-one e-mail of the window from any addresses is sent, the 36th request goes to the digest", async () => {
    const ids = await sendMany(36, (index) => `198.18.0.${index + 1}`);
    expect(await screened(ids[34]!)).toMatchObject(ONE_BY_ONE);
    expect(await screened(ids[35]!)).toMatchObject({ budget: "over-all", status: "digest" });
    await later(3601);
    expect(await screened(await sendVerified(goodRow(), "198.18.1.1"))).toMatchObject(ONE_BY_ONE);
  });

  test("every budget is a setting, the window too: an hour compressed into two minutes", async () => {
    await settings({
      window_seconds: 120,
      one_by_one_per_address: 2,
      one_by_one_per_address_burst: 1000,
    });
    const ids = await sendMany(3, () => "203.0.113.4");
    expect(await Promise.all(ids.slice(1).map(budgetOf))).toEqual(["one-by-one", "over-address"]);
    await later(121);
    expect(await budgetOf(await sendVerified(goodRow(), "203.0.113.4"))).toBe("one-by-one");
  });

  test("a pending request is given its budget when the page confirms it: over budget, it joins the digest at once", async () => {
    await sendMany(4, () => "203.0.113.5");
    const ticket = pendingProof();
    const id = await send(goodRow(), "203.0.113.5", ticket.header);
    expect(await screened(id)).toMatchObject({ budget: null, status: "held" });
    await confirm(ticket.ticketHash);
    expect(await screened(id)).toMatchObject({ budget: "over-address-burst", status: "digest" });
  });

  test("nothing over a budget is refused or dropped: 40 from one address are all stored", async () => {
    await sendMany(40, () => "203.0.113.6");
    expect(await statuses()).toEqual([
      { status: "digest", n: 36 },
      { status: "pending", n: 4 },
    ]);
  });
});

describe("the page proof's price per address", () => {
  const challenge = (address: string) => formChallenge(db(), address);

  test("the first 20 challenges of an address cost the base; then twice as much every 10 more", async () => {
    const maxnumbers: number[] = [];
    for (let i = 0; i < 41; i += 1) maxnumbers.push((await challenge("203.0.113.7")).maxnumber);
    expect(maxnumbers.slice(0, 20)).toEqual(Array(20).fill(50_000));
    expect([maxnumbers[29], maxnumbers[39]]).toEqual([100_000, 200_000]);
    expect(maxnumbers[40]).toBeGreaterThan(maxnumbers[39]!);
    expect((await challenge("203.0.113.8")).maxnumber).toBe(50_000); // another address pays the base
    // A harder challenge is as verifiable as any.
    const hard = solveFormChallenge(await challenge("203.0.113.7"));
    expect(await budgetOf(await send(goodRow(), "203.0.113.7", hard))).toBe("one-by-one");
  });

  test("the 120th challenge of a window is given, the 121st refused with PT429; a window later, the base again", async () => {
    await settings({ challenges_at_base_difficulty: 1000 }); // the count, not the solving, is under test
    for (let i = 0; i < 120; i += 1) await challenge("203.0.113.9");
    expect(await rejection(challenge("203.0.113.9"))).toMatchObject({
      code: "PT429",
      message: "Too many page-proof challenges for this network address",
      detail: "At most 120 challenges are given to one network address per hour.",
    });
    await challenge("203.0.113.10");
    await later(3601);
    expect((await challenge("203.0.113.9")).maxnumber).toBe(50_000);
    expect(
      await one(db(), "select count(*)::int as value from private.form_challenges_issued"),
    ).toBe(1);
  });
});

describe("the digest lists every held request, the likeliest real first", () => {
  test("page-proved before unconfirmed, invalid and missing proofs; fewer signals and quieter addresses first; nothing left out", async () => {
    const flood = [];
    for (let i = 0; i < 3; i += 1) flood.push(await send(goodRow(), "192.0.2.1")); // no proof
    const invalid = await send(goodRow(), "192.0.2.2", "garbage");
    const pending = await send(goodRow(), "192.0.2.3", pendingProof().header);
    await waited(pending);
    await sendMany(4, () => "203.0.113.11");
    const busy = await sendVerified(goodRow(), "203.0.113.11"); // over the burst, 4 before it from its address
    await settings({ one_by_one_in_all: 4 });
    const quiet = await sendVerified(goodRow(), "203.0.113.12"); // over all, its address's first
    const digest = (await claimDigest())[0]!;
    expect(digest.request_count).toBe(7);
    expect(digest.requests.map((held) => held.id)).toEqual([
      quiet,
      busy,
      pending,
      invalid,
      ...flood,
    ]);
    expect(digest.reasons).toEqual({
      "no page proof": 3,
      "invalid page proof": 1,
      "page proof never confirmed": 1,
      "over the address burst budget": 1,
      "over the overall budget": 1,
    });
    expect(digest.requests[1]).toMatchObject({
      held_for: ["over the address burst budget"],
      same_address: 4,
    });
    for (const held of digest.requests)
      expect(held).toMatchObject({
        name: expect.any(String),
        organization: expect.any(String),
        email: expect.stringMatching(/@/),
        message: expect.stringMatching(/./),
      });
    const ranks = await asStaff<{ id: number }>(
      db(),
      "select id from public.meeting_requests_overview where digest = $1 order by digest_rank",
      [digest.digest_id],
    );
    expect(ranks.map((row) => row.id)).toEqual(digest.requests.map((held) => held.id));
  });

  test("a digest of thousands lists the first digest_list_limit and counts all of them", async () => {
    await settings({
      unproved_per_address: 10_000,
      unproved_in_all: 10_000,
      digest_list_limit: 300,
    });
    for (let i = 0; i < 1200; i += 1) await send(goodRow(), `192.0.2.${10 + (i % 200)}`);
    const real = await sendVerified({ ...goodRow(), name: "Real Lead" }, "203.0.113.13");
    await db().query(
      "update public.contact_notifications set status = 'digest' where contact_id = $1",
      [real],
    );
    await db().query(
      "update public.contact_screening set budget = 'over-all' where contact_id = $1",
      [real],
    );
    const digest = (await claimDigest())[0]!;
    expect(digest.request_count).toBe(1201);
    expect(digest.requests).toHaveLength(300);
    expect(digest.requests[0]!.name).toBe("Real Lead");
  });
});
