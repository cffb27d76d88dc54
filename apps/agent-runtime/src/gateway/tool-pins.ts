/**
 * Tool-definition pins: the hash of each tool's definition (name, description, input
 * schema) the first time the runtime sees it, kept across restarts. A server that later
 * changes a definition (a "rug pull": same name, new behaviour described) makes the gate
 * treat the tool as unknown and block it, until the operator clears the pin
 * (`<state_dir>/trust/tool-pins.json`) after reviewing the change. Certificates pin the
 * tools a skill declares; live server definitions are pinned here, on first use.
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

export class FileToolPins extends MemoryToolPins {
  constructor(private readonly path: string) {
    super();
    try {
      for (const [name, hash] of Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>)) {
        this.pins.set(name, hash);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${path} is unreadable`, { cause: err });
    }
  }

  protected override saved(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileSync(`${this.path}.tmp`, JSON.stringify(Object.fromEntries(this.pins), null, 2), { mode: 0o600 });
    renameSync(`${this.path}.tmp`, this.path);
  }
}
