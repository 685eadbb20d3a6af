import { Logger, LoggerService, LogLevel } from '@nestjs/common';
import { JsonLogger, LogLevelName } from './json-logger';

const LEVELS: LogLevelName[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/**
 * The process's logger, from LOG_FORMAT and LOG_LEVEL: JSON lines (pino) by default, or
 * Nest's coloured text. Every `new Logger(context)` writes through it; hand the result to
 * NestFactory as `logger` too.
 */
export function configureLogging(o: { role: string; format: 'json' | 'text'; level: LogLevelName }): LoggerService | LogLevel[] {
  if (o.format === 'text') {
    const levels = LEVELS.slice(0, LEVELS.indexOf(o.level) + 1);
    Logger.overrideLogger(levels);
    return levels;
  }
  const logger = new JsonLogger(o.role, o.level);
  Logger.overrideLogger(logger);
  // Node's own warnings (deprecations...) as JSON lines too, not bare text on stderr.
  process.removeAllListeners('warning');
  process.on('warning', (w) => logger.warn(`${w.name}: ${w.message}`, 'Node'));
  process.once('exit', () => logger.flush());
  return logger;
}
