/** PostgREST's SQLSTATE → HTTP mapping and the `columns` parameter, as mirrored here. */
import { parseColumnsParam, statusForSqlState } from "./postgrest";

describe("statusForSqlState mirrors PostgREST's mapSQLtoHTTP", () => {
  test.each([
    ["23514", 400],
    ["23502", 400],
    ["22001", 400],
    ["22P02", 400],
    ["22P05", 400],
    ["428C9", 400],
    ["23505", 409],
    ["23503", 409],
    ["25006", 405],
    ["P0001", 400],
    ["P0002", 500],
    ["PT400", 400],
    ["PT429", 429],
    ["PTabc", 500],
    ["53400", 500],
    ["53100", 503],
    ["08006", 503],
    ["57P01", 503],
    ["57014", 500],
    ["42P01", 404],
    ["42883", 404],
    ["40001", 500],
    ["XX000", 500],
  ])("%s → %i", (code, status) => {
    expect(statusForSqlState(code)).toBe(status);
  });

  test("42501 is 401, as for anon (the only role requests run as)", () => {
    expect(statusForSqlState("42501")).toBe(401);
  });
});

describe("parseColumnsParam", () => {
  test.each([
    ["name,email", ["name", "email"]],
    ['"name","email","organization","message"', ["name", "email", "organization", "message"]],
    [' name , "e""mail" ', ["name", 'e"mail']],
  ])("%s", (raw, columns) => {
    expect(parseColumnsParam(raw)).toEqual(columns);
  });

  test.each(["", "name,,email", '"unterminated', "name,"])("%p is refused", (raw) => {
    expect(parseColumnsParam(raw)).toBeUndefined();
  });
});
