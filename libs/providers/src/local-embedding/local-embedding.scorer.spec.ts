import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DomainError } from '@cds/errors';
import { E5_FETCH_MANIFEST_FILE, E5_LIBRARY_FILE, E5_WEIGHTS_FILE } from './e5-model-files';
import { LocalEmbeddingScorer, answeringModel } from './local-embedding.scorer';

// the module object the worker pool spawns its threads from
const workerThreads = jest.requireActual<typeof import('worker_threads')>('worker_threads');

describe('LocalEmbeddingScorer.start', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'e5-scorer-'))));
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails with TEXT_MODEL_MISMATCH before any worker thread starts when the installed weights are not the ones the heads were trained on', () => {
    for (const f of [E5_WEIGHTS_FILE, E5_LIBRARY_FILE]) writeFileSync(join(dir, f), '');
    writeFileSync(join(dir, E5_FETCH_MANIFEST_FILE), JSON.stringify({ version: '0.3.0', weightsSha256: 'other-weights' }));
    const spawned = jest.spyOn(workerThreads, 'Worker');
    let err: unknown;
    try {
      LocalEmbeddingScorer.start({ workers: 1, modelDir: dir, log: () => undefined });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'TEXT_MODEL_MISMATCH', kind: 'unavailable' });
    expect((err as Error).message).toContain('npm run models:fetch');
    expect((err as DomainError).details).toContain('installed weights other-weights');
    expect(spawned).not.toHaveBeenCalled();
  });
});

describe('answeringModel', () => {
  const ids = { embedding: 'multilingual-e5-small-q4+heads:0123456789ab', ngram: 'ngram:ba9876543210' };

  it('names the n-gram model when the cascade cleared the text, the embedding model when the text was embedded', () => {
    expect(answeringModel('ngram-cleared', ids)).toBe('ngram:ba9876543210');
    expect(answeringModel('embedding', ids)).toBe('multilingual-e5-small-q4+heads:0123456789ab');
  });

  it('names the exits and the layers the chunks left at when a text left early', () => {
    const withExit = { ...ids, exit: 'fedcba987654' };
    expect(answeringModel('early-exit', withExit, [4])).toBe('multilingual-e5-small-q4+heads:0123456789ab+exit:fedcba987654@4');
    expect(answeringModel('early-exit', withExit, [12, 4, 4])).toBe('multilingual-e5-small-q4+heads:0123456789ab+exit:fedcba987654@4,12');
    expect(answeringModel('embedding', withExit, [12])).toBe('multilingual-e5-small-q4+heads:0123456789ab');
  });
});
