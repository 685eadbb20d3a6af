import { Injectable, Logger } from '@nestjs/common';
import { assetOf, ConsoleAsset, findAssetsDir, readAssets } from './console-assets';

/** The console's static files, read once at start and served from memory. */
@Injectable()
export class ConsoleAssets {
  private readonly assets: Map<string, ConsoleAsset>;

  constructor() {
    const dir = findAssetsDir(__dirname);
    if (!dir) new Logger('Console').warn(`apps/api/console not found above ${__dirname}: GET /console answers 404`);
    this.assets = dir ? readAssets(dir) : new Map();
  }

  get(url: string): ConsoleAsset {
    return assetOf(this.assets, url);
  }
}
