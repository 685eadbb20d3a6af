import { existsSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { DomainError } from '@cds/errors';

/** The command that installs the local models; every "model missing" error names it. */
export const MODELS_FETCH_COMMAND = 'npm run models:fetch';

/** `models/<name>` of the project: the nearest ancestor of this file holding a package.json
 * (the repository root, from the sources or from dist), unless `override` (the model's
 * directory variable, when set) says otherwise. */
export function projectModelDir(name: string, override: string | undefined): string {
  if (override) return resolve(override);
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'models', name);
}

/** Throws `code` (503) naming the fetch command when any of a model's files is missing. */
export function requireModelFiles(paths: string[], code: string, model: string): void {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new DomainError('unavailable', code, `The ${model} is not installed: run \`${MODELS_FETCH_COMMAND}\``, `missing ${missing.join(', ')}`);
  }
}
