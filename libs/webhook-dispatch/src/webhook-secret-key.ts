import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';
import { deriveWebhookSecretKey } from '@cds/webhooks';

/**
 * The key that opens webhook secrets in this process: from WEBHOOK_SECRET_KEY, else from
 * the admin key (ADMIN_API_KEY, or the one the embedded api generated into
 * DATA_DIR/admin-api-key before the modules start), exactly as the api derives it.
 */
export function webhookSecretKey(config: AppConfig): Buffer {
  const material = config.WEBHOOK_SECRET_KEY ?? config.ADMIN_API_KEY ?? readGeneratedAdminKey(config.DATA_DIR);
  if (!material) {
    throw new Error('webhook dispatch needs WEBHOOK_SECRET_KEY or ADMIN_API_KEY (the same value as the api processes) to open webhook secrets');
  }
  return deriveWebhookSecretKey(material);
}

function readGeneratedAdminKey(dataDir: string): string | null {
  try {
    return fs.readFileSync(path.join(dataDir, 'admin-api-key'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
