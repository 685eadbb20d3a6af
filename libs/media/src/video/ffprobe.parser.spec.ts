import { lacksDuration, packetSpan, parseProbe } from './ffprobe.parser';

/** Trimmed from ffprobe 5.1 on a 6 s testsrc2 clip, H.264 in MP4. */
const mp4 = () => ({
  streams: [
    {
      index: 0,
      codec_name: 'h264',
      codec_type: 'video',
      width: 320,
      height: 240,
      r_frame_rate: '25/1',
      avg_frame_rate: '25/1',
      duration: '6.000000',
      nb_frames: '150',
      disposition: { default: 1, attached_pic: 0, timed_thumbnails: 0 },
    },
  ],
  format: { filename: 'file:/tmp/a.mp4', nb_streams: 1, format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '6.000000' },
});

/** Matroska: the stream's duration only as a tag, no frame count; a Vorbis track. */
const mkv = () => ({
  streams: [
    {
      index: 0,
      codec_name: 'h264',
      codec_type: 'video',
      width: 320,
      height: 240,
      r_frame_rate: '25/1',
      avg_frame_rate: '25/1',
      tags: { DURATION: '00:00:06.003000000' },
    },
    { index: 1, codec_name: 'vorbis', codec_type: 'audio', r_frame_rate: '0/0', avg_frame_rate: '0/0', tags: { DURATION: '00:00:06.003000000' } },
  ],
  format: { format_name: 'matroska,webm', duration: '6.003000' },
});

const failure = (json: unknown, o = {}) => {
  try {
    parseProbe(json, o);
  } catch (err) {
    return err;
  }
  throw new Error('parseProbe accepted it');
};

