/**
 * Webhook signing secrets at rest: AES-256-GCM under a key derived from
 * WEBHOOK_SECRET_KEY (or from the admin key when unset), so neither the log nor the read
 * models hold a secret in clear. Box format: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** 32 bytes from any key material, labelled so the material itself is never the key. */
export function deriveWebhookSecretKey(material: string): Buffer {
  if (material.length === 0) throw new TypeError('key material must not be empty');
  return createHmac('sha256', material).update('cds webhook secrets v1', 'utf8').digest();
}

export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** The secret in a box; throws SecretBoxError when the box was altered or sealed under another key. */
export function openSecret(key: Buffer, box: string): string {
  const [version, iv, tag, ciphertext, ...rest] = box.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) throw new SecretBoxError('not a sealed webhook secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the webhook secret cannot be opened with this key (WEBHOOK_SECRET_KEY or the admin key changed?)');
  }
}
