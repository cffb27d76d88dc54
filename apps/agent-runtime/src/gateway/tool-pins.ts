/**
 * Pins taken on first use, for the servers the operator configures: nothing certified them, so
 * the hash of each tool's definition (name, description, input schema, annotations: the fields
 * a certificate pins) is taken the first time the runtime sees it and kept across restarts. A
 * server that later changes a definition (a "rug pull": same name, new behaviour described) has
 * that tool blocked until the operator reviews the change and removes its pin from
 * `<state_dir>/trust/tool-pins.json`. Skill servers are never pinned here: their pins are the
 * ones their certificates recorded in the sandbox at certification.
 */
import { toolDefinitionHash, type ToolDefinition } from '@skillhub/gate';
import { JsonStateFile } from '@skillhub/installer';

export interface ToolPins {
  get(namespacedName: string): string | null;
  /** Pins the definition when the tool has no pin yet. */
  pinIfNew(namespacedName: string, definition: ToolDefinition): void;
}

/** Format 2 hashes annotations too; pins of the format before (which did not) cannot be compared, so they are dropped. */
const FORMAT = 2;

interface StoredPins {
  format?: unknown;
  pins?: Record<string, string>;
}

export class FileToolPins implements ToolPins {
  /** Pins of an older format were found and dropped: they are taken again on first use. */
  readonly droppedOlderPins: boolean = false;
  private readonly pins = new Map<string, string>();
  private readonly file: JsonStateFile<StoredPins>;

  constructor(path: string) {
    this.file = new JsonStateFile(path);
    const stored = this.file.read();
    if (stored === null) return;
    if (stored.format !== FORMAT) {
      this.droppedOlderPins = true;
      return;
    }
    for (const [name, hash] of Object.entries(stored.pins ?? {})) this.pins.set(name, hash);
  }

  get(name: string): string | null {
    return this.pins.get(name) ?? null;
  }

  pinIfNew(name: string, definition: ToolDefinition): void {
    if (this.pins.has(name)) return;
    this.pins.set(name, toolDefinitionHash(definition));
    this.file.write({ format: FORMAT, pins: Object.fromEntries(this.pins) });
  }
}
