/**
 * Counts bundle downloads without a database write per request: counts gather in
 * memory and are added in one transaction every few seconds, and at shutdown.
 * A crash loses at most the last interval's counts.
 */
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { SkillRepository } from '@skillhub/database';

@Injectable()
export class DownloadCounter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(DownloadCounter.name);
  private versions = new Map<string, number>();
  private skills = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: SkillRepository,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.DOWNLOAD_FLUSH_MS);
    this.timer.unref();
  }

  /** Before the database connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(versionId: string, skillId: string): void {
    this.versions.set(versionId, (this.versions.get(versionId) ?? 0) + 1);
    this.skills.set(skillId, (this.skills.get(skillId) ?? 0) + 1);
  }

  /** Adds the gathered counts; on failure they are put back for the next flush. */
  async flush(): Promise<void> {
    if (!this.versions.size) return;
    const [versions, skills] = [this.versions, this.skills];
    this.versions = new Map();
    this.skills = new Map();
    try {
      await this.repository.addDownloads(versions, skills);
    } catch (err) {
      this.logger.warn(`download counts not saved yet, retrying: ${(err as Error).message}`);
      for (const [id, n] of versions) this.versions.set(id, (this.versions.get(id) ?? 0) + n);
      for (const [id, n] of skills) this.skills.set(id, (this.skills.get(id) ?? 0) + n);
    }
  }
}
