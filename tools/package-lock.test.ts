import fs from "node:fs";
import path from "node:path";

type LockPackage = {
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
};
type Lockfile = { lockfileVersion: number; packages: Record<string, LockPackage> };

const lock = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "package-lock.json"), "utf8"),
) as Lockfile;

/** Where npm would find `name` for the package installed at `location`: its own node_modules, then each ancestor's. */
function resolves(location: string, name: string): boolean {
  let base = location;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (candidate in lock.packages) return true;
    if (base === "") return false;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

/**
 * `npm ci` refuses a lock that lacks an entry for any optional dependency, even one for another
 * platform that would never be installed here ("Missing: … from lock file"). `npm install` on a
 * registry mirror without those packages silently leaves them out, so this catches it before CI.
 */
describe("package-lock.json", () => {
  it("is a lockfile npm 7+ reads (lockfileVersion 3)", () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it("has an entry for every dependency and optional dependency of every package, as npm ci requires", () => {
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        if (!resolves(location, name)) missing.push(`${location || "(root)"} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
