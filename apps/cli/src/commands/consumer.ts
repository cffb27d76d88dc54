/**
 * Using skills, with npm's habits: install (verified offline, where a Kazma host loads it, recorded
 * in skillhub-lock.json), install --frozen (exactly the lock, or nothing), outdated, update,
 * uninstall, verify, list. docs/cli.md describes the lockfile.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import * as semver from 'semver';
import { HubUnreachableError, type HubClient, type SkillResponse } from '@skillhub/hub-client';
import {
  readInstallRecord,
  SkillInstaller,
  toTrustedKeys,
  TrustState,
  verifyInstalledSkill,
  type HubReader,
  type InstallResult,
} from '@skillhub/installer';
import type { CliContext } from '../cli-context';
import { orSuggest } from '../did-you-mean';
import { CliError, EXIT } from '../exit-codes';
import { lines, table, tty } from '../format';
import {
  certificateDigest,
  LOCKFILE,
  lockDifferences,
  readLockfile,
  writeLockfile,
  type LockEntry,
  type Lockfile,
} from '../lockfile';

/** `author/name`, `author/name@range`; a range is at most 64 characters. */
const SPEC = /^([^/@\s]+)\/([^/@\s]+)(?:@(.{1,64}))?$/;

interface Spec {
  author: string;
  name: string;
  ref: string;
  /** Undefined for a bare name: the latest certified version. */
  range?: string;
}

function parseSpec(spec: string): Spec {
  const match = SPEC.exec(spec);
  if (!match || (match[3] !== undefined && semver.validRange(match[3]) === null)) {
    throw new CliError(
      `"${spec}" is not author/name[@range]`,
      EXIT.usage,
      'e.g. acme-labs/weather or acme-labs/weather@^1.0.0',
    );
  }
  return { author: match[1]!, name: match[2]!, ref: `${match[1]}/${match[2]}`, range: match[3] };
}

const splitRef = (ref: string): Spec => parseSpec(ref);

const BARE = /^([a-z0-9][a-z0-9-]{0,63})(?:@(.{1,64}))?$/;

/**
 * `author/name[@range]`, or a bare `name[@range]` when exactly one author publishes a skill of that
 * name (as npm resolves an unscoped name); several are listed for the user to choose.
 */
async function resolveSpec(hub: HubClient, spec: string): Promise<Spec> {
  const bare = BARE.exec(spec);
  if (!bare) return parseSpec(spec);
  const [, name, range] = bare;
  const { items } = await hub.listSkills({ q: name, per_page: 100 });
  const authors = [...new Set(items.filter((item) => item.name === name).map((item) => item.author))].sort();
  if (authors.length === 0) {
    throw new CliError(`no skill is named ${name}`, EXIT.notFound, `Search for it: skillhub search ${name}`);
  }
  if (authors.length > 1) {
    throw new CliError(
      `${authors.length} authors publish a skill named ${name}: ${authors.join(', ')}`,
      EXIT.usage,
      `Say which, e.g. skillhub install ${authors[0]}/${name}`,
    );
  }
  return parseSpec(`${authors[0]}/${name}${range === undefined ? '' : `@${range}`}`);
}

/** Certified, not yanked: what install may choose, newest first. */
const installable = (skill: SkillResponse): string[] =>
  skill.versions
    .filter((v) => v.status !== 'yanked' && v.certification.status === 'certified' && semver.valid(v.version))
    .map((v) => v.version)
    .sort(semver.rcompare);

type InstalledSkill = Extract<InstallResult, { ok: true }>;

class LockMismatchError extends CliError {
  constructor(path: string, ref: string, differences: string[]) {
    super(
      `${path}: ${ref} changed: ${differences.join('; ')}`,
      EXIT.refused,
      'The hub serves other bytes or another certificate than the lock recorded: find out why before trusting it ' +
        `(skillhub info ${ref}); to accept it, install it again without --frozen.`,
    );
  }
}

/**
 * The installer's hub, recording what it verified (for the lock) and, for a locked install,
 * refusing the moment anything differs from the entry, before a byte is written.
 */
class LockingHub implements HubReader {
  served: { certificate_sha256?: string; log_index?: number; bundle_sha256?: string } = {};

  constructor(
    private readonly hub: HubClient,
    private readonly check?: (served: LockingHub['served'] & { version: string }) => void,
  ) {}

  get baseUrl(): string {
    return this.hub.baseUrl;
  }

  getSkill(author: string, name: string) {
    return this.hub.getSkill(author, name);
  }

