import { acceptedContainer, DECODER_WHITELIST, DEMUXER_WHITELIST, isAcceptedCodec, looksLikeTransportStream } from './video-formats';

describe('accepted video formats', () => {
  it('names the accepted containers by ffprobe format_name, and nothing else', () => {
    expect(acceptedContainer('mov,mp4,m4a,3gp,3g2,mj2')).toBe('mp4');
    expect(acceptedContainer('matroska,webm')).toBe('matroska');
    expect(acceptedContainer('mpegts')).toBe('mpegts');
    for (const other of ['png_pipe', 'image2', 'hls', 'concat', 'ogg', 'flv', 'mp4', 'toString']) expect(acceptedContainer(other)).toBeNull();
  });

  it('accepts codecs by ffprobe codec_name, not by inherited object keys', () => {
    expect(isAcceptedCodec('av1')).toBe(true);
    expect(isAcceptedCodec('prores')).toBe(false);
    expect(isAcceptedCodec('constructor')).toBe(false);
  });

  it('gives ffmpeg one demuxer name per container and the decoders of each codec', () => {
    expect(DEMUXER_WHITELIST).toBe('mov,matroska,avi,mpegts');
    expect(DECODER_WHITELIST.split(',')).toEqual(expect.arrayContaining(['h264', 'libdav1d', 'vp9']));
  });

  it('recognises MPEG-TS and M2TS by their sync bytes', () => {
    const ts = Buffer.alloc(600);
    [0, 188, 376].forEach((i) => (ts[i] = 0x47));
    expect(looksLikeTransportStream(ts)).toBe(true);
    const m2ts = Buffer.alloc(600);
    [4, 196, 388].forEach((i) => (m2ts[i] = 0x47));
    expect(looksLikeTransportStream(m2ts)).toBe(true);
    const once = Buffer.alloc(600);
    once[0] = 0x47;
    expect(looksLikeTransportStream(once)).toBe(false);
    expect(looksLikeTransportStream(ts.subarray(0, 300))).toBe(false);
  });
});
