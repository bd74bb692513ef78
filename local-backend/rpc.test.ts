/**
 * `POST /rest/v1/rpc/<function>` on the local backend, as PostgREST answers it: named arguments,
 * a single unnamed text/json parameter, the answer shaped by the return type, and the call made
 * as anon with the request's headers visible to the function.
 */
import { createClient } from "@supabase/supabase-js";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { startLocalBackend } from "./server";
import { openedForTests } from "./test-helpers";

jest.setTimeout(60_000);

const FUNCTIONS_SQL = `
create function public.rpc_test_named(word text, times integer default 2)
  returns jsonb language sql stable as $$ select jsonb_build_object('said', repeat(word, times), 'role', current_user) $$;
create function public.rpc_test_body(text) returns text language sql immutable as $$ select upper($1) $$;
create function public.rpc_test_json(jsonb) returns integer language sql immutable as $$ select ($1 ->> 'n')::int + 1 $$;
create function public.rpc_test_rows(upto integer) returns table (n integer) language sql immutable as $$ select generate_series(1, upto) $$;
create function public.rpc_test_nothing() returns void language sql as $$ select $$;
create function public.rpc_test_header() returns text language sql stable
  as $$ select current_setting('request.headers', true)::json ->> 'x-test-header' $$;
create function public.rpc_test_private() returns integer language sql as $$ select 1 $$;
create function public.rpc_test_raises() returns integer language plpgsql as $$
  begin raise exception using errcode = 'PT429', message = 'slow down'; end $$;
revoke all on function public.rpc_test_private() from public, anon;
grant execute on function public.rpc_test_named(text, integer), public.rpc_test_body(text), public.rpc_test_json(jsonb),
  public.rpc_test_rows(integer), public.rpc_test_nothing(), public.rpc_test_header(), public.rpc_test_raises() to anon;
`;

describe("rpc/<function> on the local backend", () => {
  const backend = openedForTests(async () => {
    const started = await startLocalBackend({ port: 0 });
    await started.db.exec(FUNCTIONS_SQL);
    return started;
  });

  function call(
    name: string,
    body: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return fetch(`${backend().url}/rest/v1/rpc/${name}`, {
      method: "POST",
      headers: {
        apikey: LOCAL_ANON_KEY,
        Authorization: `Bearer ${LOCAL_ANON_KEY}`,
        "Content-Type": "application/json",
        ...headers,
      },
      body,
    });
  }

  test("named arguments, a default left out, run as anon; supabase-js .rpc() gets the same", async () => {
    const response = await call("rpc_test_named", JSON.stringify({ word: "ab" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ said: "abab", role: "anon" });

    const supabase = createClient(backend().url, LOCAL_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { data, error } = await supabase.rpc("rpc_test_named", { word: "x", times: 3 });
    expect(error).toBeNull();
    expect(data).toEqual({ said: "xxx", role: "anon" });
  });

  test("one unnamed text parameter takes a text/plain body; one unnamed jsonb parameter takes the JSON body", async () => {
    const text = await call("rpc_test_body", "hello", {
      "Content-Type": "text/plain;charset=UTF-8",
    });
    expect(text.status).toBe(200);
    expect(await text.json()).toBe("HELLO");
    const json = await call("rpc_test_json", '{"n": 41}');
    expect(await json.json()).toBe(42);
  });

  test("the key may come as ?apikey= alone (a CORS simple request), as the gateway allows", async () => {
    const response = await fetch(
      `${backend().url}/rest/v1/rpc/rpc_test_body?apikey=${LOCAL_ANON_KEY}`,
      {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: "simple",
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toBe("SIMPLE");
  });

  test("a set-returning function answers an array, a void one 204 with no body", async () => {
    const rows = await call("rpc_test_rows", '{"upto": 3}');
    expect(await rows.json()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const nothing = await call("rpc_test_nothing", "{}");
    expect(nothing.status).toBe(204);
    expect(await nothing.text()).toBe("");
  });

  test("the function reads the request's headers from request.headers", async () => {
    const response = await call("rpc_test_header", "{}", { "X-Test-Header": "seen" });
    expect(await response.json()).toBe("seen");
  });

  test("PostgREST's errors: unknown function or arguments 404 PGRST202, no EXECUTE 401, raised PTxyz → xyz, bad JSON 400", async () => {
    const unknown = await call("rpc_test_missing", "{}");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "PGRST202" });
    const wrongArguments = await call("rpc_test_named", '{"colour": "red"}');
    expect(wrongArguments.status).toBe(404);
    const denied = await call("rpc_test_private", "{}");
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: "42501" });
    const raised = await call("rpc_test_raises", "{}");
    expect(raised.status).toBe(429);
    expect(await raised.json()).toMatchObject({ code: "PT429", message: "slow down" });
    const badJson = await call("rpc_test_named", "{nope");
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: "PGRST102" });
  });

  test("a function outside schema public cannot be called, and GET is refused", async () => {
    await backend().db.exec(
      "create schema if not exists rpc_hidden; create function rpc_hidden.f() returns int language sql as $$ select 1 $$;",
    );
    expect((await call("f", "{}")).status).toBe(404);
    const get = await fetch(`${backend().url}/rest/v1/rpc/rpc_test_nothing`, {
      headers: { apikey: LOCAL_ANON_KEY },
    });
    expect(get.status).toBe(405);
  });

  test("without the key the gateway refuses before any function runs", async () => {
    const response = await fetch(`${backend().url}/rest/v1/rpc/rpc_test_nothing`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(401);
  });
});
