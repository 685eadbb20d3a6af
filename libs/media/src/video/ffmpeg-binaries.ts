/**
 * Which ffmpeg and ffprobe to run. Looked up once per process (per distinct FFMPEG_PATH,
 * FFPROBE_PATH and PATH), by checking files, never by running anything.
 *
 * Order: FFMPEG_PATH (ffprobe from FFPROBE_PATH, else beside it); `ffmpeg` and `ffprobe`
 * on the PATH (Debian's package); then the optional npm packages `ffmpeg-static` and
 * `@ffmpeg-installer/ffmpeg`, when installed (ffprobe beside their ffmpeg, else from the
 * companion packages `ffprobe-static` / `@ffprobe-installer/ffprobe`, else on the PATH).
 * A FFMPEG_PATH that points at nothing runnable is an error of its own, not a reason to
 * quietly run another ffmpeg.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { ffmpegUnavailable } from './video-errors';

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
  source: 'FFMPEG_PATH' | 'PATH' | 'ffmpeg-static' | '@ffmpeg-installer/ffmpeg';
}

/** What the lookup may touch, injected so the order is tested without installing anything. */
export interface BinaryLookup {
  isExecutable(file: string): boolean;
  /** The export of an installed package, or undefined when it is not installed. */
  loadPackage(name: string): unknown;
}

/** Each ffmpeg package with its own ffprobe companion first, then the other's (ffmpeg-static
 * downloads its binary at install and ships no ffprobe; @ffprobe-installer ships its binary). */
const PACKAGES = [
  { name: 'ffmpeg-static', probes: ['ffprobe-static', '@ffprobe-installer/ffprobe'] },
  { name: '@ffmpeg-installer/ffmpeg', probes: ['@ffprobe-installer/ffprobe', 'ffprobe-static'] },
] as const;

const exe = (name: string) => (process.platform === 'win32' ? `${name}.exe` : name);

/** Pure apart from `lookup`: the binaries, or a FFMPEG_UNAVAILABLE error naming every place tried. */
export function locateFfmpeg(env: NodeJS.ProcessEnv, lookup: BinaryLookup): FfmpegBinaries {
  const tried: string[] = [];
  const explicit = env.FFMPEG_PATH?.trim();
  if (explicit) {
    if (!lookup.isExecutable(explicit)) throw ffmpegUnavailable(`FFMPEG_PATH=${explicit} is not an executable file`);
    const probe = env.FFPROBE_PATH?.trim() || path.join(path.dirname(explicit), exe('ffprobe'));
    if (!lookup.isExecutable(probe)) {
      const variable = env.FFPROBE_PATH?.trim() ? 'FFPROBE_PATH' : 'ffprobe beside FFMPEG_PATH';
      throw ffmpegUnavailable(`${variable}: ${probe} is not an executable file (set FFPROBE_PATH)`);
    }
    return { ffmpeg: explicit, ffprobe: probe, source: 'FFMPEG_PATH' };
  }

  const onPath = (name: string) => searchPath(env, exe(name), lookup);
  const ffmpeg = onPath('ffmpeg');
  const ffprobe = ffmpeg ? (besideOrNull(ffmpeg, lookup) ?? onPath('ffprobe')) : null;
  if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'PATH' };
  tried.push(ffmpeg ? `PATH (ffmpeg at ${ffmpeg}, but no ffprobe)` : 'PATH (no ffmpeg)');

  for (const pkg of PACKAGES) {
    const binary = packageBinary(lookup.loadPackage(pkg.name));
    if (!binary || !lookup.isExecutable(binary)) {
      tried.push(`${pkg.name} (${binary ? `${binary} is not executable` : 'not installed'})`);
      continue;
    }
    const companion = pkg.probes.map((p) => executableOrNull(packageBinary(lookup.loadPackage(p)), lookup)).find((p) => p !== null) ?? null;
    const probe = besideOrNull(binary, lookup) ?? companion ?? onPath('ffprobe');
    if (probe) return { ffmpeg: binary, ffprobe: probe, source: pkg.name };
    tried.push(`${pkg.name} (ffmpeg at ${binary}, but no ffprobe beside it, in ${pkg.probes.join(' or ')} or on the PATH)`);
  }
  throw ffmpegUnavailable(`no ffmpeg with ffprobe found; tried FFMPEG_PATH (unset), ${tried.join(', ')}. Install ffmpeg or set FFMPEG_PATH`);
}

const cache = new Map<string, FfmpegBinaries>();

/** The binaries to run (see the order above); cached per process. Throws FFMPEG_UNAVAILABLE. */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  const key = [env.FFMPEG_PATH, env.FFPROBE_PATH, env.PATH].join('\0');
  const known = cache.get(key);
  if (known) return known;
  const found = locateFfmpeg(env, realLookup);
  cache.set(key, found);
  return found;
}

function searchPath(env: NodeJS.ProcessEnv, name: string, lookup: BinaryLookup): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    // An empty entry means the working directory: never run a binary from there.
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (lookup.isExecutable(candidate)) return candidate;
  }
  return null;
}

function besideOrNull(ffmpeg: string, lookup: BinaryLookup): string | null {
  return executableOrNull(path.join(path.dirname(ffmpeg), exe('ffprobe')), lookup);
}

function executableOrNull(file: string | null, lookup: BinaryLookup): string | null {
  return file && lookup.isExecutable(file) ? file : null;
}

/** ffmpeg-static and ffprobe-static export a path (ffprobe-static as {path}); the installers export {path}. */
function packageBinary(exported: unknown): string | null {
  if (typeof exported === 'string' && exported) return exported;
  if (exported && typeof exported === 'object' && typeof (exported as { path?: unknown }).path === 'string') return (exported as { path: string }).path;
  return null;
}

const realLookup: BinaryLookup = {
  isExecutable(file) {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  },
  loadPackage(name) {
    // Optional dependencies: absent after `npm install --omit=optional`, or when ffmpeg-static's
    // download failed (npm then removes it).
    try {
      require.resolve(name);
    } catch {
      return undefined;
    }
    try {
      return require(name) as unknown;
    } catch {
      return undefined;
    }
  },
};

/** What the found ffmpeg can do that the extraction relies on, asked once at start. */
export interface FfmpegFeatures {
  /** The first line of `ffmpeg -version`. */
  version: string;
  /** The metadata filter's `direct` option (ffmpeg ≥ 4.3), which scenes mode needs to
   * stream each frame's time; older builds (such as @ffmpeg-installer's 4.1) lack it. */
  sceneTimes: boolean;
}

/** Runs the binary twice (version, metadata filter help); never rejects. */
export async function probeFfmpegFeatures(ffmpeg: string): Promise<FfmpegFeatures> {
  const { execFile } = await import('node:child_process');
  const run = (args: string[]) =>
    new Promise<string>((resolve) => execFile(ffmpeg, args, { timeout: 10_000, maxBuffer: 1 << 20 }, (err, stdout) => resolve(err ? '' : String(stdout))));
  const [version, metadataHelp] = await Promise.all([run(['-hide_banner', '-version']), run(['-hide_banner', '-h', 'filter=metadata'])]);
  return { version: version.split('\n')[0].trim() || 'unknown', sceneTimes: /^\s*direct\b/m.test(metadataHelp) };
}
