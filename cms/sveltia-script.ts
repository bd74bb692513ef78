/**
 * Sveltia CMS's prebuilt script, made to load nothing from public CDNs.
 *
 * The published file fetches its three fonts from cdn.jsdelivr.net, checks unpkg.com for a newer
 * version, and imports modules on demand from unpkg.com (cms/sveltia-modules.ts). /admin/ serves
 * the fonts itself (from the @fontsource packages, same files), answers the version check with the
 * installed version and serves the modules, so its Content-Security-Policy can stay 'self' and
 * editors' browsers talk to no third party. Each rewrite must find its address:
 * after a Sveltia upgrade that moves one, this throws and names it instead of silently loading
 * from a CDN again.
 */
import fs from "node:fs";
import path from "node:path";
import { vendorDir } from "./sveltia-modules";

export const FONTS_DIR = "fonts";
export const VERSION_FILE = "sveltia-cms/package.json";

type Font = { cdnUrl: string; packageName: string; file: string };

const FONTS: readonly Font[] = [
  {
    cdnUrl:
      "https://cdn.jsdelivr.net/fontsource/fonts/source-sans-3:vf@5.3.0/latin-wght-normal.woff2",
    packageName: "@fontsource-variable/source-sans-3",
    file: "source-sans-3-latin-wght-normal.woff2",
  },
  {
    cdnUrl: "https://cdn.jsdelivr.net/fontsource/fonts/noto-mono@5.3.0/latin-400-normal.woff2",
    packageName: "@fontsource/noto-mono",
    file: "noto-mono-latin-400-normal.woff2",
  },
  {
    cdnUrl:
      "https://cdn.jsdelivr.net/fontsource/fonts/material-symbols-outlined:vf@5.3.7/latin-wght-normal.woff2",
    packageName: "@fontsource-variable/material-symbols-outlined",
    file: "material-symbols-outlined-latin-wght-normal.woff2",
  },
];

const UNPKG_BASE = "`https://unpkg.com/@sveltia/cms`";
/** Every other unpkg.com address the script builds: modules by package name, the code editor's parts. */
const UNPKG_MODULES = "`https://unpkg.com/${e}`";
const UNPKG_OTHERS = ["`https://unpkg.com/@shikijs`", "`https://unpkg.com/@sveltia/ui`"];
/**
 * The sign-in screen's sentence under "Work with Local Repository" (English): Sveltia's words
 * assume a developer ("the root directory of the … repository"); the editor picks a folder.
 */
const LOCAL_FOLDER_WORDING: ReadonlyArray<readonly [string, string]> = [
  [
    "Once prompted, select the root directory of the “{$repo}” repository.",
    "When your browser asks, choose the project folder “{$repo}” (the folder that holds content).",
  ],
  [
    "Once prompted, select the root directory of your Git repository.",
    "When your browser asks, choose the project folder (the folder that holds content).",
  ],
];

/** The React DOM chunk, loaded beside the script: moved into the versioned folder (see sveltia-modules.ts). */
const CHUNK_PATH = "`chunks/${e}.js`";

function packageDir(name: string): string {
  // Resolved from the project root: gatsby-node code runs from a compiled copy in .cache/.
  return path.join(process.cwd(), "node_modules", ...name.split("/"));
}

export function installedVersion(): string {
  const manifest: unknown = JSON.parse(
    fs.readFileSync(path.join(packageDir("@sveltia/cms"), "package.json"), "utf8"),
  );
  const version =
    typeof manifest === "object" && manifest !== null && "version" in manifest
      ? manifest.version
      : undefined;
  if (typeof version !== "string")
    throw new Error("node_modules/@sveltia/cms/package.json has no version.");
  return version;
}

export class SveltiaScriptError extends Error {
  override name = "SveltiaScriptError";
}

function replaceEvery(source: string, search: string, replacement: string, what: string): string {
  const count = source.split(search).length - 1;
  if (count === 0) {
    throw new SveltiaScriptError(
      `cms/sveltia-script.ts: ${what} (${search}) is no longer in @sveltia/cms/dist/sveltia-cms.js; a Sveltia upgrade changed it. Update the rewrite list.`,
    );
  }
  return source.split(search).join(replacement);
}

/**
 * The script's file name carries the version: hosts cache every *.js for a year (static/_headers),
 * so an upgrade must change the name to reach editors' browsers.
 */
export function scriptFileName(): string {
  return `sveltia-cms-${installedVersion()}.js`;
}

/** The script /admin/ serves, with every CDN address pointing at /admin/ itself. */
export function sveltiaScript(adminPath: string): string {
  let source = fs.readFileSync(
    path.join(packageDir("@sveltia/cms"), "dist", "sveltia-cms.js"),
    "utf8",
  );
  for (const font of FONTS)
    source = replaceEvery(
      source,
      font.cdnUrl,
      `${adminPath}${FONTS_DIR}/${font.file}`,
      `the font ${font.file}`,
    );
  source = replaceEvery(
    source,
    UNPKG_BASE,
    `\`${adminPath}sveltia-cms\``,
    "the version check on unpkg.com",
  );
  const modules = `${adminPath}${vendorDir()}/modules`;
  source = replaceEvery(
    source,
    UNPKG_MODULES,
    `\`${modules}/\${e}\``,
    "the modules loaded from unpkg.com",
  );
  for (const base of UNPKG_OTHERS)
    source = replaceEvery(
      source,
      base,
      base.replace("https://unpkg.com", modules),
      `the address ${base}`,
    );
  for (const [vendorWords, ourWords] of LOCAL_FOLDER_WORDING)
    source = replaceEvery(
      source,
      vendorWords,
      ourWords,
      "the sign-in screen's local folder sentence",
    );
  source = replaceEvery(
    source,
    CHUNK_PATH,
    `\`${vendorDir()}/chunks/\${e}.js\``,
    "the React DOM chunk's path",
  );
  // Source maps are not published; drop the comment so browsers do not ask for one.
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
}

/** The fonts the script loads, as files under /admin/fonts/. */
export function fontFiles(): Array<{ name: string; file: string }> {
  return FONTS.map((font) => ({
    name: `${FONTS_DIR}/${font.file}`,
    file: path.join(packageDir(font.packageName), "files", font.file),
  }));
}

/** What the version check reads: the installed version, so no "update available" banner appears. */
export function versionManifest(): string {
  return `${JSON.stringify({ name: "@sveltia/cms", version: installedVersion() })}\n`;
}
