import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallAuditRecord, FileAuditTrail, MAX_TRAIL_BYTES } from './call-audit-trail';

const entry = (tool: string): CallAuditRecord => ({
  at: '2026-12-01T12:00:00.000Z',
  tool,
  skill: null,
  server: 'files',
  verdict: 'allow',
  classification: 'safe',
  effect: 'read',
  approval: 'not-asked',
  outcome: 'ok',
  duration_ms: 1.5,
  recorded: { input: 'summary', output: 'summary' },
});

describe('FileAuditTrail', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'skillhub-audit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one JSON line per call to a file only its owner can read', () => {
    const path = join(dir, 'audit', 'calls.jsonl');
    const trail = new FileAuditTrail<CallAuditRecord>(path, () => undefined);
    trail.record(entry('mcp__files__read_text_file'));
    trail.record(entry('mcp__files__list_directory'));

    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as CallAuditRecord).tool)).toEqual([
      'mcp__files__read_text_file',
      'mcp__files__list_directory',
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'audit')).mode & 0o777).toBe(0o700);
  });

  it('starts a new file past its size, keeping the one before', () => {
    const path = join(dir, 'calls.jsonl');
    writeFileSync(path, 'x'.repeat(MAX_TRAIL_BYTES + 1));
    new FileAuditTrail<CallAuditRecord>(path, () => undefined).record(entry('mcp__files__read_text_file'));

    expect(statSync(`${path}.1`).size).toBe(MAX_TRAIL_BYTES + 1);
    expect(readFileSync(path, 'utf8')).toContain('mcp__files__read_text_file');
  });

  it('says once that it cannot write, and lets calls go on', () => {
    if (process.getuid?.() === 0) {
      // root writes through any mode: a file where the folder should be stops it instead.
      writeFileSync(join(dir, 'audit'), '');
    } else {
      chmodSync(dir, 0o500);
    }
    const warnings: string[] = [];
    const trail = new FileAuditTrail<CallAuditRecord>(join(dir, 'audit', 'calls.jsonl'), (message) =>
      warnings.push(message),
    );
    expect(() => {
      trail.record(entry('a'));
      trail.record(entry('b'));
    }).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/audit trail .* cannot be written .*it goes on unrecorded/);
    chmodSync(dir, 0o700);
  });
});
