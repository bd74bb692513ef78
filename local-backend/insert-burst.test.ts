/** 500 requests from 50 concurrent clients: each stored once or refused with why, then still served. */
import { goodRow, uniqueEmail } from "./test-support/helpers";
import { json, restTestBackend, type Sent } from "./test-support/rest-client";

jest.setTimeout(90_000);

const { backend, send } = restTestBackend();

describe("a burst: 500 requests from 50 concurrent clients", () => {
  test("every accepted request is stored exactly once; every refused one says why", async () => {
    const run = Date.now().toString(36);
    const plan: { email: string; marker: string }[] = [];
    // 90 addresses × 5 requests (all within the limit) + 5 addresses × 10 (5 over the limit each).
    for (let a = 0; a < 95; a += 1) {
      const email = `burst-${run}-${a}@example.org`;
      const times = a < 90 ? 5 : 10;
      for (let t = 0; t < times; t += 1)
        plan.push({ email, marker: `burst ${run} #${plan.length}` });
    }
    expect(plan).toHaveLength(500);
    // Shuffle so requests for one address overlap in time.
    for (let i = plan.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [plan[i], plan[j]] = [plan[j]!, plan[i]!];
    }
    const outcomes = new Map<string, Sent>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < plan.length) {
          const item = plan[next]!;
          next += 1;
          outcomes.set(
            item.marker,
            await send(json(goodRow({ email: item.email, message: item.marker }))),
          );
        }
      }),
    );

    const stored = await backend().db.query<{ message: string; n: number }>(
      "select message, count(*)::int as n from public.contacts where message like $1 group by message",
      [`burst ${run} #%`],
    );
    const storedCount = new Map(stored.rows.map((row) => [row.message, row.n]));
    const accepted = [...outcomes].filter(([, sent]) => sent.status === 201);
    const refused = [...outcomes].filter(([, sent]) => sent.status !== 201);
    expect(accepted).toHaveLength(475);
    expect(refused).toHaveLength(25);
    for (const [marker] of accepted) expect(storedCount.get(marker)).toBe(1);
    for (const [marker, sent] of refused) {
      expect(sent.status).toBe(429);
      expect(sent.body).toMatchObject({
        code: "PT429",
        message: "Too many meeting requests from this e-mail address",
      });
      expect(storedCount.has(marker)).toBe(false);
    }
    expect(stored.rows).toHaveLength(475);
    const perAddress = await backend().db.query<{ n: number }>(
      "select count(*)::int as n from public.contacts where email like $1 group by lower(email)",
      [`burst-${run}-%`],
    );
    expect(perAddress.rows.every((row) => row.n === 5)).toBe(true);
    // Still serving.
    expect((await send(json(goodRow({ email: uniqueEmail("after-burst") })))).status).toBe(201);
  });
});
