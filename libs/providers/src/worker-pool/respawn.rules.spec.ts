import { respawnDelayMs } from './respawn.rules';

describe('respawnDelayMs', () => {
  it('doubles from half a second and stops at thirty', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(respawnDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(respawnDelayMs(0)).toBe(500);
  });
});
