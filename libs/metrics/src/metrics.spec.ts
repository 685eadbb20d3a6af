import { Metrics } from './metrics';

const names = (text: string) => new Set(text.split('\n').flatMap((l) => /^# TYPE (\S+) /.exec(l)?.[1] ?? []));

describe('Metrics names', () => {
  it("exports prom-client's process and runtime metrics under prom-client's own names", async () => {
    const exported = names((await new Metrics('api').render()).body);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'process_open_fds',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_gc_duration_seconds',
      'nodejs_version_info',
    ]) {
      expect({ name, exported: exported.has(name) }).toEqual({ name, exported: true });
    }
    expect([...exported].filter((n) => n.startsWith('cds_process_') || n.startsWith('cds_nodejs_'))).toEqual([]);
  });

  it("keeps the service's own metrics under cds_, and every series labelled with the role", async () => {
    const m = new Metrics('worker');
    m.gauge('cds_ocr_waiting', 'images waiting', [], (set) => set({}, 2));
    const text = (await m.render()).body;
    const own = [...names(text)].filter((n) => !n.startsWith('process_') && !n.startsWith('nodejs_'));
    expect(own.length).toBeGreaterThan(5);
    for (const name of own) expect(name).toMatch(/^cds_/);
    expect(text).toMatch(/^process_cpu_seconds_total\{role="worker"\} /m);
    expect(text).toMatch(/^cds_ocr_waiting\{role="worker"\} 2$/m);
  });
});
