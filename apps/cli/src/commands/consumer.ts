/** Using skills: install (verified offline), verify, list. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { SkillInstaller, toTrustedKeys, TrustState, verifyInstalledSkill } from '@skillhub/installer';
import type { CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { table } from '../format';

export function consumerCommands(program: Command, ctx: CliContext): void {
  const { env, print, client, progress } = ctx;

  program
    .command('install <spec>')
    .description('install a certified skill (author/name@range), verified offline before anything is written')
    .option('--dir <path>', 'where skills and the trust state live', '.skillhub')
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
      const { skill: _skill, ...shown } = result;
      print(cmd, shown, () => `installed ${author}/${name}@${result.version} in ${result.path} (verified offline)`);
    });

  program
    .command('verify <dir>')
    .description("check an installed skill again, offline: its certificate and every file's digest")
    .option('--dir <path>', 'where the trust state lives (the install --dir)', '.skillhub')
    .action((skillDir: string, o: { dir: string }, cmd: Command) => {
      const keys = new TrustState(join(o.dir, 'trust')).keys();
      if (!keys)
        throw new CliError('no pinned hub keys', EXIT.usage, `Install a skill first, or pass the --dir it used.`);
      const verdict = verifyInstalledSkill(resolve(skillDir), toTrustedKeys(keys));
      if (!verdict.ok) throw new CliError(`refused: ${verdict.reason}: ${verdict.message}`, EXIT.refused);
      const { statement } = verdict;
      print(
        cmd,
        statement,
        () => `verified ${statement.skill}@${statement.version} (${statement.level}, expires ${statement.expiresAt})`,
      );
    });

  program
    .command('list')
    .description('installed skills')
    .option('--dir <path>', 'where skills were installed', '.skillhub')
    .action((o: { dir: string }, cmd: Command) => {
      const root = join(o.dir, 'skills');
      const installed = (existsSync(root) ? readdirSync(root) : []).flatMap((author) =>
        readdirSync(join(root, author)).flatMap((name) => {
          const meta = join(root, author, name, '.kazma-install.json');
          if (!existsSync(meta)) return [];
          const { version } = JSON.parse(readFileSync(meta, 'utf8')) as { version: string };
          return [{ skill: `${author}/${name}`, version, path: join(root, author, name) }];
        }),
      );
      print(cmd, installed, () =>
        table(
          ['SKILL', 'VERSION', 'PATH'],
          installed.map((s) => [s.skill, s.version, s.path]),
        ),
      );
    });
}
