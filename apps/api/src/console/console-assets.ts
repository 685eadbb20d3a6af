import { notFound } from '@cds/errors';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONSOLE_INDEX, consoleAssetPath, contentTypeOf } from './console-asset-path';

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

/** Where the console's files live inside the repository (and the image's /app). */
const ASSETS_DIR = path.join('apps', 'api', 'console');

/** The apps/api/console folder of the nearest tree above `from` that has one: the same
 * from dist/apps/api/src/console at run time as from the sources under Jest. */
export function findAssetsDir(from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ASSETS_DIR);
    if (fs.existsSync(path.join(candidate, CONSOLE_INDEX))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Every file of a served kind under `dir`, read now, keyed by its relative path with `/`. */
export function readAssets(dir: string): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const contentType = contentTypeOf(entry.name);
    if (contentType) assets.set(path.relative(dir, file).split(path.sep).join('/'), { body: fs.readFileSync(file), contentType });
  }
  return assets;
}

/** The asset a request URL names; 404 CONSOLE_ASSET_NOT_FOUND for anything else. */
export function assetOf(assets: Map<string, ConsoleAsset>, url: string): ConsoleAsset {
  const name = consoleAssetPath(url);
  const asset = name === null ? undefined : assets.get(name);
  if (!asset) throw notFound('CONSOLE_ASSET_NOT_FOUND', 'Not found', 'no such file in the console');
  return asset;
}
