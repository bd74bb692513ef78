/**
 * Shared by the bad-input tests (not a test file itself): a local backend that takes bad requests
 * sent with plain fetch to the REST path, and the checks each one gets: the expected status and
 * code, nothing (partial) stored, and a good insert still served afterwards.
 */
import type { PGlite } from "@electric-sql/pglite";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { readRequests } from "./database";
import { startLocalBackend } from "./server";
import { countRows, goodRow, LIFTED_SCREENING, openedForTests } from "./test-helpers";

export interface Sent {
  status: number;
  body: Record<string, unknown> | null;
  text: string;
}

export type SendOptions = {
  headers?: Record<string, string>;
  query?: string;
  method?: string;
  path?: string;
};

export const json = (value: unknown): string => JSON.stringify(value);

/** Starts a local backend before the calling file's tests and stops it after them. */
export function badInputBackend() {
  // Hundreds of direct requests from one loopback address: the insert path, not the screening.
  const backend = openedForTests(() => startLocalBackend({ port: 0, screening: LIFTED_SCREENING }));

  async function send(
    body: string | Uint8Array | undefined,
    options: SendOptions = {},
  ): Promise<Sent> {
    const response = await fetch(
      `${backend().url}${options.path ?? "/rest/v1/contacts"}${options.query ?? ""}`,
      {
        method: options.method ?? "POST",
        headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json", ...options.headers },
        body: body as BodyInit | undefined,
      },
    );
    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text };
  }

  /** Sends a bad request; checks its status/code, that nothing was stored, and that a good insert still works. */
  async function expectRefused(
    request: () => Promise<Sent>,
    status: number,
    code: string | undefined,
    message?: string | RegExp,
  ): Promise<Sent> {
    const before = await countRows(backend().db);
    const sent = await request();
    expect({ status: sent.status, code: sent.body?.code }).toEqual({ status, code });
    if (message !== undefined) expect(String(sent.body?.message)).toMatch(message);
    expect(await countRows(backend().db)).toBe(before);
    const good = await send(json(goodRow()));
    expect(good.status).toBe(201);
    expect(await countRows(backend().db)).toBe(before + 1);
    return sent;
  }

  async function expectStored(payload: object, expected: Record<string, string>): Promise<void> {
    const email = (expected.email ?? (payload as { email: string }).email) as string;
    const sent = await send(json(payload));
    expect(sent.status).toBe(201);
    expect(sent.text).toBe("");
    const stored = (await readRequests(backend().db)).filter((request) => request.email === email);
    expect(
      stored.map(({ name, email, organization, message }) => ({
        name,
        email,
        organization,
        message,
      })),
    ).toEqual([{ ...payload, ...expected }]);
  }

  return {
    get url(): string {
      return backend().url;
    },
    get db(): PGlite {
      return backend().db;
    },
    send,
    expectRefused,
    expectStored,
  };
}
