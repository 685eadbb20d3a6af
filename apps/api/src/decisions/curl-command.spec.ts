import { execFileSync } from 'node:child_process';
import { asciiJson, buildCurl, safeBase, shellQuote } from './curl-command';

const echoArgs = (cmd: string) =>
  // Replace curl by a printer of its arguments, so the shell's parsing is what is tested.
  execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }; ${cmd}`], { env: { API_KEY: 'k123' }, encoding: 'utf8' }).split('\n');

describe('curl command', () => {
  it('quotes anything so the shell passes it through unchanged', () => {
    for (const s of [`it's`, '$(id)', '`id`', '$HOME', 'a\nb', "'''", '\\', '!event', 'é 日本 🙂']) {
      expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(s)}`], { encoding: 'utf8' })).toBe(s);
    }
  });

  it('escapes non-ASCII so the body is printable ASCII and parses back to the same value', () => {
    const v = { content: 'é 日本 🙂 \u2028 \u0000 "q"' };
    const s = asciiJson(v);
    expect(s).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(s)).toEqual(v);
  });

  it('reads the key from $API_KEY and sends the original request body', () => {
    const d = { content: `x'; rm -rf / #$(id)`, policyId: 'p', contentType: 'text' as const, language: 'fr', metadata: { userId: 'u' } };
    const args = echoArgs(buildCurl('http://h:1', d));
    expect(args).toContain('Authorization: Bearer k123');
    expect(args).toContain('http://h:1/v1/check');
    const body = JSON.parse(args[args.indexOf('--data-binary') + 1]);
    expect(body).toEqual(d);
  });

  it('keeps only scheme, host and path of a base address', () => {
    expect(safeBase('https://a.example/api/')).toBe('https://a.example/api');
    expect(safeBase("http://h'x")).toBe('http://localhost');
    expect(safeBase('javascript:alert(1)')).toBe('http://localhost');
  });
});

describe('curl command for media decisions', () => {
  it('re-sends an image by its reference, never its bytes', () => {
    const ref = `media:sha256:${'a'.repeat(64)}`;
    const args = echoArgs(buildCurl('http://h:1', { content: ref, policyId: 'p', contentType: 'image', language: 'en', metadata: {} }));
    expect(JSON.parse(args[args.indexOf('--data-binary') + 1])).toEqual({ content: ref, policyId: 'p', contentType: 'image', language: 'en' });
  });

  it('re-runs a multimodal check on its endpoint with its text, images, context and metadata', () => {
    const part = (contentType: 'text' | 'image', contentRef: string | null) => ({
      contentType,
      contentRef,
      signals: {},
      ocrText: null,
      media: null,
      categories: [],
      action: 'allow' as const,
      safe: true,
      flagged: false,
    });
    const args = echoArgs(
      buildCurl('http://h:1', {
        content: 'caption',
        policyId: 'p',
        contentType: 'multimodal',
        language: 'de',
        metadata: { postId: 'x', context: { useCase: 'comment' } },
        parts: [part('text', null), part('image', 'https://img.example/a.png')],
      }),
    );
    expect(args).toContain('http://h:1/v1/check/multimodal');
    expect(JSON.parse(args[args.indexOf('--data-binary') + 1])).toEqual({
      text: 'caption',
      images: ['https://img.example/a.png'],
      policyId: 'p',
      context: { useCase: 'comment', language: 'de' },
      metadata: { postId: 'x' },
    });
  });
});

describe('curl command for videos', () => {
  it('re-checks a video URL, and re-uploads a kept upload through GET /v1/media', () => {
    const byUrl = echoArgs(buildCurl('http://h:1', { content: 'https://v.example/a.mp4', policyId: 'p', contentType: 'video', language: 'en', metadata: {} }));
    expect(byUrl).toContain('http://h:1/v1/video/check');
    expect(JSON.parse(byUrl[byUrl.indexOf('--data-binary') + 1])).toEqual({ videoUrl: 'https://v.example/a.mp4', policyId: 'p', language: 'en' });
    const sha = 'b'.repeat(64);
    const cmd = buildCurl('http://h:1', { content: `media:sha256:${sha}`, policyId: "p'x", contentType: 'video', language: 'en', metadata: {} });
    expect(cmd).toContain(`'http://h:1/v1/media/sha256/${sha}' -H "Authorization: Bearer $API_KEY" | curl -sS -X POST 'http://h:1/v1/video/upload'`);
    expect(cmd).toContain(`-F 'policyId=p'\\''x'`);
  });
});
