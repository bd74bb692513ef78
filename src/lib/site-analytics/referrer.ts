const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

const withoutWww = (host: string): string => host.replace(/^www\./, "");

/**
 * The domain of the page that linked here (`document.referrer`), without "www.": nothing of its
 * path or query. Empty for a visit without a referrer, from this site itself, or from an address
 * that is not a domain name (an IP address, localhost, a file).
 */
export function referrerDomain(referrer: string, ownHost: string): string {
  let host: string;
  try {
    host = withoutWww(new URL(referrer).hostname.toLowerCase());
  } catch {
    return "";
  }
  if (host === withoutWww(ownHost.toLowerCase())) return "";
  return host.length <= 253 && DOMAIN.test(host) ? host : "";
}
