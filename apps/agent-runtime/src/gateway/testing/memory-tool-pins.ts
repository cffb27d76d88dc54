/** Test support: tool pins kept in memory only, for a gateway under test that must not touch the disk. */
import { toolDefinitionHash, type ToolDefinition } from '@skillhub/gate';
import type { ToolPins } from '../tool-pins';

export class MemoryToolPins implements ToolPins {
  private readonly pins = new Map<string, string>();

  get(name: string): string | null {
    return this.pins.get(name) ?? null;
  }

  pinIfNew(name: string, definition: ToolDefinition): void {
    if (!this.pins.has(name)) this.pins.set(name, toolDefinitionHash(definition));
  }
}
