import { LocalImageModel } from './local-image.model';

describe('LocalImageModel', () => {
  it('closed while its model is loading, it logs no failure', async () => {
    const logs: string[] = [];
    const model = new LocalImageModel({ workers: 1, log: (level, message) => logs.push(`${level}: ${message}`) });
    const pool = model.start();
    await model.close();
    await expect(pool.ready()).rejects.toThrow(/closed/);
    // The rejection handler of start() runs on the same settled promise: let it run.
    await new Promise((r) => setImmediate(r));
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(model.state).toBe('idle');
  });
});
