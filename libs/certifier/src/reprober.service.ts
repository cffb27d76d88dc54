/**
 * The daily re-probe: each certified version's pinned packages are asked for again at their
 * exact versions. One that disappeared, was yanked or now has other bytes (integrity) revokes
 * the certificate; a registry that does not answer changes nothing.
 */
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CertificationRepository, type PinnedVersion } from '@skillhub/database';
import { VerdictEvents } from '@skillhub/queue';
import { RevocationsService } from '@skillhub/trust';
import { PackageProbes } from './package-probes.service';

/** A revocation's reason is stored up to this length. */
const MAX_REASON = 1000;

@Injectable()
export class Reprober {
  private readonly logger = new Logger('Reprober');

  constructor(
    private readonly dataSource: DataSource,
    private readonly certifications: CertificationRepository,
    private readonly probes: PackageProbes,
    private readonly revocations: RevocationsService,
    private readonly verdicts: VerdictEvents,
  ) {}

  async reprobe(): Promise<{ checked: number; revoked: number }> {
    const versions = await this.certifications.pinnedVersions();
    let revoked = 0;
    for (const version of versions) {
      const reason = await this.changed(version);
      if (!reason) continue;
      await this.dataSource.transaction((m) =>
        this.revocations.revoke(m, version, reason.slice(0, MAX_REASON), 'certifier'),
      );
      await this.verdicts.changed(version.skill);
      this.logger.warn(`revoked ${version.skill}@${version.version}: ${reason}`);
      revoked++;
    }
    return { checked: versions.length, revoked };
  }

  /** Why the version's pins no longer hold, or null while they hold (or a registry did not say). */
  private async changed({ pinned }: PinnedVersion): Promise<string | null> {
    const probes = await Promise.all(
      pinned.map((p) =>
        this.probes.probe({ registry: p.registry, name: p.name, version: p.version, source: 'reprobe' }),
      ),
    );
    return (
      probes
        .map((probe, i) => {
          const was = pinned[i]!;
          if (probe.outcome === 'inconclusive') return null;
          if (probe.outcome !== 'found')
            return `${was.name}@${was.version} is now ${probe.outcome.replace(/_/g, ' ')}: ${probe.detail}`;
          if (was.integrity && probe.integrity !== was.integrity)
            return `${was.name}@${was.version} changed its bytes (integrity ${was.integrity} → ${probe.integrity})`;
          return null;
        })
        .find((r): r is string => r !== null) ?? null
    );
  }
}
