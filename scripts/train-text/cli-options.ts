import { resolve } from 'path';

export const PROJECT_ROOT = resolve(__dirname, '../..');
export const DEFAULT_DATA_DIR = resolve(PROJECT_ROOT, '../shared/data/moderation');
export const DEFAULT_MODEL_DIR = resolve(PROJECT_ROOT, 'libs/providers/src/local-text/model');
export const MANIFEST_FILE = 'local-text-model.manifest.json';

/** `--name value` and `--name=value` flags; `--flag` alone is "true". */
export function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[a.slice(2)] = argv[++i];
    else out[a.slice(2)] = 'true';
  }
  return out;
}

export function dataDirFrom(args: Record<string, string>): string {
  return resolve(args['data-dir'] ?? process.env.LOCAL_TEXT_DATA_DIR ?? DEFAULT_DATA_DIR);
}

export function numberArg(args: Record<string, string>, name: string, fallback: number): number {
  if (args[name] === undefined) return fallback;
  const n = Number(args[name]);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${args[name]}`);
  return n;
}
