import { Writable } from 'node:stream';
import { JsonLogger } from './json-logger';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

describe('JsonLogger', () => {
  it('writes one JSON object a line with level, role, context, message, and the request id a message object names', () => {
    const out = capture();
    const logger = new JsonLogger('api', 'log', out.stream);
    logger.log('listening', 'Main');
    logger.warn({ msg: 'slow projection', requestId: 'req-42' }, 'EventWriter');
    logger.error('boom', 'Error: boom\n    at x', 'Errors');
    logger.debug('hidden at level log', 'X');
    const [a, b, c] = out.lines();
    expect(out.lines()).toHaveLength(3);
    expect(a).toMatchObject({ level: 'info', role: 'api', context: 'Main', msg: 'listening' });
    expect(a.requestId).toBeUndefined();
    expect(typeof a.time).toBe('string');
    expect(b).toMatchObject({ level: 'warn', context: 'EventWriter', msg: 'slow projection', requestId: 'req-42' });
    expect(c).toMatchObject({ level: 'error', context: 'Errors', msg: 'boom', stack: 'Error: boom\n    at x' });
  });
});
