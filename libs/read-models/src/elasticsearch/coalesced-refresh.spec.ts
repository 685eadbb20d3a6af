import { CoalescedRefresh } from './coalesced-refresh';

function controllable() {
  const rounds: { indices: string[]; resolve: () => void; reject: (e: Error) => void }[] = [];
  const refresher = new CoalescedRefresh((indices) => new Promise<void>((resolve, reject) => rounds.push({ indices: [...indices].sort(), resolve, reject })));
  return { refresher, rounds };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('CoalescedRefresh', () => {
  it('refreshes at once when idle, and answers the writer when that round is done', async () => {
    const { refresher, rounds } = controllable();
    let done = false;
    void refresher.after(['a']).then(() => (done = true));
    expect(rounds.map((r) => r.indices)).toEqual([['a']]);
    await tick();
    expect(done).toBe(false);
    rounds[0].resolve();
    await tick();
    expect(done).toBe(true);
  });

  it('writers arriving during a round share the next one, which covers all their indices', async () => {
    const { refresher, rounds } = controllable();
    const first = refresher.after(['a']);
    const settled: string[] = [];
    void refresher.after(['b']).then(() => settled.push('b'));
    void refresher.after(['c', 'a']).then(() => settled.push('c'));
    expect(rounds).toHaveLength(1); // not answered by the round that began before them
    rounds[0].resolve();
    await first;
    await tick();
    expect(settled).toEqual([]);
    expect(rounds.map((r) => r.indices)).toEqual([['a'], ['a', 'b', 'c']]);
    rounds[1].resolve();
    await tick();
    expect(settled).toEqual(['b', 'c']);
  });

  it('a failed round fails its writers (their batch is retried); later writers get a new round', async () => {
    const { refresher, rounds } = controllable();
    const failing = refresher.after(['a']);
    rounds[0].reject(new Error('node away'));
    await expect(failing).rejects.toThrow('node away');
    await tick();
    const later = refresher.after(['b']);
    expect(rounds.map((r) => r.indices)).toEqual([['a'], ['b']]);
    rounds[1].resolve();
    await expect(later).resolves.toBeUndefined();
  });

  it('writers waiting on a round that fails are still served by the next round', async () => {
    const { refresher, rounds } = controllable();
    void refresher.after(['a']).catch(() => undefined);
    const waiting = refresher.after(['b']);
    rounds[0].reject(new Error('busy'));
    await tick();
    expect(rounds.map((r) => r.indices)).toEqual([['a'], ['b']]);
    rounds[1].resolve();
    await expect(waiting).resolves.toBeUndefined();
  });
});
