/**
 * PowerShell the instructions tell an agent to run. The hub has no PowerShell parser, so a
 * PowerShell file is never analysed (C11 refuses it); a block in a document is read a line at a
 * time for the few ways PowerShell runs code it did not ship: Invoke-Expression (`iex`), script
 * blocks created from strings, compiled C# (`Add-Type`), and encoded commands. Run on a download
 * (`DownloadString`, `iwr`, `irm`, `Invoke-WebRequest`, …) it is download-and-run.
 */
import type { CodeIssue } from './analysis.types';
import { evidenceText } from './evidence';

const RUNS_STRING =
  /\b(?:iex|invoke-expression|add-type)\b|\[scriptblock\]::create|\.invokescript\s*\(|-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i;
const DOWNLOADS =
  /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|start-bitstransfer|curl|wget)\b|\.download(?:string|file|data)\s*\(|net\.webclient|system\.net\.http/i;
const ENCODED = /-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}|frombase64string/i;

/** The refused shapes of PowerShell lines starting at `firstLine` of `file`. */
export function powershellIssues(code: string, file: string, firstLine: number): CodeIssue[] {
  return code.split('\n').flatMap((text, index): CodeIssue[] => {
    if (!RUNS_STRING.test(text) && !ENCODED.test(text)) return [];
    const at = { file, line: firstLine + index, evidence: evidenceText(text) };
    if (ENCODED.test(text))
      return [{ kind: 'obfuscation', ...at, message: 'Runs PowerShell hidden in an encoded string.' }];
    if (DOWNLOADS.test(text))
      return [
        {
          kind: 'download-and-run',
          ...at,
          message: 'Runs PowerShell code it downloads (Invoke-Expression on a download).',
        },
      ];
    return [
      {
        kind: 'dynamic-code',
        ...at,
        message: 'Runs PowerShell code built from a string (Invoke-Expression, a script block or Add-Type).',
      },
    ];
  });
}
