/**
 * A local backend for tests sending plain fetch as a script would: refused (nothing stored, a good
 * insert still served afterwards), or the row as stored.
 */
import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { readRequests } from "../database";
import { startLocalBackend } from "../server";
import { countRows, goodRow, LIFTED_SCREENING, openedForTests } from "./helpers";

export interface Sent {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
}

export interface SendOptions {
  headers?: Record<string, string>;
  method?: string;
  /** Default /rest/v1/contacts. */
  path?: string;
}

export const json = (value: unknown): string => JSON.stringify(value);

/** Starts a local backend before the calling file's tests (many direct requests from one address: the budgets lifted). */
export function restTestBackend() {
  const backend = openedForTests(() => startLocalBackend({ port: 0, screening: LIFTED_SCREENING }));

  async function send(
    body: string | Uint8Array | undefined,
    options: SendOptions = {},
  ): Promise<Sent> {
    const response = await fetch(`${backend().url}${options.path ?? "/rest/v1/contacts"}`, {
      method: options.method ?? "POST",
      headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json", ...options.headers },
      body: body as BodyInit | undefined,
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      headers: response.headers,
    };
  }

  /** Sends a bad request: its status, code and message; nothing stored; a good insert still served. */
  async function expectRefused(
    body: string | Uint8Array | undefined,
    options: SendOptions,
    expected: { status: number; code?: string; message?: string | RegExp },
  ): Promise<Sent> {
    const before = await countRows(backend().db);
    const sent = await send(body, options);
    expect({ status: sent.status, code: sent.body?.code }).toEqual({
      status: expected.status,
      code: expected.code,
    });
    if (expected.message !== undefined)
      expect(String(sent.body?.message)).toMatch(expected.message);
    expect(await countRows(backend().db)).toBe(before);
    expect((await send(json(goodRow()))).status).toBe(201);
    return sent;
  }

  /** Sends `payload`: 201 with an empty body, and the row stored as `payload` with `expected` over it. */
  async function expectStored(payload: { email: string }, expected = {}): Promise<void> {
    const sent = await send(json(payload));
    expect({ status: sent.status, body: sent.body }).toEqual({ status: 201, body: null });
    const { email } = payload;
    const stored = (await readRequests(backend().db)).filter((row) => row.email === email);
    expect(
      stored.map(({ name, email, organization, message }) => ({
        name,
        email,
        organization,
        message,
      })),
    ).toEqual([{ ...payload, ...expected }]);
  }

  return { backend, send, expectRefused, expectStored };
}
