import type { Response } from 'superagent';

/** supertest parser that keeps a response body as raw bytes (bundles must come back byte for byte). */
export function binaryBody(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
