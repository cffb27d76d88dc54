/**
 * Re-signing a certified Kazma manifest for the local host. Kazma's HMAC is symmetric, so a
 * skill signed with its namespace's KAZMA_SECRET is refused by a host whose secret differs;
 * once the hub certificate has verified the files, the installer writes `checksum` and
 * `signature` again with the host's own secret. Only those two lines change: every other byte
 * of the certified YAML stays, so `skillhub verify` can rebuild the installed file from the
 * certified one and compare bytes.
 */
import { isMap, isNode, isScalar, parseDocument, type Document, type YAMLMap } from 'yaml';
import { KAZMA_SIGNATURE_FIELDS, manifestSha256 } from '@skillhub/signing';

type SignatureField = (typeof KAZMA_SIGNATURE_FIELDS)[number];

/** What the re-signed manifest carries: `signature: null` removes the field (no local secret). */
export interface LocalSignature {
  checksum: string;
  signature: string | null;
}

/** The manifest cannot be re-signed without rewriting more than its two signature lines. */
export class ManifestResignError extends Error {}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The certified manifest text with `checksum` and `signature` replaced, added or (signature
 * only) removed. The result is parsed again and must equal the certified manifest in every
 * other field, and carry exactly the fields asked for: anything else throws.
 */
export function resignKazmaManifest(certified: string, fields: LocalSignature): string {
  const doc = parseDocument(certified);
  const root = doc.contents;
  if (doc.errors.length > 0 || !isMap(root) || root.flow || root.items.length === 0) {
    throw new ManifestResignError('the manifest is not a block-style YAML map');
  }
  const eol = certified.includes('\r\n') ? '\r\n' : '\n';
  const indent = indentOf(certified, root);
  const line = (key: SignatureField, value: string) => `${indent}${key}: ${value}${eol}`;
  const wanted: Record<SignatureField, string | null> = fields;
  const spans = {
    checksum: fieldSpan(certified, root, 'checksum'),
    signature: fieldSpan(certified, root, 'signature'),
  };

  const edits: Edit[] = [];
  for (const key of KAZMA_SIGNATURE_FIELDS) {
    const span = spans[key];
    const value = wanted[key];
    if (span === null) continue;
    // The last line of a file without a final newline stays without one.
    const replacement = value === null ? '' : line(key, value);
    edits.push({ ...span, text: span.terminated ? replacement : replacement.slice(0, -eol.length) });
  }
  const missing = KAZMA_SIGNATURE_FIELDS.filter((key) => spans[key] === null && wanted[key] !== null)
    .map((key) => line(key, wanted[key]!))
    .join('');
  if (missing !== '') {
    // Kept together: after an existing checksum, before an existing signature, else after the last field.
    const at = spans.checksum?.end ?? spans.signature?.start ?? lineEnd(certified, root.range![1]);
    const needsBreak = at > 0 && certified[at - 1] !== '\n';
    edits.push({ start: at, end: at, text: needsBreak ? `${eol}${missing}` : missing });
  }
  // Back to front, a replacement before an insertion at its start, so every offset still holds.
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  const resigned = edits.reduce((text, e) => text.slice(0, e.start) + e.text + text.slice(e.end), certified);
  assertOnlySignatureChanged(doc, resigned, fields);
  return resigned;
}

/** `checksum` and `signature` as a manifest's text holds them (undefined when absent or empty). */
export function signatureFields(text: string): Partial<Record<SignatureField, unknown>> {
  const doc = parseDocument(text);
  const root: unknown = doc.errors.length === 0 ? doc.toJS() : null;
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return {};
  const record = root as Record<string, unknown>;
  return Object.fromEntries(
    KAZMA_SIGNATURE_FIELDS.filter((key) => record[key] !== undefined && record[key] !== null).map((key) => [
      key,
      record[key],
    ]),
  );
}

/** The whole lines a top-level field takes (a block scalar may take several), or null when absent. */
function fieldSpan(
  text: string,
  root: YAMLMap,
  key: SignatureField,
): { start: number; end: number; terminated: boolean } | null {
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (pair === undefined) return null;
  const keyNode = pair.key as { range?: [number, number, number] };
  const start = lineStart(text, keyNode.range![0]);
  const last = isNode(pair.value) && pair.value.range ? pair.value.range[1] : keyNode.range![1];
  const end = lineEnd(text, last);
  return { start, end, terminated: text[end - 1] === '\n' };
}

function indentOf(text: string, root: YAMLMap): string {
  const first = root.items[0]!.key as { range?: [number, number, number] };
  const indent = text.slice(lineStart(text, first.range![0]), first.range![0]);
  if (!/^ *$/.test(indent)) throw new ManifestResignError('the manifest is not a block-style YAML map');
  return indent;
}

const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;

/** The offset just past the line that holds `at` (a node's end may already be at a line start). */
function lineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at;
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline + 1;
}

function assertOnlySignatureChanged(certified: Document, resigned: string, fields: LocalSignature): void {
  const after = parseDocument(resigned);
  const before = certified.toJS() as Record<string, unknown>;
  const now: unknown = after.errors.length === 0 ? after.toJS() : null;
  if (now === null || typeof now !== 'object' || Array.isArray(now)) {
    throw new ManifestResignError('re-signing would make the manifest unreadable');
  }
  const record = now as Record<string, unknown>;
  const same =
    manifestSha256(record) === manifestSha256(before) &&
    record.checksum === fields.checksum &&
    (fields.signature === null ? !('signature' in record) : record.signature === fields.signature);
  if (!same) throw new ManifestResignError('re-signing would change more than checksum and signature');
}
