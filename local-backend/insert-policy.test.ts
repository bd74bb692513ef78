/**
 * The visitors' INSERT policy, which replaced `with check (true)`, refuses exactly what the
 * CHECK constraints refuse, with their errors (docs/database.md, "What a visitor may insert"),
 * on a database with Supabase's roles and default grants and all migrations applied.
 */
import type { Transaction } from "@electric-sql/pglite";

import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { supabaseLike } from "./supabase-like";
import { goodRow, openedForTests, rejection, uniqueEmail } from "./test-helpers";

jest.setTimeout(90_000);

const POLICY = '"Visitors can send a meeting request"';

const migrated = openedForTests(() => supabaseLike());

describe("the visitors' INSERT policy refuses what the CHECK constraints refuse, with their errors", () => {
  interface ErrorFields {
    code?: string;
    message: string;
    detail?: string;
    schema?: string;
    table?: string;
    column?: string;
    constraint?: string;
  }

  const fields = (error: ErrorFields): ErrorFields => {
    const { code, message, detail, schema, table, column, constraint } = error;
    return { code, message, detail, schema, table, column, constraint };
  };

  async function insertAsAnon(tx: Transaction, row: object): Promise<void> {
    await tx.query("set local role anon");
    await tx.query(
      "insert into public.contacts (name, email, organization, message) values ($1, $2, $3, $4)",
      Object.values(row),
    );
  }

  /** The error an anon insert gets from the policy, and the one it got when the constraints alone decided. */
  async function bothErrors(row: object): Promise<[ErrorFields, ErrorFields]> {
    const withPolicy = await rejection(migrated().transaction((tx) => insertAsAnon(tx, row)));
    const constraintsOnly = await rejection(
      migrated().transaction(async (tx) => {
        await tx.query(`alter policy ${POLICY} on public.contacts with check (true)`);
        await insertAsAnon(tx, row);
      }),
    );
    return [fields(withPolicy as ErrorFields), fields(constraintsOnly as ErrorFields)];
  }

  const {
    name: nameMax,
    organization: organizationMax,
    email: emailMax,
    message: messageMax,
  } = CONTACT_COLUMN_LIMITS;
  const longEmail = `${"a".repeat(emailMax)}@example.org`;

  test.each<[string, Record<string, unknown>]>([
    ["name too long", { name: "x".repeat(nameMax + 1) }],
    ["organization too long", { organization: "x".repeat(organizationMax + 1) }],
    ["message too long", { message: "x".repeat(messageMax + 1) }],
    ["email too long", { email: longEmail }],
    ["empty name", { name: "" }],
    ["empty organization", { organization: "" }],
    ["empty message", { message: "" }],
    ["blank name", { name: " \u00a0\u3000" }],
    ["blank organization", { organization: "\t\ufeff" }],
    ["email without @", { email: "no-at.example.org" }],
    ["email with a space", { email: "a b@c.de" }],
    ["email with a newline", { email: "a@b.co\n" }],
    ["null name", { name: null }],
    ["null email", { email: null }],
    ["null organization", { organization: null }],
    ["null message", { message: null }],
    ["null name and a bad email", { name: null, email: "x" }],
    ["blank name and a bad email", { name: " ", email: "x" }],
    [
      "organization too long and name blank",
      { name: " ", organization: "x".repeat(organizationMax + 1) },
    ],
    ["message empty and email too long", { message: "", email: longEmail }],
    ["everything wrong", { name: "", email: "", organization: "", message: "" }],
  ])("%s", async (_label, overrides) => {
    const [withPolicy, constraintsOnly] = await bothErrors(goodRow(overrides));
    expect(["23514", "23502"]).toContain(constraintsOnly.code);
    expect(withPolicy).toEqual(constraintsOnly);
  });

  test("rows at the limits pass the policy", async () => {
    const atLimits = {
      name: "n".repeat(nameMax),
      email: `${"a".repeat(emailMax - "@example.org".length)}@example.org`,
      organization: "o".repeat(organizationMax),
      message: "🚌".repeat(messageMax),
    };
    await migrated().transaction((tx) => insertAsAnon(tx, atLimits));
    await migrated().transaction((tx) =>
      insertAsAnon(tx, goodRow({ email: uniqueEmail("policy") })),
    );
  });

  test("the policy's condition is not trivially true, and only anon may run its function", async () => {
    const policy = await migrated().query<{ with_check: string }>(
      `select pg_get_expr(polwithcheck, polrelid) as with_check from pg_policy
        where polrelid = 'public.contacts'::regclass and polname = 'Visitors can send a meeting request'`,
    );
    expect(policy.rows).toEqual([
      {
        with_check: "private.contacts_visitor_request_allowed(name, email, organization, message)",
      },
    ]);
    const canRun = await migrated().query<{ role: string; allowed: boolean }>(
      `select r as role, has_function_privilege(r, 'private.contacts_visitor_request_allowed(text, text, text, text)', 'execute') as allowed
         from unnest(array['anon', 'authenticated']) r`,
    );
    expect(canRun.rows).toEqual([
      { role: "anon", allowed: true },
      { role: "authenticated", allowed: false },
    ]);
  });
});
