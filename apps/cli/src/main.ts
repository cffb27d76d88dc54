#!/usr/bin/env node
/**
 * `skillhub`: the hub from the terminal. Tables on a terminal, `--json` for scripts; errors are
 * one line plus a hint, with exit codes 2 (usage), 3 (not found), 4 (refused / not certified),
 * 5 (network), 1 (anything else). The token is never printed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { HubClient, type SkillListItem, type TokenScope } from '@skillhub/hub-client';
import { SkillInstaller, toTrustedKeys, TrustState, verifyInstalledSkill } from '@skillhub/installer';
import { PUBLISHER_SIGNATURE_FILE } from '@skillhub/signing';
import { KAZMA_MANIFEST_FILE } from '@skillhub/skill-formats';
import { resolveHubUrl, resolveToken } from './config';
import { CliError, EXIT, toCliError } from './exit-codes';
import { colorEnabled, fields, painter, table } from './format';
import { generateKeyFiles, keysDir, localPublicKeys, readPrivateKey, readPublicKey, trustedKeyFile } from './key-files';
import { checkDir, signDir, signDirWithKey, validateDir } from './local-skill';
import { packDir } from './pack-dir';
import { Progress } from './progress';

interface GlobalOptions {
  hubUrl?: string;
  json?: boolean;
}

const REDACTED = '[redacted]';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** Parses a skill reference: `author/name` or `author/name@version`. */
export function parseRef(ref: string, requireVersion = false): { author: string; name: string; version?: string } {
  const match = /^([^/@\s]+)\/([^/@\s]+)(?:@([^/@\s]+))?$/.exec(ref);
  if (!match || (requireVersion && !match[3])) {
    const form = requireVersion ? 'author/name@version' : 'author/name[@version]';
    throw new CliError(`"${ref}" is not a skill reference`, EXIT.usage, `Write it as ${form}.`);
  }
  return { author: match[1]!, name: match[2]!, version: match[3] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const { env } = io;
  // Known before anything is printed, so that no output can carry it.
  let secretToken: string | undefined = env.SKILLHUB_TOKEN || undefined;
  const redact = (text: string) => (secretToken ? text.split(secretToken).join(REDACTED) : text);
  const progress = new Progress(io.stderr, redact);
  const out = (text: string): void => {
    progress.done(); // the answer replaces the spinner
    io.stdout.write(`${redact(text)}\n`);
  };
  const paint = painter(colorEnabled(io.stdout, env));
  const statusColour = (status: string) =>
    status === 'certified' || status === 'active'
      ? paint.green(status)
      : ['failed', 'revoked', 'yanked', 'expired'].includes(status)
        ? paint.red(status)
        : paint.yellow(status);

  const program = new Command('skillhub')
    .description('Skill Hub from the terminal: find, check, sign, pack and publish agent skills.')
    .option('--hub-url <url>', 'the hub (default: KAZMA_HUB_URL, then http://127.0.0.1:3000)')
    .option('--json', 'print JSON for scripts')
    .showHelpAfterError(false)
    .hook('preAction', (_program, action) => progress.step(`skillhub ${action.name()}`, { quiet: true }))
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: () => undefined,
    });

  const globals = (cmd: Command): GlobalOptions => cmd.optsWithGlobals() as GlobalOptions;
  const print = (cmd: Command, value: unknown, human: () => string): void =>
    out(globals(cmd).json ? JSON.stringify(value, null, 2) : human());
  const client = (cmd: Command, needsToken = false): HubClient => {
    const token = resolveToken(env);
    secretToken = token;
    if (needsToken && token === undefined) {
      throw new CliError(
        'no token',
        EXIT.usage,
        'Set SKILLHUB_TOKEN, or write ~/.config/skillhub/config.json (mode 0600).',
      );
    }
    return new HubClient({
      baseUrl: resolveHubUrl(globals(cmd).hubUrl, env),
      token,
      maxAttempts: 2,
      userAgent: 'skillhub-cli',
    });
  };
  const list = (cmd: Command, value: { items: SkillListItem[]; total: number }) =>
    print(cmd, value, () =>
      [
        table(
          ['SKILL', 'VERSION', 'CERTIFIED', 'DOWNLOADS', 'DESCRIPTION'],
          value.items.map((s) => [
            `${s.author}/${s.name}`,
            s.version,
            s.certified ? paint.green(s.certification_level) : 'no',
            String(s.downloads),
            s.description.length > 60 ? `${s.description.slice(0, 59)}…` : s.description,
          ]),
        ),
        `${value.total} skill(s)`,
      ].join('\n'),
    );
  const csv = (v?: string) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;

  // ---- Discovery ----

  program
    .command('search [text]')
    .description('search skills')
    .option('--capabilities <list>', 'comma list; every one must be declared')
    .option('--tags <list>', 'comma list; any one may match')
    .option('--author <namespace>', 'only this namespace')
    .option('--certified', 'only certified skills')
    .option('--limit <n>', 'at most this many', '20')
    .action(async (text: string | undefined, o, cmd: Command) => {
      const result = await client(cmd).listSkills({
        q: text,
        capabilities: csv(o.capabilities),
        tags: csv(o.tags),
        author: o.author,
        certified: o.certified ? true : undefined,
        per_page: Number(o.limit),
      });
      list(cmd, result);
    });

  program
    .command('certified')
    .description('list certified skills')
    .action(async (_o, cmd: Command) => list(cmd, await client(cmd).listSkills({ certified: true, per_page: 100 })));

  program
    .command('info <ref>')
    .description('a skill (author/name) or one version (author/name@version)')
    .action(async (ref: string, _o, cmd: Command) => {
      const { author, name, version } = parseRef(ref);
      const hub = client(cmd);
      if (!version) {
        const skill = await hub.getSkill(author, name);
        return print(cmd, skill, () =>
          [
            fields([
              ['skill', skill.id],
              ['latest', skill.latest ? skill.latest.version : '(none)'],
              ['description', skill.latest?.description ?? ''],
              ['certification', skill.latest ? statusColour(skill.latest.certification.status) : '-'],
            ]),
            '',
            table(
              ['VERSION', 'STATUS', 'CERTIFICATION', 'PUBLISHED'],
              skill.versions.map((x) => [
                x.version,
                statusColour(x.status),
                statusColour(x.certification.status),
                x.published_at,
              ]),
            ),
          ].join('\n'),
        );
      }
      const v = await hub.getVersion(author, name, version);
      print(cmd, v, () =>
        fields([
          ['id', v.id],
          ['description', v.description],
          ['format', v.format],
          ['status', statusColour(v.status) + (v.status_message ? ` (${v.status_message})` : '')],
          ['certification', `${statusColour(v.certification.status)} (${v.certification.level})`],
          ['capabilities', v.capabilities.join(', ') || '-'],
          ['bundle', `${v.bundle_sha256} (${v.bundle_size} bytes)`],
          ['published', v.published_at],
        ]),
      );
    });

  program
    .command('stats')
    .description('hub totals')
    .action(async (_o, cmd: Command) => {
      const stats = await client(cmd).stats();
      print(cmd, stats, () =>
        [
          fields([
            ['skills', String(stats.total_skills)],
            ['certified', String(stats.certified_count)],
          ]),
          '',
          table(
            ['CATEGORY', 'SKILLS'],
            Object.entries(stats.by_category).map(([k, n]) => [k, String(n)]),
          ),
        ].join('\n'),
      );
    });

  program
    .command('badge <ref>')
    .description('certification status and the badge to embed in a README')
    .action(async (ref: string, _o, cmd: Command) => {
      const { author, name, version } = parseRef(ref);
      const hub = client(cmd);
      const cert = await hub.certification(author, name, version);
      const url = hub.badgeUrl(author, name, { version });
      const page = `${hub.baseUrl}/api/v1/skills/${encodeURIComponent(author)}/${encodeURIComponent(name)}`;
      const markdown = `[![Skill Hub: ${author}/${name}](${url})](${page})`;
      const html = `<a href="${page}"><img src="${url}" alt="Skill Hub: ${author}/${name}"></a>`;
      print(cmd, { status: cert.status, level: cert.level, badge_url: url, markdown, html }, () =>
        fields([
          ['status', `${statusColour(cert.status)} (${cert.level})`],
          ['markdown', markdown],
          ['html', html],
        ]),
      );
    });

  // ---- Offline ----

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
          [
            result.valid
              ? `${paint.green('valid')}: ${result.skill!.namespace}/${result.skill!.name}@${result.skill!.version} (${result.skill!.format})`
              : paint.red('invalid'),
            ...result.problems.map((p) => `  ${p.severity ?? 'error'}: ${p.path ? `${p.path}: ` : ''}${p.message}`),
          ].join('\n'),
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
    .action((dir: string, o: { secret?: string; key?: string }, cmd: Command) => {
      const secret = o.secret ?? env.KAZMA_SECRET ?? '';
      // Read the key before anything is written, so a bad key leaves the folder as it was.
      const privateKey = o.key === undefined ? undefined : readPrivateKey(o.key);
      const isKazma = existsSync(join(resolve(dir), KAZMA_MANIFEST_FILE));
      // HMAC first: the publisher signature covers the manifest it writes into.
      const kazma = privateKey === undefined || (secret !== '' && isKazma) ? signDir(dir, secret) : undefined;
      const publisher = privateKey === undefined ? undefined : signDirWithKey(dir, privateKey);
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
      print(cmd, { file, size: bytes.length, sha256 }, () => `${file}\n${bytes.length} bytes, sha256 ${sha256}`);
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
    .action((dir: string, o, cmd: Command) => {
      // Your keys stand in for the namespace's only to verify a signature that is there: locally an
      // unsigned folder is judged as in a namespace without keys (the hub requires one once you register).
      const signed = existsSync(join(resolve(dir), PUBLISHER_SIGNATURE_FILE));
      const result = checkDir(dir, {
        ...o,
        kazmaSecrets: [o.secret ?? env.KAZMA_SECRET ?? ''],
        publisherKeys: o.publicKey ? o.publicKey.map(trustedKeyFile) : signed ? localPublicKeys(keysDir(env)) : [],
      });
      const { report } = result;
      print(cmd, { ...result, local: true }, () =>
        [
          `${statusColour(report.status)} (level ${report.level}, score ${report.score}) — local check`,
          `package probes: not run locally (${result.packages} package(s)); the hub probes npm and PyPI`,
          '',
          table(
            ['REQUIREMENT', 'MET'],
            Object.entries(report.requirementsMet).map(([k, met]) => [k, met ? paint.green('yes') : paint.red('no')]),
          ),
          '',
          table(
            ['SEVERITY', 'RULE', 'WHERE', 'MESSAGE'],
            report.findings
              .filter((f) => f.severity !== 'info')
              .map((f) => [
                f.severity,
                f.rule,
                f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '-',
                `${f.message} — ${f.fixHint}`,
              ]),
          ),
        ].join('\n'),
      );
      if (report.status !== 'certified') {
        throw new CliError(`would not certify: ${report.status}`, EXIT.refused, 'Fix the findings listed above.');
      }
    });

  // ---- Publishing ----

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
      const cert = await awaitVerdict(cmd, hub, r.author, r.name, r.version, Number(o.timeout));
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

  // ---- Consumer ----

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

  program
    .command('revoke <ref>')
    .description("revoke a version's certification (author/name@version)")
    .requiredOption('--reason <text>', 'why; recorded in the transparency log')
    .action(async (ref: string, o, cmd: Command) => {
      const { author, name, version } = parseRef(ref, true);
      const entry = await client(cmd, true).revoke(author, name, version!, o.reason);
      print(cmd, entry, () => `revoked ${author}/${name}@${version}`);
    });

  const keys = program.command('keys').description('your Ed25519 publisher keys (C14)');
  keys
    .command('generate')
    .description('create a key pair: <name>.key (0600, never leaves your machine) and <name>.pub')
    .option('--name <name>', 'file name of the pair', 'default')
    .option('--dir <path>', 'where to write it (default: ~/.config/skillhub/keys)')
    .action((o: { name: string; dir?: string }, cmd: Command) => {
      const key = generateKeyFiles(o.dir ?? keysDir(env), o.name);
      print(cmd, { key_id: key.keyId, private_key: key.privateKey, public_key: key.publicKey }, () =>
        [
          fields([
            ['key', key.keyId],
            ['private key', `${key.privateKey} (keep it secret)`],
            ['public key', key.publicKey],
          ]),
          '',
          `next: skillhub keys register --namespace <slug> ${key.publicKey}`,
          `then: skillhub sign <dir> --key ${key.privateKey}`,
        ].join('\n'),
      );
    });
  keys
    .command('register <publicKey>')
    .description('register a .pub with a namespace: from then on the hub certifies only versions signed by its keys')
    .requiredOption('--namespace <slug>', 'the namespace')
    .option('--name <label>', 'a label (who or what holds the private key)')
    .action(async (file: string, o: { namespace: string; name?: string }, cmd: Command) => {
      const { pem } = readPublicKey(file);
      const key = await client(cmd, true).registerPublisherKey(o.namespace, pem, o.name);
      print(cmd, key, () => `registered ${key.key_id} with ${o.namespace}: its versions must now be signed`);
    });
  keys
    .command('list')
    .description("a namespace's publisher keys")
    .requiredOption('--namespace <slug>', 'the namespace')
    .action(async (o: { namespace: string }, cmd: Command) => {
      const listed = await client(cmd).publisherKeys(o.namespace);
      print(cmd, listed, () =>
        [
          `signatures required: ${listed.signatures_required ? paint.green('yes') : 'no'}`,
          table(
            ['KEY', 'NAME', 'REGISTERED', 'REMOVED'],
            listed.keys.map((k) => [
              k.key_id,
              k.name || '-',
              k.created_at,
              k.removed_at ? paint.red(k.removed_at) : '-',
            ]),
          ),
        ].join('\n'),
      );
    });
  keys
    .command('remove <keyId>')
    .description('remove a lost or retired key: signatures by it stop verifying')
    .requiredOption('--namespace <slug>', 'the namespace')
    .action(async (id: string, o: { namespace: string }, cmd: Command) => {
      const key = await client(cmd, true).removePublisherKey(o.namespace, id);
      print(cmd, key, () => `removed ${key.key_id} from ${o.namespace}`);
    });

  const tokens = program.command('tokens').description('publisher tokens');
  tokens
    .command('create')
    .description('create a token; its secret is shown once')
    .option('--namespace <slug>', 'bind it to this namespace')
    .option('--publisher <name>', 'operator only')
    .option('--scopes <list>', 'publish,claim,manage,tokens', 'publish')
    .option('--name <name>', 'a label')
    .option('--expires-in-days <n>', '1-365')
    .action(async (o, cmd: Command) => {
      const created = await client(cmd, true).createToken({
        namespace: o.namespace,
        publisher: o.publisher,
        scopes: csv(o.scopes) as TokenScope[],
        name: o.name,
        expires_in_days: o.expiresInDays ? Number(o.expiresInDays) : undefined,
      });
      // The new secret is the command's answer (shown once); the caller's own token is never printed.
      print(cmd, created, () =>
        fields([
          ['id', created.id],
          ['scopes', created.scopes.join(',')],
          ['namespace', created.namespace ?? '-'],
          ['expires', created.expires_at ?? 'never'],
          ['token', `${created.token}   (shown once: store it now)`],
        ]),
      );
    });
  tokens
    .command('list')
    .description('your tokens (never their secrets)')
    .action(async (_o, cmd: Command) => {
      const list = await client(cmd, true).listTokens();
      print(cmd, list, () =>
        table(
          ['ID', 'NAME', 'PREFIX', 'SCOPES', 'NAMESPACE', 'EXPIRES', 'REVOKED'],
          list.map((t) => [
            t.id,
            t.name,
            t.prefix,
            t.scopes.join(','),
            t.namespace ?? '-',
            t.expires_at ?? '-',
            t.revoked_at ?? '-',
          ]),
        ),
      );
    });
  tokens
    .command('revoke <id>')
    .description('revoke a token')
    .action(async (id: string, _o, cmd: Command) => {
      const t = await client(cmd, true).revokeToken(id);
      print(cmd, t, () => `revoked ${t.id}`);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    progress.done();
    return EXIT.ok;
  } catch (err) {
    progress.done();
    if (err instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      if (err.exitCode === 0) return EXIT.ok;
      io.stderr.write(`${redact(`error: ${err.message.replace(/^error: /, '')}`)}\nhint: run skillhub --help\n`);
      return EXIT.usage;
    }
    const failure = toCliError(err);
    io.stderr.write(`${redact(`error: ${failure.message}`)}\n`);
    if (failure.hint) io.stderr.write(`${redact(`hint: ${failure.hint}`)}\n`);
    return failure.exitCode;
  }
}

if (require.main === module) {
  void run(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr }).then((code) => {
    process.exitCode = code;
  });
}
