import { backendProblem, respawnDelayMs } from './nsfw-pool.rules';

describe('backendProblem', () => {
  it('accepts only wasm with SIMD', () => {
    expect(backendProblem({ backend: 'wasm', simd: true })).toBeNull();
    expect(backendProblem({ backend: 'wasm', simd: false })).toMatch(/no SIMD/);
    expect(backendProblem({ backend: 'cpu', simd: false })).toMatch(/"cpu" backend, not "wasm"/);
  });
});

describe('respawnDelayMs', () => {
  it('doubles from half a second and stops at thirty', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(respawnDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(respawnDelayMs(0)).toBe(500);
  });
});
