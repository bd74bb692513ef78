import assert from "node:assert/strict";

import { retryDelaySeconds } from "./retry.ts";

Deno.test("back-off doubles from 30 s and stays at 30 minutes", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => retryDelaySeconds(attempt)),
    [30, 60, 120, 240, 480, 960, 1800, 1800, 1800],
  );
  assert.deepEqual(
    [1, 2, 3].map((attempt) => retryDelaySeconds(attempt, { baseSeconds: 0.2, maxSeconds: 0.5 })),
    [0.2, 0.4, 0.5],
  );
});
