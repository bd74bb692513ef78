// The built pages' start-up script: webpack entry "page-boot" (gatsby-node.ts). The stylesheet is
// imported here so webpack treats it as loaded (the HTML holds it inline) and never fetches it again.
import "../styles/tokens.css";
import "../styles/global.css";
import { bootPage } from "./page-boot";

bootPage();
