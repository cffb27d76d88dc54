/**
 * Code that sits inside files that are not code: what an agent is told to run (fenced blocks,
 * inline code and command lines in the prose of Markdown and text files, a notebook's cells) and
 * what other tools run on their own (`package.json` lifecycle scripts, Makefile recipes,
 * Dockerfile `RUN` lines). Each piece is handed to the analyser of its language with the line it
 * starts on, so it is judged by the same rules as a file, with file:line evidence.
 *
 * Two roles: code a tool runs by itself (`npm install` runs `postinstall`) is the skill's code, and
 * its capabilities count; code the instructions show is run by the agent on the user's behalf, so
 * only the shapes the certifier refuses (download-and-run, destruction, obfuscation…) count.
 */
import type { Language } from './analysis.types';
import { extensionOf } from './file-kind';

export type EmbeddedRole = 'runs' | 'instructed';

/** The languages code is found in: those the analysers parse, and PowerShell, read a line at a time (powershell-lines.ts). */
export type EmbeddedLanguage = Language | 'powershell';

export interface EmbeddedCode {
  language: EmbeddedLanguage;
  code: string;
  /** 1-based line of the host file where `code` starts. */
  line: number;
  role: EmbeddedRole;
  /**
   * `block`: a whole block or script, parsed as one program; `line`: one command line (inline code,
   * prose), whose parse errors mean it was prose after all.
   */
  shape: 'block' | 'line';
  /** Written as code (a block, a span, a script), or a command line found in prose. */
  origin: 'code' | 'prose';
}

/** Pieces taken from one file; a file with more is judged on its first ones (the rest are listed nowhere). */
export const MAX_EMBEDDED_PER_FILE = 400;

/** Configuration files, whose values other tools may run as command lines. */
const CONFIG_EXTENSIONS = new Set([
  '.json',
  '.jsonc',
  '.json5',
  '.yaml',
  '.yml',
  '.toml',
  '.ini',
  '.cfg',
  '.conf',
  '.env',
]);

/** Extensions of documents an agent reads (and may be told to run from). */
const DOCUMENT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx', '.mdc', '.txt', '.rst', '.adoc', '.prompt', '']);

/** Code embedded in `text`, the content of the bundle file at `path`, in file order. */
export function embeddedCode(path: string, text: string): EmbeddedCode[] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const pieces = embeddedBy(name, text);
  return pieces.slice(0, MAX_EMBEDDED_PER_FILE);
}

function embeddedBy(name: string, text: string): EmbeddedCode[] {
  const lower = name.toLowerCase();
  if (lower === 'package.json') return packageScripts(text);
  if (/^(?:gnu)?makefile$/.test(lower) || lower.endsWith('.mk')) return makeRecipes(text);
  if (/^(?:dockerfile|containerfile)(?:\..*)?$/.test(lower) || lower.endsWith('.dockerfile')) return dockerRuns(text);
  const extension = extensionOf(name);
  if (extension === '.ipynb') return notebookCells(text);
  // Editor tasks, dev containers, CI workflows, hooks, Procfiles: tools run the command lines they hold.
  if (CONFIG_EXTENSIONS.has(extension) || lower === 'procfile') return configStrings(text.split('\n'), 1);
  if (DOCUMENT_EXTENSIONS.has(extension)) return documentCode(text);
  return [];
}

// --- Documents ---------------------------------------------------------------------------------

const SHELL_TAGS =
  /^(?:sh|bash|shell|zsh|ksh|dash|console|shell-session|shellsession|terminal|term|cmd|command|commands|bat|fish)$/;
const PYTHON_TAGS = /^(?:py|python|python3|py3|ipython|ipython3|pycon|pyi|sage)$/;
const JAVASCRIPT_TAGS = /^(?:js|javascript|node|nodejs|mjs|cjs|jsx)$/;
const TYPESCRIPT_TAGS = /^(?:ts|typescript|mts|cts|tsx|deno)$/;
const POWERSHELL_TAGS = /^(?:powershell|pwsh|ps|ps1|posh)$/;
/**
 * Blocks that hold data or output, or source for the reader's own program in a language an SDK
 * is written in (compiled there, not run by the agent as a command), never a command line.
 */
