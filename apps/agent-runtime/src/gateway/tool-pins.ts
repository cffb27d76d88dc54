/**
 * Pins taken on first use, for the servers the operator configures: nothing certified them, so
 * the hash of each tool's definition (name, description, input schema, annotations: the fields
 * a certificate pins) is taken the first time the runtime sees it and kept across restarts. A
 * server that later changes a definition (a "rug pull": same name, new behaviour described) has
 * that tool blocked until the operator reviews the change and removes its pin from
 * `<state_dir>/trust/tool-pins.json`. Skill servers are never pinned here: their pins are the
 * ones their certificates recorded in the sandbox at certification.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { toolDefinitionHash, type ToolDefinition } from '@skillhub/gate';

export interface ToolPins {
  get(namespacedName: string): string | null;
  /** Pins the definition when the tool has no pin yet. */
  pinIfNew(namespacedName: string, definition: ToolDefinition): void;
}

export class MemoryToolPins implements ToolPins {
  protected readonly pins = new Map<string, string>();

  get(name: string): string | null {
    return this.pins.get(name) ?? null;
  }

  pinIfNew(name: string, definition: ToolDefinition): void {
    if (this.pins.has(name)) return;
    this.pins.set(name, toolDefinitionHash(definition));
    this.saved();
  }

  protected saved(): void {}
}

/** Format 2 hashes annotations too; pins of the format before (which did not) cannot be compared, so they are dropped. */
const FORMAT = 2;

export class FileToolPins extends MemoryToolPins {
  /** Pins of an older format were found and dropped: they are taken again on first use. */
  readonly droppedOlderPins: boolean = false;

  constructor(private readonly path: string) {
    super();
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${path} is unreadable`, { cause: err });
      return;
    }
    const file = stored as { format?: unknown; pins?: Record<string, string> };
    if (file.format !== FORMAT) {
      this.droppedOlderPins = true;
      return;
    }
    for (const [name, hash] of Object.entries(file.pins ?? {})) this.pins.set(name, hash);
  }

  protected override saved(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const file = { format: FORMAT, pins: Object.fromEntries(this.pins) };
    writeFileSync(`${this.path}.tmp`, JSON.stringify(file, null, 2), { mode: 0o600 });
    renameSync(`${this.path}.tmp`, this.path);
  }
}
