/** Content types of the files the console ships; any other file is not served. */
export const CONSOLE_CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The security headers of every console answer, errors included. */
export const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export const CONSOLE_PREFIX = '/console';
export const CONSOLE_INDEX = 'index.html';

/**
 * The asset a request URL names, as a relative path (`pages/decisions.js`), or null when
 * it names none: outside /console, an undecodable escape, a `.`/`..` or empty segment,
 * a backslash or NUL. `/console` and `/console/` name the index. Pure: no file system.
 */
export function consoleAssetPath(url: string): string | null {
  const path = url.split(/[?#]/, 1)[0];
  if (path === CONSOLE_PREFIX || path === `${CONSOLE_PREFIX}/`) return CONSOLE_INDEX;
  if (!path.startsWith(`${CONSOLE_PREFIX}/`)) return null;
  const segments: string[] = [];
  for (const raw of path.slice(CONSOLE_PREFIX.length + 1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[\\/\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

export function contentTypeOf(file: string): string | null {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? null : (CONSOLE_CONTENT_TYPES[file.slice(dot).toLowerCase()] ?? null);
}
