import { LocalTextRuntime } from './local-text.runtime';

describe('LocalTextRuntime (embedding)', () => {
  it('closed while its model is loading, it logs no failure', async () => {
    const logs: string[] = [];
    const runtime = new LocalTextRuntime({ kind: 'embedding', workers: 1, log: (level, message) => logs.push(`${level}: ${message}`) });
    runtime.start();
    expect(runtime.state).toBe('loading');
    const loading = runtime.ready();
    await runtime.close();
    await expect(loading).rejects.toThrow(/closed/);
    await new Promise((r) => setImmediate(r));
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(runtime.state).toBe('idle');
  });
});
