import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UNUSED_GATSBY_RUNTIME, unusedGatsbyRuntimeAliases } from "./unused-gatsby-runtime";

const PROJECT_ROOT = path.resolve(__dirname, "..");

describe("unusedGatsbyRuntimeAliases", () => {
  it("replaces each file under its path and its real path (a linked node_modules) by its stand-in", () => {
    const site = fs.mkdtempSync(path.join(os.tmpdir(), "site-"));
    const modules = fs.mkdtempSync(path.join(os.tmpdir(), "modules-"));
    try {
      const partytown = path.join(modules, "gatsby/dist/internal-plugins/partytown/gatsby-browser.js");
      fs.mkdirSync(path.dirname(partytown), { recursive: true });
      fs.writeFileSync(partytown, "");
      fs.symlinkSync(modules, path.join(site, "node_modules"), "dir");

      const aliases = unusedGatsbyRuntimeAliases(site);
      const standIn = path.join(site, "build-time/browser-stubs/no-browser-apis.js");
      expect(aliases[path.join(site, "node_modules/gatsby/dist/internal-plugins/partytown/gatsby-browser.js")]).toBe(standIn);
      expect(aliases[fs.realpathSync(partytown)]).toBe(standIn);
      // .cache/ does not exist yet: aliased under its path only.
      expect(aliases[path.join(site, ".cache/register-service-worker.js")]).toBe(path.join(site, "build-time/browser-stubs/no-service-worker.js"));
      expect(Object.keys(aliases)).toHaveLength(3);
    } finally {
      fs.rmSync(site, { recursive: true, force: true });
      fs.rmSync(modules, { recursive: true, force: true });
    }
  });

  it("names files this Gatsby version still has, and stand-ins that exist", () => {
    for (const { file, standIn } of UNUSED_GATSBY_RUNTIME) {
      const installed = file.startsWith(".cache/") ? path.join("node_modules/gatsby/cache-dir", path.basename(file)) : file;
      expect(fs.existsSync(path.join(PROJECT_ROOT, installed))).toBe(true);
      expect(fs.existsSync(path.join(PROJECT_ROOT, "build-time/browser-stubs", standIn))).toBe(true);
    }
  });

  it("the service-worker stand-in fails loudly if a plugin ever loads it", () => {
    expect(() => jest.requireActual(path.join(PROJECT_ROOT, "build-time/browser-stubs/no-service-worker.js"))).toThrow(/remove that alias/);
    expect(jest.requireActual(path.join(PROJECT_ROOT, "build-time/browser-stubs/no-browser-apis.js"))).toEqual({});
  });
});
