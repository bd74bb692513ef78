/** The public address of the deployed site, without a trailing slash (canonical URLs, sitemap, sharing cards). */
export function siteUrlFrom(env: Readonly<Record<string, string | undefined>>): string {
  const configured = env.SITE_URL?.trim();
  return (configured || "https://expo.example-transit.com").replace(/\/+$/, "");
}
