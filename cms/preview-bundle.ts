/**
 * Builds the CMS preview (cms/preview/) with esbuild from the page's own section components, CSS
 * modules and React 18: one script and one stylesheet named by their hash. The modules that send
 * or announce a request, and "gatsby", are swapped for cms/preview/stand-ins.ts.
 */
import crypto from "node:crypto";
import path from "node:path";
import { build, type Plugin } from "esbuild";

const CMS_DIR = path.join(process.cwd(), "cms");
const ENTRY = path.join(CMS_DIR, "preview", "index.tsx");
const STAND_INS = path.join(CMS_DIR, "preview", "stand-ins.ts");
const REPLACED = ["src/lib/submit-meeting-request", "src/lib/toasts"];

const standIns: Plugin = {
  name: "cms-preview-stand-ins",
  setup(builder) {
    builder.onResolve({ filter: /^gatsby$/ }, () => ({ path: STAND_INS }));
    builder.onResolve({ filter: /(^|\/)(submit-meeting-request|toasts)$/ }, (args) => {
      const module = path.relative(process.cwd(), path.resolve(args.resolveDir, args.path));
      return REPLACED.includes(module.split(path.sep).join("/")) ? { path: STAND_INS } : undefined;
    });
  },
};

export type PreviewBundle = Awaited<ReturnType<typeof buildPreviewBundle>>;

export function hashedName(base: string, contents: string | Uint8Array, extension: string): string {
  return `${base}-${crypto.createHash("sha256").update(contents).digest("hex").slice(0, 10)}.${extension}`;
}

export async function buildPreviewBundle() {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outdir: "cms-preview",
    format: "iife",
    platform: "browser",
    target: ["chrome111", "edge111", "firefox114", "safari16.4"],
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    loader: { ".module.css": "local-css", ".css": "css" },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      // The section components leave their static parts out of the page's browser bundle only.
      "process.env.BUILD_STAGE": JSON.stringify("cms-preview"),
    },
    plugins: [standIns],
    metafile: true,
    absWorkingDir: process.cwd(),
    logLevel: "silent",
  });
  const script = result.outputFiles.find((file) => file.path.endsWith(".js"));
  const stylesheet = result.outputFiles.find((file) => file.path.endsWith(".css"));
  if (!script || !stylesheet)
    throw new Error("cms/preview-bundle.ts: esbuild produced no script or no stylesheet.");
  return {
    scriptName: hashedName("preview", script.contents, "js"),
    script: Buffer.from(script.contents),
    stylesheetName: hashedName("preview", stylesheet.contents, "css"),
    stylesheet: Buffer.from(stylesheet.contents),
    // Every file the bundle was built from, relative to the project.
    inputs: Object.keys(result.metafile.inputs),
  };
}
