import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';

export type LogLevelName = 'error' | 'warn' | 'log' | 'debug' | 'verbose';

const PINO_LEVEL: Record<LogLevelName, string> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Nest's logger as one JSON object a line (pino): `{level, time, role, pid, context, msg,
 * requestId?, err?}`. A message given as an object is merged into the line: work done for
 * a request logs `{ msg, requestId }`, so an answer's `x-request-id` finds its lines in
 * every process. Messages name ids and reasons, never content or secrets (the callers'
 * rule; nothing here adds any).
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(role: string, level: LogLevelName, destination: pino.DestinationStream = pino.destination({ fd: 1, sync: true })) {
    this.pino = pino(
      {
        level: PINO_LEVEL[level],
        base: { role, pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    );
  }

  // Nest's levels, each written at pino's level of that name (`log` is info, `verbose` trace)
  log = (message: unknown, ...params: unknown[]): void => this.write('info', message, params);
  error = (message: unknown, ...params: unknown[]): void => this.write('error', message, params);
  warn = (message: unknown, ...params: unknown[]): void => this.write('warn', message, params);
  debug = (message: unknown, ...params: unknown[]): void => this.write('debug', message, params);
  verbose = (message: unknown, ...params: unknown[]): void => this.write('trace', message, params);
  fatal = (message: unknown, ...params: unknown[]): void => this.write('fatal', message, params);

  /** Writes what is buffered (before the process exits). */
  flush(): void {
    this.pino.flush();
  }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, params: unknown[]): void {
    // the access line of every request is a debug line: below the level, build nothing
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest passes (message, context) or, for errors, (message, stack, context).
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const stack = level === 'error' && params.length > 1 && typeof params[0] === 'string' ? (params[0] as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) this.pino[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ ...fields, ...message });
    else this.pino[level](fields, String(message));
  }
}
