import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppConfig } from '@cds/config';

/** The bootstrap key: ADMIN_API_KEY, or one generated on first start and kept in
 * DATA_DIR/admin-api-key (mode 0600) so `npm start` works with no setup. */
export class AdminKey {
  constructor(readonly key: string) {}

  static fromConfig(config: AppConfig, logger = new Logger('AdminKey')): AdminKey {
    if (config.ADMIN_API_KEY) return new AdminKey(config.ADMIN_API_KEY);
    const file = path.join(config.DATA_DIR, 'admin-api-key');
    try {
      return new AdminKey(fs.readFileSync(file, 'utf8').trim());
    } catch {
      fs.mkdirSync(config.DATA_DIR, { recursive: true });
      const key = 'cds_admin_' + randomBytes(24).toString('base64url');
      fs.writeFileSync(file, key + '\n', { mode: 0o600 });
      logger.warn(`ADMIN_API_KEY is not set: generated a bootstrap key in ${file}`);
      return new AdminKey(key);
    }
  }
}
