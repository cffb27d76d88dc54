/**
 * Which bundle files are handed to an interpreter, and so are code in that interpreter's language
 * whatever they are called: `node server.txt` in a launch spec, `sh config.json` in a script,
 * `python3 data.csv` in the instructions. A file is what runs it, not what its name says.
 */
import type { Language } from './analysis.types';
import { SHELLS, interpreterOf, programName, type Interpreter } from './shell-commands';

/** The language each interpreter runs, where the hub has a parser for it. */
const PARSED: Partial<Record<Interpreter, Language>> = {
  python: 'python',
  node: 'javascript',
  deno: 'typescript',
  bun: 'typescript',
};

/**
 * What an interpreter's name says about the language it runs (the shell rules' own reading of
 * program names); `null`: a language the hub has no parser for; undefined: not an interpreter.
 */
export function interpreterLanguage(program: string): Language | null | undefined {
  const name = programName(program);
  if (SHELLS.has(name) || name === 'source' || name === '.') return 'shell';
  if (name === 'tsx' || name === 'ts-node') return 'typescript';
  const interpreter = interpreterOf(name);
  if (interpreter === null) return /^[gmn]?awk$/.test(name) ? null : undefined;
  return PARSED[interpreter] ?? null;
}

/** A file run by an interpreter, as the argv or the text that runs it says. */
export interface RanFile {
  path: string;
  /** null: an interpreter whose language the hub cannot parse. */
  language: Language | null;
  /** Where it is said, for the evidence. */
  by: string;
}

/** The file an argv runs (`["python3", "-u", "x.py"]`), if its program is an interpreter and the file is in the bundle. */
export function fileRunBy(argv: readonly string[], files: ReadonlySet<string>, folder = ''): RanFile | null {
  const [program, ...args] = argv;
  const language = program === undefined ? undefined : interpreterLanguage(program);
  if (language === undefined) return null;
  const script = args.find((arg) => !arg.startsWith('-'));
  const path = script === undefined ? null : bundlePath(script, files, folder);
  return path === null ? null : { path, language, by: argv.join(' ') };
}

/**
 * Files a piece of code runs with an interpreter (`bash notes.md`, `python3 ./data.csv`,
 * `["node", "server.txt"]`), each path looked up from the folder of the text and from the root.
 * Code only, never prose: "each node README.md lists" is not a command.
 */
export function filesRunIn(text: string, textPath: string, files: ReadonlySet<string>): RanFile[] {
  const folder = textPath.includes('/') ? textPath.slice(0, textPath.lastIndexOf('/')) : '';
  const found: RanFile[] = [];
  const pattern =
    /(?:^|[\s;&|(`'"[,])((?:[\w./-]*\/)?(?:python[\d.]*|pypy[\d.]*|sh|bash|dash|zsh|ksh|node|nodejs|deno|bun|tsx|ts-node|perl|ruby|php|source))["',\s]+(?:-{1,2}[\w-]+["',\s]+)*["']?((?:\.{0,2}\/)?[\w@%+~-][\w./@%+~-]*)/g;
  for (const match of text.matchAll(pattern)) {
    const hit = fileRunBy([match[1] as string, match[2] as string], files, folder);
    if (hit) found.push(hit);
  }
  return found;
}

/** The bundle path `written` names, from `folder` or from the root, or null when it is not a bundle file. */
function bundlePath(written: string, files: ReadonlySet<string>, folder: string): string | null {
  const clean = written.replace(/^(?:\$\{?\w+\}?\/)/, '');
  for (const base of folder === '' ? [''] : [folder, '']) {
    const path = normalise(base === '' ? clean : `${base}/${clean}`);
    if (path !== null && files.has(path)) return path;
  }
  return null;
}

function normalise(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.pop() === undefined) return null;
    } else parts.push(part);
  }
  return parts.join('/');
}
