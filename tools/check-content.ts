/**
 * npm run check:content — checks content/*.yaml without building the site.
 * Prints one line per problem; exits 1 when there are errors, 0 when there are only warnings.
 */
import path from "node:path";
import { checkContentDirectory } from "../build-time/content/check-content";
import { formatReport } from "../build-time/content/messages";

const contentDir = path.resolve(process.argv[2] ?? "content");
const result = checkContentDirectory(contentDir);
const report = formatReport(result).join("\n");
if (result.errors.length > 0) {
  console.error(report);
  process.exitCode = 1;
} else {
  console.log(report);
}
