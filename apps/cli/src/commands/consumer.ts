/** Using skills: install (verified offline, where a Kazma host loads it), verify, list. */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { HubUnreachableError } from '@skillhub/hub-client';
import {
  readInstallRecord,
  SkillInstaller,
  toTrustedKeys,
  TrustState,
  verifyInstalledSkill,
} from '@skillhub/installer';
import type { CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { table, tty } from '../format';

export function consumerCommands(program: Command, ctx: CliContext): void {
  const { env, print, client, progress } = ctx;
  // Kazma's user home holds `skills/<name>`, where its SkillLoader looks.
  const home = env.KAZMA_USER_HOME || '.skillhub';
  const dirOption = (what: string) =>
    [`--dir <path>`, `${what} (default: KAZMA_USER_HOME, else .skillhub)`, home] as const;
  const warn = (warnings: readonly string[]) => warnings.forEach((w) => progress.done(`warning: ${w}`));

  program
    .command('install <spec>')
    .description(
      'install a certified skill (author/name@range) in <dir>/skills/<name>, where a Kazma host loads it, ' +
        'verified offline before anything is written; a Kazma manifest is re-signed with the local KAZMA_SECRET',
    )
    .option(...dirOption('where skills and the trust state live'))
    .option('--log-origin <origin>', "the hub log's origin", env.HUB_LOG_ORIGIN ?? 'skillhub.local/log')
    .action(async (spec: string, o: { dir: string; logOrigin: string }, cmd: Command) => {
      const match = /^([^/@\s]+)\/([^/@\s]+)@(.{1,64})$/.exec(spec);
      if (!match) throw new CliError(`"${spec}" is not author/name@range`, EXIT.usage, 'e.g. acme-labs/weather@^1.0.0');
      const [, author, name, range] = match;
      const installer = new SkillInstaller(client(cmd), {
        installDir: join(o.dir, 'skills'),
        state: new TrustState(join(o.dir, 'trust')),
        logOrigin: o.logOrigin,
        pinnedKeys: [],
        kazmaSecret: env.KAZMA_SECRET,
      });
      progress.step(`resolving, downloading and verifying ${author}/${name}@${range}`, { quiet: true });
      const result = await installer.install(author!, name!, range!);
      if (!result.ok) {
        throw new CliError(`refused ${author}/${name}: ${result.reason}: ${result.message}`, EXIT.refused);
      }
      const { skill: _skill, statement, ...shown } = result;
      warn(result.warnings);
      print(
        cmd,
        { ...shown, level: statement.level },
        () => tty`installed ${author}/${name}@${result.version} in ${result.path} (verified offline)`,
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
