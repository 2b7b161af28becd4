import { describe, expect, it } from 'vitest';
import { readCapped } from './upstream.js';

function streamed(chunks: string[]): Response {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled];
      pulled += 1;
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
  return new Response(stream);
}

describe('readCapped', () => {
  it('reads a body up to the cap exactly', async () => {
    expect(await readCapped(streamed(['<head>', '<meta>', '</head>']), 19)).toBe(
      '<head><meta></head>',
    );
  });

  it('cuts a body past the cap and stops reading', async () => {
    const chunks = ['<head>pin</head>', 'x'.repeat(100), 'never read'];
    expect(await readCapped(streamed(chunks), 16)).toBe('<head>pin</head>');
    expect(await readCapped(streamed(chunks), 20)).toBe('<head>pin</head>xxxx');
  });
});
