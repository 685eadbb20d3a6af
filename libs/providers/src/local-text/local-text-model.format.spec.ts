import { LocalTextModel, LocalTextModelFormatError, decodeLocalTextModel, encodeLocalTextModel } from './local-text-model.format';

function tinyModel(encoding: 'int8' | 'int8-deflate'): LocalTextModel {
  const bits = 8;
  const table = new Int8Array((1 << bits) * 2);
  for (let i = 0; i < table.length; i++) table[i] = ((i * 37) % 255) - 127;
  return {
    header: {
      format: 1,
      signals: ['a', 'b'],
      featurizer: { bits, charMin: 2, charMax: 5 },
      tableEncoding: encoding,
      scales: [0.01, 0.02],
      bias: [-1, -2],
      denseNames: [],
      denseWeights: [],
      calibration: [
        { a: 1, b: 0 },
        { a: 2, b: -1 },
      ],
      lexiconFile: 'lex.json',
      lexiconSha256: 'x',
      lexiconFloors: [{ lexiconCategory: 'self_harm_intent', signals: ['a'], score: 0.8 }],
    },
    table,
  };
}

describe('local text model format', () => {
  it.each(['int8', 'int8-deflate'] as const)('round-trips a model (%s)', (encoding) => {
    const model = tinyModel(encoding);
    const decoded = decodeLocalTextModel(encodeLocalTextModel(model));
    expect(decoded.header).toEqual(model.header);
    expect(Array.from(decoded.table)).toEqual(Array.from(model.table));
  });

  it('rejects files that are not a model', () => {
    expect(() => decodeLocalTextModel(Buffer.from('not a model at all'))).toThrow(LocalTextModelFormatError);
    const bin = encodeLocalTextModel(tinyModel('int8'));
    expect(() => decodeLocalTextModel(bin.subarray(0, bin.length - 10))).toThrow(/expected/);
  });
});
