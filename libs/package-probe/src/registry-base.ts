/**
 * One configured registry base URL, and the only place request URLs are built. Every URL is
 * checked to stay under a configured base, so neither a package name nor a redirect can send
 * a probe anywhere else (docs/security.md).
 */
import { PackageProbeConfigError } from './package-probe.errors';

export class RegistryBase {
  /** The base without its trailing slash, e.g. `https://registry.npmjs.org`. */
  readonly href: string;
  private readonly origin: string;
  /** The base's path with a trailing slash: every URL under the base starts with it. */
  private readonly pathPrefix: string;

  constructor(raw: string, optionName: string) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new PackageProbeConfigError(`${optionName} is not a URL: ${JSON.stringify(raw)}`);
    }
    if (
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username ||
      url.password ||
      url.search ||
      url.hash
    ) {
      throw new PackageProbeConfigError(
        `${optionName} must be a plain http(s) URL without credentials, query or fragment`,
      );
    }
    this.origin = url.origin;
    this.pathPrefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    this.href = `${url.origin}${this.pathPrefix.slice(0, -1)}`;
  }

  /** The URL of path segments that the caller has already escaped (npm spells a scope `@scope%2fname`). */
  url(escapedSegments: readonly string[]): string {
    const href = `${this.href}/${escapedSegments.join('/')}`;
    // Escaped segments cannot leave the base; this guards the escaping itself (a `..` segment would).
    if (!this.contains(new URL(href))) {
      throw new Error(`refusing to build a registry URL outside ${this.href}: ${href}`);
    }
    return href;
  }

  contains(url: URL): boolean {
    return url.origin === this.origin && url.pathname.startsWith(this.pathPrefix);
  }
}

/** `encodeURIComponent`, refusing the dot segments that URL parsing would resolve away. */
export function escapeSegment(segment: string): string {
  if (segment === '' || segment === '.' || segment === '..') throw new Error(`not a usable path segment: '${segment}'`);
  return encodeURIComponent(segment);
}
