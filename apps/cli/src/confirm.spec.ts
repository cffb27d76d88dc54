import { PassThrough } from 'node:stream';
import { confirm } from './confirm';
import { EXIT } from './exit-codes';

const terminal = (typed: string) => {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  setImmediate(() => stdin.write(typed));
  return stdin;
};

describe('confirm', () => {
  const said: string[] = [];
  const prompt = { write: (text: string) => said.push(text) };

  it('goes on when the user types y, asking once', async () => {
    await expect(confirm(terminal('y\n'), prompt, 'Yank acme/x@1.0.0?')).resolves.toBeUndefined();
    expect(said).toEqual(['Yank acme/x@1.0.0? [y/N] ']);
  });

  it('stops on anything else, Enter included, having changed nothing', async () => {
    for (const typed of ['\n', 'n\n', 'yes please\n']) {
      await expect(confirm(terminal(typed), prompt, 'Yank?')).rejects.toMatchObject({
        message: 'not confirmed: nothing was changed',
        exitCode: EXIT.other,
      });
    }
  });

  it('refuses without a terminal to ask, pointing at --yes', async () => {
    await expect(confirm(new PassThrough(), prompt, 'Yank?')).rejects.toMatchObject({
      exitCode: EXIT.usage,
      hint: expect.stringContaining('--yes'),
    });
  });
});
