// The built pages' start-up script: webpack entry "page-boot" (gatsby-node.ts, onCreateWebpackConfig).
// The site's stylesheet is imported here as in gatsby-browser.tsx: it belongs to this entry's first
// chunks, so webpack's runtime treats it as loaded (the HTML holds it inline) and carries no code
// to fetch it again when the form's chunk arrives.
import "../styles/tokens.css";
import "../styles/global.css";
import { bootPage } from "./page-boot";

bootPage();
