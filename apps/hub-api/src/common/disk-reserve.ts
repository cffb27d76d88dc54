/**
 * The embedded database's disk, kept from filling up. PGlite does not fail a write its full disk
 * refuses: it stops answering every query until restarted (seen on a tmpfs data folder). So while
 * the free space under HUB_DATA_DIR is below HUB_DATA_DIR_RESERVE_MB, hub-api takes no write
 * (503, `STORAGE.LOW`, before the body is read) and serves every read; once an operator makes room
 * it takes writes again at once, as Elasticsearch's flood-stage disk watermark does. Readiness
 * reports the same state.
 */
import { statfsSync } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '@skillhub/errors';

/** How long one reading of the free space stands (a statfs per write would be cheap, but needless). */
const READ_EVERY_MS = 1_000;
const MIB = 1024 * 1024;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class StorageLowError extends DomainError {
  constructor(freeMiB: number, reserveMiB: number) {
    super(
      'unavailable',
      'STORAGE.LOW',
      `The hub's disk has ${freeMiB} MiB free, under the ${reserveMiB} MiB it keeps: it takes no writes until its operator makes room.`,
      [],
      { retry_after: 60 },
    );
  }
}

export interface DiskState {
  freeMiB: number;
  reserveMiB: number;
  low: boolean;
}

export class DiskReserve {
  private readAt = -Infinity;
  private freeBytes = Infinity;

  constructor(
    private readonly dir: string,
    private readonly reserveMiB: number,
  ) {}

  state(): DiskState {
    if (performance.now() - this.readAt > READ_EVERY_MS) {
      const { bavail, bsize } = statfsSync(this.dir);
      this.freeBytes = bavail * bsize;
      this.readAt = performance.now();
    }
    const freeMiB = Math.floor(this.freeBytes / MIB);
    return { freeMiB, reserveMiB: this.reserveMiB, low: freeMiB < this.reserveMiB };
  }

  /** Middleware: a write while the disk is low is refused before its body is read. */
  readonly refuseWritesWhenLow = (req: Request, _res: Response, next: NextFunction): void => {
    if (READS.has(req.method)) return next();
    const { low, freeMiB, reserveMiB } = this.state();
    next(low ? new StorageLowError(freeMiB, reserveMiB) : undefined);
  };
}

/** The hub's DiskReserve: null unless the embedded database keeps its files on disk. */
export const DISK_RESERVE = Symbol('DISK_RESERVE');
