import { consoleAssetPath, contentTypeOf } from './console-asset-path';

describe('consoleAssetPath', () => {
  it('names the index for /console and /console/, and a relative path below it', () => {
    expect(consoleAssetPath('/console')).toBe('index.html');
    expect(consoleAssetPath('/console/')).toBe('index.html');
    expect(consoleAssetPath('/console/?x=1')).toBe('index.html');
    expect(consoleAssetPath('/console/app.js')).toBe('app.js');
    expect(consoleAssetPath('/console/pages/decisions.js?v=2#top')).toBe('pages/decisions.js');
    expect(consoleAssetPath('/console/my%20file.css')).toBe('my file.css');
  });

  it('names nothing for dot segments, encoded or not, empty segments, backslashes and bad escapes', () => {
    for (const url of [
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/%2E%2E%2Fpackage.json',
      '/console/pages/../../x',
      '/console/./app.js',
      '/console//app.js',
      '/console/..%5Cpackage.json',
      '/console/%00',
      '/console/%E0%A4%A',
      '/consoleapp.js',
      '/v1/console',
    ]) {
      expect({ url, path: consoleAssetPath(url) }).toEqual({ url, path: null });
    }
  });
});

describe('contentTypeOf', () => {
  it('knows the shipped kinds and nothing else', () => {
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('pages/a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('console.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('README.md')).toBeNull();
    expect(contentTypeOf('Makefile')).toBeNull();
  });
});