  async certificate(author: string, name: string, version: string) {
    const certificate = await this.hub.certificate(author, name, version);
    this.served = {
      ...this.served,
      certificate_sha256: certificateDigest(certificate.envelope),
      log_index: certificate.log_index,
    };
    this.check?.({ ...this.served, version });
    return certificate;
  }

  async downloadBundle(author: string, name: string, version: string) {
    const bundle = await this.hub.downloadBundle(author, name, version);
    this.served = { ...this.served, bundle_sha256: bundle.sha256 };
    this.check?.({ ...this.served, version });
    return bundle;
  }

  logEntry(index: number) {
    return this.hub.logEntry(index);
  }

  consistencyProof(first: number, second: number) {
    return this.hub.consistencyProof(first, second);
  }

  keys() {
    return this.hub.keys();
  }

  revocations() {
    return this.hub.revocations();
  }
}

interface ConsumerOptions {
  dir: string;
  lockfile?: string;
  logOrigin?: string;
}

/** `--lockfile`, else skillhub-lock.json in the folder that holds the install folder (the project, for `.skillhub`). */
const lockPath = (o: ConsumerOptions): string => o.lockfile ?? join(dirname(resolve(o.dir)), LOCKFILE);

export function consumerCommands(program: Command, ctx: CliContext): void {
  const { env, print, client, progress, hubUrl } = ctx;
  // Kazma's user home holds `skills/<name>`, where its SkillLoader looks.
  const home = env.KAZMA_USER_HOME || '.skillhub';
  const dirOption = (what: string) =>
    [`--dir <path>`, `${what} (default: KAZMA_USER_HOME, else .skillhub)`, home] as const;
  const lockOption = [
    '--lockfile <path>',
    `the lockfile (default: ${LOCKFILE} beside the --dir folder, so in the project for .skillhub)`,
  ] as const;
  const warn = (warnings: readonly string[]) => warnings.forEach((w) => progress.done(`warning: ${w}`));

  /** The lock for this hub: a lock made against another hub is refused rather than mixed. */
  const lockFor = (cmd: Command, o: ConsumerOptions, required: boolean): Lockfile => {
    const hub = hubUrl(cmd);
    const lock = readLockfile(lockPath(o));
    if (!lock) {
      if (required)
        throw new CliError(`no ${lockPath(o)}`, EXIT.usage, 'Install a skill first: skillhub install <author/name>');
      return {
        lockfile_version: 1,
        hub,
        log_origin: o.logOrigin ?? env.HUB_LOG_ORIGIN ?? 'skillhub.local/log',
        skills: {},
      };
    }
    if (lock.hub !== hub) {
      throw new CliError(
        `${lockPath(o)} was resolved against ${lock.hub}, and the CLI points at ${hub}`,
        EXIT.usage,
        `Pass --hub-url ${lock.hub}, or move the lock aside to start one for ${hub}.`,
      );
    }
    return o.logOrigin === undefined ? lock : { ...lock, log_origin: o.logOrigin };
  };

  /** Installs one skill (exactly `locked` when given) and returns its lock entry. */
  const installOne = async (cmd: Command, o: ConsumerOptions, lock: Lockfile, spec: Spec, locked?: LockEntry) => {
    const hub = client(cmd);
    const range = locked ? locked.version : (spec.range ?? '*');
    const recorder = new LockingHub(
      hub,
      locked &&
        ((served) => {
          const differences = lockDifferences(locked, served);
          if (differences.length) throw new LockMismatchError(lockPath(o), spec.ref, differences);
        }),
    );
    const installer = new SkillInstaller(recorder, {
      installDir: join(o.dir, 'skills'),
      state: new TrustState(join(o.dir, 'trust')),
      logOrigin: lock.log_origin,
      pinnedKeys: [],
      kazmaSecret: env.KAZMA_SECRET,
    });
    progress.step(`resolving, downloading and verifying ${spec.ref}@${range}`, { quiet: true });
    const result = await orSuggest(hub, spec.author, spec.name, () => installer.install(spec.author, spec.name, range));
    if (!result.ok) {
      if (result.reason === 'no-matching-version')
        throw new CliError(result.message, EXIT.notFound, 'See skillhub info.');
      throw new CliError(`refused ${spec.ref}: ${result.reason}: ${result.message}`, EXIT.refused);
    }
    warn(result.warnings);
    const { served } = recorder;
    const entry: LockEntry = {
      // A bare name is saved as npm saves it: compatible with what was installed.
      range: locked?.range ?? spec.range ?? `^${result.version}`,
      version: result.version,
      bundle_sha256: served.bundle_sha256!,
      certificate_sha256: served.certificate_sha256!,
      log_index: served.log_index!,
    };
    return { result, entry };
  };

  program
    .command('install [specs...]')
    .description(
      'install certified skills (author/name for the latest certified version, or author/name@range) in ' +
        '<dir>/skills/<name>, where a Kazma host loads them, each verified offline before anything is written, ' +
        'and record them in skillhub-lock.json; with no skill, or --frozen, install exactly what the lock says',
    )
    .option(...dirOption('where skills and the trust state live'))
    .option(...lockOption)
    .option(
      '--frozen',
      'install exactly the lockfile; refuse any entry the hub now serves differently, and change no lock',
    )
    .option(
      '--log-origin <origin>',
      "the hub log's origin (default: the lock's, else HUB_LOG_ORIGIN, else skillhub.local/log)",
    )
    .action(async (specs: string[], o: ConsumerOptions & { frozen?: boolean }, cmd: Command) => {
      if (o.frozen || specs.length === 0) {
        if (specs.length) throw new CliError('--frozen installs the lockfile and takes no skill', EXIT.usage);
        const lock = lockFor(cmd, o, true);
        const installed: Array<{ skill: string; version: string; path: string }> = [];
        for (const [ref, locked] of Object.entries(lock.skills)) {
          const { result } = await installOne(cmd, o, lock, splitRef(ref), locked);
          installed.push({ skill: ref, version: result.version, path: result.path });
        }
        return print(cmd, { frozen: true, lockfile: resolve(lockPath(o)), installed }, () =>
          lines(
            tty`installed ${installed.length} skill(s) exactly as ${lockPath(o)} records them (verified offline)`,
            ...installed.map((s) => tty`  ${s.skill}@${s.version}`),
          ),
        );
      }
      const parsed = await Promise.all(specs.map((spec) => resolveSpec(client(cmd), spec)));
      const lock = lockFor(cmd, o, false);
      const installed: Array<Omit<InstalledSkill, 'skill' | 'statement'> & { level: string; lock: LockEntry }> = [];
      for (const spec of parsed) {
        const { result, entry } = await installOne(cmd, o, lock, spec);
        lock.skills[spec.ref] = entry;
        // Written after each, so an install refused later keeps the lock true to what is on disk.
        writeLockfile(lockPath(o), lock);
        const { skill: _skill, statement, ...shown } = result;
        installed.push({ ...shown, level: statement.level, lock: entry });
      }
      print(cmd, installed.length === 1 ? installed[0] : installed, () =>
        lines(
          ...installed.map(
            (r) => tty`installed ${r.author}/${r.name}@${r.version} in ${r.path} (verified offline, ${r.level})`,
          ),
        ),
      );
    });

  /** Each locked skill's current, wanted (the newest certified within its range) and latest certified version. */
  const outdatedOf = async (cmd: Command, lock: Lockfile, only: string[]) => {
    const hub = client(cmd);
    const refs = only.length ? only.map((r) => parseSpec(r).ref) : Object.keys(lock.skills);
    const rows: Array<{ skill: string; range: string; current: string; wanted: string; latest: string }> = [];
    for (const ref of refs) {
      const entry = lock.skills[ref];
      if (!entry) throw new CliError(`${ref} is not in the lockfile`, EXIT.notFound, 'See skillhub list.');
      const { author, name } = splitRef(ref);
      const versions = installable(await orSuggest(hub, author, name, () => hub.getSkill(author, name)));
      const wanted = versions.find((v) => semver.satisfies(v, entry.range)) ?? entry.version;
      rows.push({
        skill: ref,
        range: entry.range,
        current: entry.version,
        wanted,
        latest: versions[0] ?? entry.version,
      });
    }
    return rows;
  };

  program
    .command('outdated [skills...]')
    .description('locked skills with a newer certified version: wanted (within the range) and latest')
    .option(...dirOption('where skills were installed'))
    .option(...lockOption)
    .action(async (only: string[], o: ConsumerOptions, cmd: Command) => {
      const rows = (await outdatedOf(cmd, lockFor(cmd, o, true), only)).filter(
        (r) => semver.gt(r.wanted, r.current) || semver.gt(r.latest, r.current),
      );
      print(cmd, rows, () =>
        table(
          ['SKILL', 'CURRENT', 'WANTED', 'LATEST', 'RANGE'],
          rows.map((r) => [r.skill, r.current, r.wanted, r.latest, r.range]),
        ),
      );
      // As npm's: 1 when something is outdated, so a script can tell.
      if (rows.length > 0) ctx.setExitCode(EXIT.other);
    });

  program
    .command('update [skills...]')
    .description('install the newest certified version within each locked range, and record it in the lock')
    .option(...dirOption('where skills and the trust state live'))
    .option(...lockOption)
    .option('--log-origin <origin>', "the hub log's origin (default: the lock's)")
    .action(async (only: string[], o: ConsumerOptions, cmd: Command) => {
      const lock = lockFor(cmd, o, true);
      const updated: Array<{ skill: string; from: string; to: string }> = [];
      for (const row of await outdatedOf(cmd, lock, only)) {
        if (!semver.gt(row.wanted, row.current)) continue;
        const spec = { ...splitRef(row.skill), range: row.range };
        const { entry } = await installOne(cmd, o, lock, spec);
        lock.skills[row.skill] = entry;
        writeLockfile(lockPath(o), lock);
        updated.push({ skill: row.skill, from: row.current, to: entry.version });
      }
      print(cmd, updated, () =>
        updated.length
          ? lines(...updated.map((u) => tty`updated ${u.skill}: ${u.from} → ${u.to} (verified offline)`))
          : tty`everything is up to date within its range`,
      );
    });

  program
    .command('uninstall <skills...>')
    .description('remove installed skills (author/name) from <dir>/skills and from the lock')
    .option(...dirOption('where skills were installed'))
    .option(...lockOption)
    .action((refs: string[], o: ConsumerOptions, cmd: Command) => {
      const lock = readLockfile(lockPath(o));
      const removed: Array<{ skill: string; path: string | null }> = [];
      for (const ref of refs.map((r) => parseSpec(r).ref)) {
        const path = join(o.dir, 'skills', splitRef(ref).name);
        const record = existsSync(path) ? readInstallRecord(path) : null;
        if (record && record.skill !== ref) {
          throw new CliError(`${path} holds ${record.skill}, not ${ref}`, EXIT.refused, 'Nothing was removed.');
        }
        if (!record && !lock?.skills[ref])
          throw new CliError(`${ref} is not installed`, EXIT.notFound, 'See skillhub list.');
        if (record) rmSync(path, { recursive: true, force: true });
        if (lock) delete lock.skills[ref];
        removed.push({ skill: ref, path: record ? path : null });
      }
      if (lock) writeLockfile(lockPath(o), lock);
      print(cmd, removed, () =>
        lines(...removed.map((r) => tty`removed ${r.skill}${r.path ? ` from ${r.path}` : ''}`)),
      );
    });

  program
    .command('verify <dir>')
    .description(
      "check an installed skill again: its certificate, every file's digest, that the folder is the certified " +
        "skill, and the hub's revocation list (the last one seen when the hub cannot be reached)",
    )
    .option(...dirOption('where the trust state lives (the install --dir)'))
    .action(async (skillDir: string, o: { dir: string }, cmd: Command) => {
      const state = new TrustState(join(o.dir, 'trust'));
      const keys = state.keys();
      if (!keys)
        throw new CliError('no pinned hub keys', EXIT.usage, `Install a skill first, or pass the --dir it used.`);
      progress.step('fetching the revocation list', { quiet: true });
      const hubRevocations = await client(cmd)
        .revocations()
        .then(
          (envelope) => ({ envelope }),
          (err: unknown) => {
            if (err instanceof HubUnreachableError) return null;
            throw err;
          },
        );
      const verdict = verifyInstalledSkill(resolve(skillDir), {
        keys: toTrustedKeys(keys),
        state,
        hubRevocations,
        kazmaSecret: env.KAZMA_SECRET,
      });
      if (!verdict.ok) throw new CliError(`refused: ${verdict.reason}: ${verdict.message}`, EXIT.refused);
      const { statement, revocations, warnings } = verdict;
      warn(warnings);
      print(
        cmd,
        { statement, revocations, warnings },
        () =>
          tty`verified ${statement.skill}@${statement.version} (${statement.level}, expires ${statement.expiresAt})`,
      );
    });

  program
    .command('list')
    .description('installed skills')
    .option(...dirOption('where skills were installed'))
    .action((o: { dir: string }, cmd: Command) => {
      const root = join(o.dir, 'skills');
      const installed = (existsSync(root) ? readdirSync(root, { withFileTypes: true }) : [])
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .flatMap((entry) => {
          const path = join(root, entry.name);
          try {
            const record = readInstallRecord(path);
            return record ? [{ skill: record.skill, version: record.version, path }] : [];
          } catch (err) {
            warn([`${path}: ${(err as Error).message}`]);
            return [];
          }
        });
      print(cmd, installed, () =>
        table(
          ['SKILL', 'VERSION', 'PATH'],
          installed.map((s) => [s.skill, s.version, s.path]),
        ),
      );
    });
}
