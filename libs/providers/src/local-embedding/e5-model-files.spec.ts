import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DomainError } from '@cds/errors';
import { E5_FETCH_MANIFEST_FILE, E5_LIBRARY_FILE, E5_WEIGHTS_FILE, defaultE5ModelDir, locateE5Model } from './e5-model-files';
import { cString } from './embedding-pool';

describe('locateE5Model', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'e5-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with TEXT_MODEL_MISSING naming `npm run models:fetch` when the model is not installed', () => {
    writeFileSync(join(dir, E5_WEIGHTS_FILE), '');
    let err: unknown;
    try {
      locateE5Model(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'TEXT_MODEL_MISSING', kind: 'unavailable' });
    expect((err as Error).message).toContain('npm run models:fetch');
    expect((err as DomainError).details).toContain(E5_LIBRARY_FILE);
  });

  it('finds the files and the verified weights hash', () => {
    for (const f of [E5_WEIGHTS_FILE, E5_LIBRARY_FILE]) writeFileSync(join(dir, f), '');
    writeFileSync(join(dir, E5_FETCH_MANIFEST_FILE), JSON.stringify({ version: '0.3.0', weightsSha256: 'f00' }));
    expect(locateE5Model(dir)).toEqual({
      dir,
      weightsPath: join(dir, E5_WEIGHTS_FILE),
      libraryPath: join(dir, E5_LIBRARY_FILE),
      weightsSha256: 'f00',
      version: '0.3.0',
    });
  });

  it('defaults to models/e5 at the repository root, or LOCAL_EMBEDDING_MODEL_DIR', () => {
    expect(defaultE5ModelDir({})).toBe(join(__dirname, '../../../..', 'models', 'e5'));
    expect(defaultE5ModelDir({ LOCAL_EMBEDDING_MODEL_DIR: '/opt/e5' })).toBe('/opt/e5');
  });
});

describe('cString', () => {
  it('keeps ordinary text as it is and makes NULs and lone surrogates spaces', () => {
    expect(cString('héllo 死にたい 😀')).toBe('héllo 死にたい 😀');
    expect(cString('a\u0000b')).toBe('a b');
    expect(cString('x\ud800y\udc00z')).toBe('x y z');
  });
});
