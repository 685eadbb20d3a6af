import { envelope } from '@cds/events';
import { liftBatch, liftEncodedBatch } from './lift-batch';

const revoked = envelope('key.revoked', 1, 't1', 'k1', { keyId: 'k1', revokedBy: 'key:admin' });

describe('liftBatch / liftEncodedBatch', () => {
  it('lifts readable events with their positions and parks (logs, skips) the rest, parsed or as text', () => {
    const parsedErrors: string[] = [];
    const parsed = liftBatch(
      [
        { topic: 'keys', partition: 0, offset: 4, event: revoked },
        { topic: 'keys', partition: 0, offset: 5, event: { ...revoked, type: 'no.such.type' } as never },
      ],
      { error: (m) => parsedErrors.push(m) },
    );
    const encodedErrors: string[] = [];
    const encoded = liftEncodedBatch(
      [
        { topic: 'keys', partition: 0, offset: 4, json: JSON.stringify(revoked) },
        { topic: 'keys', partition: 0, offset: 5, json: '{"type": "key.revoked", ' },
        { topic: 'keys', partition: 0, offset: 6, json: JSON.stringify({ ...revoked, type: 'no.such.type' }) },
      ],
      { error: (m) => encodedErrors.push(m) },
    );
    expect(encoded).toEqual(parsed);
    expect(encoded).toEqual([{ topic: 'keys', partition: 0, offset: 4, event: revoked }]);
    expect(parsedErrors).toEqual([expect.stringContaining('keys/0@5')]);
    expect(encodedErrors).toEqual([expect.stringMatching(/keys\/0@5: not a JSON envelope/), expect.stringContaining('keys/0@6')]);
  });
});
