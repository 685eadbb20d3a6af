/** Which answers are redirects, and where they point. Plain functions of the status and headers. */
import { mediaFetchFailed } from './media-errors';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The absolute URL a redirect's Location names, resolved against the URL that
 * answered (relative, scheme-relative and absolute Locations). The caller vets it
 * like any other URL before following it.
 */
export function redirectTarget(status: number, location: string | string[] | undefined, current: string | URL): string {
  const value = Array.isArray(location) ? location[0] : location;
  if (value === undefined || value.trim() === '') throw mediaFetchFailed(`status ${status} redirect without a Location`);
  try {
    return new URL(value.trim(), current).href;
  } catch {
    throw mediaFetchFailed(`status ${status} redirect to an invalid URL`);
  }
}