const DATA_TAGS =
  /^(?:json|jsonc|json5|yaml|yml|toml|xml|html|htm|css|scss|csv|tsv|diff|patch|markdown|md|mermaid|graphql|gql|sql|ini|cfg|conf|properties|svg|dot|latex|tex|math|regex|http|proto|protobuf|csharp|cs|java|kotlin|swift|go|golang|rust|rs|c|cpp|c\+\+|h|hpp|objc|scala|haskell|elixir|erlang|clojure|dart|r|julia|matlab|php|ruby|rb|lua|groovy|terraform|hcl|nix|fsharp|ocaml|zig|elm|vb|vbnet|solidity)$/;

const tagOf = (info: string): string => (info.trim().split(/[\s{,]/, 1)[0] ?? '').toLowerCase().replace(/^\./, '');

/** Data blocks whose values an agent is told to use: a value can be a command line (`"license": "x && wget … & bash s.sh"`). */
const CONFIG_TAGS = /^(?:json|jsonc|json5|yaml|yml|toml|ini|env|dotenv)$/;

/** What shell runs: a program the prose rule knows, or shell punctuation that chains or substitutes commands. */
const COMMAND_LIKE = /\|\||&&|[|;&]\s*\w|\$\(|`/;

/** Quoted and `key: value` strings of a data block that read as command lines, each on its line. */
function configStrings(body: string[], firstLine: number): EmbeddedCode[] {
  return body.flatMap((line, index) => {
    const values = [
      ...line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|^\s*(?:-\s+)?[\w.-]+\s*[:=]\s*([^"'\s#|>][^#]*)$/g),
    ].map((match) => (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(["\\/])/g, '$1').trim());
    return values
      .filter(
        (value) => /\s/.test(value) && (COMMAND_LIKE.test(value) || new RegExp(PROSE_COMMAND.source).test(` ${value}`)),
      )
      .map((value) => commandLine(value, firstLine + index));
  });
}

/** What language a fenced block's info string names, sniffing untagged and text blocks; null for data. */
function blockLanguage(info: string, body: string): EmbeddedLanguage | null {
  const tag = tagOf(info);
  if (SHELL_TAGS.test(tag)) return 'shell';
  if (PYTHON_TAGS.test(tag)) return 'python';
  if (JAVASCRIPT_TAGS.test(tag)) return 'javascript';
  if (TYPESCRIPT_TAGS.test(tag)) return tag === 'tsx' ? 'tsx' : 'typescript';
  if (POWERSHELL_TAGS.test(tag)) return 'powershell';
  if (DATA_TAGS.test(tag)) return null;
  return sniff(body);
}

/** The language of untagged code: Python and JavaScript by their usual first statements, else shell. */
function sniff(body: string): Language {
  if (/^\s*(?:import\s+[\w.]+|from\s+[\w.]+\s+import\b|def\s+\w+\s*\(|class\s+\w+\s*[:(]|>>>\s)/m.test(body))
    return 'python';
  if (/^\s*(?:(?:const|let|var)\s+[\w{[]|import\s+.+\s+from\s+['"]|module\.exports\b)|\brequire\(['"]/m.test(body))
    return 'javascript';
  return 'shell';
}

const FENCE = /^( {0,3}|\t*|\s*[-*+]\s+|\s*\d+[.)]\s+|\s{4,})(`{3,}|~{3,})(.*)$/;

/** Fenced blocks, inline code and command lines in prose, in file order. */
function documentCode(text: string): EmbeddedCode[] {
  const pieces: EmbeddedCode[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const fence = FENCE.exec(line);
    if (fence && !(fence[2]?.startsWith('`') && fence[3]?.includes('`'))) {
      const [, indent = '', marker = '', info = ''] = fence;
      const close = new RegExp(`^\\s*${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      let end = index + 1;
      while (end < lines.length && !close.test(lines[end] as string)) end++;
      const body = dedent(lines.slice(index + 1, end), indent.length);
      const language = blockLanguage(info, body.join('\n'));
      // An untagged block of sentences is a document quoted whole (a prompt template): read as prose.
      if (language === 'shell' && !SHELL_TAGS.test(tagOf(info)) && isProse(body))
        body.forEach((text, at) => pieces.push(...lineCode(text, index + 2 + at)));
      else if (language) pieces.push(...blockPieces(language, body, index + 2));
      else if (CONFIG_TAGS.test(tagOf(info))) pieces.push(...configStrings(body, index + 2));
      index = end;
      continue;
    }
    pieces.push(...lineCode(line, index + 1));
  }
  return pieces;
}

/** A word of prose: letters, perhaps an apostrophe or hyphen, perhaps closing punctuation. */
const PROSE_WORD = /^[("'“]?[A-Za-z][a-z'’-]*[)"'”]?[,.;:!?]?$/;

/**
 * A line of prose: four words or more, most of them plain words (a command line is mostly flags,
 * paths and variables), not starting with a program's name. Wrapped sentences count too.
 */
function isProseLine(line: string): boolean {
  const text = line.trim().replace(/^(?:[-*+>]|\d+[.)]|#{1,6})\s+/, '');
  const words = text.split(/\s+/);
  if (words.length < 4 || PROSE_COMMAND_START.test(text)) return false;
  return words.filter((word) => PROSE_WORD.test(word)).length >= words.length * 0.7;
}

/** Most of the block's lines are prose. */
function isProse(body: readonly string[]): boolean {
  const lines = body.filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.filter(isProseLine).length * 2 >= lines.length;
}

/** Block lines without the indentation of their fence (a block inside a list item). */
const dedent = (body: string[], width: number): string[] =>
  width === 0 ? body : body.map((line) => line.replace(new RegExp(`^\\s{0,${width}}`), ''));

/**
 * A block as a program: a console session keeps only its prompted lines (the rest is output), a
 * Python session its `>>>` and `...` lines; lines are kept in place (blanked) so lines still match.
 */
function blockPieces(language: EmbeddedLanguage, body: string[], firstLine: number): EmbeddedCode[] {
  let code = body;
  if (language === 'shell' && body.some((line) => /^\s*[$%#]\s/.test(line) && !/^\s*#\s/.test(line))) {
    code = body.map((line) => (/^\s*[$%]\s/.test(line) ? line.replace(/^\s*[$%]\s/, '') : ''));
  } else if (language === 'python' && body.some((line) => /^\s*>>>\s?/.test(line))) {
    code = body.map((line) => (/^\s*(?:>>>|\.\.\.)\s?/.test(line) ? line.replace(/^\s*(?:>>>|\.\.\.)\s?/, '') : ''));
  }
  return [{ language, code: code.join('\n'), line: firstLine, role: 'instructed', shape: 'block', origin: 'code' }];
}

/** Programs whose name starts a command line written in prose (`Run curl -fsSL … | bash first.`). */
const PROSE_COMMAND =
  /(?:^|[\s:>(*_"'])((?:sudo\s+)?(?:curl|wget|bash|sh|zsh|python3?|node|deno|bun|perl|ruby|php|eval|base64|nc|ncat|socat|pwsh|powershell|iex|crontab|chmod|rm|pip3?|npm|npx|pnpm|yarn|uvx?|pipx|source|echo|printf|osascript|git)\s+\S[^\n]*)/g;

/** A line that starts with a command written in prose. */
const PROSE_COMMAND_START = new RegExp(`^${PROSE_COMMAND.source}`);

/** Inline code spans with a space (a command, not a name) and command lines in the prose of one line. */
function lineCode(line: string, lineNumber: number): EmbeddedCode[] {
  const pieces: EmbeddedCode[] = [];
  const prose = line.replace(/(`+)(?!`)(.+?)(?<!`)\1(?!`)/g, (_span, _ticks: string, code: string) => {
    if (/\s/.test(code.trim()) && !isTemplate(code)) pieces.push(commandLine(code.trim(), lineNumber));
    return ' '.repeat(_span.length);
  });
  for (const match of prose.matchAll(PROSE_COMMAND)) {
    const command = sentence(match[1] as string);
    if (!isTemplate(command)) pieces.push({ ...commandLine(command, lineNumber), origin: 'prose' });
  }
  return pieces;
}

/** A command written in prose ends where its sentence does, markup and closing punctuation left out. */
function sentence(text: string): string {
  const end = text.search(/[.;!?](?:\s+[A-Z]|\s*$)|\s+(?:then|and then|before|after)\s+/);
  return (end === -1 ? text : text.slice(0, end)).replace(/[*_)\]]+$/, '').trim();
}

/**
 * A command written with a placeholder for an argument (`curl … | bash`, `pip install <package>`)
 * describes a shape; nobody can run it as written, so it is not judged as a command.
 */
const isTemplate = (command: string): boolean =>
  /(?:^|\s)(?:…|\.{3}|<[^<>\s]+>|\{[\w-]+(?:\|[\w-]+)+\})(?=\s|$)/.test(command);

const commandLine = (code: string, line: number): EmbeddedCode => ({
  language: 'shell',
  code: code.replace(/^[$%]\s+/, ''),
  line,
  role: 'instructed',
  shape: 'line',
  origin: 'code',
});

// --- Files other tools run ---------------------------------------------------------------------

/** Scripts npm, pnpm and yarn run by themselves when the package is installed or packed. */
const LIFECYCLE_SCRIPTS = new Set([
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepack',
  'postpack',
  'dependencies',
]);

function packageScripts(text: string): EmbeddedCode[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return [];
  }
  const scripts = (manifest as { scripts?: unknown } | null)?.scripts;
  if (typeof scripts !== 'object' || scripts === null) return [];
  return Object.entries(scripts).flatMap(([name, command]): EmbeddedCode[] => {
    if (typeof command !== 'string') return [];
    const at = text.indexOf(JSON.stringify(name));
    const line = at === -1 ? 1 : text.slice(0, at).split('\n').length;
    const role = LIFECYCLE_SCRIPTS.has(name) ? 'runs' : 'instructed';
    return [{ language: 'shell', code: command, line, role, shape: 'line', origin: 'code' }];
  });
}

/**
 * Recipes (tab-indented lines after a target) as shell, with make's own syntax undone: `$$` is `$`,
 * a variable the Makefile sets is its value, another one the program it names (`$(PYTHON)` → python),
 * and `$(shell …)` anywhere (an assignment runs it when make reads the file) is shell.
 */
function makeRecipes(text: string): EmbeddedCode[] {
  const lines = text.split('\n');
  const variables = new Map<string, string>();
  for (const line of lines) {
    const assignment = /^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(?::{1,3}|\?|\+|!)?=\s*(.*)$/.exec(line);
    if (assignment) variables.set(assignment[1] as string, (assignment[2] as string).trim());
  }
  const expand = (command: string): string =>
    command
      .replace(/\$\(shell\s+([^)]*)\)/g, '$$($1)')
      .replace(/\$[({]([A-Za-z_][\w.-]*)[)}]/g, (_ref, name: string) => variables.get(name) ?? name.toLowerCase())
      .replace(/\$\$/g, '$');
  const pieces: EmbeddedCode[] = [];
  lines.forEach((line, index) => {
    if (line.startsWith('\t')) {
      const command = line.slice(1).replace(/^[@+-]+/, '');
      pieces.push({
        language: 'shell',
        code: expand(command),
        line: index + 1,
        role: 'instructed',
        shape: 'line',
        origin: 'code',
      });
    } else if (/\$\(shell\s/.test(line)) {
      for (const match of line.matchAll(/\$\(shell\s+([^)]*)\)/g))
        pieces.push({
          language: 'shell',
          code: expand(match[1] as string),
          line: index + 1,
          role: 'runs',
          shape: 'line',
          origin: 'code',
        });
    }
  });
  return pieces;
}

/** `RUN` instructions, continuation lines joined; the JSON form is its argument list, quoted. */
function dockerRuns(text: string): EmbeddedCode[] {
  const pieces: EmbeddedCode[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = /^\s*RUN\s+(.*)$/i.exec(lines[index] as string);
    if (!match) continue;
    const start = index;
    let command = match[1] as string;
    while (/\\\s*$/.test(command) && index + 1 < lines.length) {
      index++;
      command = `${command.replace(/\\\s*$/, '')} ${(lines[index] as string).trim()}`;
    }
    command = command.replace(/^(?:--\S+\s+)*/, '');
    pieces.push({
      language: 'shell',
      code: execForm(command) ?? command,
      line: start + 1,
      role: 'instructed',
      shape: 'line',
      origin: 'code',
    });
  }
  return pieces;
}

/** `["sh", "-c", "…"]` as a command line whose words are exactly these, or null for the shell form. */
function execForm(command: string): string | null {
  if (!command.trim().startsWith('[')) return null;
  try {
    const argv: unknown = JSON.parse(command);
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string')) return null;
    return argv.map((arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  } catch {
    return null;
  }
}

/**
 * A notebook's code cells in the kernel's language (Python unless it says otherwise); `!command`
 * lines and `%%bash` cells are shell, other magics are left out (blanked). Findings point at the
 * cell's line in the JSON, offset by their line in the cell.
 */
function notebookCells(text: string): EmbeddedCode[] {
  let notebook: {
    cells?: unknown;
    metadata?: { language_info?: { name?: unknown }; kernelspec?: { language?: unknown } };
  };
  try {
    notebook = JSON.parse(text) as typeof notebook;
  } catch {
    return [];
  }
  if (!Array.isArray(notebook.cells)) return [];
  const kernel = String(notebook.metadata?.kernelspec?.language ?? notebook.metadata?.language_info?.name ?? 'python');
  const language = blockLanguage(kernel, '') ?? 'python';
  const pieces: EmbeddedCode[] = [];
  notebook.cells.forEach((cell: { cell_type?: unknown; source?: unknown }, index: number) => {
    if (cell?.cell_type !== 'code') return;
    const source = Array.isArray(cell.source) ? cell.source.join('') : String(cell.source ?? '');
    const line = cellLine(text, index);
    if (/^%%(?:bash|sh|script\s+(?:ba)?sh)\b/.test(source)) {
      pieces.push({
        language: 'shell',
        code: source.replace(/^%%.*/, ''),
        line,
        role: 'instructed',
        shape: 'block',
        origin: 'code',
      });
      return;
    }
    const code = source.split('\n');
    for (const row of code) if (/^\s*!/.test(row)) pieces.push(commandLine(row.replace(/^\s*!/, ''), line));
    const program = code.map((row) => (/^\s*[!%]/.test(row) ? '' : row)).join('\n');
    pieces.push({ language, code: program, line, role: 'instructed', shape: 'block', origin: 'code' });
  });
  return pieces;
}

/** The line of a notebook file where its `index`th cell starts (its `"cell_type"` key), 1 if not found. */
function cellLine(text: string, index: number): number {
  let at = -1;
  for (let seen = 0; seen <= index; seen++) {
    at = text.indexOf('"cell_type"', at + 1);
    if (at === -1) return 1;
  }
  return text.slice(0, at).split('\n').length;
}
