import { checkpointDue, flaggedSegments } from './video-segments';

const f = (timestamp: number, action: 'allow' | 'warn' | 'flag' | 'block', triggered: string[] = []) => ({
  timestamp,
  action,
  flagged: action !== 'allow',
  triggered,
});

describe('flaggedSegments', () => {
  it('merges consecutive flagged frames into spans with their categories and worst action', () => {
    expect(
      flaggedSegments([f(0, 'allow'), f(2, 'flag', ['violence']), f(4, 'block', ['violence', 'hate']), f(6, 'allow'), f(8, 'warn', ['harassment'])]),
    ).toEqual([
      { start: 2, end: 4, categories: ['violence', 'hate'], action: 'block', frames: 2 },
      { start: 8, end: 8, categories: ['harassment'], action: 'warn', frames: 1 },
    ]);
  });

  it('orders frames by time and gives nothing for a clean video', () => {
    expect(flaggedSegments([f(4, 'flag', ['x']), f(2, 'flag', ['y'])])).toEqual([{ start: 2, end: 4, categories: ['y', 'x'], action: 'flag', frames: 2 }]);
    expect(flaggedSegments([f(0, 'allow'), f(1, 'allow')])).toEqual([]);
  });
});

describe('checkpointDue', () => {
  it('checkpoints after enough frames or enough time with something new', () => {
    expect(checkpointDue({ frames: 5, ms: 10 }, { frames: 5, ms: 2000 })).toBe(true);
    expect(checkpointDue({ frames: 1, ms: 2500 }, { frames: 5, ms: 2000 })).toBe(true);
    expect(checkpointDue({ frames: 0, ms: 9000 }, { frames: 5, ms: 2000 })).toBe(false);
  });
});
