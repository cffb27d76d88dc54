/**
 * The runtime's audit trails, JSON lines in `<state_dir>/audit/` (mode 0600, in a 0700 folder): one line
 * per tool call through the gateway, allowed or not, in `calls.jsonl`, and one per connection a
 * sandboxed server's egress proxy allowed or refused in `network.jsonl`. What a line shows of the call's
 * arguments and result is the skill's `audit` (libs/gate call-audit.ts; shapes only for servers no
 * skill governs). The file is rotated to `calls.jsonl.1` past MAX_TRAIL_BYTES. A trail that cannot
 * be written is reported once and the call still answers: the trail records calls, it does not
 * decide them (the gate does).
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditLevel, GateVerdict, ToolClass, ToolEffect } from '@skillhub/gate';

/** Past this size the trail starts a new file, keeping one before it. */
export const MAX_TRAIL_BYTES = 16 * 1024 * 1024;

export interface CallAuditRecord {
  at: string;
  /** The name the client called. */
  tool: string;
  /** `author/name@version` of the skill whose tool it is; null for a whole server's tool. */
  skill: string | null;
  /** The gateway's name of the server it went to; null when no server has that tool. */
  server: string | null;
  verdict: GateVerdict;
  classification: ToolClass;
  effect: ToolEffect;
  /** Whether a human was asked, and what they said. */
  approval: 'not-asked' | 'granted' | 'declined';
  /** refused: the gate did not let it run; error: it ran and failed; ok: it answered. */
  outcome: 'refused' | 'error' | 'ok';
  duration_ms: number;
  /** The skill's `constraints.max_latency_ms`, and whether this call went over it. */
  latency_budget_ms?: number;
  over_budget?: boolean;
  /** What the gate said, for a refused call. */
  reasons?: string[];
  input?: unknown;
  output?: unknown;
  /** The levels the input and output were recorded at. */
  recorded: { input: AuditLevel; output: AuditLevel };
}

export interface CallAuditTrail {
  record(entry: CallAuditRecord): void;
}

export class FileAuditTrail<T extends object> {
  private failed = false;

  constructor(
    private readonly path: string,
    private readonly warn: (message: string) => void,
  ) {}

  record(entry: T): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      if (sizeOf(this.path) > MAX_TRAIL_BYTES) renameSync(this.path, `${this.path}.1`);
      appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      this.failed = false;
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.warn(`the audit trail ${this.path} cannot be written (${(error as Error).message}); it goes on unrecorded`);
    }
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
