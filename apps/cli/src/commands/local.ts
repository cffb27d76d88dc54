/** Offline work on a skill folder: validate, sign, pack, check-certification. */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { PUBLISHER_SIGNATURE_FILE } from '@skillhub/signing';
import { KAZMA_MANIFEST_FILE } from '@skillhub/skill-formats';
import type { CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { fields, lines, tty } from '../format';
import { keysDir, localPublicKeys, readPrivateKey, trustedKeyFile } from '../key-files';
import { checkDir, signDir, signDirWithKey, validateDir } from '../local-skill';
import { packDir } from '../pack-dir';
import { findingsTable, requirementsTable } from '../report-tables';

export function localCommands(program: Command, ctx: CliContext): void {
  const { env, paint, print, statusColour } = ctx;

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
      print(cmd, { ...result, local: true }, () =>
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
