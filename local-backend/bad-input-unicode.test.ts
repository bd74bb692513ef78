/**
 * Unicode edge cases through the REST path: what PostgreSQL can hold round-trips exactly (combining
 * marks, RTL, emoji, astral letters, controls); lone surrogates and NUL are refused, nothing stored
 * and a good insert still served afterwards (bad-input-harness.ts).
 */
import { badInputBackend, json } from "./bad-input-harness";
import { goodRow } from "./test-helpers";

jest.setTimeout(90_000);

const backend = badInputBackend();
const { send, expectRefused, expectStored } = backend;

describe("unicode edge cases", () => {
  test.each([
    ["combining marks", "Jose\u0301 Mu\u0308ller, A\u030angstro\u0308m"],
    ["RTL text and marks", "\u05e9\u05dc\u05d5\u05dd \u200f\u0645\u0631\u062d\u0628\u0627\u200e"],
    ["emoji with ZWJ, skin tones and flags", "👩🏽‍💼🧑‍🦯🚌🇨🇦🏳️‍🌈"],
    ["astral plane letters", "𝔗𝔯𝔞𝔫𝔰𝔦𝔱 𠜎𠜱"],
    ["escaped surrogate pair", "\ud83d\ude8c"],
    ["C0 control characters (not NUL)", "\u0001\u0002\u0007\b\f\u000b\u001b[2J\u001f"],
    ["DEL and C1 controls", "\u007f\u0080\u009b"],
    ["noncharacters and BOM", "\ufeff\uffff\ufffe"],
  ])("%s round-trip exactly", async (_label, text) => {
    await expectStored(goodRow({ name: text, organization: text, message: text }), {});
  });

  test("a lone surrogate is refused by PostgreSQL's JSON parser (400 / 22P02)", async () => {
    const row = goodRow();
    const body = json({ ...row, name: "PLACEHOLDER" }).replace("PLACEHOLDER", "\\ud800");
    const sent = await expectRefused(
      () => send(body),
      400,
      "22P02",
      "invalid input syntax for type json",
    );
    expect(sent.body?.details).toBe("Unicode low surrogate must follow a high surrogate.");
    const low = json({ ...goodRow(), name: "PLACEHOLDER" }).replace("PLACEHOLDER", "x\\udc00y");
    await expectRefused(() => send(low), 400, "22P02");
  });

  test("NUL is refused (400 / 22P05): PostgreSQL text cannot hold it", async () => {
    const sent = await expectRefused(
      () => send(json(goodRow({ message: "before\u0000after" }))),
      400,
      "22P05",
    );
    expect(sent.body).toEqual({
      code: "22P05",
      message: "unsupported Unicode escape sequence",
      details: "\\u0000 cannot be converted to text.",
      hint: null,
    });
  });
});
