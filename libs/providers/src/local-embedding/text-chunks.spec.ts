import { chunkText } from './text-chunks';

describe('chunkText', () => {
  const limits = { chunkChars: 100, maxChunks: 3 };

  it('keeps a short text whole (trimmed)', () => {
    expect(chunkText('  hello there  ', limits)).toEqual(['hello there']);
    expect(chunkText('', limits)).toEqual(['']);
  });

  it('cuts a long text at the last sentence end in the second half of each chunk', () => {
    const a = 'a'.repeat(60) + '. ';
    const b = 'b'.repeat(60) + '. ';
    const chunks = chunkText(a + b + 'c'.repeat(50), limits);
    expect(chunks).toEqual([a.trim(), b.trim(), 'c'.repeat(50)]);
  });

  it('prefers a paragraph break, then a sentence end, then any space', () => {
    const text = 'x'.repeat(55) + '. ' + 'y'.repeat(10) + '\n\n' + 'z'.repeat(20) + ' ' + 'w'.repeat(60);
    expect(chunkText(text, limits)[0]).toBe('x'.repeat(55) + '. ' + 'y'.repeat(10));
  });

  it('cuts hard where there is no break (CJK), never inside a surrogate pair', () => {
    const cjk = '死'.repeat(250);
    expect(chunkText(cjk, limits).map((c) => c.length)).toEqual([100, 100, 50]);
    const emoji = 'a' + '😀'.repeat(80);
    const chunks = chunkText(emoji, limits);
    expect(chunks.join('')).toBe(emoji);
    for (const c of chunks) expect(/[\ud800-\udbff]$/.test(c)).toBe(false);
    expect(chunks[0].length).toBe(99);
  });

  it('reads at most maxChunks chunks', () => {
    const chunks = chunkText('word '.repeat(1000), limits);
    expect(chunks).toHaveLength(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(100);
  });
});
