/**
 * The server-rendered pages over HTTP, against real PostgreSQL, Redis and a certifier-worker:
 * every page answers with the right content, escapes what publishers wrote, stays under
 * 100 KiB, carries its security headers, and shows the certification report by severity.
 */
import type TestAgent from 'supertest/lib/agent';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { WEB_CSP } from '../apps/hub-api/src/web/web.controller';
import { waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-web-tests';
const CODE =
  'import os\n\n\nclass WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city, "unit": os.environ.get("WEATHER_UNIT")}\n';
const MAX_PAGE_BYTES = 100 * 1024;
const XSS_SCRIPT = '<script>alert(1)</script>';
const XSS_IMG = '<img src=x onerror=alert(1)>';

const README = [
  '# Weather skill',
  '',
  'Some **bold** text, `inline code`, [the docs](https://example.com/docs) and [a trap](javascript:alert(1)).',
  '',
  '<b onclick="alert(1)">raw html</b>',
  '',
  '![tracking pixel](https://evil.example/pixel.png)',
].join('\n');

interface KazmaOptions {
  signWith?: Buffer;
  description?: string;
  tags?: string[];
  version?: string;
  manifest?: Record<string, unknown>;
  readme?: string;
}

const kazma = (author: string, name: string, o: KazmaOptions = {}) =>
  kazmaBundle({
    author,
    name,
    code: CODE,
    version: o.version,
    manifest: {
      permissions: ['env_read'],
      tags: o.tags ?? ['weather'],
      description: o.description ?? 'Reports the current weather for a city, with a three-day forecast.',
      ...o.manifest,
    },
    extraFiles: o.readme ? [{ path: 'README.md', content: o.readme }] : [],
    sign: { secret: KAZMA_SECRET, checksumOf: o.signWith },
  });

describe('web pages', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let pages: TestAgent;
  let token: string;
  const ns = uniqueName('web');
  const certifiedName = uniqueName('sunny');
  const tamperedName = uniqueName('tampered');
  const evilName = uniqueName('evil');
  const lifecycleName = uniqueName('lifecycle');
  const serverName = uniqueName('served');
  const uniqueTag = uniqueName('tag');
  const mcpPackage = '@acme/weather-mcp';

  const publish = async (bytes: Buffer) => {
    const res = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bytes);
    expect(res.status).toBe(201);
  };

  const verdict = async (name: string, version = '1.0.0') => {
    for (let i = 0; i < 300; i++) {
      const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/${version}/certification`).expect(200);
      if (res.body.status !== 'pending') return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} stayed pending`);
  };

  /** A page, with the headers every page carries and the size limit checked; whitespace runs collapsed. */
  const page = async (path: string, status = 200) => {
    const res = await pages.get(path);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(WEB_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.byteLength(res.text)).toBeLessThan(MAX_PAGE_BYTES);
    // No external fonts, scripts or stylesheets.
    expect(res.text).not.toMatch(/<script|<link|@import|@font-face/i);
    return res.text.replace(/\s+/g, ' ');
  };

  beforeAll(async () => {
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      worker: true,
      env: {
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        // The MCP server skill needs its package pinned, not started: the sandboxed probe is certification's test.
        LIVE_PROBE: 'false',
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
    pages = hub.http;
    token = await hub.token(ns, ['publish', 'manage']);
    await publish(
      kazma(ns, certifiedName, {
        tags: ['weather', uniqueTag],
        readme: README,
        manifest: { homepage: 'https://example.com/weather', repository: 'https://github.com/acme/weather' },
      }),
    );
    await publish(kazma(ns, tamperedName, { signWith: Buffer.from('the code that was signed\n') }));
    await publish(kazma(ns, evilName, { description: `Weather, honest. ${XSS_SCRIPT} and ${XSS_IMG} & "quotes"` }));
    expect((await verdict(certifiedName)).status).toBe('certified');
    expect((await verdict(tamperedName)).status).toBe('failed');
    await verdict(evilName);
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) await publish(kazma(ns, lifecycleName, { version }));
    await publish(
      kazma(ns, serverName, {
        manifest: {
          mcp_servers: [{ name: 'weather', type: 'stdio', command: 'npx', args: ['-y', `${mcpPackage}@1.2.3`] }],
        },
      }),
    );
    for (const version of ['1.0.0', '1.1.0', '1.2.0'])
      expect((await verdict(lifecycleName, version)).status).toBe('certified');
    expect((await verdict(serverName)).status).toBe('certified');
  });
  afterAll(async () => {
    await hub?.close();
    await registries?.close();
  });

  it('home: search form with a label, landmarks, skip link and the recently certified skills', async () => {
    const text = await page('/');
    expect(text).toContain('<html lang="en">');
    expect(text).toMatch(/<label for="site-search" ?>Search skills<input id="site-search"[^>]* name="q"/);
    expect(text).toContain('<form class="search" role="search" method="get" action="/search">');
    expect(text).toContain('<a class="skip" href="#main">');
    expect(text).toMatch(/<header>.*<main id="main".*<\/main> ?<footer>/);
    expect(text).toContain(':focus-visible');
    const recent = text.slice(text.indexOf('Recently certified'), text.indexOf('Most downloaded'));
    expect(recent).toContain(`/skills/${ns}/${certifiedName}?version=1.0.0`);
    expect(recent).not.toContain(tamperedName);
    expect(text).toMatch(
      /<h2 id="categories">Categories<\/h2>.*<a href="\/search\?category=utilities">utilities<\/a> <span class="meta">\d+<\/span>/,
    );
  });

  it('home: "Most downloaded" lists certified skills someone downloaded, never a failed or untouched one', async () => {
    const popular = async () => {
      const text = await page('/');
      return text.slice(text.indexOf('Most downloaded'));
    };
    expect(await popular()).not.toContain(tamperedName);
    await hub.http.get(`/api/v1/skills/${ns}/${tamperedName}/versions/1.0.0/bundle`).expect(200);
    await hub.http.get(`/api/v1/skills/${ns}/${certifiedName}/versions/1.0.0/bundle`).expect(200);
    await waitFor(async () => (await popular()).includes(certifiedName), 30_000, 'the download to be counted');
    const listed = await popular();
    expect(listed).toContain('1 download ·');
    expect(listed).not.toContain(tamperedName);
  });

  it('search: full text and the filters of the API, with paging links', async () => {
    const byText = await page(`/search?q=${certifiedName}`);
    expect(byText).toContain(`href="/skills/${ns}/${certifiedName}"`);
    expect(byText).toMatch(/<label for="f-author" ?>Author<input id="f-author"/);
    // One search box: the page's own, not the header's beside it.
    expect(byText.match(/type="search"/g)).toHaveLength(1);

    const certified = await page(`/search?author=${ns}&certified=true`);
    expect(certified).toContain(certifiedName);
    expect(certified).not.toContain(`/skills/${ns}/${tamperedName}`);
    expect(certified).toContain('<option value="true" selected>');

    const notCertified = await page(`/search?author=${ns}&certified=false&category=utilities`);
    expect(notCertified).toContain(tamperedName);
    expect(notCertified).not.toContain(`/skills/${ns}/${certifiedName}"`);

    const tagged = await page(`/search?tags=${uniqueTag}`);
    expect(tagged).toContain('1 skill found.');
    expect(tagged).toContain(certifiedName);

    const paged = await page(`/search?author=${ns}&page=2`);
    expect(paged).toContain('5 skills found.');
    expect(paged).toContain('No skills found.');
    expect(paged).toContain('rel="prev"');

    const bad = await page('/search?certified=maybe&page=0', 400);
    expect(bad).toContain('certified must be true or false');
  });

  it('skill page: description, versions, badge, install snippet, certificate and its log entry', async () => {
    const text = await page(`/skills/${ns}/${certifiedName}`);
    expect(text).toContain('Reports the current weather for a city, with a three-day forecast.');
    expect(text).toContain(`<img src="/api/v1/skills/${ns}/${certifiedName}/badge.svg?version=1.0.0"`);
    expect(text).toContain(`skillhub install ${ns}/${certifiedName}@1.0.0`);
    const { text: exact } = await pages.get(`/skills/${ns}/${certifiedName}`);
    expect(exact).toContain(`<pre><code>skills:\n  - ${ns}/${certifiedName}@^1.0.0\ngateway:`);
    expect(exact).toContain('&quot;url&quot;: &quot;http://127.0.0.1:3333/mcp&quot;');
    // The badge snippet links back to this page, on the origin the reader asked.
    expect(text).toMatch(
      new RegExp(
        `\\[!\\[Skill Hub: ${ns}/${certifiedName}\\]\\(http://127\\.0\\.0\\.1:\\d+/api/v1/skills/${ns}/${certifiedName}/badge\\.svg\\)\\]\\(http://127\\.0\\.0\\.1:\\d+/skills/${ns}/${certifiedName}\\)`,
      ),
    );
    expect(text).toMatch(/<h2 id="versions">Versions<\/h2>.*1\.0\.0/);
    const cert = await hub.http.get(`/api/v1/skills/${ns}/${certifiedName}/versions/1.0.0/certificate`).expect(200);
    expect(text).toContain(`<a href="/api/v1/log/entries/${cert.body.log_index}">#${cert.body.log_index}</a`);
    expect(text).toContain(cert.body.key_id);
    const entry = await hub.http.get(`/api/v1/log/entries/${cert.body.log_index}`).expect(200);
    expect(text).toContain(entry.body.leaf_hash);

    const pinned = await page(`/skills/${ns}/${certifiedName}?version=1.0.0`);
    expect(pinned).toContain(`skillhub install ${ns}/${certifiedName}@1.0.0`);
  });

  it('skill page: what the code does, each capability with the file and line that proves it', async () => {
    const text = await page(`/skills/${ns}/${certifiedName}`);

    expect(text).toContain('Permissions and capabilities');
    expect(text).toMatch(
      /env_read<\/code> \(declared\).*<code>weather_skill\.py:6<\/code> <code class="evidence">os\.environ\.get\(&quot;WEATHER_UNIT&quot;\)<\/code>/,
    );
    expect(text).toContain('The certificate lets no MCP server start.');
    // Requirements in words, the id beside them.
    expect(text).toMatch(/The manifest is valid: met <code class="meta">manifest_valid<\/code>/);
  });

  it('skill page: the README rendered safely, repository and homepage links, files with sizes and digests', async () => {
    const text = await page(`/skills/${ns}/${certifiedName}`);
    const readme = text.slice(
      text.indexOf('<div class="readme">'),
      text.indexOf('</div>', text.indexOf('<div class="readme">')),
    );
    expect(readme).toContain('<h3>Weather skill</h3>');
    expect(readme).toContain('<strong>bold</strong>');
    expect(readme).toContain('<code>inline code</code>');
    expect(readme).toContain('<a href="https://example.com/docs" rel="nofollow noopener noreferrer">the docs</a>');
    expect(readme).not.toMatch(/href="javascript:/i);
    expect(readme).toContain('&lt;b onclick=&quot;alert(1)&quot;&gt;raw html&lt;/b&gt;');
    expect(readme).not.toContain('<img');
    expect(readme).toContain('[image: tracking pixel]');
    expect(text).toContain(
      'Repository: <a href="https://github.com/acme/weather" rel="nofollow noopener noreferrer">https://github.com/acme/weather</a>',
    );
    expect(text).toContain('Homepage: <a href="https://example.com/weather"');
    const version = await hub.http.get(`/api/v1/skills/${ns}/${certifiedName}/versions/1.0.0`).expect(200);
    for (const f of version.body.files as Array<{ path: string; sha256: string }>) {
      expect(text).toMatch(
        new RegExp(
          `<code>${f.path.replace('.', '\\.')}</code></td> <td data-label="Size" class="num">[\\d.]+ (B|KiB)</td> <td data-label="SHA-256"><code class="digest">${f.sha256}</code>`,
        ),
      );
    }
    // Versions with relative dates, the exact time in the title.
    expect(text).toMatch(
      /<td data-label="Published"><time datetime="[^"]+Z" title="\d{4}-\d\d-\d\d \d\d:\d\d UTC">(just now|\d+ minutes? ago)<\/time>/,
    );
  });

  it('lifecycle: a revoked version shows its reason and no install command; yanked and deprecated show their message', async () => {
    const patch = (version: string, body: object) =>
      hub.http
        .patch(`/api/v1/skills/${ns}/${lifecycleName}/versions/${version}`)
        .set('authorization', `Bearer ${token}`)
        .send(body)
        .expect(200);
    await hub.http
      .post(`/api/v1/skills/${ns}/${lifecycleName}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'The API key it shipped with leaked.' })
      .expect((res) => expect(res.status).toBeLessThan(300));
    await patch('1.1.0', { status: 'deprecated', message: 'Use 1.2.0: it reads the new forecast API.' });
    await patch('1.2.0', { status: 'yanked', message: 'Sends the city twice.' });

    const revoked = await page(`/skills/${ns}/${lifecycleName}?version=1.0.0`);
    expect(revoked).toMatch(
      /<div class="banner bad" id="banner-revoked">.*Revoked\..*Reason: The API key it shipped with leaked\./,
    );
    expect(revoked).not.toContain('skillhub install');
    expect(revoked).not.toContain('skills:');
    expect(revoked).toContain('This version cannot be installed: its certification was revoked.');
    // Nothing on the page reads as if the certificate still held.
    expect(revoked).not.toMatch(/expires <time/);
    expect(revoked).toMatch(/<dt>Revoked<\/dt>\s*<dd>\s*<time[^>]*>[^<]*<\/time>: this certificate no longer\s+holds/);

    const deprecated = await page(`/skills/${ns}/${lifecycleName}?version=1.1.0`);
    expect(deprecated).toMatch(/id="banner-deprecated">.*Message: Use 1\.2\.0: it reads the new forecast API\./);
    expect(deprecated).toContain(`skillhub install ${ns}/${lifecycleName}@1.1.0`);

    const yanked = await page(`/skills/${ns}/${lifecycleName}?version=1.2.0`);
    expect(yanked).toMatch(/id="banner-yanked">.*Message: Sends the city twice\./);
    expect(yanked).not.toContain('skillhub install');
  });

  it("an MCP server's page lists the certified skills that run it, its pinned version and integrity; skill pages link to it", async () => {
    const skill = await page(`/skills/${ns}/${serverName}`);
    const href = `/servers/${encodeURIComponent(mcpPackage)}`;
    expect(skill).toContain(`<a href="${href}">${mcpPackage}</a>@1.2.3 (npm)`);
    const cert = await verdict(serverName);
    const integrity = (cert.report.servers as Array<{ package: { integrity: string } }>)[0]!.package.integrity;

    const server = await page(href);
    expect(server).toContain(`<h1>MCP server <code>${mcpPackage}</code></h1>`);
    expect(server).toContain(`<code class="digest">${integrity}</code>`);
    expect(server).toContain(`href="/skills/${ns}/${serverName}?version=1.0.0"`);
    expect(server).toContain('runs it as <code>weather</code>');
    expect(await page('/servers/no-such-server', 404)).toContain(
      'No certified skill runs the MCP server no-such-server.',
    );
  });

  it('the certification report lists every finding with rule, file, line and fix hint, grouped by severity', async () => {
    const report = await verdict(tamperedName);
    const findings = report.report.findings as Array<{
      rule: string;
      check: string;
      severity: string;
      file: string | null;
      fixHint: string;
    }>;
    const checksum = findings.find((f) => f.check === 'C3')!;
    expect(checksum).toBeDefined();

    const text = await page(`/skills/${ns}/${tamperedName}`);
    expect(text).toContain('This version holds no certificate.');
    const escape = (s: string) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;')
        .replace(/`/g, '&#96;');
    const order = ['critical', 'high', 'medium', 'low', 'info'];
    const positions = order
      .filter((s) => findings.some((f) => f.severity === s))
      .map((s) => text.indexOf(`data-severity="${s}"`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const group = text.slice(text.indexOf(`data-severity="${checksum.severity}"`));
    const groupEnd = group.indexOf('</section>');
    expect(group.slice(0, groupEnd)).toMatch(new RegExp(`<code>${checksum.rule.replace('.', '\\.')}</code ?>`));
    // The hint's Markdown code is rendered, and names this hub's command.
    expect(checksum.fixHint).toContain('sign the skill again with `kazma hub sign`');
    expect(group.slice(0, groupEnd)).toContain('sign the skill again with <code>skillhub sign</code>');
    expect(text).not.toContain('kazma hub sign');
    if (checksum.file) expect(group.slice(0, groupEnd)).toContain(escape(checksum.file));
    for (const f of findings) expect(text).toContain(escape(f.rule));
  });

  it('escapes what a publisher wrote', async () => {
    const text = await page(`/skills/${ns}/${evilName}`);
    expect(text).not.toContain(XSS_SCRIPT);
    expect(text).not.toContain(XSS_IMG);
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('&amp; &quot;quotes&quot;');

    const listed = await page(`/search?q=${evilName}`);
    expect(listed).not.toContain(XSS_SCRIPT);
    expect(listed).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const echoed = await page(`/search?q=${encodeURIComponent('"><script>alert(2)</script>')}`);
    expect(echoed).not.toContain('<script>alert(2)');
    expect(echoed).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
  });

  it('namespace page lists its skills', async () => {
    const text = await page(`/namespaces/${ns}`);
    expect(text).toContain(`<h1>${ns}</h1>`);
    expect(text).toContain('5 skills published');
    for (const name of [certifiedName, tamperedName, evilName]) expect(text).toContain(`/skills/${ns}/${name}"`);
  });

  it('unknown skills, versions and namespaces answer a 404 page', async () => {
    expect(await page(`/skills/${ns}/no-such-skill`, 404)).toContain('Not found');
    expect(await page(`/skills/${ns}/${certifiedName}?version=9.9.9`, 404)).toContain('Not found');
    expect(await page(`/skills/no-such-ns/${certifiedName}`, 404)).toContain('Not found');
    expect(await page(`/namespaces/${uniqueName('nobody')}`, 404)).toContain('Not found');
  });
});
