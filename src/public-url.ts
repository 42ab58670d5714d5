/**
 * docs/platform.md F42: whether a URL can serve as a deep link the platform accepts and a
 * bookkeeper can open. The published `url` format is checked by validators that refuse a host
 * without a dot (`http://localhost:8080/…`), and such a host is this machine, not the bookkeeper's.
 */
export function hasPublicHost(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname.includes('.');
  } catch {
    return false;
  }
}
