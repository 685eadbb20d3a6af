import { SourceLines } from './source-lines';

describe('SourceLines', () => {
  it('maps offsets to 1-based lines and columns for LF, CRLF and CR line ends', () => {
    const text = 'ab\ncd\r\nef\rgh';
    const lines = new SourceLines(text);
    expect(lines.at(0)).toEqual({ line: 1, column: 1 });
    expect(lines.at(text.indexOf('d'))).toEqual({ line: 2, column: 2 });
    expect(lines.at(text.indexOf('\n', 4))).toEqual({ line: 2, column: 4 });
    expect(lines.at(text.indexOf('e'))).toEqual({ line: 3, column: 1 });
    expect(lines.at(text.indexOf('h'))).toEqual({ line: 4, column: 2 });
  });
});
