import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HubConfig } from '@skillhub/config';
import { loadRuntimeConfig, type RuntimeConfig } from './config/runtime-config';
import { HubConnectionCheck } from './hub-connection-check.service';

describe('the start-up report on the hub', () => {
  let hub: Server;
  let hubUrl: string;
  let folder: string;
  const said: string[] = [];

  beforeAll(async () => {
    hub = createServer((_req, res) => res.end(JSON.stringify({ status: 'ok', version: '9.9.9' })));
    await new Promise<void>((done) => hub.listen(0, '127.0.0.1', done));
    hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
    folder = mkdtempSync(join(tmpdir(), 'hub-check-'));
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void said.push(String(message)));
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void said.push(String(message)));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    rmSync(folder, { recursive: true, force: true });
    await new Promise((done) => hub.close(done));
  });
  beforeEach(() => void said.splice(0));

  const check = (config: Partial<HubConfig>, runtime: RuntimeConfig | null = null) =>
    new HubConnectionCheck({ KAZMA_HUB_URL: 'http://127.0.0.1:9', ...config } as HubConfig, {
      runtime,
      stdio: null,
    }).onApplicationBootstrap();

  it('checks the hub the runtime config names, not KAZMA_HUB_URL', async () => {
    const path = join(folder, 'runtime.yaml');
    writeFileSync(path, `hub: ${hubUrl}\n`);
    await check({ RUNTIME_CONFIG: path }, loadRuntimeConfig(path));
    expect(said).toEqual([`connected to Skill Hub 9.9.9 at ${hubUrl}`]);
  });

  it('falls back to KAZMA_HUB_URL without a runtime config', async () => {
    await check({ KAZMA_HUB_URL: hubUrl });
    expect(said).toEqual([`connected to Skill Hub 9.9.9 at ${hubUrl}`]);
  });

  it('warns, naming the hub, when it does not answer', async () => {
    await check({});
    expect(said).toEqual([expect.stringMatching(/^the hub at http:\/\/127\.0\.0\.1:9 does not answer/)]);
  });
});
