import * as path from 'node:path';
import { assetOf, findAssetsDir, readAssets } from './console-assets';

const ROOT = path.resolve(__dirname, '../../../..');
const ASSETS = path.join(ROOT, 'apps/api/console');

describe('console assets', () => {
  it('are found by walking up from the sources, and from dist/apps/api/src/console alike', () => {
    expect(findAssetsDir(__dirname)).toBe(ASSETS);
    expect(findAssetsDir(path.join(ROOT, 'dist/apps/api/src/console'))).toBe(ASSETS);
    expect(findAssetsDir(path.parse(__dirname).root)).toBeNull();
  });

  it('are served from memory with their content type; anything else is a 404', () => {
    const assets = readAssets(ASSETS);
    expect(assetOf(assets, '/console').contentType).toBe('text/html; charset=utf-8');
    expect(assetOf(assets, '/console/index.html').body.toString()).toContain('<script type="module" src="/console/app.js">');
    expect(assetOf(assets, '/console/pages/decisions.js').contentType).toBe('text/javascript; charset=utf-8');
    for (const url of ['/console/nope.js', '/console/../package.json', '/console/pages/../app.js']) {
      expect(() => assetOf(assets, url)).toThrow(expect.objectContaining({ kind: 'not_found', code: 'CONSOLE_ASSET_NOT_FOUND' }));
    }
  });
});
