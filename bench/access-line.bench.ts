import { AccessLog, JsonLogger, LogLevelName } from '@cds/logging';

/**
 * npm run bench:access-line [level] — what one access line costs by itself: AccessLog and
 * the JSON logger writing to stdout (pipe it: `| cat > /dev/null`), CPU and wall time a
 * line over 200 000 lines; at `warn`, what it costs below the level (the baseline).
 */
const level = (process.argv[2] ?? 'log') as LogLevelName;
const logger = new JsonLogger('all', level);
const access = new AccessLog({ enabled: true, maxPerSecond: 1e9, write: (line) => logger.log(line, 'Http') });
const fields = {
  method: 'POST',
  route: '/v1/check',
  status: 200,
  ms: 3.4,
  requestId: '3f2c3a4e-8d1b-4a8e-9b7c-2f1e0d9c8b7a',
  tenant: 'default',
  keyId: 'admin',
};
for (let i = 0; i < 20_000; i++) access.record(fields);
const n = 200_000;
const started = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
for (let i = 0; i < n; i++) access.record(fields);
const cpu = process.cpuUsage(cpu0);
const wall = Number(process.hrtime.bigint() - started) / 1e3 / n;
process.stderr.write(`LOG_LEVEL=${level}: ${wall.toFixed(2)} µs wall, ${((cpu.user + cpu.system) / n).toFixed(2)} µs CPU a line\n`);
