/**
 * The shell blocks a skill's Markdown tells an agent to run, as the static analysis reads them
 * (`embeddedCode` of libs/code-analysis: fenced blocks tagged as shell or sniffed as such, console
 * prompts stripped and their output left out), whose first word reads as a program. Package
 * manager commands are left out (C8 probes packages; they need the network the sandbox lacks).
 */
import { embeddedCode } from '@skillhub/code-analysis';

export interface ShellBlock {
  /** The Markdown file it is in. */
  file: string;
  /** 1-based line of its first command. */
  line: number;
  script: string;
}

export interface SkippedCommand {
  file: string;
  line: number;
  command: string;
  reason: string;
}

/** A first word that can name a program (not a tree's `├──`, not a sentence's `Note:`). */
const LOOKS_LIKE_A_COMMAND = /^(?:sudo\s+)?[A-Za-z0-9_.~/$-][\w.~/$+-]*(?:\s|$)/;
/**
 * Package managers at work on the user's project (install, test, build, run a tool): they reach their
 * registry whatever the skill is, and what they fetch is judged by C8 and C15, what they run from the
 * skill's own files (package.json scripts) by C11.
 */
const PACKAGE_INSTALL =
  /^(?:sudo\s+)?(?:(?:npm|pnpm|yarn|bun|npx|bunx|pnpx|uvx|pipx|poetry|conda|mamba|brew|apt|apt-get|apk|dnf|yum|gem|cargo|go|composer)(?:\s|$)|(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+(?:install|download|wheel)\b|uv\s+(?:add|sync|lock|tool|run|pip)\b)/;

export const isMarkdownWithCommands = (path: string): boolean => {
  const lower = path.toLowerCase();
  const name = lower.split('/').at(-1) ?? '';
  return (
    (name === 'skill.md' || name === 'readme.md' || lower.startsWith('references/') || !lower.includes('/')) &&
    /\.(?:md|markdown)$/.test(name)
  );
};

/** The shell blocks of one Markdown text, and the package manager commands left out of them. */
export const shellBlocks = (file: string, text: string): { blocks: ShellBlock[]; skipped: SkippedCommand[] } => {
  const blocks: ShellBlock[] = [];
  const skipped: SkippedCommand[] = [];
  for (const piece of embeddedCode(file, text)) {
    if (piece.language !== 'shell' || piece.shape !== 'block') continue;
    // Lines stay in place (blanked where a console session shows output), so each keeps its line number.
    const lines = piece.code.split('\n').map((code, index) => ({ code, line: piece.line + index }));
    const commands = lines.filter(({ code }) => code.trim() !== '' && !code.trim().startsWith('#'));
    // An untagged block of prose or a file tree is not a program anyone runs.
    if (!LOOKS_LIKE_A_COMMAND.test(commands[0]?.code.trim() ?? '')) continue;
    const kept: string[] = [];
    let first: number | null = null;
    for (const { code, line } of lines) {
      if (PACKAGE_INSTALL.test(code.trim())) {
        skipped.push({
          file,
          line,
          command: code.trim(),
          reason: 'a package manager command: it reaches its registry, and C8 probes the packages a skill names',
        });
        kept.push('');
        continue;
      }
      if (first === null && code.trim() !== '' && !code.trim().startsWith('#')) first = line;
      kept.push(code);
    }
    if (first !== null) blocks.push({ file, line: first, script: kept.join('\n').trim() });
  }
  return { blocks, skipped };
};