describe('parseProbe', () => {
  it('reads an H.264 MP4', () => {
    expect(parseProbe(mp4())).toEqual({
      container: 'mp4',
      codec: 'h264',
      width: 320,
      height: 240,
      durationSeconds: 6,
      fps: 25,
      frameCount: 150,
      hasAudio: false,
    });
  });

  it('reads a Matroska file: duration from the stream tag, audio seen, no frame count', () => {
    expect(parseProbe(mkv())).toEqual({
      container: 'matroska',
      codec: 'h264',
      width: 320,
      height: 240,
      durationSeconds: 6.003,
      fps: 25,
      frameCount: null,
      hasAudio: true,
    });
  });

  it('falls back to the file duration, r_frame_rate and a language-suffixed NUMBER_OF_FRAMES tag', () => {
    const json = mkv();
    json.streams[0] = { ...json.streams[0], avg_frame_rate: '0/0', r_frame_rate: '30000/1001', tags: { 'NUMBER_OF_FRAMES-eng': '180' } as never };
    expect(parseProbe(json)).toMatchObject({ durationSeconds: 6.003, fps: 29.97, frameCount: 180 });
  });

  it('swaps the sides of a video recorded upright (display matrix rotation, or the old rotate tag)', () => {
    const rotated = mp4();
    Object.assign(rotated.streams[0], { width: 1920, height: 1080, side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] });
    expect(parseProbe(rotated)).toMatchObject({ width: 1080, height: 1920 });
    const tagged = mp4();
    Object.assign(tagged.streams[0], { width: 1920, height: 1080, tags: { rotate: '270' } });
    expect(parseProbe(tagged)).toMatchObject({ width: 1080, height: 1920 });
    const upsideDown = mp4();
    Object.assign(upsideDown.streams[0], { width: 1920, height: 1080, side_data_list: [{ rotation: 180 }] });
    expect(parseProbe(upsideDown)).toMatchObject({ width: 1920, height: 1080 });
  });

  it('skips cover art to find the real video stream', () => {
    const json = mp4();
    json.streams.unshift({
      ...json.streams[0],
      index: 0,
      codec_name: 'mjpeg',
      width: 600,
      height: 600,
      disposition: { default: 0, attached_pic: 1, timed_thumbnails: 0 },
    });
    expect(parseProbe(json)).toMatchObject({ codec: 'h264', width: 320 });
  });

  it('refuses an image demuxer and an unaccepted container as UNSUPPORTED_VIDEO_FORMAT', () => {
    expect(failure({ ...mp4(), format: { format_name: 'png_pipe' } })).toMatchObject({
      kind: 'invalid',
      code: 'UNSUPPORTED_VIDEO_FORMAT',
      details: 'the container is png_pipe; accepted: MP4/MOV/3GP, Matroska/WebM, AVI, MPEG-TS',
    });
    expect(failure({ ...mp4(), format: { format_name: 'hls' } })).toMatchObject({ code: 'UNSUPPORTED_VIDEO_FORMAT' });
    expect(failure({ ...mp4(), format: { format_name: 'flv', duration: '6' } })).toMatchObject({ code: 'UNSUPPORTED_VIDEO_FORMAT' });
  });

  it('refuses a codec outside the accepted list as UNSUPPORTED_VIDEO_FORMAT', () => {
    const json = mp4();
    json.streams[0].codec_name = 'prores';
    expect(failure(json)).toMatchObject({
      code: 'UNSUPPORTED_VIDEO_FORMAT',
      details: 'the video codec is prores; accepted: h264, hevc, vp8, vp9, av1, mpeg4, mpeg2video, mjpeg',
    });
  });

  it('refuses a file without a video stream as INVALID_VIDEO', () => {
    const audioOnly = mkv();
    audioOnly.streams.shift();
    expect(failure(audioOnly)).toMatchObject({ code: 'INVALID_VIDEO', details: 'the file has no video stream (audio only)' });
    expect(failure({ streams: [], format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } })).toMatchObject({
      code: 'INVALID_VIDEO',
      details: 'the file has no video stream',
    });
  });

  it('refuses a video without a duration or a frame size as INVALID_VIDEO', () => {
    const noDuration = mp4();
    delete (noDuration.streams[0] as { duration?: string }).duration;
    delete (noDuration.format as { duration?: string }).duration;
    expect(failure(noDuration)).toMatchObject({ code: 'INVALID_VIDEO', details: 'the file does not say how long the video lasts' });
    const zeroSize = mp4();
    zeroSize.streams[0].width = 0;
    expect(failure(zeroSize)).toMatchObject({ code: 'INVALID_VIDEO', details: 'the video stream has no frame size (0×240)' });
  });

  it('refuses garbage as INVALID_VIDEO', () => {
    for (const junk of [null, 42, 'text', [], {}, { streams: 'x', format: {} }, { streams: [] }]) {
      expect(failure(junk)).toMatchObject({ code: 'INVALID_VIDEO', details: 'the file is not a video ffprobe can describe' });
    }
  });

  it('refuses a frame size above maxPixels as VIDEO_TOO_LARGE, naming both', () => {
    const huge = mp4();
    Object.assign(huge.streams[0], { width: 8000, height: 8000 });
    expect(failure(huge, { maxPixels: 3840 * 2160 })).toMatchObject({
      code: 'VIDEO_TOO_LARGE',
      details: 'the video is 8000×8000 = 64000000 pixels per frame; the limit is 8294400 pixels',
    });
    expect(parseProbe(mp4(), { maxPixels: 320 * 240 })).toMatchObject({ width: 320 });
  });

  it('takes a measured duration for a file that declares none, and only then', () => {
    const live = mkv();
    for (const st of live.streams) delete (st as { tags?: unknown }).tags;
    delete (live.format as { duration?: string }).duration;
    expect(lacksDuration(live)).toBe(true);
    expect(parseProbe(live, { measuredDurationSeconds: 3.96 })).toMatchObject({ durationSeconds: 3.96 });
    expect(lacksDuration(mkv())).toBe(false);
    expect(parseProbe(mkv(), { measuredDurationSeconds: 99 })).toMatchObject({ durationSeconds: 6.003 });
    expect(lacksDuration({ streams: [], format: {} })).toBe(false);
    expect(lacksDuration('junk')).toBe(false);
  });
});

describe('packetSpan', () => {
  it('is the last packet end minus the first start, whatever the start time', () => {
    expect(packetSpan('0.000000,0.040000\n0.040000,0.040000\n3.960000,0.040000\n')).toBe(4);
    expect(packetSpan('\n1.480000,0.040000\n\n3.440000,0.040000\n')).toBe(2);
    expect(packetSpan('0.000000,N/A\n0.033000,N/A\n')).toBe(0.033);
  });

  it('is undefined without packets or with one packet of unknown length', () => {
    expect(packetSpan('')).toBeUndefined();
    expect(packetSpan('N/A,N/A\n')).toBeUndefined();
    expect(packetSpan('0.000000,N/A\n')).toBeUndefined();
  });
});
