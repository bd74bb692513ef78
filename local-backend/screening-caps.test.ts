/**
 * The caps on rows without a page proof, per client address and in all, at their limits; and how
 * the client address is read (CF-Connecting-IP only, IPv6 per /64, stored as a keyed hash).
 */

import { screeningDatabase } from "./screening-harness";
import { goodRow, pendingProof, rejection } from "./test-helpers";

jest.setTimeout(120_000);

const { db, send, sendVerified } = screeningDatabase();

describe("caps on rows without a page proof", () => {
  async function fill(count: number, address: string, proof?: string): Promise<void> {
    for (let i = 0; i < count; i += 1) await send(goodRow(), address, proof);
  }

  test("per client address: the 20th in an hour is stored, the 21st refused with PT429 and a reason", async () => {
    await fill(19, "192.0.2.10");
    await send(goodRow(), "192.0.2.10", pendingProof().header); // pending counts too: the 20th
    const refused = (await rejection(send(goodRow(), "192.0.2.10"))) as {
      code?: string;
      message: string;
      detail?: string;
      hint?: string;
    };
    expect(refused.code).toBe("PT429");
    expect(refused.message).toBe(
      "Too many meeting requests without the page's proof from this network address",
    );
    expect(refused.detail).toMatch(/At most 20 meeting requests that were not verified/);
    expect(refused.hint).toMatch(/site's form/);
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
    const tickets = [];
    for (let i = 0; i < 20; i += 1) {
      const ticket = pendingProof();
      tickets.push(ticket);
      await send(goodRow(), "192.0.2.20", ticket.header);
    }
    expect((await rejection(send(goodRow(), "192.0.2.20"))).code).toBe("PT429");
    await db().query("select private.form_proof_confirmed($1)", [tickets[0]!.ticketHash]);
    await send(goodRow(), "192.0.2.20");
  });

  test("overall: 200 in an hour from all addresses together, then PT429 for everyone unverified", async () => {
    for (let client = 0; client < 10; client += 1)
      await fill(client === 9 ? 19 : 20, `192.0.2.${100 + client}`);
    await send(goodRow(), "192.0.2.120"); // the 200th
    const refused = (await rejection(send(goodRow(), "192.0.2.121"))) as {
      code?: string;
      message: string;
    };
    expect(refused.code).toBe("PT429");
    expect(refused.message).toBe("Too many meeting requests without the page's proof right now");
    await sendVerified(goodRow(), "192.0.2.121");
    expect(await db().query("select count(*)::int as n from public.contacts")).toMatchObject({
      rows: [{ n: 201 }],
    });
  });
});

describe("the client address", () => {
  async function key(headers: Record<string, string>): Promise<string> {
    const result = await db().query<{ key: string }>(
      "select private.client_key(private.client_address($1)) as key",
      [JSON.stringify(headers)],
    );
    return result.rows[0]!.key;
  }

  test("X-Forwarded-For and X-Real-IP buy no new identity; CF-Connecting-IP names the client", async () => {
    const base = await key({ "cf-connecting-ip": "198.51.100.1" });
    expect(
      await key({
        "cf-connecting-ip": "198.51.100.1",
        "x-forwarded-for": "1.2.3.4",
        "x-real-ip": "5.6.7.8",
      }),
    ).toBe(base);
    expect(await key({ "cf-connecting-ip": "198.51.100.2" })).not.toBe(base);
  });

  test("IPv6 counts per /64; no header or a garbage one is the one client 'unknown'", async () => {
    const address = async (value?: string) =>
      (
        await db().query<{ a: string }>("select private.client_address($1) as a", [
          JSON.stringify(value === undefined ? {} : { "cf-connecting-ip": value }),
        ])
      ).rows[0]!.a;
    expect(await address("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(await address("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(await address("203.0.113.9")).toBe("203.0.113.9");
    expect(await address()).toBe("unknown");
    expect(await address("not an address")).toBe("unknown");
    expect(
      (await db().query<{ a: string }>("select private.client_address(null) as a")).rows[0]!.a,
    ).toBe("unknown");
  });

  test("only a keyed hash is stored, never the address", async () => {
    const id = await send(goodRow(), "198.51.100.77");
    const row = await db().query<{ client_key: string }>(
      "select client_key from public.contact_screening where contact_id = $1",
      [id],
    );
    expect(row.rows[0]!.client_key).toMatch(/^[0-9a-f]{32}$/);
    const dump = await db().query<{ t: string }>(
      "select row_to_json(s)::text as t from public.contact_screening s",
    );
    expect(dump.rows.map((r) => r.t).join()).not.toContain("198.51.100.77");
    const unkeyed = await db().query<{ h: string }>(
      "select left(encode(sha256(convert_to(':198.51.100.77', 'UTF8')), 'hex'), 32) as h",
    );
    expect(row.rows[0]!.client_key).not.toBe(unkeyed.rows[0]!.h);
  });
});
