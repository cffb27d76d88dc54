/**
 * Reads bundles and parses manifests in worker threads (skill-inspection.ts), so that however
 * costly an upload is to read, the event loop keeps answering every other request.
 */
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { DomainError } from '@skillhub/errors';
import { TaskTimeoutError, WorkerPool } from '../common/worker-pool';
import {
  type BundleTask,
  type InspectedBundle,
  type InspectedSkill,
  type Inspection,
  rebuildError,
} from './skill-inspection';

export class InspectionTimeoutError extends DomainError {
  constructor(what: string, budgetMs: number) {
    super(
      'unprocessable',
      'BUNDLE.UNPROCESSABLE',
      `The ${what} took longer than ${budgetMs / 1000} s to read; it is refused.`,
      [{ path: 'body', message: `reading stopped after ${budgetMs} ms`, severity: 'error' }],
    );
  }
}

@Injectable()
export class SkillInspector implements OnModuleDestroy {
  private readonly pool: WorkerPool;

  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {
    this.pool = new WorkerPool({
      module: require.resolve('./skill-inspection'),
      threads: config.INSPECT_WORKERS,
      timeoutMs: config.INSPECT_TIMEOUT_MS,
    });
  }

  /**
   * The bundle read and its manifest parsed (one per skill of a SwarmKit workspace); throws a 4xx
   * domain error listing every problem.
   */
  inspectBundle(bytes: Buffer, context: BundleTask['context']): Promise<InspectedBundle[]> {
    const task: BundleTask = {
      bytes,
      limits: {
        maxCompressedBytes: this.config.BUNDLE_MAX_COMPRESSED_BYTES,
        maxUncompressedBytes: this.config.BUNDLE_MAX_UNCOMPRESSED_BYTES,
        maxEntries: this.config.BUNDLE_MAX_ENTRIES,
        maxCompressionRatio: this.config.BUNDLE_MAX_COMPRESSION_RATIO,
      },
      context,
    };
    return this.run<BundleTask, InspectedBundle[]>('inspectBundle', task, 'bundle');
  }

  /** A manifest sent as JSON (Kazma's `hub submit`), parsed with the same rules. */
  inspectManifest(manifest: Record<string, unknown>): Promise<InspectedSkill> {
    return this.run<unknown, InspectedSkill>('inspectManifest', manifest, 'manifest');
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.destroy();
  }

  private async run<T, R>(name: string, task: T, what: string): Promise<R> {
    let outcome: Inspection<R>;
    try {
      outcome = await this.pool.run<T, Inspection<R>>(name, task);
    } catch (error) {
      if (error instanceof TaskTimeoutError) throw new InspectionTimeoutError(what, error.budgetMs);
      throw error;
    }
    if (!outcome.ok) throw rebuildError(outcome.error);
    return outcome.value;
  }
}
