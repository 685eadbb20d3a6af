/** The property of the request object (fastify's or express's) that holds its id: the
 * `x-request-id` it answers with (acceptRequestId), set before any guard or route runs. */
export const REQUEST_ID = 'cdsRequestId';

/** The id of `req`, when the request got that far. */
export function requestIdOf(req: unknown): string | undefined {
  const id = (req as Record<string, unknown> | null | undefined)?.[REQUEST_ID];
  return typeof id === 'string' ? id : undefined;
}
