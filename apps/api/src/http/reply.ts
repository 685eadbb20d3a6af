/**
 * The seam between controllers/guards and the HTTP framework: fastify's reply and
 * express's response both answer `header(name, value)`; status and send differ.
 */
export function setHeader(reply: any, name: string, value: string | number): void {
  reply.header(name, String(value));
}

export function sendJson(reply: any, status: number, body: unknown): void {
  if (typeof reply.code === 'function' && typeof reply.send === 'function' && 'raw' in reply) {
    reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
  } else {
    reply.status(status).json(body);
  }
}
