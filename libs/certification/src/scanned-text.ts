/** Bundle files as text for the static scans (C11, C12), bounded so a huge file cannot stall the worker. */
import type { Bundle, BundleFile } from '@skillhub/bundle';

/** Bytes of one file that are scanned; a longer file gets a failing "not fully scanned" finding. */
export const MAX_SCANNED_BYTES = 1024 * 1024;

export interface ScannedText {
  text: string;
  /** The file is longer than MAX_SCANNED_BYTES and only its start was decoded. */
  truncated: boolean;
}

// Not fatal: a stray invalid byte must not hide the rest of a file from the scan.
const decoder = new TextDecoder('utf-8');

export function scannedText(file: BundleFile): ScannedText {
  const truncated = file.content.length > MAX_SCANNED_BYTES;
  return { text: decoder.decode(truncated ? file.content.subarray(0, MAX_SCANNED_BYTES) : file.content), truncated };
}

export const findFile = (bundle: Bundle, path: string): BundleFile | undefined =>
  bundle.files.find((file) => file.path === path);

/** Lower-cased extension with its dot (`.py`), or '' when the name has none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** 1-based line of a UTF-16 offset. */
export function lineAtIndex(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Line of the first match of `pattern` in a bundle file, for pointing a finding at a manifest field; null if none. */
export function lineOfFirstMatch(bundle: Bundle, path: string, pattern: RegExp): number | null {
  const file = findFile(bundle, path);
  if (!file) return null;
  const { text } = scannedText(file);
  const match = pattern.exec(text);
  return match ? lineAtIndex(text, match.index) : null;
}
