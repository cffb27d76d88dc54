/**
 * Runs a package installer (npm, pip) in its own process group with a deadline: past it, the whole
 * group is killed. A failure is a PackageInstallFailedError that says what the installer said.
 */
import { spawn } from 'node:child_process';
import { PackageInstallFailedError } from './package-cache.errors';

export interface InstallerRun {
  /** The installer's name in messages: `npm`, `pip`. */
  tool: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** What is being installed, for messages. */
  what: string;
  /** The installer's own error lines, from the end of its stderr. */
  errors(stderr: string): string;
}

const STDERR_KEPT_BYTES = 16 * 1024;

export function runInstaller(run: InstallerRun): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT_BYTES);
    });
    const timer = setTimeout(() => {
      // The installer runs in its own process group: take whatever it started down with it.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new PackageInstallFailedError(`${run.tool} did not install ${run.what} within ${run.timeoutMs} ms`));
    }, run.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new PackageInstallFailedError(`${run.tool} could not be started: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new PackageInstallFailedError(
            `${run.tool} could not install ${run.what}: ${run.errors(stderr) || `exit code ${code}`}`,
          ),
        );
    });
  });
}
