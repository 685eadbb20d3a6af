/** Thrown when an event does not match its schema, on write or on read. */
export class EventSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventSchemaError';
  }
}
