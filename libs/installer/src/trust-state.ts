/**
 * What the runtime remembers between runs to verify offline: the hub keys it trusts
 * (pinned on first use when the config pins none), the last log checkpoint it verified
 * (so a rewritten history is caught), and the newest revocation list it saw (so an
 * older one is refused). Each is a JsonStateFile: private, and replaced atomically.
 */
import { join } from 'node:path';
import { publicKeyFromPem, type StoredCheckpoint, type TrustedKey } from '@skillhub/signing';
import { JsonStateFile } from './json-state-file';

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
  private readonly keysFile: JsonStateFile<PinnedKey[]>;
  private readonly checkpointFile: JsonStateFile<StoredCheckpoint>;
  private readonly revocationsFile: JsonStateFile<SeenRevocations>;

  constructor(dir: string) {
    this.keysFile = new JsonStateFile(join(dir, 'keys.json'));
    this.checkpointFile = new JsonStateFile(join(dir, 'checkpoint.json'));
    this.revocationsFile = new JsonStateFile(join(dir, 'revocations.json'));
  }

  keys(): PinnedKey[] | null {
    return this.keysFile.read();
  }

  pinKeys(keys: PinnedKey[]): void {
    this.keysFile.write(keys);
  }

  checkpoint(): StoredCheckpoint | null {
    return this.checkpointFile.read();
  }

  saveCheckpoint(checkpoint: StoredCheckpoint): void {
    this.checkpointFile.write(checkpoint);
  }

  revocationsSeenAt(): string | null {
    return this.revocations()?.issuedAt ?? null;
  }

  /** The newest verified list seen; `envelope` is absent in state written before lists were kept. */
  revocations(): SeenRevocations | null {
    return this.revocationsFile.read();
  }

  /** Called only with a list that was verified, and is not older than the one seen before. */
  saveRevocations(seen: SeenRevocations): void {
    this.revocationsFile.write(seen);
  }
}
