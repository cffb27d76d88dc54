import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolDefinitionHash } from '@skillhub/gate';
import { FileToolPins } from './tool-pins';

describe('FileToolPins', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tool-pins-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const echo = { name: 'echo', description: 'Echoes.', annotations: { readOnlyHint: true } };

  it('keeps the first definition seen across restarts, annotations included in its hash', () => {
    const path = join(dir, 'tool-pins.json');
    new FileToolPins(path).pinIfNew('mcp__e__echo', echo);
    const again = new FileToolPins(path);
    again.pinIfNew('mcp__e__echo', { ...echo, description: 'Changed.' });

    expect(again.get('mcp__e__echo')).toBe(toolDefinitionHash(echo));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      format: 2,
      pins: { mcp__e__echo: toolDefinitionHash(echo) },
    });
  });

  it('drops pins written before annotations were hashed, and says so', () => {
    const path = join(dir, 'tool-pins.json');
    writeFileSync(path, JSON.stringify({ mcp__e__echo: 'a'.repeat(64) }));

    const pins = new FileToolPins(path);

    expect(pins.droppedOlderPins).toBe(true);
    expect(pins.get('mcp__e__echo')).toBeNull();
  });
});
