/**
 * The code Sveltia CMS's prebuilt script loads on demand, served from /admin/ instead of unpkg.com.
 *
 * The published script imports a few modules at run time: its React DOM chunk (next to the
 * script) when a custom preview template is registered, Immutable.js for the props of such a
 * template, and exifr for a picture's details in the media library; all from
 * https://unpkg.com/<package>@<version>/… unless the chunk sits beside the script.
 * cms/sveltia-script.ts points that base at /admin/<VENDOR_DIR>/modules/, and this file lists what
 * is served there, taken from the installed packages. A module the CMS asks for that is not listed
 * (a map, a code editor, HEIC or PDF thumbnails: fields this site does not use) gets a 404 from our
 * own origin: nothing is ever fetched from another host.
 */
import fs from "node:fs";
import path from "node:path";

/** The installed @sveltia/cms (resolved from the project root: gatsby-node runs from .cache/). */
export function sveltiaPackageDir(): string {
  return path.join(process.cwd(), "node_modules", "@sveltia", "cms");
}

type Manifest = { version: string; dependencies: Record<string, string> };

export function sveltiaManifest(): Manifest {
  const manifest: unknown = JSON.parse(
    fs.readFileSync(path.join(sveltiaPackageDir(), "package.json"), "utf8"),
  );
  if (
    typeof manifest !== "object" ||
    manifest === null ||
    !("version" in manifest) ||
    typeof manifest.version !== "string"
  ) {
    throw new Error("node_modules/@sveltia/cms/package.json has no version.");
  }
  const dependencies =
    "dependencies" in manifest &&
    typeof manifest.dependencies === "object" &&
    manifest.dependencies !== null
      ? manifest.dependencies
      : {};
  return { version: manifest.version, dependencies: dependencies as Record<string, string> };
}

/**
 * Everything on demand lives under one folder named after the Sveltia version: hosts cache files
 * for a year (static/_headers), so an upgrade must change the address to reach editors' browsers.
 */
export function vendorDir(): string {
  return `sveltia-cms-${sveltiaManifest().version}`;
}

/** The modules /admin/ serves, as the script names them: `<package>@<version>/<file>`. */
const MODULES: ReadonlyArray<{ packageName: string; file: string }> = [
  { packageName: "immutable", file: "dist/immutable.es.js" },
  { packageName: "exifr", file: "dist/lite.esm.mjs" },
];

/** How the script spells a package's version in its address: the dependency range without its ^ or ~. */
function requestedVersion(packageName: string): string {
  const range = sveltiaManifest().dependencies[packageName];
  if (!range)
    throw new Error(
      `@sveltia/cms no longer depends on ${packageName}: update cms/sveltia-modules.ts.`,
    );
  return range.replace(/^\D/, "");
}

/** Where npm installed a dependency of @sveltia/cms: its own node_modules first, then the project's. */
function installedFile(packageName: string, file: string): string {
  const candidates = [
    path.join(sveltiaPackageDir(), "node_modules", packageName, file),
    path.join(process.cwd(), "node_modules", packageName, file),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error(`${packageName}/${file} is not installed; /admin/ cannot serve it (npm ci?).`);
  return found;
}

export type VendorFile = { name: string; file: string };

/** The files served under /admin/<VENDOR_DIR>/: the React DOM chunk and the modules above. */
export function vendorFiles(): VendorFile[] {
  const dir = vendorDir();
  return [
    {
      name: `${dir}/chunks/react-dom.js`,
      file: path.join(sveltiaPackageDir(), "dist", "chunks", "react-dom.js"),
    },
    ...MODULES.map(({ packageName, file }) => ({
      name: `${dir}/modules/${packageName}@${requestedVersion(packageName)}/${file}`,
      file: installedFile(packageName, file),
    })),
  ];
}
