/**
 * Jest transform for PGlite's CommonJS build.
 *
 * PGlite's `.cjs` files load Node built-ins with `await import("fs/promises")` and the like.
 * Jest runs CommonJS code inside `vm.Script`, where a dynamic `import()` throws
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG unless Node runs with
 * `--experimental-vm-modules`. Every such import in PGlite names a Node built-in, so this
 * transform rewrites them to `require()` (wrapped in a promise, with a `default` export
 * like an ES module namespace). Nothing else in the file is touched.
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
    // The emscripten code declares its own `var require` in places, so keep the module's own
    // require under a name nothing shadows. Insert it after a leading "use strict" directive.
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
