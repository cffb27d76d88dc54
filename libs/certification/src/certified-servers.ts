/**
 * The servers a certificate lets the runtime start: each verified launch spec (C15) with the
 * package release C8 pinned by integrity, the live tool pins C13 recorded and, for a PyPI server,
 * the wheels it was installed from. A server whose launch could not be pinned is left out, so the
 * runtime never starts it.
 */
import type { CertifiedServer } from '@skillhub/signing';
import type { Evidence } from './check';

export function certifiedServers(
  evidence: Pick<Evidence, 'launches' | 'pinnedPackages' | 'liveTools' | 'serverLocks'>,
): CertifiedServer[] {
  return evidence.launches.flatMap(({ server, spec, pinned }): CertifiedServer[] => {
    if (spec === null || !pinned) return [];
    const common = {
      name: server.name,
      transport: server.transport,
      env: server.env,
      cwd: server.cwd,
      tools: Object.hasOwn(evidence.liveTools, server.name) ? (evidence.liveTools[server.name] ?? null) : null,
    };
    switch (spec.kind) {
      case 'remote':
        return [{ ...common, launch: 'remote', argv: [], url: spec.url, package: null, file: null }];
      case 'bundle-file':
        return [{ ...common, launch: 'bundle-file', argv: spec.run, url: null, package: null, file: spec.file }];
      case 'npm':
      case 'pypi': {
        const wanted = spec.package;
        const release = evidence.pinnedPackages.find(
          (p) => p.registry === wanted.registry && p.name === wanted.name && p.version === wanted.version,
        );
        // Without the registry's integrity the bytes that would run are not pinned.
        if (!release) return [];
        if (spec.kind === 'npm') {
          // What runs, at its pin (the hub's, for a package named with no version).
          const argv = [...spec.argv, `${spec.package.name}@${spec.package.version}`, ...spec.args];
          return [{ ...common, launch: 'npm', argv, url: null, package: release, file: null }];
        }
        // PyPI: with the wheels it was installed from at certification, which the runtime installs by
        // hash; without them (not probed), listed as declared, and the runtime does not start it.
        const lock = Object.hasOwn(evidence.serverLocks, server.name) ? evidence.serverLocks[server.name] : undefined;
        const argv = [...spec.argv, `${spec.package.name}==${spec.package.version}`, ...spec.args];
        return lock
          ? [{ ...common, launch: 'pypi', argv, url: null, package: release, file: null, lock }]
          : [{ ...common, launch: 'pypi', argv: server.command ?? [], url: null, package: release, file: null }];
      }
    }
  });
}
