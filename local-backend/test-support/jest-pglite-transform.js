/**
 * Jest transform for PGlite's CommonJS build, whose `import("fs/promises")` and the like throw in
 * Jest's vm.Script without --experimental-vm-modules: each import of a Node built-in becomes a
 * promised `require()` with a `default` export, as an ES module namespace has.
 */
const { builtinModules } = require("node:module");
const crypto = require("node:crypto");

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

module.exports = {
  process(sourceText) {
    let replaced = 0;
    const body = sourceText.replace(/\bimport\((["'])([^"']+)\1\)/g, (match, _quote, specifier) => {
      if (!builtins.has(specifier)) return match;
      replaced += 1;
      return `Promise.resolve().then(function () { var m = __pgliteJestRequire(${JSON.stringify(specifier)}); return Object.assign({ default: m }, m); })`;
    });
    if (replaced === 0) return { code: sourceText };
    // Emscripten declares its own `var require`: keep the module's under a name nothing shadows.
    const strict = /^\s*(["'])use strict\1;?/.exec(body);
    const at = strict ? strict[0].length : 0;
    const code = body.slice(0, at) + "var __pgliteJestRequire = require;" + body.slice(at);
    return { code };
  },
  getCacheKey(sourceText, sourcePath) {
    return crypto
      .createHash("sha1")
      .update("pglite-dynamic-import-v2\0")
      .update(sourcePath)
      .update("\0")
      .update(sourceText)
      .digest("hex");
  },
};
