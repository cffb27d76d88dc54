/**
 * The package cache as skill servers start it: every start re-verifies the cached entry (so a
 * file changed since is refused), but servers that start within REUSE_MS of one another share
 * one verification. At start-up five servers of one package then hash its tree once, not five
 * times; a server started again later is checked again.
 */
import type { InstalledPackage, PackageCache, PackageSpec } from '@skillhub/package-cache';

const REUSE_MS = 10_000;

export class RecentPackageChecks {
  private readonly recent = new Map<string, { at: number; installed: Promise<InstalledPackage> }>();

  constructor(
    private readonly cache: PackageCache,
    private readonly now: () => number = Date.now,
  ) {}

  install(spec: PackageSpec): Promise<InstalledPackage> {
    const key = `${spec.name}@${spec.version}\0${spec.integrity}`;
    const known = this.recent.get(key);
    if (known && this.now() - known.at < REUSE_MS) return known.installed;
    const installed = this.cache.install(spec);
    this.recent.set(key, { at: this.now(), installed });
    // A refusal is never reused: the next start asks the cache again (and is refused again if still tampered).
    installed.catch(() => this.recent.delete(key));
    return installed;
  }
}
