/** Evidence strings as shown in reports: one line, at most EVIDENCE_MAX characters. */
import { EVIDENCE_MAX } from './analysis.types';

export function evidenceText(source: string): string {
  const oneLine = source.replace(/\s+/g, ' ').trim();
  return oneLine.length > EVIDENCE_MAX ? `${oneLine.slice(0, EVIDENCE_MAX - 1)}…` : oneLine;
}
