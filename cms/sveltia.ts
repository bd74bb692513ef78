/**
 * Sveltia CMS's script and what it loads (fonts, version check, on-demand modules), served from
 * /admin/ so the editor loads nothing from a CDN and its CSP stays 'self'. Each rewrite must find
 * its address: after an upgrade that moves one, this throws and names it.
 */
import fs from "node:fs";
import path from "node:path";

/** An installed package (resolved from the project root: gatsby-node code runs from .cache/). */
const packageDir = (name: string) => path.join(process.cwd(), "node_modules", ...name.split("/"));

export function sveltiaManifest(): { version: string; dependencies: Record<string, string> } {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(packageDir("@sveltia/cms"), "package.json"), "utf8"),
  ) as { version?: unknown; dependencies?: Record<string, string> };
  if (typeof manifest.version !== "string")
    throw new Error("node_modules/@sveltia/cms/package.json has no version.");
  return { version: manifest.version, dependencies: manifest.dependencies ?? {} };
}

/** Hosts cache *.js for a year (static/_headers): the names carry the version. */
export const scriptFileName = () => `sveltia-cms-${sveltiaManifest().version}.js`;
export const vendorDir = () => `sveltia-cms-${sveltiaManifest().version}`;
/** What the version check reads. */
export const VERSION_FILE = "sveltia-cms/package.json";

const FONTS = [
  [
    "https://cdn.jsdelivr.net/fontsource/fonts/source-sans-3:vf@5.3.0/latin-wght-normal.woff2",
    "@fontsource-variable/source-sans-3",
    "source-sans-3-latin-wght-normal.woff2",
  ],
  [
    "https://cdn.jsdelivr.net/fontsource/fonts/noto-mono@5.3.0/latin-400-normal.woff2",
    "@fontsource/noto-mono",
    "noto-mono-latin-400-normal.woff2",
  ],
  [
    "https://cdn.jsdelivr.net/fontsource/fonts/material-symbols-outlined:vf@5.3.7/latin-wght-normal.woff2",
    "@fontsource-variable/material-symbols-outlined",
    "material-symbols-outlined-latin-wght-normal.woff2",
  ],
] as const;

/** The modules served under /admin/<vendorDir>/modules/, as the script names them: `<package>@<version>/<file>`. */
const MODULES = [
  ["immutable", "dist/immutable.es.js"],
  ["exifr", "dist/lite.esm.mjs"],
] as const;

/** The sign-in screen's sentence under "Work with Local Repository", for an editor. */
const LOCAL_FOLDER_WORDING = [
  [
    "Once prompted, select the root directory of the “{$repo}” repository.",
    "When your browser asks, choose the project folder “{$repo}” (the folder that holds content).",
  ],
  [
    "Once prompted, select the root directory of your Git repository.",
    "When your browser asks, choose the project folder (the folder that holds content).",
  ],
] as const;

/** Source maps are not published: drop their comment so browsers do not ask for them. */
export const withoutSourceMapComment = (source: string) =>
  source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");

/** The script /admin/ serves, with every CDN address pointing at /admin/ itself. */
export function sveltiaScript(adminPath: string): string {
  const modules = `${adminPath}${vendorDir()}/modules`;
  const rewrites: Array<readonly [search: string, replacement: string, what: string]> = [
    ...FONTS.map(
      ([url, , file]) => [url, `${adminPath}fonts/${file}`, `the font ${file}`] as const,
    ),
    [
      "`https://unpkg.com/@sveltia/cms`",
      `\`${adminPath}sveltia-cms\``,
      "the version check on unpkg.com",
    ],
    ["`https://unpkg.com/${e}`", `\`${modules}/\${e}\``, "the modules loaded from unpkg.com"],
    ["`https://unpkg.com/@shikijs`", `\`${modules}/@shikijs\``, "the address of @shikijs"],
    ["`https://unpkg.com/@sveltia/ui`", `\`${modules}/@sveltia/ui\``, "the address of @sveltia/ui"],
    ...LOCAL_FOLDER_WORDING.map(
      ([vendor, ours]) => [vendor, ours, "the sign-in screen's local folder sentence"] as const,
    ),
    ["`chunks/${e}.js`", `\`${vendorDir()}/chunks/\${e}.js\``, "the React DOM chunk's path"],
  ];
  let source = fs.readFileSync(
    path.join(packageDir("@sveltia/cms"), "dist", "sveltia-cms.js"),
    "utf8",
  );
  for (const [search, replacement, what] of rewrites) {
    if (!source.includes(search))
      throw new Error(
        `cms/sveltia.ts: ${what} (${search}) is no longer in @sveltia/cms/dist/sveltia-cms.js; a Sveltia upgrade changed it. Update the rewrite list.`,
      );
    source = source.split(search).join(replacement);
  }
  return withoutSourceMapComment(source);
}

/** Where npm installed a dependency of @sveltia/cms: its own node_modules first, then the project's. */
function installedFile(packageName: string, file: string): string {
  const found = [path.join(packageDir("@sveltia/cms"), "node_modules"), packageDir("")]
    .map((dir) => path.join(dir, packageName, file))
    .find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error(`${packageName}/${file} is not installed; /admin/ cannot serve it (npm ci?).`);
  return found;
}

/** The files under /admin/ besides the page and the preview: fonts, the React DOM chunk, the modules. */
export function sveltiaFiles(): Array<{ name: string; file: string }> {
  const { dependencies } = sveltiaManifest();
  return [
    ...FONTS.map(([, packageName, file]) => ({
      name: `fonts/${file}`,
      file: path.join(packageDir(packageName), "files", file),
    })),
    {
      name: `${vendorDir()}/chunks/react-dom.js`,
      file: path.join(packageDir("@sveltia/cms"), "dist", "chunks", "react-dom.js"),
    },
    ...MODULES.map(([packageName, file]) => {
      // The script spells the version as the dependency range without its ^ or ~.
      const version = dependencies[packageName]?.replace(/^\D/, "");
      if (!version)
        throw new Error(`@sveltia/cms no longer depends on ${packageName}: update cms/sveltia.ts.`);
      return {
        name: `${vendorDir()}/modules/${packageName}@${version}/${file}`,
        file: installedFile(packageName, file),
      };
    }),
  ];
}
