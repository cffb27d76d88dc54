import type { InstalledPackage, PackageCache, PackageSpec } from '@skillhub/package-cache';
import { RecentPackageChecks } from './recent-package-checks';

const spec: PackageSpec = { name: 'weather-mcp', version: '1.0.0', integrity: `sha512-${'A'.repeat(86)}==` };

/** A cache that counts its verifications, and refuses while `tampered`. */
const countingCache = () => {
  const state = { checks: 0, tampered: false };
  const cache = {
    install: async () => {
      state.checks++;
      if (state.tampered) throw new Error('the cached weather-mcp@1.0.0 was changed after it was installed');
      return { name: spec.name } as InstalledPackage;
    },
  } as unknown as PackageCache;
  return { state, cache };
};

describe('RecentPackageChecks', () => {
  it('shares one verification between servers started together, and verifies again later', async () => {
    const { state, cache } = countingCache();
    let now = 0;
    const checks = new RecentPackageChecks(cache, () => now);

    await Promise.all([checks.install(spec), checks.install(spec), checks.install(spec)]);
    now = 5_000;
    await checks.install(spec);
    expect(state.checks).toBe(1);

    now = 10_000;
    await checks.install(spec);
    expect(state.checks).toBe(2);
  });

  it('never reuses a refusal', async () => {
    const { state, cache } = countingCache();
    const checks = new RecentPackageChecks(cache, () => 0);
    state.tampered = true;

    await expect(checks.install(spec)).rejects.toThrow('changed after it was installed');
    await expect(checks.install(spec)).rejects.toThrow('changed after it was installed');
    expect(state.checks).toBe(2);
  });
});
