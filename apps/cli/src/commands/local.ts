/** Work on a skill folder: init, validate, sign, pack, check-certification (offline but for one whoami). */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { PUBLISHER_SIGNATURE_FILE } from '@skillhub/signing';
import { KAZMA_MANIFEST_FILE, SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';
import type { CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { fields, lines, tty } from '../format';
import { keysDir, localPublicKeys, readPrivateKey, trustedKeyFile } from '../key-files';
import { checkDir, signDir, signDirWithKey, validateDir } from '../local-skill';
import { packDir } from '../pack-dir';
import { hubSignatureWarnings } from '../hub-signature-check';
import { findingsTable, requirementsTable } from '../report-tables';
import { skillTemplate } from '../skill-templates';

/** What `init` says to run next, per format: the ones without an author or version need flags. */
const NEXT_STEPS: Record<SkillFormat, (dir: string) => string[]> = {
  kazma: (dir) => [
    `skillhub validate ${dir}`,
    `skillhub sign ${dir}`,
    `skillhub check-certification ${dir}`,
    `skillhub publish ${dir} --dry-run`,
  ],
  swarmkit: (dir) => [`skillhub validate ${dir}`, `skillhub publish ${dir} --namespace <slug> --dry-run`],
  'agent-skill': (dir) => [
    `skillhub validate ${dir} --version 0.1.0`,
    `skillhub publish ${dir} --namespace <slug> --version 0.1.0 --dry-run`,
  ],
};

export function localCommands(program: Command, ctx: CliContext): void {
  const { env, paint, print, statusColour, client, progress } = ctx;

  program
    .command('init <dir>')
    .description(`create a new skill folder that validate accepts, in one of the formats: ${SKILL_FORMATS.join(', ')}`)
    .option('--format <format>', `${SKILL_FORMATS.join(' | ')}`, 'kazma')
    .option('--name <name>', 'the skill name (default: the folder name)')
    .option('--author <namespace>', "a Kazma skill's author: the namespace it is published under", 'my-namespace')
    .option('--description <text>', 'one sentence', 'Greets people by name.')
    .action((dir: string, o: { format: string; name?: string; author: string; description: string }, cmd: Command) => {
      if (!(SKILL_FORMATS as readonly string[]).includes(o.format)) {
        throw new CliError(
          `--format ${o.format} is not a skill format`,
          EXIT.usage,
          `Use one of: ${SKILL_FORMATS.join(', ')}.`,
        );
      }
      const format = o.format as SkillFormat;
      const root = resolve(dir);
      const files = skillTemplate(format, {
        name: o.name ?? basename(root),
        author: o.author,
        description: o.description,
      });
      if (existsSync(root) && readdirSync(root).length > 0) {
        throw new CliError(`${dir} is not empty`, EXIT.usage, 'Pick a new folder; init never overwrites files.');
      }
      mkdirSync(root, { recursive: true });
      // `wx`: never replace a file, even one created since the check above.
      for (const file of files) writeFileSync(join(root, file.path), file.content, { flag: 'wx' });
      const next = NEXT_STEPS[format](dir);
      print(cmd, { dir: root, format, files: files.map((f) => f.path), next }, () =>
        lines(
          tty`created ${root} (${format} skill): ${files.map((f) => f.path).join(', ')}`,
          'next:',
          ...next.map((step) => tty`  ${step}`),
        ),
      );
    });

  program
    .command('validate <dir>')
    .description('parse the skill folder and list every problem')
    .option('--namespace <slug>', 'for formats without an author')
    .option('--version <semver>', 'for formats without a version')
    .action((dir: string, o, cmd: Command) => {
      const result = validateDir(dir, o);
      print(
        cmd,
        {
          valid: result.valid,
          id: result.skill ? `${result.skill.namespace}/${result.skill.name}@${result.skill.version}` : null,
          problems: result.problems,
        },
        () =>
          lines(
            result.valid
              ? tty`${paint.green('valid')}: ${result.skill!.namespace}/${result.skill!.name}@${result.skill!.version} (${result.skill!.format})`
              : paint.red('invalid'),
            ...result.problems.map((p) => tty`  ${p.severity ?? 'error'}: ${p.path ? `${p.path}: ` : ''}${p.message}`),
          ),
      );
      if (!result.valid) throw new CliError('the skill is not valid', EXIT.refused, 'Fix the errors listed above.');
    });

  program
    .command('sign <dir>')
    .description(
      "sign the skill: Kazma's checksum and HMAC in skill_manifest.yaml, and with --key your Ed25519 signature over every file",
    )
    .option('--secret <secret>', 'the Kazma secret (default: KAZMA_SECRET)')
    .option('--key <file>', 'your Ed25519 private key (`skillhub keys generate`); writes .skillhub-signature.json')
    .option('--namespace <slug>', 'with --key, for formats without an author: the namespace it will be published under')
    .option('--version <semver>', 'with --key, for formats without a version')
    .action((dir: string, o: { secret?: string; key?: string; namespace?: string; version?: string }, cmd: Command) => {
      const secret = o.secret ?? env.KAZMA_SECRET ?? '';
      // Read the key before anything is written, so a bad key leaves the folder as it was.
      const privateKey = o.key === undefined ? undefined : readPrivateKey(o.key);
      const isKazma = existsSync(join(resolve(dir), KAZMA_MANIFEST_FILE));
      // HMAC first: the publisher signature covers the manifest it writes into.
      const kazma = privateKey === undefined || (secret !== '' && isKazma) ? signDir(dir, secret) : undefined;
      const publisher =
        privateKey === undefined
          ? undefined
          : signDirWithKey(dir, privateKey, { namespace: o.namespace, version: o.version });
      print(cmd, { kazma: kazma ?? null, publisher: publisher ?? null }, () =>
        fields([
          ...(kazma
            ? ([
                ['signed', kazma.manifest],
                ['entry point', kazma.entryPoint],
                ['checksum', kazma.checksum],
                ['signature', kazma.signature],
              ] as const)
            : []),
          ...(publisher
            ? ([
                ['publisher signature', publisher.file],
                ['signed for', publisher.skill],
                ['key', publisher.keyId],
                ['files signed', String(publisher.files)],
              ] as const)
            : []),
        ]),
      );
    });

  program
    .command('pack <dir>')
    .description('pack the folder as a deterministic tar.gz (same folder, same bytes)')
    .option('-o, --output <file>', 'where to write it (default: <folder>.tar.gz)')
    .action((dir: string, o, cmd: Command) => {
      const bytes = packDir(dir);
      const file = resolve(o.output ?? `${basename(resolve(dir))}.tar.gz`);
      writeFileSync(file, bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      print(cmd, { file, size: bytes.length, sha256 }, () => lines(file, tty`${bytes.length} bytes, sha256 ${sha256}`));
    });

  program
    .command('check-certification <dir>')
    .description("run the certifier's checks locally (package probes are not run); exit 0 only when it would certify")
    .option('--secret <secret>', 'the Kazma secret to verify the signature with (default: KAZMA_SECRET)')
    .option('--namespace <slug>', 'for formats without an author')
    .option('--version <semver>', 'for formats without a version')
    .option(
      '--public-key <file>',
      'a registered publisher key to verify .skillhub-signature.json with (repeatable; default: your keys folder)',
      (file: string, files: string[] = []) => [...files, file],
    )
    .action(async (dir: string, o, cmd: Command) => {
      // Your keys stand in for the namespace's only to verify a signature that is there: locally an
      // unsigned folder is judged as in a namespace without keys (the hub requires one once you register).
      const signed = existsSync(join(resolve(dir), PUBLISHER_SIGNATURE_FILE));
      const result = await checkDir(dir, {
        ...o,
        kazmaSecrets: [o.secret ?? env.KAZMA_SECRET ?? ''],
        publisherKeys: o.publicKey ? o.publicKey.map(trustedKeyFile) : signed ? localPublicKeys(keysDir(env)) : [],
      });
      const { report } = result;
      progress.step('asking the hub whether it can verify the signature', { quiet: true });
      const warnings = await hubSignatureWarnings(client(cmd), result, dir);
      warnings.forEach((w) => progress.done(`warning: ${w}`));
      print(cmd, { ...result, local: true, warnings }, () =>
        lines(
          tty`${statusColour(report.status)} (level ${report.level}, score ${report.score}) — local check`,
          tty`package probes: not run locally (${result.packages} package(s)); the hub probes npm and PyPI`,
          '',
          requirementsTable(report.requirementsMet, paint),
          '',
          findingsTable(report.findings),
        ),
      );
      if (report.status !== 'certified') {
        throw new CliError(`would not certify: ${report.status}`, EXIT.refused, 'Fix the findings listed above.');
      }
    });
}
