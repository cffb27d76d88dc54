/** Publishing and managing versions: publish [--wait], submit/status (Kazma's names), yank, deprecate, revoke. */
import type { Command } from 'commander';
import type { HubClient } from '@skillhub/hub-client';
import { parseRef, type CliContext } from '../cli-context';
import { CliError, EXIT } from '../exit-codes';
import { fields, table } from '../format';
import { packDir } from '../pack-dir';
import { validateDir } from '../local-skill';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function publishingCommands(program: Command, ctx: CliContext): void {
  const { print, client, statusColour, progress } = ctx;

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
          `Check later: skillhub badge ${author}/${name}@${version}`,
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
    .action(async (dir: string, o, cmd: Command) => {
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
            `${published.created ? 'published' : 'already published'}: ${r.id} (certification ${statusColour(r.certification.status)})`,
        );
      }
      progress.done(`${published.created ? 'published' : 'already published'}: ${r.id}`);
      const cert = await awaitVerdict(cmd, hub, r.author, r.name, r.version, timeoutS);
      print(cmd, { ...published, certification: cert }, () =>
        [
          `${r.id}: ${statusColour(cert.status)} (level ${cert.level})`,
          table(
            ['REQUIREMENT', 'MET'],
            Object.entries(cert.requirements_met).map(([k, met]) => [k, met ? 'yes' : 'no']),
          ),
        ].join('\n'),
      );
      if (cert.status !== 'certified') {
        throw new CliError(
          `${r.id} was not certified: ${cert.status}`,
          EXIT.refused,
          `See the report: skillhub status or the hub's certification route.`,
        );
      }
    });

  program
    .command('submit <dir>')
    .description("Kazma's `hub submit`: send the manifest for the namespace's owner to claim")
    .option('--source-url <url>', 'where the code lives')
    .action(async (dir: string, o, cmd: Command) => {
      const { skill, problems } = validateDir(dir);
      if (!skill)
        throw new CliError(
          `not valid: ${problems[0]?.message ?? 'unknown problem'}`,
          EXIT.refused,
          `Run: skillhub validate ${dir}`,
        );
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
    .command('status <submissionId>')
    .description("Kazma's `hub status`: a submission and its certification")
    .action(async (id: string, _o, cmd: Command) => {
      const hub = client(cmd);
      const submission = await hub.getSubmission(id);
      const cert = await hub.submissionCertification(id);
      print(cmd, { ...submission, certification: cert }, () =>
        fields([
          ['submission', submission.submission_id],
          ['skill', submission.skill_id],
          ['status', submission.status],
          ['certification', `${statusColour(cert.status)} (${cert.level})`],
        ]),
      );
    });

  for (const status of ['yank', 'deprecate'] as const) {
    program
      .command(`${status} <ref>`)
      .description(`${status} a version (author/name@version)`)
      .option('--message <text>', 'why, shown to users')
      .action(async (ref: string, o, cmd: Command) => {
        const { author, name, version } = parseRef(ref, true);
        const v = await client(cmd, true).setVersionStatus(author, name, version!, {
          status: status === 'yank' ? 'yanked' : 'deprecated',
          message: o.message,
        });
        print(cmd, v, () => `${v.id}: ${statusColour(v.status)}${v.status_message ? ` (${v.status_message})` : ''}`);
      });
  }

  program
    .command('revoke <ref>')
    .description("revoke a version's certification (author/name@version)")
    .requiredOption('--reason <text>', 'why; recorded in the transparency log')
    .action(async (ref: string, o, cmd: Command) => {
      const { author, name, version } = parseRef(ref, true);
      const entry = await client(cmd, true).revoke(author, name, version!, o.reason);
      print(cmd, entry, () => `revoked ${author}/${name}@${version}`);
    });
}
