import { BinaryLookup, locateFfmpeg } from './ffmpeg-binaries';

/** A machine with these executables and these installed packages (name → export). */
function machine(executables: string[], packages: Record<string, unknown> = {}): BinaryLookup {
  const files = new Set(executables);
  return { isExecutable: (f) => files.has(f), loadPackage: (name) => packages[name] };
}

describe('locateFfmpeg', () => {
  it('takes FFMPEG_PATH first, with ffprobe beside it', () => {
    const found = locateFfmpeg(
      { FFMPEG_PATH: '/opt/ff/ffmpeg', PATH: '/usr/bin' },
      machine(['/opt/ff/ffmpeg', '/opt/ff/ffprobe', '/usr/bin/ffmpeg', '/usr/bin/ffprobe']),
    );
    expect(found).toEqual({ ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/opt/ff/ffprobe', source: 'FFMPEG_PATH' });
  });

  it('takes FFPROBE_PATH over the ffprobe beside FFMPEG_PATH', () => {
    const found = locateFfmpeg(
      { FFMPEG_PATH: '/opt/ff/ffmpeg', FFPROBE_PATH: '/opt/probe/ffprobe' },
      machine(['/opt/ff/ffmpeg', '/opt/ff/ffprobe', '/opt/probe/ffprobe']),
    );
    expect(found.ffprobe).toBe('/opt/probe/ffprobe');
  });

  it('refuses a FFMPEG_PATH that is not executable instead of quietly running another ffmpeg', () => {
    expect(() => locateFfmpeg({ FFMPEG_PATH: '/nope/ffmpeg', PATH: '/usr/bin' }, machine(['/usr/bin/ffmpeg', '/usr/bin/ffprobe']))).toThrow(
      expect.objectContaining({ code: 'FFMPEG_UNAVAILABLE', kind: 'unavailable', details: 'FFMPEG_PATH=/nope/ffmpeg is not an executable file' }),
    );
    expect(() => locateFfmpeg({ FFMPEG_PATH: '/opt/ff/ffmpeg' }, machine(['/opt/ff/ffmpeg']))).toThrow(
      expect.objectContaining({ details: 'ffprobe beside FFMPEG_PATH: /opt/ff/ffprobe is not an executable file (set FFPROBE_PATH)' }),
    );
  });

  it('then the first ffmpeg on the PATH, skipping empty and relative entries', () => {
    const found = locateFfmpeg({ PATH: ':.:bin:/usr/local/bin:/usr/bin' }, machine(['./ffmpeg', 'bin/ffmpeg', '/usr/bin/ffmpeg', '/usr/bin/ffprobe']));
    expect(found).toEqual({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', source: 'PATH' });
  });

  it('then ffmpeg-static, with ffprobe from ffprobe-static', () => {
    const found = locateFfmpeg(
      { PATH: '/usr/bin' },
      machine(['/app/node_modules/ffmpeg-static/ffmpeg', '/app/node_modules/ffprobe-static/bin/linux/x64/ffprobe'], {
        'ffmpeg-static': '/app/node_modules/ffmpeg-static/ffmpeg',
        'ffprobe-static': { path: '/app/node_modules/ffprobe-static/bin/linux/x64/ffprobe' },
      }),
    );
    expect(found).toEqual({
      ffmpeg: '/app/node_modules/ffmpeg-static/ffmpeg',
      ffprobe: '/app/node_modules/ffprobe-static/bin/linux/x64/ffprobe',
      source: 'ffmpeg-static',
    });
  });

  it('then @ffmpeg-installer/ffmpeg, with ffprobe from the PATH when no companion package is installed', () => {
    const found = locateFfmpeg(
      { PATH: '/usr/bin' },
      machine(['/app/inst/ffmpeg', '/usr/bin/ffprobe'], { '@ffmpeg-installer/ffmpeg': { path: '/app/inst/ffmpeg', version: '4.1' } }),
    );
    expect(found).toEqual({ ffmpeg: '/app/inst/ffmpeg', ffprobe: '/usr/bin/ffprobe', source: '@ffmpeg-installer/ffmpeg' });
  });

  it('names everything it tried when there is no ffmpeg', () => {
    expect(() => locateFfmpeg({ PATH: '/usr/bin' }, machine([], { 'ffmpeg-static': null }))).toThrow(
      expect.objectContaining({
        code: 'FFMPEG_UNAVAILABLE',
        details:
          'no ffmpeg with ffprobe found; tried FFMPEG_PATH (unset), PATH (no ffmpeg), ffmpeg-static (not installed), ' +
          '@ffmpeg-installer/ffmpeg (not installed). Install ffmpeg or set FFMPEG_PATH',
      }),
    );
  });

  it('does not take an ffmpeg on the PATH without an ffprobe', () => {
    expect(() => locateFfmpeg({ PATH: '/usr/bin' }, machine(['/usr/bin/ffmpeg']))).toThrow(
      expect.objectContaining({ details: expect.stringContaining('PATH (ffmpeg at /usr/bin/ffmpeg, but no ffprobe)') }),
    );
  });
});
