/** Where a finding about an MCP server points: the file that declares it, at the line that names it. */
import type { Bundle } from '@skillhub/bundle';
import type { McpServerRef } from '@skillhub/skill-formats';
import { lineOfFirstMatch } from '../scanned-text';

export interface ServerLocation {
  file: string;
  line: number | null;
}

export function serverLocation(bundle: Bundle, server: McpServerRef): ServerLocation {
  const name = escapeRegExp(server.name);
  const file = server.declaredIn;
  return { file, line: lineOfFirstMatch(bundle, file, new RegExp(`['"]?${name}['"]?\\s*$`, 'm')) };
}

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
