/** Publishing and managing versions: publish [--wait], status, submit (Kazma's names), yank, deprecate, revoke. */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import type { HubClient } from '@skillhub/hub-client';
import { parseRef, type CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { fields, lines, tty } from '../format';
import { packDir, readSkillDir } from '../pack-dir';
import { orSuggest } from '../did-you-mean';
import { hubSignatureWarnings } from '../hub-signature-check';
import { checkDir, validateDir, validSkill } from '../local-skill';
import { findingsTable, reportFindings, requirementsTable } from '../report-tables';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What `submit` answers, as Kazma's `hub status` takes it; anything else is a skill reference. */
const SUBMISSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function publishingCommands(program: Command, ctx: CliContext): void {
  const { env, paint, print, client, statusColour, progress, confirm } = ctx;

  /** `publish --dry-run`: validate, the local checks and the bundle, uploading nothing. */
  const dryRun = async (cmd: Command, dir: string, o: { namespace?: string; version?: string }) => {
    const validated = validateDir(dir, o);
    const { problems } = validated;
    const skill = validSkill(validated, dir);
    if (skill.format !== 'kazma' && o.namespace === undefined) {
      throw new CliError(
        `a ${skill.format} skill names no namespace`,
        EXIT.usage,
        'Pass --namespace <slug>, the namespace it will be published under (the hub takes the token’s otherwise).',
      );
    }
    const bytes = packDir(dir);
    progress.step('running the certifier’s checks locally', { quiet: true });
    const checked = await checkDir(dir, { ...o, kazmaSecrets: [env.KAZMA_SECRET ?? ''] });
    const warnings = await hubSignatureWarnings(client(cmd), checked, dir);
    warnings.forEach((w) => progress.done(`warning: ${w}`));
    const id = `${skill.namespace}/${skill.name}@${skill.version}`;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { report } = checked;
    const would = {
      dry_run: true,
      id,
      format: skill.format,
      files: readSkillDir(dir).length,
      size: bytes.length,
      bundle_sha256: sha256,
      local: { status: report.status, level: report.level, package_probes: 'not-run' },
      warnings,
      problems,
    };
    print(cmd, would, () =>
      lines(
        tty`would publish ${id} (${skill.format}): ${bytes.length} bytes, sha256 ${sha256} — nothing was uploaded`,
        tty`local check: ${statusColour(report.status)} (level ${report.level}; package probes run on the hub)`,
        ...(warnings.length > 0 ? [tty`the hub may decide otherwise: see the warning(s) above`] : []),
        ...problems.map((p) => tty`  ${p.severity ?? 'error'}: ${p.path ? `${p.path}: ` : ''}${p.message}`),
      ),
    );
  };

  const awaitVerdict = async (
    cmd: Command,
    hub: HubClient,
    author: string,
    name: string,
    version: string,
    timeoutS: number,
  ) => {
    const deadline = Date.now() + timeoutS * 1000;
    for (;;) {
      const cert = await hub.certification(author, name, version);
      progress.step(`certification: ${cert.status}`);
      if (cert.status !== 'pending') return cert;
      if (Date.now() > deadline) {
        throw new CliError(
          `no verdict after ${timeoutS} s (still pending)`,
          EXIT.other,
          `Check later: skillhub status ${author}/${name}@${version}`,
        );
      }
      await sleep(500);
    }
  };

  program
    .command('publish <dir>')
    .description('pack and upload the skill; with --wait, follow certification to its verdict')
    .option('--wait', 'wait for the certification verdict')
    .option('--timeout <seconds>', 'how long --wait waits', '300')
    .option('--namespace <slug>', 'for formats without an author')
    .option('--version <semver>', 'for formats without a version')
    .option('--dry-run', 'validate, run the local checks and say what would be published; upload nothing')
    .action(async (dir: string, o, cmd: Command) => {
      if (o.dryRun) return dryRun(cmd, dir, o);
      const timeoutS = Number(o.timeout);
      if (!Number.isFinite(timeoutS) || timeoutS <= 0) {
        throw new CliError(`--timeout ${o.timeout} is not a number of seconds`, EXIT.usage, 'e.g. --timeout 120');
      }
      const hub = client(cmd, true);
      const bytes = packDir(dir);
      progress.step(`uploading ${bytes.length} bytes`, { quiet: true });
      const published = await hub.publish(bytes, { namespace: o.namespace, version: o.version });
      const r = published.result;
      if (!o.wait) {
        return print(
          cmd,
          published,
          () =>
            tty`${published.created ? 'published' : 'already published'}: ${r.id} (certification ${statusColour(r.certification.status)})`,
        );
      }
      progress.done(`${published.created ? 'published' : 'already published'}: ${r.id}`);
      const cert = await awaitVerdict(cmd, hub, r.author, r.name, r.version, timeoutS);
      print(cmd, { ...published, certification: cert }, () =>
        lines(
          tty`${r.id}: ${statusColour(cert.status)} (level ${cert.level})`,
          requirementsTable(cert.requirements_met, paint),
        ),
      );
      if (cert.status !== 'certified') {
        throw new CliError(
          `${r.id} was not certified: ${cert.status}`,
          EXIT.refused,
          `See the findings: skillhub status ${r.author}/${r.name}@${r.version}`,
        );
      }
    });

  program
    .command('submit <dir>')
    .description("Kazma's `hub submit`: send the manifest for the namespace's owner to claim")
    .option('--source-url <url>', 'where the code lives')
    .action(async (dir: string, o, cmd: Command) => {
      const skill = validSkill(validateDir(dir), dir);
      const result = await client(cmd).submit(skill.manifest, { source_url: o.sourceUrl });
      print(cmd, result, () =>
        fields([
          ['submission', result.submission_id],
          ['skill', result.skill_id],
          ['status', result.status],
          ['message', result.message],
          ['expires', result.expires_at],
        ]),
      );
    });

  program
    .command('status <ref>')
    .description(
      "a version's certification and its findings (author/name@version, or author/name for the listed one); " +
        "with a submission id, Kazma's `hub status`",
    )
    .action(async (ref: string, _o, cmd: Command) => {
      const hub = client(cmd);
      if (SUBMISSION_ID.test(ref)) {
        const submission = await hub.getSubmission(ref);
        const cert = await hub.submissionCertification(ref);
        return print(cmd, { ...submission, certification: cert }, () =>
          fields([
            ['submission', submission.submission_id],
            ['skill', submission.skill_id],
            ['status', submission.status],
            ['certification', tty`${statusColour(cert.status)} (${cert.level})`],
          ]),
        );
      }
      const { author, name, version } = parseRef(ref);
      const cert = await orSuggest(hub, author, name, () => hub.certification(author, name, version));
      print(cmd, cert, () =>
        lines(
          fields([
            ['skill', cert.skill_id],
            ['certification', tty`${statusColour(cert.status)} (level ${cert.level})`],
            ['issued', cert.issued_at ?? '-'],
            ['expires', cert.expires_at ?? '-'],
          ]),
          '',
          requirementsTable(cert.requirements_met, paint),
          '',
          findingsTable(reportFindings(cert.report)),
        ),
      );
    });

  for (const status of ['yank', 'deprecate'] as const) {
    program
      .command(`${status} <ref>`)
      .description(`${status} a version (author/name@version)`)
      .option('--message <text>', 'why, shown to users')
      .option('-y, --yes', 'do not ask first')
      .action(async (ref: string, o, cmd: Command) => {
        const { author, name, version } = parseRef(ref, true);
        const hub = client(cmd, true);
        await confirm(`${status === 'yank' ? 'Yank' : 'Deprecate'} ${author}/${name}@${version!}?`, o.yes);
        const v = await hub.setVersionStatus(author, name, version!, {
          status: status === 'yank' ? 'yanked' : 'deprecated',
          message: o.message,
        });
        print(cmd, v, () =>
          v.status_message
            ? tty`${v.id}: ${statusColour(v.status)} (${v.status_message})`
            : tty`${v.id}: ${statusColour(v.status)}`,
        );
      });
  }

  program
    .command('revoke <ref>')
    .description("revoke a version's certification (author/name@version)")
    .requiredOption('--reason <text>', 'why; recorded in the transparency log')
    .option('-y, --yes', 'do not ask first')
    .action(async (ref: string, o, cmd: Command) => {
      const { author, name, version } = parseRef(ref, true);
      const hub = client(cmd, true);
      await confirm(`Revoke the certification of ${author}/${name}@${version!}? It cannot be undone`, o.yes);
      const entry = await hub.revoke(author, name, version!, o.reason);
      print(cmd, entry, () => tty`revoked ${author}/${name}@${version!}`);
    });
}
