/**
 * What the runtime remembers between runs to verify offline: the hub keys it trusts
 * (pinned on first use when the config pins none), the last log checkpoint it verified
 * (so a rewritten history is caught), and the newest revocation list it saw (so an
 * older one is refused). Files are replaced atomically.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicKeyFromPem, type StoredCheckpoint, type TrustedKey } from '@skillhub/signing';

export interface PinnedKey {
  keyid: string;
  public_key_pem: string;
  not_before?: string;
  not_after?: string | null;
}

export interface SeenRevocations {
  issuedAt: string;
  /** The signed list as the hub served it. */
  envelope?: unknown;
}

export const toTrustedKeys = (keys: readonly PinnedKey[]): TrustedKey[] =>
  keys.map((k) => ({
    keyid: k.keyid,
    publicKey: publicKeyFromPem(k.public_key_pem),
    notBefore: k.not_before ? new Date(k.not_before) : undefined,
    notAfter: k.not_after ? new Date(k.not_after) : undefined,
  }));

export class TrustState {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  keys(): PinnedKey[] | null {
    return this.read<PinnedKey[]>('keys.json');
  }

  pinKeys(keys: PinnedKey[]): void {
    this.write('keys.json', keys);
  }

  checkpoint(): StoredCheckpoint | null {
    return this.read<StoredCheckpoint>('checkpoint.json');
  }

  saveCheckpoint(checkpoint: StoredCheckpoint): void {
    this.write('checkpoint.json', checkpoint);
  }

  revocationsSeenAt(): string | null {
    return this.revocations()?.issuedAt ?? null;
  }

  /** The newest verified list seen; `envelope` is absent in state written before lists were kept. */
  revocations(): SeenRevocations | null {
    return this.read<SeenRevocations>('revocations.json');
  }

  /** Called only with a list that was verified, and is not older than the one seen before. */
  saveRevocations(seen: SeenRevocations): void {
    this.write('revocations.json', seen);
  }

  private read<T>(name: string): T | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new Error(`${join(this.dir, name)} is unreadable: ${(err as Error).message}`, { cause: err });
    }
  }

  private write(name: string, value: unknown): void {
    const path = join(this.dir, name);
    writeFileSync(`${path}.tmp`, JSON.stringify(value, null, 2), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }
}
