import { backendProblem } from './nsfw-pool.rules';

describe('backendProblem', () => {
  it('accepts only wasm with SIMD', () => {
    expect(backendProblem({ backend: 'wasm', simd: true })).toBeNull();
    expect(backendProblem({ backend: 'wasm', simd: false })).toMatch(/no SIMD/);
    expect(backendProblem({ backend: 'cpu', simd: false })).toMatch(/"cpu" backend, not "wasm"/);
  });
});
