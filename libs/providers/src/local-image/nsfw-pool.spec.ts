import { NsfwPool } from './nsfw-pool';

describe('NsfwPool.start', () => {
  it('refuses nonsense sizes before starting any worker', () => {
    expect(() => NsfwPool.start({ workers: 0 })).toThrow(RangeError);
    expect(() => NsfwPool.start({ workers: 1.5 })).toThrow(/workers must be an integer/);
    expect(() => NsfwPool.start({ workers: 1, queueLimit: -1 })).toThrow(/queueLimit must be an integer/);
  });
});
